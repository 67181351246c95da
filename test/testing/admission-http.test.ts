// HTTPS for checkAdmission: the base URL it accepts, the Warning headers it reads, and the client
// against a server on loopback (a self-signed certificate from openssl).
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpClient, httpsBase, warningTexts } from "../../src/testing/admission-http.js";
import { AdmissionCheckError } from "../../src/testing/recorded-admission.js";
import { certProblem, makeCert } from "../support/storage/cert.js";
import { eachNeeds } from "../support/tools.js";

function rejection(f: () => unknown): AdmissionCheckError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AdmissionCheckError);
    return e as AdmissionCheckError;
  }
  throw new Error("did not throw");
}

describe("httpsBase", () => {
  it("takes an https URL", () => {
    expect(httpsBase("https://127.0.0.1:8443/validate", "target.url").href).toBe("https://127.0.0.1:8443/validate");
  });

  it("refuses anything else as a bad option, naming the option", () => {
    expect(rejection(() => httpsBase("http://127.0.0.1/validate", "target.url"))).toMatchObject({
      code: "bad-option",
      message: 'target.url: must be an https:// URL, not "http://127.0.0.1/validate"',
    });
    expect(rejection(() => httpsBase("not a url", "apiServer.url"))).toMatchObject({
      code: "bad-option",
      message: 'apiServer.url: not a URL: "not a url"',
    });
    // A URL object is not a string, even an https one.
    expect(rejection(() => httpsBase(new URL("https://a.example/"), "target.url")).message).toBe(
      'target.url: must be an https:// URL, not "https://a.example/"',
    );
  });
});

describe("warningTexts", () => {
  it('reads each `299 - "text"`, from one header or several joined by commas', () => {
    expect(warningTexts(undefined)).toEqual([]);
    expect(warningTexts('299 - "one"')).toEqual(["one"]);
    expect(warningTexts(['299 - "one"', '299 - "two", 299 - "three"'])).toEqual(["one", "two", "three"]);
    // Escaped quotes and backslashes in the text, and an optional date after it.
    expect(warningTexts('299 - "say \\"hi\\" \\\\ bye" "Sat, 01 Jan 2000 00:00:00 GMT"')).toEqual(['say "hi" \\ bye']);
    expect(warningTexts('299 kube-apiserver "a, b", 199 agent "c"')).toEqual(["a, b", "c"]);
  });

  it("stops at text that is not a warning", () => {
    expect(warningTexts("garbage")).toEqual([]);
    expect(warningTexts('299 - "ok", garbage, 299 - "lost"')).toEqual(["ok"]);
  });
});

describe("httpClient", () => {
  const made = makeCert();
  eachNeeds("openssl", () => (made === undefined ? certProblem() : undefined));
  let server: Server | undefined;
  let base: URL;
  const seen: { path: string; headers: Record<string, unknown>; body: string }[] = [];

  beforeAll(async () => {
    if (made === undefined) return;
    server = createServer({ key: made.key, cert: made.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() });
        if (req.url?.endsWith("/silent")) return; // never answers
        res.statusCode = req.url?.endsWith("/missing") ? 404 : 200;
        res.setHeader("Warning", ['299 - "first"', '299 - "second", 299 - "third"']);
        res.end(`echo ${Buffer.concat(chunks).toString()}`);
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    base = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/base/`);
  });
  afterAll(async () => {
    made?.dispose();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  it("posts JSON under the base URL with the given headers, and reads the status, Warnings and body", async () => {
    const client = await httpClient(base, made?.cert, 2, 10_000);
    try {
      const a = await client.post("validate?timeout=5s", '{"a":1}', { "x-test": "yes" });
      expect(a).toEqual({ status: 200, warnings: ["first", "second", "third"], body: 'echo {"a":1}' });
      expect((await client.post("/missing", "", {})).status).toBe(404);
      expect(seen.slice(-2).map((s) => s.path)).toEqual(["/base/validate?timeout=5s", "/missing"]);
      expect(seen.at(-2)?.headers).toMatchObject({
        "content-type": "application/json",
        accept: "application/json",
        "x-test": "yes",
      });
      expect(seen.at(-2)?.body).toBe('{"a":1}');
    } finally {
      client.close();
    }
  });

  it("is unreachable when the certificate is not trusted, or nothing answers in time", async () => {
    const untrusted = await httpClient(base, undefined, 1, 10_000);
    try {
      const e = await untrusted.post("validate", "{}", {}).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AdmissionCheckError);
      expect(e).toMatchObject({ code: "unreachable" });
      expect((e as Error).message).toMatch(new RegExp(`^POST ${base.origin}/base/validate: `));
    } finally {
      untrusted.close();
    }
    const slow = await httpClient(base, made?.cert, 1, 50);
    try {
      const e = await slow.post("silent", "{}", {}).catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: "unreachable",
        message: `POST ${base.origin}/base/silent: no answer within 50 ms`,
      });
    } finally {
      slow.close();
    }
  });

  it("rejects with the signal's reason when aborted", async () => {
    const client = await httpClient(base, made?.cert, 1, 10_000);
    try {
      const controller = new AbortController();
      const pending = client.post("silent", "{}", {}, controller.signal).catch((x: unknown) => x);
      const reason = new Error("stop");
      controller.abort(reason);
      expect(await pending).toBe(reason);
    } finally {
      client.close();
    }
  });
});
