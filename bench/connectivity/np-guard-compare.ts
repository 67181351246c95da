// `npm run bench:np-guard -- DIR` / `-- --diff BEFORE AFTER`: np-guard's netpol-analyzer beside
// clusterwire's connectivity analysis on a directory of manifests (or two), line for line, with
// the time and memory of each. `-- --random N [--seed S]`: a differential campaign on N random
// clusters (bench/connectivity/random.ts), each listed and diffed by both. np-guard comes from `npm run np-guard` (.cache/np-guard/), run
// through test/support/np-guard/run.ts; the comparison is bench/connectivity/compare.ts.
//
// Every difference is printed; each must be explained by a documented semantic choice (np-guard
// names a Pod by its controlling owner, treats hostNetwork pods as any pod, reads IPv4 only, fails
// a whole directory on one policy the API server would reject, ...). "naming" marks differences
// whose workload only one side names.
//
// Exit status: 0 when every compared line agrees, 1 when some differ, 2 on usage or a failed run.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  analyzeConnectivity,
  type ConnectionSet,
  type ConnectivityDiff,
  type ConnectivityInput,
  type ConnectivityLine,
  diffConnectivity,
} from "../../src/networking/index.js";
import {
  npGuardBinary,
  npGuardBuilt,
  npGuardDiff,
  npGuardList,
  npGuardListStream,
  npGuardVersion,
  type NpGuardDiffLine,
  type NpGuardLine,
} from "../../test/support/np-guard/run.js";
import { scenarioInput, writeScenario } from "../../test/support/np-guard/scenario.js";
import { repoRoot } from "../fixtures.js";
import { fix, int } from "../text.js";
import {
  clusterwireDiffSide,
  clusterwireListSide,
  compareSides,
  DIFF,
  LIST,
  npGuardDiffSide,
  npGuardListSide,
  type Comparison,
} from "./compare.js";
import { randomCases } from "./random.js";

const USAGE = `usage: node dist/bench/connectivity/np-guard-compare.js [options] DIR
       node dist/bench/connectivity/np-guard-compare.js [options] --diff BEFORE AFTER
  (npm run bench:np-guard -- ...)
  DIR             np-guard's list beside clusterwire's analysis of the same manifests (.yaml, .yml
                  and .json files under DIR, as np-guard reads them)
  --diff A B      np-guard's diff beside clusterwire's diff of the two directories
  --random N      a campaign: N random clusters (clusterwire/testing's arbClusterPair, kept inside
                  the semantics both share), each listed and diffed by both; a case that differs is
                  saved under .cache/np-guard-campaign/<seed>/ (manifests and differences)
  --seed S        the campaign's seed (default: the time)
  --limit N       differences printed (default 100; 0: all)
  --np-guard-only run np-guard only: its lines, time and memory
  --json          the comparison as JSON on stdout
exit status: 0 every compared line agrees, 1 some differ, 2 usage or a failed run`;

/** A measured run: wall seconds, and the maximum resident set in KiB when it could be read. */
interface Measure {
  readonly seconds: number;
  readonly maxRssKiB: number | undefined;
}

// ---------------------------------------------------------------------------------------------
// clusterwire's side: analyzeConnectivity and diffConnectivity of clusterwire/networking over what
// readTopology (clusterwire/connectivity) reads from the directory. readTopology is looked up by
// name, so the np-guard side runs alone until it is in the build.
// ---------------------------------------------------------------------------------------------

interface ManifestFile {
  readonly name: string;
  readonly text: string;
}

/** What this script needs of clusterwire/connectivity, under the name and shape of issue 29's design. */
type ReadTopology = (files: readonly ManifestFile[]) => { readonly input: ConnectivityInput };

/** clusterwire's manifest reader when this build has it; otherwise why not. */
async function loadReadTopology(): Promise<ReadTopology | string> {
  const connectivity = (await import("../../src/connectivity/index.js")) as unknown as Record<string, unknown>;
  const read = connectivity["readTopology"];
  return typeof read === "function"
    ? (read as ReadTopology)
    : "this build of clusterwire/connectivity has no readTopology";
}

const MANIFEST_EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/** The manifest files under `dir`, recursively, named by their path from `dir`, in path order. */
function readManifestDir(dir: string): ManifestFile[] {
  const files: ManifestFile[] = [];
  const walk = (folder: string): void => {
    const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const path = join(folder, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile() && MANIFEST_EXTENSIONS.has(extname(e.name).toLowerCase()))
        files.push({ name: relative(dir, path), text: readFileSync(path, "utf8") });
    }
  };
  walk(dir);
  return files;
}

/** Runs `f`, measuring wall time and this process's peak RSS (which includes what ran before). */
function measureHere<T>(f: () => T): [T, Measure] {
  const started = performance.now();
  const value = f();
  const seconds = (performance.now() - started) / 1000;
  return [value, { seconds, maxRssKiB: process.resourceUsage().maxRSS }];
}

/** clusterwire's list of `dir`: its lines, the workload keys, and the time to read and analyse. */
function clusterwireList(
  readTopology: ReadTopology,
  dir: string,
): { lines: readonly ConnectivityLine[]; workloads: string[]; measure: Measure } {
  const [analysis, measure] = measureHere(() => {
    const a = analyzeConnectivity(readTopology(readManifestDir(dir)).input);
    a.lines();
    return a;
  });
  return { lines: analysis.lines(), workloads: analysis.workloads.map((w) => w.key), measure };
}

/** clusterwire's diff of two directories. */
function clusterwireDiff(
  readTopology: ReadTopology,
  before: string,
  after: string,
): { diff: ConnectivityDiff; measure: Measure } {
  const [diff, measure] = measureHere(() =>
    diffConnectivity(readTopology(readManifestDir(before)).input, readTopology(readManifestDir(after)).input),
  );
  return { diff, measure };
}

// ---------------------------------------------------------------------------------------------
// np-guard's side.
// ---------------------------------------------------------------------------------------------

const GNU_TIME = "/usr/bin/time";

/** Runs `f` with a prefix that has GNU time write np-guard's wall time and peak RSS to a file. */
async function measureNpGuard<T>(f: (prefix: readonly string[]) => Promise<T> | T): Promise<[T, Measure]> {
  const started = performance.now();
  if (!existsSync(GNU_TIME)) {
    const value = await f([]);
    return [value, { seconds: (performance.now() - started) / 1000, maxRssKiB: undefined }];
  }
  const folder = mkdtempSync(join(tmpdir(), "np-guard-time-"));
  try {
    const out = join(folder, "time");
    const value = await f([GNU_TIME, "-f", "%e %M", "-o", out]);
    const last = readFileSync(out, "utf8").trim().split("\n").pop() ?? "";
    const [seconds, rss] = last.split(" ").map(Number);
    return [
      value,
      {
        seconds: seconds !== undefined && Number.isFinite(seconds) ? seconds : (performance.now() - started) / 1000,
        maxRssKiB: rss !== undefined && Number.isFinite(rss) ? rss : undefined,
      },
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function measureText(m: Measure): string {
  const rss = m.maxRssKiB === undefined ? "" : `, max RSS ${int.format(m.maxRssKiB / 1024)} MiB`;
  return `${fix(m.seconds, 2)} s${rss}`;
}

// ---------------------------------------------------------------------------------------------
// The report.
// ---------------------------------------------------------------------------------------------

function comparisonText(c: Comparison, limit: number): string {
  const naming = c.differences.filter((d) => d.naming).length;
  const lines = [
    `agree: ${int.format(c.samePairs)} workload pairs, ${int.format(c.sameRanges)} address ranges`,
    `differ: ${int.format(c.differences.length)}${naming > 0 ? ` (${int.format(naming)} with a workload only one side names)` : ""}`,
  ];
  if (c.workloadsOnlyNpGuard.length > 0)
    lines.push(`workloads only np-guard names: ${c.workloadsOnlyNpGuard.join(", ")}`);
  if (c.workloadsOnlyClusterwire.length > 0)
    lines.push(`workloads only clusterwire names: ${c.workloadsOnlyClusterwire.join(", ")}`);
  if (c.ingressController > 0)
    lines.push(`not compared: ${int.format(c.ingressController)} np-guard lines from the ingress controller`);
  if (c.ipv6Ranges > 0)
    lines.push(`not compared: ${int.format(c.ipv6Ranges)} IPv6 ranges of clusterwire (np-guard reads IPv4 only)`);
  const shown = limit === 0 ? c.differences : c.differences.slice(0, limit);
  for (const d of shown)
    lines.push(
      `  ${d.naming ? "[naming] " : ""}${d.from} => ${d.to}\n      np-guard:    ${d.npGuard}\n      clusterwire: ${d.clusterwire}`,
    );
  if (shown.length < c.differences.length)
    lines.push(`  ... ${c.differences.length - shown.length} more (--limit 0 prints all)`);
  return lines.join("\n");
}

function countKinds(lines: readonly { src: string; dst: string }[]): string {
  let ingress = 0;
  let external = 0;
  for (const l of lines) {
    if (l.src === "{ingress-controller}") ingress++;
    else if (/^\d/.test(l.src) || /^\d/.test(l.dst)) external++;
  }
  return `${int.format(lines.length)} lines (${int.format(lines.length - ingress - external)} workload pairs, ${int.format(external)} with addresses, ${int.format(ingress)} from the ingress controller)`;
}

/**
 * The differential campaign: `count` random cases from `seed`, each listed and diffed by np-guard
 * and by clusterwire (from the same scenario: manifests for np-guard, ConnectivityInput for
 * clusterwire). Returns 1 when any case differs, after saving it under .cache/np-guard-campaign/.
 */
function campaign(count: number, seed: number, limit: number): number {
  console.log(`np-guard netpol-analyzer ${npGuardVersion()}: campaign of ${count} random clusters, seed ${seed}`);
  console.log(`  (rerun: npm run bench:np-guard -- --random ${count} --seed ${seed})`);
  const { cases, passedOver } = randomCases(count, seed);
  for (const [why, n] of passedOver) console.log(`  passed over ${n} generated clusters with ${why}`);
  const root = mkdtempSync(join(tmpdir(), "np-guard-campaign-"));
  const saved = join(repoRoot(), ".cache", "np-guard-campaign", String(seed));
  let differing = 0;
  let lines = 0;
  let diffLines = 0;
  let npGuardSeconds = 0;
  try {
    cases.forEach((c, i) => {
      const before = join(root, `${i}`, "before");
      const after = join(root, `${i}`, "after");
      writeScenario(before, c.before);
      writeScenario(after, c.after);
      const started = performance.now();
      const list = npGuardList(before);
      const diff = npGuardDiff(before, after);
      npGuardSeconds += (performance.now() - started) / 1000;
      lines += list.length;
      diffLines += diff.length;
      const analysis = analyzeConnectivity(scenarioInput(c.before));
      const changes = diffConnectivity(scenarioInput(c.before), scenarioInput(c.after));
      const problems: string[] = [];
      if (analysis.skipped.length > 0) problems.push(`clusterwire skipped ${analysis.skipped.length} policies`);
      const listed = compareSides(
        npGuardListSide(list),
        clusterwireListSide(
          analysis.lines(),
          analysis.workloads.map((w) => w.key),
        ),
        LIST,
      );
      const diffed = compareSides(npGuardDiffSide(diff), clusterwireDiffSide(changes.changes), DIFF);
      if (listed.differences.length > 0) problems.push(`list:\n${comparisonText(listed, limit)}`);
      if (diffed.differences.length > 0) problems.push(`diff:\n${comparisonText(diffed, limit)}`);
      if (problems.length === 0) return;
      differing++;
      const dir = join(saved, `case-${i}`);
      rmSync(dir, { recursive: true, force: true });
      writeScenario(join(dir, "before"), c.before);
      writeScenario(join(dir, "after"), c.after);
      writeFileSync(join(dir, "differences.txt"), `${problems.join("\n")}\n`);
      console.log(`case ${i} differs (saved in ${dir}):\n${problems.join("\n")}`);
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log(
    `${cases.length} cases: ${cases.length - differing} agree, ${differing} differ; np-guard listed ${int.format(lines)} lines and ${int.format(diffLines)} changes in ${fix(npGuardSeconds, 1)} s`,
  );
  return differing === 0 ? 0 : 1;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      diff: { type: "boolean", default: false },
      limit: { type: "string", default: "100" },
      "np-guard-only": { type: "boolean", default: false },
      random: { type: "string" },
      seed: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const limit = Number(values.limit);
  const dirs = positionals.map((p) => resolve(p));
  const random = values.random === undefined ? undefined : Number(values.random);
  const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
  const usable =
    random === undefined
      ? dirs.length === (values.diff ? 2 : 1)
      : Number.isInteger(random) && random > 0 && dirs.length === 0;
  if (!Number.isInteger(limit) || limit < 0 || !Number.isInteger(seed) || !usable) {
    console.error(USAGE);
    return 2;
  }
  if (!npGuardBuilt()) {
    console.error(`np-guard is not built (${npGuardBinary()}): npm run np-guard`);
    return 2;
  }
  if (random !== undefined) return campaign(random, seed, limit);
  const out = (line: string): void => {
    if (!values.json) console.log(line);
  };
  out(`np-guard netpol-analyzer ${npGuardVersion()} (${npGuardBinary()})`);

  let comparison: Comparison | undefined;
  let clusterwire: Measure | undefined;
  let npGuard: Measure;
  let npGuardLines: number;
  const api = values["np-guard-only"] ? "--np-guard-only" : await loadReadTopology();
  if (values.diff) {
    const [before = "", after = ""] = dirs;
    const [lines, m] = await measureNpGuard<NpGuardDiffLine[]>((prefix) => npGuardDiff(before, after, { prefix }));
    npGuard = m;
    npGuardLines = lines.length;
    out(`np-guard diff ${before} ${after}: ${countKinds(lines)} in ${measureText(m)}`);
    if (typeof api !== "string") {
      const cw = clusterwireDiff(api, before, after);
      clusterwire = cw.measure;
      out(`clusterwire diffConnectivity: ${int.format(cw.diff.changes.length)} changes in ${measureText(cw.measure)}`);
      const workloads = [...cw.diff.before.workloads, ...cw.diff.after.workloads].map((w) => w.key);
      comparison = compareSides(npGuardDiffSide(lines), clusterwireDiffSide(cw.diff.changes, workloads), DIFF);
    } else out(`clusterwire not run: ${api}`);
  } else {
    const [dir = ""] = dirs;
    const lines: NpGuardLine[] = [];
    const [, m] = await measureNpGuard((prefix) => npGuardListStream(dir, (l) => lines.push(l), { prefix }));
    npGuard = m;
    npGuardLines = lines.length;
    out(`np-guard list ${dir}: ${countKinds(lines)} in ${measureText(m)}`);
    if (typeof api !== "string") {
      const cw = clusterwireList(api, dir);
      clusterwire = cw.measure;
      out(`clusterwire analyzeConnectivity: ${int.format(cw.lines.length)} lines in ${measureText(cw.measure)}`);
      comparison = compareSides<ConnectionSet>(
        npGuardListSide(lines),
        clusterwireListSide(cw.lines, cw.workloads),
        LIST,
      );
    } else out(`clusterwire not run: ${api}`);
  }
  if (comparison !== undefined) out(comparisonText(comparison, limit));
  if (values.json)
    console.log(
      JSON.stringify(
        { npGuard: { version: npGuardVersion(), lines: npGuardLines, ...npGuard }, clusterwire, comparison },
        null,
        2,
      ),
    );
  return comparison === undefined || comparison.differences.length === 0 ? 0 : 1;
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 2;
  },
);
