import { X509Certificate } from "node:crypto";
import { writeFileSync } from "node:fs";
import * as https from "node:https";
import * as tls from "node:tls";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWebhookServer,
  type WebhookServer,
  type WebhookServerOptions,
} from "../../../src/admission/server/index.js";
import { lookupKind, type JsonObject } from "../../../src/networking/index.js";
import { propAdmissionAgreesWithValidate } from "../../../src/testing/index.js";
import {
  ingressJson,
  pem,
  rawSocket,
  reviewBody as createReview,
  send,
  tlsDir,
  waitFor,
  withServer as withServerOn,
  type Pem,
  type TlsDir,
} from "../../support/admission/server.js";
import { propertyRuns } from "../../support/property-runs.js";

let first: Pem;
let files: TlsDir;

beforeAll(() => {
  first = pem();
  files = tlsDir(first);
});
afterAll(() => files.dispose());

/** An AdmissionReview CREATE of `json`, of its own kind, in its namespace (default) when the kind is namespaced. */
function reviewBody(json: JsonObject, uid: string): string {
  const kind = json["kind"] as string;
  const own = (json["metadata"] as { namespace?: string } | undefined)?.namespace ?? "";
  const namespace = lookupKind("networking.k8s.io/v1", kind)?.namespaced ? own || "default" : "";
  return createReview(json, uid, kind, namespace);
}

/** POST /validate over `agent`, trusting the test certificate. */
function post(server: WebhookServer, agent: https.Agent, body: string | Buffer, headers: Record<string, string> = {}) {
  return send(server, agent, first.cert, "POST", "/validate", body, headers);
}

/** The support's withServer, with a keep-alive agent for the requests. */
async function withServer(
  options: Partial<WebhookServerOptions>,
  run: (server: WebhookServer, agent: https.Agent, logs: string[]) => Promise<void>,
): Promise<void> {
  await withServerOn(files, options, async (server, logs) => {
    const agent = new https.Agent({ keepAlive: true, maxSockets: 4 });
    try {
      await run(server, agent, logs);
    } finally {
      agent.destroy();
    }
  });
}

describe("createWebhookServer", () => {
  it("answers reviews over TLS with keep-alive as the core does (propAdmissionAgreesWithValidate)", async () => {
    await withServer({}, async (server, agent) => {
      let n = 0;
      let reused = 0;
      await fc.assert(
        propAdmissionAgreesWithValidate(async (_, json) => {
          const uid = `uid-${n++}`;
          const reply = await post(server, agent, reviewBody(json, uid), {
            "content-type": "application/json",
          });
          expect(reply.status).toBe(200);
          if (reply.reused) reused++;
          const review = JSON.parse(reply.body) as {
            apiVersion: string;
            kind: string;
            response: {
              uid: string;
              allowed: boolean;
              status?: { details?: { causes: { reason: string; field: string }[] } };
            };
          };
          expect(review.apiVersion).toBe("admission.k8s.io/v1");
          expect(review.kind).toBe("AdmissionReview");
          expect(review.response.uid).toBe(uid);
          const causes = review.response.status?.details?.causes ?? [];
          return { allowed: review.response.allowed, errors: causes.map((c) => ({ type: c.reason, field: c.field })) };
        }),
        { numRuns: propertyRuns(100) },
      );
      // Sequential requests on a keep-alive agent ride one connection.
      expect(reused).toBeGreaterThan(n / 2);
    });
  });

  it("serves /healthz and /readyz, and refuses other paths and methods", async () => {
    await withServer({}, async (server, agent) => {
      expect((await send(server, agent, first.cert, "GET", "/healthz")).status).toBe(200);
      expect((await send(server, agent, first.cert, "GET", "/readyz")).status).toBe(200);
      expect((await send(server, agent, first.cert, "GET", "/nothing")).status).toBe(404);
      const get = await send(server, agent, first.cert, "GET", "/validate");
      expect(get.status).toBe(405);
      expect(get.headers["allow"]).toBe("POST");
    });
  });

  it("answers 400 to malformed JSON and to a body that is not an AdmissionReview, and keeps serving", async () => {
    await withServer({}, async (server, agent, logs) => {
      expect((await post(server, agent, "{not json")).status).toBe(400);
      const notReview = await post(server, agent, JSON.stringify({ kind: "Ingress" }));
      expect(notReview.status).toBe(400);
      expect(notReview.body).toMatch(/^not an AdmissionReview: apiVersion/);
      const hostile =
        '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","__proto__":{"request":1},"request":7}';
      expect((await post(server, agent, hostile)).status).toBe(400);
      const ok = await post(server, agent, reviewBody(ingressJson("web"), "u"));
      expect(ok.status).toBe(200);
      expect(logs.filter((l) => (JSON.parse(l) as { msg: string }).msg === "refused")).toHaveLength(3);
    });
  });

  it("refuses a body over the limit with 413 before reading it, declared or chunked", async () => {
    await withServer({ maxBodyBytes: 1024 }, async (server, agent) => {
      // Declares 1 MiB but sends only the headers: the answer cannot wait for the body.
      const declared = await rawExchange(
        server,
        "POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n",
      );
      expect(declared).toMatch(/^HTTP\/1\.1 413 /);
      const chunked = await post(server, agent, Buffer.alloc(4096, 0x20), {
        "transfer-encoding": "chunked",
      });
      expect(chunked.status).toBe(413);
      expect(chunked.headers["connection"]).toBe("close");
      expect((await post(server, agent, reviewBody(ingressJson("web"), "u"))).status).toBe(200);
    });
  });

  it("sheds reviews past the in-flight limit with 429, and answers the rest", async () => {
    await withServer({ maxInFlight: 1 }, async (server, agent) => {
      const body = reviewBody(ingressJson("web"), "slow");
      // The first review holds its slot while its body is still arriving.
      const slow = rawSocket(server);
      await slow.ready;
      slow.socket.write(`POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
      slow.socket.write(body.slice(0, 10));
      await waitFor(async () => (await post(server, agent, body)).status === 429);
      slow.socket.write(body.slice(10));
      expect(await slow.reply).toMatch(/^HTTP\/1\.1 200 /);
      slow.socket.destroy();
      expect((await post(server, agent, body)).status).toBe(200);
    });
  });

  it("exposes Prometheus metrics: reviews by kind, operation and verdict, latency, refusals", async () => {
    await withServer({}, async (server, agent) => {
      await post(server, agent, reviewBody(ingressJson("web"), "a"));
      await post(server, agent, reviewBody(ingressJson("web"), "b"));
      await post(server, agent, reviewBody(ingressJson("Bad_Name"), "c"));
      await post(server, agent, reviewBody(ingressJson("web", { spec: { rules: 1 } }), "d"));
      await post(server, agent, "{");
      const scrape = await send(server, agent, first.cert, "GET", "/metrics");
      expect(scrape.status).toBe(200);
      expect(scrape.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
      const lines = scrape.body.split("\n");
      const value = (series: string): number | undefined => {
        const line = lines.find((l) => l.startsWith(`${series} `));
        return line === undefined ? undefined : Number(line.slice(series.length + 1));
      };
      const reviews = 'clusterwire_admission_reviews_total{kind="Ingress",operation="CREATE",verdict=';
      expect(value(`${reviews}"allowed"}`)).toBe(2);
      expect(value(`${reviews}"denied"}`)).toBe(1);
      expect(value(`${reviews}"bad_request"}`)).toBe(1);
      expect(value('clusterwire_admission_review_duration_seconds_count{kind="Ingress",operation="CREATE"}')).toBe(4);
      expect(value('clusterwire_admission_refused_total{reason="malformed_json"}')).toBe(1);
      expect(value("clusterwire_admission_in_flight")).toBe(0);
      expect(value("process_resident_memory_bytes")).toBeGreaterThan(0);
      expect((await send(server, agent, first.cert, "POST", "/metrics", "")).status).toBe(405);
    });
  });

  it("logs one JSON line per review without the object's contents", async () => {
    await withServer({}, async (server, agent, logs) => {
      const secret = "s3cr3t-label-value";
      const json = ingressJson("web", { metadata: { name: "web", labels: { token: secret } } });
      expect((await post(server, agent, reviewBody(json, "uid-7"))).status).toBe(200);
      const review = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l["msg"] === "review");
      expect(review).toMatchObject({
        level: "info",
        uid: "uid-7",
        kind: "Ingress",
        operation: "CREATE",
        allowed: true,
      });
      expect(logs.join("\n")).not.toContain(secret);
    });
  });

  it("sends the API server's warnings with an allowed review, and logs their count, not their text", async () => {
    await withServer({}, async (server, agent, logs) => {
      const reply = await post(server, agent, reviewBody(policyJson("10.0.0.1/8"), "w-1"));
      expect(reply.status).toBe(200);
      expect((JSON.parse(reply.body) as { response: unknown }).response).toEqual({
        uid: "w-1",
        allowed: true,
        warnings: [AMBIGUOUS],
      });
      const review = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l["msg"] === "review");
      // The log's verdict is the metrics' label: "allowed", as counted below.
      expect(review).toMatchObject({ verdict: "allowed", allowed: true, warnings: 1 });
      expect(logs.join("\n")).not.toContain("10.0.0.1/8");
    });
  });

  it('strict mode refuses them with a 403 that names the guard; metrics count it as "guarded", not "denied"', async () => {
    await withServer({ admit: { guards: { strict: true } } }, async (server, agent, logs) => {
      const reply = await post(server, agent, reviewBody(policyJson("10.0.0.1/8"), "s-1"));
      expect(reply.status).toBe(200);
      const response = (JSON.parse(reply.body) as { response: Record<string, unknown> }).response;
      expect(response).toMatchObject({
        uid: "s-1",
        allowed: false,
        warnings: [AMBIGUOUS],
        status: { code: 403, reason: "Forbidden", details: { causes: [{ reason: "FieldValueForbidden" }] } },
      });
      expect((response["status"] as { message: string }).message).toContain('guard "strict"');
      const clean = await post(server, agent, reviewBody(policyJson("10.0.0.0/8"), "s-2"));
      expect((JSON.parse(clean.body) as { response: unknown }).response).toEqual({ uid: "s-2", allowed: true });
      const scrape = (await send(server, agent, first.cert, "GET", "/metrics")).body;
      const series = 'clusterwire_admission_reviews_total{kind="NetworkPolicy",operation="CREATE",verdict=';
      expect(scrape).toContain(`${series}"guarded"} 1\n`);
      expect(scrape).toContain(`${series}"allowed"} 1\n`);
      expect(scrape).not.toContain(`${series}"denied"}`);
      expect(scrape).toContain('clusterwire_admission_warnings_total{kind="NetworkPolicy",operation="CREATE"} 1\n');
      const lines = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
      const review = lines.find((l) => l["uid"] === "s-1");
      expect(review).toMatchObject({ verdict: "guarded", guard: "strict", allowed: false, code: 403 });
      // Each log line's verdict is the label its review was counted under.
      expect(lines.find((l) => l["uid"] === "s-2")).toMatchObject({ verdict: "allowed", allowed: true });
    });
  });

  it("logs the object and old object only when asked (logObjects), and a line even when one cannot be printed", async () => {
    await withServer({ logObjects: true }, async (server, agent, logs) => {
      const secret = "s3cr3t-label-value";
      const json = ingressJson("web", { metadata: { name: "web", labels: { token: secret } } });
      expect((await post(server, agent, reviewBody(json, "o-1"))).status).toBe(200);
      const review = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l["uid"] === "o-1");
      expect(review?.["object"]).toEqual(json);
      expect(review).not.toHaveProperty("oldObject");
      // Nested within Go's depth limit (the server refuses deeper bodies) but deeper than
      // JSON.stringify prints on Node's default stack: answered, and logged without the object.
      const depth = 9_990;
      const deep = `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"web"},"x":${"[".repeat(depth)}${"]".repeat(depth)}}`;
      expect(() => JSON.stringify(JSON.parse(deep))).toThrow(RangeError);
      const body = reviewBody(ingressJson("web"), "o-2").replace(/"object":\{.*\}\}$/, `"object":${deep}}}`);
      expect((await post(server, agent, body)).status).toBe(200);
      const line = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l["uid"] === "o-2");
      expect(line).toMatchObject({ msg: "review", uid: "o-2", code: 422 });
      expect(line).toHaveProperty("objectsNotLogged");
      expect((await send(server, agent, first.cert, "GET", "/healthz")).status).toBe(200);
    });
  });

  it("reloads the certificate when its files change", async () => {
    const second = pem();
    await withServer({ tlsPollMs: 20 }, async (server) => {
      const served = (): Promise<string> =>
        new Promise((resolve, reject) => {
          const s = tls.connect({ host: "127.0.0.1", port: server.port, rejectUnauthorized: false }, () => {
            resolve(new X509Certificate(s.getPeerCertificate(true).raw).fingerprint256);
            s.end();
          });
          s.on("error", reject);
        });
      expect(await served()).toBe(new X509Certificate(first.cert).fingerprint256);
      // Half way through a rotation (new certificate, old key) the old pair stays in use.
      writeFileSync(files.certFile, second.cert);
      await new Promise((r) => setTimeout(r, 100));
      expect(await served()).toBe(new X509Certificate(first.cert).fingerprint256);
      writeFileSync(files.keyFile, second.key);
      await waitFor(async () => (await served()) === new X509Certificate(second.cert).fingerprint256);
    });
    writeFileSync(files.certFile, first.cert);
    writeFileSync(files.keyFile, first.key);
  });

  it("leaves no active handle behind once closed, after serving", async () => {
    // Handles (servers, sockets, timers, watchers), not requests in progress such as a file's close.
    const handles = (): string =>
      process
        .getActiveResourcesInfo()
        .filter((r) => !/Req|WriteWrap|ShutdownWrap/.test(r))
        .sort()
        .join(",");
    // A first server starts the process-wide default metrics; what is measured is a server's own.
    await withServer({}, async () => {});
    await waitFor(async () => !handles().includes("TCPServerWrap"));
    const before = handles();
    await withServer({ tlsPollMs: 10 }, async (server, agent) => {
      expect((await post(server, agent, reviewBody(ingressJson("web"), "r"))).status).toBe(200);
      expect((await send(server, agent, first.cert, "GET", "/metrics")).status).toBe(200);
      expect(handles()).toContain("TCPServerWrap");
    });
    // A closed socket's handle is released on a later turn of the loop; none may be left that was not there before.
    const count = (list: string): Map<string, number> => {
      const m = new Map<string, number>();
      for (const h of list.split(",")) if (h !== "") m.set(h, (m.get(h) ?? 0) + 1);
      return m;
    };
    const leftOver = (): string[] =>
      [...count(handles())].filter(([h, n]) => n > (count(before).get(h) ?? 0)).map(([h]) => h);
    await waitFor(async () => leftOver().length === 0).catch(() => {
      throw new Error(`active handles before: ${before}; after close: ${handles()}`);
    });
  });

  it("drains reviews in flight on close, and takes no new connections meanwhile", async () => {
    const logs: string[] = [];
    const server = await createWebhookServer({ tls: files, port: 0, host: "127.0.0.1", log: (l) => logs.push(l) });
    const body = reviewBody(ingressJson("web"), "draining");
    const slow = rawSocket(server);
    await slow.ready;
    slow.socket.write(`POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    slow.socket.write(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 50));
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    // New connections are no longer taken.
    await expect(send(server, new https.Agent(), first.cert, "GET", "/readyz")).rejects.toThrow();
    slow.socket.write(body.slice(10));
    const reply = await slow.reply;
    slow.socket.destroy();
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(reply.toLowerCase()).toContain("connection: close");
    await closing;
    expect(logs.at(-1)).toContain('"stopped"');
  });
});

const AMBIGUOUS =
  'spec.ingress[0].from[0].ipBlock.cidr: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)';

function policyJson(cidr: string): JsonObject {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "p" },
    spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr } }] }] },
  };
}

async function rawExchange(server: WebhookServer, head: string): Promise<string> {
  const raw = rawSocket(server);
  await raw.ready;
  raw.socket.write(head);
  const reply = await raw.reply;
  raw.socket.destroy();
  return reply;
}
