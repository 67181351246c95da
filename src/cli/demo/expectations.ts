import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { PROTOCOLS } from "../../networking/evaluate/policy/types.js";
import {
  DecodeError,
  type HostTier,
  type JsonValue,
  type Protocol,
  type Route,
  parseYamlDocuments,
} from "../../networking/index.js";
import {
  NO_DEPTH_LIMIT,
  composeFirstDocument,
  decodeYamlNode,
  keyTextOf,
  type YamlNode,
} from "../../networking/text/yaml/parse.js";
import { CliError, EXIT_USAGE, errnoMessage, type CliIO } from "../shared/io.js";
import { packageRoot } from "../shared/package.js";
import { ALLOWED_GLYPH, DENIED_GLYPH } from "../shared/reach-text.js";

// The main job's expected answers, read from examples/demo/expected.yaml (see
// examples/README.md, "demo/"). They are data, written from the rules
// (docs/ingress-routing.md, docs/network-policy.md and the storage API) rather than from output,
// so the demo fails when an answer changes. Every field is checked here, and a
// mistake is reported as FILE:LINE:COLUMN: FIELD: PROBLEM (exit 2), never as a crash.

/** Where the expected answers live, under the package root. */
export const EXPECTATIONS_FILE = join("examples", "demo", "expected.yaml");

/** A request of the routes section and the answer the routing rules (docs/ingress-routing.md) give for it. */
export interface ExpectedRoute {
  readonly host: string;
  readonly path: string;
  readonly sni?: string;
  readonly backend: string;
  readonly ingress: string;
  readonly field: string;
  readonly via: Route["via"];
  readonly tier: HostTier | null;
}

export interface RouteExpectations {
  /** Manifests under the demo directory that the router reads. */
  readonly files: readonly string[];
  readonly controller: string;
  readonly requests: readonly ExpectedRoute[];
}

/** A truth table of the reach section, one string per source row: ✓ allowed, · denied. */
export interface ExpectedTable {
  readonly protocol: Protocol;
  readonly port: number;
  readonly rows: readonly string[];
}

/** A connection of the reach section, each direction as `verdict [policy[rule,...] ...]`. */
export interface ExpectedConnection {
  readonly from: string;
  readonly to: string;
  readonly protocol: Protocol;
  readonly port: number | string;
  readonly allowed: boolean;
  readonly egress: string;
  readonly ingress: string;
}

export interface ReachExpectations {
  /** The cluster description under the demo directory, `/`-separated. */
  readonly file: string;
  /** Its pods in file order: the rows and columns of the tables. */
  readonly pods: readonly string[];
  readonly tables: readonly ExpectedTable[];
  readonly connections: readonly ExpectedConnection[];
}

/** What each step of the storage scenario must see from the reference server. */
export interface StorageExpectations {
  readonly cloneToken: {
    readonly status: number;
    /** reserve_size in bytes, for the 40M sent. */
    readonly reserveSize: number;
    readonly limit: string;
    /** expiry_time.left 10 minutes after creation. */
    readonly leftAfter10Minutes: string;
  };
  readonly cache: {
    readonly status: number;
    readonly jobState: string;
    /** size in bytes, for the 10G sent. */
    readonly size: number;
  };
  readonly namespace: {
    readonly status: number;
    /** space.size in bytes, for the 1G sent. */
    readonly size: number;
    readonly blockSize: number;
  };
  readonly quotaRules: {
    readonly status: number;
    /** space.hard_limit in bytes, for the 10G sent. */
    readonly hardLimit: number;
    /** Rules the server adds by itself (the volume's default user rule). */
    readonly addedRules: number;
  };
  /** Each version validated, and whether validation passes (with a warning) or fails (with an error). */
  readonly softwareValidate: readonly { readonly version: string; readonly passes: boolean }[];
}

export interface DemoExpectations {
  /** The file they were read from, as shown in messages. */
  readonly source: string;
  readonly routes: RouteExpectations;
  readonly reach: ReachExpectations;
  readonly storage: StorageExpectations;
}

/** The default file: examples/demo/expected.yaml under the package root. */
export function expectationsPath(): string {
  const root = packageRoot();
  if (root === undefined)
    throw new CliError(`cannot find the clusterwire package, which holds ${EXPECTATIONS_FILE}`, EXIT_USAGE);
  return join(root, EXPECTATIONS_FILE);
}

/** Reads and checks the expected answers; any problem is a CliError (exit 2) naming the file, line and field. */
export async function loadExpectations(
  io: Pick<CliIO, "cwd">,
  path: string = expectationsPath(),
): Promise<DemoExpectations> {
  const cwd = io.cwd ?? process.cwd();
  const abs = resolve(cwd, path);
  const rel = relative(cwd, abs);
  const name = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : abs;
  let text: string;
  try {
    text = await readFile(abs, "utf8");
  } catch (e) {
    throw new CliError(`${name}: cannot read the demo's expected answers: ${errnoMessage(e)}`, EXIT_USAGE);
  }
  return parseExpectations(name, text);
}

/** The most problems listed at once; more are counted. */
const MAX_LISTED = 20;

/** Parses the text of an expectations file; `name` is used in messages. */
export function parseExpectations(name: string, text: string): DemoExpectations {
  const at = (offset: number): string => {
    const before = text.slice(0, offset);
    const lineStart = before.lastIndexOf("\n") + 1;
    return `${name}:${before.split("\n").length}:${offset - lineStart + 1}`;
  };
  let root: Node | undefined;
  try {
    // One document, read as the API server reads a body; repeated keys are refused (strict).
    parseYamlDocuments(text, { uniqueKeys: true, reading: "server" });
    root = composeFirstDocument(text, NO_DEPTH_LIMIT);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw new CliError(`${name}:${e.line ?? 1}:${e.column ?? 1}: yaml: ${e.reason}`, EXIT_USAGE);
  }
  const r = new Reader(at, root);
  const top = r.fields(r.root, "", ["routes", "reach", "storage"]);
  const parsed = {
    source: name,
    routes: r.routes(top.get("routes"), "routes"),
    reach: r.reach(top.get("reach"), "reach"),
    storage: r.storage(top.get("storage"), "storage"),
  };
  if (r.issues.length === 0) return parsed as DemoExpectations;
  if (r.issues.length === 1) throw new CliError(r.issues[0] ?? "", EXIT_USAGE);
  const more = r.issues.length > MAX_LISTED ? `\n  ... and ${r.issues.length - MAX_LISTED} more` : "";
  const listed = r.issues
    .slice(0, MAX_LISTED)
    .map((l) => `  ${l}`)
    .join("\n");
  throw new CliError(
    `${name}: ${r.issues.length} errors in the demo's expected answers:\n${listed}${more}`,
    EXIT_USAGE,
  );
}

/** A node of the document (clusterwire's go-yaml v2 reader). */
type Node = YamlNode;

/** The node an alias stands for (the document was decoded once, so there is no cycle). */
function deref(node: Node | undefined): Node | undefined {
  let n = node;
  for (let hops = 0; n?.kind === "alias" && hops < 2; hops++) n = n.target;
  return n;
}

/** A scalar's value as go-yaml resolves it (YAML 1.1); undefined for anything else. */
function scalarValue(node: Node | undefined): JsonValue | undefined {
  const n = deref(node);
  if (n?.kind !== "scalar") return undefined;
  try {
    return decodeYamlNode(n, { maxDepth: NO_DEPTH_LIMIT, strict: false });
  } catch {
    return n.value; // already refused when the document was read; not reached
  }
}

const VIAS: readonly Route["via"][] = ["path", "tier-default", "default"];
const TIERS: readonly HostTier[] = ["precise", "wildcard", "host-less"];
const ROW_GLYPHS = new RegExp(`^[${ALLOWED_GLYPH}${DENIED_GLYPH}]*$`, "u");

/** Checks nodes of the document and collects located problems; a bad value reads as a placeholder so checking goes on. */
class Reader {
  readonly issues: string[] = [];
  readonly #at: (offset: number) => string;
  readonly root: Node | undefined;
  /** Where the document starts, for a missing top-level field. */
  readonly #start: number;

  constructor(at: (offset: number) => string, root: Node | undefined) {
    this.#at = at;
    this.root = root;
    this.#start = root?.start.offset ?? 0;
  }

  /** Fields already reported as missing or of the wrong shape: nothing below them is reported again. */
  readonly #failed: string[] = [];

  #issue(node: Node | undefined, field: string, message: string, parent?: Node, structural = false): void {
    if (this.#failed.some((p) => p === "" || field === p || field.startsWith(`${p}.`) || field.startsWith(`${p}[`)))
      return;
    if (structural) this.#failed.push(field);
    const offset = node?.start.offset ?? parent?.start.offset ?? this.#start;
    this.issues.push(`${this.#at(offset)}: ${field === "" ? "(top level)" : field}: ${message}`);
  }

  /** A map with exactly these keys (all required unless listed in `optional`); returns each key's value node. */
  fields(
    node: Node | undefined,
    field: string,
    keys: readonly string[],
    optional: readonly string[] = [],
    parent?: Node,
  ): Map<string, Node | undefined> {
    const out = new Map<string, Node | undefined>();
    const map = deref(node);
    if (map?.kind !== "mapping") {
      this.#issue(node, field, `must be a map with ${keys.join(", ")}`, parent, true);
      return out;
    }
    for (let i = 0; i + 1 < map.children.length; i += 2) {
      const keyNode = map.children[i];
      const key = keyNode !== undefined && deref(keyNode)?.kind === "scalar" ? keyTextOf(keyNode) : undefined;
      if (key === undefined || !keys.includes(key)) {
        this.#issue(keyNode, field, `unknown field ${JSON.stringify(key ?? "?")}; expected ${keys.join(", ")}`, node);
        continue;
      }
      out.set(key, map.children[i + 1]);
    }
    for (const k of keys) {
      if (!out.has(k) && !optional.includes(k))
        this.#issue(node, join2(field, k), "missing required field", parent, true);
    }
    return out;
  }

  list(node: Node | undefined, field: string, parent?: Node): Node[] {
    const seq = deref(node);
    if (seq?.kind !== "sequence") {
      this.#issue(node, field, "must be a list", parent, true);
      return [];
    }
    if (seq.children.length === 0) this.#issue(node, field, "must not be empty", parent);
    return seq.children;
  }

  #scalar(node: Node | undefined): unknown {
    return scalarValue(node);
  }

  string(node: Node | undefined, field: string, parent?: Node): string {
    const v = this.#scalar(node);
    if (typeof v === "string" && v !== "") return v;
    this.#issue(node, field, `must be a non-empty string, got ${show(node)}`, parent);
    return "";
  }

  integer(node: Node | undefined, field: string, min: number, max: number, parent?: Node): number {
    const v = this.#scalar(node);
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= min && v <= max) return v;
    this.#issue(node, field, `must be an integer from ${min} to ${max}, got ${show(node)}`, parent);
    return 0;
  }

  boolean(node: Node | undefined, field: string, parent?: Node): boolean {
    const v = this.#scalar(node);
    if (typeof v === "boolean") return v;
    this.#issue(node, field, `must be true or false, got ${show(node)}`, parent);
    return false;
  }

  oneOf<T extends string>(node: Node | undefined, field: string, values: readonly T[], parent?: Node): T {
    const v = this.#scalar(node);
    if (typeof v === "string" && (values as readonly string[]).includes(v)) return v as T;
    this.#issue(node, field, `must be one of ${values.join(", ")}, got ${show(node)}`, parent);
    return values[0] as T;
  }

  routes(node: Node | undefined, field: string): RouteExpectations {
    const f = this.fields(node, field, ["files", "controller", "requests"], [], this.root);
    return {
      files: this.list(f.get("files"), `${field}.files`, node).map((n, i) =>
        this.string(n, `${field}.files[${i}]`, node),
      ),
      controller: this.string(f.get("controller"), `${field}.controller`, node),
      requests: this.list(f.get("requests"), `${field}.requests`, node).map((n, i) =>
        this.#route(n, `${field}.requests[${i}]`),
      ),
    };
  }

  #route(node: Node, field: string): ExpectedRoute {
    const f = this.fields(node, field, ["host", "path", "sni", "backend", "ingress", "field", "via", "tier"], ["sni"]);
    const tierNode = f.get("tier");
    const tier = scalarValue(tierNode) === null ? null : this.oneOf(tierNode, `${field}.tier`, TIERS, node);
    const sni = f.get("sni");
    return {
      host: this.string(f.get("host"), `${field}.host`, node),
      path: this.string(f.get("path"), `${field}.path`, node),
      ...(sni !== undefined ? { sni: this.string(sni, `${field}.sni`, node) } : {}),
      backend: this.string(f.get("backend"), `${field}.backend`, node),
      ingress: this.string(f.get("ingress"), `${field}.ingress`, node),
      field: this.string(f.get("field"), `${field}.field`, node),
      via: this.oneOf(f.get("via"), `${field}.via`, VIAS, node),
      tier,
    };
  }

  reach(node: Node | undefined, field: string): ReachExpectations {
    const f = this.fields(node, field, ["file", "pods", "tables", "connections"], [], this.root);
    const pods = this.list(f.get("pods"), `${field}.pods`, node).map((n, i) =>
      this.string(n, `${field}.pods[${i}]`, node),
    );
    return {
      file: this.string(f.get("file"), `${field}.file`, node),
      pods,
      tables: this.list(f.get("tables"), `${field}.tables`, node).map((n, i) =>
        this.#table(n, `${field}.tables[${i}]`, pods.length),
      ),
      connections: this.list(f.get("connections"), `${field}.connections`, node).map((n, i) =>
        this.#connection(n, `${field}.connections[${i}]`),
      ),
    };
  }

  #table(node: Node, field: string, pods: number): ExpectedTable {
    const f = this.fields(node, field, ["protocol", "port", "rows"]);
    const rowNodes = this.list(f.get("rows"), `${field}.rows`, node);
    if (rowNodes.length > 0 && rowNodes.length !== pods)
      this.#issue(f.get("rows"), `${field}.rows`, `has ${rowNodes.length} rows; expected one per pod (${pods})`);
    const rows = rowNodes.map((n, i) => {
      const row = this.string(n, `${field}.rows[${i}]`, node);
      const cells = [...row];
      if (row !== "" && (!ROW_GLYPHS.test(row) || cells.length !== pods)) {
        this.#issue(
          n,
          `${field}.rows[${i}]`,
          `must be ${pods} cells, each ✓ (allowed) or · (denied), got ${JSON.stringify(row)}`,
        );
      }
      return row;
    });
    return {
      protocol: this.oneOf(f.get("protocol"), `${field}.protocol`, PROTOCOLS, node),
      port: this.integer(f.get("port"), `${field}.port`, 1, 65535, node),
      rows,
    };
  }

  #connection(node: Node, field: string): ExpectedConnection {
    const f = this.fields(node, field, ["from", "to", "protocol", "port", "allowed", "egress", "ingress"]);
    const portNode = f.get("port");
    const port =
      typeof this.#scalar(portNode) === "string"
        ? this.string(portNode, `${field}.port`, node)
        : this.integer(portNode, `${field}.port`, 1, 65535, node);
    return {
      from: this.string(f.get("from"), `${field}.from`, node),
      to: this.string(f.get("to"), `${field}.to`, node),
      protocol: this.oneOf(f.get("protocol"), `${field}.protocol`, PROTOCOLS, node),
      port,
      allowed: this.boolean(f.get("allowed"), `${field}.allowed`, node),
      egress: this.string(f.get("egress"), `${field}.egress`, node),
      ingress: this.string(f.get("ingress"), `${field}.ingress`, node),
    };
  }

  storage(node: Node | undefined, field: string): StorageExpectations {
    const f = this.fields(
      node,
      field,
      ["clone-token", "cache", "namespace", "quota-rules", "software-validate"],
      [],
      this.root,
    );
    const size = (n: Node | undefined, name: string, parent: Node | undefined): number =>
      this.integer(n, name, 0, Number.MAX_SAFE_INTEGER, parent);
    const status = (n: Node | undefined, name: string, parent: Node | undefined): number =>
      this.integer(n, name, 100, 599, parent);
    const ct = f.get("clone-token");
    const c = this.fields(
      ct,
      `${field}.clone-token`,
      ["status", "reserve_size", "limit", "left_after_10_minutes"],
      [],
      node,
    );
    const ca = f.get("cache");
    const cache = this.fields(ca, `${field}.cache`, ["status", "job", "size"], [], node);
    const ns = f.get("namespace");
    const n = this.fields(ns, `${field}.namespace`, ["status", "size", "block_size"], [], node);
    const qr = f.get("quota-rules");
    const q = this.fields(qr, `${field}.quota-rules`, ["status", "hard_limit", "added_rules"], [], node);
    const sv = f.get("software-validate");
    return {
      cloneToken: {
        status: status(c.get("status"), `${field}.clone-token.status`, ct),
        reserveSize: size(c.get("reserve_size"), `${field}.clone-token.reserve_size`, ct),
        limit: this.string(c.get("limit"), `${field}.clone-token.limit`, ct),
        leftAfter10Minutes: this.string(
          c.get("left_after_10_minutes"),
          `${field}.clone-token.left_after_10_minutes`,
          ct,
        ),
      },
      cache: {
        status: status(cache.get("status"), `${field}.cache.status`, ca),
        jobState: this.string(cache.get("job"), `${field}.cache.job`, ca),
        size: size(cache.get("size"), `${field}.cache.size`, ca),
      },
      namespace: {
        status: status(n.get("status"), `${field}.namespace.status`, ns),
        size: size(n.get("size"), `${field}.namespace.size`, ns),
        blockSize: size(n.get("block_size"), `${field}.namespace.block_size`, ns),
      },
      quotaRules: {
        status: status(q.get("status"), `${field}.quota-rules.status`, qr),
        hardLimit: size(q.get("hard_limit"), `${field}.quota-rules.hard_limit`, qr),
        addedRules: this.integer(q.get("added_rules"), `${field}.quota-rules.added_rules`, 0, 1000, qr),
      },
      softwareValidate: this.list(sv, `${field}.software-validate`, node).map((item, i) => {
        const v = this.fields(item, `${field}.software-validate[${i}]`, ["version", "passes"]);
        return {
          version: this.string(v.get("version"), `${field}.software-validate[${i}].version`, item),
          passes: this.boolean(v.get("passes"), `${field}.software-validate[${i}].passes`, item),
        };
      }),
    };
  }
}

function join2(field: string, key: string): string {
  return field === "" ? key : `${field}.${key}`;
}

/** A value as it appears in a message. */
function show(node: Node | undefined): string {
  if (node === undefined || node === null) return "nothing";
  const n = deref(node);
  if (n?.kind === "mapping") return "a map";
  if (n?.kind === "sequence") return "a list";
  if (n?.kind === "scalar") {
    const v = scalarValue(n);
    return v === null ? "null" : typeof v === "bigint" ? v.toString() : JSON.stringify(v);
  }
  return "something else";
}
