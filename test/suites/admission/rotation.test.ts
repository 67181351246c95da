// Certificate rotation under load: while clients keep sending reviews, on
// kept-alive connections and on a fresh connection each, the certificate and
// key files are swapped (by rename, as a Secret volume is updated) several
// times. No request fails, and new connections see the new certificate.
import { X509Certificate } from "node:crypto";
import * as https from "node:https";
import * as tls from "node:tls";
import { afterAll, describe, expect, it } from "vitest";
import type { WebhookServer } from "../../../src/admission/server/index.js";
import {
  ingressJson,
  pem,
  reviewBody,
  send,
  tlsDir,
  waitFor,
  withServer,
  type Pem,
} from "../../support/admission/server.js";

const ROTATIONS = 3;
const certs: Pem[] = Array.from({ length: ROTATIONS + 1 }, () => pem());
const cas = certs.map((c) => c.cert);
const files = tlsDir(certs[0]!);
afterAll(() => files.dispose());

const fingerprint = (certPem: string): string => new X509Certificate(certPem).fingerprint256;

/** The fingerprint of the certificate a new connection is served. */
function served(server: WebhookServer): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: "127.0.0.1", port: server.port, ca: cas }, () => {
      resolve(new X509Certificate(s.getPeerCertificate(true).raw).fingerprint256);
      s.end();
    });
    s.on("error", reject);
  });
}

describe("certificate rotation under load", () => {
  it(`swaps the pair ${ROTATIONS} times while reviews keep coming; none fails, new connections get each new certificate`, async () => {
    await withServer(files, { tlsPollMs: 20 }, async (server) => {
      let stop = false;
      const failures: string[] = [];
      let answered = 0;
      let reused = 0;
      const body = reviewBody(ingressJson("web"), "rotating");
      // Clients that keep going until told to stop (bounded by a count, so a bug cannot loop for ever).
      const client = async (agent: https.Agent | false): Promise<void> => {
        for (let i = 0; !stop && i < 20_000; i++) {
          try {
            const r = await send(server, agent, cas, "POST", "/validate", body);
            if (r.status !== 200) failures.push(`HTTP ${r.status}`);
            else answered++;
            if (r.reused) reused++;
          } catch (e) {
            failures.push(e instanceof Error ? e.message : String(e));
          }
        }
      };
      const kept = new https.Agent({ keepAlive: true, maxSockets: 2 });
      const clients = [client(kept), client(kept), client(false), client(false)];
      try {
        for (let n = 1; n <= ROTATIONS; n++) {
          const before = answered;
          files.swap(certs[n]!);
          await waitFor(async () => (await served(server)) === fingerprint(certs[n]!.cert));
          // Reviews kept flowing across the swap.
          await waitFor(() => answered > before + 20);
        }
      } finally {
        stop = true;
        await Promise.all(clients);
        kept.destroy();
      }
      expect(failures).toEqual([]);
      expect(answered).toBeGreaterThan(ROTATIONS * 20);
      // The kept-alive clients did ride their connections across the swaps.
      expect(reused).toBeGreaterThan(0);
    });
  });
});
