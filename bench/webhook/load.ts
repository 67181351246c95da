// Driving the webhook: closed-loop runs with autocannon (N keep-alive
// connections, each sending the next review as soon as the last is answered),
// and a fixed-rate run (open loop) at a given number of reviews per second.
// Every answer is compared with the one admit() gives in-process.

import * as https from "node:https";
import autocannon from "autocannon";
import { Pool } from "undici";
import { quantile } from "../stats.js";
import type { MixReview } from "./mix.js";

export interface RunResult {
  readonly title: string;
  readonly connections: number;
  /** Target rate (reviews/s) of a fixed-rate run; undefined for closed-loop runs. */
  readonly rate: number | undefined;
  readonly seconds: number;
  /** Answers with status 2xx. */
  readonly ok: number;
  readonly reviewsPerSecond: number;
  /** Latency of the 2xx answers in ms, from exact per-response times. */
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly non2xx: number;
  /** 2xx answers whose body is not the AdmissionReview admit() gives in-process. */
  readonly mismatches: number;
  /** What the tool itself reported, for the record (autocannon's histogram has 1 ms steps). */
  readonly note: string;
  /** Answers to a warm-up inside the run, not counted above (the server's CPU time covers them too). */
  readonly warmupAnswered?: number;
}

const HEADERS = { "content-type": "application/json" };

function latencies(times: number[]): { p50: number; p99: number; p999: number; max: number } {
  if (times.length === 0) return { p50: Number.NaN, p99: Number.NaN, p999: Number.NaN, max: Number.NaN };
  times.sort((a, b) => a - b);
  return {
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    p999: quantile(times, 0.999),
    max: times.at(-1) ?? Number.NaN,
  };
}

/** A closed-loop run: `connections` keep-alive HTTP/1.1 connections, for a number of seconds or of reviews. */
export async function runClosedLoop(
  url: string,
  mix: readonly MixReview[],
  connections: number,
  budget: number | { readonly reviews: number },
  title = `${connections} connection${connections === 1 ? "" : "s"}`,
): Promise<RunResult> {
  let mismatches = 0;
  const times: number[] = [];
  const requests = mix.map((r) => ({
    method: "POST" as const,
    path: "/validate",
    headers: HEADERS,
    body: r.body,
    onResponse: (status: number, body: string) => {
      if (status === 200 && body !== r.expected) mismatches++;
    },
  }));
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        ...(typeof budget === "number" ? { duration: budget } : { amount: budget.reviews }),
        pipelining: 1,
        timeout: 10,
        requests,
      },
      (e, r) => (e ? reject(e instanceof Error ? e : new Error(String(e))) : resolve(r)),
    );
    instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
  });
  const lat = latencies(times);
  return {
    title,
    connections,
    rate: undefined,
    seconds: result.duration,
    ok: result["2xx"],
    reviewsPerSecond: result["2xx"] / result.duration,
    ...lat,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    mismatches,
    note: `autocannon: ${result.requests.total} requests, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  };
}

/**
 * A fixed-rate run (open loop): reviews are scheduled evenly at `rate` per
 * second over a pool of keep-alive connections (undici, at most `sockets`,
 * opened and warmed before the clock starts), whether or not earlier ones are
 * answered; latency counts from the scheduled time, so a stall shows in it
 * (no coordinated omission). Paced here rather than by autocannon because
 * autocannon's rate limit sends each connection's quota for the second in a
 * burst at the start of it, which measures a burst, not a steady rate. How
 * late the generator itself sent (its own event loop's lag) is reported too.
 */
export async function runFixedRate(
  url: string,
  ca: string,
  mix: readonly MixReview[],
  rate: number,
  seconds: number,
  sockets = 16,
  warmupSeconds = 2,
): Promise<RunResult> {
  const pool = new Pool(new URL(url).origin, { connections: sockets, pipelining: 1, connect: { ca } });
  try {
    const post = async (review: MixReview): Promise<{ status: number; body: string }> => {
      const res = await pool.request({
        method: "POST",
        path: "/validate",
        headers: HEADERS,
        body: review.body,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      return { status: res.statusCode, body: await res.body.text() };
    };
    // Open every connection (TLS handshakes) before measuring.
    await Promise.all(Array.from({ length: sockets }, (_, i) => post(mix[i % mix.length]!)));
    // One paced run of `secs` seconds; its figures.
    const pace = async (secs: number) => {
      const times: number[] = [];
      const fromSent: number[] = [];
      const late: number[] = [];
      let ok = 0;
      let errors = 0;
      let non2xx = 0;
      let mismatches = 0;
      const total = Math.round(rate * secs);
      const pending: Promise<void>[] = [];
      const start = performance.now();
      let sent = 0;
      await new Promise<void>((resolve) => {
        // Every millisecond (or as soon as the loop lets the timer run), send what is due by now.
        const timer = setInterval(() => {
          const now = performance.now();
          const due = Math.min(total, Math.floor(((now - start) / 1000) * rate));
          for (; sent < due; sent++) {
            const scheduled = start + (sent / rate) * 1000;
            late.push(now - scheduled);
            const review = mix[sent % mix.length]!;
            const sentAt = performance.now();
            pending.push(
              post(review).then(
                ({ status, body }) => {
                  if (status >= 200 && status < 300) {
                    ok++;
                    const now = performance.now();
                    times.push(now - scheduled);
                    fromSent.push(now - sentAt);
                    if (body !== review.expected) mismatches++;
                  } else non2xx++;
                },
                () => {
                  errors++;
                },
              ),
            );
          }
          if (sent === total) {
            clearInterval(timer);
            resolve();
          }
        }, 1);
      });
      await Promise.all(pending);
      const elapsed = (performance.now() - start) / 1000;
      return { times, fromSent, late, ok, errors, non2xx, mismatches, elapsed };
    };
    // A paced warm-up first, discarded: a cold generator (undici's and this loop's code not yet compiled)
    // falls behind at the start and its backlog takes seconds to drain, which would be counted as latency.
    const warm = warmupSeconds > 0 ? await pace(warmupSeconds) : undefined;
    const { times, fromSent, late, ok, errors, non2xx, mismatches, elapsed } = await pace(seconds);
    const lag = latencies(late);
    const sentLatency = latencies(fromSent);
    return {
      title: `fixed rate ${rate}/s`,
      connections: sockets,
      rate,
      seconds: elapsed,
      ok,
      reviewsPerSecond: ok / elapsed,
      ...latencies(times),
      errors,
      non2xx,
      mismatches,
      warmupAnswered: warm === undefined ? 0 : warm.ok + warm.non2xx,
      note:
        `open loop, undici pool of ${sockets} keep-alive connections; latency from the scheduled send time; ` +
        `the generator sent late by p50 ${lag.p50.toFixed(2)} ms, p99 ${lag.p99.toFixed(2)} ms, max ${lag.max.toFixed(2)} ms (its own lag, included in the latency); ` +
        `latency from the actual send: p50 ${sentLatency.p50.toFixed(2)} ms, p99 ${sentLatency.p99.toFixed(2)} ms, max ${sentLatency.max.toFixed(2)} ms`,
    };
  } finally {
    await pool.close();
  }
}

/** Sends every review of the mix once and compares each whole answer with admit()'s; returns the differences. */
export async function checkAnswers(url: string, ca: string, mix: readonly MixReview[]): Promise<string[]> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 4, ca });
  const target = new URL("/validate", url);
  const wrong: string[] = [];
  try {
    for (const review of mix) {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = https.request(target, { method: "POST", agent, headers: HEADERS }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        });
        req.on("error", reject);
        req.end(review.body);
      });
      if (status !== 200) wrong.push(`${review.uid}: HTTP ${status}`);
      else if (body !== review.expected) {
        const answer = JSON.parse(body) as { response?: { uid?: unknown; allowed?: unknown } };
        wrong.push(
          `${review.uid}: answered uid ${String(answer.response?.uid)} allowed ${String(answer.response?.allowed)}, ` +
            `admit() says allowed ${review.allowed}${body.length !== review.expected.length ? " (bodies differ)" : ""}`,
        );
      }
    }
  } finally {
    agent.destroy();
  }
  return wrong;
}
