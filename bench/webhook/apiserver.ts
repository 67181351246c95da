// `npm run bench:webhook-apiserver`: what the webhook costs the cluster. A real kube-apiserver
// (scripts/controlplane.mjs, loaded at run time) takes the same fixed set of dry-run creates of
// valid Ingresses and NetworkPolicies (arbValidJson, seeded) in alternating rounds without and
// with deploy/'s configuration registered against `clusterwire webhook serve`, so drift in a
// shared machine's speed falls on both alike. It prints creates/s and client latency for each,
// the difference, the API server's own apiserver_admission_webhook_admission_duration_seconds
// for the namespaced webhook (diffed over the "with" rounds) and the webhook's own review
// latency. The anchors: Kyverno and Gatekeeper publish 5-30 ms per call; the goal here is a p99
// under 2 ms added. Reported, never enforced.

import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import fc from "fast-check";
import { controlPlane } from "../../conformance/campaign/controlplane.js";
import { arbValidJson } from "../../src/testing/index.js";
import type { JsonObject } from "../../src/networking/index.js";
import { repoRoot } from "../fixtures.js";
import { median, quantile } from "../stats.js";
import { fix, int, table } from "../text.js";
import { makeCerts, type WebhookCertFiles, webhookConfiguration } from "../../test/support/apiserver/configuration.js";
import { metricsText } from "./scrape.js";
import { startServerProcess, type ServerProcess } from "./server-process.js";

const USAGE = `usage: node dist/bench/webhook/apiserver.js [options]
  --version V        the control plane's release (default v1.35.4); webhook serve follows it
  --count N          dry-run creates per round (default 2000)
  --concurrency C    requests in flight (default 8)
  --rounds R         rounds without and with the webhook, alternating (default 3 each)
  --seed S           the seed of the objects (default 20261128)
  --json             print the results as JSON instead of tables`;

const HOOK = "namespaced.networking.webhook.clusterwire.io";
const NS = "bench";
const GOAL_ADDED_P99_MS = 2;

type ControlPlane = Awaited<ReturnType<Awaited<ReturnType<typeof controlPlane>>["startControlPlane"]>>;
type ApiRequest = Awaited<ReturnType<typeof controlPlane>>["apiRequest"];

interface Round {
  readonly mode: "without" | "with";
  readonly seconds: number;
  readonly latenciesMs: number[];
}

/** Histogram series of `text` (Prometheus text format) whose labels pass `keep`, summed per `le`. */
function histogram(
  text: string,
  name: string,
  keep: (labels: string) => boolean,
): { buckets: Map<number, number>; sum: number; count: number } {
  const buckets = new Map<number, number>();
  let sum = 0;
  let count = 0;
  for (const line of text.split("\n")) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null || !m[1]!.startsWith(name) || !keep(m[2] ?? "")) continue;
    const value = Number(m[3]);
    if (m[1] === `${name}_bucket`) {
      const le = /le="([^"]+)"/.exec(m[2] ?? "")?.[1];
      if (le === undefined) continue;
      const bound = le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le);
      buckets.set(bound, (buckets.get(bound) ?? 0) + value);
    } else if (m[1] === `${name}_sum`) sum += value;
    else if (m[1] === `${name}_count`) count += value;
  }
  return { buckets, sum, count };
}

type Histogram = ReturnType<typeof histogram>;

function diff(after: Histogram, before: Histogram): Histogram {
  const buckets = new Map<number, number>();
  for (const [le, n] of after.buckets) buckets.set(le, n - (before.buckets.get(le) ?? 0));
  return { buckets, sum: after.sum - before.sum, count: after.count - before.count };
}

function add(a: Histogram, b: Histogram): Histogram {
  const buckets = new Map(a.buckets);
  for (const [le, n] of b.buckets) buckets.set(le, (buckets.get(le) ?? 0) + n);
  return { buckets, sum: a.sum + b.sum, count: a.count + b.count };
}

const EMPTY: Histogram = { buckets: new Map(), sum: 0, count: 0 };

/** The quantile `q` of a cumulative histogram, interpolated linearly inside its bucket (histogram_quantile's way). */
function bucketQuantile(h: Histogram, q: number): number {
  const bounds = [...h.buckets.keys()].sort((a, b) => a - b);
  const total = h.buckets.get(Number.POSITIVE_INFINITY) ?? h.count;
  if (total === 0) return Number.NaN;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const bound of bounds) {
    const cumulative = h.buckets.get(bound) ?? 0;
    if (cumulative >= rank) {
      if (bound === Number.POSITIVE_INFINITY) return lower;
      const inBucket = cumulative - below;
      return inBucket === 0 ? bound : lower + ((bound - lower) * (rank - below)) / inBucket;
    }
    lower = bound;
    below = cumulative;
  }
  return lower;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      version: { type: "string", default: "v1.35.4" },
      count: { type: "string", default: "2000" },
      concurrency: { type: "string", default: "8" },
      rounds: { type: "string", default: "3" },
      seed: { type: "string", default: "20261128" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const count = Number(values.count);
  const concurrency = Number(values.concurrency);
  const rounds = Number(values.rounds);
  const seed = Number(values.seed);
  for (const [flag, n] of [
    ["--count", count],
    ["--concurrency", concurrency],
    ["--rounds", rounds],
  ] as const) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a whole number from 1, got ${n}\n${USAGE}`);
  }
  const version = values.version;
  const minor = /^v?(\d+\.\d+)/.exec(version)?.[1];
  if (minor !== "1.35" && minor !== "1.37") throw new Error(`--version: v1.35.x or v1.37.x, got ${version}`);

  const root = repoRoot();
  const cp = await controlPlane();
  if (!cp.isBuilt(version, root)) {
    throw new Error(`no control plane for ${version} in .cache/controlplane/: build it with npm run apiserver first`);
  }
  const cli = join(root, "dist", "src", "cli", "main.js");
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-bench-apiserver-"));
  const log = (line: string) => {
    if (!values.json) console.error(line);
  };
  let plane: ControlPlane | undefined;
  let server: ServerProcess | undefined;
  let certs: WebhookCertFiles | undefined;
  try {
    certs = await makeCerts(root);
    const caPem = certs.caPem;
    log(`starting kube-apiserver ${version} and webhook serve ...`);
    [plane, server] = await Promise.all([
      cp.startControlPlane({ version, root }),
      startServerProcess({
        cli,
        certFile: certs.cert,
        keyFile: certs.key,
        logFile: join(dir, "webhook.log"),
        extraArgs: ["--kubernetes-version", version],
      }),
    ]);
    const api: ApiRequest = cp.apiRequest;
    const p = plane;
    const webhookUrl = server.url;
    const ns = await api(p, "POST", "/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: NS },
    });
    if (ns.status !== 201) throw new Error(`namespace: ${ns.status} ${ns.body}`);

    // The fixed set of objects: valid Ingresses and NetworkPolicies, all under the namespaced webhook.
    const objects = fc
      .sample(
        fc.oneof(
          arbValidJson("Ingress", { version: minor }).map((j) => ({ plural: "ingresses", j })),
          arbValidJson("NetworkPolicy", { version: minor }).map((j) => ({ plural: "networkpolicies", j })),
        ),
        { numRuns: count, seed },
      )
      .map(({ plural, j }) => {
        const body = structuredClone(j);
        delete (body["metadata"] as JsonObject)["namespace"];
        return { path: `/apis/networking.k8s.io/v1/namespaces/${NS}/${plural}?dryRun=All`, body: JSON.stringify(body) };
      });

    const send = async (mode: Round["mode"], n = objects.length): Promise<Round> => {
      const latenciesMs: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let i = next++; i < n; i = next++) {
            const o = objects[i % objects.length]!;
            const t = performance.now();
            const res = await api(p, "POST", o.path, o.body);
            latenciesMs.push(performance.now() - t);
            if (res.status !== 201) throw new Error(`object #${i} (${mode}): ${res.status} ${res.body.slice(0, 500)}`);
          }
        }),
      );
      return { mode, seconds: (performance.now() - started) / 1000, latenciesMs };
    };

    const webhookReviews = async (): Promise<number> =>
      histogram(await metricsText(webhookUrl, caPem), "clusterwire_admission_review_duration_seconds", () => true)
        .count;
    const CONFIGS = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
    const probe = objects[0]!;
    /** Registers or removes the configuration, then waits until the API server acts on it. */
    const setWebhook = async (on: boolean): Promise<void> => {
      if (on) {
        const res = await api(
          p,
          "POST",
          CONFIGS,
          webhookConfiguration(webhookUrl, caPem, {}, root) as unknown as JsonObject,
        );
        if (res.status !== 201 && res.status !== 409) throw new Error(`register: ${res.status} ${res.body}`);
      } else {
        const res = await api(p, "DELETE", `${CONFIGS}/clusterwire`);
        if (res.status !== 200 && res.status !== 404) throw new Error(`unregister: ${res.status} ${res.body}`);
      }
      const deadline = Date.now() + 30_000;
      let quiet = 0;
      while (Date.now() < deadline) {
        const before = await webhookReviews();
        await api(p, "POST", probe.path, probe.body);
        const called = (await webhookReviews()) > before;
        if (on && called) return;
        // Off: several probes in a row that do not reach it.
        if (!on && !called && ++quiet >= 5) return;
        if (called) quiet = 0;
        await sleep(100);
      }
      throw new Error(`the API server did not ${on ? "start" : "stop"} calling the webhook within 30 s`);
    };

    const apiserverHistogram = async (): Promise<Histogram> => {
      const res = await api(p, "GET", "/metrics", undefined, { Accept: "text/plain" });
      if (res.status !== 200) throw new Error(`GET /metrics: ${res.status}`);
      return histogram(
        res.body,
        "apiserver_admission_webhook_admission_duration_seconds",
        (l) => l.includes(`name="${HOOK}"`) && l.includes('type="validating"'),
      );
    };
    const ownHistogram = async (): Promise<Histogram> =>
      histogram(await metricsText(webhookUrl, caPem), "clusterwire_admission_review_duration_seconds", () => true);

    // Warm both paths (connections, JIT) before measuring.
    log(`warming up (${Math.min(count, 500)} creates each way) ...`);
    await setWebhook(true);
    await send("with", Math.min(count, 500));
    await setWebhook(false);
    await send("without", Math.min(count, 500));

    const results: Round[] = [];
    let seenByApiserver = EMPTY;
    let seenByWebhook = EMPTY;
    let webhookCpuSeconds = 0;
    for (let r = 0; r < rounds; r++) {
      // Alternate which goes first, so neither always follows the other.
      for (const mode of r % 2 === 0 ? (["without", "with"] as const) : (["with", "without"] as const)) {
        await setWebhook(mode === "with");
        const before = mode === "with" ? await Promise.all([apiserverHistogram(), ownHistogram()]) : undefined;
        const cpuBefore = server.cpuSeconds();
        const reviewsBefore = await webhookReviews();
        const round = await send(mode);
        if (mode === "with") webhookCpuSeconds += server.cpuSeconds() - cpuBefore;
        // Each "with" create reviewed once, no "without" one at all: otherwise the rounds measure something else.
        const reviewed = (await webhookReviews()) - reviewsBefore;
        if (reviewed !== (mode === "with" ? count : 0)) {
          throw new Error(`round ${r + 1} ${mode}: the webhook reviewed ${reviewed} of ${count} creates`);
        }
        if (before !== undefined) {
          const [a, w] = await Promise.all([apiserverHistogram(), ownHistogram()]);
          seenByApiserver = add(seenByApiserver, diff(a, before[0]));
          seenByWebhook = add(seenByWebhook, diff(w, before[1]));
        }
        results.push(round);
        log(
          `round ${r + 1} ${mode.padEnd(7)}: ${int.format(count / round.seconds)} creates/s, ` +
            `p50 ${fix(quantile(round.latenciesMs, 0.5), 2)} ms, p99 ${fix(quantile(round.latenciesMs, 0.99), 2)} ms`,
        );
      }
    }
    await setWebhook(false);

    const summary = (mode: Round["mode"]) => {
      const rs = results.filter((r) => r.mode === mode);
      const all = rs.flatMap((r) => r.latenciesMs);
      return {
        createsPerSecond: median(rs.map((r) => count / r.seconds)),
        p50Ms: quantile(all, 0.5),
        p99Ms: quantile(all, 0.99),
        meanMs: all.reduce((a, b) => a + b, 0) / all.length,
      };
    };
    const without = summary("without");
    const withHook = summary("with");
    const histogramSummary = (h: Histogram) => ({
      count: h.count,
      meanMs: (h.sum / h.count) * 1000,
      p50Ms: bucketQuantile(h, 0.5) * 1000,
      p99Ms: bucketQuantile(h, 0.99) * 1000,
      bucketsMs: [...h.buckets.keys()].filter(Number.isFinite).map((b) => b * 1000),
    });
    const apiserverView = histogramSummary(seenByApiserver);
    const webhookView = histogramSummary(seenByWebhook);
    const addedP99 = withHook.p99Ms - without.p99Ms;
    const out = {
      version,
      count,
      concurrency,
      rounds,
      seed,
      machine: { cpus: cpus().length, loadavg: loadavg().map((l) => Number(l.toFixed(2))) },
      without,
      with: withHook,
      addedMs: { p50: withHook.p50Ms - without.p50Ms, p99: addedP99, mean: withHook.meanMs - without.meanMs },
      apiserverWebhookDuration: apiserverView,
      webhookReviewDuration: webhookView,
      webhookCpuMsPerReview: (webhookCpuSeconds * 1000) / webhookView.count,
      goal: { addedP99Ms: GOAL_ADDED_P99_MS, met: addedP99 < GOAL_ADDED_P99_MS },
    };
    if (values.json) {
      console.log(JSON.stringify(out, null, 2));
      return;
    }
    const ms = (n: number) => fix(n, 2);
    console.log(
      `\nkube-apiserver ${version}, ${int.format(count)} dry-run creates x ${rounds} rounds each way, ` +
        `concurrency ${concurrency}, seed ${seed}; ${cpus().length} CPUs, load ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")}\n`,
    );
    console.log(
      table(
        ["", "creates/s", "p50 ms", "p99 ms", "mean ms"],
        [
          [
            "without webhook",
            int.format(without.createsPerSecond),
            ms(without.p50Ms),
            ms(without.p99Ms),
            ms(without.meanMs),
          ],
          [
            "with webhook",
            int.format(withHook.createsPerSecond),
            ms(withHook.p50Ms),
            ms(withHook.p99Ms),
            ms(withHook.meanMs),
          ],
          [
            "difference",
            `${fix((withHook.createsPerSecond / without.createsPerSecond - 1) * 100, 1)}%`,
            ms(out.addedMs.p50),
            ms(out.addedMs.p99),
            ms(out.addedMs.mean),
          ],
        ],
        [false, true, true, true, true],
      ),
    );
    console.log(
      `\nthe API server's apiserver_admission_webhook_admission_duration_seconds{name="${HOOK}",type="validating"} ` +
        `over the "with" rounds (buckets ${apiserverView.bucketsMs.join(", ")} ms, interpolated):`,
    );
    console.log(
      `  count ${int.format(apiserverView.count)}, mean ${ms(apiserverView.meanMs)} ms, p50 ${ms(apiserverView.p50Ms)} ms, p99 ${ms(apiserverView.p99Ms)} ms`,
    );
    console.log("the webhook's own clusterwire_admission_review_duration_seconds (body read to answer written):");
    console.log(
      `  count ${int.format(webhookView.count)}, mean ${ms(webhookView.meanMs)} ms, p50 ${ms(webhookView.p50Ms)} ms, p99 ${ms(webhookView.p99Ms)} ms`,
    );
    console.log(`the webhook process's CPU time (user + system) per review: ${fix(out.webhookCpuMsPerReview, 3)} ms`);
    console.log(
      `\nanchors: Kyverno and Gatekeeper publish 5-30 ms per admission call. goal: p99 added under ${GOAL_ADDED_P99_MS} ms: ` +
        `${ms(addedP99)} ms, ${out.goal.met ? "met" : "NOT met"} (reported, not enforced; a shared machine adds noise)`,
    );
  } finally {
    await server?.stop();
    await plane?.stop();
    certs?.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
});
