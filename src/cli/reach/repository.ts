import {
  type Exposure,
  INGRESS_CONTROLLER_KEY,
  type Topology,
  exposedWorkloads,
  readTopology,
  withIngressController,
} from "../../connectivity/index.js";
import {
  type ConnectivityAnalysis,
  type ConnectivityInput,
  type ConnectivityLine,
  EvaluatorInputError,
  analyzeConnectivity,
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
  return { label, topology, input, analysis, exposures, notes, locate: (key) => sources.get(key) };
}

/** The repository's own lines: none from or to the ingress controller, which exposure lines stand for. */
export function repositoryLines(repo: Repository): ConnectivityLine[] {
  return repo.analysis
    .lines()
    .filter((l) => l.from.key !== INGRESS_CONTROLLER_KEY && l.to.key !== INGRESS_CONTROLLER_KEY);
}
