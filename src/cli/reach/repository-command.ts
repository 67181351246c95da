import {
  DIFF_REPORT_FORMATS,
  type Expectation,
  ExpectationFileError,
  type ExpectationResult,
  checkExpectations,
  formatExpectationResults,
  junitXml,
  parseExpectations,
  LINT_IGNORE_ANNOTATION,
  LINT_RULES,
  type LintWarning,
  type SarifLog,
  formatLintWarnings,
  lintPolicies,
  parseLintIgnore,
  sarifLog,
  LIST_REPORT_FORMATS,
  describeExplanation,
  renderConnectivityDiff,
  renderConnectivityList,
  type DiffReportFormat,
  type ListReportFormat,
} from "../../connectivity/index.js";
import {
  type ConnectivityInput,
  EvaluatorInputError,
  analyzeConnectivity,
  diffConnectivity,
  formatConnectionSet,
} from "../../networking/index.js";
import {
  CliError,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  asText,
  readInput,
  syncSink,
  usageError,
  writeOutput,
  type CliIO,
} from "../shared/io.js";
import { version } from "../shared/package.js";
import { writeNotes } from "../shared/notes.js";
import type { WalkOptions } from "../shared/walk.js";
import {
  blockedRoutes,
  loadRepository,
  forEachRepositoryLine,
  repositoryLines,
  type Repository,
  type RepositoryOptions,
} from "./repository.js";
import { parseRevisionRange, readPaths, readRevision, type SourceFile } from "./sources.js";

// `clusterwire reach` over repositories of manifests: the connectivity list of one snapshot, one
// connection explained, or what changed between two snapshots (two directories, or two git
// revisions).

/** Exit status of --diff when connectivity changed: a finding, not a failure of the tool. */
export const EXIT_CHANGED = 3;

export type RepositoryFormat = "text" | "json" | "md" | "sarif" | "dot";

export interface RepositoryRequest {
  readonly paths: readonly string[];
  readonly walk: WalkOptions;
  readonly repository: RepositoryOptions;
  readonly output: RepositoryFormat;
  readonly out: string | undefined;
  readonly quiet: boolean;
  readonly command: string;
}

/** The connectivity list of the paths, or one connection explained. */
export async function runList(
  io: CliIO,
  request: RepositoryRequest,
  explain: { readonly from: string; readonly to: string } | undefined,
): Promise<number> {
  // Mistakes on the command line are said before any file is read.
  if (explain !== undefined && request.output !== "text" && request.output !== "json")
    throw usageError("--from/--to explains one connection: --output text or json", request.command);
  const format = explain === undefined ? listFormat(request.output, request.command) : "text";
  const repo = await load(io, request.paths, request, request.paths.join(" "));
  if (explain !== undefined) {
    const from = resolveEnd(repo, explain.from, "--from", request.command);
    const to = resolveEnd(repo, explain.to, "--to", request.command);
    const why = repo.analysis.explain(from, to);
    const text =
      request.output === "json"
        ? `${JSON.stringify(why, null, 2)}\n`
        : `${why.from.key} => ${why.to.key} : ${formatConnectionSet(why.connections)}\n  ${describeExplanation(why)}\n`;
    await writeOutput(io, request.out, text);
    return EXIT_OK;
  }
  if (!request.quiet) writeNotes(io, blockedRoutes(repo));
  if (format === "text") {
    writeTextList(io, request.out, repo);
    return EXIT_OK;
  }
  const lines = repositoryLines(repo);
  await writeOutput(
    io,
    request.out,
    withNewline(
      renderConnectivityList(lines, format, { analysis: repo.analysis, title: `Connectivity of ${repo.label}` }),
    ),
  );
  return EXIT_OK;
}

/** What changed between two snapshots: exit 3 when anything did. */
export async function runDiff(
  io: CliIO,
  request: RepositoryRequest,
  sides: { readonly base: Snapshot; readonly head: Snapshot },
): Promise<number> {
  const format = diffFormat(request.output, request.command);
  const before = await loadSnapshot(io, sides.base, request);
  const after = await loadSnapshot(io, sides.head, request);
  const diff = diffConnectivity(withoutController(before), withoutController(after));
  // A git revision's files are shown as REV:path; SARIF wants the path in the repository.
  const place = (s: Snapshot, repo: Repository, key: string) => {
    const at = repo.locate(key);
    if (at === undefined || !("rev" in s) || !at.file.startsWith(`${s.rev}:`)) return at;
    return { file: at.file.slice(s.rev.length + 1), line: at.line };
  };
  const locate = (key: string, side: "before" | "after") =>
    side === "before" ? place(sides.base, before, key) : place(sides.head, after, key);
  const text = renderConnectivityDiff(diff, format, {
    title: `Connectivity changes: ${before.label} → ${after.label}`,
    locate,
    toolVersion: version(),
  });
  await writeOutput(io, request.out, withNewline(text));
  return diff.changes.length > 0 ? EXIT_CHANGED : EXIT_OK;
}

/** One side of a diff: paths on disk, or a git revision (with paths under it). */
export type Snapshot =
  | { readonly paths: readonly string[] }
  | { readonly rev: string; readonly paths: readonly string[] };

/** `--git RANGE`: the two sides; a single revision is compared with the files on disk. */
export function gitSnapshots(
  range: string,
  paths: readonly string[],
  command: string,
): { base: Snapshot; head: Snapshot } {
  const r = parseRevisionRange(range, command);
  return {
    base: { rev: r.base, paths },
    head: r.head === undefined ? { paths: paths.length > 0 ? paths : ["."] } : { rev: r.head, paths },
  };
}

async function loadSnapshot(io: CliIO, s: Snapshot, request: RepositoryRequest): Promise<Repository> {
  if ("rev" in s) {
    const files = await readRevision(io, s.rev, s.paths, request.walk, request.command);
    return build(io, s.rev, files, request);
  }
  return load(io, s.paths, request, s.paths.join(" "));
}

async function load(
  io: CliIO,
  paths: readonly string[],
  request: RepositoryRequest,
  label: string,
): Promise<Repository> {
  const notes: string[] = [];
  const files = await readPaths(io, paths, request.walk, request.command, (m) => notes.push(m));
  if (!request.quiet) writeNotes(io, notes);
  return build(io, label, files, request);
}

function build(io: CliIO, label: string, files: readonly SourceFile[], request: RepositoryRequest): Repository {
  const repo = loadRepository(label, files, request.repository, request.command);
  const skipped = repo.topology.skippedFiles;
  if (files.length > 0 && skipped.length === files.length) {
    // Nothing to answer from: most likely a wrong path, or a cluster description without its keys.
    const why =
      skipped.length === 1
        ? `${skipped[0]!.file}: ${skipped[0]!.reason}`
        : `${label}: none of ${skipped.length} files is a Kubernetes manifest`;
    throw new CliError(
      `${why}; reach reads Kubernetes manifests, or one cluster description (a map with namespaces, pods and policies)`,
      EXIT_USAGE,
    );
  }
  if (!request.quiet) writeNotes(io, repo.notes);
  if (repo.analysis.workloads.length === 0 && !request.quiet)
    writeNotes(io, [
      `${label}: no workloads found (Pods, Deployments, StatefulSets, DaemonSets, Jobs, CronJobs, ReplicaSets, ReplicationControllers)`,
    ]);
  return repo;
}

function withoutController(repo: Repository): ConnectivityInput {
  return repo.topology.input;
}

/**
 * A workload named on the command line: `namespace/kind/name`, or `namespace/name` when one
 * workload of the namespace has that name, or an IP address.
 */
function resolveEnd(repo: Repository, text: string, option: string, command: string): string {
  const all = repo.analysis.workloads;
  if (all.some((w) => w.key === text)) return text;
  const parts = text.split("/");
  if (parts.length === 2) {
    const hits = all.filter((w) => w.namespace === parts[0] && w.name === parts[1]);
    if (hits.length === 1) return hits[0]!.key;
    if (hits.length > 1)
      throw usageError(
        `${option} ${text}: several workloads have that name: ${hits.map((h) => h.key).join(", ")}`,
        command,
      );
  }
  if (parts.length === 1 && /^[0-9a-fA-F.:]+$/.test(text)) return text;
  throw usageError(
    `${option} ${text}: no such workload; give namespace/kind/name (e.g. ${all[0]?.key ?? "shop/Deployment/web"}), namespace/name, or an IP address`,
    command,
  );
}

function listFormat(output: RepositoryFormat, command: string): ListReportFormat {
  if ((LIST_REPORT_FORMATS as readonly string[]).includes(output)) return output as ListReportFormat;
  throw usageError(`--output ${output} is for --diff; a connectivity list is text, json, md, dot or html`, command);
}

function diffFormat(output: RepositoryFormat, command: string): DiffReportFormat {
  if ((DIFF_REPORT_FORMATS as readonly string[]).includes(output)) return output as DiffReportFormat;
  throw new CliError(`clusterwire ${command}: --output ${output} cannot show a diff`, EXIT_USAGE);
}

const withNewline = (s: string): string => (s.endsWith("\n") ? s : `${s}\n`);

/** `--lint`: the policy warnings, as text, JSON or SARIF; exit 0 whatever they say. */
export async function runLint(io: CliIO, request: RepositoryRequest, ignoreIds: readonly string[]): Promise<number> {
  if (request.output !== "text" && request.output !== "json" && request.output !== "sarif")
    throw usageError(`--lint writes text, json or sarif, not ${request.output}`, request.command);
  const repo = await load(io, request.paths, request, request.paths.join(" "));
  const perObject = new Map<string, readonly string[]>();
  for (const [key, annotations] of repo.topology.annotations) {
    const value = annotations[LINT_IGNORE_ANNOTATION];
    if (value !== undefined) perObject.set(key, parseLintIgnore(value));
  }
  for (const p of repo.topology.input.policies) {
    const value = p.metadata?.annotations[LINT_IGNORE_ANNOTATION];
    if (value !== undefined)
      perObject.set(`${p.metadata?.namespace || "default"}/${p.metadata?.name ?? ""}`, parseLintIgnore(value));
  }
  // The lint judges the repository alone: the ingress controller and its namespace are not the repository's.
  const input = repo.topology.input;
  const analysis = repo.controller === undefined ? repo.analysis : analyzeConnectivity(input);
  let warnings: readonly LintWarning[];
  try {
    warnings = lintPolicies(analysis, input, { ignore: { ids: ignoreIds, perObject } });
  } catch (e) {
    if (e instanceof EvaluatorInputError && e.path.startsWith("ignore.ids"))
      throw usageError(`--lint-ignore: ${e.reason}`, request.command);
    throw e;
  }
  let text: string;
  if (request.output === "json") text = `${JSON.stringify({ version: 1, warnings }, null, 2)}\n`;
  else if (request.output === "sarif") text = `${JSON.stringify(lintSarif(warnings, repo), null, 2)}\n`;
  else if (request.output === "text")
    text = warnings.length === 0 ? "no lint warnings\n" : withNewline(formatLintWarnings(warnings));
  else throw usageError(`--lint writes text, json or sarif, not ${request.output}`, request.command);
  await writeOutput(io, request.out, text);
  return EXIT_OK;
}

function lintSarif(warnings: readonly LintWarning[], repo: Repository): SarifLog {
  const used = new Set(warnings.map((w) => w.id));
  return sarifLog([
    {
      toolName: "clusterwire reach --lint",
      toolVersion: version(),
      rules: LINT_RULES.filter((r) => used.has(r.id)).map((r) => ({
        id: r.id,
        short: `${r.name}: ${r.summary}`,
        full: r.silence,
        level: "warning" as const,
      })),
      results: warnings.map((w) => {
        const key = w.policy ?? w.workload;
        const at = key === undefined ? undefined : repo.locate(key);
        return {
          ruleId: w.id,
          message: w.message,
          ...(at === undefined
            ? {}
            : { places: [{ file: at.file, line: at.line, ...(key === undefined ? {} : { object: key }) }] }),
        };
      }),
    },
  ]);
}

/**
 * Writes the text list (`FROM => TO : CONNECTIONS`, as the connectivity reports write it) as it
 * is made, a megabyte at a time, so millions of lines never sit in memory together. Hand-written
 * rather than through the reports' text renderer, for speed measured on a list of 3.6 million
 * lines (358 MB): each peer's key and each connection set's words are encoded once and copied as
 * bytes, instead of building and encoding a string per line (about 1.8 s of the run before).
 */
function writeTextList(io: CliIO, out: string | undefined, repo: Repository): void {
  const sink = syncSink(io, out);
  // Per peer, its key with the separator after it (as a source and as a destination); per
  // connection set, its words and the newline. Each encoded once, then copied with set().
  const sources = new Map<object, Uint8Array>();
  const destinations = new Map<object, Uint8Array>();
  const words = new Map<object, Uint8Array>();
  const bytesOf = (cache: Map<object, Uint8Array>, thing: object, text: () => string): Uint8Array => {
    let b = cache.get(thing);
    if (b === undefined) {
      b = Buffer.from(text(), "utf8");
      cache.set(thing, b);
    }
    return b;
  };
  const buffer = new Uint8Array(CHUNK);
  let at = 0;
  const flush = (): void => {
    // A copy: the sink may keep what it is given (a test's), and the buffer is reused.
    if (at > 0) sink.write(buffer.slice(0, at));
    at = 0;
  };
  const put = (b: Uint8Array): void => {
    if (at + b.length > CHUNK) flush();
    if (b.length > CHUNK) sink.write(b);
    else {
      buffer.set(b, at);
      at += b.length;
    }
  };
  try {
    forEachRepositoryLine(repo, (l) => {
      put(bytesOf(sources, l.from, () => `${l.from.key} => `));
      put(bytesOf(destinations, l.to, () => `${l.to.key} : `));
      put(bytesOf(words, l.connections, () => `${formatConnectionSet(l.connections)}\n`));
    });
    flush();
  } finally {
    sink.close();
  }
}

const CHUNK = 1 << 20;

/** `--expect FILE`: the expectations judged; exit 1 when one fails, 2 when the file is wrong. */
export async function runExpect(
  io: CliIO,
  request: RepositoryRequest,
  file: string,
  junit: string | undefined,
): Promise<number> {
  if (request.output !== "text" && request.output !== "json")
    throw usageError(`--expect writes text or json (and JUnit with --junit), not ${request.output}`, request.command);
  const text = asText(await readInput(io, file), "yaml", EXIT_USAGE);
  let expectations: Expectation[];
  try {
    expectations = parseExpectations(text, file);
  } catch (e) {
    if (e instanceof ExpectationFileError) throw new CliError(e.message, EXIT_USAGE);
    throw e;
  }
  const repo = await load(io, request.paths, request, request.paths.join(" "));
  let results: readonly ExpectationResult[];
  try {
    results = checkExpectations(repo.analysis, expectations, { input: repo.input });
  } catch (e) {
    if (e instanceof ExpectationFileError) throw new CliError(e.message, EXIT_USAGE);
    throw e;
  }
  if (junit !== undefined)
    await writeOutput(io, junit, junitXml(results, { suiteName: `clusterwire reach --expect ${file}` }));
  let out: string;
  if (request.output === "json") out = `${JSON.stringify({ version: 1, results }, null, 2)}\n`;
  else if (request.output === "text") out = withNewline(formatExpectationResults(results));
  else
    throw usageError(`--expect writes text or json (and JUnit with --junit), not ${request.output}`, request.command);
  await writeOutput(io, request.out, out);
  return results.every((r) => r.passed) ? EXIT_OK : EXIT_FAILURE;
}
