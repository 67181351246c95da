import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ClusterCredentials } from "../../../src/client/config/credentials.js";
import { CredentialsError } from "../../../src/client/config/credentials.js";
import { RequestError } from "../../../src/client/errors.js";
import { createTransport, type Exchange, type Transport, warningsOf } from "../../../src/client/transport/request.js";
import { type FakeApiServer, startFakeApiServer } from "../../support/admission/fake-api-server.js";
import { certProblem } from "../../support/storage/cert.js";
import { type Skippable, skipWithout } from "../../support/tools.js";

const TOKEN = "s3cr3t-token-of-the-test";
const LIST = "/apis/networking.k8s.io/v1/ingressclasses";
const GET: Exchange = { method: "GET", path: LIST, accept: "application/json" };

let fake: FakeApiServer | undefined;
const dirs: string[] = [];
const transports: Transport[] = [];
beforeAll(async () => {
  fake = await startFakeApiServer({ token: TOKEN });
});
afterAll(async () => {
  await fake?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  for (const t of transports.splice(0)) t.close();
  if (fake === undefined) return;
  fake.requests.length = 0;
  fake.warnings = [];
  fake.stalled = false;
  fake.token = TOKEN;
});

function need(t: Skippable): FakeApiServer {
  if (fake === undefined) return skipWithout(t, "openssl", certProblem());
  return fake;
}
const credentialsOf = (f: FakeApiServer, more: Partial<ClusterCredentials> = {}): ClusterCredentials => ({
  server: f.url,
  ca: Buffer.from(f.ca),
  token: TOKEN,
  source: "test",
  ...more,
});
function transport(
  credentials: ClusterCredentials,
  more: { maxResponseBytes?: number; onWarning?: (w: string) => void } = {},
): Transport {
  const t = createTransport({
    credentials,
    userAgent: "clusterwire-test/1",
    maxResponseBytes: more.maxResponseBytes ?? 1 << 20,
    onWarning: more.onWarning,
  });
  transports.push(t);
  return t;
}
const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => {
      throw new Error("resolved, expected a failure");
    },
    (e: unknown) => e,
  );
function tokenFile(text: string): string {
  const d = mkdtempSync(join(tmpdir(), "clusterwire-transport-"));
  dirs.push(d);
  writeFileSync(join(d, "token"), text);
  return join(d, "token");
}

describe("createTransport: the exchange", () => {
  it("sends method, path, query, Accept, Content-Type, body, User-Agent and the bearer token", async (t) => {
    const f = need(t);
    const body = Buffer.from('{"kind":"DeleteOptions"}');
    const answer = await transport(credentialsOf(f)).send(
      {
        method: "DELETE",
        path: `${LIST}/nope`,
        query: new URLSearchParams({ dryRun: "All", b: "x y" }),
        accept: "application/json",
        contentType: "application/json",
        body,
      },
      5_000,
    );
    expect(answer.status).toBe(404);
    expect(answer.contentType).toBe("application/json");
    expect(answer.statusText).toBe("Not Found");
    expect(JSON.parse(answer.body.toString())).toMatchObject({ kind: "Status", code: 404, reason: "NotFound" });
    const [r] = f.requests;
    expect(r).toMatchObject({
      method: "DELETE",
      path: `${LIST}/nope`,
      authorized: true,
      accept: "application/json",
      contentType: "application/json",
      userAgent: "clusterwire-test/1",
    });
    expect(Object.fromEntries(r!.query)).toEqual({ dryRun: "All", b: "x y" });
    expect(r!.body.equals(body)).toBe(true);
  });

  it("keeps the server URL's path prefix, without doubling a trailing slash", async (t) => {
    const f = need(t);
    await transport(credentialsOf(f, { server: `${f.url}/prefix/` })).send(GET, 5_000);
    expect(f.requests.map((r) => r.path)).toEqual([`/prefix${LIST}`]);
  });

  it("sends no Authorization without a token", async (t) => {
    const f = need(t);
    const answer = await transport(credentialsOf(f, { token: undefined as never })).send(GET, 5_000);
    expect(answer.status).toBe(401);
    expect(f.requests[0]?.authorized).toBe(false);
  });

  it("refuses a server that is not an https:// URL, with a CredentialsError", () => {
    for (const [server, message] of [
      ["http://127.0.0.1:6443", 'test: the server must be https://, got "http:"'],
      ["not a url", 'test: the server "not a url" is not a URL'],
      ["https://a.example?x=1", "test: the server URL must have no query, fragment or user"],
      ["https://user:pw@a.example", "test: the server URL must have no query, fragment or user"],
    ] as const) {
      const e = (() => {
        try {
          createTransport({ credentials: { server, source: "test" }, userAgent: "u", maxResponseBytes: 1 });
        } catch (x) {
          return x;
        }
      })();
      expect(e, server).toBeInstanceOf(CredentialsError);
      expect((e as Error).message).toBe(message);
    }
  });
});

describe("createTransport: TLS", () => {
  it("checks the server's certificate against the CA given, or skips the check only when told", async (t) => {
    const f = need(t);
    const untrusted = await failure(transport(credentialsOf(f, { ca: undefined as never })).send(GET, 5_000));
    expect(untrusted).toBeInstanceOf(RequestError);
    expect(untrusted).toMatchObject({ code: "network", method: "GET", path: LIST });
    expect((untrusted as Error).message).toMatch(
      /^GET \/apis\/networking\.k8s\.io\/v1\/ingressclasses: the connection failed: .*certificate/,
    );
    const skipped = await transport(credentialsOf(f, { ca: undefined as never, insecureSkipTlsVerify: true })).send(
      GET,
      5_000,
    );
    expect(skipped.status).toBe(200);
  });

  it("checks the certificate against tlsServerName when given", async (t) => {
    const f = need(t);
    // The fake's certificate names 127.0.0.1 only.
    const e = await failure(transport(credentialsOf(f, { tlsServerName: "kubernetes.default" })).send(GET, 5_000));
    expect(e).toMatchObject({ code: "network" });
    expect((e as Error).message).toMatch(/kubernetes\.default/);
  });
});

describe("createTransport: failures", () => {
  it("a refused connection is a RequestError of code network", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const e = await failure(
      transport({ server: `https://127.0.0.1:${port}`, token: TOKEN, source: "test" }).send(GET, 5_000),
    );
    expect(e).toBeInstanceOf(RequestError);
    expect(e).toMatchObject({ code: "network" });
    expect((e as Error).message).toMatch(/ECONNREFUSED/);
    expect((e as Error).cause).toBeInstanceOf(Error);
  });

  it("no response headers within the time limit is a RequestError of code timeout", async (t) => {
    const f = need(t);
    f.stalled = true;
    const e = await failure(transport(credentialsOf(f)).send(GET, 50));
    expect(e).toMatchObject({ code: "timeout", message: `GET ${LIST}: no response headers within 50 ms` });
  });

  it("a body that does not end within the time limit is a RequestError of code timeout", async (t) => {
    const f = need(t);
    f.answerNext({ status: 200, headers: { "content-type": "application/json" }, body: '{"kind":', hang: true });
    const e = await failure(transport(credentialsOf(f)).send(GET, 200));
    expect(e).toMatchObject({ code: "timeout", message: `GET ${LIST}: not finished within 200 ms` });
  });

  it("open: the deadline cuts a response whose headers came in time", async (t) => {
    const f = need(t);
    f.answerNext({ status: 200, headers: { "content-type": "application/json" }, hang: true });
    const tr = transport(credentialsOf(f));
    const opened = await tr.open(GET, 5_000, 100);
    expect(opened.res.statusCode).toBe(200);
    const e = await failure(tr.read(opened, "GET", LIST));
    expect(e).toMatchObject({ code: "timeout", message: `GET ${LIST}: not finished within 100 ms` });
  });

  it("an abort before sending, while waiting and while reading is a RequestError of code aborted", async (t) => {
    const f = need(t);
    const tr = transport(credentialsOf(f));
    const before = await failure(tr.send({ ...GET, signal: AbortSignal.abort() }, 5_000));
    expect(before).toMatchObject({ code: "aborted", message: `GET ${LIST}: aborted before it was sent` });
    expect(f.requests).toHaveLength(0);

    f.stalled = true;
    const waiting = new AbortController();
    const pending = failure(tr.send({ ...GET, signal: waiting.signal }, 5_000));
    await f.until(() => f.requests.length === 1, "the stalled request");
    waiting.abort();
    expect(await pending).toMatchObject({ code: "aborted", message: `GET ${LIST}: aborted` });
    f.stalled = false;

    f.answerNext({ status: 200, headers: { "content-type": "application/json" }, body: "{", hang: true });
    const reading = new AbortController();
    const opened = await tr.open({ ...GET, signal: reading.signal }, 5_000);
    const read = failure(tr.read(opened, "GET", LIST));
    reading.abort();
    expect(await read).toMatchObject({ code: "aborted" });
    expect(opened.aborted).toBe(true);
  });

  it("a body over maxResponseBytes is a RequestError of code too-large, with or without Content-Length", async (t) => {
    const f = need(t);
    const tr = transport(credentialsOf(f), { maxResponseBytes: 1000 });
    const headers = { "content-type": "application/json" };
    f.answerNext({ status: 200, headers, body: Buffer.alloc(1000, 0x20) });
    expect((await tr.send(GET, 5_000)).body.length).toBe(1000);
    f.answerNext({ status: 200, headers, body: Buffer.alloc(1001, 0x20) });
    expect(await failure(tr.send(GET, 5_000))).toMatchObject({
      code: "too-large",
      message: `GET ${LIST}: the answer is 1001 bytes, over the 1000-byte limit`,
    });
    f.answerNext({ status: 200, headers, body: Buffer.alloc(3000, 0x20), chunked: true });
    expect(await failure(tr.send(GET, 5_000))).toMatchObject({
      code: "too-large",
      message: `GET ${LIST}: the answer is over the 1000-byte limit`,
    });
    // An error answer is bounded too.
    f.answerNext({ status: 500, headers, body: Buffer.alloc(5000, 0x20) });
    expect(await failure(tr.send(GET, 5_000))).toMatchObject({ code: "too-large" });
  });

  it("a connection cut in the middle of the body is a RequestError of code network", async (t) => {
    const f = need(t);
    f.answerNext({ status: 200, headers: { "content-type": "application/json" }, body: "{", hang: true });
    const tr = transport(credentialsOf(f));
    const opened = await tr.open(GET, 5_000);
    const read = failure(tr.read(opened, "GET", LIST));
    // The server's side of the connection goes away.
    await f.close();
    fake = await startFakeApiServer({ token: TOKEN });
    expect(await read).toMatchObject({ code: "network" });
  });
});

describe("createTransport: the token file", () => {
  it("after a 401, reads the token file again and, when it changed, sends the request once more", async (t) => {
    const f = need(t);
    const file = tokenFile("first\n");
    f.token = "first";
    const tr = transport(credentialsOf(f, { token: undefined as never, tokenFile: file }));
    expect((await tr.send(GET, 5_000)).status).toBe(200);
    // The token rotates: the API server takes only the new one; the client still holds the old one.
    f.token = "second";
    writeFileSync(file, "second\n");
    expect((await tr.send(GET, 5_000)).status).toBe(200);
    expect(f.requests.map((r) => r.authorized)).toEqual([true, false, true]);
    // Then the new token is the one used.
    expect((await tr.send(GET, 5_000)).status).toBe(200);
    expect(f.requests.map((r) => r.authorized)).toEqual([true, false, true, true]);
  });

  it("sends no second request when the token file holds the same token, or for a static token", async (t) => {
    const f = need(t);
    const file = tokenFile("stale");
    f.token = "fresh";
    const fromFile = await transport(credentialsOf(f, { tokenFile: file })).send(GET, 5_000);
    expect(fromFile.status).toBe(401);
    expect(f.requests).toHaveLength(1);
    const fromToken = await transport(credentialsOf(f, { token: "stale" })).send(GET, 5_000);
    expect(fromToken.status).toBe(401);
    expect(f.requests).toHaveLength(2);
  });

  it("a token file that cannot be read is a CredentialsError naming it", async (t) => {
    const f = need(t);
    const e = await failure(
      transport(credentialsOf(f, { tokenFile: join(tmpdir(), "no-such-token-file") })).send(GET, 5_000),
    );
    expect(e).toBeInstanceOf(CredentialsError);
    expect((e as Error).message).toMatch(/cannot read the token file .*no-such-token-file: no such file/);
    expect(f.requests).toHaveLength(0);
  });
});

describe("createTransport: warnings and connections", () => {
  it("hands each code-299 warning of every answer to onWarning; a handler that throws changes nothing", async (t) => {
    const f = need(t);
    const seen: string[] = [];
    f.warnings = ['unknown field "spec.bogus"', "second, with a comma"];
    const answer = await transport(credentialsOf(f), { onWarning: (w) => seen.push(w) }).send(GET, 5_000);
    expect(answer.status).toBe(200);
    expect(seen).toEqual(['unknown field "spec.bogus"', "second, with a comma"]);
    const thrower = transport(credentialsOf(f), {
      onWarning: () => {
        throw new Error("handler bug");
      },
    });
    expect((await thrower.send(GET, 5_000)).status).toBe(200);
  });

  it("reuses one connection, and close() ends it while a watch in flight goes on", async (t) => {
    const f = need(t);
    const tr = transport(credentialsOf(f));
    await f.until(() => f.connections === 0, "no connections");
    await tr.send(GET, 5_000);
    await tr.send(GET, 5_000);
    expect(f.connections).toBe(1);
    // The watch takes the idle connection; the next request needs a second one, idle after it.
    const watch = await tr.open(
      { ...GET, query: new URLSearchParams({ watch: "1", resourceVersion: String(f.resourceVersion) }) },
      5_000,
    );
    expect(watch.res.statusCode).toBe(200);
    await tr.send(GET, 5_000);
    expect(f.connections).toBe(2);
    tr.close();
    await f.until(() => f.connections === 1, "the idle connection closed");
    // The watch still delivers.
    const first = new Promise<Buffer>((resolve) => watch.res.once("data", resolve));
    f.apply({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name: "after-close" },
      spec: { controller: "x/y" },
    });
    expect((await first).toString()).toContain("after-close");
    watch.res.destroy();
    await f.until(() => f.connections === 0, "the watch's connection closed");
    // A request after close() works, on a connection that is not kept.
    expect((await tr.send(GET, 5_000)).status).toBe(200);
    await f.until(() => f.connections === 0, "the connection of a request after close()");
  });

  it("never puts the token in a message", async (t) => {
    const f = need(t);
    const messages: string[] = [];
    const collect = async (p: Promise<unknown>): Promise<void> => {
      const e = await failure(p);
      messages.push((e as Error).message, String((e as Error).cause ?? ""));
    };
    await collect(transport(credentialsOf(f, { ca: undefined as never })).send(GET, 5_000));
    f.stalled = true;
    await collect(transport(credentialsOf(f)).send(GET, 30));
    await collect(transport(credentialsOf(f)).send({ ...GET, signal: AbortSignal.abort() }, 5_000));
    expect(messages.length).toBe(6);
    for (const m of messages) expect(m).not.toContain(TOKEN);
  });
});

describe("warningsOf", () => {
  it("reads the code-299 warnings of every Warning header, several to a header, in order", () => {
    expect(
      warningsOf([
        "Content-Type",
        "application/json",
        "Warning",
        '299 - "first"',
        "warning",
        '299 - "a \\"quoted\\" one", 299 kube-apiserver "third, with a comma" "Sat, 01 Jan 2000 00:00:00 GMT",199 - "skipped"',
        "WARNING",
        '299 - "last"',
      ]),
    ).toEqual(["first", 'a "quoted" one', "third, with a comma", "last"]);
  });

  it("reads a header up to the first thing that is not a warning", () => {
    expect(warningsOf(["warning", '299 - "ok", junk, 299 - "not reached"'])).toEqual(["ok"]);
    expect(warningsOf(["warning", '299 - "unterminated'])).toEqual([]);
    expect(warningsOf(["warning", "299 -"])).toEqual([]);
    expect(warningsOf(["warning", '299 - "x" "unterminated date'])).toEqual([]);
    expect(warningsOf(["warning", ""])).toEqual([]);
  });
});
