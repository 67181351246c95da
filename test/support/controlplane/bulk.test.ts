// requestMany/createMany against a local HTTPS server (no control plane needed): exactly
// `concurrency` requests in flight, never more; each answer's resourceVersion kept in request
// order; a 429 retried; an unexpected status stops the batch with the request that got it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import { afterEach, describe, expect, it } from "vitest";
import { makeCert, certProblem } from "../storage/cert.js";
import { skipWithout } from "../tools.js";
import { BulkRequestError, createMany, laterResourceVersion, requestMany } from "./bulk.js";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

async function serve(handler: Handler): Promise<{ server: Server; url: string; caPem: string } | string> {
  const made = makeCert();
  if (made === undefined) return certProblem();
  made.dispose();
  const server = createServer({ key: made.key, cert: made.cert }, (req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => handler(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return { server, url: `https://127.0.0.1:${address.port}`, caPem: made.cert };
}

const created = (res: ServerResponse, rv: string): void => {
  res.writeHead(201, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ metadata: { name: "x", resourceVersion: rv } }));
};
const indexOf = (req: IncomingMessage): number => Number(/\/objects\/(\d+)$/.exec(req.url ?? "")?.[1]);

describe("requestMany", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    server = undefined;
  });

  it("keeps exactly `concurrency` requests in flight and returns each resourceVersion in request order", async (ctx) => {
    const total = 100;
    const concurrency = 8;
    let answered = 0;
    let most = 0;
    const held: (() => void)[] = [];
    const seen: { auth: string; type: string; body: string }[] = [];
    // The server answers nothing until as many requests as may be in flight are: the batch has to
    // reach `concurrency` to make progress, and any more shows as `most` above it.
    const up = await serve((req, body, res) => {
      seen.push({ auth: req.headers.authorization ?? "", type: req.headers["content-type"] ?? "", body });
      const i = indexOf(req);
      held.push(() => created(res, String(1000 + ((i * 37) % total))));
      most = Math.max(most, held.length);
      if (held.length === Math.min(concurrency, total - answered)) {
        answered += held.length;
        for (const answer of held.splice(0)) answer();
      }
    });
    if (typeof up === "string") return skipWithout(ctx, "openssl", up);
    server = up.server;
    const requests = Array.from({ length: total }, (_, i) => ({ path: `/objects/${i}`, body: { n: i } }));
    const progress: number[] = [];
    const result = await createMany({ url: up.url, token: "secret", caPem: up.caPem }, requests, {
      concurrency,
      onProgress: (done) => progress.push(done),
    });
    expect(most).toBe(concurrency);
    expect(result.resourceVersions).toEqual(requests.map((_, i) => String(1000 + ((i * 37) % total))));
    expect(result.maxResourceVersion).toBe("1099");
    expect(result.retried).toBe(0);
    expect(progress).toEqual(requests.map((_, i) => i + 1));
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((s) => s.auth))).toEqual(new Set(["Bearer secret"]));
    expect(new Set(seen.map((s) => s.type))).toEqual(new Set(["application/json"]));
    expect(seen.map((s) => (JSON.parse(s.body) as { n: number }).n).sort((a, b) => a - b)).toEqual(
      requests.map((_, i) => i),
    );
  });

  it("stops at the first unexpected answer and names the request; sends nothing after it", async (ctx) => {
    let count = 0;
    const up = await serve((req, _body, res) => {
      count++;
      if (indexOf(req) === 5) {
        res.writeHead(422, { "Content-Type": "application/json" });
        res.end('{"kind":"Status","reason":"Invalid"}');
      } else created(res, "7");
    });
    if (typeof up === "string") return skipWithout(ctx, "openssl", up);
    server = up.server;
    const requests = Array.from({ length: 20 }, (_, i) => ({ path: `/objects/${i}`, body: "{}" }));
    const error = await createMany({ url: up.url, token: "t", caPem: up.caPem }, requests, { concurrency: 1 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BulkRequestError);
    expect(error).toMatchObject({ index: 5, method: "POST", path: "/objects/5", status: 422 });
    expect((error as Error).message).toContain("Invalid");
    expect(count).toBe(6);
  });

  it("retries a 429 after its Retry-After, and takes the expected statuses of a PATCH", async (ctx) => {
    const attempts = new Map<number, number>();
    const up = await serve((req, _body, res) => {
      const i = indexOf(req);
      const n = (attempts.get(i) ?? 0) + 1;
      attempts.set(i, n);
      expect(req.method).toBe("PATCH");
      expect(req.headers["content-type"]).toBe("application/merge-patch+json");
      if (n === 1) {
        res.writeHead(429, { "Retry-After": "0" });
        res.end();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ metadata: { resourceVersion: String(i + 1) } }));
    });
    if (typeof up === "string") return skipWithout(ctx, "openssl", up);
    server = up.server;
    const requests = Array.from({ length: 10 }, (_, i) => ({
      method: "PATCH",
      path: `/objects/${i}`,
      body: { metadata: { labels: { a: "b" } } },
      contentType: "application/merge-patch+json",
    }));
    const result = await requestMany({ url: up.url, token: "t", caPem: up.caPem }, requests, { concurrency: 4 });
    expect(result.retried).toBe(10);
    expect([...attempts.values()]).toEqual(requests.map(() => 2));
    expect(result.maxResourceVersion).toBe("10");
  });

  it("refuses a concurrency that is not a whole number from 1", async () => {
    await expect(
      requestMany({ url: "https://127.0.0.1:1", token: "", caPem: "" }, [], { concurrency: 0 }),
    ).rejects.toThrow(RangeError);
  });
});

describe("laterResourceVersion", () => {
  it("compares resourceVersions as numbers, with '' the smallest", () => {
    expect(laterResourceVersion("9", "10")).toBe("10");
    expect(laterResourceVersion("10", "9")).toBe("10");
    expect(laterResourceVersion("", "3")).toBe("3");
    expect(laterResourceVersion("3", "")).toBe("3");
    expect(laterResourceVersion("", "")).toBe("");
    expect(laterResourceVersion("18446744073709551615", "18446744073709551614")).toBe("18446744073709551615");
  });
});
