// `npm run bench:connectivity`: the scale figures of issue 29. A repository of 2,000 workloads and
// 1,000 NetworkPolicies, made of copies of real manifests (bench/connectivity/corpus.ts), is
// written to a temporary directory with a changed copy beside it; then `clusterwire reach DIR` and
// `clusterwire reach --diff BASE HEAD` run as a user runs them (a new process each, output thrown
// away), and np-guard's netpol-analyzer `list` and `diff` run on the same directories when it is
// built (`npm run np-guard`). Each command runs ROUNDS times under /usr/bin/time: the median wall
// time and the largest resident set are printed, with the ratio np-guard / clusterwire.
//
// Options: --workloads N --policies N (default 2000 and 1000), --rounds N (default 3), --seed S,
// --no-np-guard, --np-guard-rounds N (default 1: it takes minutes here), --np-guard-limit SECONDS
// (default 120: on 2,000 workloads np-guard's list grew past 15 GB in 7 minutes here, and its diff
// past 18 GB, so a longer run can exhaust the machine; a run stopped there is printed as "> 120"). Timings are what this machine did in this run; nothing asserts them.

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { npGuardBinary, npGuardBuilt } from "../../test/support/np-guard/run.js";
import { repoRoot } from "../fixtures.js";
import { fix, int, table } from "../text.js";
import { countManifests, generateCorpusDiff, writeManifestFiles } from "./corpus.js";

interface Run {
  readonly seconds: number;
  readonly maxRssMiB: number;
  readonly code: number;
  /** Stopped at the time limit. */
  readonly timedOut?: boolean;
}

const TIME = "/usr/bin/time";

/** Runs a command with its output thrown away; wall seconds and maximum RSS from GNU time. */
function measure(command: string, args: readonly string[], cwd: string, limitSeconds = 0): Run {
  const start = performance.now();
  const r = spawnSync(TIME, ["-f", "cw-maxrss %M", command, ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
    ...(limitSeconds > 0 ? { timeout: limitSeconds * 1000, killSignal: "SIGKILL" as const } : {}),
  });
  const seconds = (performance.now() - start) / 1000;
  const m = /cw-maxrss (\d+)/.exec(r.stderr ?? "");
  if (r.error !== undefined && (r.error as NodeJS.ErrnoException).code === "ETIMEDOUT") {
    // /usr/bin/time was killed with it; the child it ran goes too (same process group is not assumed).
    spawnSync("pkill", ["-KILL", "-f", command]);
    return { seconds, maxRssMiB: Number.NaN, code: -1, timedOut: true };
  }
  if (r.error !== undefined) throw r.error;
  return { seconds, maxRssMiB: m === null ? Number.NaN : Number(m[1]) / 1024, code: r.status ?? -1 };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

function rounds(n: number, f: () => Run, okCodes: readonly number[], what: string): Run {
  const runs: Run[] = [];
  for (let i = 0; i < n; i++) {
    const r = f();
    if (r.timedOut === true) return r;
    if (!okCodes.includes(r.code)) throw new Error(`${what}: exit status ${r.code} (killed, or failed)`);
    runs.push(r);
  }
  return {
    seconds: median(runs.map((r) => r.seconds)),
    maxRssMiB: Math.max(...runs.map((r) => r.maxRssMiB)),
    code: runs[0]?.code ?? -1,
  };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      workloads: { type: "string", default: "2000" },
      policies: { type: "string", default: "1000" },
      rounds: { type: "string", default: "3" },
      seed: { type: "string", default: "1" },
      "no-np-guard": { type: "boolean" },
      "np-guard-rounds": { type: "string", default: "1" },
      "np-guard-limit": { type: "string", default: "120" },
    },
  });
  if (!existsSync(TIME)) {
    process.stderr.write(`bench: ${TIME} is needed to read the peak memory of each run (Debian package "time")\n`);
    process.exit(2);
  }
  const root = repoRoot();
  const workloads = Number(values.workloads);
  const policies = Number(values.policies);
  const n = Number(values.rounds);
  const corpus = generateCorpusDiff({ workloads, policies, seed: Number(values.seed) });
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-bench-connectivity-"));
  try {
    const base = join(dir, "base");
    const head = join(dir, "head");
    writeManifestFiles(base, corpus.base);
    writeManifestFiles(head, corpus.head);
    const counts = countManifests(corpus.base);
    const bytes = corpus.base.reduce((t, f) => t + Buffer.byteLength(f.text), 0);
    process.stdout.write(
      `repository: ${int.format(counts.workloads)} workloads, ${int.format(counts.policies)} NetworkPolicies, ${int.format(corpus.base.length)} files, ${fix(bytes / 1e6, 1)} MB (head: ${corpus.changedNamespaces.length} namespace copies changed)\n`,
    );
    process.stdout.write(`node ${process.version}, ${n} rounds each; median wall time, largest resident set\n\n`);

    const cli = join(root, "dist", "src", "cli", "main.js");
    const cwList = rounds(
      n,
      () => measure(process.execPath, [cli, "reach", "-q", base, "--out", "/dev/null"], dir),
      [0],
      "reach",
    );
    const cwDiff = rounds(
      n,
      () => measure(process.execPath, [cli, "reach", "-q", "--diff", base, head, "--out", "/dev/null"], dir),
      [0, 3],
      "reach --diff",
    );
    const bin = values["no-np-guard"] === true || !npGuardBuilt(root) ? undefined : npGuardBinary(root);
    // np-guard takes minutes at this size: one round by default, stopped at a time limit.
    const ngRounds = Number(values["np-guard-rounds"]);
    const limit = Number(values["np-guard-limit"]);
    const ngList =
      bin === undefined
        ? undefined
        : rounds(
            ngRounds,
            () => measure(bin, ["list", "--dirpath", base, "-o", "csv"], dir, limit),
            [0],
            "np-guard list",
          );
    const ngDiff =
      bin === undefined
        ? undefined
        : rounds(
            ngRounds,
            () => measure(bin, ["diff", "--dir1", base, "--dir2", head, "-o", "csv"], dir, limit),
            [0],
            "np-guard diff",
          );
    const row = (what: string, cw: Run, ng: Run | undefined): string[] => [
      what,
      fix(cw.seconds, 2),
      fix(cw.maxRssMiB, 0),
      ng === undefined ? "-" : ng.timedOut === true ? `> ${limit}` : fix(ng.seconds, 2),
      ng === undefined || ng.timedOut === true ? "-" : fix(ng.maxRssMiB, 0),
      ng === undefined ? "-" : `${ng.timedOut === true ? "> " : ""}${fix(ng.seconds / cw.seconds, 1)}×`,
    ];
    process.stdout.write(
      `${table(
        ["command", "clusterwire s", "MiB", "np-guard s", "MiB", "np-guard / clusterwire"],
        [row("list", cwList, ngList), row("diff", cwDiff, ngDiff)],
        [false, true, true, true, true, true],
      )}\n`,
    );
    if (bin === undefined && values["no-np-guard"] !== true)
      process.stdout.write(
        "\nnp-guard is not built here (npm run np-guard builds it with Go): its columns are empty\n",
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
