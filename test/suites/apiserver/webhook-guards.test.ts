// The webhook's guards against a real kube-apiserver (and etcd, and kubectl) on loopback:
// `clusterwire webhook serve --ingress-capture --kubeconfig FILE` lists and watches the API
// server's Ingresses over protobuf, and kube-apiserver calls it through deploy/'s configuration.
// Each case checks both what the client gets through kube-apiserver and what the webhook logged.
//
// The control plane runs with the watch cache off for Ingresses
// (--watch-cache-sizes=ingresses.networking.k8s.io#0), so a watch the guard opens again from an
// old resourceVersion reaches etcd: after an etcd compaction past it, kube-apiserver answers
// with an ERROR event, 410 Expired. With the cache on, the same watch is served from the cache,
// which keeps its own history of events, and no 410 comes (the cache's window is what expires
// there, after minutes or thousands of events: too slow for a test).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectl as runKubectl } from "../../../conformance/kubectl/kubectl.js";
import { type ApiServerGate, startGate } from "../../support/apiserver/gate.js";
import {
  ensureNamespace,
  makeCerts,
  type RunningWebhook,
  registerWebhook,
  type ReviewLog,
  startWebhook,
  unregisterWebhook,
  waitUntilCalled,
  type WebhookCertFiles,
  webhookConfiguration,
} from "../../support/apiserver/webhook.js";
import {
  apiRequest,
  binaryPaths,
  type ControlPlane,
  controlPlaneBuilt,
  DEFAULT_VERSION,
  startControlPlane,
} from "../../support/controlplane/start.js";

const VERSIONS_UNDER_TEST = [DEFAULT_VERSION, "v1.37.2"];
for (const version of VERSIONS_UNDER_TEST) {
  if (!controlPlaneBuilt(version)) {
    console.warn(
      `test/suites/apiserver/webhook-guards.test.ts: ${version} skipped, kube-apiserver, etcd and kubectl are not built; ` +
        "`npm run apiserver` builds them",
    );
  }
}

const NAMESPACED_HOOK = "namespaced.networking.webhook.clusterwire.io";
const INGRESSES = "/apis/networking.k8s.io/v1/namespaces";
const PROTOBUF = "application/vnd.kubernetes.protobuf";
const PROTOBUF_WATCH = "application/vnd.kubernetes.protobuf;stream=watch";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An Ingress ns/name serving host + path (Prefix). */
function ingress(ns: string, name: string, host: string, path = "/", annotations?: Record<string, string>) {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name, namespace: ns, ...(annotations === undefined ? {} : { annotations }) },
    spec: {
      rules: [
        {
          host,
          http: { paths: [{ path, pathType: "Prefix", backend: { service: { name: "s", port: { number: 80 } } } }] },
        },
      ],
    },
  };
}

interface Answer {
  readonly status: number;
  /** The Status of a refusal, or the object. */
  readonly body: { code?: number; reason?: string; message?: string; metadata?: { resourceVersion?: string } };
}

/** Creates an Ingress through kube-apiserver (dry run: nothing is stored, the webhook is called). */
async function create(plane: ControlPlane, object: ReturnType<typeof ingress>, dryRun = false): Promise<Answer> {
  const ns = object.metadata.namespace;
  const res = await apiRequest(plane, "POST", `${INGRESSES}/${ns}/ingresses${dryRun ? "?dryRun=All" : ""}`, object);
  return { status: res.status, body: JSON.parse(res.body) as Answer["body"] };
}

async function remove(plane: ControlPlane, ns: string, name: string): Promise<void> {
  const res = await apiRequest(plane, "DELETE", `${INGRESSES}/${ns}/ingresses/${name}`);
  expect(res.status, res.body).toBe(200);
}

/** Calls `probe` every 100 ms until it returns true, for at most `timeoutMs`; false if it never did. */
async function until(probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(100);
  }
  return false;
}

/** A GET to the webhook itself (its /readyz, /healthz), trusting its CA. */
function webhookGet(webhook: RunningWebhook, caPem: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, webhook.url), { ca: caPem, agent: false, timeout: 5_000 }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on("error", reject);
    req.end();
  });
}

/** kubectl of the control plane's release, with its kubeconfig; resolves with the exit code and output. */
function kubectl(plane: ControlPlane, version: string, args: readonly string[]) {
  const k = {
    binary: binaryPaths(version).kubectl,
    kubeconfig: plane.kubeconfigPath,
    cacheDir: join(plane.dir, "kubectl"),
  };
  return runKubectl(k, args, { timeoutMs: 30_000 });
}

/** The value of the sample `series` (name and labels, as exposed) in a /metrics page; 0 when absent. */
function metric(page: string, series: string): number {
  const line = page.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/** The ingress-watch lines the webhook logged. */
const watchLines = (webhook: RunningWebhook): ReviewLog[] =>
  webhook.logs.filter((l) => l["component"] === "ingress-watch");
/** Its review lines. */
const reviewLines = (webhook: RunningWebhook): ReviewLog[] => webhook.reviews.filter((l) => "verdict" in l);

for (const version of VERSIONS_UNDER_TEST) {
  describe.skipIf(!controlPlaneBuilt(version))(`the webhook's guards against kube-apiserver ${version}`, () => {
    let plane: ControlPlane;
    let certs: WebhookCertFiles;
    const webhooks: RunningWebhook[] = [];
    let gate: ApiServerGate | undefined;
    let dir = "";

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "clusterwire-guards-"));
      plane = await startControlPlane({
        version,
        apiserverFlags: ["--watch-cache-sizes=ingresses.networking.k8s.io#0"],
      });
      certs = await makeCerts();
      for (const ns of ["a", "b"]) await ensureNamespace(plane, ns);
    }, 90_000);

    afterAll(async () => {
      if (plane !== undefined) await unregisterWebhook(plane);
      for (const w of webhooks) await w.stop();
      await gate?.close();
      await plane?.stop();
      certs?.dispose();
      if (dir !== "") rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    /** `webhook serve` with `args`, registered as deploy/'s configuration (failurePolicy Fail), and called. */
    async function serveAndRegister(args: readonly string[], ready: boolean): Promise<RunningWebhook> {
      const webhook = await startWebhook(certs, ["--ingress-capture", ...args]);
      webhooks.push(webhook);
      if (ready)
        expect(await until(async () => (await webhookGet(webhook, certs.caPem, "/readyz")).status === 200)).toBe(true);
      await registerWebhook(plane, webhookConfiguration(webhook.url, certs.caPem));
      await waitUntilCalled(plane, webhook, "a");
      return webhook;
    }

    describe("serving with the control plane's kubeconfig, and --strict", () => {
      let webhook: RunningWebhook;
      beforeAll(async () => {
        webhook = await serveAndRegister(["--kubeconfig", plane.kubeconfigPath, "--strict"], true);
      }, 60_000);

      it("refuses an Ingress in b taking a's requests, learned from the live watch; admits it in a, on another host, and once a's is gone", async () => {
        const host = "capture.example.com";
        // a's Ingress comes after the first list: only the watch can tell the guard.
        const created = Date.now();
        expect((await create(plane, ingress("a", "site", host))).status).toBe(201);
        const refusedOnce = await until(
          async () => (await create(plane, ingress("b", "grab", host), true)).status === 403,
        );
        expect(refusedOnce).toBe(true);
        const learnedMs = Date.now() - created;

        // The same host and path, and a more specific path on that host: both refused with the guard's 403.
        for (const [name, path, taken] of [
          ["grab", "/", "/z"],
          ["grab-api", "/api", "/api"],
        ] as const) {
          const answer = await create(plane, ingress("b", name, host, path));
          console.info(`[${version}] ${JSON.stringify(answer)}`);
          expect(answer.status).toBe(403);
          expect(answer.body.reason).toBe("Forbidden");
          expect(answer.body.message).toBe(
            `admission webhook "${NAMESPACED_HOOK}" denied the request: ingress-capture: this Ingress would take requests ` +
              `that an Ingress in other namespaces serve: spec.rules[0].http.paths[0] (host "${host}", path "${path}", Prefix) ` +
              `would take the request (Host "${host}", path "${taken}") that Ingress a/site serves with its ` +
              `spec.rules[0].http.paths[0] (host "${host}", path "/", Prefix)`,
          );
        }
        // The same claim from a's own namespace, and another host from b: admitted.
        expect((await create(plane, ingress("a", "site-twin", host))).status).toBe(201);
        expect((await create(plane, ingress("b", "elsewhere", "other.example.com"))).status).toBe(201);

        const guardedLines = () =>
          reviewLines(webhook).filter((l) => l.verdict === "guarded" && l["namespace"] === "b");
        // The webhook writes its log lines in batches, so the last may trail its answer by up to 50 ms.
        expect(await until(async () => guardedLines().length >= 3, 5_000)).toBe(true);
        const guarded = guardedLines();
        expect(guarded.every((l) => l["guard"] === "ingress-capture")).toBe(true);
        const metrics = (await webhookGet(webhook, certs.caPem, "/metrics")).body;
        expect(
          metric(metrics, 'clusterwire_admission_guard_denials_total{guard="ingress-capture"}'),
        ).toBeGreaterThanOrEqual(3);

        // a's Ingresses go: the watch's DELETED events free the host for b.
        await remove(plane, "a", "site");
        await remove(plane, "a", "site-twin");
        expect(await until(async () => (await create(plane, ingress("b", "grab", host), true)).status === 201)).toBe(
          true,
        );
        expect((await create(plane, ingress("b", "grab", host))).status).toBe(201);

        // The guard decoded the API server's protobuf list (it reads nothing else) and watched from its resourceVersion.
        const listed = watchLines(webhook).filter((l) => l.msg === "listed" && l["resource"] === "ingresses");
        expect(listed.length).toBe(1);
        expect(watchLines(webhook).filter((l) => l.level === "warn")).toEqual([]);
        console.info(`[${version}] capture learned from the watch ${learnedMs} ms after a's create`);
      });

      it("kubectl apply shows the strict guard's and the capture guard's refusals", async () => {
        const strictFile = join(dir, "strict.yaml");
        writeFileSync(
          strictFile,
          [
            "apiVersion: networking.k8s.io/v1",
            "kind: Ingress",
            "metadata:",
            "  name: legacy",
            "  namespace: a",
            "  annotations: {kubernetes.io/ingress.class: nginx}",
            "spec:",
            "  rules:",
            "  - host: legacy.example.com",
            "    http:",
            "      paths:",
            "      - {path: /, pathType: Prefix, backend: {service: {name: s, port: {number: 80}}}}",
            "",
          ].join("\n"),
        );
        const strict = await kubectl(plane, version, ["apply", "-f", strictFile]);
        expect(strict.code).toBe(1);
        console.info(`[${version}] kubectl apply (strict): exit ${strict.code}\n${strict.stderr}`);
        // Warning first: kube-apiserver passes on the warnings the webhook's refusal carries.
        const warning = `annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`;
        expect(strict.stderr).toBe(
          `Warning: ${warning}\n` +
            `Error from server (Forbidden): error when creating "${strictFile}": admission webhook "${NAMESPACED_HOOK}" denied the request: ` +
            `Ingress.networking.k8s.io "legacy" is forbidden: guard "strict" refuses what the API server would admit with warnings: ${warning}\n`,
        );

        const host = "shop.example.com";
        expect((await create(plane, ingress("a", "shop", host))).status).toBe(201);
        expect(
          await until(async () => (await create(plane, ingress("b", "cart", host, "/cart"), true)).status === 403),
        ).toBe(true);
        const captureFile = join(dir, "capture.yaml");
        writeFileSync(
          captureFile,
          [
            "apiVersion: networking.k8s.io/v1",
            "kind: Ingress",
            "metadata: {name: cart, namespace: b}",
            "spec:",
            "  rules:",
            `  - host: ${host}`,
            "    http:",
            "      paths:",
            "      - {path: /cart, pathType: Prefix, backend: {service: {name: s, port: {number: 80}}}}",
            "",
          ].join("\n"),
        );
        const capture = await kubectl(plane, version, ["apply", "-f", captureFile]);
        console.info(`[${version}] kubectl apply (capture): exit ${capture.code}\n${capture.stderr}`);
        expect(capture.code).toBe(1);
        expect(capture.stderr).toBe(
          `Error from server (Forbidden): error when creating "${captureFile}": admission webhook "${NAMESPACED_HOOK}" denied the request: ` +
            "ingress-capture: this Ingress would take requests that an Ingress in other namespaces serve: " +
            `spec.rules[0].http.paths[0] (host "${host}", path "/cart", Prefix) would take the request (Host "${host}", path "/cart") ` +
            `that Ingress a/shop serves with its spec.rules[0].http.paths[0] (host "${host}", path "/", Prefix)\n`,
        );
      });
    });

    describe("serving through a gate in front of kube-apiserver", () => {
      let webhook: RunningWebhook;

      it("answers /readyz 503 (and /healthz 200) until the guard has listed, and refuses reviews meanwhile", async () => {
        gate = await startGate(plane, true);
        webhook = await serveAndRegister(["--kubeconfig", gate.kubeconfigPath], false);
        // The guard's first list is waiting in the gate.
        expect(await until(async () => gate?.waiting !== 0)).toBe(true);
        expect(await webhookGet(webhook, certs.caPem, "/healthz")).toEqual({ status: 200, body: "ok\n" });
        expect(await webhookGet(webhook, certs.caPem, "/readyz")).toEqual({
          status: 503,
          body: "the ingress-capture guard has not yet listed Ingresses\n",
        });

        const early = await create(plane, ingress("b", "early", "early.example.com"));
        console.info(`[${version}] before sync: HTTP ${early.status} ${JSON.stringify(early.body)}`);
        expect(early.status).toBe(503);
        expect(early.body.message).toBe(
          `admission webhook "${NAMESPACED_HOOK}" denied the request: ingress-capture: the webhook has not yet listed the cluster's Ingresses; try again shortly`,
        );
        const notReady = async () => reviewLines(webhook).some((l) => l.verdict === "guard_not_ready");
        if (!(await until(notReady, 5_000))) console.info(JSON.stringify(webhook.reviews));
        expect(await notReady()).toBe(true);
        const metrics = (await webhookGet(webhook, certs.caPem, "/metrics")).body;
        expect(
          metric(
            metrics,
            'clusterwire_admission_reviews_total{kind="Ingress",operation="CREATE",verdict="guard_not_ready"}',
          ),
        ).toBe(1);

        gate.release();
        expect(await until(async () => (await webhookGet(webhook, certs.caPem, "/readyz")).status === 200)).toBe(true);
        expect((await create(plane, ingress("b", "early", "early.example.com"))).status).toBe(201);

        // What the guard asked for, and what kube-apiserver sent: protobuf, for the list and the watch.
        expect(
          await until(
            async () => gate?.requests.some((r) => r.path.includes("watch=1") && r.status !== undefined) === true,
          ),
        ).toBe(true);
        const ingressCalls = gate.requests.filter((r) => r.path.startsWith("/apis/networking.k8s.io/v1/ingresses?"));
        const list = ingressCalls.find((r) => !r.path.includes("watch=1"));
        const watch = ingressCalls.find((r) => r.path.includes("watch=1"));
        expect(list).toMatchObject({ method: "GET", accept: PROTOBUF, status: 200, contentType: PROTOBUF });
        expect(watch).toMatchObject({
          method: "GET",
          accept: PROTOBUF_WATCH,
          status: 200,
          contentType: PROTOBUF_WATCH,
        });
        expect(list?.userAgent).toBe("clusterwire-webhook");
      });

      it("lists again after a 410 Expired (etcd compacted past its resourceVersion) and refuses what came in the gap", async () => {
        const g = gate;
        if (g === undefined) throw new Error("the gate did not start");
        const before = webhook.logs.length;
        // Drop the guard's watches and keep their reopening waiting in the gate.
        g.hold();
        const cutAt = Date.now();
        expect(g.cutWatches()).toBe(2); // Ingresses and IngressClasses
        const reopened = (kind: string) =>
          g.requests.find((r) => r.at >= cutAt && r.path.startsWith(`/apis/networking.k8s.io/v1/${kind}?watch=1`));
        expect(
          await until(async () => reopened("ingresses") !== undefined && reopened("ingressclasses") !== undefined),
        ).toBe(true);
        const resumed = reopened("ingresses");
        const resumeFrom = /resourceVersion=(\d+)/.exec(resumed?.path ?? "")?.[1];
        expect(resumed?.status).toBeUndefined(); // still waiting in the gate

        // Meanwhile, a's new Ingress, more writes, and a compaction of etcd past them all.
        const host = "gap.example.com";
        expect((await create(plane, ingress("a", "gap", host))).status).toBe(201);
        for (let i = 0; i < 3; i++) {
          const res = await apiRequest(plane, "POST", "/api/v1/namespaces/a/configmaps", {
            metadata: { name: `filler-${i}` },
          });
          expect(res.status).toBe(201);
        }
        const range = (await (
          await fetch(`${plane.etcdUrl}/v3/kv/range`, {
            method: "POST",
            body: JSON.stringify({ key: Buffer.from("/registry").toString("base64") }),
          })
        ).json()) as { header: { revision: string } };
        const revision = range.header.revision;
        expect(Number(revision)).toBeGreaterThan(Number(resumeFrom));
        const compaction = await fetch(`${plane.etcdUrl}/v3/kv/compaction`, {
          method: "POST",
          body: JSON.stringify({ revision, physical: true }),
        });
        expect(compaction.status).toBe(200);
        const compactedAt = Date.now();
        g.release();

        expect(
          await until(async () => (await create(plane, ingress("b", "gap-grab", host), true)).status === 403),
        ).toBe(true);
        const refusedAt = Date.now();
        // Its log lines come on stderr, which may trail the answer through kube-apiserver.
        await until(
          async () => webhook.logs.slice(before).some((l) => l.msg === "listed" && l["resource"] === "ingresses"),
          5_000,
        );
        const lines = webhook.logs.slice(before);
        // IngressClasses keep the watch cache: their watch, resumed from as old a resourceVersion,
        // is served from the cache's history, and does not expire (reported, not asserted).
        const classesWatch = reopened("ingressclasses");
        const isExpiry = (l: ReviewLog) => String(l.msg).startsWith("the watch's resourceVersion expired");
        const classesExpired = lines.some((l) => isExpiry(l) && l["resource"] === "ingressclasses");
        const expired = lines.filter(isExpiry);
        const relists = lines.filter((l) => l.msg === "listed");
        const sinceCompaction = (l: ReviewLog | undefined) =>
          l === undefined ? "-" : Date.parse(String(l["time"])) - compactedAt;
        console.info(
          `[${version}] resumed from ${resumeFrom}, compacted at ${revision}: ` +
            `${expired.length} expired (+${sinceCompaction(expired[0])} ms), ${relists.length} relists (+${sinceCompaction(relists[0])} ms), ` +
            `refusing again +${refusedAt - compactedAt} ms after the compaction; ` +
            `IngressClasses' resumed watch: HTTP ${classesWatch?.status}, ${classesExpired ? "expired" : "not expired"}\n` +
            lines
              .filter((l) => l["component"] === "ingress-watch")
              .map((l) => JSON.stringify(l))
              .join("\n"),
        );
        expect(
          expired.some(
            (l) =>
              l["resource"] === "ingresses" &&
              l.msg === "the watch's resourceVersion expired (ERROR event, code 410): listing again",
          ),
        ).toBe(true);
        expect(relists.some((l) => l["resource"] === "ingresses")).toBe(true);
        const answer = await create(plane, ingress("b", "gap-grab", host));
        expect(answer.status).toBe(403);
        expect(answer.body.message).toContain("that Ingress a/gap serves");
      });
    });
  });
}
