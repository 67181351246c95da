// JSON values and the collection machinery of the reference server: `fields` projection
// (with `*`, `**` and expensive fields), dotted-field filters and `order_by`
// (the API's REST conventions). Independent of the codecs on purpose.

import { HttpError, SERVER_ERROR_CODES, invalid } from "./errors.js";

export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = { [key: string]: Json };

/** Deepest nesting of objects and arrays a request body may have (API bodies need fewer than 10). */
export const MAX_JSON_DEPTH = 64;

const malformed = (message: string): HttpError =>
  new HttpError(400, SERVER_ERROR_CODES.MALFORMED_BODY, message, "body");
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Parses a request body strictly: UTF-8 without a byte-order mark, JSON, at most
 * MAX_JSON_DEPTH levels, no key twice in one object (JSON.parse would keep the last one
 * silently). `__proto__` keys become plain own members (JSON.parse never calls setters).
 */
export function parseJsonBody(raw: Uint8Array): Json {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw malformed("The request body is not valid UTF-8.");
  }
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    throw malformed("The request body is not valid JSON.");
  }
  checkShape(text);
  return value;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

// One linear pass over text JSON.parse accepted (so strings and brackets are well formed).
function checkShape(text: string): void {
  const open: (Set<string> | undefined)[] = []; // the keys seen per open object; undefined for arrays
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      for (i++; text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      const keys = open[open.length - 1];
      if (keys === undefined) continue;
      let j = i + 1;
      while (isSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== 0x3a) continue;
      const key = JSON.parse(text.slice(start, i + 1)) as string;
      if (keys.has(key)) throw malformed("The request body gives the same key twice in one object.");
      keys.add(key);
    } else if (c === 0x7b || c === 0x5b) {
      open.push(c === 0x7b ? new Set() : undefined);
      if (open.length > MAX_JSON_DEPTH)
        throw malformed(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
    }
  }
}

export const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

export function clone<T extends Json>(v: T): T {
  return structuredClone(v);
}

/** Drops `undefined` members (so records can be written with optional parts). */
export function compact(o: Record<string, Json | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

const split = (path: string): string[] => path.split(".");

/** The scalar values at a dotted path; arrays along the way are flattened. */
export function valuesAt(value: Json | undefined, path: readonly string[]): Json[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v) => valuesAt(v, path));
  if (path.length === 0) return [value];
  if (!isObject(value)) return [];
  const [head, ...rest] = path as [string, ...string[]];
  return valuesAt(ownMember(value, head), rest);
}

// Paths come from query parameters: only a record's own members count, so
// "svm.constructor" or "__proto__" never reach inherited objects.
function ownMember(o: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

type Trie = Map<string, Trie | true>;

function trieOf(paths: readonly string[]): Trie {
  const root: Trie = new Map();
  for (const p of paths) {
    let node = root;
    const parts = split(p);
    parts.forEach((part, i) => {
      const existing = node.get(part);
      if (existing === true) return;
      if (i === parts.length - 1) {
        node.set(part, true);
        return;
      }
      if (existing === undefined) {
        const next: Trie = new Map();
        node.set(part, next);
        node = next;
      } else node = existing;
    });
  }
  return root;
}

function pickTrie(value: Json, trie: Trie): Json | undefined {
  if (Array.isArray(value)) return value.map((v) => pickTrie(v, trie) ?? {});
  if (!isObject(value)) return undefined;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = trie.get(k);
    if (sub === undefined) continue;
    if (sub === true) out[k] = clone(v);
    else {
      const picked = pickTrie(v, sub);
      if (picked !== undefined && !(isObject(picked) && Object.keys(picked).length === 0)) out[k] = picked;
    }
  }
  return out;
}

/** The parts of `record` at the given dotted paths (a path selects its whole subtree). */
export function pick(record: JsonObject, paths: readonly string[]): JsonObject {
  const r = pickTrie(record, trieOf(paths));
  return isObject(r) ? r : {};
}

function stripPath(value: Json, path: readonly string[]): void {
  if (Array.isArray(value)) {
    for (const v of value) stripPath(v, path);
    return;
  }
  if (!isObject(value) || path.length === 0) return;
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) {
    delete value[head];
    return;
  }
  const next = ownMember(value, head);
  if (next === undefined) return;
  stripPath(next, rest);
  if (isObject(next) && Object.keys(next).length === 0) delete value[head];
}

/** A copy of `record` without the given dotted paths. */
export function omit(record: JsonObject, paths: readonly string[]): JsonObject {
  const copy = clone(record);
  for (const p of paths) stripPath(copy, split(p));
  return copy;
}

function merge(a: Json, b: Json): Json {
  if (isObject(a) && isObject(b)) {
    const out: JsonObject = { ...a };
    for (const [k, v] of Object.entries(b)) {
      const prev = ownMember(out, k);
      out[k] = prev === undefined ? v : merge(prev, v);
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.map((x, i) => merge(x, b[i] as Json));
  }
  return b;
}

/** What a collection or instance GET returns per record, per resource. */
export interface FieldPolicy {
  /** Every readable dotted field path (intermediate objects included). */
  readonly known: readonly string[];
  /** Fields returned only when asked for by name or with `**`. */
  readonly expensive: readonly string[];
  /** Fields a collection GET returns without `fields` (keys and `_links` are always added). */
  readonly collectionDefault: readonly string[] | "all";
  /** Whether an instance GET without `fields` includes the expensive fields. */
  readonly instanceIncludesExpensive: boolean;
  /** Key fields, always returned. */
  readonly keys: readonly string[];
}

/** Whether `path` names a readable field (or lies inside one, or is a parent of one). */
export function isKnownPath(policy: FieldPolicy, path: string): boolean {
  if (path === "" || path.split(".").some((s) => s === "")) return false;
  return policy.known.some((k) => k === path || k.startsWith(`${path}.`) || path.startsWith(`${k}.`));
}

/** Parses `fields` into a list of names; `undefined` when the parameter is absent or empty. */
export function parseFields(
  raw: string | undefined,
  policy: FieldPolicy,
  ignoreUnknown: boolean,
): readonly string[] | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const n of names) {
    if (n === "*" || n === "**") continue;
    if (!isKnownPath(policy, n) && !ignoreUnknown) {
      throw new HttpError(400, SERVER_ERROR_CODES.UNEXPECTED_ARGUMENT, `Unknown field "${n}" in "fields".`, "fields");
    }
  }
  return names;
}

/** Applies the `fields` rules to one stored record. */
export function project(
  record: JsonObject,
  policy: FieldPolicy,
  fields: readonly string[] | undefined,
  mode: "collection" | "instance",
  extra: readonly string[] = [],
): JsonObject {
  const always = [...policy.keys, "_links"];
  if (fields === undefined) {
    if (mode === "instance") {
      return policy.instanceIncludesExpensive ? clone(record) : omit(record, policy.expensive);
    }
    if (policy.collectionDefault === "all") {
      return merge(omit(record, policy.expensive), pick(record, extra)) as JsonObject;
    }
    return pick(record, [...always, ...policy.collectionDefault, ...extra]);
  }
  if (fields.includes("**")) return clone(record);
  const named = fields.filter((f) => f !== "*");
  const picked = pick(record, [...always, ...named, ...extra]);
  if (fields.includes("*")) return merge(omit(record, policy.expensive), picked) as JsonObject;
  return picked;
}

// ---------------------------------------------------------------------------------------
// Filters.

const scalarText = (v: Json): string | undefined =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined;

/**
 * Whether `text` matches `pattern`, where `*` stands for any run of characters. Greedy with
 * one backtrack point, so O(text × pattern) at worst: a regular expression would backtrack
 * exponentially on patterns such as `*0*0*0*0*0*0*X` from a query string.
 */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      mark = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

function compare(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (a.trim() !== "" && b.trim() !== "" && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

function matchesAlternative(raw: string, values: readonly Json[]): boolean {
  // Leading `!`s are counted, not recursed into: a query can hold thousands of them.
  let bangs = 0;
  while (raw[bangs] === "!") bangs++;
  const negate = bangs % 2 === 1;
  const alt = raw.slice(bangs);
  return matchesPlain(alt, values) !== negate;
}

function matchesPlain(alt: string, values: readonly Json[]): boolean {
  const texts = values.map(scalarText).filter((t): t is string => t !== undefined);
  if (alt === "null") return texts.length === 0;
  for (const op of ["<=", ">=", "<", ">"] as const) {
    if (alt.startsWith(op)) {
      const operand = alt.slice(op.length);
      return texts.some((t) => {
        const c = compare(t, operand);
        return op === "<=" ? c <= 0 : op === ">=" ? c >= 0 : op === "<" ? c < 0 : c > 0;
      });
    }
  }
  if (alt.includes("*")) return texts.some((t) => globMatch(alt, t));
  return texts.some((t) => t === alt);
}

export interface Filter {
  readonly path: string;
  readonly alternatives: readonly string[];
}

/**
 * Whether a record matches a filter. Grammar (the API's query conventions): the value is a list of
 * alternatives separated by `|` (any may match); an alternative is `null`, `!null`, an
 * exact value, a `*` wildcard pattern, a comparison `<v`, `>v`, `<=v`, `>=v` (numeric when
 * both sides are numbers, else by text), or any of these prefixed with `!` (not). For a field
 * inside an array (e.g. `origins.volume.name`), any element may match; `!` means no element
 * matches. Matching is case-sensitive.
 */
export function matchesFilter(record: JsonObject, filter: Filter): boolean {
  const values = valuesAt(record, split(filter.path));
  return filter.alternatives.some((alt) => matchesAlternative(alt, values));
}

export function parseFilter(path: string, raw: string): Filter {
  return { path, alternatives: raw.split("|") };
}

/** `order_by`: comma-separated `field [asc|desc]`. */
export function parseOrderBy(
  raw: string,
  policy: FieldPolicy,
): readonly { readonly path: string; readonly desc: boolean }[] {
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((item) => {
      const m = /^(\S+)(?:\s+(asc|desc))?$/.exec(item);
      if (m === null || !isKnownPath(policy, m[1] as string)) {
        throw invalid("order_by", `Invalid "order_by" entry.`);
      }
      return { path: m[1] as string, desc: m[2] === "desc" };
    });
}

export function sortRecords(
  records: JsonObject[],
  order: readonly { readonly path: string; readonly desc: boolean }[],
): JsonObject[] {
  if (order.length === 0) return records;
  return [...records].sort((a, b) => {
    for (const { path, desc } of order) {
      const va = scalarText(valuesAt(a, split(path))[0] ?? null) ?? "";
      const vb = scalarText(valuesAt(b, split(path))[0] ?? null) ?? "";
      const c = compare(va, vb);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}
