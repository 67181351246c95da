import {
  EvaluatorInputError,
  formatFieldError,
  kindOf,
  type Decision,
  type Endpoint,
  type NetworkPolicy,
  type PolicyEngine,
  type Protocol,
  type SkippedObject,
} from "../../networking/index.js";
import { PROTOCOLS } from "../../networking/evaluate/policy/types.js";
import {
  clusterEngine,
  loadClusterFile,
  policySource,
  type ClusterFile,
  type ExtraPolicy,
} from "../shared/cluster-file.js";
import { onlyInput, parseCommandLine, type Command } from "../shared/command.js";
import { EXPLAIN_LIMIT, renderHeatmapHtml } from "./heatmap.js";
import { EXIT_OK, inputPath, usageError, writeOutput, type CliIO } from "../shared/io.js";
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

const HELP = `Usage: clusterwire reach [options] CLUSTER.yaml
       clusterwire reach --from POD|IP --to POD|IP --port PORT [options] CLUSTER.yaml

Which pods may connect to which under the cluster's NetworkPolicies
(see docs/network-policy.md in the package). CLUSTER.yaml describes namespaces, pods
and policies (see docs/cli.md#cluster-descriptions in the package, and
examples/clusters/shop.yaml).

Without --from/--to it prints the truth table for one protocol and port:
a row per source pod, a column per destination pod (numbered as the rows),
✓ allowed and · denied, and a count of the allowed pairs.
With --from and --to it explains one connection: allow or deny, and for
each direction (egress judged on the source, ingress on the destination)
the verdict and the policies and rules that decided it.

Options:
  --port PORT           destination port (default 80); with --from/--to it
                        may be a port name of the destination pod
  --protocol TCP|UDP|SCTP
                        (default TCP)
  --from POD|IP         the source: namespace/name of a pod, or an address
  --to POD|IP           the destination, likewise
  -o, --output text|json|html
                        text (default); json: the truth table as
                        {protocol, port, pods, table, skipped} (table[from][to]
                        is "allow" or "deny"), or the connection's Decision
                        with its skipped policies; html: the truth table as a
                        self-contained heatmap, written to --out
  --out FILE            where to write the output (- for standard output);
                        required with --output html
  --policies FILE|DIR   more NetworkPolicy manifests, added after the file's
                        own; may be repeated
  -q, --quiet           no notes on stderr (skipped policies, ignored kinds)
  -h, --help            show this help

Policies the API server would reject take no part, nor does a second
policy with the same namespace/name. Every answer says so: the text ends
with a "left out:" line per policy, the JSON has them in "skipped" and the
heatmap shows them; stderr lists them with the API server's errors.
Every policy, like every pod, must be in a namespace the file lists.

Exit status: 0 the evaluation ran, whether the connection is allowed or
denied (a deny is an answer, not a failure), 2 usage error, or a cluster
file or policy file that cannot be read or is not valid (its line and
column are named).

Examples:
  clusterwire reach node_modules/clusterwire/examples/clusters/shop.yaml --port 8080
  clusterwire reach node_modules/clusterwire/examples/clusters/shop.yaml --from shop/checkout-84c2 --to 203.0.113.10 --port 443
  clusterwire reach node_modules/clusterwire/examples/clusters/shop.yaml --port 5432 --output html --out reach.html`;

type Output = "text" | "json" | "html";

export const reachCommand: Command = {
  name: NAME,
  summary: "which pods may connect under NetworkPolicies: a truth table, or one connection explained",
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
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
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
