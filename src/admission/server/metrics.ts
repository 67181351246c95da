// The webhook's Prometheus metrics, on a registry of its own (never prom-client's global one),
// merged at each scrape with the process's default metrics.

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { AdmissionOutcome } from "../admit.js";

/** Why a request got no review: the reasons a `refused` count is kept under. */
export type RefusalReason = "too_large" | "unreadable_body" | "malformed_json" | "not_admission_review" | "overloaded";

// Review latency buckets, in seconds: the goal is a p99 of 5 ms, so the low end is fine-grained.
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export interface WebhookMetrics {
  readonly registry: Registry;
  /** Counts one answered review and its latency (from the first byte of its body being awaited). */
  review(operation: string, outcome: AdmissionOutcome, seconds: number): void;
  refused(reason: RefusalReason): void;
  setInFlight(n: number): void;
}

let processRegistry: Registry | undefined;

/**
 * prom-client's default metrics (CPU, RSS, heap, event-loop lag, GC), which
 * describe the process rather than a server: registered once per process, on
 * first use, and shared by every server. collectDefaultMetrics starts an
 * event-loop-delay monitor and a GC observer that prom-client gives no way to
 * stop, so calling it per server left one more of each running after every
 * close(). Both are unref'd: they never keep the process alive.
 */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createWebhookMetrics(): WebhookMetrics {
  const own = new Registry();
  const reviews = new Counter({
    name: "clusterwire_admission_reviews_total",
    help: "AdmissionReviews answered, by kind, operation and verdict (allowed, denied, guarded, guard_not_ready, bad_request, ignored).",
    labelNames: ["kind", "operation", "verdict"] as const,
    registers: [own],
  });
  const latency = new Histogram({
    name: "clusterwire_admission_review_duration_seconds",
    help: "Time from reading an AdmissionReview's body to writing its answer, by kind and operation.",
    labelNames: ["kind", "operation"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [own],
  });
  const warnings = new Counter({
    name: "clusterwire_admission_warnings_total",
    help: "Warnings the API server would send with the reviewed objects (sent in response.warnings, or refused by strict mode), by kind and operation.",
    labelNames: ["kind", "operation"] as const,
    registers: [own],
  });
  const refused = new Counter({
    name: "clusterwire_admission_refused_total",
    help: "Requests to /validate answered without a review (HTTP 400, 413 or 429), by reason.",
    labelNames: ["reason"] as const,
    registers: [own],
  });
  const guardDenials = new Counter({
    name: "clusterwire_admission_guard_denials_total",
    help: "Valid objects denied by a guard (verdict guarded), by guard.",
    labelNames: ["guard"] as const,
    registers: [own],
  });
  const inFlight = new Gauge({
    name: "clusterwire_admission_in_flight",
    help: "AdmissionReviews being read or answered.",
    registers: [own],
  });
  return {
    registry: Registry.merge([processMetrics(), own]),
    review(operation, outcome, seconds) {
      // Only kinds the webhook checks get their own label: a caller cannot grow the label set without bound.
      const kind = outcome.verdict === "ignored" ? "other" : outcome.kind;
      // "denied" is the API server's own 422; "guarded" a denial by a guard beyond it (e.g. strict mode).
      const verdict = outcome.verdict;
      reviews.inc({ kind, operation, verdict });
      if (outcome.warnings.length > 0) warnings.inc({ kind, operation }, outcome.warnings.length);
      if (verdict === "guarded" && outcome.guard !== undefined) guardDenials.inc({ guard: outcome.guard });
      latency.observe({ kind, operation }, seconds);
    },
    refused(reason) {
      refused.inc({ reason });
    },
    setInFlight(n) {
      inFlight.set(n);
    },
  };
}
