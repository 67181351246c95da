// A manifest text cut into its documents, as `clusterwire validate` reads it (readManifests): a
// YAML stream split at `---` lines, or JSON values one after another; a v1 List read item by
// item. Each document is parsed once. Documents the networking decoders must judge (a
// networking.k8s.io kind, the removed ones, or a document without apiVersion and kind) go to
// readManifests, which reads them exactly as `validate` does; so do documents that do not
// parse, for the same error and the same template flag. Every other document is given to the
// caller as its parsed value, with a way to find where a field of it sits in the text.
//
// A YAML document whose top-level `apiVersion:` and `kind:` lines name a kind the caller does
// not want (a ConfigMap, a CustomResourceDefinition of a megabyte) is not parsed at all: it is
// only counted. Parsing is most of the reading time, and such documents are often most of a
// repository's text.

import {
  DecodeError,
  type JsonObject,
  type JsonValue,
  type ManifestEntry,
  type NetworkingObject,
  locateYamlPath,
  parseYamlDocuments,
  readManifests,
  splitYamlDocuments,
} from "../../networking/index.js";

/** A 1-based line and column of the whole text. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Where the value at a JSON path (keys and list indexes) of a document sits; the document's start when it cannot be found. */
export type Locate = (path: readonly (string | number)[]) => Position;

/** One document (or List item) of a text, in text order. */
export type FileDocument =
  | {
      /** A document of another kind than networking's: its parsed value. */
      readonly type: "value";
      readonly value: JsonObject;
      readonly apiVersion: string;
      readonly kind: string;
      /** The line where it starts. */
      readonly line: number;
      readonly locate: Locate;
    }
  | {
      /** A networking object, decoded by readManifests. */
      readonly type: "object";
      readonly object: NetworkingObject;
      readonly line: number;
      readonly locate: Locate;
    }
  | {
      /** A YAML document of a kind the caller does not want, named by its top-level lines and not parsed. */
      readonly type: "ignored";
      readonly apiVersion: string;
      readonly kind: string;
      readonly line: number;
    }
  | {
      /** A document that cannot be read or decoded. */
      readonly type: "error";
      readonly line: number;
      readonly column: number;
      /** The line where the document starts. */
      readonly documentLine: number;
      readonly message: string;
      /** It does not parse and holds `{{ }}`: an unrendered template. */
      readonly template: boolean;
      /** The kind the document names, when it could be read. */
      readonly kind?: string;
    };

/** Which kinds the caller reads; documents of other kinds may be counted without being parsed. */
export type WantedKind = (apiVersion: string, kind: string) => boolean;

const LIST_API_VERSION = "v1";
const LIST_KIND = "List";

/** Whether a value is a plain (JSON) object. */
export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The member `key` of `obj`, when it is its own (a parsed object may have a prototype). */
export function member(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** A document's apiVersion and kind, when both are non-empty strings. */
function identity(v: JsonValue): { apiVersion: string; kind: string } | undefined {
  if (!isObject(v)) return undefined;
  const apiVersion = member(v, "apiVersion");
  const kind = member(v, "kind");
  if (typeof apiVersion !== "string" || typeof kind !== "string" || apiVersion === "" || kind === "") return undefined;
  return { apiVersion, kind };
}

/** A networking.k8s.io kind (served or removed), or extensions/v1beta1's removed Ingress and NetworkPolicy. */
function networkingKind(apiVersion: string, kind: string): boolean {
  if (apiVersion.startsWith("networking.k8s.io/")) return true;
  return apiVersion === "extensions/v1beta1" && (kind === "Ingress" || kind === "NetworkPolicy");
}

/**
 * Whether readManifests would decode the value rather than pass it over: a networking kind, or
 * a document without apiVersion and kind (which the decoder refuses). A List is the decoders'
 * when any of its items is.
 */
function forDecoder(v: JsonValue, top: boolean): boolean {
  const id = identity(v);
  if (id === undefined) return true;
  if (top && id.apiVersion === LIST_API_VERSION && id.kind === LIST_KIND && isObject(v)) {
    const items = member(v, "items");
    return Array.isArray(items) && items.some((item) => forDecoder(item, false));
  }
  return networkingKind(id.apiVersion, id.kind);
}

/**
 * JSON when the first non-blank character opens an object or array (but `{{` opens a
 * template), as readManifests guesses.
 */
function isJsonText(text: string): boolean {
  const at = text.search(/\S/);
  const first = at < 0 ? undefined : text[at];
  if (first === "{" && text[at + 1] === "{") return false;
  return first === "{" || first === "[";
}

/**
 * The documents of a manifest text, in order. Never throws for bad content: what cannot be read
 * is an `error` document.
 */
export function readDocuments(text: string, wanted: WantedKind): FileDocument[] {
  const out: FileDocument[] = [];
  if (isJsonText(text)) readJson(text, out);
  else readYaml(text, wanted, out);
  return out;
}

/** Where a piece of the text starts in the whole: its positions are moved by this much. */
interface Shift {
  readonly line: number;
  readonly column: number;
}

function shiftPosition(p: Position, s: Shift): Position {
  return { line: p.line + s.line - 1, column: p.line === 1 ? p.column + s.column - 1 : p.column };
}

function readYaml(text: string, wanted: WantedKind, out: FileDocument[]): void {
  for (const chunk of splitYamlDocuments(text)) {
    if (chunk.text.trim() !== "") readYamlChunk(chunk.text, chunk.line, wanted, out);
    const e = chunk.separatorError;
    if (e !== undefined) {
      const line = e.line ?? chunk.line;
      out.push({ type: "error", line, column: e.column ?? 1, documentLine: line, message: e.reason, template: false });
    }
  }
}

const KIND_LINE = /^kind:[ \t]*(["']?)([A-Za-z0-9]+)\1[ \t]*(?:#.*)?\r?$/gm;
const API_VERSION_LINE = /^apiVersion:[ \t]*(["']?)([A-Za-z0-9./-]+)\1[ \t]*(?:#.*)?\r?$/gm;

/** The only match of a top-level line pattern, or undefined when there is none or more than one. */
function onlyMatch(text: string, pattern: RegExp): string | undefined {
  let found: string | undefined;
  for (const m of text.matchAll(pattern)) {
    if (found !== undefined) return undefined;
    found = m[2];
  }
  return found;
}

function readYamlChunk(chunk: string, line: number, wanted: WantedKind, out: FileDocument[]): void {
  const shift: Shift = { line, column: 1 };
  // What the top-level lines name, when a document that is no template names one kind once.
  const kind = chunk.includes("{{") ? undefined : onlyMatch(chunk, KIND_LINE);
  const apiVersion = kind === undefined ? undefined : onlyMatch(chunk, API_VERSION_LINE);
  if (kind !== undefined && apiVersion !== undefined) {
    if (networkingKind(apiVersion, kind)) {
      // The decoders' document: readManifests parses it, once.
      const parsed = lazily(() => parseYamlDocuments(chunk, { uniqueKeys: false }));
      fromEntries(readManifests(chunk, { format: "yaml" }), parsed, shift, yamlLocate(chunk, line), out);
      return;
    }
    if (!(apiVersion === LIST_API_VERSION && kind === LIST_KIND) && !wanted(apiVersion, kind)) {
      // A kind nobody reads: counted, not parsed.
      out.push({ type: "ignored", apiVersion, kind, line: firstContentLine(chunk, line) });
      return;
    }
  }
  let values: JsonValue[];
  try {
    // Repeated keys: the last value, as kubectl sends it.
    values = parseYamlDocuments(chunk, { uniqueKeys: false });
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    // The same error (and template flag) as `clusterwire validate` gives.
    const none = (): JsonValue[] => [];
    fromEntries(readManifests(chunk, { format: "yaml" }), none, shift, () => () => ({ line, column: 1 }), out);
    return;
  }
  const parsed = (): JsonValue[] => values;
  const locate = yamlLocate(chunk, line);
  if (values.some((v) => forDecoder(v, true))) {
    fromEntries(readManifests(chunk, { format: "yaml" }), parsed, shift, locate, out);
    return;
  }
  values.forEach((value, i) => {
    const start = values.length === 1 ? firstContentLine(chunk, line) : locate(i, line)([]).line;
    pushValue(value, start, locate(i, start), (count) => yamlItemLines(chunk, i, shift, count), out);
  });
}

/** `read`'s result, computed on the first call. */
function lazily<T>(read: () => T): () => T {
  let value: { v: T } | undefined;
  return () => {
    value ??= { v: read() };
    return value.v;
  };
}

/** Where a path of the `index`-th document of a YAML piece is, or `start` when it cannot be found. */
function yamlLocate(chunk: string, line: number): (index: number, start: number) => Locate {
  const shift: Shift = { line, column: 1 };
  return (index, start) => (path) => locateIn(chunk, index, path, shift) ?? { line: start, column: 1 };
}

/** Where `path` is in the `index`-th document of a piece of the text, placed in the whole text. */
function locateIn(
  piece: string,
  index: number,
  path: readonly (string | number)[],
  shift: Shift,
): Position | undefined {
  const at = locateYamlPath(piece, index, path);
  return at.line === undefined ? undefined : shiftPosition({ line: at.line, column: at.column ?? 1 }, shift);
}

/**
 * A parsed document, a v1 List expanded into its items (the List's own members are not
 * checked). `itemLines` finds where the items start in one pass, when it can: locating each
 * item on its own parses the List again for each, which a List of thousands cannot afford.
 */
function pushValue(
  value: JsonValue,
  line: number,
  locate: Locate,
  itemLines: (count: number) => readonly number[] | undefined,
  out: FileDocument[],
): void {
  const id = identity(value);
  if (id !== undefined && id.apiVersion === LIST_API_VERSION && id.kind === LIST_KIND && isObject(value)) {
    const items = member(value, "items");
    if (Array.isArray(items)) {
      const lines = items.length > 1 ? itemLines(items.length) : undefined;
      items.forEach((item, i) => {
        const itemLocate: Locate = (path) => locate(["items", i, ...path]);
        pushOne(item, lines?.[i] ?? itemLocate([]).line, itemLocate, out);
      });
      return;
    }
  }
  pushOne(value, line, locate, out);
}

function pushOne(value: JsonValue, line: number, locate: Locate, out: FileDocument[]): void {
  const id = identity(value);
  // Only values readManifests passes over come here, so they have an identity; the check keeps the types honest.
  if (id === undefined || !isObject(value)) {
    out.push({
      type: "error",
      line,
      column: 1,
      documentLine: line,
      message: "not a Kubernetes object",
      template: false,
    });
    return;
  }
  out.push({ type: "value", value, apiVersion: id.apiVersion, kind: id.kind, line, locate });
}

/**
 * The lines where the `count` items of a YAML List's block sequence start (`- ` at one
 * indentation), found by reading the lines after the first item; undefined when the text is
 * not laid out so (a flow sequence, `-` alone on its line) or the count differs.
 */
function yamlItemLines(chunk: string, index: number, shift: Shift, count: number): number[] | undefined {
  const first = locateIn(chunk, index, ["items", 0], shift);
  if (first === undefined) return undefined;
  const lines = chunk.split("\n");
  const local = first.line - shift.line + 1;
  const dash = /^( *)- +$/.exec((lines[local - 1] ?? "").slice(0, first.column - 1));
  if (dash === null) return undefined;
  const column = dash[1]?.length ?? 0;
  const found = [first.line];
  for (let n = local + 1; n <= lines.length; n++) {
    const text = lines[n - 1] ?? "";
    if (/^\s*(#.*)?\r?$/.test(text)) continue;
    const indent = /^ */.exec(text)?.[0].length ?? 0;
    if (indent > column) continue;
    if (indent < column || !/^- |^-\r?$/.test(text.slice(column))) break;
    found.push(n + shift.line - 1);
  }
  return found.length === count ? found : undefined;
}

/**
 * readManifests' entries for a piece of the text, in order: decoded objects and errors as they
 * are, and each skipped document or item taken from the values already parsed.
 */
function fromEntries(
  entries: readonly ManifestEntry[],
  values: () => readonly JsonValue[],
  shift: Shift,
  locate: (index: number, start: number) => Locate,
  out: FileDocument[],
): void {
  for (const entry of entries) {
    const start = (entry.line ?? 1) + shift.line - 1;
    if (entry.type === "object") {
      out.push({
        type: "object",
        object: entry.object,
        line: start,
        locate: (path) => {
          const at = entry.locate(path);
          return at === undefined ? { line: start, column: 1 } : shiftPosition(at, shift);
        },
      });
    } else if (entry.type === "error" && removedNetworkingKind(entry.apiVersion, entry.kind)) {
      // An Ingress or NetworkPolicy of an API version no supported Kubernetes serves: no cluster
      // holds it, so it shapes no traffic; it is passed over like any kind that is not read.
      out.push({
        type: "ignored",
        apiVersion: entry.apiVersion ?? "",
        kind: entry.kind ?? "",
        line: (entry.documentLine ?? entry.line ?? 1) + shift.line - 1,
      });
    } else if (entry.type === "error") {
      const at = shiftPosition({ line: entry.line ?? 1, column: entry.column ?? 1 }, shift);
      const name = [entry.namespace, entry.name].filter((s) => s !== undefined).join("/");
      const who = [entry.kind ?? "", name].filter((s) => s !== "").join(" ");
      out.push({
        type: "error",
        line: at.line,
        column: at.column,
        documentLine: (entry.documentLine ?? entry.line ?? 1) + shift.line - 1,
        message: who === "" ? entry.error.reason : `${who}: ${entry.error.reason}`,
        template: entry.template === true,
        ...(entry.kind !== undefined ? { kind: entry.kind } : {}),
      });
    } else {
      const index = (entry.document ?? 1) - 1;
      const document = values()[index];
      if (document === undefined) continue;
      const whole = locate(index, start);
      if (entry.item === undefined) {
        pushOne(document, start, whole, out);
      } else {
        const items = isObject(document) ? member(document, "items") : undefined;
        const item = Array.isArray(items) ? items[entry.item] : undefined;
        const i = entry.item;
        if (item !== undefined) pushOne(item, start, (path) => whole(["items", i, ...path]), out);
      }
    }
  }
}

/**
 * The first line of a document that holds content (not blank, a comment, a directive, or a
 * `---` line): where readManifests says a one-document piece starts.
 */
function firstContentLine(text: string, line: number): number {
  let n = line;
  let start = 0;
  // Line by line up to the first with content; splitting the whole text cost a third of the reading time.
  for (let count = 0; count < 200 && start <= text.length; count++) {
    const nl = text.indexOf("\n", start);
    const l = text.slice(start, nl < 0 ? text.length : nl);
    const separator = l.startsWith("---") && !/\r./.test(l);
    if (!/^\s*(#.*)?\r?$/.test(l) && !l.startsWith("%") && !separator) return n;
    if (nl < 0) break;
    start = nl + 1;
    n++;
  }
  return line;
}

function readJson(text: string, out: FileDocument[]): void {
  const starts = lineStarts(text);
  let start = text.search(/\S/);
  while (start >= 0 && start < text.length) {
    const end = jsonValueEnd(text, start) ?? text.length;
    const piece = text.slice(start, end);
    readJsonPiece(piece, positionIn(starts, start), out);
    const rest = text.slice(end).search(/\S/);
    start = rest < 0 ? -1 : end + rest;
  }
}

function readJsonPiece(piece: string, shift: Shift, out: FileDocument[]): void {
  let value: JsonValue;
  try {
    value = JSON.parse(piece) as JsonValue;
  } catch {
    const start: Locate = () => ({ line: shift.line, column: shift.column });
    fromEntries(
      readManifests(piece, { format: "json" }),
      () => [],
      shift,
      () => start,
      out,
    );
    return;
  }
  const locate: Locate = (path) => locateIn(piece, 0, path, shift) ?? { line: shift.line, column: shift.column };
  if (forDecoder(value, true)) {
    fromEntries(
      readManifests(piece, { format: "json" }),
      () => [value],
      shift,
      () => locate,
      out,
    );
    return;
  }
  pushValue(
    value,
    shift.line,
    locate,
    (count) => {
      const lines = jsonItemLines(piece, shift);
      return lines?.length === count ? lines : undefined;
    },
    out,
  );
}

/**
 * The end of the JSON object or array that starts at `start` (just after its closing bracket),
 * found by counting brackets outside strings; undefined when it is not closed or `start` opens
 * neither. Only cuts a stream into values: each value is then parsed on its own.
 */
function jsonValueEnd(text: string, start: number): number | undefined {
  const open = text[start];
  if (open !== "{" && open !== "[") return undefined;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i) - 1;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** Just after the JSON string that opens at `start` (or the text's end). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  return text.length;
}

/** Just after the JSON value (of a text already known to parse) that starts at `start`. */
function valueEnd(text: string, start: number): number {
  const c = text[start];
  if (c === '"') return stringEnd(text, start);
  if (c === "{" || c === "[") return jsonValueEnd(text, start) ?? text.length;
  const m = /[\s,\]}]/.exec(text.slice(start, start + 400));
  return m === null ? text.length : start + m.index;
}

const SPACE = /\S/g;

/** The offset of the first non-blank character at or after `from`. */
function skipSpace(text: string, from: number): number {
  SPACE.lastIndex = from;
  return SPACE.exec(text)?.index ?? text.length;
}

/**
 * The lines where the items of a JSON List (a text that parses, holding one object) start,
 * found by skipping over the top-level members to `"items"` and over each item in turn.
 */
function jsonItemLines(piece: string, shift: Shift): number[] | undefined {
  const starts = lineStarts(piece);
  let at = skipSpace(piece, 1);
  while (at < piece.length && piece[at] === '"') {
    const keyEnd = stringEnd(piece, at);
    const key = JSON.parse(piece.slice(at, keyEnd)) as string;
    at = skipSpace(piece, skipSpace(piece, keyEnd) + 1);
    if (key === "items" && piece[at] === "[") {
      const lines: number[] = [];
      at = skipSpace(piece, at + 1);
      while (at < piece.length && piece[at] !== "]") {
        lines.push(shiftPosition(positionIn(starts, at), shift).line);
        at = skipSpace(piece, valueEnd(piece, at));
        if (piece[at] === ",") at = skipSpace(piece, at + 1);
      }
      return lines;
    }
    at = skipSpace(piece, valueEnd(piece, at));
    if (piece[at] === ",") at = skipSpace(piece, at + 1);
  }
  return undefined;
}

/** The offset where each line of `text` starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line and column of `offset`. */
function positionIn(starts: readonly number[], offset: number): Position {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

/** The networking kinds under API versions Kubernetes removed (extensions/v1beta1, networking.k8s.io/v1beta1). */
function removedNetworkingKind(apiVersion: string | undefined, kind: string | undefined): boolean {
  return (
    (apiVersion === "extensions/v1beta1" && (kind === "Ingress" || kind === "NetworkPolicy")) ||
    (apiVersion === "networking.k8s.io/v1beta1" && (kind === "Ingress" || kind === "IngressClass"))
  );
}
