import { LineCounter, isMap, isScalar, parseAllDocuments, type Document } from "yaml";
import { DEFAULT_INVENTORY, StorageCodecError, parseSize, type InventoryInput } from "../storage/index.js";
import { CliError, EXIT_USAGE, asText, detectFormat, readInput, type CliIO } from "./io.js";

// Reading the inventory of `clusterwire storage serve --inventory FILE`: JSON or
// YAML with the reference server's InventoryInput shape, checked strictly (unknown
// fields, wrong types, dangling references) so that a typo is an error with its
// line and column rather than a server that quietly serves something else.

type Path = readonly (string | number)[];

/** One problem in the file, at a field. */
export interface InventoryIssue {
  readonly path: Path;
  readonly message: string;
  /** Point at the key (unknown field) rather than the value. */
  readonly atKey?: boolean;
}

type Kind = "string" | "uuid" | "size" | "boolean" | "strings" | readonly string[];

interface FieldSpec {
  readonly kind: Kind;
  readonly required?: boolean;
}

const name: FieldSpec = { kind: "string", required: true };
const uuid: FieldSpec = { kind: "uuid" };

/** The fields of each list entry, as InventoryInput declares them. */
const SHAPES: Readonly<Record<string, Readonly<Record<string, FieldSpec>>>> = {
  cluster: { name: { kind: "string" }, uuid },
  nodes: { name, uuid, model: { kind: "string" } },
  svms: { name, uuid },
  aggregates: { name, uuid, node: { kind: "string" } },
  volumes: {
    name,
    uuid,
    svm: { kind: "string", required: true },
    size: { kind: "size" },
    style: { kind: ["flexvol", "flexgroup"] },
    state: { kind: ["online", "offline"] },
    path: { kind: "string" },
    aggregates: { kind: "strings" },
    qtrees: { kind: "strings" },
    quota_enabled: { kind: "boolean" },
  },
  luns: {
    name,
    uuid,
    svm: { kind: "string", required: true },
    os_type: { kind: "string", required: true },
    size: { kind: "size", required: true },
    mapped: { kind: "boolean" },
    protocol_endpoint: { kind: "boolean" },
    foreign_import: { kind: "boolean" },
    vvol_bound: { kind: "boolean" },
  },
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LUN_NAME_RE = /^\/vol\/([^/]+)\/(?:[^/]+\/)?[^/]+$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  return `${typeof v} ${JSON.stringify(v)}`;
}

/** `volumes[1].svm` */
export function formatPath(path: Path): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/**
 * Checks a parsed inventory and converts Size strings (`"100G"`) to bytes.
 * Returns the InventoryInput, or the problems found (all of them).
 */
export function checkInventory(value: unknown): { inventory: InventoryInput; issues: readonly InventoryIssue[] } {
  const issues: InventoryIssue[] = [];
  const out: Record<string, unknown> = {};
  if (!isRecord(value)) {
    issues.push({ path: [], message: `the inventory must be a mapping with ${Object.keys(SHAPES).join(", ")}, got ${describe(value)}` });
    return { inventory: {}, issues };
  }
  for (const [key, v] of Object.entries(value)) {
    const shape = SHAPES[key];
    if (shape === undefined) {
      issues.push({ path: [key], message: `unknown field ${JSON.stringify(key)}; expected ${Object.keys(SHAPES).join(", ")}`, atKey: true });
      continue;
    }
    if (key === "cluster") {
      out[key] = checkEntry(v, [key], shape, issues);
      continue;
    }
    if (!Array.isArray(v)) {
      issues.push({ path: [key], message: `must be a list, got ${describe(v)}` });
      continue;
    }
    out[key] = v.map((entry: unknown, i) => checkEntry(entry, [key, i], shape, issues));
  }
  if (issues.length === 0) checkReferences(out as InventoryInput, issues);
  return { inventory: out as InventoryInput, issues };
}

function checkEntry(entry: unknown, path: Path, shape: Readonly<Record<string, FieldSpec>>, issues: InventoryIssue[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(entry)) {
    issues.push({ path, message: `must be a mapping with ${Object.keys(shape).join(", ")}, got ${describe(entry)}` });
    return out;
  }
  for (const [field, spec] of Object.entries(shape)) {
    if (spec.required === true && entry[field] === undefined) issues.push({ path, message: `missing required field ${JSON.stringify(field)}` });
  }
  for (const [field, v] of Object.entries(entry)) {
    const spec = shape[field];
    const at = [...path, field];
    if (spec === undefined) {
      issues.push({ path: at, message: `unknown field ${JSON.stringify(field)}; expected ${Object.keys(shape).join(", ")}`, atKey: true });
      continue;
    }
    const problem = checkValue(v, spec.kind);
    if (typeof problem === "string") issues.push({ path: at, message: problem });
    else out[field] = problem.value;
  }
  return out;
}

/** A problem, or the value to keep (sizes as bytes). */
function checkValue(v: unknown, kind: Kind): string | { value: unknown } {
  if (typeof kind !== "string") {
    return typeof v === "string" && kind.includes(v) ? { value: v } : `must be one of ${kind.join(", ")}, got ${describe(v)}`;
  }
  switch (kind) {
    case "string":
      return typeof v === "string" && v !== "" ? { value: v } : `must be a non-empty string, got ${describe(v)}`;
    case "uuid":
      return typeof v === "string" && UUID_RE.test(v) ? { value: v } : `must be a UUID (8-4-4-4-12 hex digits), got ${describe(v)}`;
    case "boolean":
      return typeof v === "boolean" ? { value: v } : `must be true or false, got ${describe(v)}`;
    case "strings":
      return Array.isArray(v) && v.every((s) => typeof s === "string" && s !== "") ? { value: v } : `must be a list of non-empty strings, got ${describe(v)}`;
    case "size":
      try {
        return { value: parseSize(v) };
      } catch (e) {
        if (!(e instanceof StorageCodecError)) throw e;
        return `must be a size in bytes, or digits with a K, M, G, T or P suffix (e.g. 100G), got ${describe(v)}`;
      }
  }
}

/** Names must be unique, and references must name something in the inventory the server will have. */
function checkReferences(inv: InventoryInput, issues: InventoryIssue[]): void {
  // A list left out keeps the seeded one, so references are checked against what the server will hold.
  const seeded = { svms: DEFAULT_INVENTORY.svms.map((x) => x.name), nodes: DEFAULT_INVENTORY.nodes.map((x) => x.name), aggregates: DEFAULT_INVENTORY.aggregates.map((x) => x.name) };
  const names = (list: readonly { name: string }[] | undefined, fallback: readonly string[]): string[] => (list === undefined ? [...fallback] : list.map((x) => x.name));
  const svms = names(inv.svms, seeded.svms);
  const nodes = names(inv.nodes, seeded.nodes);
  const aggregates = names(inv.aggregates, seeded.aggregates);
  const unique = (key: "nodes" | "svms" | "aggregates" | "luns", list: readonly { name: string }[] | undefined): void => {
    const seen = new Set<string>();
    list?.forEach((x, i) => {
      if (seen.has(x.name)) issues.push({ path: [key, i, "name"], message: `duplicate name ${JSON.stringify(x.name)}` });
      seen.add(x.name);
    });
  };
  unique("nodes", inv.nodes);
  unique("svms", inv.svms);
  unique("aggregates", inv.aggregates);
  unique("luns", inv.luns);
  const missing = (what: string, list: string, known: readonly string[]) =>
    `${what} is not in ${list}${known.length === 0 ? " (the list is empty)" : ` (${known.join(", ")})`}`;
  inv.aggregates?.forEach((a, i) => {
    if (a.node !== undefined && !nodes.includes(a.node)) issues.push({ path: ["aggregates", i, "node"], message: missing(`node ${JSON.stringify(a.node)}`, "nodes", nodes) });
  });
  const volumeKeys = new Set<string>();
  inv.volumes?.forEach((v, i) => {
    if (!svms.includes(v.svm)) issues.push({ path: ["volumes", i, "svm"], message: missing(`SVM ${JSON.stringify(v.svm)}`, "svms", svms) });
    const key = `${v.svm}\u0000${v.name}`;
    if (volumeKeys.has(key)) issues.push({ path: ["volumes", i, "name"], message: `duplicate volume ${JSON.stringify(v.name)} in SVM ${JSON.stringify(v.svm)}` });
    volumeKeys.add(key);
    v.aggregates?.forEach((a, j) => {
      if (!aggregates.includes(a)) issues.push({ path: ["volumes", i, "aggregates", j], message: missing(`aggregate ${JSON.stringify(a)}`, "aggregates", aggregates) });
    });
  });
  inv.luns?.forEach((l, i) => {
    if (!svms.includes(l.svm)) issues.push({ path: ["luns", i, "svm"], message: missing(`SVM ${JSON.stringify(l.svm)}`, "svms", svms) });
    if (!LUN_NAME_RE.test(l.name)) issues.push({ path: ["luns", i, "name"], message: `must be a LUN path /vol/<volume>[/<qtree>]/<name>, got ${JSON.stringify(l.name)}` });
  });
}

/**
 * Reads and checks an inventory file. An unreadable, unparsable or invalid
 * file is a CliError with exit 2, located by line and column.
 */
export async function loadInventory(io: CliIO, path: string): Promise<InventoryInput> {
  const input = await readInput(io, path);
  const format = detectFormat(input.name, input.bytes);
  if (format === "pb") throw new CliError(`${input.name}: an inventory is JSON or YAML, not protobuf`, EXIT_USAGE);
  const text = asText(input, format);
  const fail = (where: string, message: string): CliError => new CliError(`${input.name}: inventory error at ${where}: ${message}`, EXIT_USAGE);
  const lines = new LineCounter();
  if (format === "json") {
    try {
      JSON.parse(text);
    } catch (e) {
      // V8 names the offset only for some errors, and quotes the text around it for others.
      const message = (e instanceof Error ? e.message : String(e)).replace(/ (?:in JSON )?at position \d+.*$/s, "").replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, "");
      const before = text.slice(0, jsonErrorOffset(text));
      const line = before.split("\n").length;
      const column = before.length - before.lastIndexOf("\n");
      throw fail(`line ${line}, column ${column}`, `json: ${message}`);
    }
  }
  // JSON is YAML too; the YAML parser gives every node a source range, so both are located the same way.
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const all = Array.isArray(docs) ? docs : [];
  for (const doc of all) {
    const [err] = doc.errors;
    if (err !== undefined) {
      const at = lines.linePos(err.pos[0]);
      throw fail(`line ${at.line}, column ${at.col}`, `${format}: ${err.message.split("\n")[0] ?? ""}`);
    }
  }
  const nonEmpty = all.filter((d) => d.contents !== null);
  const [doc] = nonEmpty;
  if (doc === undefined) throw new CliError(`${input.name}: the inventory file is empty`, EXIT_USAGE);
  if (nonEmpty.length > 1) {
    const second = nonEmpty[1]?.contents?.range?.[0] ?? 0;
    throw fail(`line ${lines.linePos(second).line}`, `${nonEmpty.length} YAML documents; an inventory is one document`);
  }
  const { inventory, issues } = checkInventory(doc.toJS());
  if (issues.length === 0) return inventory;
  const located = issues.map((issue) => {
    const at = lines.linePos(locate(doc, issue));
    const field = issue.path.length === 0 ? "" : `, field ${formatPath(issue.path)}`;
    return `line ${at.line}, column ${at.col}${field}: ${issue.message}`;
  });
  if (located.length === 1) throw new CliError(`${input.name}: inventory error at ${located[0] ?? ""}`, EXIT_USAGE);
  throw new CliError(`${input.name}: ${located.length} inventory errors:\n${located.map((l) => `  ${l}`).join("\n")}`, EXIT_USAGE);
}

/** The source offset of an issue: the key of an unknown field, else the value (or the nearest enclosing node). */
function locate(doc: Document, issue: InventoryIssue): number {
  const path = [...issue.path];
  if (issue.atKey === true) {
    const key = path.pop();
    const parent = path.length === 0 ? doc.contents : doc.getIn(path, true);
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === key);
      const range = isScalar(pair?.key) ? pair.key.range : undefined;
      if (range !== undefined && range !== null) return range[0];
    }
  }
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    const range = (node as { range?: [number, number, number] | null } | null | undefined)?.range;
    if (range !== undefined && range !== null) return range[0];
  }
  return 0;
}

/** The offset of the first JSON syntax error in `text` (a small recursive-descent scan). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i] ?? "")) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = (): void => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail();
      i += text[i] === "\\" ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") {
          i++;
          return;
        } else fail();
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (m === null) fail();
    else i += m[0].length;
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (at) {
    return typeof at === "number" ? Math.min(at, text.length) : 0;
  }
}
