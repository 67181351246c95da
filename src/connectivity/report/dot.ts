// The DOT (Graphviz) reports: workloads as boxes in a cluster per namespace, addresses outside
// the cluster as ellipses, an edge per connection labelled with what it allows; for a diff, the
// changed edges only, coloured by kind.

import {
  formatConnectionSet,
  type ConnectivityDiff,
  type ConnectivityLine,
  type ConnectivityPeer,
} from "../../networking/index.js";

type WorkloadPeer = Extract<ConnectivityPeer, { type: "workload" }>;

/**
 * Options of {@link connectivityListDot}.
 *
 * @example
 * ```ts
 * import type { DotOptions } from "clusterwire/connectivity";
 *
 * const options: DotOptions = { name: "shop" };
 * ```
 */
export interface DotOptions {
  /** The graph's name (default `connectivity`). */
  readonly name?: string;
  /**
   * Workloads to draw even when no line has them (an analysis's `workloads`: those that nothing
   * may reach and that reach nothing then show too).
   */
  readonly workloads?: readonly WorkloadPeer[];
}

/**
 * A connectivity list as a DOT digraph: a box per workload (labelled `kind/name`) in a
 * `cluster_NAMESPACE` subgraph per namespace, an ellipse per set of addresses outside the
 * cluster (its CIDRs, a line each), and an edge per line labelled with its connections. Every id
 * and label is quoted, with `"` and `\` escaped.
 *
 * @example
 * ```ts
 * import { connectivityListDot } from "clusterwire/connectivity";
 * import { analyzeConnectivity } from "clusterwire/networking";
 *
 * const analysis = analyzeConnectivity({
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web" },
 *     { namespace: "shop", kind: "Deployment", name: "api" },
 *   ],
 *   policies: [],
 * });
 * console.log(connectivityListDot(analysis.lines(), { workloads: analysis.workloads })); // dot -Tsvg
 * ```
 */
export function connectivityListDot(lines: readonly ConnectivityLine[], options: DotOptions = {}): string {
  const graph = new Graph();
  for (const w of options.workloads ?? []) graph.node(w, "");
  const edges: string[] = [];
  for (const line of lines) {
    edges.push(
      `  ${graph.node(line.from, "")} -> ${graph.node(line.to, "")} [label=${quote(formatConnectionSet(line.connections))}];\n`,
    );
  }
  return graph.render(options.name ?? "connectivity", edges);
}

/**
 * A diff as a DOT digraph: the workloads and addresses at the ends of changes, and the workloads
 * added (green) and removed (red, dashed), laid out as {@link connectivityListDot} does, with an
 * edge per change: added green (labelled with the connections after), removed red and dashed
 * (the connections before), changed orange (`BEFORE -> AFTER`). Unchanged connections are left
 * out.
 *
 * @example
 * ```ts
 * import { connectivityDiffDot } from "clusterwire/connectivity";
 * import { diffConnectivity } from "clusterwire/networking";
 *
 * const namespaces = [{ name: "shop" }];
 * const web = { namespace: "shop", kind: "Deployment", name: "web" };
 * const api = { namespace: "shop", kind: "Deployment", name: "api" };
 * const diff = diffConnectivity({ namespaces, workloads: [web], policies: [] }, { namespaces, workloads: [web, api], policies: [] });
 * console.log(connectivityDiffDot(diff));
 * ```
 */
export function connectivityDiffDot(diff: ConnectivityDiff, options: { readonly name?: string } = {}): string {
  const graph = new Graph();
  const added = new Set(diff.addedWorkloads);
  const removed = new Set(diff.removedWorkloads);
  const style = (peer: ConnectivityPeer): string => {
    if (added.has(peer.key)) return ", color=darkgreen, fontcolor=darkgreen";
    if (removed.has(peer.key)) return ", color=red, fontcolor=red, style=dashed";
    return "";
  };
  for (const w of [...diff.before.workloads, ...diff.after.workloads]) {
    if (added.has(w.key) || removed.has(w.key)) graph.node(w, style(w));
  }
  const edges: string[] = [];
  for (const c of diff.changes) {
    const ends = `${graph.node(c.from, style(c.from))} -> ${graph.node(c.to, style(c.to))}`;
    const before = formatConnectionSet(c.before);
    const after = formatConnectionSet(c.after);
    if (c.kind === "added") {
      edges.push(`  ${ends} [label=${quote(after)}, color=darkgreen, fontcolor=darkgreen];\n`);
    } else if (c.kind === "removed") {
      edges.push(`  ${ends} [label=${quote(before)}, color=red, fontcolor=red, style=dashed];\n`);
    } else {
      edges.push(`  ${ends} [label=${quote(`${before} -> ${after}`)}, color=orange, fontcolor=darkorange];\n`);
    }
  }
  return graph.render(options.name ?? "connectivity_diff", edges);
}

/**
 * A DOT quoted string: `"` and `\` escaped, line breaks as `\n` (a line break in a label). In
 * an id the same escaping keeps distinct texts distinct.
 *
 * @example
 * ```ts
 * import { dotQuote } from "clusterwire/connectivity";
 *
 * console.log(dotQuote('say "hi"')); // "say \"hi\""
 * ```
 */
export function dotQuote(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  return `"${text.replace(/[\\"]/g, "\\$&").replace(/\r\n|\r|\n/g, "\\n")}"`;
}

const NEEDS_ESCAPE = /[\\"\r\n]/;

const quote = dotQuote;

/** The nodes met so far, by namespace (in order of first sight), and the external ones. */
class Graph {
  private readonly clusters = new Map<string, string[]>();
  private readonly external: string[] = [];

  /** The quoted id of each node declared, by `w:` or `x:` and the peer's key. */
  private readonly ids = new Map<string, string>();

  /** The node's id, declaring it the first time with its attributes. */
  node(peer: ConnectivityPeer, attributes: string): string {
    const name = `${peer.type === "workload" ? "w" : "x"}:${peer.key}`;
    const known = this.ids.get(name);
    if (known !== undefined) return known;
    const id = quote(name);
    this.ids.set(name, id);
    if (peer.type === "workload") {
      let nodes = this.clusters.get(peer.namespace);
      if (nodes === undefined) {
        nodes = [];
        this.clusters.set(peer.namespace, nodes);
      }
      nodes.push(`${id} [label=${quote(`${peer.kind}/${peer.name}`)}${attributes}];`);
    } else {
      const cidrs = peer.ranges.flatMap((r) => r.cidrs);
      this.external.push(
        `${id} [shape=ellipse, label=${quote((cidrs.length > 0 ? cidrs : [peer.key]).join("\n"))}${attributes}];`,
      );
    }
    return id;
  }

  render(name: string, edges: readonly string[]): string {
    let out = `digraph ${quote(name)} {\n  rankdir=LR;\n  node [shape=box];\n`;
    for (const [namespace, nodes] of this.clusters) {
      out += `  subgraph ${quote(`cluster_${namespace}`)} {\n    label=${quote(namespace)};\n`;
      for (const node of nodes) out += `    ${node}\n`;
      out += "  }\n";
    }
    for (const node of this.external) out += `  ${node}\n`;
    return `${out}${edges.join("")}}\n`;
  }
}
