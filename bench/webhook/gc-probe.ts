// Loaded into the webhook's child process by the bench (node --import), never
// by the CLI itself: over the IPC channel the bench opens, "start" begins a
// window and "stop" ends it and answers what the server's V8 heap did in it:
// its garbage collections (count and time, by kind, from v8.GCProfiler) and
// the bytes it allocated on the V8 heap (the heap in use at the end, minus at
// the start, plus what every collection freed). Those are what a review costs
// in memory whatever else runs on the machine, unlike its latency.
//
// Allocation outside the V8 heap (Buffers' backing stores) is not counted.
//
// With CLUSTERWIRE_BENCH_HEAP_PROFILE=FILE in its environment, the window is
// also sampled by V8's heap profiler and the profile written to FILE
// (.heapprofile, for Chrome's DevTools): every allocation sampled, or with
// CLUSTERWIRE_BENCH_HEAP_PROFILE_LIVE=1 only those still alive at the end
// (what survived the minor GCs).

import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { GCProfiler } from "node:v8";

/** A window's figures, as sent back to the bench. */
export interface GcWindow {
  readonly type: "gc-probe";
  /** Scavenges (and minor mark-compacts): how many, their time in all and the longest, in ms. */
  readonly minor: GcKind;
  /** Mark-sweep-compacts, incremental marking steps and weak callbacks. */
  readonly major: GcKind;
  /** Bytes allocated on the V8 heap in the window. */
  readonly allocatedBytes: number;
}

export interface GcKind {
  readonly count: number;
  readonly ms: number;
  readonly maxMs: number;
}

interface HeapState {
  readonly heapStatistics: { readonly usedHeapSize: number };
}
interface GcStatistic {
  readonly gcType: string;
  /** Microseconds. */
  readonly cost: number;
  readonly beforeGC: HeapState;
  readonly afterGC: HeapState;
}

const used = (): number => process.memoryUsage().heapUsed;

let profiler: GCProfiler | undefined;
let usedAtStart = 0;
const heapProfile = process.env["CLUSTERWIRE_BENCH_HEAP_PROFILE"];
let session: Session | undefined;

function post(method: string, params: object = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    session!.post(method, params, (e, result) => (e ? reject(e) : resolve(result)));
  });
}

async function startSampling(): Promise<void> {
  if (heapProfile === undefined) return;
  session ??= new Session();
  session.connect();
  const all = process.env["CLUSTERWIRE_BENCH_HEAP_PROFILE_LIVE"] !== "1";
  await post("HeapProfiler.startSampling", {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: all,
    includeObjectsCollectedByMinorGC: all,
  });
}

async function stopSampling(): Promise<void> {
  if (heapProfile === undefined || session === undefined) return;
  const { profile } = (await post("HeapProfiler.stopSampling")) as { profile: unknown };
  writeFileSync(heapProfile, JSON.stringify(profile));
  session.disconnect();
}

function stop(): GcWindow {
  const usedAtEnd = used();
  const stats = ((profiler?.stop() as { statistics?: GcStatistic[] } | undefined)?.statistics ?? []) as GcStatistic[];
  profiler = undefined;
  let freed = 0;
  const minor = { count: 0, ms: 0, maxMs: 0 };
  const major = { count: 0, ms: 0, maxMs: 0 };
  for (const s of stats) {
    freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
    const kind = s.gcType === "Scavenge" || s.gcType === "MinorMarkCompact" ? minor : major;
    kind.count++;
    kind.ms += s.cost / 1000;
    kind.maxMs = Math.max(kind.maxMs, s.cost / 1000);
  }
  return { type: "gc-probe", minor, major, allocatedBytes: usedAtEnd - usedAtStart + freed };
}

if (process.send !== undefined) {
  process.on("message", (m: unknown) => {
    if (m === "gc-probe:start") {
      profiler?.stop();
      profiler = new GCProfiler();
      void startSampling().then(() => {
        usedAtStart = used();
        profiler?.start();
        process.send?.({ type: "gc-probe", started: true });
      });
    } else if (m === "gc-probe:stop") {
      const window = stop();
      void stopSampling().then(() => process.send?.(window));
    }
  });
  // The channel must not keep the server alive once it has closed (SIGTERM drains, then exits).
  process.channel?.unref();
}
