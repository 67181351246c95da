import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REVIEW_VERDICTS, type AdmissionOutcome } from "../../../src/admission/admit.js";
import { createWebhookMetrics } from "../../../src/admission/server/metrics.js";

// prom-client is CommonJS and reads perf_hooks through require: spy on that same module object.
const perfHooks = createRequire(import.meta.url)("node:perf_hooks") as typeof import("node:perf_hooks");

afterEach(() => {
  vi.restoreAllMocks();
});

function outcome(kind: string, verdict: AdmissionOutcome["verdict"], allowed: boolean): AdmissionOutcome {
  return { response: { uid: "u", allowed }, errors: [], verdict, kind, warnings: [] };
}

/** The value of one series in the text exposition format. */
async function series(metrics: ReturnType<typeof createWebhookMetrics>, name: string): Promise<number | undefined> {
  const text = await metrics.registry.metrics();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe("createWebhookMetrics", () => {
  it("counts reviews by kind, operation and verdict, and observes their latency", async () => {
    const m = createWebhookMetrics();
    m.review("CREATE", outcome("Ingress", "allowed", true), 0.0003);
    m.review("CREATE", outcome("Ingress", "allowed", true), 0.002);
    m.review("UPDATE", outcome("Ingress", "denied", false), 0.002);
    m.review("CREATE", outcome("NetworkPolicy", "bad_request", false), 0.001);
    // Kinds the webhook does not check share one label, so a caller cannot grow the label set.
    m.review("CREATE", outcome("Pod", "ignored", true), 0.001);
    m.review("CREATE", outcome("Secret", "ignored", true), 0.001);
    const reviews = "clusterwire_admission_reviews_total";
    expect(await series(m, `${reviews}{kind="Ingress",operation="CREATE",verdict="allowed"}`)).toBe(2);
    expect(await series(m, `${reviews}{kind="Ingress",operation="UPDATE",verdict="denied"}`)).toBe(1);
    expect(await series(m, `${reviews}{kind="NetworkPolicy",operation="CREATE",verdict="bad_request"}`)).toBe(1);
    expect(await series(m, `${reviews}{kind="other",operation="CREATE",verdict="ignored"}`)).toBe(2);
    const latency = "clusterwire_admission_review_duration_seconds";
    expect(await series(m, `${latency}_count{kind="Ingress",operation="CREATE"}`)).toBe(2);
    expect(await series(m, `${latency}_bucket{le="0.0005",kind="Ingress",operation="CREATE"}`)).toBe(1);
    expect(await series(m, `${latency}_bucket{le="0.0025",kind="Ingress",operation="CREATE"}`)).toBe(2);
    expect(await series(m, `${latency}_sum{kind="Ingress",operation="CREATE"}`)).toBeCloseTo(0.0023, 9);
  });

  it("counts warnings, tells a guard's denial from the API server's 422, and a guard not yet ready from both", async () => {
    const m = createWebhookMetrics();
    const forbidden = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "m",
      reason: "Forbidden",
      code: 403,
    } as const;
    const unavailable = { ...forbidden, reason: "ServiceUnavailable", code: 503 } as const;
    const guarded = (
      status: typeof forbidden | typeof unavailable,
      guard: "strict" | "ingress-capture",
    ): AdmissionOutcome => ({
      response: { uid: "u", allowed: false, status },
      errors: [],
      // admit() tells a guard that is not ready (503) from a refusal.
      verdict: status.code === 503 ? "guard_not_ready" : "guarded",
      kind: "Ingress",
      warnings: guard === "strict" ? ["w1", "w2"] : [],
      guard,
    });
    m.review("CREATE", guarded(forbidden, "strict"), 0.001);
    m.review("CREATE", guarded(forbidden, "ingress-capture"), 0.001);
    m.review("CREATE", guarded(unavailable, "ingress-capture"), 0.001);
    m.review("CREATE", outcome("Ingress", "denied", false), 0.001);
    const reviews = "clusterwire_admission_reviews_total";
    expect(await series(m, `${reviews}{kind="Ingress",operation="CREATE",verdict="guarded"}`)).toBe(2);
    expect(await series(m, `${reviews}{kind="Ingress",operation="CREATE",verdict="guard_not_ready"}`)).toBe(1);
    expect(await series(m, `${reviews}{kind="Ingress",operation="CREATE",verdict="denied"}`)).toBe(1);
    expect(await series(m, 'clusterwire_admission_guard_denials_total{guard="strict"}')).toBe(1);
    expect(await series(m, 'clusterwire_admission_guard_denials_total{guard="ingress-capture"}')).toBe(1);
    expect(await series(m, 'clusterwire_admission_warnings_total{kind="Ingress",operation="CREATE"}')).toBe(2);
  });

  it("labels each review with the outcome's own verdict, one of REVIEW_VERDICTS", async () => {
    const m = createWebhookMetrics();
    for (const verdict of REVIEW_VERDICTS)
      m.review("CREATE", outcome("Ingress", verdict, verdict === "allowed"), 0.001);
    const text = await m.registry.metrics();
    const labelled = [...text.matchAll(/^clusterwire_admission_reviews_total\{[^}]*verdict="([a-z_]+)"\} 1$/gm)].map(
      (x) => x[1],
    );
    expect(labelled.sort()).toEqual([...REVIEW_VERDICTS].sort());
  });

  it("counts refusals by reason and holds the in-flight gauge", async () => {
    const m = createWebhookMetrics();
    m.refused("overloaded");
    m.refused("overloaded");
    m.refused("too_large");
    m.setInFlight(7);
    expect(await series(m, 'clusterwire_admission_refused_total{reason="overloaded"}')).toBe(2);
    expect(await series(m, 'clusterwire_admission_refused_total{reason="too_large"}')).toBe(1);
    expect(await series(m, "clusterwire_admission_in_flight")).toBe(7);
  });

  it("adds the reviews counted between two scrapes to the totals of the first", async () => {
    const m = createWebhookMetrics();
    const reviews = 'clusterwire_admission_reviews_total{kind="Ingress",operation="CREATE",verdict="guarded"}';
    const warned = 'clusterwire_admission_warnings_total{kind="Ingress",operation="CREATE"}';
    const guard = 'clusterwire_admission_guard_denials_total{guard="strict"}';
    const strict: AdmissionOutcome = { ...outcome("Ingress", "guarded", false), warnings: ["w"], guard: "strict" };
    m.review("CREATE", strict, 0.001);
    m.setInFlight(3);
    expect([await series(m, reviews), await series(m, warned), await series(m, guard)]).toEqual([1, 1, 1]);
    expect(await series(m, "clusterwire_admission_in_flight")).toBe(3);
    m.review("CREATE", strict, 0.001);
    m.review("CREATE", strict, 0.001);
    m.setInFlight(0);
    // A scrape with nothing new in between changes nothing.
    await m.registry.metrics();
    expect([await series(m, reviews), await series(m, warned), await series(m, guard)]).toEqual([3, 3, 3]);
    expect(await series(m, "clusterwire_admission_in_flight")).toBe(0);
    const latency = 'clusterwire_admission_review_duration_seconds_count{kind="Ingress",operation="CREATE"}';
    expect(await series(m, latency)).toBe(3);
  });

  it("keeps each server's counts apart", async () => {
    const a = createWebhookMetrics();
    const b = createWebhookMetrics();
    a.refused("malformed_json");
    expect(await series(a, 'clusterwire_admission_refused_total{reason="malformed_json"}')).toBe(1);
    expect(await series(b, 'clusterwire_admission_refused_total{reason="malformed_json"}')).toBeUndefined();
  });

  it("serves the process's default metrics, started once per process however many servers there are", async () => {
    const monitors = vi.spyOn(perfHooks, "monitorEventLoopDelay");
    const observers = vi.spyOn(perfHooks.PerformanceObserver.prototype, "observe");
    const all = Array.from({ length: 5 }, () => createWebhookMetrics());
    for (const m of all) {
      expect(await series(m, "process_resident_memory_bytes")).toBeGreaterThan(0);
      expect(await series(m, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    }
    // This file's first tests already started them; five more servers start none.
    expect(monitors).not.toHaveBeenCalled();
    expect(observers).not.toHaveBeenCalled();
  });
});
