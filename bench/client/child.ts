// One informer in a process of its own (forked by bench/client/main.ts with --expose-gc), so its
// heap and CPU time are its own. The parent drives it over the IPC channel:
//   {op:"list"}            stop the running informer (if any), collect garbage, start a new one and
//                          wait until its first list is in the cache; answers {op:"listed", ms, cpuUs,
//                          heapBytes, externalBytes, size, previousFreed}: the time and CPU of the list
//                          into the cache, and the memory it holds after garbage collection, measured
//                          once the previous informer is garbage: heapBytes is heapUsed plus
//                          arrayBuffers (ArrayBuffer backing stores, such as those of decoded bytes
//                          fields, live outside heapUsed), the same sum for every contender;
//                          externalBytes is all external memory (arrayBuffers included)
//   {op:"expect", count}   answers {op:"armed"}, then {op:"seen", ms, cpuUs, count} once the running
//                          informer has taken `count` adds or updates from its watch
//   {op:"stop"}            stops the informer and exits
// The child only ever prints errors; the kubeconfig it reads holds a token, never printed.

import { parseArgs } from "node:util";
import { KubeConfig } from "@kubernetes/client-node";
import { startClientNodeInformer } from "./client-node.js";
import { BENCH_KINDS, type BenchKind } from "./objects.js";
import { startOurInformer } from "./ours.js";
import { CONTENDERS, type Contender, type FromChild, type ToChild } from "./protocol.js";
import { deferred, timed } from "./timing.js";

interface Running {
  readonly handle: object;
  readonly size: () => number;
  onChange(cb: () => void): void;
  stop(): Promise<void>;
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("the child needs node --expose-gc");
  // Twice: the first pass may leave objects that only the second finds unreachable (weak maps,
  // finalizers).
  gc();
  gc();
}

/**
 * Waits until the stopped informer `ref` points to is garbage: a stopped informer is let go only
 * once its watch's socket has closed, a few turns of the event loop later, and until then it
 * still holds its cache, which would count in the next list's "before". Gives up after 10 s
 * (then the figure says so).
 */
async function released(ref: WeakRef<object>): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (ref.deref() !== undefined) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
    collect();
  }
  return true;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      impl: { type: "string" },
      kind: { type: "string" },
      kubeconfig: { type: "string" },
      "page-size": { type: "string" },
    },
  });
  const impl = values.impl as Contender;
  const kind = values.kind as BenchKind;
  if (!CONTENDERS.includes(impl) || !BENCH_KINDS.includes(kind) || values.kubeconfig === undefined) {
    throw new Error(`child: bad arguments ${process.argv.slice(2).join(" ")}`);
  }
  const kubeconfig = values.kubeconfig;
  const pageSize = Number(values["page-size"] ?? "500");
  const send = (m: FromChild): void => {
    process.send?.(m);
  };

  let start: () => Promise<Running>;
  if (impl === "client-node") {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    start = () => startClientNodeInformer(kc, kind, pageSize);
  } else {
    const format = impl === "clusterwire-json" ? "json" : "protobuf";
    start = () => startOurInformer(kubeconfig, kind, pageSize, format, impl === "clusterwire-compact");
  }

  let running: Running | undefined;
  const handle = async (m: ToChild): Promise<void> => {
    if (m.op === "list") {
      let freed = true;
      if (running !== undefined) {
        const ref = new WeakRef(running.handle);
        await running.stop();
        running = undefined;
        freed = await released(ref);
      }
      collect();
      const before = process.memoryUsage();
      let started: Running | undefined;
      const t = await timed(async () => {
        started = await start();
      });
      running = started!;
      collect();
      const after = process.memoryUsage();
      send({
        op: "listed",
        ms: t.ms,
        cpuUs: t.cpuUs,
        heapBytes: after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers),
        externalBytes: after.external - before.external,
        size: running.size(),
        previousFreed: freed,
      });
    } else if (m.op === "expect") {
      if (running === undefined) throw new Error("expect before list");
      const all = deferred<void>();
      let seen = 0;
      running.onChange(() => {
        if (++seen === m.count) all.resolve();
      });
      send({ op: "armed" });
      const t = await timed(() => all.promise);
      send({ op: "seen", ms: t.ms, cpuUs: t.cpuUs, count: seen });
    } else {
      await running?.stop();
      process.disconnect?.();
      process.exit(0);
    }
  };
  // One message at a time, in order.
  let queue = Promise.resolve();
  process.on("message", (m: ToChild) => {
    queue = queue
      .then(() => handle(m))
      .catch((e: unknown) => {
        send({ op: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      });
  });
}

main().catch((e: unknown) => {
  process.send?.({ op: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies FromChild);
  process.exitCode = 1;
});
