import {
  DEFAULT_NAMESPACE,
  DecodeError,
  type DecodeErrorLocation,
  EvaluatorInputError,
  NETWORKING_API_VERSION,
  PROTOCOLS,
  createPolicyEngine,
  type ClusterNamespace,
  type ClusterPod,
  type ClusterPodPort,
  type JsonObject,
  type JsonValue,
  type NetworkPolicy,
  type PolicyEngine,
  type Protocol,
  locateYamlPath,
  parseYamlDocuments,
} from "../../networking/index.js";
import { fromParsedYaml } from "../../networking/internal.js";
import { CliError, EXIT_USAGE, asText, readInput, type CliIO } from "./io.js";

// The cluster description `clusterwire reach` reads: one YAML document with
// the policy engine's inputs (docs/network-policy.md),
//
//   namespaces: [{name, labels}]
//   pods: [{namespace, name, labels, ip, ports: [{name, containerPort, protocol}], hostIP, hostNetwork}]
//   policies: [NetworkPolicy manifests; apiVersion and kind may be left out]
//
// Values are read as the API server reads YAML (YAML 1.1 scalars), and every
// mistake is reported as FILE:LINE:COLUMN with its field path, so a typo is
// an error rather than a pod that quietly matches nothing.

/** A cluster description, ready for createPolicyEngine. */
export interface ClusterFile {
  /** The file as given on the command line. */
  readonly name: string;
  readonly namespaces: readonly ClusterNamespace[];
  readonly pods: readonly ClusterPod[];
  readonly policies: readonly NetworkPolicy[];
  /** `FILE:LINE:COLUMN` of the value at `path` (e.g. `["pods", 3, "ip"]`), or of its nearest existing parent. */
  locate(path: readonly (string | number)[], atKey?: boolean): string;
}

/** One problem in the file, before it is located. */
interface Issue {
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** Point at the key rather than the value (unknown fields). */
  readonly atKey?: boolean;
}

/** The most problems listed at once; more are counted. */
const MAX_LISTED = 20;

const TOP_FIELDS = ["namespaces", "pods", "policies"] as const;
const NAMESPACE_FIELDS = ["name", "labels"] as const;
const POD_FIELDS = ["namespace", "name", "labels", "ip", "ports", "hostIP", "hostNetwork"] as const;
const PORT_FIELDS = ["name", "containerPort", "protocol"] as const;

const isProtocol = (s: string): s is Protocol => (PROTOCOLS as readonly string[]).includes(s);

/** Reads and checks a cluster file; any problem is a CliError (exit 2) naming FILE:LINE:COLUMN. */
export async function loadClusterFile(io: CliIO, path: string): Promise<ClusterFile> {
  const input = await readInput(io, path);
  // Text that is not UTF-8 is an unreadable cluster file: exit 2, as every other problem with it.
  return parseClusterFile(input.name, asText(input, "yaml", EXIT_USAGE));
}

/** Parses the text of a cluster file; `name` is used in messages. */
export function parseClusterFile(name: string, text: string): ClusterFile {
  let docs: JsonValue[];
  try {
    docs = parseYamlDocuments(text, { uniqueKeys: true });
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw new CliError(`${name}:${e.line ?? 1}:${e.column ?? 1}: yaml: ${e.reason}`, EXIT_USAGE);
  }
  const positions = new Positions(name, text);
  if (docs.length === 0)
    throw new CliError(`${name}: the cluster file is empty; see clusterwire reach --help for its format`, EXIT_USAGE);
  if (docs.length > 1) {
    throw new CliError(
      `${positions.documentStart(1)}: ${docs.length} YAML documents; a cluster description is one document`,
      EXIT_USAGE,
    );
  }
  const check = new Checker();
  const parsed = check.cluster(docs[0] ?? null);
  failOnIssues(name, positions, check.issues);
  return { name, ...parsed, locate: (p, atKey) => positions.locate(p, atKey === true) };
}

function failOnIssues(name: string, positions: Positions, issues: readonly Issue[]): void {
  if (issues.length === 0) return;
  const lines = issues
    .slice(0, MAX_LISTED)
    .map((i) => `${positions.locate(i.path, i.atKey === true)}: ${fieldPath(i.path)}: ${i.message}`);
  if (lines.length === 1) throw new CliError(lines[0] ?? "", EXIT_USAGE);
  const more = issues.length > MAX_LISTED ? `\n  ... and ${issues.length - MAX_LISTED} more` : "";
  throw new CliError(
    `${name}: ${issues.length} errors in the cluster description:\n${lines.map((l) => `  ${l}`).join("\n")}${more}`,
    EXIT_USAGE,
  );
}

/** Extra NetworkPolicies (from --policies files), with where each came from. */
export interface ExtraPolicy {
  readonly policy: NetworkPolicy;
  /** The file it was read from, for messages. */
  readonly source: string;
}

/**
 * Builds the engine over a cluster file plus extra policies (appended after
 * the file's own). The engine's input errors become CliErrors located in the
 * file; the pods and namespaces are passed in file order, so its paths
 * (`pods[3].ip`) are the file's paths.
 */
export function clusterEngine(cluster: ClusterFile, extra: readonly ExtraPolicy[] = []): PolicyEngine {
  try {
    return createPolicyEngine({
      namespaces: cluster.namespaces,
      pods: cluster.pods,
      policies: [...cluster.policies, ...extra.map((e) => e.policy)],
    });
  } catch (e) {
    if (!(e instanceof EvaluatorInputError)) throw e;
    const path = parsePath(e.path);
    const i = path[0] === "policies" && typeof path[1] === "number" ? path[1] - cluster.policies.length : -1;
    const added = extra[i];
    // A --policies manifest is named by its file and its object, not by the engine's list.
    if (added !== undefined) {
      const meta = added.policy.metadata;
      const name = `${meta?.namespace || DEFAULT_NAMESPACE}/${meta?.name ?? ""}`;
      return fail(
        `${added.source}: NetworkPolicy ${name}: ${fieldPath(path.slice(2))}: ${e.reason} (in ${cluster.name})`,
      );
    }
    return fail(`${cluster.locate(path)}: ${e.path}: ${e.reason}`);
  }
}

function fail(message: string): never {
  throw new CliError(message, EXIT_USAGE);
}

/** Where a policy of the engine's input came from: `FILE:LINE:COLUMN` in the cluster file, or the --policies file. */
export function policySource(cluster: ClusterFile, extra: readonly ExtraPolicy[], index: number): string {
  if (index < cluster.policies.length) return cluster.locate(["policies", index]);
  return extra[index - cluster.policies.length]?.source ?? cluster.name;
}

/** Splits an engine path such as `pods[3].labels["app"]` into segments. */
export function parsePath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const m of path.matchAll(re)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[3] !== undefined) out.push(JSON.parse(m[3]) as string);
  }
  return out;
}

/** `pods[3].labels.app`, for messages. */
export function fieldPath(path: readonly (string | number)[]): string {
  let s = "";
  for (const seg of path) {
    if (typeof seg === "number") s += `[${seg}]`;
    else s += s === "" ? seg : /^[A-Za-z_][\w-]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return s === "" ? "(top level)" : s;
}

// ------------------------------------------------------------------ checking the shape

class Checker {
  readonly issues: Issue[] = [];

  cluster(v: JsonValue): { namespaces: ClusterNamespace[]; pods: ClusterPod[]; policies: NetworkPolicy[] } {
    const top = this.map(v, [], "a map with namespaces, pods and policies");
    if (top === undefined) return { namespaces: [], pods: [], policies: [] };
    this.fields(top, [], TOP_FIELDS, ["namespaces", "pods"]);
    return {
      namespaces: this.list(top, "namespaces", [], (item, at) => this.namespace(item, at)),
      pods: this.list(top, "pods", [], (item, at) => this.pod(item, at)),
      policies: this.list(top, "policies", [], (item, at) => this.policy(item, at)),
    };
  }

  namespace(v: JsonValue, at: (string | number)[]): ClusterNamespace | undefined {
    const m = this.map(v, at, "a namespace: {name, labels}");
    if (m === undefined) return undefined;
    this.fields(m, at, NAMESPACE_FIELDS, ["name"]);
    const name = this.string(m, "name", at);
    const labels = this.labels(m, at);
    if (name === undefined) return undefined;
    return labels === undefined ? { name } : { name, labels };
  }

  pod(v: JsonValue, at: (string | number)[]): ClusterPod | undefined {
    const m = this.map(v, at, "a pod: {namespace, name, labels, ip, ports, hostIP, hostNetwork}");
    if (m === undefined) return undefined;
    this.fields(m, at, POD_FIELDS, ["namespace", "name", "ip"]);
    const namespace = this.string(m, "namespace", at);
    const name = this.string(m, "name", at);
    const ip = this.string(m, "ip", at);
    const labels = this.labels(m, at);
    const hostIP = this.string(m, "hostIP", at);
    const hostNetwork = this.boolean(m, "hostNetwork", at);
    const ports = isAbsent(m["ports"]) ? undefined : this.list(m, "ports", at, (item, p) => this.port(item, p));
    if (namespace === undefined || name === undefined || ip === undefined) return undefined;
    return {
      namespace,
      name,
      ip,
      ...(labels !== undefined ? { labels } : {}),
      ...(ports !== undefined ? { ports } : {}),
      ...(hostIP !== undefined ? { hostIP } : {}),
      ...(hostNetwork !== undefined ? { hostNetwork } : {}),
    };
  }

  port(v: JsonValue, at: (string | number)[]): ClusterPodPort | undefined {
    const m = this.map(v, at, "a container port: {name, containerPort, protocol}");
    if (m === undefined) return undefined;
    this.fields(m, at, PORT_FIELDS, ["containerPort"]);
    const name = this.string(m, "name", at);
    const raw = m["containerPort"];
    let containerPort: number | undefined;
    if (!isAbsent(raw)) {
      if (typeof raw === "number" && Number.isInteger(raw) && raw >= 1 && raw <= 65535) containerPort = raw;
      else this.issue([...at, "containerPort"], `must be a port number from 1 to 65535, got ${show(raw)}`);
    }
    const protocol = this.string(m, "protocol", at);
    if (protocol !== undefined && !isProtocol(protocol)) {
      this.issue([...at, "protocol"], `must be one of ${PROTOCOLS.join(", ")}, got ${show(protocol)}`);
    }
    if (containerPort === undefined) return undefined;
    return {
      containerPort,
      ...(name !== undefined ? { name } : {}),
      ...(protocol !== undefined && isProtocol(protocol) ? { protocol } : {}),
    };
  }

  /** A NetworkPolicy manifest, decoded strictly as kubectl would send it. */
  policy(v: JsonValue, at: (string | number)[]): NetworkPolicy | undefined {
    const m = this.map(v, at, "a NetworkPolicy manifest");
    if (m === undefined) return undefined;
    const apiVersion = m["apiVersion"];
    const kind = m["kind"];
    if (apiVersion !== undefined && apiVersion !== NETWORKING_API_VERSION) {
      this.issue([...at, "apiVersion"], `must be ${NETWORKING_API_VERSION} (or left out), got ${show(apiVersion)}`);
      return undefined;
    }
    if (kind !== undefined && kind !== "NetworkPolicy") {
      this.issue([...at, "kind"], `must be NetworkPolicy (or left out), got ${show(kind)}`);
      return undefined;
    }
    // The type fields go first, as a manifest would have them; the rest keeps its order.
    const manifest: JsonObject = Object.assign(
      Object.create(null) as JsonObject,
      { apiVersion: NETWORKING_API_VERSION, kind: "NetworkPolicy" },
      m,
    );
    try {
      return fromParsedYaml(manifest, { strict: true }) as NetworkPolicy;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      const segments = e.segments ?? [];
      this.issue([...at, ...segments], e.reason, /^unknown field/.test(e.reason));
      return undefined;
    }
  }

  // -------------------------------------------------------------- helpers

  issue(path: readonly (string | number)[], message: string, atKey = false): void {
    this.issues.push(atKey ? { path, message, atKey } : { path, message });
  }

  map(v: JsonValue, at: (string | number)[], what: string): JsonObject | undefined {
    if (isMapValue(v)) return v;
    this.issue(at, `must be ${what}, got ${show(v)}`);
    return undefined;
  }

  /** Unknown and missing fields. */
  fields(m: JsonObject, at: (string | number)[], known: readonly string[], required: readonly string[]): void {
    for (const key of Object.keys(m)) {
      if (!known.includes(key))
        this.issue([...at, key], `unknown field ${JSON.stringify(key)}; known fields: ${known.join(", ")}`, true);
    }
    for (const key of required) if (isAbsent(m[key])) this.issue(at, `missing required field ${JSON.stringify(key)}`);
  }

  list<T>(
    m: JsonObject,
    key: string,
    at: (string | number)[],
    each: (item: JsonValue, at: (string | number)[]) => T | undefined,
  ): T[] {
    const v = m[key];
    if (isAbsent(v)) return [];
    if (!Array.isArray(v)) {
      this.issue([...at, key], `must be a list, got ${show(v)}`);
      return [];
    }
    const out: T[] = [];
    v.forEach((item, i) => {
      const r = each(item, [...at, key, i]);
      if (r !== undefined) out.push(r);
    });
    return out;
  }

  string(m: JsonObject, key: string, at: (string | number)[]): string | undefined {
    const v = m[key];
    if (isAbsent(v)) return undefined;
    if (typeof v === "string") return v;
    this.issue(
      [...at, key],
      `must be a string, got ${show(v)}${typeof v === "number" || typeof v === "boolean" ? " (quote it)" : ""}`,
    );
    return undefined;
  }

  boolean(m: JsonObject, key: string, at: (string | number)[]): boolean | undefined {
    const v = m[key];
    if (isAbsent(v)) return undefined;
    if (typeof v === "boolean") return v;
    this.issue([...at, key], `must be true or false, got ${show(v)}`);
    return undefined;
  }

  labels(m: JsonObject, at: (string | number)[]): Record<string, string> | undefined {
    const v = m["labels"];
    if (isAbsent(v)) return undefined;
    if (!isMapValue(v)) {
      this.issue([...at, "labels"], `must be a map of strings, got ${show(v)}`);
      return undefined;
    }
    const out: Record<string, string> = {};
    for (const [k, value] of Object.entries(v)) {
      if (typeof value === "string") out[k] = value;
      else this.issue([...at, "labels", k], `a label value must be a string, got ${show(value)} (quote it)`);
    }
    return out;
  }
}

function isAbsent(v: JsonValue | undefined): v is null | undefined {
  return v === undefined || v === null;
}

function isMapValue(v: JsonValue | undefined): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A value as it appears in a message. */
function show(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a map";
  if (typeof v === "bigint") return v.toString();
  return JSON.stringify(v);
}

// ------------------------------------------------------------------ source positions

/** Maps field paths of the (single) document back to line and column. */
class Positions {
  readonly #name: string;
  readonly #text: string;

  constructor(name: string, text: string) {
    this.#name = name;
    this.#text = text;
  }

  #at(where: DecodeErrorLocation): string {
    return where.line === undefined ? this.#name : `${this.#name}:${where.line}:${where.column ?? 1}`;
  }

  /** Where the `index`-th non-empty document starts. */
  documentStart(index: number): string {
    return this.#at(locateYamlPath(this.#text, index, []));
  }

  locate(path: readonly (string | number)[], atKey: boolean): string {
    return this.#at(locateYamlPath(this.#text, 0, path, { atKey }));
  }
}
