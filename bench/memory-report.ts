// What `npm run bench:memory` reports, and the pure arithmetic behind its
// verdicts (tested in test/bench/memory-report.test.ts): retained heap per
// decoded object, and whether a watch stream's heap grows with its events.

import { fix, int, ratioText, table } from "./text.js";

/** Retained heap per decoded object, for one input set and one decoder. */
export interface RetainedRow {
  /** "Ingress (HEAD)" or "corpus Ingress". */
  readonly input: string;
  /** Distinct objects cycled through. */
  readonly objects: number;
  /** Copies decoded and kept alive. */
  readonly copies: number;
  readonly impl: string;
  readonly bytesPerObject: number;
}

/** heapUsed after a full GC, after `events` events. */
export interface HeapSample {
  readonly events: number;
  readonly heapUsed: number;
}

export interface Growth {
  /** Least-squares slope of heapUsed over events, in bytes per event. */
  readonly bytesPerEvent: number;
  /** The slope times the span of events sampled: what the stream added, the noise smoothed out. */
  readonly fittedGrowth: number;
  /** Last sample minus first sample. */
  readonly rawGrowth: number;
  readonly grows: boolean;
}

export interface WatchRow {
  readonly stream: string;
  readonly events: number;
  readonly samples: readonly HeapSample[];
  readonly growth: Growth;
  readonly eventsPerSec: number;
}

export interface MemoryReport {
  readonly node: string;
  readonly retained: readonly RetainedRow[];
  readonly watch: readonly WatchRow[];
  /** The bytes of fitted growth over a stream above which it counts as growing. */
  readonly growthLimitBytes: number;
  readonly ok: boolean;
}

/**
 * Fits heapUsed against events by least squares. A stream "grows" when the
 * fitted line rises by more than `limitBytes` over the events sampled: a
 * leak of a few bytes per event rises steadily, while GC noise does not.
 */
export function growthOf(samples: readonly HeapSample[], limitBytes: number): Growth {
  if (samples.length < 2) throw new Error("growth needs at least two samples");
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + p.events, 0) / n;
  const my = samples.reduce((s, p) => s + p.heapUsed, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of samples) {
    sxy += (p.events - mx) * (p.heapUsed - my);
    sxx += (p.events - mx) ** 2;
  }
  if (sxx === 0) throw new Error("growth needs samples at different event counts");
  const slope = sxy / sxx;
  const span = samples[n - 1]!.events - samples[0]!.events;
  const fittedGrowth = slope * span;
  return {
    bytesPerEvent: slope,
    fittedGrowth,
    rawGrowth: samples[n - 1]!.heapUsed - samples[0]!.heapUsed,
    grows: fittedGrowth > limitBytes,
  };
}

const kib = (bytes: number): string => `${fix(bytes / 1024, 1)} KiB`;

export function memoryText(report: MemoryReport): string[] {
  const out: string[] = [
    "Memory (npm run bench:memory; node --expose-gc): retained heap per decoded object",
    "N copies decoded into an array kept alive, heapUsed after a full GC minus before, divided by N.",
  ];
  const inputs = [...new Set(report.retained.map((r) => r.input))];
  const impls = [...new Set(report.retained.map((r) => r.impl))];
  const rows = inputs.map((input) => {
    const of = (impl: string) => report.retained.find((r) => r.input === input && r.impl === impl);
    const cw = of("clusterwire");
    const cells = impls.map((impl) => {
      const r = of(impl);
      return r === undefined ? "-" : int.format(r.bytesPerObject);
    });
    const ratios = impls
      .filter((impl) => impl !== "clusterwire")
      .map((impl) => {
        const r = of(impl);
        return cw === undefined || r === undefined ? "-" : `${ratioText(cw.bytesPerObject / r.bytesPerObject)} ${impl}`;
      });
    const first = report.retained.find((r) => r.input === input);
    return [input, String(first?.objects ?? 0), int.format(first?.copies ?? 0), ...cells, ratios.join(", ")];
  });
  out.push(
    table(["input", "objects", "copies", ...impls.map((i) => `${i} B/object`), "clusterwire size / peer"], rows, [
      false,
      true,
      true,
      ...impls.map(() => true),
      false,
    ]),
  );
  out.push(
    "",
    `Watch streams decoded in constant memory: heapUsed after a full GC every ${report.watch[0]?.samples[1] !== undefined ? int.format(report.watch[0].samples[1].events - report.watch[0].samples[0]!.events) : "?"} events;`,
    `a stream fails when the least-squares line through the samples rises by more than ${kib(report.growthLimitBytes)}.`,
  );
  out.push(
    table(
      ["stream", "events", "first sample", "last sample", "fitted growth", "bytes/event", "events/s", "verdict"],
      report.watch.map((w) => [
        w.stream,
        int.format(w.events),
        kib(w.samples[0]?.heapUsed ?? 0),
        kib(w.samples[w.samples.length - 1]?.heapUsed ?? 0),
        kib(w.growth.fittedGrowth),
        fix(w.growth.bytesPerEvent, 3),
        int.format(w.eventsPerSec),
        w.growth.grows ? "GROWS" : "constant",
      ]),
      [false, true, true, true, true, true, true, false],
    ),
  );
  return out;
}
