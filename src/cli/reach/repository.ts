import {
  type Exposure,
  type Topology,
  exposedWorkloads,
  ingressControllerKey,
  readTopology,
  withIngressController,
} from "../../connectivity/index.js";
import {
  type ConnectionSet,
  type ConnectivityAnalysis,
  type ConnectivityInput,
  type ConnectivityLine,
  EvaluatorInputError,
  NO_CONNECTIONS,
  analyzeConnectivity,
  formatConnectionSet,
  intersectConnectionSets,
  isEmptyConnectionSet,
  parseConnectionSet,
  unionConnectionSets,
} from "../../networking/index.js";
import { CliError, EXIT_USAGE } from "../shared/io.js";
import { skippedLines } from "../shared/notes.js";
import type { SourceFile } from "./sources.js";

// A repository of manifests made ready for the connectivity answers: read (readTopology), with
// every document that could not be read reported at once (exit 2: an answer built on part of a
// repository could be wrong), the notes users need about what was passed over, and the ingress
// controller added as a peer when the repository has Ingresses.

/** The most problems listed at once; more are counted. */
const MAX_LISTED = 20;

/** A repository read and analysed. */
export interface Repository {
  /** Where it came from: the paths, or `REV` for a git revision. */
  readonly label: string;
  readonly topology: Topology;
  /** What was analysed: the topology's input, and the ingress controller when there are Ingresses. */
  readonly input: ConnectivityInput;
  readonly analysis: ConnectivityAnalysis;
  readonly exposures: readonly Exposure[];
  /** Notes for stderr (unless quiet): files and kinds passed over, policies left out. */
  readonly notes: readonly string[];
  /** The ingress controller's key in the analysis, when the repository has Ingresses. */
  readonly controller: string | undefined;
  /** `FILE:LINE` of a workload or policy key, for messages and SARIF. */
  locate(key: string): { readonly file: string; readonly line: number } | undefined;
}

export interface RepositoryOptions {
  readonly defaultNamespace?: string;
  readonly controllerNamespace?: string;
}

/** Reads and analyses one snapshot; a document that cannot be read is a CliError (exit 2) naming them all. */
export function loadRepository(
  label: string,
  files: readonly SourceFile[],
  options: RepositoryOptions,
  command: string,
): Repository {
  const topology = readTopology(
    files,
    options.defaultNamespace === undefined ? {} : { defaultNamespace: options.defaultNamespace },
  );
  if (topology.problems.length > 0) {
    const shown = topology.problems.slice(0, MAX_LISTED).map((p) => `  ${p.file}:${p.line}:${p.column}: ${p.message}`);
    const more =
      topology.problems.length > MAX_LISTED ? [`  ... and ${topology.problems.length - MAX_LISTED} more`] : [];
    throw new CliError(
      [
        `clusterwire ${command}: ${label}: ${topology.problems.length} ${topology.problems.length === 1 ? "document" : "documents"} could not be read, so no answer is given:`,
        ...shown,
        ...more,
      ].join("\n"),
      EXIT_USAGE,
    );
  }
  const input =
    topology.ingresses.length > 0
      ? withIngressController(
          topology.input,
          options.controllerNamespace === undefined ? {} : { namespace: options.controllerNamespace },
        )
      : topology.input;
  let analysis: ConnectivityAnalysis;
  try {
    analysis = analyzeConnectivity(input);
  } catch (e) {
    // readTopology lists every namespace its objects name, so this is a bug, not a user's mistake.
    if (e instanceof EvaluatorInputError) throw new Error(`reach: the topology's input was refused: ${e.message}`);
    throw e;
  }
  const exposures = exposedWorkloads(topology);
  const sources = new Map<string, { file: string; line: number }>();
  topology.input.workloads.forEach((w, i) => {
    const at = topology.workloadSources[i];
    if (at !== undefined) sources.set(`${w.namespace}/${w.kind}/${w.name}`, at);
  });
  topology.input.policies.forEach((p, i) => {
    const at = topology.policySources[i];
    if (at !== undefined) sources.set(`${p.metadata?.namespace || "default"}/${p.metadata?.name ?? ""}`, at);
  });
  const notes: string[] = [];
  for (const f of topology.skippedFiles) notes.push(`${f.file}: skipped: ${f.reason}`);
  for (const t of topology.templates)
    notes.push(
      `${t.file}:${t.line}: skipped: an unrendered template ({{ }}); render it first (helm template, kustomize build)`,
    );
  if (topology.ignored.length > 0) {
    const kinds = topology.ignored.map((k) => `${k.count} ${k.kind}`).join(", ");
    notes.push(`${label}: passed over kinds that neither run pods nor shape their traffic: ${kinds}`);
  }
  for (const s of analysis.skipped) {
    const at = topology.policySources[s.index];
    notes.push(...skippedLines(s, at === undefined ? "the input" : `${at.file}:${at.line}`));
  }
  const controller = topology.ingresses.length > 0 ? ingressControllerKey(options.controllerNamespace) : undefined;
  return { label, topology, input, analysis, exposures, notes, controller, locate: (key) => sources.get(key) };
}

/** Per workload, the ports Ingresses route to it (through a Service whose selector matches it). */
function routedPorts(repo: Repository): Map<string, ConnectionSet> {
  const out = new Map<string, ConnectionSet>();
  for (const e of repo.exposures) {
    if (e.kind !== "ingress" || !e.reachable) continue;
    for (const t of e.targets) {
      if (t.port === undefined) continue;
      const set = parseConnectionSet(`${t.protocol} ${t.port}`);
      out.set(t.workload, unionConnectionSets(out.get(t.workload) ?? NO_CONNECTIONS, set));
    }
  }
  return out;
}

/**
 * The repository's lines, one at a time. The ingress controller (a workload of its own namespace,
 * `ingress-controller/IngressController/ingress-controller` by default) appears only as the source
 * of what Ingresses route to, on the routed ports the policies let it reach.
 */
export function forEachRepositoryLine(repo: Repository, visit: (line: ConnectivityLine) => void): void {
  const controller = repo.controller;
  if (controller === undefined) {
    repo.analysis.forEachLine(visit);
    return;
  }
  const routed = routedPorts(repo);
  repo.analysis.forEachLine((l) => {
    if (l.to.key === controller) return;
    if (l.from.key !== controller) {
      visit(l);
      return;
    }
    const ports = routed.get(l.to.key);
    if (ports === undefined) return;
    const connections = intersectConnectionSets(l.connections, ports);
    if (!isEmptyConnectionSet(connections)) visit({ from: l.from, to: l.to, connections });
  });
}

/** The repository's lines, all at once (for the formats that need them together). */
export function repositoryLines(repo: Repository): ConnectivityLine[] {
  const out: ConnectivityLine[] = [];
  forEachRepositoryLine(repo, (l) => {
    out.push(l);
  });
  return out;
}

/** Notes on routes the policies block: an Ingress sends traffic the ingress controller may not deliver. */
export function blockedRoutes(repo: Repository): string[] {
  const controller = repo.controller;
  if (controller === undefined) return [];
  const out: string[] = [];
  for (const e of repo.exposures) {
    if (e.kind !== "ingress" || !e.reachable) continue;
    for (const t of e.targets) {
      if (t.port === undefined) continue;
      const allowed = repo.analysis.between(controller, t.workload);
      const wanted = parseConnectionSet(`${t.protocol} ${t.port}`);
      if (!isEmptyConnectionSet(intersectConnectionSets(allowed, wanted))) continue;
      const where = `${e.host ?? "*"}${e.path ?? ""}`;
      out.push(
        `Ingress ${e.ingress} routes ${where} to ${t.workload} on ${formatConnectionSet(wanted)}, but no policy lets the ingress controller reach it (${e.source.file}:${e.source.line})`,
      );
    }
  }
  return out;
}
