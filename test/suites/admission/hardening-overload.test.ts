// Overload: far more reviews at once than the server's in-flight limit. Every
// request is answered, each with a review or a 429 (none hangs, none is cut),
// and the server serves normally afterwards. Counts, not timings.
import * as https from "node:https";
import { afterAll, describe, expect, it } from "vitest";
import { admit } from "../../../src/admission/admit.js";
import { readAdmissionReview } from "../../../src/admission/review.js";
import {
  ingressJson,
  pem,
  rawSocket,
  reviewBody,
  send,
  tlsDir,
  waitFor,
  withServer,
  type Reply,
} from "../../support/admission/server.js";

const cert = pem();
const files = tlsDir(cert);
afterAll(() => files.dispose());

const MAX_IN_FLIGHT = 4;
const BURST = 200;

/** The answer admit() gives in-process, as the server serializes it. */
function expected(body: string): string {
  const outcome = admit(readAdmissionReview(JSON.parse(body)));
  return JSON.stringify({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response: outcome.response });
}

function bodies(n: number): string[] {
  // Valid and invalid Ingresses, so answers differ from one another.
  return Array.from({ length: n }, (_, i) =>
    reviewBody(ingressJson(i % 3 === 0 ? `Bad_${i}` : `web-${i}`), `uid-${i}`),
  );
}

function checkAnswered(replies: readonly Reply[], sent: readonly string[]): { reviews: number; shed: number } {
  let reviews = 0;
  let shed = 0;
  replies.forEach((r, i) => {
    if (r.status === 200) {
      expect(r.body).toBe(expected(sent[i]!));
      reviews++;
    } else {
      expect(r.status).toBe(429);
      expect(r.headers["retry-after"]).toBe("1");
      expect(r.headers["connection"]).toBe("close");
      shed++;
    }
  });
  return { reviews, shed };
}

describe("overload", () => {
  it(`sheds with 429 every review past ${MAX_IN_FLIGHT} in flight while the slots are held, and answers the held ones`, async () => {
    await withServer(files, { maxInFlight: MAX_IN_FLIGHT }, async (server) => {
      const held = bodies(MAX_IN_FLIGHT).map((body) => ({ body, raw: rawSocket(server) }));
      // Each holds a slot: headers and half of the body sent, the rest later.
      for (const h of held) {
        await h.raw.ready;
        h.raw.socket.write(
          `POST /validate HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(h.body)}\r\n\r\n`,
        );
        h.raw.socket.write(h.body.slice(0, 20));
      }
      const probe = reviewBody(ingressJson("probe"), "probe");
      await waitFor(async () => (await send(server, false, cert.cert, "POST", "/validate", probe)).status === 429);
      const sent = bodies(BURST);
      const replies = await Promise.all(sent.map((b) => send(server, false, cert.cert, "POST", "/validate", b)));
      expect(checkAnswered(replies, sent)).toEqual({ reviews: 0, shed: BURST });
      for (const h of held) h.raw.socket.write(h.body.slice(20));
      for (const h of held) {
        const text = await h.raw.closed;
        expect(text).toMatch(/^HTTP\/1\.1 200 /);
        expect(text.slice(text.indexOf("\r\n\r\n") + 4)).toBe(expected(h.body));
      }
      const after = await send(server, false, cert.cert, "POST", "/validate", probe);
      expect(after.status).toBe(200);
    });
  });

  it(`answers every one of ${BURST} reviews sent at once, each with its review or a 429, then serves normally`, async () => {
    await withServer(files, { maxInFlight: MAX_IN_FLIGHT }, async (server, logs) => {
      const sent = bodies(BURST);
      // One connection each, all at once: far more than the limit arrive together.
      const agent = new https.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
      try {
        const replies = await Promise.all(sent.map((b) => send(server, agent, cert.cert, "POST", "/validate", b)));
        const { reviews, shed } = checkAnswered(replies, sent);
        expect(reviews + shed).toBe(BURST);
        expect(reviews).toBeGreaterThan(0);
        const refusals = logs.filter((l) => l.includes('"reason":"overloaded"')).length;
        expect(refusals).toBe(shed);
        // Afterwards, sequential reviews on a kept-alive connection are all served.
        const calm = new https.Agent({ keepAlive: true, maxSockets: 1 });
        try {
          for (const b of sent.slice(0, 20)) {
            const r = await send(server, calm, cert.cert, "POST", "/validate", b);
            expect(r.status).toBe(200);
            expect(r.body).toBe(expected(b));
          }
        } finally {
          calm.destroy();
        }
      } finally {
        agent.destroy();
      }
    });
  });
});
