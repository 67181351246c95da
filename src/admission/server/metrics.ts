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

/** One label set's count not yet added to its prom-client counter. */
interface Pending<L> {
  readonly labels: L;
  n: number;
}

/**
 * The label sets of one metric, each with its count since the last scrape,
 * reached through a map per label: a review counts without making a labels
 * object or the string key prom-client makes of one. Hand-written for speed:
 * prom-client's inc() and observe() with labels were about 3% of the bytes the
 * server allocated per review (V8's sampling heap profiler, on this project's
 * 2-core machine). Bounded like prom-client's own series: one entry per label set seen.
 */
class PendingCounts<L> {
  readonly #tree = new Map<string, unknown>();
  readonly #all: Pending<L>[] = [];
  readonly #depth: 1 | 2 | 3;
  readonly #make: (a: string, b: string, c: string) => L;

  /** `depth`: how many labels the metric has. */
  constructor(depth: 1 | 2 | 3, make: (a: string, b: string, c: string) => L) {
    this.#depth = depth;
    this.#make = make;
  }

  /** The entry of the label values a, b, c (as many as the metric has labels). */
  at(a: string, b = "", c = ""): Pending<L> {
    let level = this.#tree;
    let key = a;
    if (this.#depth > 1) {
      level = below(level, a);
      key = b;
    }
    if (this.#depth > 2) {
      level = below(level, b);
      key = c;
    }
    let entry = level.get(key) as Pending<L> | undefined;
    if (entry === undefined) {
      entry = { labels: this.#make(a, b, c), n: 0 };
      level.set(key, entry);
      this.#all.push(entry);
    }
    return entry;
  }

  /** Hands each count since the last call to `add`, and starts them again from 0. */
  drain(add: (labels: L, n: number) => void): void {
    for (const entry of this.#all) {
      if (entry.n === 0) continue;
      add(entry.labels, entry.n);
      entry.n = 0;
    }
  }
}

/** The map under `key` in `level`, made when missing. */
function below(level: Map<string, unknown>, key: string): Map<string, unknown> {
  let next = level.get(key) as Map<string, unknown> | undefined;
  if (next === undefined) {
    next = new Map();
    level.set(key, next);
  }
  return next;
}

export function createWebhookMetrics(): WebhookMetrics {
  const own = new Registry();
  // Counted per review in plain numbers, added to the counters when they are read (a scrape).
  const reviewCounts = new PendingCounts(3, (kind, operation, verdict) => ({ kind, operation, verdict }));
  const warningCounts = new PendingCounts(2, (kind, operation) => ({ kind, operation }));
  const guardCounts = new PendingCounts(1, (guard) => ({ guard }));
  // The histogram's labels objects, made once per label set.
  const latencyLabels = new PendingCounts(2, (kind, operation) => ({ kind, operation }));
  let inFlightNow = 0;
  const reviews = new Counter({
    name: "clusterwire_admission_reviews_total",
    help: "AdmissionReviews answered, by kind, operation and verdict (allowed, denied, guarded, guard_not_ready, bad_request, ignored).",
    labelNames: ["kind", "operation", "verdict"] as const,
    registers: [own],
    collect() {
      reviewCounts.drain((labels, n) => reviews.inc(labels, n));
    },
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
    collect() {
      warningCounts.drain((labels, n) => warnings.inc(labels, n));
    },
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
    collect() {
      guardCounts.drain((labels, n) => guardDenials.inc(labels, n));
    },
  });
  const inFlight = new Gauge({
    name: "clusterwire_admission_in_flight",
    help: "AdmissionReviews being read or answered.",
    registers: [own],
    collect() {
      inFlight.set(inFlightNow);
    },
  });
  return {
    registry: Registry.merge([processMetrics(), own]),
    review(operation, outcome, seconds) {
      // Only kinds the webhook checks get their own label: a caller cannot grow the label set without bound.
      const kind = outcome.verdict === "ignored" ? "other" : outcome.kind;
      // "denied" is the API server's own 422; "guarded" a denial by a guard beyond it (e.g. strict mode).
      const verdict = outcome.verdict;
      reviewCounts.at(kind, operation, verdict).n++;
      if (outcome.warnings.length > 0) warningCounts.at(kind, operation).n += outcome.warnings.length;
      if (verdict === "guarded" && outcome.guard !== undefined) guardCounts.at(outcome.guard).n++;
      latency.observe(latencyLabels.at(kind, operation).labels, seconds);
    },
    refused(reason) {
      refused.inc({ reason });
    },
    setInFlight(n) {
      inFlightNow = n;
    },
  };
}
