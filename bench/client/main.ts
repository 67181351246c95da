// `npm run bench:client`: informers of networking.k8s.io/v1 objects on a real control plane
// (scripts/controlplane.mjs, loaded at run time; v1.35.4 by default), clusterwire's
// (clusterwire/client, protobuf and JSON) beside @kubernetes/client-node 1.4.0's, on the same
// objects in the same run: N real Ingresses and NetworkPolicies each (bench/client/objects.ts).
//   list    objects/s of a full paginated list into the informer's cache, and the heap each cached
//           object holds (after garbage collection), each informer in a process of its own
//   replay  the API server's watch stream recorded once (N ADDED events, then N MODIFIED ones, in
//           JSON and in protobuf) and replayed in-process into each informer's cache: events/s and
//           CPU µs per event without the server's speed in it; and the decoders alone
//   live    every informer watching while every object is modified: events/s and the CPU µs per
//           event of each informer's process
// Contenders run in rotating order, round after round; the report gives medians with their
// spread and ratios taken round by round, as the other benches do. With --recordings DIR the
// replays read streams saved earlier (--save-recordings DIR) and no control plane is started.
// See `--help`.

import { type ChildProcess, fork } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClientObject } from "../../src/client/index.js";
import { controlPlane } from "../../conformance/campaign/controlplane.js";
import { createMany, requestMany } from "../../test/support/controlplane/bulk.js";
import type { ControlPlane } from "../../test/support/controlplane/start.js";
import { repoRoot } from "../fixtures.js";
import { rotation } from "../rounds.js";
import { fix, int } from "../text.js";
import { clientNodeObjects, collectionPath, replayClientNode, replayClientNodeParse } from "./client-node.js";
import { type BenchKind, type BenchObject, benchNamespaces, benchObjects, loadTemplates, PLURALS } from "./objects.js";
import { type BenchOptions, parseOptions, selected, USAGE, UsageError } from "./options.js";
import { ourEvents, replayOurs, replayOursDecode } from "./ours.js";
import type { Contender, FromChild, ToChild } from "./protocol.js";
import { type Recording, readRecording, recordingFile, recordWatch, saveRecording, type WireFormat } from "./record.js";
import { figures, type Group, groupText } from "./report.js";
import { deferred, type Timed } from "./timing.js";

const PEER = "client-node";
const CONTENDERS: readonly Contender[] = ["client-node", "clusterwire", "clusterwire-compact", "clusterwire-json"];
const ANNOTATION = "bench.clusterwire.io/pass";

/** How each contender is named in the report. */
const LABEL: Readonly<Record<Contender, string>> = {
  "client-node": PEER,
  clusterwire: "clusterwire (protobuf)",
  "clusterwire-compact": "clusterwire (protobuf, compact)",
  "clusterwire-json": "clusterwire (JSON)",
};

const log = (options: BenchOptions, line: string): void => {
  if (!options.json) console.error(line);
};

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
}

// ------------------------------------------------------------------ the informer processes

/** An informer process (bench/client/child.ts) and its messages. */
class Child {
  private readonly waiting: ((m: FromChild) => void)[] = [];
  private readonly early: FromChild[] = [];
  private readonly exited = deferred<void>();
  private failure: Error | undefined;

  constructor(
    readonly contender: Contender,
    private readonly proc: ChildProcess,
  ) {
    proc.on("message", (m: FromChild) => {
      const next = this.waiting.shift();
      if (next !== undefined) next(m);
      else this.early.push(m);
    });
    proc.on("exit", (code, signal) => {
      this.failure ??= new Error(`${contender}'s process exited (${signal ?? code})`);
      for (const w of this.waiting.splice(0)) w({ op: "error", message: this.failure.message });
      this.exited.resolve();
    });
  }

  static start(contender: Contender, kind: BenchKind, plane: ControlPlane, pageSize: number): Child {
    const script = join(fileURLToPath(new URL(".", import.meta.url)), "child.js");
    const proc = fork(
      script,
      ["--impl", contender, "--kind", kind, "--kubeconfig", plane.kubeconfigPath, "--page-size", String(pageSize)],
      { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
    );
    return new Child(contender, proc);
  }

  private next(): Promise<FromChild> {
    const m = this.early.shift();
    if (m !== undefined) return Promise.resolve(m);
    if (this.failure !== undefined) return Promise.resolve({ op: "error", message: this.failure.message });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The next message, which must be `op`. */
  async expect<Op extends FromChild["op"]>(op: Op): Promise<Extract<FromChild, { op: Op }>> {
    const m = await this.next();
    if (m.op === "error") throw new Error(`${this.contender}: ${m.message}`);
    if (m.op !== op) throw new Error(`${this.contender}: ${m.op} where ${op} was expected`);
    return m as Extract<FromChild, { op: Op }>;
  }

  send(m: ToChild): void {
    this.proc.send(m);
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode === null && this.proc.connected) this.send({ op: "stop" });
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), 15_000);
    await this.exited.promise;
    clearTimeout(timer);
  }
}

// ------------------------------------------------------------------ writes

/** Merge-patches an annotation onto every object: one MODIFIED event each. */
function patchAll(plane: ControlPlane, objects: readonly BenchObject[], pass: string, concurrency: number) {
  return requestMany(
    plane,
    objects.map((o) => ({
      method: "PATCH",
      path: o.objectPath,
      body: { metadata: { annotations: { [ANNOTATION]: pass } } },
      contentType: "application/merge-patch+json",
    })),
    { concurrency },
  );
}

/** The collection's current resourceVersion (a list of one item). */
async function currentResourceVersion(plane: ControlPlane, kind: BenchKind): Promise<string> {
  const cp = await controlPlane();
  const res = await cp.apiRequest(plane, "GET", `${collectionPath(kind)}?limit=1`);
  if (res.status !== 200) throw new Error(`list ${kind}: HTTP ${res.status}: ${res.body.slice(0, 500)}`);
  return (JSON.parse(res.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
}

// ------------------------------------------------------------------ recordings

interface Recordings {
  readonly added: Readonly<Record<WireFormat, Recording>>;
  readonly modified: Readonly<Record<WireFormat, Recording>>;
}

/** The namespace/name of each object, as a recording's events are checked against. */
const keysOf = (objects: readonly BenchObject[]): Set<string> =>
  new Set(objects.map((o) => `${o.namespace}/${o.name}`));

/** Checks a recording holds events of `type`, one for each object of `want` (namespace/name), before timing it. */
async function checkRecording(r: Recording, type: string, want: ReadonlySet<string>): Promise<void> {
  const events = await ourEvents(r.chunks, r.format);
  const got = new Set(
    events.map((e) => {
      if (e.type !== type) throw new Error(`recorded ${r.format} stream: a ${e.type} event where ${type} was expected`);
      const meta = (e.object as { metadata?: { namespace?: string; name?: string } }).metadata;
      return `${meta?.namespace}/${meta?.name}`;
    }),
  );
  if (events.length !== want.size || got.size !== want.size || [...want].some((k) => !got.has(k))) {
    throw new Error(
      `recorded ${r.format} stream: ${events.length} ${type} events, not one for each of ${want.size} objects`,
    );
  }
}

async function record(
  options: BenchOptions,
  plane: ControlPlane,
  kind: BenchKind,
  objects: readonly BenchObject[],
): Promise<Recordings> {
  const path = collectionPath(kind);
  const n = objects.length;
  // resourceVersion "0": the watch starts with an ADDED event for every object the server has.
  const added = {
    json: await recordWatch(plane, path, "json", "0", n),
    protobuf: await recordWatch(plane, path, "protobuf", "0", n),
  };
  // Both formats watch the same writes: every object patched once, after both watches are open.
  const from = await currentResourceVersion(plane, kind);
  const open = { json: deferred<void>(), protobuf: deferred<void>() };
  const recording = (format: WireFormat) =>
    recordWatch(plane, path, format, from, n, async () => open[format].resolve());
  const both = Promise.all([recording("json"), recording("protobuf")]);
  await Promise.race([Promise.all([open.json.promise, open.protobuf.promise]), both]);
  await patchAll(plane, objects, "recorded", options.concurrency);
  const [json, protobuf] = await both;
  const out = { added, modified: { json, protobuf } };
  const want = keysOf(objects);
  for (const r of [added.json, added.protobuf]) await checkRecording(r, "ADDED", want);
  for (const r of [json, protobuf]) await checkRecording(r, "MODIFIED", want);
  return out;
}

const STREAMS = [
  ["ADDED", "added"],
  ["MODIFIED", "modified"],
] as const;

/** Writes each recorded stream as the bytes the API server sent: KIND-EVENT.json and KIND-EVENT.pb. */
function saveRecordings(dir: string, kind: BenchKind, recordings: Recordings): void {
  for (const [event, stream] of STREAMS)
    for (const format of ["json", "protobuf"] as const)
      saveRecording(recordingFile(dir, kind, event, format), recordings[stream][format]);
}

/**
 * The streams of `kind` saved in `dir` by --save-recordings, checked as fresh ones are: `count`
 * events each, one for each object of the JSON ADDED stream, in every stream.
 */
async function loadRecordings(dir: string, kind: BenchKind, count: number): Promise<Recordings> {
  const read = (event: string, format: WireFormat) =>
    readRecording(recordingFile(dir, kind, event, format), format, count);
  const out: Recordings = {
    added: { json: read("ADDED", "json"), protobuf: read("ADDED", "protobuf") },
    modified: { json: read("MODIFIED", "json"), protobuf: read("MODIFIED", "protobuf") },
  };
  const want = new Set(
    (await ourEvents(out.added.json.chunks, "json")).map((e) => {
      const meta = (e.object as { metadata?: { namespace?: string; name?: string } }).metadata;
      return `${meta?.namespace}/${meta?.name}`;
    }),
  );
  for (const [event, stream] of STREAMS)
    for (const format of ["json", "protobuf"] as const) await checkRecording(out[stream][format], event, want);
  return out;
}

// ------------------------------------------------------------------ phases

interface KindReport {
  readonly kind: BenchKind;
  readonly objects: number;
  /** How fast the objects were created (not with --recordings). */
  readonly created?: { readonly seconds: number; readonly perSecond: number };
  readonly recordedBytesPerEvent?: Record<string, number>;
  /** The first list of each contender (a fresh process): objects/s. */
  readonly coldListPerSecond?: Record<string, number>;
  readonly groups: Group[];
}

/** list and live: one process per contender, one at a time for lists, all together for live. */
async function listAndLive(
  options: BenchOptions,
  plane: ControlPlane,
  kind: BenchKind,
  objects: readonly BenchObject[],
  contenders: readonly Contender[],
  passes: { next: number },
): Promise<{ groups: Group[]; cold: Record<string, number> }> {
  const n = objects.length;
  const children = contenders.map((c) => Child.start(c, kind, plane, options.pageSize));
  try {
    const lists = selected(options, "list", kind);
    const rounds = lists ? options.rounds + 1 : 1;
    const samples = contenders.map(() => [] as Timed[]);
    const heaps = contenders.map(() => [] as number[]);
    const notFreed = contenders.map(() => 0);
    const cold: Record<string, number> = {};
    for (let round = 0; round < rounds; round++) {
      log(options, `  list ${kind}: round ${round + 1}/${rounds}${round === 0 ? " (warm-up)" : ""}`);
      for (const ci of rotation(children.length, round)) {
        const child = children[ci]!;
        child.send({ op: "list" });
        const listed = await child.expect("listed");
        if (listed.size !== n) throw new Error(`${child.contender} listed ${listed.size} of ${n} ${kind}s`);
        if (!listed.previousFreed) notFreed[ci]!++;
        if (round === 0) cold[LABEL[child.contender]] = (n * 1000) / listed.ms;
        else {
          samples[ci]!.push({ ms: listed.ms, cpuUs: listed.cpuUs });
          heaps[ci]!.push(listed.heapBytes);
        }
      }
    }
    const groups: Group[] = [];
    if (lists) {
      groups.push({
        id: `list:${kind}`,
        title: [
          `list:${kind} — ${int.format(n)} objects, pages of ${options.pageSize}, into a new informer's cache (synced), each informer in`,
          "its own process; heap: heapUsed + arrayBuffers (ArrayBuffer backing stores, such as those of decoded bytes fields, are",
          "outside heapUsed) after GC with the cache filled, minus before, per object. First round (a fresh process) is a warm-up,",
          "not counted.",
          ...contenders.flatMap((c, i) =>
            notFreed[i]! > 0
              ? [
                  `NOTE: ${LABEL[c]}'s stopped informer was still reachable 10 s after stop() in ${notFreed[i]} round(s): its heap figure counts it.`,
                ]
              : [],
          ),
        ],
        unit: "objects",
        items: n,
        contenders: contenders.map((c, i) => ({
          name: LABEL[c],
          ...(c === "client-node" ? {} : { peer: PEER }),
          samples: samples[i]!,
          heapBytes: heaps[i]!,
        })),
      });
    }
    if (selected(options, "live", kind)) {
      const live = contenders.map(() => [] as Timed[]);
      const patchMs: number[] = [];
      for (let round = 0; round < options.liveRounds; round++) {
        log(options, `  live ${kind}: round ${round + 1}/${options.liveRounds}`);
        for (const child of children) child.send({ op: "expect", count: n });
        for (const child of children) await child.expect("armed");
        const pass = String(passes.next++);
        const patched = await patchAll(plane, objects, pass, options.concurrency);
        patchMs.push(patched.seconds * 1000);
        for (const [ci, child] of children.entries()) {
          const seen = await child.expect("seen");
          live[ci]!.push({ ms: seen.ms, cpuUs: seen.cpuUs });
        }
      }
      groups.push({
        id: `live:${kind}`,
        title: [
          `live:${kind} — every informer watching while all ${int.format(n)} objects are modified (merge patch, ${options.concurrency} in flight;`,
          `the patches took a median ${int.format(patchMs.sort((a, b) => a - b)[Math.floor(patchMs.length / 2)]!)} ms): events/s from the first patch to each`,
          "informer's last update (bound by the API server's pace), and the CPU µs per event of each informer's process.",
        ],
        unit: "events",
        items: n,
        contenders: contenders.map((c, i) => ({
          name: LABEL[c],
          ...(c === "client-node" ? {} : { peer: PEER }),
          samples: live[i]!,
        })),
      });
    }
    return { groups, cold };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}

/** One in-process replay. */
interface Replayer {
  readonly name: string;
  readonly peer?: string;
  readonly run: () => Promise<Timed>;
}

/** Each contender's warm-up: at least this many replays, and at least WARM_UP_MS of them. */
const WARM_UP_RUNS = 3;
const WARM_UP_MS = 1_000;
/** Each measured round of a contender replays the stream as often as it takes the fastest this long. */
const ROUND_MS = 500;

/**
 * Every replayer warmed up (each in turn: WARM_UP_RUNS replays and WARM_UP_MS at least, so
 * what is measured runs optimised code), then options.rounds rounds in rotating order. Each
 * round of each replayer: a full garbage collection (the previous replayer's garbage is not
 * this one's to collect), one replay untimed, then `reps` timed replays back to back, their
 * garbage collected as it comes, as in a running informer. The untimed replay is there because
 * a full collection that frees objects optimised code had embedded (the previous replay's
 * garbage) throws that code away (reason "weak objects" in node --trace-deopt; measured: the
 * protobuf decoder then runs 3-10x slower for its next few thousand events): timing right
 * after it would measure V8 optimising again, not the replayer. `reps` is what makes the
 * fastest replayer's round last ROUND_MS, the same for all, so a round is not a few
 * milliseconds of timer noise when --count is small.
 */
async function replayGroup(
  options: BenchOptions,
  id: string,
  title: readonly string[],
  items: number,
  replayers: readonly Replayer[],
): Promise<Group> {
  const fastest = replayers.map(() => Number.POSITIVE_INFINITY);
  for (const ri of rotation(replayers.length, 0)) {
    let spent = 0;
    for (let run = 0; run < WARM_UP_RUNS || spent < WARM_UP_MS; run++) {
      collect();
      const t = await replayers[ri]!.run();
      spent += t.ms;
      fastest[ri] = Math.min(fastest[ri]!, t.ms);
    }
  }
  const reps = Math.max(1, Math.ceil(ROUND_MS / Math.min(...fastest)));
  const samples = replayers.map(() => [] as Timed[]);
  for (let round = 0; round < options.rounds; round++) {
    for (const ri of rotation(replayers.length, round)) {
      let ms = 0;
      let cpuUs = 0;
      collect();
      await replayers[ri]!.run();
      for (let rep = 0; rep < reps; rep++) {
        const t = await replayers[ri]!.run();
        ms += t.ms;
        cpuUs += t.cpuUs;
      }
      samples[ri]!.push({ ms, cpuUs });
    }
  }
  return {
    id,
    title: [
      ...title,
      `Each contender warmed up first (${WARM_UP_RUNS} replays and ${int.format(WARM_UP_MS)} ms at least, not counted); each round of each: a full GC, one replay`,
      `untimed (the GC drops optimised code specialised on objects it freed), then ${reps} timed replay(s) back to back.`,
    ],
    unit: "events",
    items: items * reps,
    contenders: replayers.map((r, i) => ({
      name: r.name,
      ...(r.peer === undefined ? {} : { peer: r.peer }),
      samples: samples[i]!,
    })),
  };
}

async function replays(options: BenchOptions, kind: BenchKind, rec: Recordings): Promise<Group[]> {
  const n = rec.added.json.events;
  const cnPrefill = clientNodeObjects(rec.added.json.chunks);
  const ourPrefill = {
    json: (await ourEvents(rec.added.json.chunks, "json")).map((e) => e.object as ClientObject),
    protobuf: (await ourEvents(rec.added.protobuf.chunks, "protobuf")).map((e) => e.object as ClientObject),
  };
  const bytes = (r: Recording) => `${fix(r.bytes / r.events, 0)} B/event`;
  const groups: Group[] = [];
  for (const [which, stream, prefill] of [
    ["ADDED", "added", false],
    ["MODIFIED", "modified", true],
  ] as const) {
    const r = rec[stream];
    log(options, `  replay ${kind} ${which}: warm-up, then ${options.rounds} rounds`);
    const replayers: Replayer[] = [
      { name: PEER, run: () => replayClientNode(kind, r.json.chunks, n, prefill ? cnPrefill : []) },
    ];
    for (const format of ["protobuf", "json"] as const) {
      replayers.push({
        name: `clusterwire (${format === "json" ? "JSON" : "protobuf"})`,
        peer: PEER,
        run: () => replayOurs(kind, r[format].chunks, format, n, prefill ? ourPrefill[format] : []),
      });
    }
    replayers.push({
      name: "clusterwire (protobuf, compact)",
      peer: PEER,
      run: () => replayOurs(kind, r.protobuf.chunks, "protobuf", n, prefill ? ourPrefill.protobuf : [], true),
    });
    groups.push(
      await replayGroup(
        options,
        `replay:${kind} ${stream}`,
        [
          `replay:${kind} ${which} — the API server's watch stream of ${int.format(n)} ${which} events (JSON ${bytes(r.json)}, protobuf`,
          `${bytes(r.protobuf)}), recorded, then replayed in-process into ${prefill ? "a cache holding every object" : "an empty cache"}: from the bytes to the informer's`,
          "last add/update callback. client-node: its ListWatch, fed as its Watch feeds it (readline, JSON.parse per line).",
          "clusterwire: its informer over its resource client's watch(), whose transport answers with the bytes as the response body",
          "(Readable.from, as client-node's side is fed): the client's watch path, decodeWatchStream/decodeJsonWatchStream included.",
        ],
        n,
        replayers,
      ),
    );
  }
  const r = rec.added;
  groups.push(
    await replayGroup(
      options,
      `replay:${kind} decode`,
      [
        `replay:${kind} decode — the decoders alone on the ADDED recording, no cache: client-node's per-line readline + JSON.parse,`,
        "clusterwire's decodeWatchStream (protobuf) and decodeJsonWatchStream (JSON: typed, checked objects).",
      ],
      n,
      [
        { name: `${PEER} readline+JSON.parse`, run: () => replayClientNodeParse(r.json.chunks, n) },
        {
          name: "clusterwire decodeWatchStream",
          peer: `${PEER} readline+JSON.parse`,
          run: () => replayOursDecode(r.protobuf.chunks, "protobuf", n),
        },
        {
          name: "clusterwire decodeJsonWatchStream",
          peer: `${PEER} readline+JSON.parse`,
          run: () => replayOursDecode(r.json.chunks, "json", n),
        },
      ],
    ),
  );
  return groups;
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`${e.message}\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    throw e;
  }
  if (parsed === "help") {
    console.log(USAGE);
    return;
  }
  const options = parsed;
  if ((globalThis as { gc?: unknown }).gc === undefined) {
    throw new Error("run with node --expose-gc (npm run bench:client does)");
  }
  const reports = options.recordings === "" ? await onControlPlane(options) : await fromFiles(options);
  const machine = { cpus: cpus().length, loadavg: loadavg().map((l) => Number(l.toFixed(2))) };
  if (options.json) {
    console.log(
      JSON.stringify(
        {
          version: options.version,
          options,
          machine,
          kinds: reports.map((r) => ({
            ...r,
            groups: r.groups.map((g) => ({ id: g.id, items: g.items, figures: figures(g) })),
          })),
        },
        null,
        2,
      ),
    );
    return;
  }
  const source =
    options.recordings === ""
      ? `informers on kube-apiserver ${options.version}: ${int.format(options.count)} objects of each kind over ${options.namespaces} namespaces`
      : `informers on the watch streams recorded in ${options.recordings}: ${int.format(options.count)} events each, replay groups only`;
  const out: string[] = [
    `${source}, ${options.rounds} rounds (after a warm-up); ${machine.cpus} CPUs, load ${machine.loadavg.join(" ")}`,
  ];
  for (const r of reports) {
    out.push(
      "",
      (r.created === undefined
        ? `== ${r.kind}: ${int.format(r.objects)} objects`
        : `== ${r.kind}: ${int.format(r.objects)} objects created at ${int.format(r.created.perSecond)}/s`) +
        (r.coldListPerSecond === undefined
          ? ""
          : `; first list in a fresh process: ${Object.entries(r.coldListPerSecond)
              .map(([name, v]) => `${name} ${int.format(v)} objects/s`)
              .join(", ")}`),
    );
    for (const g of r.groups) out.push(...groupText(g));
  }
  out.push("", "ratios: above 1× = clusterwire faster (rates); heap below 1× = clusterwire holds less per object");
  console.log(out.join("\n"));
}

/** The bytes per event of each recorded stream. */
function bytesPerEvent(recordings: Recordings): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [event, stream] of STREAMS)
    for (const format of ["json", "protobuf"] as const) {
      const r = recordings[stream][format];
      out[`${event} ${format}`] = r.bytes / r.events;
    }
  return out;
}

/** --recordings: the replay groups the filter selects, on the streams saved in that folder. */
async function fromFiles(options: BenchOptions): Promise<KindReport[]> {
  const reports: KindReport[] = [];
  for (const kind of options.kinds) {
    if (!selected(options, "replay", kind)) continue;
    log(options, `reading ${kind} watch streams from ${options.recordings} ...`);
    const recordings = await loadRecordings(options.recordings, kind, options.count);
    reports.push({
      kind,
      objects: options.count,
      recordedBytesPerEvent: bytesPerEvent(recordings),
      groups: await replays(options, kind, recordings),
    });
  }
  if (reports.length === 0) throw new UsageError("--recordings runs replay groups only: the filter selects none");
  return reports;
}

/** Every group the filter selects, on a control plane started for them. */
async function onControlPlane(options: BenchOptions): Promise<KindReport[]> {
  const root = repoRoot();
  const cp = await controlPlane();
  if (!cp.isBuilt(options.version, root)) {
    throw new Error(
      `no control plane ${options.version} in .cache/controlplane/: build it with npm run apiserver first`,
    );
  }
  const templates = loadTemplates();
  log(
    options,
    `templates: ${options.kinds.map((k) => `${templates.filter((t) => t.kind === k).length} ${k}`).join(", ")} ` +
      "from bench/corpus and test/fixtures/real-world",
  );
  log(options, `starting kube-apiserver ${options.version} ...`);
  const plane = await cp.startControlPlane({ version: options.version, root });
  const reports: KindReport[] = [];
  try {
    const namespaces = benchNamespaces(options.count, options.namespaces);
    await requestMany(
      plane,
      namespaces.map((name) => ({
        path: "/api/v1/namespaces",
        body: { apiVersion: "v1", kind: "Namespace", metadata: { name } },
      })),
      { concurrency: options.concurrency },
    );
    const passes = { next: 1 };
    for (const kind of options.kinds) {
      const objects = benchObjects(templates, kind, options.count, options.namespaces);
      log(options, `creating ${int.format(objects.length)} ${PLURALS[kind]} ...`);
      const created = await createMany(plane, objects, { concurrency: options.concurrency });
      log(options, `  ${int.format(objects.length / created.seconds)} creates/s`);
      const groups: Group[] = [];
      let recordings: Recordings | undefined;
      if (selected(options, "replay", kind)) {
        log(options, `recording ${kind} watch streams ...`);
        recordings = await record(options, plane, kind, objects);
        if (options.saveRecordings !== "") saveRecordings(options.saveRecordings, kind, recordings);
      }
      let cold: Record<string, number> | undefined;
      if (selected(options, "list", kind) || selected(options, "live", kind)) {
        const done = await listAndLive(options, plane, kind, objects, CONTENDERS, passes);
        groups.push(...done.groups);
        if (selected(options, "list", kind)) cold = done.cold;
      }
      if (recordings !== undefined) groups.push(...(await replays(options, kind, recordings)));
      reports.push({
        kind,
        objects: objects.length,
        created: { seconds: created.seconds, perSecond: objects.length / created.seconds },
        ...(recordings === undefined ? {} : { recordedBytesPerEvent: bytesPerEvent(recordings) }),
        ...(cold === undefined ? {} : { coldListPerSecond: cold }),
        groups,
      });
    }
  } finally {
    await plane.stop();
  }
  return reports;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
});
