// SARIF 2.1.0 logs: a generic builder (rules, results located in files) that connectivity changes,
// lint warnings and failed expectations share, and the run for a diff.

import {
  isEmptyConnectionSet,
  type ConnectionExplanation,
  type ConnectivityChange,
  type ConnectivityDiff,
  type ConnectivityPeer,
} from "../../networking/index.js";
import { describeChange, explainConnectivityChange, type SnapshotExplanation } from "./explain.js";
import { changeLine } from "./text.js";

/**
 * The SARIF 2.1.0 schema that {@link sarifLog}'s logs name in `$schema`.
 *
 * @example
 * ```ts
 * import { SARIF_SCHEMA_URI } from "clusterwire/connectivity";
 *
 * console.log(SARIF_SCHEMA_URI);
 * ```
 */
export const SARIF_SCHEMA_URI =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/**
 * The `uriBaseId` of relative file names in {@link sarifLog}'s logs: the directory the tool ran
 * in (GitHub code scanning resolves it to the repository's root).
 *
 * @example
 * ```ts
 * import { SARIF_SRCROOT } from "clusterwire/connectivity";
 *
 * console.log(SARIF_SRCROOT); // %SRCROOT%
 * ```
 */
export const SARIF_SRCROOT = "%SRCROOT%";

/**
 * A SARIF level: how serious a result is.
 *
 * @example
 * ```ts
 * import type { SarifLevel } from "clusterwire/connectivity";
 *
 * const level: SarifLevel = "warning";
 * ```
 */
export type SarifLevel = "error" | "warning" | "note";

/**
 * A rule of a SARIF run: what one kind of result means.
 *
 * @example
 * ```ts
 * import type { SarifRule } from "clusterwire/connectivity";
 *
 * const rule: SarifRule = { id: "policy-selects-nothing", short: "Policy selects no workload", level: "warning" };
 * ```
 */
export interface SarifRule {
  /** Its id, unique in the run (`connection-added`, a lint id, ...). */
  readonly id: string;
  /** A line on what it finds. */
  readonly short: string;
  /** More on what it finds and what to do (default: `short`). */
  readonly full?: string;
  /** The level of its results. */
  readonly level: SarifLevel;
  /** Where it is documented. */
  readonly helpUri?: string;
}

/**
 * A place in a file for a SARIF result: a topology's `SourcePlace` is one.
 *
 * @example
 * ```ts
 * import type { SarifPlace } from "clusterwire/connectivity";
 *
 * const place: SarifPlace = { file: "deploy/policies.yaml", line: 12, object: "NetworkPolicy shop/deny-all" };
 * ```
 */
export interface SarifPlace {
  /**
   * The file as shown to users, `/` between folders: relative to the directory the tool ran in
   * (`%SRCROOT%`), or absolute (a `file:` URI).
   */
  readonly file: string;
  /** The 1-based line (where the object's document starts). */
  readonly line: number;
  /** The object there, as `Kind namespace/name`: the result's logical location. */
  readonly object?: string;
  /** What this place has to do with the result. */
  readonly message?: string;
}

/**
 * A result of a SARIF run.
 *
 * @example
 * ```ts
 * import type { SarifResult } from "clusterwire/connectivity";
 *
 * const result: SarifResult = {
 *   ruleId: "policy-selects-nothing",
 *   message: "shop/old selects no workload",
 *   places: [{ file: "deploy/policies.yaml", line: 1 }],
 * };
 * ```
 */
export interface SarifResult {
  /** The id of one of the run's rules. */
  readonly ruleId: string;
  /** What was found, never empty. */
  readonly message: string;
  /** Where: the first place is the result's location, the others related locations. */
  readonly places?: readonly SarifPlace[];
  /** Stable strings that identify the result from one run to the next (code scanning tracks alerts by them). */
  readonly fingerprints?: Readonly<Record<string, string>>;
  /** Anything more, as the result's property bag. */
  readonly properties?: Readonly<Record<string, unknown>>;
}

/**
 * A run of a SARIF log: the tool's rules and its results.
 *
 * @example
 * ```ts
 * import type { SarifRun } from "clusterwire/connectivity";
 *
 * const run: SarifRun = { rules: [], results: [], toolVersion: "1.0.0" };
 * ```
 */
export interface SarifRun {
  /** The tool's name (default `clusterwire`). */
  readonly toolName?: string;
  /** The tool's version. */
  readonly toolVersion?: string;
  /** The tool's home page. */
  readonly informationUri?: string;
  /** The rules; each result names one. */
  readonly rules: readonly SarifRule[];
  /** The results. */
  readonly results: readonly SarifResult[];
  /** Anything more, as the run's property bag. */
  readonly properties?: Readonly<Record<string, unknown>>;
}

/**
 * A SARIF 2.1.0 log as a value for `JSON.stringify`.
 *
 * @example
 * ```ts
 * import type { SarifLog } from "clusterwire/connectivity";
 *
 * const count = (log: SarifLog) => log.runs.length;
 * ```
 */
export interface SarifLog {
  /** The schema's URI. */
  readonly $schema: string;
  /** `2.1.0`. */
  readonly version: "2.1.0";
  /** The runs, as SARIF objects. */
  readonly runs: readonly Record<string, unknown>[];
}

/**
 * A SARIF 2.1.0 log of runs: each run's tool with its rules (id, descriptions, default level),
 * and its results, each with its rule's id and index, level, message, and locations: the file
 * (a relative URI under `%SRCROOT%`, or a `file:` URI for an absolute path) and the line, with
 * the object as a logical location. Lone surrogates in any text become U+FFFD. A RangeError for
 * two rules with one id, a result whose rule is not listed, an empty message, or a line that is
 * not a positive integer.
 *
 * @example
 * ```ts
 * import { sarifLog } from "clusterwire/connectivity";
 *
 * const log = sarifLog([
 *   {
 *     toolVersion: "1.0.0",
 *     rules: [{ id: "policy-selects-nothing", short: "Policy selects no workload", level: "warning" }],
 *     results: [
 *       {
 *         ruleId: "policy-selects-nothing",
 *         message: "shop/old selects no workload",
 *         places: [{ file: "deploy/policies.yaml", line: 12, object: "NetworkPolicy shop/old" }],
 *       },
 *     ],
 *   },
 * ]);
 * console.log(JSON.stringify(log, null, 2));
 * ```
 */
export function sarifLog(runs: readonly SarifRun[]): SarifLog {
  return { $schema: SARIF_SCHEMA_URI, version: "2.1.0", runs: runs.map(runObject) };
}

function runObject(run: SarifRun): Record<string, unknown> {
  const index = new Map<string, number>();
  run.rules.forEach((r, i) => {
    if (index.has(r.id)) throw new RangeError(`SARIF rule ${JSON.stringify(r.id)} is listed twice`);
    index.set(r.id, i);
  });
  const driver: Record<string, unknown> = { name: text(run.toolName ?? "clusterwire") };
  if (run.toolVersion !== undefined) driver["version"] = text(run.toolVersion);
  if (run.informationUri !== undefined) driver["informationUri"] = text(run.informationUri);
  driver["rules"] = run.rules.map((r) => {
    const full = text(r.full ?? r.short);
    const rule: Record<string, unknown> = {
      id: text(r.id),
      shortDescription: { text: text(r.short) },
      fullDescription: { text: full },
      help: { text: full },
      defaultConfiguration: { level: r.level },
    };
    if (r.helpUri !== undefined) rule["helpUri"] = text(r.helpUri);
    return rule;
  });
  const out: Record<string, unknown> = {
    tool: { driver },
    originalUriBaseIds: { [SARIF_SRCROOT]: { description: { text: "The directory the tool ran in." } } },
    results: run.results.map((r) => resultObject(r, index, run.rules)),
  };
  if (run.properties !== undefined) out["properties"] = clean(run.properties);
  return out;
}

function resultObject(r: SarifResult, index: ReadonlyMap<string, number>, rules: readonly SarifRule[]): object {
  const i = index.get(r.ruleId);
  if (i === undefined) throw new RangeError(`SARIF result names rule ${JSON.stringify(r.ruleId)}, which is not listed`);
  if (r.message === "") throw new RangeError(`SARIF result of rule ${JSON.stringify(r.ruleId)} has an empty message`);
  const out: Record<string, unknown> = {
    ruleId: text(r.ruleId),
    ruleIndex: i,
    level: rules[i]!.level,
    message: { text: text(r.message) },
  };
  const [first, ...others] = r.places ?? [];
  if (first !== undefined) out["locations"] = [locationObject(first)];
  if (others.length > 0) out["relatedLocations"] = others.map((p, n) => ({ id: n + 1, ...locationObject(p) }));
  if (r.fingerprints !== undefined) out["partialFingerprints"] = clean(r.fingerprints);
  if (r.properties !== undefined) out["properties"] = clean(r.properties);
  return out;
}

function locationObject(p: SarifPlace): Record<string, unknown> {
  if (!Number.isSafeInteger(p.line) || p.line < 1) {
    throw new RangeError(`SARIF place ${JSON.stringify(p.file)}: line ${p.line} is not a positive integer`);
  }
  const out: Record<string, unknown> = {
    physicalLocation: { artifactLocation: sarifArtifactLocation(p.file), region: { startLine: p.line } },
  };
  if (p.object !== undefined) out["logicalLocations"] = [{ fullyQualifiedName: text(p.object), kind: "resource" }];
  if (p.message !== undefined) out["message"] = { text: text(p.message) };
  return out;
}

/**
 * A file name as a SARIF artifactLocation: a relative path is a relative URI reference under
 * `%SRCROOT%` (what GitHub code scanning expects); an absolute path (`/...`, or `C:/...` or
 * `C:\...`) is a `file:` URI. Each segment is percent-encoded, `:` included, so that no segment
 * reads as a scheme and nothing as a query or fragment.
 *
 * @example
 * ```ts
 * import { sarifArtifactLocation } from "clusterwire/connectivity";
 *
 * console.log(sarifArtifactLocation("./deploy/my app.yaml")); // { uri: "deploy/my%20app.yaml", uriBaseId: "%SRCROOT%" }
 * ```
 */
export function sarifArtifactLocation(file: string): { readonly uri: string; readonly uriBaseId?: string } {
  let path = text(file);
  if (/^[A-Za-z]:[\\/]/.test(path)) {
    path = path.replaceAll("\\", "/");
    return { uri: `file:///${path.slice(0, 2)}${encodePath(path.slice(2))}` };
  }
  if (path.startsWith("/")) return { uri: `file://${encodePath(path)}` };
  while (path.startsWith("./")) path = path.slice(2);
  return { uri: encodePath(path), uriBaseId: SARIF_SRCROOT };
}

function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text any SARIF consumer reads: lone surrogates (which user text may hold) made U+FFFD. */
function text(s: string): string {
  return s.replace(LONE_SURROGATE, "\ufffd");
}

/** A property bag's strings, at any depth, made well-formed. */
function clean(value: unknown): unknown {
  if (typeof value === "string") return text(value);
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), clean(v)]));
}

/**
 * The rules of a diff's SARIF run: `connection-added` and `connection-changed` (warnings),
 * `connection-removed` (a note).
 *
 * @example
 * ```ts
 * import { CONNECTIVITY_CHANGE_RULES } from "clusterwire/connectivity";
 *
 * console.log(CONNECTIVITY_CHANGE_RULES.map((r) => r.id));
 * ```
 */
export const CONNECTIVITY_CHANGE_RULES: readonly SarifRule[] = [
  {
    id: "connection-added",
    short: "Connection added",
    full:
      "The change allows a connection that was not allowed before: between two workloads, or between a " +
      "workload and addresses outside the cluster. The result is placed at the policies that allow it.",
    level: "warning",
  },
  {
    id: "connection-removed",
    short: "Connection removed",
    full:
      "The change denies a connection that was allowed before. The result is placed at the policies that " +
      "now isolate its ends, or else at its workloads.",
    level: "note",
  },
  {
    id: "connection-changed",
    short: "Connection changed",
    full: "The change allows other ports or protocols on a connection that was allowed before.",
    level: "warning",
  },
];

/**
 * Where a workload (`namespace/kind/name`) or a policy (`namespace/name`) is written, in the
 * snapshot before or after; undefined when unknown.
 *
 * @example
 * ```ts
 * import type { LocateObject } from "clusterwire/connectivity";
 *
 * const places = new Map([["shop/deny-all", { file: "deploy/policies.yaml", line: 1 }]]);
 * const locate: LocateObject = (key, side) => (side === "after" ? places.get(key) : undefined);
 * ```
 */
export type LocateObject = (
  key: string,
  side: "before" | "after",
) => { readonly file: string; readonly line: number } | undefined;

/**
 * Options of {@link connectivityDiffSarifRun}.
 *
 * @example
 * ```ts
 * import type { DiffSarifOptions } from "clusterwire/connectivity";
 *
 * const options: DiffSarifOptions = { toolVersion: "1.0.0", locate: () => undefined };
 * ```
 */
export interface DiffSarifOptions {
  /** Where objects are written; without it, results have no location (code scanning then refuses them). */
  readonly locate?: LocateObject;
  /** The tool's version, for the run's driver. */
  readonly toolVersion?: string;
}

/**
 * A SARIF run for a diff (pass it to {@link sarifLog}): one result per change, of rule
 * `connection-added`, `connection-removed` or `connection-changed`, whose message is the change
 * and why before and after, placed (through `locate`, the snapshot after first) at the policies
 * that explain it on that side (those that allow it, or else those that isolate its ends), then
 * at its workloads. The counts are in the run's properties (`summary`).
 *
 * @example
 * ```ts
 * import { connectivityDiffSarifRun, sarifLog } from "clusterwire/connectivity";
 * import { diffConnectivity } from "clusterwire/networking";
 *
 * const namespaces = [{ name: "shop" }];
 * const web = { namespace: "shop", kind: "Deployment", name: "web" };
 * const api = { namespace: "shop", kind: "Deployment", name: "api" };
 * const diff = diffConnectivity({ namespaces, workloads: [web], policies: [] }, { namespaces, workloads: [web, api], policies: [] });
 * const places = new Map([["shop/Deployment/api", { file: "deploy/api.yaml", line: 1 }]]);
 * const run = connectivityDiffSarifRun(diff, { locate: (key, side) => (side === "after" ? places.get(key) : undefined) });
 * console.log(JSON.stringify(sarifLog([run]), null, 2));
 * ```
 */
export function connectivityDiffSarifRun(diff: ConnectivityDiff, options: DiffSarifOptions = {}): SarifRun {
  const counts = { added: 0, removed: 0, changed: 0 };
  const results = diff.changes.map((change): SarifResult => {
    counts[change.kind]++;
    const why = explainConnectivityChange(diff, change);
    const [before, after] = describeChange(why);
    const places = options.locate === undefined ? [] : changePlaces(change, why, options.locate);
    return {
      ruleId: `connection-${change.kind}`,
      message: `Connection ${change.kind}: ${changeLine(change).slice(2)}. ${capital(before!)}. ${capital(after!)}.`,
      places,
      fingerprints: { "connectivityChange/v1": `${change.kind} ${change.from.key} => ${change.to.key}` },
      properties: { kind: change.kind, from: change.from.key, to: change.to.key },
    };
  });
  const run: SarifRun = {
    rules: CONNECTIVITY_CHANGE_RULES,
    results,
    properties: {
      summary: {
        ...counts,
        workloadsAdded: diff.addedWorkloads.length,
        workloadsRemoved: diff.removedWorkloads.length,
      },
    },
  };
  return options.toolVersion === undefined ? run : { ...run, toolVersion: options.toolVersion };
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The places of a change: on the snapshot after, else before, the explaining policies, then the workloads. */
function changePlaces(
  change: ConnectivityChange,
  why: { readonly before: SnapshotExplanation; readonly after: SnapshotExplanation },
  locate: LocateObject,
): SarifPlace[] {
  for (const side of ["after", "before"] as const) {
    const s = why[side];
    const keys: [key: string, object: string][] = [];
    if (s.exists) for (const p of explainingPolicies(s.explanation)) keys.push([p, `NetworkPolicy ${p}`]);
    for (const peer of [change.from, change.to]) {
      if (peer.type !== "workload") continue;
      if (!s.exists && s.missing.includes(peer.key)) continue;
      keys.push([peer.key, workloadObject(peer)]);
    }
    const places: SarifPlace[] = [];
    const seen = new Set<string>();
    for (const [key, object] of keys) {
      if (seen.has(key)) continue;
      seen.add(key);
      const at = locate(key, side);
      if (at !== undefined) places.push({ file: at.file, line: at.line, object });
    }
    if (places.length > 0) return places;
  }
  return [];
}

function workloadObject(peer: Extract<ConnectivityPeer, { type: "workload" }>): string {
  return `${peer.kind} ${peer.namespace}/${peer.name}`;
}

/** The policies that allow the connection, or, when it is denied, those that isolate its ends (else those that allow some of it). */
function explainingPolicies(e: ConnectionExplanation): string[] {
  const directions = [e.egress, e.ingress];
  if (isEmptyConnectionSet(e.connections)) {
    const isolating = directions.filter((d) => d.verdict === "denied").flatMap((d) => d.isolatedBy);
    if (isolating.length > 0) return isolating;
  }
  return directions.flatMap((d) => d.allowedBy.map((m) => m.policy));
}
