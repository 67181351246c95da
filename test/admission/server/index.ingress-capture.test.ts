// The served webhook with the Ingress capture guard on, learning the cluster
// from a fake API server's protobuf list and watch: end to end over real TLS
// on loopback. (Kept apart from index.test.ts, which covers the guard-less server.)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookServer, type WebhookServer } from "../../../src/admission/server/index.js";
import type { JsonObject } from "../../../src/networking/index.js";
import { startFakeApiServer, type FakeApiServer } from "../../support/admission/fake-api-server.js";
import { hostIngress } from "../../support/admission/ingresses.js";
import { type Reply, send } from "../../support/admission/server.js";
import { certProblem, makeCert } from "../../support/storage/cert.js";
import { skipWithout } from "../../support/tools.js";

const dir = mkdtempSync(join(tmpdir(), "clusterwire-capture-"));
let ca = "";
const files = { certFile: join(dir, "tls.crt"), keyFile: join(dir, "tls.key") };
beforeAll(() => {
  const made = makeCert();
  if (made === undefined) return;
  made.dispose();
  ca = made.cert;
  writeFileSync(files.certFile, made.cert);
  writeFileSync(files.keyFile, made.key);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A request over TLS on a connection of its own, trusting the test certificate. */
const call = (server: WebhookServer, method: string, path: string, body?: string): Promise<Reply> =>
  send(server, false, ca, method, path, body);

async function review(server: WebhookServer, object: JsonObject, uid: string) {
  const ns = (object["metadata"] as { namespace: string }).namespace;
  const reply = await call(
    server,
    "POST",
    "/validate",
    JSON.stringify({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: {
        uid,
        kind: { group: "networking.k8s.io", version: "v1", kind: "Ingress" },
        operation: "CREATE",
        namespace: ns,
        name: (object["metadata"] as { name: string }).name,
        object,
      },
    }),
  );
  expect(reply.status).toBe(200);
  return (JSON.parse(reply.body) as { response: { allowed: boolean; status?: { code: number; message: string } } })
    .response;
}

describe("createWebhookServer with ingressCapture", () => {
  it("is ready only once the Ingresses are listed, refuses a capture learned from the watch, allows a harmless Ingress", async (t) => {
    const fake: FakeApiServer | undefined = ca === "" ? undefined : await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    const logs: string[] = [];
    const realToken = fake.token;
    fake.token = "not-yet";
    fake.apply(hostIngress("shop", "web", "shop.example.com"));
    const server = await createWebhookServer({
      tls: files,
      port: 0,
      host: "127.0.0.1",
      log: (l) => logs.push(l),
      ingressCapture: {
        credentials: { server: fake.url, ca: Buffer.from(fake.ca), token: realToken, source: "test" },
        minBackoffMs: 10,
        maxBackoffMs: 50,
        requestTimeoutMs: 5_000,
      },
    });
    try {
      // The API server refuses the token: not ready, and the guard answers 503 rather than guessing.
      await fake.until(() => fake.requests.length >= 2, "list attempts");
      expect((await call(server, "GET", "/readyz")).status).toBe(503);
      expect((await call(server, "GET", "/healthz")).status).toBe(200);
      const early = await review(server, hostIngress("evil", "grab", "shop.example.com"), "u0");
      expect(early).toMatchObject({ allowed: false, status: { code: 503 } });

      fake.token = realToken;
      const deadline = Date.now() + 10_000;
      while ((await call(server, "GET", "/readyz")).status !== 200) {
        if (Date.now() > deadline) throw new Error("never ready");
        await new Promise((r) => setTimeout(r, 20));
      }

      const denied = await review(server, hostIngress("evil", "grab", "shop.example.com", "/login"), "u1");
      expect(denied.allowed).toBe(false);
      expect(denied.status?.code).toBe(403);
      expect(denied.status?.message).toMatch(/^ingress-capture: .*Ingress shop\/web serves/);
      expect(await review(server, hostIngress("app", "web", "app.example.com"), "u2")).toEqual({
        uid: "u2",
        allowed: true,
      });

      // A victim that arrives by a watch event.
      await fake.until(() => fake.watches.open === 1, "the watch");
      fake.apply(hostIngress("pay", "api", "pay.example.com", "/v1"));
      const until = Date.now() + 10_000;
      let late = await review(server, hostIngress("evil", "grab2", "pay.example.com", "/v1/charge"), "u3");
      while (late.allowed && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
        late = await review(server, hostIngress("evil", "grab2", "pay.example.com", "/v1/charge"), "u3");
      }
      expect(late.status?.message).toContain("Ingress pay/api serves");

      const metrics = (await call(server, "GET", "/metrics")).body;
      expect(metrics).toMatch(
        /clusterwire_admission_reviews_total\{kind="Ingress",operation="CREATE",verdict="guarded"\} [2-9]/,
      );
      expect(metrics).toMatch(/clusterwire_admission_guard_denials_total\{guard="ingress-capture"\} [2-9]/);
      expect(logs.some((l) => l.includes('"guard":"ingress-capture"'))).toBe(true);
      // The log names each review's verdict as the metrics label it: not ready, then guarded, then allowed.
      const verdicts = new Map(
        logs
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l["msg"] === "review")
          .map((l) => [l["uid"], l["verdict"]]),
      );
      expect([verdicts.get("u0"), verdicts.get("u1"), verdicts.get("u2")]).toEqual([
        "guard_not_ready",
        "guarded",
        "allowed",
      ]);
      expect(metrics).toMatch(
        /clusterwire_admission_reviews_total\{kind="Ingress",operation="CREATE",verdict="guard_not_ready"\} 1\n/,
      );
      expect(logs.some((l) => l.includes(realToken))).toBe(false);
    } finally {
      await server.close();
    }
    // close() stops the watch too.
    await fake.until(() => fake.watches.open === 0, "the watch to close");
    await fake.close();
  });

  it("rejects watch options out of range with the watch's RangeError", async (t) => {
    if (ca === "") return skipWithout(t, "openssl", certProblem());
    await expect(
      createWebhookServer({
        tls: files,
        port: 0,
        host: "127.0.0.1",
        ingressCapture: {
          credentials: { server: "https://127.0.0.1:1", token: "t", source: "test" },
          pageSize: 0,
        },
      }),
    ).rejects.toThrow(RangeError);
  });
});
