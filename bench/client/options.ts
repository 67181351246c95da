// The informer bench's command line: parsed and checked here (pure, tested in
// test/bench/client/options.test.ts), run by bench/client/main.ts.

import { parseArgs } from "node:util";
import { BENCH_KINDS, type BenchKind } from "./objects.js";

export const USAGE = `usage: node --expose-gc dist/bench/client/main.js [options]   (npm run bench:client -- [options])
  --version V        the control plane's release (default v1.35.4; built by npm run apiserver)
  --count N          objects of each kind (default 10000): real Ingresses and NetworkPolicies, copied
  --kinds K,...      Ingress, NetworkPolicy or both (default both)
  --namespaces K     namespaces the objects are spread over (default 50)
  --rounds R         measured rounds of list and replay, contenders in rotating order, after one
                     round of warm-up (default 5)
  --live-rounds L    rounds of the live measurement, each modifying every object once (default 3)
  --page-size P      list limit of each page, for every contender (default 500)
  --concurrency C    creates and patches in flight (default 32)
  --filter TEXT      only the groups whose "phase:Kind" contains TEXT (case-insensitive); phases:
                     list (objects/s of a full paginated list into the cache, and the heap per cached
                     object), replay (recorded watch bytes decoded into the cache in-process, events/s
                     and CPU µs per event) and live (both informers watching while every object is
                     modified); e.g. --filter replay, --filter list:Ingress, --filter NetworkPolicy
  --save-recordings DIR  also write the recorded watch streams there, KIND-EVENT.json / KIND-EVENT.pb
                     (the bytes as the API server sent them), to profile the decoders without a server
  --recordings DIR   replay the streams --save-recordings wrote there instead of recording them: no
                     control plane is started and only the replay groups run; every file must hold
                     --count events
  --json             print the results as JSON on stdout instead of tables`;

export const PHASES = ["list", "replay", "live"] as const;
export type Phase = (typeof PHASES)[number];

export interface BenchOptions {
  readonly version: string;
  readonly count: number;
  readonly kinds: readonly BenchKind[];
  readonly namespaces: number;
  readonly rounds: number;
  readonly liveRounds: number;
  readonly pageSize: number;
  readonly concurrency: number;
  /** Lower-cased; "" for everything. */
  readonly filter: string;
  readonly json: boolean;
  /** Where to write the recorded watch streams; "" for nowhere. */
  readonly saveRecordings: string;
  /** Where to read recorded watch streams from instead of a control plane; "" for nowhere. */
  readonly recordings: string;
}

/** A command line the bench cannot run: the message says what, USAGE follows it. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

function whole(flag: string, text: string, min: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--${flag} must be a whole number from ${min}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function kindsOf(text: string): BenchKind[] {
  const out: BenchKind[] = [];
  for (const part of text.split(",")) {
    const want = part.trim().toLowerCase();
    const kind = BENCH_KINDS.find((k) => k.toLowerCase() === want);
    if (kind === undefined)
      throw new UsageError(`--kinds: ${JSON.stringify(part)} is not one of ${BENCH_KINDS.join(", ")}`);
    if (!out.includes(kind)) out.push(kind);
  }
  return out;
}

/** The options of `argv` (without node and the script), or "help" for --help. */
export function parseOptions(argv: readonly string[]): BenchOptions | "help" {
  const spec = {
    version: { type: "string", default: "v1.35.4" },
    count: { type: "string", default: "10000" },
    kinds: { type: "string", default: BENCH_KINDS.join(",") },
    namespaces: { type: "string", default: "50" },
    rounds: { type: "string", default: "5" },
    "live-rounds": { type: "string", default: "3" },
    "page-size": { type: "string", default: "500" },
    concurrency: { type: "string", default: "32" },
    filter: { type: "string", default: "" },
    json: { type: "boolean", default: false },
    "save-recordings": { type: "string", default: "" },
    recordings: { type: "string", default: "" },
    help: { type: "boolean", short: "h", default: false },
  } as const;
  const read = () => parseArgs({ args: [...argv], options: spec, strict: true, allowPositionals: false }).values;
  let values: ReturnType<typeof read>;
  try {
    values = read();
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (values.help) return "help";
  if (values.recordings !== "" && values["save-recordings"] !== "") {
    throw new UsageError("--recordings replays saved streams and --save-recordings saves fresh ones: give one of them");
  }
  if (!/^v\d+\.\d+\.\d+$/.test(values.version)) {
    throw new UsageError(`--version must be a release such as v1.35.4, got ${JSON.stringify(values.version)}`);
  }
  return {
    version: values.version,
    count: whole("count", values.count, 1),
    kinds: kindsOf(values.kinds),
    namespaces: whole("namespaces", values.namespaces, 1),
    rounds: whole("rounds", values.rounds, 1),
    liveRounds: whole("live-rounds", values["live-rounds"], 1),
    pageSize: whole("page-size", values["page-size"], 1),
    concurrency: whole("concurrency", values.concurrency, 1),
    filter: values.filter.toLowerCase(),
    json: values.json,
    saveRecordings: values["save-recordings"],
    recordings: values.recordings,
  };
}

/** Whether the group `phase:kind` runs under `filter`. */
export function selected(options: Pick<BenchOptions, "filter">, phase: Phase, kind: BenchKind): boolean {
  return `${phase}:${kind}`.toLowerCase().includes(options.filter);
}
