import {
  EvaluatorInputError,
  formatFieldError,
  kindOf,
  PROTOCOLS,
  type Decision,
  type Endpoint,
  type NetworkPolicy,
  type PolicyEngine,
  type Protocol,
  type SkippedObject,
} from "../../networking/index.js";
import {
  clusterEngine,
  loadClusterFile,
  policySource,
  type ClusterFile,
  type ExtraPolicy,
} from "../shared/cluster-file.js";
import { onlyInput, parseCommandLine, type Command } from "../shared/command.js";
import { EXPLAIN_LIMIT, renderHeatmapHtml } from "./heatmap.js";
import {
  EXIT_OK,
  EXIT_USAGE,
  asText,
  inputPath,
  readInput,
  usageError,
  writeOutput,
  type CliIO,
} from "../shared/io.js";
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import {
  type RepositoryFormat,
  type RepositoryRequest,
  gitSnapshots,
  runDiff,
  runExpect,
  runLint,
  runList,
} from "./repository-command.js";
import { loadManifestObjects } from "../shared/manifests.js";
import { writeNotes } from "../shared/notes.js";
import {
  explainDecision,
  hostNetworkPods,
  leftOutNotes,
  skippedNotes,
  summaryLine,
  truthGrid,
} from "../shared/reach-text.js";
import { jsonText } from "../shared/render.js";

const NAME = "reach";

const HELP = `Usage: clusterwire reach [options] DIR|FILE...
       clusterwire reach --diff [options] BASE HEAD
       clusterwire reach --git REV1..REV2 [options] [PATH...]
       clusterwire reach --expect FILE [--junit FILE] [options] DIR|FILE...
       clusterwire reach --lint [options] DIR|FILE...
       clusterwire reach [options] CLUSTER.yaml

Who may connect to whom under the NetworkPolicies of a repository of
manifests (see docs/connectivity.md in the package). reach reads what
validate reads: Pods, and the pod templates of Deployments, ReplicaSets,
StatefulSets, DaemonSets, Jobs, CronJobs and ReplicationControllers (each
one workload, named namespace/kind/name), Namespaces, Services, Ingresses
and NetworkPolicies; other kinds are passed over with a note. Render Helm
charts and kustomizations first (helm template, kustomize build).

With no mode it lists every allowed connection, FROM => TO : CONNECTIONS,
between workloads and between workloads and address ranges outside the
cluster (cut where the policies' ipBlocks cut them), and the workloads
Ingresses and NodePort or LoadBalancer Services expose.

Modes:
  --from W --to W       explain one connection: W is namespace/kind/name,
                        namespace/name, or an IP address
  --diff BASE HEAD      what changed between two directories (or files):
                        connections added, removed and changed, each with the
                        policies that explain it
  --git REV1..REV2      the same between two revisions of the git repository
                        in the current directory, read with git (no checkout);
                        REV alone compares REV with the files on disk. PATHs
                        (default: the current directory) limit what is read
  --expect FILE         judge the expectations in FILE (see "Expectations
                        that fail CI" in docs/connectivity.md); exit 1
                        when one fails
  --junit FILE          with --expect: also write the results as JUnit XML
  --lint                warnings about the policies (ids CW1001-CW1006, see
                        docs/connectivity.md#policy-lint); exit 0 whatever
                        they say
  --lint-ignore ID      leave out one lint id; may be repeated

Options:
  -o, --output FORMAT   text (default), json, md (Markdown, for a pull-request
                        comment), sarif (--diff, --git and --lint), or dot
                        (Graphviz); --expect writes text or json
  --out FILE            where to write the output (- for standard output)
  --include GLOB        in directories, read only files whose path matches
  --exclude GLOB        in directories, leave out matching files and
                        directories; both may be repeated
  --namespace NS        the namespace of objects that name none (default
                        "default", as kubectl apply without -n)
  --ingress-controller-namespace NS
                        where the ingress controller runs, for the policies
                        that admit it (default "ingress-controller": a
                        namespace no policy of the repository selects by name)
  -q, --quiet           no notes on stderr (files and kinds passed over,
                        policies left out)
  -h, --help            show this help

Exit status: 0 the answer was given (and with --diff, nothing changed),
1 an expectation failed, 2 usage error, or a file that cannot be read (every
document that cannot be read is named with its line and column), 3 with
--diff or --git: connectivity changed.

A CLUSTER.yaml cluster description (namespaces, pods with addresses, and
policies in one file: docs/cli.md#cluster-descriptions) is still read as
before, with these options:
  --port PORT           destination port (default 80); with --from/--to it
                        may be a port name of the destination pod
  --protocol TCP|UDP|SCTP
                        (default TCP)
  --from POD|IP --to POD|IP
                        explain one connection
  -o, --output text|json|html
                        the truth table for one port, a row per source pod,
                        a column per destination pod; json: {protocol, port,
                        pods, table, skipped}; html: a heatmap, to --out
  --policies FILE|DIR   more NetworkPolicy manifests; may be repeated

Examples:
  clusterwire reach node_modules/clusterwire/examples/connectivity/main
  clusterwire reach --lint node_modules/clusterwire/examples/connectivity/main
  clusterwire reach --expect node_modules/clusterwire/examples/connectivity/expectations.yaml node_modules/clusterwire/examples/connectivity/main
  clusterwire reach node_modules/clusterwire/examples/clusters/shop.yaml --port 8080
  clusterwire reach node_modules/clusterwire/examples/clusters/shop.yaml --from shop/checkout-84c2 --to 203.0.113.10 --port 443`;

type Output = "text" | "json" | "html";

/** Options of the repository mode that a cluster description cannot take. */
const REPOSITORY_ONLY = [
  "junit",
  "lint-ignore",
  "include",
  "exclude",
  "namespace",
  "ingress-controller-namespace",
] as const;

/** Options of the cluster-description mode that a repository cannot take. */
const CLUSTER_ONLY = ["port", "protocol", "policies"] as const;

/**
 * Whether a single input is a cluster description rather than a manifest: a file (or standard
 * input) whose top level has namespaces, pods or policies and no kind, as no manifest does.
 */
async function isClusterDescription(io: CliIO, path: string): Promise<boolean> {
  if (path === "-") return true;
  let info: Stats;
  try {
    info = await stat(resolve(io.cwd ?? process.cwd(), path));
  } catch {
    return false; // the repository reader names the missing path
  }
  if (!info.isFile()) return false;
  const text = asText(await readInput(io, path), "yaml", EXIT_USAGE);
  return /^(?:namespaces|pods|policies)\s*:/m.test(text) && !/^kind\s*:/m.test(text);
}

async function runRepository(
  io: CliIO,
  values: Record<string, string | boolean | string[] | undefined>,
  positionals: readonly string[],
): Promise<number> {
  for (const option of CLUSTER_ONLY) {
    if (values[option] !== undefined)
      throw usageError(
        `--${option} is for a cluster description (CLUSTER.yaml); a repository's list has every port`,
        NAME,
      );
  }
  const str = (k: string): string | undefined => (typeof values[k] === "string" ? (values[k] as string) : undefined);
  const list = (k: string): string[] | undefined => (Array.isArray(values[k]) ? (values[k] as string[]) : undefined);
  const output = parseRepositoryOutput(str("output"));
  const include = list("include");
  const exclude = list("exclude");
  const namespace = str("namespace");
  const controller = str("ingress-controller-namespace");
  const request: RepositoryRequest = {
    paths: positionals,
    walk: { ...(include !== undefined ? { include } : {}), ...(exclude !== undefined ? { exclude } : {}) },
    repository: {
      ...(namespace !== undefined ? { defaultNamespace: namespace } : {}),
      ...(controller !== undefined ? { controllerNamespace: controller } : {}),
    },
    output,
    out: str("out"),
    quiet: values["quiet"] === true,
    command: NAME,
  };
  const from = str("from");
  const to = str("to");
  if ((from === undefined) !== (to === undefined))
    throw usageError("--from and --to go together: give both to explain one connection", NAME);
  const git = str("git");
  if (values["diff"] === true || git !== undefined) {
    if (from !== undefined)
      throw usageError("--from/--to explain one connection of one snapshot; leave out --diff and --git", NAME);
    if (values["diff"] === true && git !== undefined)
      throw usageError("--diff takes two paths, --git two revisions: give one of them", NAME);
    if (git !== undefined) return runDiff(io, request, gitSnapshots(git, positionals, NAME));
    if (positionals.length !== 2)
      throw usageError(`--diff takes two paths, BASE and HEAD, got ${positionals.length}`, NAME);
    return runDiff(io, request, { base: { paths: [positionals[0]!] }, head: { paths: [positionals[1]!] } });
  }
  if (positionals.length === 0)
    throw usageError("give a directory or files of manifests (or - for standard input)", NAME);
  const expectFile = str("expect");
  const junit = str("junit");
  if (junit !== undefined && expectFile === undefined) throw usageError("--junit goes with --expect", NAME);
  if (expectFile !== undefined) {
    if (from !== undefined || values["lint"] === true)
      throw usageError("--expect judges its own file; leave out --from/--to and --lint", NAME);
    return runExpect(io, request, expectFile, junit);
  }
  const ignore = list("lint-ignore");
  if (ignore !== undefined && values["lint"] !== true) throw usageError("--lint-ignore goes with --lint", NAME);
  if (values["lint"] === true) {
    if (from !== undefined) throw usageError("--lint judges the policies; leave out --from/--to", NAME);
    return runLint(io, request, ignore ?? []);
  }
  return runList(io, request, from !== undefined && to !== undefined ? { from, to } : undefined);
}

function parseRepositoryOutput(value: string | undefined): RepositoryFormat {
  if (value === undefined) return "text";
  if (value === "text" || value === "json" || value === "md" || value === "sarif" || value === "dot") return value;
  throw usageError(`--output must be text, json, md, sarif or dot, got ${JSON.stringify(value)}`, NAME);
}

export const reachCommand: Command = {
  name: NAME,
  summary:
    "who may connect to whom under NetworkPolicies: a repository's connectivity, its changes, expectations and lint",
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandLine(
      NAME,
      HELP,
      {
        port: { type: "string" },
        protocol: { type: "string" },
        from: { type: "string" },
        to: { type: "string" },
        output: { type: "string", short: "o" },
        out: { type: "string" },
        policies: { type: "string", multiple: true },
        quiet: { type: "boolean", short: "q" },
        diff: { type: "boolean" },
        git: { type: "string" },
        expect: { type: "string" },
        junit: { type: "string" },
        lint: { type: "boolean" },
        "lint-ignore": { type: "string", multiple: true },
        include: { type: "string", multiple: true },
        exclude: { type: "string", multiple: true },
        namespace: { type: "string" },
        "ingress-controller-namespace": { type: "string" },
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    const repositoryMode =
      values.diff === true ||
      values.git !== undefined ||
      values.expect !== undefined ||
      values.lint === true ||
      positionals.length !== 1 ||
      !(await isClusterDescription(io, positionals[0] ?? ""));
    if (repositoryMode) return runRepository(io, values, positionals);
    for (const option of REPOSITORY_ONLY) {
      if (values[option] !== undefined)
        throw usageError(`--${option} reads a repository of manifests, not a cluster description`, NAME);
    }
    const output = parseReachOutput(values.output);
    const protocol = parseProtocol(values.protocol);
    const quiet = values.quiet === true;
    const single = values.from !== undefined || values.to !== undefined;
    if (single && (values.from === undefined || values.to === undefined))
      throw usageError("--from and --to go together: give both to explain one connection", NAME);
    if (single && output === "html")
      throw usageError("--output html draws the truth table; leave out --from/--to", NAME);
    if (output === "html" && values.out === undefined)
      throw usageError("--output html needs --out FILE (or --out - for standard output)", NAME);
    const port = parsePort(values.port ?? "80", single);
    const path = inputPath(io, onlyInput(NAME, positionals), NAME);

    const cluster = await loadClusterFile(io, path);
    const extra = values.policies === undefined ? [] : await loadExtraPolicies(io, values.policies, quiet);
    const engine = clusterEngine(cluster, extra);
    const skipped = skippedNotes(engine, cluster, extra);
    if (!quiet) writeNotes(io, skipped);

    if (single) {
      const from = endpoint(values.from ?? "");
      const to = endpoint(values.to ?? "");
      const decision = evaluate(engine, { from, to, protocol, port });
      const text =
        output === "json"
          ? `${jsonText({ ...decision, skipped: skippedJson(decision.skipped, cluster, extra) })}\n`
          : `${[
              ...explainDecision(cluster, values.from ?? "", values.to ?? "", port, decision),
              ...leftOutNotes(decision.skipped, cluster, extra),
            ].join("\n")}\n`;
      await writeOutput(io, values.out, text);
      return EXIT_OK;
    }
    // parsePort allows a name only with --from/--to.
    if (typeof port !== "number") throw new TypeError("port name in table mode");
    const matrix = engine.matrix({ protocol, port });
    if (output === "json") {
      const table = engine.truthTable({ protocol, port });
      const body = { protocol, port, pods: engine.pods, table, skipped: skippedJson(table.skipped, cluster, extra) };
      await writeOutput(io, values.out, `${jsonText(body)}\n`);
    } else if (output === "html") {
      const pods = engine.pods;
      const html = renderHeatmapHtml({
        title: `${cluster.name}: ${protocol} port ${port}`,
        matrix,
        ...(pods.length <= EXPLAIN_LIMIT
          ? {
              explain: (f: number, t: number) =>
                engine.evaluate({ from: { pod: pods[f] ?? "" }, to: { pod: pods[t] ?? "" }, protocol, port }),
            }
          : {}),
        skipped,
      });
      await writeOutput(io, values.out, html);
      if (!quiet && values.out !== "-")
        io.stderr.write(`clusterwire: wrote ${values.out ?? ""}: ${summaryLine(matrix)}\n`);
    } else {
      const colour = useColour(io);
      const lines = [
        ...truthGrid(matrix, hostNetworkPods(cluster), colour && values.out === undefined),
        ...leftOutNotes(matrix.skipped, cluster, extra),
      ];
      await writeOutput(io, values.out, `${lines.join("\n")}\n`);
    }
    return EXIT_OK;
  },
};

function parseReachOutput(value: string | undefined): Output {
  if (value === undefined) return "text";
  if (value === "text" || value === "json" || value === "html") return value;
  throw usageError(`--output must be text, json or html, got ${JSON.stringify(value)}`, NAME);
}

function parseProtocol(value: string | undefined): Protocol {
  if (value === undefined) return "TCP";
  const p = value.toUpperCase();
  if ((PROTOCOLS as readonly string[]).includes(p)) return p as Protocol;
  throw usageError(`--protocol must be one of ${PROTOCOLS.join(", ")}, got ${JSON.stringify(value)}`, NAME);
}

/** A number 1..65535; with --from/--to a port name of the destination pod is allowed too (E9). */
function parsePort(value: string, nameAllowed: boolean): number | string {
  if (/^\d+$/.test(value)) {
    const n = Number(value);
    if (n >= 1 && n <= 65535) return n;
    throw usageError(`--port must be from 1 to 65535, got ${value}`, NAME);
  }
  if (value === "") throw usageError("--port must not be empty", NAME);
  if (!nameAllowed)
    throw usageError(
      `--port must be a number for the truth table, got ${JSON.stringify(value)}; a port name is resolved on one destination pod, so it needs --from and --to`,
      NAME,
    );
  return value;
}

/** `namespace/name` is a pod; anything else is taken as an address. */
function endpoint(value: string): Endpoint {
  return value.includes("/") ? { pod: value } : { ip: value };
}

const CONNECTION_OPTIONS: Record<string, string> = {
  "connection.from": "--from",
  "connection.to": "--to",
  "connection.port": "--port",
  "connection.protocol": "--protocol",
};

/** The engine's complaints about the connection are usage errors naming the option. */
function evaluate(
  engine: PolicyEngine,
  connection: { from: Endpoint; to: Endpoint; protocol: Protocol; port: number | string },
): Decision {
  try {
    return engine.evaluate(connection);
  } catch (e) {
    if (!(e instanceof EvaluatorInputError)) throw e;
    const key = Object.keys(CONNECTION_OPTIONS).find((k) => e.path === k || e.path.startsWith(`${k}.`));
    const option = key === undefined ? e.path : CONNECTION_OPTIONS[key];
    let reason = e.reason;
    if (e.path.endsWith(".ip")) reason = `${reason}; give a pod as namespace/name, or an IP address`;
    throw usageError(`${option}: ${reason}`, NAME);
  }
}

async function loadExtraPolicies(io: CliIO, paths: readonly string[], quiet: boolean): Promise<ExtraPolicy[]> {
  const loaded = await loadManifestObjects(io, paths, NAME, quiet);
  const out: ExtraPolicy[] = [];
  const ignored = new Map<string, number>();
  for (const { object, source } of loaded.objects) {
    const kind = kindOf(object).kind;
    if (kind === "NetworkPolicy") out.push({ policy: object as NetworkPolicy, source });
    else ignored.set(kind, (ignored.get(kind) ?? 0) + 1);
  }
  if (!quiet) {
    for (const [kind, n] of ignored)
      io.stderr.write(
        `clusterwire: ignored ${n} ${kind} ${n === 1 ? "object" : "objects"} in --policies: reach reads NetworkPolicies\n`,
      );
    const n = loaded.watchEvents.length;
    if (n > 0)
      io.stderr.write(
        `clusterwire: ignored ${n} watch ${n === 1 ? "event" : "events"} in --policies: a watch stream is a history, not a set of objects\n`,
      );
  }
  return out;
}

/** The policies an answer was computed without, as the JSON outputs give them: located, errors as the API server words them. */
function skippedJson(
  skipped: readonly SkippedObject[],
  cluster: ClusterFile,
  extra: readonly ExtraPolicy[],
): unknown[] {
  return skipped.map((s) => ({
    kind: s.kind,
    name: s.name,
    source: policySource(cluster, extra, s.index),
    errors: s.errors.map(formatFieldError),
  }));
}

// ------------------------------------------------------------------ the truth table

/** Colour only on a terminal, and never when NO_COLOR is set (no-color.org) or TERM is dumb. */
function useColour(io: CliIO): boolean {
  const env = io.env ?? process.env;
  return io.stdout.isTTY === true && (env["NO_COLOR"] ?? "") === "" && env["TERM"] !== "dumb";
}
