// Checking a reference-server inventory (InventoryInput) strictly: unknown fields, wrong
// types, bad enums and UUIDs, sizes (bytes, or Size strings such as "100G", which become
// bytes), duplicate names, dangling references to SVMs, nodes and aggregates, and LUN paths.
// `createReferenceServer({ inventory })` refuses a bad inventory with an InventoryError; the
// CLI (`clusterwire storage serve --inventory FILE`) uses `checkInventory` and maps each
// issue's path back to its line and column in the file.
//
// InventoryError rather than StorageCodecError: an inventory can have several problems at
// once, and each keeps its path as segments so that a caller holding the source (the CLI)
// can locate it; `path` is the first problem's path as text, like StorageCodecError's.

import { DEFAULT_INVENTORY, type InventoryInput } from "./inventory.js";
import { parseSizeValue } from "./values.js";

/**
 * A field path as segments: `["volumes", 1, "svm"]`.
 *
 * @example
 * ```ts
 * import { checkInventory, formatInventoryPath } from "clusterwire/storage/server";
 *
 * const { issues } = checkInventory({ volumes: [{ name: "v", svm: "no-such-svm" }] });
 * for (const issue of issues) console.log(formatInventoryPath(issue.path), issue.message);
 * ```
 */
export type InventoryPath = readonly (string | number)[];

/**
 * One problem in the file, at a field.
 *
 * @example
 * ```ts
 * import { checkInventory, formatInventoryPath } from "clusterwire/storage/server";
 *
 * const { issues } = checkInventory({ volumes: [{ name: "v", svm: "no-such-svm" }] });
 * for (const issue of issues) console.log(formatInventoryPath(issue.path), issue.message);
 * ```
 */
export interface InventoryIssue {
  /** Where the problem is. */
  readonly path: InventoryPath;
  /** What is wrong there. */
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

/**
 * A path as text: `["volumes", 1, "svm"]` → `volumes[1].svm`.
 *
 * @example
 * ```ts
 * import { formatInventoryPath } from "clusterwire/storage/server";
 *
 * console.log(formatInventoryPath(["volumes", 1, "svm"])); // "volumes[1].svm"
 * ```
 */
export function formatInventoryPath(path: InventoryPath): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/**
 * Checks a parsed inventory and converts Size strings (`"100G"`) to bytes.
 * Returns the InventoryInput, or the problems found (all of them).
 *
 * @example
 * ```ts
 * import { checkInventory, formatInventoryPath } from "clusterwire/storage/server";
 *
 * const { issues } = checkInventory({ volumes: [{ name: "v", svm: "no-such-svm" }] });
 * for (const issue of issues) console.log(formatInventoryPath(issue.path), issue.message);
 * ```
 */
export function checkInventory(value: unknown): { inventory: InventoryInput; issues: readonly InventoryIssue[] } {
  const issues: InventoryIssue[] = [];
  const out: Record<string, unknown> = {};
  if (!isRecord(value)) {
    issues.push({
      path: [],
      message: `the inventory must be a mapping with ${Object.keys(SHAPES).join(", ")}, got ${describe(value)}`,
    });
    return { inventory: {}, issues };
  }
  for (const [key, v] of Object.entries(value)) {
    const shape = SHAPES[key];
    if (shape === undefined) {
      issues.push({
        path: [key],
        message: `unknown field ${JSON.stringify(key)}; expected ${Object.keys(SHAPES).join(", ")}`,
        atKey: true,
      });
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

function checkEntry(
  entry: unknown,
  path: InventoryPath,
  shape: Readonly<Record<string, FieldSpec>>,
  issues: InventoryIssue[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(entry)) {
    issues.push({ path, message: `must be a mapping with ${Object.keys(shape).join(", ")}, got ${describe(entry)}` });
    return out;
  }
  for (const [field, spec] of Object.entries(shape)) {
    if (spec.required === true && !Object.hasOwn(entry, field))
      issues.push({ path, message: `missing required field ${JSON.stringify(field)}` });
  }
  for (const [field, v] of Object.entries(entry)) {
    // Own entries only: "__proto__" or "constructor" must read as unknown fields.
    const spec = Object.hasOwn(shape, field) ? shape[field] : undefined;
    const at = [...path, field];
    if (spec === undefined) {
      issues.push({
        path: at,
        message: `unknown field ${JSON.stringify(field)}; expected ${Object.keys(shape).join(", ")}`,
        atKey: true,
      });
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
    return typeof v === "string" && kind.includes(v)
      ? { value: v }
      : `must be one of ${kind.join(", ")}, got ${describe(v)}`;
  }
  switch (kind) {
    case "string":
      return typeof v === "string" && v !== "" ? { value: v } : `must be a non-empty string, got ${describe(v)}`;
    case "uuid":
      return typeof v === "string" && UUID_RE.test(v)
        ? { value: v }
        : `must be a UUID (8-4-4-4-12 hex digits), got ${describe(v)}`;
    case "boolean":
      return typeof v === "boolean" ? { value: v } : `must be true or false, got ${describe(v)}`;
    case "strings":
      return Array.isArray(v) && v.every((s) => typeof s === "string" && s !== "")
        ? { value: v }
        : `must be a list of non-empty strings, got ${describe(v)}`;
    case "size": {
      // The server's own Size reader (values.ts), not the codecs' parseSize: the server stays
      // independent of codecs/ and client/ (see index.ts).
      const bytes = parseSizeValue(v);
      return bytes !== undefined
        ? { value: bytes }
        : `must be a size in bytes, or digits with a K, M, G, T or P suffix (e.g. 100G), got ${describe(v)}`;
    }
  }
}

/** Names must be unique, and references must name something in the inventory the server will have. */
function checkReferences(inv: InventoryInput, issues: InventoryIssue[]): void {
  // A list left out keeps the seeded one, so references are checked against what the server will hold.
  const seeded = {
    svms: DEFAULT_INVENTORY.svms.map((x) => x.name),
    nodes: DEFAULT_INVENTORY.nodes.map((x) => x.name),
    aggregates: DEFAULT_INVENTORY.aggregates.map((x) => x.name),
  };
  const names = (list: readonly { name: string }[] | undefined, fallback: readonly string[]): string[] =>
    list === undefined ? [...fallback] : list.map((x) => x.name);
  const svms = names(inv.svms, seeded.svms);
  const nodes = names(inv.nodes, seeded.nodes);
  const aggregates = names(inv.aggregates, seeded.aggregates);
  const unique = (
    key: "nodes" | "svms" | "aggregates" | "luns",
    list: readonly { name: string }[] | undefined,
  ): void => {
    const seen = new Set<string>();
    list?.forEach((x, i) => {
      if (seen.has(x.name))
        issues.push({ path: [key, i, "name"], message: `duplicate name ${JSON.stringify(x.name)}` });
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
    if (a.node !== undefined && !nodes.includes(a.node))
      issues.push({
        path: ["aggregates", i, "node"],
        message: missing(`node ${JSON.stringify(a.node)}`, "nodes", nodes),
      });
  });
  const volumeKeys = new Set<string>();
  inv.volumes?.forEach((v, i) => {
    if (!svms.includes(v.svm))
      issues.push({ path: ["volumes", i, "svm"], message: missing(`SVM ${JSON.stringify(v.svm)}`, "svms", svms) });
    const key = `${v.svm}\u0000${v.name}`;
    if (volumeKeys.has(key))
      issues.push({
        path: ["volumes", i, "name"],
        message: `duplicate volume ${JSON.stringify(v.name)} in SVM ${JSON.stringify(v.svm)}`,
      });
    volumeKeys.add(key);
    v.aggregates?.forEach((a, j) => {
      if (!aggregates.includes(a))
        issues.push({
          path: ["volumes", i, "aggregates", j],
          message: missing(`aggregate ${JSON.stringify(a)}`, "aggregates", aggregates),
        });
    });
  });
  inv.luns?.forEach((l, i) => {
    if (!svms.includes(l.svm))
      issues.push({ path: ["luns", i, "svm"], message: missing(`SVM ${JSON.stringify(l.svm)}`, "svms", svms) });
    if (!LUN_NAME_RE.test(l.name))
      issues.push({
        path: ["luns", i, "name"],
        message: `must be a LUN path /vol/<volume>[/<qtree>]/<name>, got ${JSON.stringify(l.name)}`,
      });
  });
}

/**
 * A refused inventory: every problem found, each with its field path.
 *
 * @example
 * ```ts
 * import { InventoryError, createReferenceServer } from "clusterwire/storage/server";
 *
 * try {
 *   await createReferenceServer({ inventory: { svms: [{ name: "" }] } });
 * } catch (e) {
 *   if (e instanceof InventoryError) console.log(e.path, e.issues.length); // "svms[0].name" 1
 * }
 * ```
 */
export class InventoryError extends Error {
  /** Always `"InventoryError"`. */
  override readonly name = "InventoryError";
  /** The first problem's field path as text, e.g. `volumes[1].svm`; "" for the whole inventory. */
  readonly path: string;
  /** Every problem found, in document order of the checks. */
  readonly issues: readonly InventoryIssue[];

  constructor(issues: readonly InventoryIssue[]) {
    const line = (i: InventoryIssue): string =>
      i.path.length === 0 ? i.message : `${formatInventoryPath(i.path)}: ${i.message}`;
    const [first] = issues;
    super(
      issues.length === 1 && first !== undefined
        ? `inventory: ${line(first)}`
        : `inventory: ${issues.length} problems: ${issues.map(line).join("; ")}`,
    );
    this.path = first === undefined ? "" : formatInventoryPath(first.path);
    this.issues = issues;
  }
}

/**
 * Checks an inventory; returns it with sizes as bytes, or throws an InventoryError listing every problem.
 *
 * @example
 * ```ts
 * import { createReferenceServer, validateInventory } from "clusterwire/storage/server";
 *
 * // An inventory written as JSON (or YAML, parsed first); sizes may be Size strings such as "100G".
 * const inventory = validateInventory({ volumes: [{ name: "data", svm: "svm1", size: "100G" }] });
 * const server = await createReferenceServer({ inventory });
 * await server.close();
 * ```
 */
export function validateInventory(value: unknown): InventoryInput {
  const { inventory, issues } = checkInventory(value);
  if (issues.length > 0) throw new InventoryError(issues);
  return inventory;
}
