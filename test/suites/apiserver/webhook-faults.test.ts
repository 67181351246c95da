// What a real kube-apiserver does when the webhook fails it: the webhook down, the webhook
// slower than timeoutSeconds (a TCP proxy on loopback holds its answers back), each with
// failurePolicy Fail and Ignore; and the serving certificate rotated while the API server sends
// reviews (caBundle carrying both CAs, the files overwritten under a running webhook serve).
// Each case checks what the client got and that nothing was stored that should not be.
import { X509Certificate } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  apiRequest,
  type ControlPlane,
  controlPlaneBuilt,
  DEFAULT_VERSION,
  startControlPlane,
} from "../../support/controlplane/start.js";
import { type DelayProxy, startDelayProxy } from "../../support/apiserver/delay-proxy.js";
import {
  ensureNamespace,
  expectStatus,
  makeCerts,
  type RunningWebhook,
  registerWebhook,
  reviewsDuring,
  startWebhook,
  unregisterWebhook,
  type WebhookCertFiles,
  waitUntilCalled,
  webhookConfiguration,
} from "../../support/apiserver/webhook.js";

const NS = "faults";
const POLICIES = `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies`;
const CLASSES = "/apis/networking.k8s.io/v1/ingressclasses";
const HOOK = "namespaced.networking.webhook.clusterwire.io";

const policy = (name: string, cidr = "10.0.0.0/8") => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "NetworkPolicy",
  metadata: { name },
  spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr } }] }] },
});
const ingressClass = (name: string) => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "IngressClass",
  metadata: { name },
  spec: { controller: "example.com/ingress" },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The API server's refusal for a webhook it could not get an answer from (failurePolicy Fail). */
function expectCallFailed(res: ApiResponse, hook: string, what: string): string {
  expectStatus(res, 500, what);
  const status = JSON.parse(res.body) as { kind: string; reason: string; message: string };
  expect(status).toMatchObject({ kind: "Status", reason: "InternalError" });
  expect(status.message).toContain(`failed calling webhook "${hook}"`);
  return status.message;
}

/**
 * Waits until a dry-run create of a valid NetworkPolicy answers 201: the API server has picked
 * up a configuration that no longer refuses it (e.g. failurePolicy Ignore with the webhook down).
 */
async function waitUntilAdmitted(plane: ControlPlane, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await apiRequest(plane, "POST", `${POLICIES}?dryRun=All`, policy("probe"));
    if (res.status === 201) return;
    if (Date.now() > deadline) throw new Error(`still refused after ${timeoutMs} ms: ${res.status} ${res.body}`);
    await sleep(200);
  }
}

/** Waits until the webhook has logged a review of `name`. */
async function waitForReview(webhook: RunningWebhook, name: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!webhook.reviews.some((r) => r["name"] === name)) {
    if (Date.now() > deadline) throw new Error(`no review of ${name} within ${timeoutMs} ms`);
    await sleep(10);
  }
}

describe.skipIf(!controlPlaneBuilt(DEFAULT_VERSION))(`webhook faults behind kube-apiserver ${DEFAULT_VERSION}`, () => {
  let plane: ControlPlane;
  let certs: WebhookCertFiles;
  const cleanups: Array<() => Promise<unknown> | unknown> = [];

  beforeAll(async () => {
    [plane, certs] = await Promise.all([startControlPlane({ version: DEFAULT_VERSION }), makeCerts()]);
    await ensureNamespace(plane, NS);
  }, 90_000);

  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
    await plane?.stop();
    certs?.dispose();
  }, 60_000);

  it("webhook down: Fail refuses every covered create; Ignore admits by built-in validation alone", async () => {
    const webhook = await startWebhook(certs);
    cleanups.push(() => webhook.stop());
    await registerWebhook(plane, webhookConfiguration(webhook.url, certs.caPem, { failurePolicy: "Fail" }));
    await waitUntilCalled(plane, webhook, NS);
    await webhook.stop();

    const refused = await apiRequest(plane, "POST", POLICIES, policy("down-fail"));
    const message = expectCallFailed(refused, HOOK, "create with the webhook down (Fail)");
    expect(message).toMatch(/connection refused/);
    console.info(`webhook down, Fail: ${refused.status} ${message}`);
    expectCallFailed(
      await apiRequest(plane, "POST", CLASSES, ingressClass("down-fail")),
      "cluster.networking.webhook.clusterwire.io",
      "IngressClass with the webhook down (Fail)",
    );
    expectStatus(await apiRequest(plane, "GET", `${POLICIES}/down-fail`), 404, "the refused policy");
    expectStatus(await apiRequest(plane, "GET", `${CLASSES}/down-fail`), 404, "the refused class");
    // Built-in validation comes first: an invalid object gets the API server's 422, not the 500.
    expectStatus(await apiRequest(plane, "POST", POLICIES, policy("down-bad", "10.0.0.0/33")), 422, "invalid");
    // Nor does the webhook stop what its rules do not cover.
    expectStatus(
      await apiRequest(plane, "DELETE", `${POLICIES}/probe-absent`),
      404,
      "a DELETE (not in the rules) is answered by the API server alone",
    );

    await registerWebhook(plane, webhookConfiguration(webhook.url, certs.caPem, { failurePolicy: "Ignore" }));
    await waitUntilAdmitted(plane);
    expectStatus(await apiRequest(plane, "POST", POLICIES, policy("down-ignore")), 201, "create (Ignore)");
    expectStatus(await apiRequest(plane, "GET", `${POLICIES}/down-ignore`), 200, "the admitted policy");
    expectStatus(await apiRequest(plane, "POST", CLASSES, ingressClass("down-ignore")), 201, "class (Ignore)");
    const bad = await apiRequest(plane, "POST", POLICIES, policy("down-ignore-bad", "10.0.0.0/33"));
    expectStatus(bad, 422, "an invalid policy with the webhook down (Ignore)");
    expectStatus(await apiRequest(plane, "GET", `${POLICIES}/down-ignore-bad`), 404, "the invalid policy");
    for (const path of [`${POLICIES}/down-ignore`, `${CLASSES}/down-ignore`])
      expectStatus(await apiRequest(plane, "DELETE", path), 200, `delete ${path}`);
    await unregisterWebhook(plane);
  });

  it("a webhook slower than timeoutSeconds: Fail refuses with a timeout, Ignore admits", async () => {
    const webhook = await startWebhook(certs);
    cleanups.push(() => webhook.stop());
    const proxy: DelayProxy = await startDelayProxy(webhook.url);
    cleanups.push(() => proxy.close());
    const TIMEOUT_S = 1;
    await registerWebhook(
      plane,
      webhookConfiguration(proxy.url, certs.caPem, { failurePolicy: "Fail", timeoutSeconds: TIMEOUT_S }),
    );
    await waitUntilCalled(plane, webhook, NS);
    proxy.delayMs = 2_500;

    const started = Date.now();
    const refused = await apiRequest(plane, "POST", POLICIES, policy("slow-fail"));
    const elapsed = Date.now() - started;
    const message = expectCallFailed(refused, HOOK, "create with a slow webhook (Fail)");
    expect(message).toMatch(/deadline exceeded|timeout|Timeout/);
    // The webhook got the review and allowed it; its answer came too late.
    await waitForReview(webhook, "slow-fail");
    expect(webhook.reviews.find((r) => r["name"] === "slow-fail")?.verdict).toBe("allowed");
    expectStatus(await apiRequest(plane, "GET", `${POLICIES}/slow-fail`), 404, "the refused policy");
    console.info(`slow webhook, Fail (timeoutSeconds ${TIMEOUT_S}, ${elapsed} ms): ${refused.status} ${message}`);

    await registerWebhook(
      plane,
      webhookConfiguration(proxy.url, certs.caPem, { failurePolicy: "Ignore", timeoutSeconds: TIMEOUT_S }),
    );
    await waitUntilAdmitted(plane);
    const ignoredAt = Date.now();
    expectStatus(await apiRequest(plane, "POST", POLICIES, policy("slow-ignore")), 201, "create (Ignore)");
    const ignoredMs = Date.now() - ignoredAt;
    expectStatus(await apiRequest(plane, "GET", `${POLICIES}/slow-ignore`), 200, "the admitted policy");
    expectStatus(
      await apiRequest(plane, "POST", POLICIES, policy("slow-ignore-bad", "10.0.0.0/33")),
      422,
      "an invalid policy with a slow webhook (Ignore)",
    );
    console.info(`slow webhook, Ignore: 201 after ${ignoredMs} ms`);
    expectStatus(await apiRequest(plane, "DELETE", `${POLICIES}/slow-ignore`), 200, "delete");
    await unregisterWebhook(plane);
    await proxy.close();
    await webhook.stop();
  });

  it("release skew: a webhook following 1.37 before a 1.35 API server denies what 1.35 admits, and the client sees its Status", async () => {
    const webhook = await startWebhook(certs, ["--kubernetes-version", "v1.37.2"]);
    cleanups.push(() => webhook.stop());
    await registerWebhook(plane, webhookConfiguration(webhook.url, certs.caPem));
    await waitUntilCalled(plane, webhook, NS);
    // Host bits set: 1.35's legacy parser takes it (StrictIPCIDRValidation is off), 1.37 does not.
    const legacy = policy("skew", "10.0.0.1/8");
    const denied = await reviewsDuring(plane, webhook, NS, () => apiRequest(plane, "POST", POLICIES, legacy));
    expectStatus(denied.result, 422, "a legacy-only CIDR under a 1.37 webhook");
    const status = JSON.parse(denied.result.body) as { kind: string; reason: string; message: string };
    expect(status).toMatchObject({ kind: "Status", reason: "Invalid" });
    expect(status.message).toMatch(new RegExp(`^admission webhook "${HOOK}" denied the request: `));
    expect(status.message).toContain("spec.ingress[0].from[0].ipBlock.cidr");
    expect(denied.reviews.map((r) => [r["kind"], r["operation"], r.verdict])).toEqual([
      ["NetworkPolicy", "CREATE", "denied"],
    ]);
    expectStatus(await apiRequest(plane, "GET", `${POLICIES}/skew`), 404, "the denied policy");
    console.info(`release skew (webhook 1.37, API server 1.35): ${denied.result.status} ${status.message}`);
    await unregisterWebhook(plane);
    await webhook.stop();
  });

  it("certificate rotation while the API server sends reviews: every answer right, then B's certificate served", async () => {
    const b = await makeCerts();
    cleanups.push(() => b.dispose());
    const served = mkdtempSync(join(tmpdir(), "clusterwire-rotation-"));
    cleanups.push(() => rmSync(served, { recursive: true, force: true }));
    const files = { dir: served, cert: join(served, "tls.crt"), key: join(served, "tls.key") };
    copyFileSync(certs.cert, files.cert);
    copyFileSync(certs.key, files.key);
    const webhook = await startWebhook({ ...files, caPem: certs.caPem, dispose: () => undefined });
    cleanups.push(() => webhook.stop());
    // A proxy without delay counts the API server's connections (each one a TLS handshake).
    const proxy = await startDelayProxy(webhook.url);
    cleanups.push(() => proxy.close());
    await registerWebhook(plane, webhookConfiguration(proxy.url, certs.caPem + b.caPem, { failurePolicy: "Fail" }));
    await waitUntilCalled(plane, webhook, NS);

    const WORKERS = 4;
    const MIN_REQUESTS = 200;
    const AFTER_RELOAD = 60;
    const MAX_REQUESTS = 2_000;
    const reloaded = () => webhook.otherLines.some((l) => l.includes("reloaded the serving certificate"));
    let sent = 0;
    let rotatedAt: number | undefined;
    let reloadSeenAt: number | undefined;
    let connectionsAtRotation = 0;
    const wrong: string[] = [];
    const issued: number[] = [];
    const rotate = () => {
      // Whole files replace the old ones, as a Secret volume's symlink swap does.
      for (const [from, to] of [
        [b.key, files.key],
        [b.cert, files.cert],
      ] as const) {
        copyFileSync(from, `${to}.next`);
        renameSync(`${to}.next`, to);
      }
    };
    const worker = async () => {
      for (;;) {
        const i = sent++;
        if (i >= MAX_REQUESTS) return;
        if (reloadSeenAt === undefined && reloaded()) reloadSeenAt = i;
        if (i >= MIN_REQUESTS && reloadSeenAt !== undefined && i >= reloadSeenAt + AFTER_RELOAD) return;
        if (i === 50) {
          rotate();
          rotatedAt = i;
          connectionsAtRotation = proxy.connections();
        }
        // Every tenth an invalid one: the API server's own 422 (the webhook is not called).
        const invalid = i % 10 === 9;
        issued.push(i);
        const res = await apiRequest(
          plane,
          "POST",
          `${POLICIES}?dryRun=All`,
          policy(`rotation-${i}`, invalid ? "10.0.0.0/33" : "10.0.0.0/8"),
        );
        const expected = invalid ? 422 : 201;
        if (res.status !== expected) wrong.push(`#${i}: ${res.status} ${res.body}`);
      }
    };
    const stream = await reviewsDuring(plane, webhook, NS, () => Promise.all(Array.from({ length: WORKERS }, worker)));
    expect(wrong).toEqual([]);
    expect(rotatedAt).toBe(50);
    expect(reloadSeenAt).toBeDefined();
    const total = issued.length;
    const valid = issued.filter((i) => i % 10 !== 9).length;
    expect(stream.reviews.filter((r) => r.verdict === "allowed")).toHaveLength(valid);

    // More connections than the stream needed, each answered by certificate B: the answers are
    // held back so the requests overlap and the API server must open new connections.
    const before = proxy.connections();
    proxy.delayMs = 300;
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => apiRequest(plane, "POST", `${POLICIES}?dryRun=All`, policy(`burst-${i}`))),
    );
    proxy.delayMs = 0;
    expect(burst.map((r) => r.status)).toEqual(burst.map(() => 201));
    const newConnections = proxy.connections() - connectionsAtRotation;
    expect(proxy.connections()).toBeGreaterThan(before);

    // The served certificate is now B's.
    const port = Number(new URL(webhook.url).port);
    const peer = await new Promise<X509Certificate>((resolve, reject) => {
      const socket = connect({ host: "127.0.0.1", port, ca: b.caPem }, () => {
        const raw = socket.getPeerX509Certificate();
        socket.end();
        if (raw === undefined) reject(new Error("no peer certificate"));
        else resolve(raw);
      });
      socket.on("error", reject);
    });
    expect(peer.fingerprint256).toBe(new X509Certificate(readFileSync(b.cert)).fingerprint256);
    expect(peer.fingerprint256).not.toBe(new X509Certificate(readFileSync(certs.cert)).fingerprint256);
    expect(webhook.otherLines.filter((l) => l.includes("TLS handshake failed"))).toEqual([]);
    console.info(
      `rotation: ${total} requests from ${WORKERS} workers (${valid} reviewed), files swapped at #50, ` +
        `reload seen at #${reloadSeenAt}; ${newConnections} API-server connections opened after the swap; 0 wrong answers`,
    );
    await unregisterWebhook(plane);
  });
});
