// `npm run bench:webhook`: `clusterwire webhook serve` in a child process over
// TLS on loopback, driven with autocannon at 1, 16 and 64 keep-alive
// connections and at fixed rates (1,000, 2,000 and 4,000 reviews/s), with a
// realistic mix of AdmissionReviews (bench/webhook/mix.ts); reports reviews/s,
// latency (p50, p99, p99.9, max), errors, and the server's CPU, V8 heap
// allocation and GCs per review; checks the answers against admit()
// in-process, and judges the goals of issue 15. The server and the load
// generator are pinned to different CPUs where taskset allows
// (bench/webhook/isolation.ts).
// `--compare CLI` serves another build in turns with this one. See `--help`.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { makeCert } from "../../test/support/storage/cert.js";
import { loadCorpus } from "../corpus.js";
import { repoRoot } from "../fixtures.js";
import { median } from "../stats.js";
import { fix, int, table } from "../text.js";
import { isolate } from "./isolation.js";
import { checkAnswers, runClosedLoop, runFixedRate, type RunResult } from "./load.js";
import { buildMix, describeMix } from "./mix.js";
import { scrape } from "./scrape.js";
import { startServerProcess, type GcWindow, type ServerProcess } from "./server-process.js";

const USAGE = `usage: node dist/bench/webhook/main.js [options]
  --duration S     seconds of each measured run (default 10)
  --warmup S       seconds of load before measuring, per server started (default 3)
  --rates L        reviews/s of the fixed-rate runs, comma-separated (default 1000,2000,4000)
  --connections L  closed-loop connection counts, comma-separated (default 1,16,64)
  --cli PATH       the clusterwire CLI to serve (default: this build's dist/src/cli/main.js)
  --compare PATH   also serve this CLI (another build), in turns with --cli, at 16 connections,
                   --rounds times each, and print the ratio of reviews/s (e.g. before/after a change)
                   A build of another commit, for instance:
                     git worktree add /tmp/before <commit> && cd /tmp/before && npm ci && npm run build
                     npm run bench:webhook -- --compare /tmp/before/dist/src/cli/main.js
                   The server's CPU time, V8 heap bytes and GCs per review are compared too: on a
                   shared machine they are disturbed less than reviews/s (heap bytes not at all).
  --rounds N       turns of each build with --compare (default 4)
  --cpu-prof DIR   write a V8 CPU profile of the server (the --cli one) into DIR
  --node-flags F   more flags for the server's node, space-separated (e.g. "--max-semi-space-size=16"
                   or "--heap-prof --heap-prof-dir=/tmp/prof")
  --unpinned       do not pin the server and the load generator to different CPUs (taskset)
  --json           print the results as JSON on stdout instead of tables`;

const GOAL_THROUGHPUT = 5_000;
const GOAL_P99_MS = 5;
const GOAL_CONNECTIONS = 16;
const GOAL_RATE = 2_000;

interface Env {
  readonly dir: string;
  readonly certFile: string;
  readonly keyFile: string;
  readonly ca: string;
  readonly serverCpu?: number | undefined;
  readonly nodeFlags: readonly string[];
}

function tlsEnv(): Omit<Env, "nodeFlags"> {
  const made = makeCert();
  if (made === undefined) throw new Error("openssl is needed to make the bench's serving certificate");
  made.dispose();
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-bench-webhook-"));
  const certFile = join(dir, "tls.crt");
  const keyFile = join(dir, "tls.key");
  writeFileSync(certFile, made.cert);
  writeFileSync(keyFile, made.key, { mode: 0o600 });
  return { dir, certFile, keyFile, ca: made.cert };
}

function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}

/** Runs `run` and adds the server's CPU time, heap allocation and GCs per answered review to its result. */
async function measured(server: ServerProcess, ca: string, run: () => Promise<RunResult>): Promise<Measured> {
  const scraped = await scrape(server.url, ca);
  await server.gcStart();
  const before = server.cpuSeconds();
  const r = await run();
  const cpu = server.cpuSeconds() - before;
  const gc = await server.gcStop();
  // The warm-up inside a fixed-rate run is in the server's figures too, so it counts as answered here.
  const answered = r.ok + r.non2xx + (r.warmupAnswered ?? 0);
  return {
    ...r,
    cpuMicrosPerReview: answered > 0 ? (cpu * 1e6) / answered : Number.NaN,
    gc,
    allocatedBytesPerReview: answered > 0 ? gc.allocatedBytes / answered : Number.NaN,
    gcsPer10kReviews: answered > 0 ? ((gc.minor.count + gc.major.count) * 10_000) / answered : Number.NaN,
    server: serverSide(scraped, await scrape(server.url, ca)),
  };
}

interface Measured extends RunResult {
  /** The server's CPU time (user + system) per answered request, in µs (/proc, 10 ms ticks). */
  readonly cpuMicrosPerReview: number;
  /** The server's GCs and V8 heap allocation over the run (bench/webhook/gc-probe.ts). */
  readonly gc: GcWindow;
  /** Bytes the server allocated on its V8 heap per answered request (Buffers' backing stores not counted). */
  readonly allocatedBytesPerReview: number;
  /** The server's GCs, minor and major, per 10,000 answered requests. */
  readonly gcsPer10kReviews: number;
  /** What the server's own /metrics say of the run: its review time's p99 bucket. */
  readonly server?: string;
}

/** The server-side review time of a run, from two scrapes of /metrics around it. */
function serverSide(before: Map<string, number>, after: Map<string, number>): string {
  const d = (k: string): number => (after.get(k) ?? 0) - (before.get(k) ?? 0);
  const h = "clusterwire_admission_review_duration_seconds";
  const count = d(`${h}_count`);
  const les = [...after.keys()]
    .filter((k) => k.startsWith(`${h}_bucket{le=`))
    .map((k) => k.slice(`${h}_bucket{le=`.length, -1))
    .filter((le) => le !== "+Inf")
    .sort((a, b) => Number(a) - Number(b));
  const p99 = les.find((le) => d(`${h}_bucket{le=${le}}`) >= 0.99 * count);
  return `review time in the server (body read to answer written) p99 ≤ ${p99 === undefined ? "?" : `${fix(Number(p99) * 1000, 2)} ms`}`;
}

async function withServer<T>(
  env: Env,
  cli: string,
  label: string,
  cpuProfDir: string | undefined,
  run: (server: ServerProcess) => Promise<T>,
): Promise<T> {
  const server = await startServerProcess({
    cli,
    certFile: env.certFile,
    keyFile: env.keyFile,
    logFile: join(env.dir, `${label}.log`),
    ...(cpuProfDir === undefined ? {} : { cpuProfDir }),
    ...(env.serverCpu === undefined ? {} : { cpu: env.serverCpu }),
    nodeFlags: env.nodeFlags,
  });
  let result: T;
  try {
    result = await run(server);
  } catch (e) {
    await server.stop();
    throw e;
  }
  const code = await server.stop();
  if (code !== 0) throw new Error(`the webhook (${label}) exited with ${code}`);
  return result;
}

function resultRows(results: readonly Measured[]): string {
  return table(
    [
      "run",
      "reviews/s",
      "p50 ms",
      "p99 ms",
      "p99.9 ms",
      "max ms",
      "server CPU µs/review",
      "heap KiB/review",
      "minor GCs: n, ms, longest",
      "major GCs: n, ms, longest",
      "GCs/10k reviews",
      "answered",
      "errors",
      "non-2xx",
      "wrong answers",
    ],
    results.map((r) => [
      r.title,
      int.format(r.reviewsPerSecond),
      fix(r.p50, 2),
      fix(r.p99, 2),
      fix(r.p999, 2),
      fix(r.max, 2),
      fix(r.cpuMicrosPerReview, 0),
      fix(r.allocatedBytesPerReview / 1024, 1),
      `${r.gc.minor.count}, ${fix(r.gc.minor.ms, 0)}, ${fix(r.gc.minor.maxMs, 1)}`,
      `${r.gc.major.count}, ${fix(r.gc.major.ms, 0)}, ${fix(r.gc.major.maxMs, 1)}`,
      fix(r.gcsPer10kReviews, 1),
      int.format(r.ok),
      String(r.errors),
      String(r.non2xx),
      String(r.mismatches),
    ]),
    [false, true, true, true, true, true, true, true, true, true, true, true, true, true, true],
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "10" },
      warmup: { type: "string", default: "3" },
      rates: { type: "string", default: "1000,2000,4000" },
      connections: { type: "string", default: "1,16,64" },
      cli: { type: "string" },
      compare: { type: "string" },
      rounds: { type: "string", default: "4" },
      "cpu-prof": { type: "string" },
      "node-flags": { type: "string", default: "" },
      unpinned: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const positive = (s: string, name: string): number => {
    const n = Number(s);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${JSON.stringify(s)}`);
    return n;
  };
  const duration = positive(values.duration, "duration");
  const warmup = Number(values.warmup);
  const rates = values.rates.split(",").map((r) => positive(r, "rates"));
  const rounds = positive(values.rounds, "rounds");
  const connectionCounts = values.connections.split(",").map((c) => positive(c, "connections"));
  const cli = resolve(values.cli ?? join(repoRoot(), "dist", "src", "cli", "main.js"));
  const cpuProf = values["cpu-prof"] === undefined ? undefined : resolve(values["cpu-prof"]);
  const say = (text: string): void => {
    if (!values.json) console.log(text);
  };

  const corpus = loadCorpus();
  const mix = buildMix(corpus.objects);
  const inconsistent = mix.filter((r) => (r.mutation === undefined) !== r.allowed);
  if (inconsistent.length > 0) {
    throw new Error(
      `the mix is not what it says: ${inconsistent.length} reviews whose verdict does not follow from their mutation, e.g. ${inconsistent[0]!.uid}`,
    );
  }
  say(
    `webhook bench: node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), load average at start ${load()}`,
  );
  say(`server: ${cli} (child process, logs to a file), over TLS on 127.0.0.1, HTTP/1.1 keep-alive`);
  say(describeMix(mix));

  const isolation = isolate(!values.unpinned);
  say(`isolation: ${isolation.description}`);
  const nodeFlags = values["node-flags"].split(" ").filter((f) => f !== "");
  if (nodeFlags.length > 0) say(`server node flags: ${nodeFlags.join(" ")}`);
  say("");
  const env: Env = { ...tlsEnv(), serverCpu: isolation.serverCpu, nodeFlags };
  try {
    const results: Measured[] = [];
    let checked: string[] = [];
    await withServer(env, cli, "main", cpuProf, async (server) => {
      checked = await checkAnswers(server.url, env.ca, mix);
      say(
        `answers checked: each of the ${mix.length} reviews sent once; ${mix.length - checked.length} equal to admit() in-process, ${checked.length} not`,
      );
      for (const w of checked.slice(0, 5)) say(`  ${w}`);
      if (warmup > 0) await runClosedLoop(server.url, mix, GOAL_CONNECTIONS, warmup, "warm-up");
      for (const c of connectionCounts) {
        results.push(await measured(server, env.ca, () => runClosedLoop(server.url, mix, c, duration)));
        say(`  done: ${results.at(-1)!.title} (load average ${load()})`);
      }
      for (const rate of rates) {
        results.push(
          await measured(server, env.ca, () => runFixedRate(server.url, env.ca, mix, rate, duration, 16, warmup)),
        );
        say(`  done: ${results.at(-1)!.title} (load average ${load()})`);
      }
    });
    say("");
    say(resultRows(results));
    say("");
    for (const r of results) say(`  ${r.title}: ${r.note}; server: ${r.server ?? "?"}`);

    let comparison: { main: Measured[]; other: Measured[] } | undefined;
    if (values.compare !== undefined) {
      const other = resolve(values.compare);
      comparison = { main: [], other: [] };
      say("");
      say(`comparing with ${other}: ${rounds} turns each at ${GOAL_CONNECTIONS} connections, ${duration} s per turn`);
      for (let round = 0; round < rounds; round++) {
        // Alternate which goes first, so a drift in the machine's load does not favour one.
        const order = round % 2 === 0 ? (["main", "other"] as const) : (["other", "main"] as const);
        for (const which of order) {
          const path = which === "main" ? cli : other;
          const r = await withServer(env, path, which, undefined, async (server) => {
            if (warmup > 0) await runClosedLoop(server.url, mix, GOAL_CONNECTIONS, warmup, "warm-up");
            return measured(server, env.ca, () => runClosedLoop(server.url, mix, GOAL_CONNECTIONS, duration));
          });
          comparison[which].push(r);
          say(
            `  turn ${round + 1} ${which === "main" ? "--cli    " : "--compare"}: ${int.format(r.reviewsPerSecond)} reviews/s, ` +
              `server CPU ${fix(r.cpuMicrosPerReview, 0)} µs/review, errors ${r.errors}, non-2xx ${r.non2xx}, wrong ${r.mismatches} (load average ${load()})`,
          );
        }
      }
      const { main: mine, other: theirs } = comparison;
      const ratios = (f: (r: Measured) => number): number[] => mine.map((m, i) => f(m) / f(theirs[i]!));
      const speed = ratios((r) => r.reviewsPerSecond);
      const cpu = ratios((r) => r.cpuMicrosPerReview);
      say(
        `  reviews/s, --cli / --compare, per turn: ${speed.map((r) => r.toFixed(3)).join(", ")}; median ${median(speed).toFixed(3)}`,
      );
      say(
        `  server CPU per review, --cli / --compare, per turn: ${cpu.map((r) => r.toFixed(3)).join(", ")}; median ${median(cpu).toFixed(3)} (below 1: --cli costs less)`,
      );
      // Heap bytes and GCs per review do not depend on what else runs: the steadiest of these ratios.
      const heap = ratios((r) => r.allocatedBytesPerReview);
      const gcs = ratios((r) => r.gcsPer10kReviews);
      say(
        `  server V8 heap allocated per review, --cli / --compare, per turn: ${heap.map((r) => r.toFixed(3)).join(", ")}; median ${median(heap).toFixed(3)}; ` +
          `GCs per review: median ${median(gcs).toFixed(3)}`,
      );
    }

    const at16 = results.find((r) => r.rate === undefined && r.connections === GOAL_CONNECTIONS);
    const fixed = results.find((r) => r.rate === GOAL_RATE);
    const failures = results.reduce((n, r) => n + r.errors + r.non2xx + r.mismatches, 0) + checked.length;
    const goals = [
      {
        goal: `≥ ${int.format(GOAL_THROUGHPUT)} reviews/s at ${GOAL_CONNECTIONS} keep-alive connections`,
        measured: at16 === undefined ? "not run" : `${int.format(at16.reviewsPerSecond)} reviews/s`,
        met: at16 !== undefined && at16.reviewsPerSecond >= GOAL_THROUGHPUT,
      },
      {
        goal: `p99 ≤ ${GOAL_P99_MS} ms at ${int.format(GOAL_RATE)} reviews/s`,
        measured: fixed === undefined ? "not run" : `p99 ${fix(fixed.p99, 2)} ms`,
        met: fixed !== undefined && fixed.p99 <= GOAL_P99_MS,
      },
      {
        goal: "0 errors (connection errors, timeouts, non-2xx, answers unlike admit())",
        measured: `${failures}`,
        met: failures === 0,
      },
    ];
    say("");
    say("goals of issue 15 (memory: npm run bench:webhook-memory):");
    say(
      table(
        ["goal", "measured", "met"],
        goals.map((g) => [g.goal, g.measured, g.met ? "yes" : "NO"]),
        [false, true, false],
      ),
    );
    say(`load average at the end ${load()}`);
    if (cpuProf !== undefined) say(`CPU profile of the server written to ${cpuProf}`);
    if (values.json) {
      console.log(
        JSON.stringify(
          {
            node: process.version,
            cpus: cpus().length,
            isolation: isolation.description,
            nodeFlags,
            mixSize: mix.length,
            results,
            checked,
            comparison,
            goals,
          },
          null,
          2,
        ),
      );
    }
  } finally {
    rmSync(env.dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
});
