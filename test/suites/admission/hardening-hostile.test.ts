// Hostile AdmissionReviews: deep nesting, strings near the body limit, wrong
// types, prototype keys, invalid UTF-8, truncated bodies. Each is answered as
// the API server would (a review, a denial, or 400/413), never with a 500, no
// prototype is polluted, and the server keeps serving.
import * as https from "node:https";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { admit } from "../../../src/admission/admit.js";
import { readAdmissionReview } from "../../../src/admission/review.js";
import type { WebhookServer } from "../../../src/admission/server/index.js";
import { MAX_JSON_DEPTH } from "../../../src/admission/server/json-depth.js";
import { ingressJson, pem, rawSocket, reviewBody, send, tlsDir, withServer } from "../../support/admission/server.js";

const cert = pem();
const files = tlsDir(cert);
afterAll(() => files.dispose());

const LIMIT = 256 * 1024;

afterEach(() => {
  // Nothing a request carried may reach a prototype.
  for (const proto of [Object.prototype, Array.prototype, Function.prototype]) {
    expect(Object.getOwnPropertyNames(proto).filter((k) => k.startsWith("polluted"))).toEqual([]);
  }
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
});

/** The answer admit() gives in-process to the same bytes, as the server serializes it. */
function expected(body: string | Buffer): string {
  const outcome = admit(readAdmissionReview(JSON.parse(body.toString())));
  return JSON.stringify({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response: outcome.response });
}

const wrapObject = (objectJson: string, uid = "hostile"): string =>
  reviewBody({ placeholder: true }, uid).replace('{"placeholder":true}', objectJson);

/** Sends `body`, then a normal review; the first must get `status`, the second must be served. */
async function hostile(
  server: WebhookServer,
  agent: https.Agent,
  body: string | Buffer,
  status: number,
): Promise<string> {
  const r = await send(server, agent, cert.cert, "POST", "/validate", body);
  expect(r.status).toBe(status);
  const ok = await send(server, agent, cert.cert, "POST", "/validate", reviewBody(ingressJson("web"), "after"));
  expect(ok.status).toBe(200);
  expect(JSON.parse(ok.body)).toMatchObject({ response: { uid: "after", allowed: true } });
  return r.body;
}

describe("hostile AdmissionReviews", () => {
  it("deep nesting up to Go's limit is answered as admit() answers it; deeper is refused with 400 before parsing", async () => {
    await withServer(files, { maxBodyBytes: LIMIT }, async (server, logs) => {
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // The review, its request and the object take 3 levels: each case nests exactly 3 + depth deep.
        const within = MAX_JSON_DEPTH - 3;
        const nest = (open: string, close: string, inner: string, depth: number): string =>
          `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
        const cases = (depth: number): string[] => [
          `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"a"},"x":${nest("[", "]", "", depth)}}`,
          `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"a","annotations":${nest('{"a":', "}", "1", depth - 1)}}}`,
          `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"a"},"spec":${nest('{"rules":', "}", "1", depth)}}`,
        ];
        for (const c of cases(within)) {
          const body = wrapObject(c);
          expect(await hostile(server, agent, body, 200)).toBe(expected(body));
        }
        for (const c of cases(within + 1)) {
          const answer = await hostile(server, agent, wrapObject(c), 400);
          expect(answer).toBe(`the body is not JSON the API server reads: nested deeper than ${MAX_JSON_DEPTH}\n`);
        }
        expect(logs.filter((l) => l.includes('"reason":"malformed_json"'))).toHaveLength(3);
        // Nested past the body limit: refused before it is read.
        await hostile(server, agent, wrapObject(nest("[", "]", "", LIMIT)), 413);
      } finally {
        agent.destroy();
      }
    });
  });

  it("strings just under the body limit are answered (a denial), and just over it refused with 413", async () => {
    await withServer(files, { maxBodyBytes: LIMIT }, async (server) => {
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const frame = reviewBody(ingressJson("web", { metadata: { name: "web", labels: { big: "" } } }), "big");
        const under = frame.replace('"big":""', `"big":"${"v".repeat(LIMIT - frame.length)}"`);
        expect(Buffer.byteLength(under)).toBe(LIMIT);
        const answer = await hostile(server, agent, under, 200);
        expect(answer).toBe(expected(under));
        expect(JSON.parse(answer)).toMatchObject({ response: { allowed: false, status: { code: 422 } } });
        const over = frame.replace('"big":""', `"big":"${"v".repeat(LIMIT - frame.length + 1)}"`);
        await hostile(server, agent, over, 413);
        // A huge uid is echoed whole, as it came.
        const uid = "u".repeat(LIMIT - 1_000);
        const longUid = reviewBody(ingressJson("web"), uid);
        expect(JSON.parse(await hostile(server, agent, longUid, 200)).response.uid).toBe(uid);
      } finally {
        agent.destroy();
      }
    });
  });

  it("wrong types anywhere get 400 (not a review) or a 400 BadRequest denial (an undecodable object)", async () => {
    await withServer(files, {}, async (server) => {
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const good = JSON.parse(reviewBody(ingressJson("web"), "types")) as {
          request: Record<string, unknown> & { object: Record<string, unknown> };
        };
        const variants: [string, unknown][] = [
          ["request", 7],
          ["request", []],
          ["request.uid", 5],
          ["request.uid", { a: 1 }],
          ["request.kind", "Ingress"],
          ["request.operation", ["CREATE"]],
          ["request.dryRun", "yes"],
        ];
        for (const [path, value] of variants) {
          const copy = structuredClone(good) as { request: unknown };
          if (path === "request") copy.request = value;
          else (copy.request as Record<string, unknown>)[path.slice("request.".length)] = value;
          const body = await hostile(server, agent, JSON.stringify(copy), 400);
          expect(body).toMatch(/^not an AdmissionReview: request/);
        }
        const objects: unknown[] = [
          7,
          "Ingress",
          [],
          { ...good.request.object, spec: "x" },
          { ...good.request.object, metadata: { name: 5 } },
          { ...good.request.object, spec: { rules: [{ host: 1 }] } },
          { ...good.request.object, spec: { defaultBackend: { service: { name: "a", port: { number: "80" } } } } },
          { ...good.request.object, kind: "NetworkPolicy" },
        ];
        for (const object of objects) {
          const body = reviewBody(object, "obj");
          const answer = await hostile(server, agent, body, 200);
          expect(answer).toBe(expected(body));
          expect(JSON.parse(answer)).toMatchObject({
            response: { allowed: false, status: { code: 400, reason: "BadRequest" } },
          });
        }
      } finally {
        agent.destroy();
      }
    });
  });

  it("__proto__, constructor and prototype keys at every level pollute nothing and are answered as admit() answers them", async () => {
    await withServer(files, {}, async (server) => {
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const poison = '{"polluted":"yes","pollutedToo":1}';
        const keys = ["__proto__", "constructor", "prototype"];
        for (const key of keys) {
          const inject = (json: string, at: string): string => json.replace(at, `${at}"${key}":${poison},`);
          const base = reviewBody(
            ingressJson("web", {
              metadata: { name: "web", labels: { a: "b" }, annotations: { c: "d" } },
              spec: { rules: [{ host: "a.example.com" }] },
            }),
            "proto",
          );
          const bodies = [
            inject(base, '{"apiVersion":"admission.k8s.io/v1",'),
            inject(base, '"request":{'),
            inject(base, '"object":{'),
            inject(base, '"metadata":{'),
            inject(base, '"labels":{'),
            inject(base, '"annotations":{'),
            inject(base, '"spec":{'),
            inject(base, '"rules":[{'),
            base.replace('"labels":{"a":"b"}', `"labels":{"a":"b","${key}":"x"}`),
          ];
          for (const body of bodies) {
            const r = await send(server, agent, cert.cert, "POST", "/validate", body);
            expect([200, 400]).toContain(r.status);
            if (r.status === 200) expect(r.body).toBe(expected(body));
          }
        }
        await hostile(server, agent, reviewBody(ingressJson("web"), "fine"), 200);
      } finally {
        agent.destroy();
      }
    });
  });

  it("invalid UTF-8 is read as the replacement character, as Go's decoder reads it, and answered", async () => {
    await withServer(files, {}, async (server) => {
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const text = reviewBody(ingressJson("web", { metadata: { name: "web", labels: { a: "XX" } } }), "utf8");
        const at = Buffer.from(text).indexOf("XX");
        for (const bad of [
          [0xff, 0xfe],
          [0xc3, 0x28],
          [0xed, 0xa0],
        ]) {
          const body = Buffer.from(text);
          body[at] = bad[0]!;
          body[at + 1] = bad[1]!;
          const answer = await hostile(server, agent, body, 200);
          expect(answer).toBe(expected(body.toString("utf8")));
        }
        // Invalid UTF-8 in a JSON key or outside strings is not JSON.
        const broken = Buffer.concat([Buffer.from(text.slice(0, 1)), Buffer.from([0xff]), Buffer.from(text.slice(1))]);
        await hostile(server, agent, broken, 400);
      } finally {
        agent.destroy();
      }
    });
  });

  it("truncated bodies: cut JSON gets 400; a body shorter than its Content-Length, then a hang-up, costs nothing", async () => {
    await withServer(files, { maxInFlight: 1 }, async (server, logs) => {
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const body = reviewBody(ingressJson("web"), "cut");
        for (const n of [1, 10, body.length >> 1, body.length - 1]) {
          const answer = await hostile(server, agent, body.slice(0, n), 400);
          expect(answer).toMatch(/^the body is not JSON/);
        }
        for (let i = 0; i < 5; i++) {
          const raw = rawSocket(server);
          await raw.ready;
          raw.socket.end(
            `POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, body.length >> 1)}`,
          );
          await raw.closed;
        }
        // The in-flight slot of each hung-up request was given back: with a limit of 1, a review is still served.
        await hostile(server, agent, body, 200);
        expect(logs.filter((l) => l.includes('"reason":"unreadable_body"')).length).toBeLessThanOrEqual(5);
        expect(logs.some((l) => l.includes('"level":"error"'))).toBe(false);
      } finally {
        agent.destroy();
      }
    });
  });
});
