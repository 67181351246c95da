// The informer bench's figures: per-round samples of each contender of a group turned into rates
// with their spread, CPU per item, heap per cached object, and ratios to the peer taken round by
// round (bench/stats.ts's roundRatio), printed as the other benches print them. Pure; tested in
// test/bench/client/report.test.ts.

import { median, roundRatio, type Spread, spread } from "../stats.js";
import { fix, int, ratioText, table } from "../text.js";
import type { Timed } from "./timing.js";

/** One contender's samples in a group: one per measured round, in round order. */
export interface ContenderSamples {
  readonly name: string;
  /** The contender its rates are compared with, round by round (undefined: none). */
  readonly peer?: string;
  readonly samples: readonly Timed[];
  /** Heap bytes held per round (list groups). */
  readonly heapBytes?: readonly number[];
}

/** A group: the same work (`items` objects or events) done by each contender, in the same rounds. */
export interface Group {
  /** e.g. "list:Ingress". */
  readonly id: string;
  readonly title: readonly string[];
  readonly unit: "objects" | "events";
  readonly items: number;
  readonly contenders: readonly ContenderSamples[];
}

export interface ContenderFigures {
  readonly name: string;
  /** Items per second, over the rounds. */
  readonly perSecond: Spread;
  /** Median CPU µs per item. */
  readonly cpuUsPerItem: number;
  /** Median heap bytes per item (list groups). */
  readonly heapBytesPerItem?: number;
  /** This contender's rate over its peer's, per round. */
  readonly speedup?: { readonly peer: string } & Spread;
  /** This contender's heap per item over its peer's (below 1: less heap). */
  readonly heapRatio?: { readonly peer: string; readonly ratio: number };
}

export const perSecond = (items: number, t: Timed): number => (items * 1000) / Math.max(t.ms, 1e-6);

/** The figures of each contender of `g`. */
export function figures(g: Group): ContenderFigures[] {
  const byName = new Map(g.contenders.map((c) => [c.name, c]));
  const heapPer = (c: ContenderSamples): number | undefined =>
    c.heapBytes === undefined || c.heapBytes.length === 0 ? undefined : median(c.heapBytes) / g.items;
  return g.contenders.map((c) => {
    const rates = c.samples.map((t) => perSecond(g.items, t));
    const heap = heapPer(c);
    const peer = c.peer === undefined ? undefined : byName.get(c.peer);
    const peerHeap = peer === undefined ? undefined : heapPer(peer);
    return {
      name: c.name,
      perSecond: spread(rates),
      cpuUsPerItem: median(c.samples.map((t) => t.cpuUs / g.items)),
      ...(heap === undefined ? {} : { heapBytesPerItem: heap }),
      ...(peer === undefined
        ? {}
        : {
            speedup: {
              peer: peer.name,
              ...roundRatio(
                rates,
                peer.samples.map((t) => perSecond(g.items, t)),
              ),
            },
          }),
      ...(peer === undefined || heap === undefined || peerHeap === undefined
        ? {}
        : { heapRatio: { peer: peer.name, ratio: heap / peerHeap } }),
    };
  });
}

/** The lines printed for a group: its title, then a table of its contenders. */
export function groupText(g: Group): string[] {
  const rows = figures(g);
  const heap = rows.some((r) => r.heapBytesPerItem !== undefined);
  const header = [
    "impl",
    `median ${g.unit}/s`,
    "IQR",
    "min–max",
    `CPU µs/${g.unit === "objects" ? "object" : "event"}`,
    ...(heap ? ["heap B/object"] : []),
    "ratio: median of rounds (min–max)",
  ];
  const body = rows.map((r) => {
    const ratios: string[] = [];
    if (r.speedup !== undefined) {
      ratios.push(
        `${r.name}/${r.speedup.peer} ${ratioText(r.speedup.median)} (${ratioText(r.speedup.min)}–${ratioText(r.speedup.max)})`,
      );
    }
    if (r.heapRatio !== undefined) ratios.push(`heap ${ratioText(r.heapRatio.ratio)}`);
    return [
      r.name,
      int.format(r.perSecond.median),
      `${int.format(r.perSecond.q1)}–${int.format(r.perSecond.q3)}`,
      `${int.format(r.perSecond.min)}–${int.format(r.perSecond.max)}`,
      fix(r.cpuUsPerItem, 2),
      ...(heap ? [r.heapBytesPerItem === undefined ? "-" : int.format(r.heapBytesPerItem)] : []),
      ratios.join(", "),
    ];
  });
  return ["", ...g.title, table(header, body, [false, true, true, true, true, ...(heap ? [true] : []), false])];
}
