// Hostile JSON and YAML text, generated from the descriptors: for every field
// path of every kind (Lists and Status included), every JSON type, the numbers
// around int32/int64, prototype-named keys at every object level, and the
// JSON, YAML and watch-stream specifics. The expected outcome of each case is
// derived from Go's decoding rules (encoding/json through sigs.k8s.io/json,
// go-yaml v2 through sigs.k8s.io/yaml; ../shared/docs/wire-format.md §4), restated in the
// model below, never from what the decoder returns.
//
// CLUSTERWIRE_PROPERTY_RUNS=N sets every fast-check run count to N (test/support/property-runs.ts).

import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DecodeError,
  KINDS,
  decodeJsonWatchEvent,
  decodeJsonWatchStream,
  encode,
  fromJson,
  fromYaml,
  toJson,
  toJsonString,
  toYaml,
  type JsonValue,
  type KindInfo,
  type NetworkingObject,
  type WatchEvent,
} from "../../src/networking/index.js";
import { FIELDS_V1_TYPE, INT_OR_STRING_TYPE, TIME_TYPE, shapeOf } from "../../src/networking/model/shapes.js";
import { parseYamlDocuments } from "../../src/networking/text/yaml/parse.js";
import { hex } from "../support/bytes.js";
import { expectSubquadratic } from "../support/growth.js";
import { propertyRuns } from "../support/property-runs.js";

// ------------------------------------------------------------ literals

/** A JSON value that keeps how its numbers are written ("1.0" is not "1" to Go). */
type Lit =
  | { readonly k: "str"; readonly v: string }
  | { readonly k: "num"; readonly text: string }
  | { readonly k: "bool"; readonly v: boolean }
  | { readonly k: "null" }
  | { readonly k: "arr"; readonly items: readonly Lit[] }
  | { readonly k: "obj"; readonly entries: readonly (readonly [string, Lit])[] }
  /** A JS number JSON cannot carry (NaN, ±Infinity). */
  | { readonly k: "nonFinite"; readonly v: number }
  /** A JS number beyond 2^53: possibly rounded already, so integer fields refuse it (README: pass a bigint). */
  | { readonly k: "unsafe"; readonly v: number };

const str = (v: string): Lit => ({ k: "str", v });
const num = (text: string): Lit => ({ k: "num", text });
const bool = (v: boolean): Lit => ({ k: "bool", v });
const nul = (): Lit => ({ k: "null" });
const arr = (...items: Lit[]): Lit => ({ k: "arr", items });
const obj = (...entries: [string, Lit][]): Lit => ({ k: "obj", entries });

/** A string as json.Marshal writes it: <, >, & and U+2028/U+2029 escaped. */
function goQuote(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** JSON text of `lit`, and where each part of it starts; `go`: strings as json.Marshal writes them. */
function renderJson(
  lit: Lit,
  at = new Map<Lit, number>(),
  base = 0,
  go = false,
): { text: string; at: Map<Lit, number> } {
  at.set(lit, base);
  switch (lit.k) {
    case "str":
      return { text: go ? goQuote(lit.v) : JSON.stringify(lit.v), at };
    case "num":
      return { text: lit.text, at };
    case "unsafe":
      return { text: String(lit.v), at }; // as JSON.stringify writes it
    case "bool":
      return { text: String(lit.v), at };
    case "null":
      return { text: "null", at };
    case "arr": {
      let text = "[";
      lit.items.forEach((item, i) => {
        if (i > 0) text += ",";
        text += renderJson(item, at, base + text.length, go).text;
      });
      return { text: text + "]", at };
    }
    case "obj": {
      let text = "{";
      lit.entries.forEach(([key, value], i) => {
        text += `${i > 0 ? "," : ""}${go ? goQuote(key) : JSON.stringify(key)}:`;
        text += renderJson(value, at, base + text.length, go).text;
      });
      return { text: text + "}", at };
    }
    default:
      throw new Error(`no JSON text for ${lit.k}`);
  }
}

/** YAML flow text of `lit` (numbers as written), and where each part starts. */
function renderYaml(lit: Lit, at = new Map<Lit, number>(), base = 0): { text: string; at: Map<Lit, number> } {
  at.set(lit, base);
  switch (lit.k) {
    case "arr": {
      let text = "[";
      lit.items.forEach((item, i) => {
        if (i > 0) text += ", ";
        text += renderYaml(item, at, base + text.length).text;
      });
      return { text: text + "]", at };
    }
    case "obj": {
      let text = "{";
      lit.entries.forEach(([key, value], i) => {
        text += `${i > 0 ? ", " : ""}${yamlKey(key)}: `;
        text += renderYaml(value, at, base + text.length).text;
      });
      return { text: text + "}", at };
    }
    default:
      return { text: renderJson(lit).text, at }; // JSON scalars are YAML flow scalars
  }
}

/** A plain key when YAML 1.1 reads it as that string (not `y`, `no`, `null`...), else double-quoted. */
function yamlKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_./-]*$/.test(key) && !/^(y|yes|n|no|on|off|true|false|null)$/i.test(key)
    ? key
    : JSON.stringify(key);
}

/** The JS value of `lit` as JSON.parse gives it, except integers beyond 2^53, which are bigints (the exact form). */
function jsOf(lit: Lit): unknown {
  switch (lit.k) {
    case "str":
    case "bool":
      return lit.v;
    case "null":
      return null;
    case "num": {
      const n = Number(lit.text);
      return /^-?(0|[1-9][0-9]*)$/.test(lit.text) && !Number.isSafeInteger(n) ? BigInt(lit.text) : n;
    }
    case "arr":
      return lit.items.map(jsOf);
    case "obj": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of lit.entries)
        Object.defineProperty(out, k, { value: jsOf(v), enumerable: true, writable: true, configurable: true });
      return out;
    }
    case "nonFinite":
    case "unsafe":
      return lit.v;
  }
}

// ------------------------------------------------------------ what Go reads

/**
 * What the JSON text behind a JS value says. A JS value is read as the JSON
 * text JSON.stringify would write for it, except what that would change:
 * NaN and ±Infinity are refused (not written as null), integers past 2^53 must
 * be bigints, -0 is 0 (JSON.stringify(-0) is "0"), and object keys come in
 * Object.keys order.
 */
function meaningOfJs(v: unknown): Lit {
  switch (typeof v) {
    case "string":
      return str(v.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"));
    case "boolean":
      return bool(v);
    case "bigint":
      return num(v.toString());
    case "number":
      if (!Number.isFinite(v)) return { k: "nonFinite", v };
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) return { k: "unsafe", v };
      return num(String(v === 0 ? 0 : v));
    case "object":
      if (v === null) return nul();
      if (Array.isArray(v)) return arr(...v.map(meaningOfJs));
      // An undefined member is absent, as in JSON.stringify.
      return obj(
        ...Object.keys(v)
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k): [string, Lit] => [k, meaningOfJs((v as Record<string, unknown>)[k])]),
      );
    default:
      throw new Error(`not a JSON value: ${typeof v}`);
  }
}

/**
 * What go-yaml v2 + sigs.k8s.io/yaml turn a flow YAML value written like `lit`
 * into: integers within int64 or uint64 stay exact ("-0" is the int 0);
 * other numbers are float64s, which json.Marshal writes with the shortest
 * digits ("1.0" is 1, "1e2" is 100, -0.0 is "-0"), and which stay strings
 * when strconv.ParseFloat overflows ("1e400").
 */
function meaningOfYaml(lit: Lit): Lit {
  const m = yamlMeaning(lit);
  ORIGIN.set(m, lit);
  return m;
}

/** Where a meaning came from, to find its position in the text. */
const ORIGIN = new WeakMap<Lit, Lit>();

function yamlMeaning(lit: Lit): Lit {
  switch (lit.k) {
    case "num": {
      if (/^-?(0|[1-9][0-9]*)$/.test(lit.text)) {
        const b = BigInt(lit.text);
        if (b >= -(2n ** 63n) && b < 2n ** 64n) return num(b.toString());
      }
      const f = Number(lit.text);
      if (!Number.isFinite(f)) return str(lit.text);
      // encoding/json's float64 format and JS's agree: shortest digits, exponent below 1e-6 and from 1e21.
      return num(Object.is(f, -0) ? "-0" : String(f));
    }
    case "arr":
      return arr(...lit.items.map(meaningOfYaml));
    case "obj":
      return obj(...lit.entries.map(([k, v]): [string, Lit] => [k, meaningOfYaml(v)]));
    default:
      return lit;
  }
}

/** The Go type behind a JSON position, as far as decoding is concerned. */
type GoType =
  | { readonly t: "string" | "bool" | "int32" | "int64" | "time" | "intOrString" | "fieldsV1" | "struct" | "map" }
  /** kind/apiVersion of the top-level object. */
  | { readonly t: "topTypeMeta" }
  /** kind/apiVersion of a List item: TypeMeta strings (clusterwire keeps no TypeMeta per item). */
  | { readonly t: "itemTypeMeta" }
  | { readonly t: "list"; readonly elem: GoType };

/**
 * Which refusal Go reports when there are several: a custom unmarshaler's error (a Time's,
 * an IntOrString's; here also what JSON cannot hold) ends decoding; a type error is kept
 * while decoding goes on, the first one reported; an unknown field only when there is no
 * type error.
 */
type Refusal = "fatal" | "type" | "strict";

type Verdict =
  /** Accepted, and equal to decoding `canon` there (undefined: the key left out). */
  | { readonly ok: true; readonly canon: Lit | undefined }
  /** Refused at `path` below the position, where `at` is written. */
  | { readonly ok: false; readonly at: Lit; readonly path: readonly (string | number)[]; readonly kind: Refusal };

const accept = (canon: Lit | undefined): Verdict => ({ ok: true, canon });
const refuse = (at: Lit, path: readonly (string | number)[] = [], kind: Refusal = "type"): Verdict => ({
  ok: false,
  at,
  path,
  kind,
});

/** UTF-8 byte order, Go's order of a map's keys when json.Marshal writes it. */
function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Members in the order Go's decoder reads them: as written, or sorted (the JSON the API server makes of YAML). */
function membersOf(lit: Lit & { k: "obj" }, sorted: boolean): readonly (readonly [string, Lit])[] {
  return sorted ? [...lit.entries].sort(([a], [b]) => byUtf8(a, b)) : lit.entries;
}

/** The refusal Go reports among those of the members, in order (undefined: none). */
function firstRefusal(
  members: Iterable<readonly [string | number, () => Verdict]>,
): { at: Lit; path: (string | number)[]; kind: Refusal } | undefined {
  let type: { at: Lit; path: (string | number)[]; kind: Refusal } | undefined;
  let strict: typeof type;
  for (const [seg, decode] of members) {
    const r = decode();
    if (r.ok) continue;
    const found = { at: r.at, path: [seg, ...r.path], kind: r.kind };
    if (r.kind === "fatal") return found;
    if (r.kind === "type") type ??= found;
    else strict ??= found;
  }
  return type ?? strict;
}

/** strconv.ParseInt(literal, 10, 64) on the number's text: an integer literal, "-0" included; no fraction, no exponent. */
function goParseInt(lit: Lit): bigint | undefined {
  return lit.k === "num" && /^-?(0|[1-9][0-9]*)$/.test(lit.text) ? BigInt(lit.text) : undefined;
}

const RANGES = { int32: [-(2n ** 31n), 2n ** 31n - 1n], int64: [-(2n ** 63n), 2n ** 63n - 1n] } as const;

/** time.Parse(time.RFC3339, s) for the strings used here (all dates valid). */
function isRfc3339(s: string): boolean {
  return /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$/.test(s);
}

function nonFiniteIn(lit: Lit, path: (string | number)[] = []): [Lit, (string | number)[]] | undefined {
  if (lit.k === "nonFinite") return [lit, path];
  if (lit.k === "arr") {
    for (let i = 0; i < lit.items.length; i++) {
      const found = nonFiniteIn(lit.items[i] as Lit, [...path, i]);
      if (found !== undefined) return found;
    }
  }
  if (lit.k === "obj") {
    for (const [k, v] of lit.entries) {
      const found = nonFiniteIn(v, [...path, k]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function zeroOf(type: GoType): Lit {
  return type.t === "string" ? str("") : obj();
}

/**
 * Go decoding `lit` into a field of `type` (once, into a fresh object).
 * `member`: a list element or map value, where null is the zero value.
 *
 * null: Go sets a pointer, slice or map to nil, a Time to zero (its
 * UnmarshalJSON), and leaves a string, number, bool or struct alone; decoded
 * once into a fresh object every one of these is the key left out. A null
 * list element or map value is the element's zero value. The top-level kind
 * and apiVersion are required.
 */
function goDecode(type: GoType, lit: Lit, strict: boolean, member = false, sorted = false): Verdict {
  if (lit.k === "nonFinite") return refuse(lit, [], "fatal");
  if (lit.k === "null")
    return type.t === "topTypeMeta" ? refuse(lit, [], "fatal") : accept(member ? zeroOf(type) : undefined);
  switch (type.t) {
    case "topTypeMeta":
      return refuse(lit, [], "fatal"); // never the kind's own name here
    case "string":
    case "itemTypeMeta":
      return lit.k === "str" ? accept(lit) : refuse(lit);
    case "bool":
      return lit.k === "bool" ? accept(lit) : refuse(lit);
    case "int32":
    case "int64": {
      const n = goParseInt(lit);
      const [min, max] = RANGES[type.t];
      return n !== undefined && n >= min && n <= max ? accept(num(n.toString())) : refuse(lit);
    }
    case "intOrString": {
      // IntOrString.UnmarshalJSON: a leading quote means string, anything else int32.
      if (lit.k === "str") return accept(lit);
      const n = goParseInt(lit);
      return n !== undefined && n >= RANGES.int32[0] && n <= RANGES.int32[1]
        ? accept(num(n.toString()))
        : refuse(lit, [], "fatal");
    }
    case "time":
      return lit.k === "str" && isRfc3339(lit.v) ? accept(lit) : refuse(lit, [], "fatal");
    case "fieldsV1": {
      // FieldsV1.UnmarshalJSON keeps any JSON value's bytes; a JS NaN or Infinity has none.
      const bad = nonFiniteIn(lit);
      return bad === undefined ? accept(lit) : refuse(bad[0], bad[1], "fatal");
    }
    case "struct": {
      if (lit.k !== "obj") return refuse(lit);
      const first = membersOf(lit, sorted)[0]; // the candidates' keys are never field names
      if (strict && first !== undefined) return refuse(first[1], [first[0]], "strict");
      return accept(obj());
    }
    case "list": {
      if (lit.k !== "arr") return refuse(lit);
      const elem = type.elem;
      const found = firstRefusal(
        lit.items.map((item, i) => [i, () => goDecode(elem, item, strict, true, sorted)] as const),
      );
      if (found !== undefined) return refuse(found.at, found.path, found.kind);
      return accept(
        arr(...lit.items.map((item) => (goDecode(elem, item, strict, true, sorted) as { canon: Lit }).canon)),
      );
    }
    case "map": {
      if (lit.k !== "obj") return refuse(lit);
      const found = firstRefusal(
        membersOf(lit, sorted).map(
          ([key, value]) => [key, () => goDecode({ t: "string" }, value, strict, true)] as const,
        ),
      );
      if (found !== undefined) return refuse(found.at, found.path, found.kind);
      return accept(
        obj(
          ...lit.entries.map(([key, value]): [string, Lit] => [
            key,
            (goDecode({ t: "string" }, value, strict, true) as { canon: Lit }).canon,
          ]),
        ),
      );
    }
  }
}

// ------------------------------------------------------------ the descriptor walk

interface Site {
  readonly info: KindInfo;
  /** JSON path of the position. */
  readonly segments: readonly (string | number)[];
  /** Property path of the decoded value on the message (inline structs included). */
  readonly steps: readonly (string | number)[];
  readonly type: GoType;
  /** A list element or map value. */
  readonly member: boolean;
  /** Go pointer (for the report only: null means the same either way here). */
  readonly pointer: boolean;
}

const SPECIAL = new Set([TIME_TYPE, INT_OR_STRING_TYPE, FIELDS_V1_TYPE]);
/** The schemas are acyclic (the deepest path has 9 levels); the bound only guards the walk. */
const MAX_WALK_DEPTH = 16;

function typeOfMessage(desc: DescMessage): GoType {
  switch (desc.typeName) {
    case TIME_TYPE:
      return { t: "time" };
    case INT_OR_STRING_TYPE:
      return { t: "intOrString" };
    case FIELDS_V1_TYPE:
      return { t: "fieldsV1" };
    default:
      return { t: "struct" };
  }
}

function typeOfScalar(s: ScalarType): GoType {
  switch (s) {
    case ScalarType.STRING:
      return { t: "string" };
    case ScalarType.BOOL:
      return { t: "bool" };
    case ScalarType.INT32:
      return { t: "int32" };
    case ScalarType.INT64:
      return { t: "int64" };
    default:
      throw new Error(`scalar type ${ScalarType[s]} has no JSON form here`);
  }
}

function typeOfField(f: DescField): GoType {
  switch (f.fieldKind) {
    case "scalar":
      return typeOfScalar(f.scalar);
    case "message":
      return typeOfMessage(f.message);
    case "list":
      return {
        t: "list",
        elem: f.listKind === "message" ? typeOfMessage(f.message) : typeOfScalar(f.scalar as ScalarType),
      };
    case "map":
      return { t: "map" };
    default:
      throw new Error(`field kind ${f.fieldKind}`);
  }
}

/** Every position of a kind's JSON: fields, list elements ([0]) and map values (key "k"), to MAX_WALK_DEPTH. */
function sitesOf(info: KindInfo): Site[] {
  const out: Site[] = [];
  for (const key of ["kind", "apiVersion"])
    out.push({ info, segments: [key], steps: [], type: { t: "topTypeMeta" }, member: false, pointer: false });
  const walk = (desc: DescMessage, segments: (string | number)[], steps: (string | number)[], depth: number): void => {
    if (depth > MAX_WALK_DEPTH) throw new Error(`walk deeper than ${MAX_WALK_DEPTH} at ${segments.join(".")}`);
    if (segments.length > 0 && KINDS.some((k) => k.desc.typeName === desc.typeName)) {
      for (const key of ["kind", "apiVersion"])
        out.push({
          info,
          segments: [...segments, key],
          steps: [],
          type: { t: "itemTypeMeta" },
          member: false,
          pointer: false,
        });
    }
    for (const fs of shapeOf(desc).goOrder) {
      if (fs.inline) {
        walk(fs.field.message as DescMessage, segments, [...steps, fs.localName], depth);
        continue;
      }
      const seg = [...segments, fs.jsonKey as string];
      const st = [...steps, fs.localName];
      const type = typeOfField(fs.field);
      out.push({ info, segments: seg, steps: st, type, member: false, pointer: fs.pointer });
      const f = fs.field;
      if (type.t === "list") {
        out.push({ info, segments: [...seg, 0], steps: [...st, 0], type: type.elem, member: true, pointer: false });
        if (f.fieldKind === "list" && f.listKind === "message" && !SPECIAL.has(f.message.typeName))
          walk(f.message, [...seg, 0], [...st, 0], depth + 1);
      } else if (type.t === "map") {
        out.push({
          info,
          segments: [...seg, "k"],
          steps: [...st, "k"],
          type: { t: "string" },
          member: true,
          pointer: false,
        });
      } else if (type.t === "struct" && f.fieldKind === "message") {
        walk(f.message, seg, st, depth + 1);
      }
    }
  };
  walk(info.desc, [], [], 0);
  return out;
}

const SITES = new Map(KINDS.map((info) => [info.kind, sitesOf(info)] as const));
const ALL_SITES = [...SITES.values()].flat();

// ------------------------------------------------------------ documents

const LEAF = "\u0000leaf\u0000";
const ABSENT = Symbol("absent");

function setOwn(o: object, key: string | number, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The object of `site.info` with `leaf` at the site (ABSENT: the key left out), everything else minimal. */
function treeFor(site: Site, leaf: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = { kind: site.info.kind, apiVersion: site.info.apiVersion };
  let node: object = root;
  site.segments.forEach((seg, i) => {
    if (i === site.segments.length - 1) {
      if (leaf !== ABSENT) setOwn(node, seg, leaf);
      return;
    }
    const child = typeof site.segments[i + 1] === "number" ? [] : {};
    setOwn(node, seg, child);
    node = child;
  });
  return root;
}

interface Placed {
  readonly text: string;
  /** Offsets of every part of the literal in `text`. */
  readonly at: Map<Lit, number>;
}

/** Pretty JSON text (as the fixtures are written) with `lit` at the site; `go`: its strings as json.Marshal writes them. */
function jsonDoc(site: Site, lit: Lit | undefined, go = false): Placed {
  if (lit === undefined) return { text: JSON.stringify(treeFor(site, ABSENT), null, 2), at: new Map() };
  const skeleton = JSON.stringify(treeFor(site, LEAF), null, 2);
  const mark = JSON.stringify(LEAF);
  const base = skeleton.indexOf(mark);
  const { text, at } = renderJson(lit, new Map(), base, go);
  return { text: skeleton.slice(0, base) + text + skeleton.slice(base + mark.length), at };
}

/** Block YAML of a JS tree of objects, arrays and strings (the LEAF string is replaced by the caller). */
function blockYaml(v: unknown, indent: number): string {
  const pad = " ".repeat(indent);
  const inline = (x: unknown): string | undefined => {
    if (typeof x === "string") return x === LEAF ? LEAF : JSON.stringify(x);
    if (Array.isArray(x) && x.length === 0) return "[]";
    if (typeof x === "object" && x !== null && !Array.isArray(x) && Object.keys(x).length === 0) return "{}";
    return undefined;
  };
  let out = "";
  if (Array.isArray(v)) {
    for (const item of v) {
      const s = inline(item);
      out += s !== undefined ? `${pad}- ${s}\n` : `${pad}-\n${blockYaml(item, indent + 2)}`;
    }
    return out;
  }
  const o = v as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    const s = inline(o[key]);
    const nested = Array.isArray(o[key]) ? indent : indent + 2; // sequences under a key at the key's column, as Go writes them
    out += s !== undefined ? `${pad}${yamlKey(key)}: ${s}\n` : `${pad}${yamlKey(key)}:\n${blockYaml(o[key], nested)}`;
  }
  return out;
}

/** Block YAML with `yamlText` (flow YAML) at the site; `at` are offsets within yamlText. */
function yamlDoc(site: Site, yamlText: string | undefined, at = new Map<Lit, number>()): Placed {
  if (yamlText === undefined) return { text: blockYaml(treeFor(site, ABSENT), 0), at };
  const skeleton = blockYaml(treeFor(site, LEAF), 0);
  const base = skeleton.indexOf(LEAF);
  const shifted = new Map([...at].map(([k, v]) => [k, v + base] as const));
  return { text: skeleton.slice(0, base) + yamlText + skeleton.slice(base + LEAF.length), at: shifted };
}

function lineColumn(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return [line, offset - (before.lastIndexOf("\n") + 1) + 1];
}

/**
 * Line and column as go-yaml counts them, which YAML errors report: LF, CR,
 * CRLF, NEL, LS and PS each end a line; columns count characters.
 */
function yamlLineColumn(text: string, offset: number): [number, number] {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x85 || c === 0x2028 || c === 0x2029 || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return [line, [...text.slice(lineStart, offset)].length + 1];
}

// ------------------------------------------------------------ checking

type Outcome = { readonly value: NetworkingObject } | { readonly error: unknown };

function attempt(f: () => NetworkingObject): Outcome {
  try {
    return { value: f() };
  } catch (error) {
    return { error };
  }
}

function attemptYaml(text: string, strict = false): Outcome {
  return attempt(() => {
    const docs = fromYaml(text, { strict });
    if (docs.length !== 1) throw new Error(`expected one document, got ${docs.length}`);
    return docs[0] as NetworkingObject;
  });
}

/** Deep equality with Object.is on leaves (so -0 is not 0), bytes compared by value. */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

function readSite(o: unknown, steps: readonly (string | number)[]): unknown {
  let v = o;
  for (const s of steps) v = v === undefined || v === null ? undefined : (v as Record<string | number, unknown>)[s];
  return v;
}

/**
 * The canonical decode of `canon` at the site (from JSON text, the clean case).
 * `viaGo`: the value went through Go's YAML-to-JSON step (or is a JS value,
 * read alike), so a fieldsV1 holds json.Marshal's text: keys sorted, HTML escaped.
 */
const canonCache = new Map<string, NetworkingObject>();
function canonical(site: Site, canon: Lit | undefined, viaGo: boolean): NetworkingObject {
  const lit = canon !== undefined && viaGo ? sortLit(canon) : canon;
  const text = jsonDoc(site, lit, viaGo).text;
  let got = canonCache.get(text);
  if (got === undefined) {
    got = fromJson(text);
    canonCache.set(text, got);
  }
  return got;
}

/** Keys sorted by UTF-8 bytes, as Go's map-based YAML-to-JSON step (and a JS fieldsV1) writes them. */
function sortLit(lit: Lit): Lit {
  if (lit.k === "arr") return arr(...lit.items.map(sortLit));
  if (lit.k !== "obj") return lit;
  const bytes = (s: string): string => Buffer.from(s, "utf8").toString("latin1");
  return obj(
    ...[...lit.entries]
      .sort(([a], [b]) => (bytes(a) < bytes(b) ? -1 : bytes(a) > bytes(b) ? 1 : 0))
      .map(([k, v]): [string, Lit] => [k, sortLit(v)]),
  );
}

interface Expectation {
  readonly site: Site;
  readonly verdict: Verdict;
  readonly format: "json" | "yaml";
  /** Text input: offsets of the literal's parts, for the error position. */
  readonly placed?: Placed;
  /** fieldsV1 from YAML or a JS value is compact JSON with sorted keys. */
  readonly sortKeys?: boolean;
}

/** The decoded value the rules give for a scalar (undefined: not a scalar, or compared through the canonical decode). */
function scalarValue(type: GoType, canon: Lit): unknown {
  switch (type.t) {
    case "string":
      return canon.k === "str"
        ? canon.v.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
        : undefined;
    case "bool":
      return canon.k === "bool" ? canon.v : undefined;
    case "int32":
      return canon.k === "num" ? Number(canon.text) : undefined;
    case "int64":
      return canon.k === "num" ? BigInt(canon.text) : undefined; // exact, a bigint
    default:
      return undefined;
  }
}

/** Checks one outcome against the model; returns a description of the mismatch, or undefined. */
function check(got: Outcome, x: Expectation): string | undefined {
  const where = `${x.site.info.kind} ${x.site.segments.join(".")}`;
  if (x.verdict.ok) {
    if ("error" in got) return `${where}: refused: ${String(got.error)}`;
    const want = canonical(x.site, x.verdict.canon, x.sortKeys === true);
    if (toJsonString(got.value) !== toJsonString(want))
      return `${where}: JSON ${toJsonString(got.value)} != ${toJsonString(want)}`;
    if (hex(encode(got.value)) !== hex(encode(want))) return `${where}: protobuf differs`;
    const value = readSite(got.value, x.site.steps);
    if (!same(value, readSite(want, x.site.steps))) return `${where}: decoded value differs`;
    const direct = x.verdict.canon === undefined ? undefined : scalarValue(x.site.type, x.verdict.canon);
    if (direct !== undefined && !same(value, direct))
      return `${where}: decoded ${String(value)}, want ${String(direct)}`;
    return undefined;
  }
  if (!("error" in got))
    return `${where}: accepted, want a refusal at ${[...x.site.segments, ...x.verdict.path].join(".")}`;
  const e = got.error;
  if (!(e instanceof DecodeError)) return `${where}: threw ${String(e)}`;
  if (e.format !== x.format) return `${where}: format ${e.format}`;
  const segments = [...x.site.segments, ...x.verdict.path];
  if (!same(e.segments, segments)) return `${where}: segments ${JSON.stringify(e.segments)} (${e.message})`;
  if (x.placed === undefined)
    return e.line === undefined && e.offset === undefined ? undefined : `${where}: a JS value has no text position`;
  const offset = x.placed.at.get(x.verdict.at) ?? x.placed.at.get(ORIGIN.get(x.verdict.at) as Lit);
  if (offset === undefined) throw new Error("test bug: no offset");
  const [line, column] = (x.format === "yaml" ? yamlLineColumn : lineColumn)(x.placed.text, offset);
  if (e.offset !== offset || e.line !== line || e.column !== column) {
    return `${where}: at offset ${e.offset} ${e.line}:${e.column}, want ${offset} ${line}:${column} (${e.message})`;
  }
  if (x.format === "yaml" && e.document !== 1) return `${where}: document ${e.document}`;
  return undefined;
}

// ------------------------------------------------------------ 1 and 2: every field, every JSON type, number edges

/**
 * Every JSON type, each once, plus what only matters to some types (fresh
 * objects: positions are looked up by identity).
 */
function wrongTypes(site: Site): Lit[] {
  const t = site.type.t;
  // Number spellings matter where numbers are read; elsewhere one integer and one float stand for all.
  const numbers = isNumeric(site) || t === "fieldsV1" ? ["1", "-0", "1.5", "1.0", "1e2"] : ["1", "1.5"];
  return [
    str("s"),
    str(""),
    ...numbers.map(num),
    bool(true),
    nul(),
    arr(),
    arr(num("1")),
    arr(nul()),
    arr(str("s")),
    obj(),
    obj(["a", num("1")]),
    obj(["a", nul()]),
    obj(["a", str("s")]),
    ...(t === "time" ? [str("2008-01-01T01:01:01Z"), str("2008-01-01")] : []),
    ...(t === "intOrString" ? [str("80"), num("-1"), num("-1E+2")] : []),
    ...(t === "bool" ? [bool(false)] : []),
  ];
}

const DIGITS = 1000;
/** Numbers around int32 and int64, floats that are integers, and long digit strings. */
function numberEdges(): Lit[] {
  return [
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "9007199254740991",
    "9007199254740993",
    "-9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "100000000000000000000",
    "1e400",
    "-1e400",
    "1E-2",
    "0.0",
    "-0.0",
    "1e17",
    "8e1",
    "1" + "0".repeat(DIGITS),
    "-" + "9".repeat(DIGITS),
    "0." + "0".repeat(DIGITS) + "1",
  ].map(num);
}

const isNumeric = (site: Site): boolean =>
  site.type.t === "int32" || site.type.t === "int64" || site.type.t === "intOrString";
const candidates = (site: Site): Lit[] => [...wrongTypes(site), ...(isNumeric(site) ? numberEdges() : [])];
/** Strict mode changes the outcome only where an object holds keys (unknown fields of a struct). */
const strictMatters = (lit: Lit): boolean => lit.k === "obj" && lit.entries.length > 0;

/** JS values: the candidates as JSON.parse gives them, and what JSON text cannot say. */
function jsCandidates(site: Site): unknown[] {
  const numeric = isNumeric(site) || site.type.t === "fieldsV1";
  return [
    ...candidates(site).map(jsOf),
    Number.NaN,
    ...(numeric
      ? [
          Number.POSITIVE_INFINITY,
          Number.NEGATIVE_INFINITY,
          2 ** 53 + 2,
          2 ** 63,
          2n ** 53n + 1n,
          -(2n ** 63n),
          2n ** 63n,
        ]
      : []),
    "\ud800x\udc00", // lone surrogates: Go reads the JSON text's escapes as U+FFFD
    "\ud83d\ude00",
    undefined,
  ];
}

function expectNoFailures(failures: string[], cases: number): void {
  expect(cases).toBeGreaterThan(0);
  if (failures.length > 0) console.error(failures.slice(0, 20).join("\n"));
  expect(failures.slice(0, 20), `${failures.length} of ${cases} cases differ`).toEqual([]);
}

describe("every field of every kind: wrong JSON types and numbers out of range", () => {
  it("the walk covers every field, list element and map value", () => {
    // Spot checks that the walk reaches deep and inlined positions.
    const paths = new Set(ALL_SITES.map((s) => `${s.info.kind} ${s.segments.join(".")}`));
    for (const p of [
      "IngressList items.0.spec.rules.0.http.paths.0.backend.service.port.number",
      "NetworkPolicyList items.0.spec.egress.0.to.0.ipBlock.except.0",
      "NetworkPolicy spec.ingress.0.ports.0.port",
      "Ingress metadata.managedFields.0.fieldsV1",
      "ServiceCIDRList items.0.status.conditions.0.lastTransitionTime",
      "IngressList items.0.kind",
      "Status details.causes.0.field",
      "IngressClass spec.parameters.apiGroup",
      "IPAddress spec.parentRef.resource",
      "Ingress metadata.labels.k",
    ]) {
      expect(paths.has(p), p).toBe(true);
    }
    expect(ALL_SITES.length).toBeGreaterThan(700);
  });

  for (const info of KINDS) {
    const sites = SITES.get(info.kind) ?? [];

    it(`${info.kind}: JSON text, default and strict (${sites.length} positions)`, () => {
      const failures: string[] = [];
      let cases = 0;
      for (const site of sites) {
        for (const lit of candidates(site)) {
          const placed = jsonDoc(site, lit);
          for (const strict of strictMatters(lit) ? [false, true] : [false]) {
            cases++;
            const verdict = goDecode(site.type, lit, strict, site.member);
            const f = check(
              attempt(() => fromJson(placed.text, { strict })),
              { site, verdict, format: "json", placed },
            );
            if (f !== undefined)
              failures.push(
                `${f} [${placed.text.slice(placed.at.get(lit) ?? 0, (placed.at.get(lit) ?? 0) + 30)}${strict ? ", strict" : ""}]`,
              );
          }
        }
      }
      expectNoFailures(failures, cases);
    });

    it(`${info.kind}: parsed JS values`, () => {
      const failures: string[] = [];
      let cases = 0;
      for (const site of sites) {
        for (const v of jsCandidates(site)) {
          cases++;
          let verdict: Verdict;
          if (v === undefined) {
            // An undefined property is an absent field or map entry; a list has no absent elements.
            verdict =
              site.member && typeof site.segments[site.segments.length - 1] === "number"
                ? refuse(nul())
                : accept(undefined);
            if (site.type.t === "topTypeMeta") verdict = refuse(nul());
          } else verdict = goDecode(site.type, meaningOfJs(v), false, site.member);
          const f = check(
            attempt(() => fromJson(treeFor(site, v) as JsonValue)),
            { site, verdict, format: "json", sortKeys: true },
          );
          if (f !== undefined) failures.push(`${f} [${typeof v === "bigint" ? `${v}n` : String(v)}]`);
        }
      }
      expectNoFailures(failures, cases);
    });

    it(`${info.kind}: YAML`, () => {
      const failures: string[] = [];
      let cases = 0;
      for (const site of sites) {
        for (const lit of yamlCandidates(site)) {
          cases++;
          const { text: flow, at } = renderYaml(lit);
          const placed = yamlDoc(site, flow, at);
          const verdict = goDecode(site.type, meaningOfYaml(lit), false, site.member, true);
          const f = check(attemptYaml(placed.text), { site, verdict, format: "yaml", placed, sortKeys: true });
          if (f !== undefined) failures.push(`${f} [${flow}]`);
        }
      }
      expectNoFailures(failures, cases);
    });
  }
});

/**
 * YAML is slower to parse. At every position: values that are refused there
 * and values that are accepted, one refused inside a collection, and the
 * number edges; the YAML spellings of scalars are checked once per Go type.
 */
function yamlCandidates(site: Site): Lit[] {
  const subset = [str("s"), num("1.0"), arr(num("1")), obj(["a", num("1")])];
  const numbers = [
    "2147483648",
    "9223372036854775808",
    "-9223372036854775809",
    "1e17",
    "1e400",
    "1" + "0".repeat(DIGITS),
  ];
  return [...subset, ...(isNumeric(site) ? numbers.map(num) : [])];
}

// ------------------------------------------------------------ YAML scalar spellings

/** One position of each Go type (and as a list element or map value), the last in walk order (the deepest). */
const REPRESENTATIVE = [
  ...new Map(ALL_SITES.map((s) => [`${JSON.stringify(s.type)} ${s.member}`, s] as const)).values(),
];

/**
 * Plain and tagged scalars as go-yaml v2 resolves them (resolve.go, decode.go),
 * then as sigs.k8s.io/yaml writes them to JSON: [YAML, meaning or the error,
 * where go-yaml's mark is, from where the text is written: a node starts at
 * its tag; an empty value at the end of the `:` before it; a scanner error at
 * go-yaml's problem mark].
 */
const YAML_SPELLINGS: readonly (readonly [string, () => Lit | RegExp, number?])[] = [
  ["s", () => str("s")],
  ["yes", () => bool(true)],
  ["Off", () => bool(false)],
  ["y", () => bool(true)],
  ["N", () => bool(false)],
  ["on", () => bool(true)],
  ["~", () => nul()],
  ["", () => nul(), -1],
  ["Null", () => nul()],
  ["0x1F", () => num("31")],
  ["0o17", () => num("15")],
  ["017", () => num("15")],
  ["1_000", () => num("1000")],
  ["+12", () => num("12")],
  ["0b101", () => num("5")],
  ["-0b101", () => num("-5")],
  ["-0", () => num("0")],
  ["-0.0", () => num("-0")],
  ["1.0", () => num("1")],
  ["1e2", () => num("100")],
  [".5", () => num("0.5")],
  ["1e17", () => num("100000000000000000")],
  ["9223372036854775808", () => num("9223372036854775808")],
  ["-9223372036854775809", () => num("-9223372036854776000")],
  ["1e400", () => str("1e400")],
  ["2008-01-01T01:01:01Z", () => str("2008-01-01T01:01:01Z")], // timestamps stay text
  ["2001-12-14", () => str("2001-12-14")],
  ["12:30:00", () => str("12:30:00")], // no base 60 in go-yaml v2
  ["'it''s'", () => str("it's")],
  ['"\\U0001F600\\x41\\u00e9"', () => str("\u{1F600}A\u00e9")],
  ["!!binary aGk=", () => str("hi")],
  ['!!int "12"', () => num("12")],
  ["!!str 12", () => str("12")],
  ["!!float 1", () => num("1")],
  ["!!bool yes", () => bool(true)],
  ["!!timestamp 2001-12-14", () => str("2001-12-14")],
  ["!foo x", () => str("x")], // unknown tags: the text
  ['!!js/function "f()"', () => str("f()")],
  [".inf", () => /JSON cannot represent/], // json.Marshal refuses it
  ["-.Inf", () => /JSON cannot represent/],
  [".nan", () => /JSON cannot represent/],
  ["!!int x", () => /cannot decode !!str `x` as a !!int/],
  ["!!null x", () => /cannot decode !!str `x` as a !!null/],
  ["!!binary '%%'", () => /base64/],
  // The scanner refuses a surrogate escape, paired or not: go-yaml's mark is at its hex digits.
  ['"\\ud800"', () => /invalid Unicode character escape/, 3],
  ['"\\ud83d\\ude00"', () => /invalid Unicode character escape/, 3],
  ['"x\\U0000DFFF"', () => /invalid Unicode character escape/, 4],
];

describe("YAML scalars resolve as in go-yaml v2, at a position of each Go type", () => {
  it(`${REPRESENTATIVE.length} positions x ${YAML_SPELLINGS.length} spellings`, () => {
    const failures: string[] = [];
    let cases = 0;
    for (const site of REPRESENTATIVE) {
      for (const [yaml, make, nodeAt = 0] of YAML_SPELLINGS) {
        cases++;
        const meaning = make();
        if (meaning instanceof RegExp) {
          const placed = yamlDoc(site, yaml);
          const base = blockYaml(treeFor(site, LEAF), 0).indexOf(LEAF);
          const r = attemptYaml(placed.text);
          const e = "error" in r ? r.error : undefined;
          const [line, column] = yamlLineColumn(placed.text, base + nodeAt);
          if (
            !(e instanceof DecodeError) ||
            !meaning.test(e.reason) ||
            e.document !== 1 ||
            e.line !== line ||
            e.column !== column ||
            e.segments !== undefined
          ) {
            failures.push(
              `${site.info.kind} ${site.segments.join(".")} ${yaml}: ${e instanceof DecodeError ? `${e.message} (want ${line}:${column})` : "value" in r ? "accepted" : String(e)}`,
            );
          }
          continue;
        }
        const placed = yamlDoc(site, yaml, new Map([[meaning, nodeAt]]));
        const verdict = goDecode(site.type, meaning, false, site.member, true);
        const f = check(attemptYaml(placed.text), { site, verdict, format: "yaml", placed, sortKeys: true });
        if (f !== undefined) failures.push(`${f} [${yaml}]`);
      }
    }
    expectNoFailures(failures, cases);
  });
});

// ------------------------------------------------------------ 2: huge numbers

describe("numbers with 100,000 digits, at a position of each numeric type, in linear time", () => {
  const HUGE = 100_000;
  const numericSites = REPRESENTATIVE.filter(isNumeric);
  const shapes: readonly (readonly [string, (digits: number) => string])[] = [
    ["an integer", (n) => "1".repeat(n)],
    ["a negative integer", (n) => "-" + "9".repeat(n)],
    ["a tiny fraction", (n) => "0." + "0".repeat(n) + "1"],
    ["a huge exponent", (n) => "1e" + "9".repeat(n)],
  ];
  const literals = shapes.map(([, make]) => make(HUGE));

  it(`JSON text, JS values (bigint) and YAML are refused with the path and a short message (${numericSites.length} positions)`, () => {
    expect(numericSites.map((s) => s.type.t).sort()).toEqual(expect.arrayContaining(["int32", "int64", "intOrString"]));
    for (const site of numericSites) {
      for (const text of literals) {
        const lit = num(text);
        const placed = jsonDoc(site, lit);
        expect(
          check(
            attempt(() => fromJson(placed.text)),
            { site, verdict: goDecode(site.type, lit, false, site.member), format: "json", placed },
          ),
        ).toBeUndefined();
        const js = jsOf(lit);
        expect(
          check(
            attempt(() => fromJson(treeFor(site, js) as JsonValue)),
            { site, verdict: goDecode(site.type, meaningOfJs(js), false, site.member), format: "json" },
          ),
        ).toBeUndefined();
        const y = yamlDoc(site, text, new Map([[lit, 0]]));
        const ym = meaningOfYaml(lit); // past float64: a string
        expect(
          check(attemptYaml(y.text), {
            site,
            verdict: goDecode(site.type, ym, false, site.member, true),
            format: "yaml",
            placed: y,
          }),
        ).toBeUndefined();
      }
      // The message does not carry 100,000 digits.
      const r = attempt(() => fromJson(jsonDoc(site, num("9".repeat(HUGE))).text));
      expect("error" in r && r.error instanceof DecodeError && r.error.message.length < 2000).toBe(true);
    }
  });

  it.each(shapes)(
    "%s: decoding costs linear time in the digits, at every position, in JSON text, JS values and YAML",
    async (name, make) => {
      // The documents are built beforehand, so only decoding is timed; two digit counts are compared
      // with each other, not with a budget.
      const docs = built((n) =>
        numericSites.map((site) => {
          const lit = num(make(n));
          return {
            json: jsonDoc(site, lit).text,
            tree: treeFor(site, jsOf(lit)) as JsonValue,
            yaml: yamlDoc(site, make(n), new Map([[lit, 0]])).text,
          };
        }),
      );
      const decodeAll = (n: number): void => {
        for (const d of docs(n)) {
          attempt(() => fromJson(d.json));
          attempt(() => fromJson(d.tree));
          attemptYaml(d.yaml);
        }
      };
      await expectSubquadratic(name, decodeAll, 1 << 12, { factor: 16 });
    },
  );

  it("fieldsV1 keeps a 100,000-digit number exactly, in its raw text and in toJson", () => {
    const digits = "12345678901234567890".repeat(HUGE / 20);
    const text = `{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","metadata":{"managedFields":[{"fieldsV1":{"f:x":${digits}}}]}}`;
    const o = fromJson(text);
    expect(toJsonString(o)).toContain(`"fieldsV1":{"f:x":${digits}}`);
    const fields = (toJson(o) as { metadata: { managedFields: { fieldsV1: { "f:x": unknown } }[] } }).metadata
      .managedFields[0]?.fieldsV1;
    expect(fields?.["f:x"]).toBe(BigInt(digits));
  });
});

// ------------------------------------------------------------ 3: prototype-named keys

const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"] as const;

function snapshotPrototypes(): string[] {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((p) =>
    Object.getOwnPropertyNames(p).sort().join(","),
  );
}

function expectUnpolluted(before: string[]): void {
  expect(snapshotPrototypes()).toEqual(before);
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>)["polluted"]).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

/** An object whose own keys are the prototype names, each with a value that would pollute if assigned through. */
function protoObject(values: "objects" | "strings"): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  PROTO_KEYS.forEach((k, i) => {
    setOwn(
      o,
      k,
      values === "strings" ? `v${i}` : k === "constructor" ? { prototype: { polluted: "yes" } } : { polluted: "yes" },
    );
  });
  return o;
}

/** Struct positions (the root, fields, list elements) and map positions of every kind. */
const OBJECT_SITES = ALL_SITES.filter((s) => s.type.t === "struct" || s.type.t === "map");

describe("__proto__, constructor, prototype, toString and hasOwnProperty keys at every object level", () => {
  const before = snapshotPrototypes();

  it(`struct positions: unknown fields, dropped by default and refused when strict (${OBJECT_SITES.filter((s) => s.type.t === "struct").length} positions + the roots, 3 formats)`, () => {
    const failures: string[] = [];
    const roots: Site[] = KINDS.map((info) => ({
      info,
      segments: [],
      steps: [],
      type: { t: "struct" },
      member: false,
      pointer: false,
    }));
    for (const site of [...roots, ...OBJECT_SITES.filter((s) => s.type.t === "struct")]) {
      const base =
        site.segments.length === 0
          ? fromJson({ kind: site.info.kind, apiVersion: site.info.apiVersion })
          : canonical(site, obj(), false);
      const tree =
        site.segments.length === 0
          ? Object.assign(protoObject("objects"), { kind: site.info.kind, apiVersion: site.info.apiVersion })
          : treeFor(site, protoObject("objects"));
      // Keys in document order: kind and apiVersion last at the root, so __proto__ is the first unknown one.
      const text = JSON.stringify(tree, null, 2);
      const inputs: [string, () => NetworkingObject, (strict: boolean) => NetworkingObject][] = [
        ["text", () => fromJson(text), (strict) => fromJson(text, { strict })],
        [
          "value",
          () => fromJson(JSON.parse(text) as JsonValue),
          (strict) => fromJson(JSON.parse(text) as JsonValue, { strict }),
        ],
        [
          "yaml",
          () => fromYaml(blockYaml(tree, 0))[0] as NetworkingObject,
          (strict) => fromYaml(blockYaml(tree, 0), { strict })[0] as NetworkingObject,
        ],
      ];
      for (const [format, plain, strict] of inputs) {
        const r = attempt(plain);
        if ("error" in r) failures.push(`${format} ${site.info.kind} ${site.segments.join(".")}: ${String(r.error)}`);
        else if (toJsonString(r.value) !== toJsonString(base) || hex(encode(r.value)) !== hex(encode(base)))
          failures.push(`${format} ${site.info.kind} ${site.segments.join(".")}: not dropped`);
        const s = attempt(() => strict(true));
        const e = "error" in s ? s.error : undefined;
        if (
          !(e instanceof DecodeError) ||
          !same(e.segments, [...site.segments, "__proto__"]) ||
          !/unknown field "__proto__"/.test(e.reason)
        ) {
          failures.push(`${format} strict ${site.info.kind} ${site.segments.join(".")}: ${String(e ?? "accepted")}`);
        } else if (format === "text") {
          const at = text.indexOf('"__proto__": ') + '"__proto__": '.length;
          if (e.offset !== at)
            failures.push(`text strict ${site.info.kind} ${site.segments.join(".")}: offset ${e.offset}, want ${at}`);
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expectUnpolluted(before);
  });

  it(`map positions: own keys that survive toJsonString and toYaml, strict or not (${OBJECT_SITES.filter((s) => s.type.t === "map").length} positions, 3 formats)`, () => {
    const failures: string[] = [];
    const want = protoObject("strings");
    for (const site of OBJECT_SITES.filter((s) => s.type.t === "map")) {
      const tree = treeFor(site, protoObject("strings"));
      const text = JSON.stringify(tree, null, 2);
      for (const strict of [false, true]) {
        const decoded: [string, Outcome][] = [
          ["text", attempt(() => fromJson(text, { strict }))],
          ["value", attempt(() => fromJson(JSON.parse(text) as JsonValue, { strict }))],
          ["yaml", attemptYaml(blockYaml(tree, 0), strict)],
        ];
        for (const [format, r] of decoded) {
          const label = `${format}${strict ? " strict" : ""} ${site.info.kind} ${site.segments.join(".")}`;
          if ("error" in r) {
            failures.push(`${label}: ${String(r.error)}`);
            continue;
          }
          const map = readSite(r.value, site.steps) as Record<string, string>;
          if (
            Object.getPrototypeOf(map) !== Object.prototype ||
            !same(map, want) ||
            Object.getOwnPropertyDescriptor(map, "__proto__")?.value !== "v0"
          ) {
            failures.push(`${label}: map ${JSON.stringify(Object.entries(map))}`);
          }
          const viaJson = readSite(fromJson(toJsonString(r.value), { strict: true }), site.steps);
          const viaYaml = readSite(fromYaml(toYaml(r.value), { strict: true })[0], site.steps);
          const viaValue = readSite(fromJson(toJson(r.value)), site.steps);
          if (!same(viaJson, want) || !same(viaYaml, want) || !same(viaValue, want))
            failures.push(`${label}: lost in a round trip`);
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expectUnpolluted(before);
  });

  it("unknown-field and fieldsV1 positions: skipped, or kept as raw JSON with own keys", () => {
    for (const info of KINDS) {
      const tree: Record<string, unknown> = { kind: info.kind, apiVersion: info.apiVersion };
      setOwn(tree, "x", protoObject("objects"));
      const text = JSON.stringify(tree);
      const clean = fromJson(`{"kind":"${info.kind}","apiVersion":"${info.apiVersion}"}`);
      for (const o of [
        fromJson(text),
        fromJson(JSON.parse(text) as JsonValue),
        fromYaml(blockYaml(tree, 0))[0] as NetworkingObject,
      ]) {
        expect(toJsonString(o)).toBe(toJsonString(clean));
      }
      expect(() => fromJson(text, { strict: true })).toThrow(/unknown field "x"/);
    }
    const fields = protoObject("objects");
    const doc = {
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      metadata: { managedFields: [{ fieldsV1: fields }] },
    };
    const text = JSON.stringify(doc);
    for (const o of [
      fromJson(text),
      fromJson(JSON.parse(text) as JsonValue),
      fromYaml(blockYaml(doc, 0))[0] as NetworkingObject,
    ]) {
      const out =
        (toJson(o) as { metadata: { managedFields: { fieldsV1: Record<string, unknown> }[] } }).metadata
          .managedFields[0]?.fieldsV1 ?? {};
      expect(Object.keys(out).sort()).toEqual([...PROTO_KEYS].sort());
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ polluted: "yes" });
      expect(JSON.parse(toJsonString(o)).metadata.managedFields[0].fieldsV1).toEqual(
        JSON.parse(JSON.stringify(fields)),
      );
    }
    expectUnpolluted(before);
  });
});

// ------------------------------------------------------------ 4: YAML specifics

function yamlError(text: string, options: { strict?: boolean; maxDepth?: number } = {}): DecodeError {
  const r = attempt(() => {
    fromYaml(text, options);
    return undefined as unknown as NetworkingObject;
  });
  if (!("error" in r)) throw new Error("accepted, want a DecodeError");
  expect(r.error).toBeInstanceOf(DecodeError);
  return r.error as DecodeError;
}

/** 1-based line and column of the first occurrence of `needle` in `text`. */
function positionOf(text: string, needle: string, from = 0): [number, number] {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`test bug: ${needle} not in the text`);
  return lineColumn(text, at);
}

/** `make`, remembering each size's input, so a growth guard times the decoding and not the building. */
const built = <T>(make: (n: number) => T): ((n: number) => T) => {
  const inputs = new Map<number, T>();
  return (n) => {
    if (!inputs.has(n)) inputs.set(n, make(n));
    return inputs.get(n) as T;
  };
};

/** A YAML node graph: aliases point at the node they repeat. */
type YNode =
  | { readonly scalar: true }
  | { readonly seq: readonly YNode[] }
  | { readonly map: readonly (readonly [YNode, YNode])[] }
  | { readonly alias: YNode };

/**
 * go-yaml v2's guard against alias expansion (decode.go, allowedAliasRatio),
 * replayed: every node decoded counts (the document node too), those reached
 * through an alias count as aliased; past 1,000 decodes with more than 100
 * aliased, a share of aliased decodes above 99% (falling to 10% between
 * 400,000 and 4,000,000 decodes) fails.
 */
function goAliasGuardPasses(root: YNode): boolean {
  let decodes = 1;
  let aliased = 0;
  let depth = 0;
  const allowed = (d: number): number =>
    d <= 400_000 ? 0.99 : d >= 4_000_000 ? 0.1 : 0.99 - (0.89 * (d - 400_000)) / 3_600_000;
  const visit = (n: YNode): boolean => {
    decodes++;
    if (depth > 0) aliased++;
    if (aliased > 100 && decodes > 1000 && aliased / decodes > allowed(decodes)) return false;
    if ("alias" in n) {
      depth++;
      const ok = visit(n.alias);
      depth--;
      return ok;
    }
    if ("seq" in n) return n.seq.every(visit);
    if ("map" in n) return n.map.every(([k, v]) => visit(k) && visit(v));
    return true;
  };
  return visit(root);
}

const X: YNode = { scalar: true };

/** `l0: &l0 [x, ...]` then `li: &li [*l(i-1), ...]`: `levels` levels of `width`; its text and its graph. */
function laughs(levels: number, width: number): { text: string; graph: YNode; leaves: number } {
  const lines: string[] = [];
  const entries: [YNode, YNode][] = [];
  let prev: YNode | undefined;
  for (let i = 0; i < levels; i++) {
    const items = Array.from({ length: width }, () => (prev === undefined ? "x" : `*l${i - 1}`));
    lines.push(`l${i}: &l${i} [${items.join(", ")}]`);
    const seq: YNode = {
      seq: Array.from({ length: width }, () => (prev === undefined ? X : { alias: prev as YNode })),
    };
    entries.push([X, seq]);
    prev = seq;
  }
  return { text: lines.join("\n") + "\n", graph: { map: entries }, leaves: width ** levels };
}

function countLeaves(v: unknown): number {
  return Array.isArray(v) ? v.reduce((n: number, x) => n + countLeaves(x), 0) : 1;
}

describe("YAML: aliases, anchors and merge keys", () => {
  it.each([
    [2, 3],
    [3, 10],
    [4, 10],
    [5, 4],
    [9, 9], // the billion laughs
    [40, 2],
    [3, 1000],
  ])("%i levels of %i aliases: accepted or refused as go-yaml's guard decides, in bounded time", (levels, width) => {
    const { text, graph, leaves } = laughs(levels, width);
    const passes = goAliasGuardPasses(graph);
    // Bounded by go-yaml's guard, not by a budget: what passes has the leaf count the guard allows,
    // what does not is refused with the guard's own reason (a hang would hit the test timeout).
    const r = attempt(() => parseYamlDocuments(text, { uniqueKeys: false }) as unknown as NetworkingObject);
    if (passes) {
      expect(
        "value" in r ? countLeaves((r.value as unknown as Record<string, unknown>[])[0]?.[`l${levels - 1}`]) : r.error,
      ).toBe(leaves);
    } else {
      expect("error" in r && r.error instanceof DecodeError && r.error.reason).toBe(
        "document contains excessive aliasing",
      );
      expect((r as { error: DecodeError }).error.line).toBeGreaterThanOrEqual(1);
    }
  });

  it("the guard's boundary, where go-yaml counts the document node: 199 aliases of a 200-item list pass, 200 do not", () => {
    const doc = (n: number): string =>
      `a: &a [${Array(200).fill("x").join(",")}]\nb: [${Array(n).fill("*a").join(",")}]\n`;
    const graph = (n: number): YNode => {
      const a: YNode = { seq: Array(200).fill(X) };
      return {
        map: [
          [X, a],
          [X, { seq: Array.from({ length: n }, () => ({ alias: a })) }],
        ],
      };
    };
    // By hand: 199 aliases make 39,999 aliased decodes of 40,404 (99.0%, not above); 200 make 40,200 of 40,606.
    expect(goAliasGuardPasses(graph(199))).toBe(true);
    expect(goAliasGuardPasses(graph(200))).toBe(false);
    expect((parseYamlDocuments(doc(199))[0] as { b: unknown[] }).b).toHaveLength(199);
    expect(() => parseYamlDocuments(doc(200))).toThrow(/excessive aliasing/);
  });

  it("one scalar anchor reused 3,000 times as label values, and aliases as keys", () => {
    const labels = Array.from({ length: 3000 }, (_, i) => `    k${i}: *v`).join("\n");
    const text = `kind: Ingress\napiVersion: networking.k8s.io/v1\nx: &v web\nmetadata:\n  labels:\n${labels}\n`;
    const graph: YNode = {
      map: [
        [X, X],
        [X, X],
        [X, X],
        [X, { map: [[X, { map: Array.from({ length: 3000 }, () => [X, { alias: X }] as const) }]] }],
      ],
    };
    expect(goAliasGuardPasses(graph)).toBe(true);
    const o = fromYaml(text)[0] as NetworkingObject & { metadata: { labels: Record<string, string> } };
    expect(Object.keys(o.metadata.labels)).toHaveLength(3000);
    expect(new Set(Object.values(o.metadata.labels))).toEqual(new Set(["web"]));
    // An alias as a key is its scalar's text; an alias to a mapping cannot be a key.
    const keyed = fromYaml(
      "kind: Ingress\napiVersion: networking.k8s.io/v1\nx: &k app\nmetadata:\n  labels:\n    *k : web\n",
    )[0] as typeof o;
    expect(keyed.metadata.labels).toEqual({ app: "web" });
    const bad = "kind: Ingress\napiVersion: networking.k8s.io/v1\nx: &k {a: b}\nmetadata:\n  labels:\n    *k : web\n";
    const e = yamlError(bad);
    expect(e.reason).toMatch(/invalid map key/);
    expect([e.document, e.line]).toEqual([1, 3]);
  });

  it("nested aliases and merge keys build label maps; later keys win by default, and strict refuses a key set twice", () => {
    const text = [
      "kind: NetworkPolicy",
      "apiVersion: networking.k8s.io/v1",
      "x:",
      "  base: &base {app: web, tier: front}",
      "  more: &more {<<: *base, tier: back, env: prod}",
      "metadata:",
      "  labels:",
      "    <<: [*more, {team: a}]",
      "    app: api",
      "  annotations: *base",
      "spec:",
      "  podSelector:",
      "    matchLabels: *more",
      "",
    ].join("\n");
    const o = fromYaml(text)[0] as NetworkingObject & {
      metadata: { labels: object; annotations: object };
      spec: { podSelector: { matchLabels: object } };
    };
    expect(o.metadata.labels).toEqual({ app: "api", tier: "back", env: "prod", team: "a" });
    expect(o.metadata.annotations).toEqual({ app: "web", tier: "front" });
    expect(o.spec.podSelector.matchLabels).toEqual({ app: "web", tier: "back", env: "prod" });
    // Strict (YAMLToJSONStrict): `tier` is merged and then written again in `more`.
    const e = yamlError(text, { strict: true });
    expect(e.reason).toMatch(/"tier" already/);
    expect(e.line).toBe(5);
    // A merge of something that is not a mapping is refused.
    expect(
      yamlError("kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata:\n  labels:\n    <<: [a]\n").reason,
    ).toMatch(/map merge/);
    // An alias to a sequence where labels go is a type error there.
    const seq = yamlError("kind: Ingress\napiVersion: networking.k8s.io/v1\nx: &s [a]\nmetadata:\n  labels: *s\n");
    expect(seq.segments).toEqual(["metadata", "labels"]);
    expect([seq.line, seq.column]).toEqual([5, 11]);
  });

  it("merge bombs stop in bounded time, strict or not", () => {
    const lines = [`m0: &m0 {${Array.from({ length: 50 }, (_, i) => `k${i}: "${i}"`).join(", ")}}`];
    for (let i = 1; i <= 30; i++) lines.push(`m${i}: &m${i} {<<: [*m${i - 1}, *m${i - 1}], n${i}: "${i}"}`);
    const text = `kind: Ingress\napiVersion: networking.k8s.io/v1\nx:\n${lines.map((l) => `  ${l}`).join("\n")}\nmetadata:\n  labels: *m30\n`;
    for (const strict of [false, true]) {
      // The guard's reason proves it stopped the expansion; a hang would hit the test timeout.
      const e = yamlError(text, { strict });
      expect(e.reason).toMatch(strict ? /already set|excessive aliasing/ : /excessive aliasing/);
    }
    // 1,000 aliases of one 1,000-key mapping merged into one map.
    const wide = `a: &a {${Array.from({ length: 1000 }, (_, i) => `k${i}: ${i}`).join(", ")}}\nb: {<<: [${Array(1000).fill("*a").join(", ")}]}\n`;
    const w = attempt(() => parseYamlDocuments(wide, { uniqueKeys: false }) as unknown as NetworkingObject);
    expect("error" in w && w.error instanceof DecodeError && w.error.reason).toBe(
      "document contains excessive aliasing",
    );
  });
});

describe("YAML: nesting, long scalars and keys, many documents", () => {
  // root (1), metadata (2), managedFields (3), its item (4): fieldsV1's collections start at depth 5.
  const inFieldsV1 = (x: string): string =>
    `kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata:\n  managedFields:\n  - fieldsV1: ${x}\n`;

  it("go-yaml's depth limit by default (10,000 levels); a stricter maxDepth on request, through aliases too", () => {
    const ok = fromYaml(inFieldsV1("[".repeat(96) + "]".repeat(96)))[0] as NetworkingObject;
    expect(toJsonString(ok)).toContain(`"fieldsV1":${"[".repeat(96)}${"]".repeat(96)}`);
    const text = inFieldsV1("[".repeat(97) + "]".repeat(97));
    expect(fromYaml(text)).toHaveLength(1);
    const e = yamlError(text, { maxDepth: 100 });
    expect(e.reason).toBe("nesting deeper than 100");
    expect([e.document, e.line, e.column]).toEqual([1, 5, 15 + 96]);
    expect(fromYaml(text, { maxDepth: 101 })).toHaveLength(1);
    // An unknown field whose JSON is 10,000 levels deep is read (and dropped), as the API server reads it;
    // one level more passes go-yaml but not the API server's JSON decoder; two more, not go-yaml either.
    const deep = (n: number): string =>
      `x: ${"[".repeat(n)}${"]".repeat(n)}\nkind: Ingress\napiVersion: networking.k8s.io/v1\n`;
    expect(fromYaml(deep(9_999))).toHaveLength(1);
    expect(yamlError(deep(10_000)).reason).toBe("exceeded max depth of 10000 in the JSON the YAML converts to");
    expect(yamlError(deep(10_001)).reason).toBe("exceeded max depth of 10000");
    // Aliases cannot build depth past a limit either.
    const viaAlias = `a: &a ${"[".repeat(60)}${"]".repeat(60)}\nb: ${"[".repeat(60)}*a${"]".repeat(60)}\n`;
    expect(yamlError(viaAlias, { maxDepth: 100 }).reason).toMatch(/nesting deeper than 100/);
  });

  it.each([
    ["1,000,000 flow sequences", "[".repeat(1_000_000) + "]".repeat(1_000_000), 10_001],
    ["1,000,000 flow mappings", "{a: ".repeat(1_000_000) + "1" + "}".repeat(1_000_000), 40_001],
    ["1,000,000 block sequences", "- ".repeat(1_000_000) + "x\n", 20_001],
    ["100,000 unclosed flow sequences", "[".repeat(100_000), 10_001],
  ])("%s: refused at the 10,001st level in bounded time", (_name, text, column) => {
    // go-yaml's scanner limit, at the level that passes it; a hang would hit the test timeout.
    const e = yamlError(text);
    expect(e.reason).toBe("exceeded max depth of 10000");
    expect([e.document, e.line, e.column]).toEqual([1, 1, column]);
  });

  it("block mappings nested by indentation, 3,000 deep, and deep nesting in a later document", () => {
    const text = Array.from({ length: 3000 }, (_, i) => `${" ".repeat(i)}k:`).join("\n") + " x\n";
    let depth = 0;
    for (let v = parseYamlDocuments(text)[0]; typeof v === "object" && v !== null; v = (v as { k?: JsonValue }).k)
      depth++;
    expect(depth).toBe(3000);
    const e = yamlError(text, { maxDepth: 100 });
    expect([e.reason, e.line, e.column]).toEqual(["nesting deeper than 100", 101, 101]);
    const second = yamlError("kind: Ingress\napiVersion: networking.k8s.io/v1\n---\nx: " + "[".repeat(100_000));
    // Flow levels are what go-yaml counts: the 10,001st bracket.
    expect([second.reason, second.document, second.line, second.column]).toEqual([
      "exceeded max depth of 10000",
      2,
      4,
      4 + 10_000,
    ]);
  });

  it("a 10 MB scalar, a long double-quoted scalar full of escapes, and keys up to go-yaml's 1,024-character limit", async () => {
    const big = "x".repeat(10_000_000);
    const head = "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata:\n  annotations:\n";
    const o = fromYaml(`${head}    a: ${big}\n    b: "${"\\t".repeat(500_000)}"\n`)[0] as NetworkingObject & {
      metadata: { annotations: Record<string, string> };
    };
    expect(o.metadata.annotations["a"]).toBe(big);
    expect(o.metadata.annotations["b"]).toBe("\t".repeat(500_000));
    // Linear in the scalar's length: two lengths compared with each other, not with a budget.
    const plain = built((n) => `${head}    a: ${"x".repeat(n)}\n`);
    await expectSubquadratic("a long plain scalar", (n) => fromYaml(plain(n)), 1 << 18, { factor: 16 });
    const escapes = built((n) => `${head}    b: "${"\\t".repeat(n)}"\n`);
    // Escapes stay at 256K or fewer: past that, V8's cost per escape steps up about 4x once (the decoded
    // string outgrows the young generation) and then stays flat, a constant factor the guard would
    // mistake for growth.
    await expectSubquadratic("a double-quoted scalar of escapes", (n) => fromYaml(escapes(n)), 1 << 14, { factor: 16 });
    // libyaml: a simple key ends within 1,024 characters of its start; an explicit `? key` has no limit.
    const key = (n: number): string => "k".repeat(n);
    expect(Object.keys((fromYaml(`${head}    ${key(1024)}: v\n`)[0] as typeof o).metadata.annotations)).toEqual([
      key(1024),
    ]);
    const long = yamlError(`${head}    ${key(1025)}: v\n`);
    expect([long.document, long.line]).toEqual([1, 5]);
    expect(long.reason).toBe("mapping values are not allowed in this context"); // as go-yaml says
    expect(Object.keys((fromYaml(`${head}    ? ${key(5000)}\n    : v\n`)[0] as typeof o).metadata.annotations)).toEqual(
      [key(5000)],
    );
    // libyaml counts characters: 1,024 astral characters are 2,048 UTF-16 units.
    const astral = "\u{1F600}".repeat(1024);
    expect(Object.keys((fromYaml(`${head}    ${astral}: v\n`)[0] as typeof o).metadata.annotations)).toEqual([astral]);
    expect(yamlError(`${head}    ${astral}x: v\n`).line).toBe(5);
  });

  it("2,000 documents decode in order; an error in one names that document and its line", async () => {
    const one = (i: number): string =>
      `kind: NetworkPolicy\napiVersion: networking.k8s.io/v1\nmetadata:\n  name: n${i}\n`;
    const stream = built((n) => Array.from({ length: n }, (_, i) => one(i)).join("---\n"));
    const docs = stream(2000);
    const all = fromYaml(docs);
    expect(all.map((o) => (o as { metadata: { name: string } }).metadata.name)).toEqual(
      Array.from({ length: 2000 }, (_, i) => `n${i}`),
    );
    // Linear in the number of documents: two counts compared with each other, not with a budget.
    await expectSubquadratic("a stream of documents", (n) => fromYaml(stream(n)), 250, { factor: 16 });
    // Documents are numbered as kubectl's reader hands them on: a comment-only one counts, nothing
    // between two separators does not.
    const bad = docs + "---\n---\n# nothing\n---\n" + one(2000).replace("name: n2000", "generation: x");
    const e = yamlError(bad);
    expect(e.document).toBe(2002);
    expect(e.segments).toEqual(["metadata", "generation"]);
    expect([e.line, e.column]).toEqual(positionOf(bad, "x\n", bad.lastIndexOf("generation")));
    // 2,000 empty documents around one object.
    expect(fromYaml("---\n".repeat(2000) + one(0) + "---\n".repeat(2000))).toHaveLength(1);
  });
});

describe("YAML: BOMs, tabs, line breaks and lone surrogates as go-yaml reads them", () => {
  const ING = "kind: Ingress\napiVersion: networking.k8s.io/v1\n";

  it("a BOM starts the stream (each document kubectl splits off is a stream); elsewhere it is text", () => {
    expect(fromYaml(`\ufeff${ING}`)).toHaveLength(1);
    expect(parseYamlDocuments("a: b\n---\n\ufeffc: d\n")).toEqual([{ a: "b" }, { c: "d" }]);
    // A JSON document after a BOM in a stream of concatenated files.
    const json = '{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","metadata":{"name":"x"}}';
    const docs = fromYaml(`${ING}---\n\ufeff${json}\n`);
    expect((docs[1] as { metadata: { name: string } }).metadata.name).toBe("x");
    // kubectl hands each document on as its own stream, so a BOM after `---` starts one (checked with go-yaml).
    expect(fromYaml(`${ING}---\n\ufeffkind: Ingress\napiVersion: networking.k8s.io/v1\n`)).toHaveLength(2);
    // Read as one body, a BOM at the start of a later line is text, part of the key (checked with go-yaml).
    expect(parseYamlDocuments("a: b\n\ufeffc: d\n", { reading: "server" })).toEqual([{ a: "b", "\ufeffc": "d" }]);
    expect(parseYamlDocuments("a: 'x\n  \ufeffy'\nb: x\ufeffy\n")).toEqual([{ a: "x \ufeffy", b: "x\ufeffy" }]);
  });

  it("a tab where go-yaml's scanner looks for a token is refused, elsewhere it is whitespace or text", () => {
    for (const [text, needle] of [
      [`${ING}metadata:\n  finalizers:\n  - \tx\n`, "\t"],
      [`${ING}metadata:\n\t\n  name: x\n`, "\t"],
      [`${ING}metadata:\n  \tname: x\n`, "\t"],
      // A block scalar's first line sets its indentation; a tab there is refused (checked with go-yaml).
      [`${ING}metadata:\n  annotations:\n    x: |\n      \tindented\n`, "\t"],
    ] as const) {
      const e = yamlError(text);
      expect(e.reason, JSON.stringify(text)).toMatch(/cannot start any token|tab/i);
      expect([e.document, e.line, e.column], JSON.stringify(text)).toEqual([1, ...positionOf(text, needle)]);
    }
    // After `key:` go-yaml's scanner skips a tab as whitespace (no simple key can start there).
    expect(parseYamlDocuments("name:\tx\n")).toEqual([{ name: "x" }]);
    const ok = fromYaml(
      `${ING}metadata:\n  name: "a\tb"\t# c\n  finalizers: [a,\tb]\n  annotations:\n    x: |\n      more\n       \tindented\n`,
    )[0] as NetworkingObject & {
      metadata: { name: string; finalizers: string[]; annotations: Record<string, string> };
    };
    expect(ok.metadata.name).toBe("a\tb");
    expect(ok.metadata.finalizers).toEqual(["a", "b"]);
    expect(ok.metadata.annotations["x"]).toBe("more\n \tindented\n");
  });

  it("CRLF, a lone CR and NEL are line breaks (YAML 1.1), with the same lines in errors", () => {
    const lf = `${ING}metadata:\n  name: a\n  annotations:\n    x: |\n      one\n      two\n`;
    const want = toJsonString(fromYaml(lf)[0] as NetworkingObject);
    for (const nl of ["\r\n", "\r", "\x85"]) {
      expect(toJsonString(fromYaml(lf.replace(/\n/g, nl))[0] as NetworkingObject), JSON.stringify(nl)).toBe(want);
      const e = yamlError(`${ING}metadata:\n  generation: x\n`.replace(/\n/g, nl));
      expect([e.line, e.column], JSON.stringify(nl)).toEqual([4, 15]);
    }
  });

  it("a lone surrogate in the JS string is refused with its document, line and column", () => {
    for (const [text, doc, line, column] of [
      [`${ING}metadata:\n  name: a\ud800b\n`, 1, 4, 10],
      [`${ING}---\n${ING}metadata:\n  labels:\n    \udc00: x\n`, 2, 8, 5],
      [`${ING}metadata:\n  name: "\ud83d"\n`, 1, 4, 10],
    ] as const) {
      const e = yamlError(text);
      expect([e.document, e.line, e.column], JSON.stringify(text)).toEqual([doc, line, column]);
    }
    // A well-formed pair is one character.
    expect(
      (fromYaml(`${ING}metadata:\n  name: "\ud83d\ude00"\n`)[0] as { metadata: { name: string } }).metadata.name,
    ).toBe("\u{1F600}");
  });
});

// ------------------------------------------------------------ 5: JSON specifics

const ING = '"kind":"Ingress","apiVersion":"networking.k8s.io/v1"';
const NP = '"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1"';

function jsonError(input: string | JsonValue, options: { strict?: boolean; maxDepth?: number } = {}): DecodeError {
  const r = attempt(() => fromJson(input as string, options));
  if (!("error" in r)) throw new Error("accepted, want a DecodeError");
  expect(r.error).toBeInstanceOf(DecodeError);
  return r.error as DecodeError;
}

/** `@` marks where the error must point; it is removed from the text. */
function marked(text: string): [string, number] {
  const at = text.indexOf("@");
  return [text.slice(0, at) + text.slice(at + 1), at];
}

function expectAt(e: DecodeError, text: string, at: number): void {
  expect([e.offset, e.line, e.column], e.message).toEqual([at, ...lineColumn(text, at)]);
}

function deepArray(n: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

function deepObject(n: number): unknown {
  let v: unknown = {};
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

describe("JSON: nesting at the limit and at 1,000,000", () => {
  it("100 levels are accepted and the 101st refused where it starts, in unknown fields and in fieldsV1; maxDepth moves the limit", () => {
    // The root object is level 1.
    expect(() => fromJson(`{${ING},"x":${"[".repeat(99)}${"]".repeat(99)}}`)).not.toThrow();
    const [text, at] = marked(`{${ING},"x":${"[".repeat(99)}@[${"]".repeat(100)}}`);
    const e = jsonError(text);
    expect(e.reason).toBe("nesting deeper than 100");
    expectAt(e, text, at);
    // root (1), metadata (2), managedFields (3), its item (4).
    const fields = (n: number): string =>
      `{${ING},"metadata":{"managedFields":[{"fieldsV1":${"[".repeat(n)}${"]".repeat(n)}}]}}`;
    expect(toJsonString(fromJson(fields(96)))).toContain(`"fieldsV1":${"[".repeat(96)}`);
    expect(jsonError(fields(97)).reason).toBe("nesting deeper than 100");
    expect(() => fromJson(fields(97), { maxDepth: 101 })).not.toThrow();
    // A type error in a document deeper than the default is still located (the locating re-parse keeps the caller's limit).
    const [deep, bad] = marked(`{${ING},"x":${"[".repeat(150)}${"]".repeat(150)},"metadata":{"generation":@"1"}}`);
    expectAt(jsonError(deep, { maxDepth: 200 }), deep, bad);
  });

  it.each([
    ["arrays", "[".repeat(1_000_000) + "]".repeat(1_000_000), 100],
    ["objects", '{"a":'.repeat(1_000_000) + "1" + "}".repeat(1_000_000), 500],
    ["an unclosed array", "[".repeat(1_000_000), 100],
    ["an unknown field", `{${ING},"x":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`, ING.length + 6 + 99],
    ["fieldsV1", `{${ING},"metadata":{"managedFields":[{"fieldsV1":${"[".repeat(1_000_000)}}]}}`, ING.length + 43 + 96],
  ])("1,000,000 levels in %s: refused at the 101st, in bounded time, strict or not", (_name, text, at) => {
    for (const strict of [false, true]) {
      // The depth limit's reason and position prove it stopped the parse; a hang would hit the test timeout.
      const e = jsonError(text, { strict });
      expect(e.reason).toBe("nesting deeper than 100");
      expectAt(e, text, at);
    }
  });

  it("a maxDepth beyond what the stack holds gives a DecodeError, not a RangeError", () => {
    const text = "[".repeat(1_000_000) + "]".repeat(1_000_000);
    const e = jsonError(text, { maxDepth: 10_000_000 });
    expect(e.reason).toMatch(/nested too deeply/);
    expect(e.line).toBe(1);
  });

  it("1,000,000-deep JS values: only what clusterwire walks is bounded, iteratively built values do not overflow the stack", () => {
    // A JS value's unknown members are never visited (Go skips unknown fields
    // too), so depth there is not checked; strict mode reports the field.
    const doc = (meta: Record<string, unknown>, extra: Record<string, unknown> = {}): JsonValue =>
      ({ kind: "Ingress", apiVersion: "networking.k8s.io/v1", metadata: meta, ...extra }) as JsonValue;
    for (const deep of [deepArray(1_000_000), deepObject(1_000_000)]) {
      expect(toJsonString(fromJson(doc({ name: "a" }, { x: deep })))).toBe(toJsonString(fromJson(doc({ name: "a" }))));
      expect(jsonError(doc({}, { x: deep }), { strict: true }).segments).toEqual(["x"]);
      expect(jsonError(doc({ labels: deep })).segments).toEqual(
        Array.isArray(deep) ? ["metadata", "labels"] : ["metadata", "labels", "a"],
      );
      const f = jsonError(doc({ managedFields: [{ fieldsV1: { "f:spec": deep } }] }));
      expect(f.reason).toMatch(/nested deeper than 100/);
      expect(f.segments?.slice(0, 5)).toEqual(["metadata", "managedFields", 0, "fieldsV1", "f:spec"]);
      // spec.a.a.a...: unknown all the way down; an array is no spec.
      const spec = attempt(() =>
        fromJson({ kind: "Ingress", apiVersion: "networking.k8s.io/v1", spec: deep } as JsonValue),
      );
      if (Array.isArray(deep)) expect("error" in spec && (spec.error as DecodeError).segments).toEqual(["spec"]);
      else expect("value" in spec).toBe(true);
    }
    expect(
      jsonError({ kind: "IngressList", apiVersion: "networking.k8s.io/v1", items: deepArray(1_000_000) } as JsonValue)
        .segments,
    ).toEqual(["items", 0]);
  });
});

describe("JSON: lone surrogates become U+FFFD, as Go decodes them", () => {
  const nameOf = (text: string): string =>
    (fromJson(`{${ING},"metadata":{"name":${text}}}`) as { metadata: { name: string } }).metadata.name;

  it.each([
    ['"\\ud800"', "\ufffd"],
    ['"\\udfff"', "\ufffd"],
    ['"a\\ud83d\\ude00b"', "a\u{1F600}b"],
    ['"\\ude00\\ud83d"', "\ufffd\ufffd"],
    ['"\\ud83d\\u0041"', "\ufffdA"],
    ['"\\ud83dx"', "\ufffdx"],
    ['"\\ud83d\\n"', "\ufffd\n"],
    ['"\ud800"', "\ufffd"], // raw in the JS string: no UTF-8 form, Go would read U+FFFD
    ['"\ud83d\ude00"', "\u{1F600}"],
    ['"\\ud83d\ude00"', "\ufffd\ufffd"], // escaped high, raw low: not a pair on Go's side
    ['"\ud83d\\ude00"', "\ufffd\ufffd"],
  ])("%s", (text, want) => {
    expect(nameOf(text)).toBe(want);
  });

  it("in keys: two lone surrogates are the same key (the last wins; strict refuses the repeat)", () => {
    const text = `{${ING},"metadata":{"labels":{"\\ud800":"a","\\udfff":"b"}}}`;
    const o = fromJson(text) as { metadata: { labels: Record<string, string> } };
    expect(o.metadata.labels).toEqual({ "\ufffd": "b" });
    const e = jsonError(text, { strict: true });
    expect(e.reason).toMatch(/duplicate field/);
    expect(e.offset).toBe(text.indexOf('"b"'));
    // The same for a parsed JS value.
    const v = JSON.parse(text) as JsonValue;
    expect((fromJson(v) as typeof o).metadata.labels).toEqual({ "\ufffd": "b" });
    expect(jsonError(v, { strict: true }).segments).toEqual(["metadata", "labels", "\udfff"]);
    // And what is written is valid UTF-8 with one key.
    expect(toJsonString(fromJson(text) as NetworkingObject)).toContain('"labels":{"\ufffd":"b"}');
    expect(Buffer.from(encode(fromJson(text) as NetworkingObject)).includes(Buffer.from("\ufffd"))).toBe(true);
  });

  it("fieldsV1 keeps its raw text, escapes included (a string too)", () => {
    for (const raw of ['{"f:\\ud800":"\\udc00x"}', '"\\u0041\\/\\ud800"', '["\\u00e9", 1.50, 1E2, -0]']) {
      const o = fromJson(`{${ING},"metadata":{"managedFields":[{"fieldsV1":${raw}}]}}`);
      expect(toJsonString(o)).toContain(`"fieldsV1":${raw.replace(/ /g, "")}`);
    }
  });
});

describe("JSON: repeated keys decode as Go's encoding/json does", () => {
  const spec = (o: NetworkingObject): unknown => (toJson(o) as { spec?: unknown }).spec;
  const meta = (o: NetworkingObject): unknown => (toJson(o) as { metadata?: unknown }).metadata;

  it("the last scalar wins; structs merge; null keeps a struct but clears a pointer, a list, a map and a Time", () => {
    expect(meta(fromJson(`{${ING},"metadata":{"name":"a","name":"b"}}`))).toEqual({ name: "b" });
    expect(meta(fromJson(`{${ING},"metadata":{"name":"a"},"metadata":{"namespace":"n"}}`))).toEqual({
      name: "a",
      namespace: "n",
    });
    expect(meta(fromJson(`{${ING},"metadata":{"name":"a"},"metadata":null}`))).toEqual({ name: "a" });
    expect(meta(fromJson(`{${ING},"metadata":{"name":"a","generation":5,"generation":null}}`))).toEqual({
      name: "a",
      generation: 5,
    });
    expect(
      meta(fromJson(`{${ING},"metadata":{"creationTimestamp":"2008-01-01T01:01:01Z","creationTimestamp":null}}`)),
    ).toEqual({});
    expect(meta(fromJson(`{${ING},"metadata":{"labels":{"a":"1"},"labels":{"b":"2"}}}`))).toEqual({
      labels: { a: "1", b: "2" },
    });
    expect(meta(fromJson(`{${ING},"metadata":{"labels":{"a":"1"},"labels":null,"labels":{"b":"2"}}}`))).toEqual({
      labels: { b: "2" },
    });
    expect(spec(fromJson(`{${ING},"spec":{"defaultBackend":{"service":{"name":"s"}},"defaultBackend":null}}`))).toEqual(
      {},
    );
    expect(
      spec(
        fromJson(
          `{${ING},"spec":{"defaultBackend":{"service":{"name":"s"}},"defaultBackend":{"resource":{"kind":"K","name":"n"}}}}`,
        ),
      ),
    ).toEqual({
      defaultBackend: { service: { name: "s", port: {} }, resource: { apiGroup: null, kind: "K", name: "n" } },
    });
  });

  it("a repeated list reuses the elements an earlier occurrence left (null keeps one; [] and null start afresh)", () => {
    const tls = (body: string): unknown => spec(fromJson(`{${ING},"spec":{${body}}}`));
    const abc = '"tls":[{"secretName":"a"},{"secretName":"b"},{"secretName":"c"}]';
    expect(tls(`${abc},"tls":[{"hosts":["h"]}],"tls":[null,{"hosts":["i"]}]`)).toEqual({
      tls: [
        { hosts: ["h"], secretName: "a" },
        { hosts: ["i"], secretName: "b" },
      ],
    });
    expect(tls(`${abc},"tls":[],"tls":[{"hosts":["h"]},{}]`)).toEqual({ tls: [{ hosts: ["h"] }, {}] });
    expect(tls(`${abc},"tls":null,"tls":[{"hosts":["h"]}]`)).toEqual({ tls: [{ hosts: ["h"] }] });
    expect(tls(`"tls":[{"hosts":["x","y"]}],"tls":[{"hosts":[null]}]`)).toEqual({ tls: [{ hosts: ["x"] }] });
  });

  it("IntOrString sets its type and that value only: after a repeat the other value is still there (protobuf shows it)", () => {
    const o = fromJson(`{${NP},"spec":{"ingress":[{"ports":[{"port":"http","port":80}]}]}}`);
    expect(toJsonString(o)).toContain('"ports":[{"port":80}]');
    const port = (o as unknown as { spec: { ingress: { ports: { port: unknown }[] }[] } }).spec.ingress[0]?.ports[0]
      ?.port;
    expect(port).toMatchObject({ type: 0n, intVal: 80, strVal: "http" });
    // Field 2 of NetworkPolicyPort: type 0, intVal 80, strVal "http".
    expect(hex(encode(o))).toContain("12" + "0a" + "08001050" + "1a04" + Buffer.from("http").toString("hex"));
  });

  it("strict mode refuses every repeat at the repeated key's value", () => {
    for (const body of [
      `"metadata":{"name":"a","name":@"b"}`,
      `"metadata":{"name":"a"},"metadata":@null`,
      `"spec":{"tls":[],"tls":@[{}]}`,
      `"metadata":{"labels":{"a":"1","a":@"2"}}`,
      `"spec":{"rules":[{"http":{"paths":[]},"http":@{"paths":[]}}]}`,
    ]) {
      const [text, at] = marked(`{${ING},${body}}`);
      const e = jsonError(text, { strict: true });
      expect(e.reason, body).toMatch(/duplicate field/);
      expectAt(e, text, at);
    }
  });
});

describe("JSON: syntax Go's decoder refuses, located at the offending character", () => {
  it.each([
    `{${ING},@}`,
    `{${ING},"metadata":{"finalizers":["a",@]}}`,
    `{${ING}@// comment\n}`,
    `{${ING},@/* comment */"spec":{}}`,
    `{${ING},"metadata":{"generation":@NaN}}`,
    `{${ING},"metadata":{"generation":@Infinity}}`,
    `{${ING},"metadata":{"generation":-@Infinity}}`,
    `@\ufeff{${ING}}`,
    `{${ING},@'spec':{}}`,
    `{${ING},@spec:{}}`,
    `{${ING},"metadata":{"generation":0@1}}`,
    `{${ING},"metadata":{"generation":@+1}}`,
    `{${ING},"metadata":{"generation":@.5}}`,
    `{${ING},"metadata":{"generation":1.@}}`,
    `{${ING},"metadata":{"generation":0@x1F}}`,
    `{${ING},"metadata":{"generation":1e@}}`,
    `{${ING},"metadata":{"name":"a@\u0001b"}}`,
    `{${ING},"metadata":{"name":"a@\\x41"}}`,
    `{${ING},"metadata":{"name":"a@\\u12"}}`,
    `{${ING},"metadata":{"name":"a"@`,
    `{${ING},"metadata":{"name":"a@`,
    `{${ING}}@,`,
    `{${ING},"metadata":@\ud800}`,
    `{${ING},"metadata":{"name"@=1}}`,
  ])("%j", (m) => {
    const [text, at] = marked(m);
    expectAt(jsonError(text), text, at);
  });
});

describe("JSON: long strings and keys in linear time", () => {
  it("a 10 MB value, 1,000,000 escapes, a 1 MB key", async () => {
    const big = "x".repeat(10_000_000);
    const key = "k".repeat(1_000_000);
    const o = fromJson(
      `{${ING},"metadata":{"name":"${big}","annotations":{"e":"${"\\u0041".repeat(1_000_000)}","${key}":"v"}}}`,
    ) as NetworkingObject & { metadata: { name: string; annotations: Record<string, string> } };
    expect(o.metadata.name).toBe(big);
    expect(o.metadata.annotations["e"]).toBe("A".repeat(1_000_000));
    expect(o.metadata.annotations[key]).toBe("v");
    // Linear in each length: two lengths compared with each other, not with a budget.
    const value = built((n) => `{${ING},"metadata":{"name":"${"x".repeat(n)}"}}`);
    await expectSubquadratic("a long value", (n) => fromJson(value(n)), 1 << 20, { factor: 16 });
    const escapes = built((n) => `{${ING},"metadata":{"annotations":{"e":"${"\\u0041".repeat(n)}"}}}`);
    // Escapes stay at 256K or fewer: past that, V8's cost per escape steps up about 4x once (the decoded
    // string outgrows the young generation) and then stays flat, a constant factor the guard would
    // mistake for growth.
    // Eight decodings per run lift the smaller size above the timer's noise.
    await expectSubquadratic(
      "a value of escapes",
      (n) => {
        for (let i = 0; i < 8; i++) fromJson(escapes(n));
      },
      1 << 14,
      { factor: 16 },
    );
    const keys = built((n) => `{${ING},"metadata":{"annotations":{"${"k".repeat(n)}":"v"}}}`);
    await expectSubquadratic("a long key", (n) => fromJson(keys(n)), 1 << 19, { factor: 16 });
  });
});

// ------------------------------------------------------------ random JSON values at random positions

/** The literal JSON.stringify writes for a JSON value (the text path reads that). */
function litOfJson(v: JsonValue): Lit {
  if (typeof v === "number") return num(JSON.stringify(v));
  if (Array.isArray(v)) return arr(...v.map(litOfJson));
  if (typeof v === "object" && v !== null && typeof v !== "bigint")
    return obj(...Object.keys(v).map((k): [string, Lit] => [k, litOfJson(v[k] as JsonValue)]));
  return v === null ? nul() : typeof v === "string" ? str(v) : typeof v === "boolean" ? bool(v) : num(String(v));
}

function hasLoneSurrogate(lit: Lit): boolean {
  if (lit.k === "str") return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(lit.v);
  if (lit.k === "arr") return lit.items.some(hasLoneSurrogate);
  return lit.k === "obj" && lit.entries.some(([k, v]) => hasLoneSurrogate(str(k)) || hasLoneSurrogate(v));
}

/** Object keys prefixed, so that they are never field names (the model's structs take unknown keys only). */
function prefixKeys(v: unknown): JsonValue {
  if (Array.isArray(v)) return v.map(prefixKeys);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, JsonValue> = {};
    for (const k of Object.keys(v)) setOwn(out, `x-${k}`, prefixKeys((v as Record<string, unknown>)[k]));
    return out;
  }
  return v as JsonValue;
}

describe("random JSON values at random positions (fast-check)", () => {
  const odd = fc.constantFrom<unknown>(-0, 1e21, 2 ** 53 + 2, "\ud800", 2147483648, -2147483649, "<&>", "\u2028");
  const arbValue = fc
    .oneof(
      fc.jsonValue({ maxDepth: 3 }),
      odd,
      fc.array(odd, { maxLength: 2 }),
      fc.dictionary(fc.string(), odd, { maxKeys: 2 }),
    )
    .map(prefixKeys);
  const arbSite = fc.constantFrom(...ALL_SITES);

  it("JSON text, parsed values and YAML agree with the model", () => {
    fc.assert(
      fc.property(arbSite, arbValue, fc.boolean(), (site, v, strict) => {
        const lit = litOfJson(v);
        const placed = jsonDoc(site, lit);
        expect(
          check(
            attempt(() => fromJson(placed.text, { strict })),
            { site, verdict: goDecode(site.type, lit, strict, site.member), format: "json", placed },
          ),
        ).toBeUndefined();
        expect(
          check(
            attempt(() => fromJson(treeFor(site, v) as JsonValue, { strict })),
            { site, verdict: goDecode(site.type, meaningOfJs(v), strict, site.member), format: "json", sortKeys: true },
          ),
        ).toBeUndefined();
        const { text, at } = renderYaml(lit);
        const y = yamlDoc(site, text, at);
        const r = attemptYaml(y.text, strict);
        if (hasLoneSurrogate(lit)) {
          // Written as a \u escape, which go-yaml's scanner refuses.
          expect("error" in r && r.error instanceof DecodeError && r.error.reason).toMatch(
            /invalid Unicode character escape/,
          );
          return;
        }
        expect(
          check(r, {
            site,
            verdict: goDecode(site.type, meaningOfYaml(lit), strict, site.member, true),
            format: "yaml",
            placed: y,
            sortKeys: true,
          }),
        ).toBeUndefined();
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

// ------------------------------------------------------------ JSON watch streams

async function collect(chunks: Iterable<Uint8Array | string>, options = {}): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const e of decodeJsonWatchStream(chunks, options)) out.push(e);
  return out;
}

async function streamError(chunks: Iterable<Uint8Array | string>, options = {}): Promise<DecodeError> {
  try {
    await collect(chunks, options);
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    return e as DecodeError;
  }
  throw new Error("accepted, want a DecodeError");
}

describe("JSON watch streams: the same hostile objects, located in the stream", () => {
  const first = `{"type":"ADDED","object":{${ING},"metadata":{"name":"a"}}}\n`;
  const wrap = (object: string): string => `{"type":"MODIFIED",\n "object":${object}}\n`;

  it("type errors at every position of a kind, and the number edges, keep their stream position and path", async () => {
    const failures: string[] = [];
    for (const site of SITES.get("NetworkPolicy") ?? []) {
      for (const lit of [str("s"), arr(num("1")), num("1.5"), num("2147483648")]) {
        const verdict = goDecode(site.type, lit, false, site.member);
        if (verdict.ok) continue;
        const { text, at } = jsonDoc(site, lit);
        const offset = (at.get(verdict.at) as number) + first.length + '{"type":"MODIFIED",\n "object":'.length;
        const stream = first + wrap(text);
        const e = await streamError([stream]);
        const want = [offset, ...lineColumn(stream, offset)];
        if (
          !same([e.offset, e.line, e.column], want) ||
          !same(e.segments, ["object", ...site.segments, ...verdict.path])
        ) {
          failures.push(`${site.segments.join(".")}: ${e.message}, want ${want.join(":")}`);
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it("lone surrogates, repeated keys, deep nesting and a huge maxDepth", async () => {
    const [ev] = await collect([
      `{"type":"ADDED","object":{${ING},"metadata":{"name":"\\ud800","labels":{"\\udc00":"a","\\udfff":"b"}}}}`,
    ]);
    expect((ev?.object as { metadata: { name: string; labels: object } } | undefined)?.metadata).toMatchObject({
      name: "\ufffd",
      labels: { "\ufffd": "b" },
    });
    const deep = first + `{"type":"ADDED","object":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`;
    // The depth limit's reason and offset prove it stopped the parse; a hang would hit the test timeout.
    const e = await streamError([deep]);
    expect(e.reason).toBe("nesting deeper than 100");
    expect(e.offset).toBe(first.length + 25 + 99); // the event is level 1
    expect((await streamError([deep], { maxDepth: 10_000_000 })).reason).toMatch(/nested too deeply/);
    const dup = await streamError([first + `{"type":"ADDED","object":{${ING},"metadata":{"name":"a","name":"b"}}}`], {
      strict: true,
    });
    expect(dup.segments).toEqual(["object", "metadata", "name"]);
  });

  it("syntax Go's decoder refuses, inside an event or between events, located in the stream", async () => {
    for (const m of [
      `{"type":"ADDED","object":{${ING},@}}`,
      `{"type":"ADDED","object":{${ING},"metadata":{"generation":@NaN}}}`,
      `{"type":"ADDED","object":{${ING},@/* c */"spec":{}}}`,
      `{"type":"ADDED","object":{${ING},@'spec':{}}}`,
      `{"type":"ADDED","object":{${ING},"metadata":{"name":"a@\u0001"}}}`,
      `@\ufeff{"type":"ADDED","object":{${ING}}}`,
      `@// comment\n{"type":"ADDED","object":{${ING}}}`,
      `@["type","ADDED"]`,
    ]) {
      const [event, at] = marked(m);
      const stream = first + "  " + event;
      const e = await streamError([stream]);
      const offset = first.length + 2 + at;
      expect([e.offset, e.line, e.column], m).toEqual([offset, ...lineColumn(stream, offset)]);
    }
  });

  it("event-level problems point at the offending value", async () => {
    for (const [m, strict, reason] of [
      ['{"type":"ADDED","bogus":@1,"object":{}}', true, /unknown field "bogus"/],
      ['{"type":"ADDED","type":@"ADDED","object":{}}', true, /duplicate field "type"/],
      [
        '{"type":@5,"object":{}}',
        false,
        /^json: cannot unmarshal number into Go struct field WatchEvent.type of type string$/,
      ],
      ['{"type":@"SYNC","object":{}}', false, /unknown watch event type "SYNC"/],
      ['{"type":@null,"object":{}}', false, /unknown watch event type null/],
      ['{"type":"ADDED","object":@null}', false, /has no object/],
    ] as const) {
      const [event, at] = marked(m);
      const stream = first + "\n  " + event;
      const e = await streamError([stream], { strict });
      expect(e.reason, m).toMatch(reason);
      const offset = first.length + 3 + at;
      expect([e.offset, e.line, e.column], m).toEqual([offset, ...lineColumn(stream, offset)]);
    }
  });

  it("an event that arrives in 1-character chunks costs linear time", async () => {
    // 200 KB in 1-character chunks took about 20 s when each chunk re-read the buffered event.
    const big = (n: number): string => `{"type":"ADDED","object":{${ING},"metadata":{"name":"${"a".repeat(n)}"}}}\n`;
    const strings = (n: number): string[] => big(n).split("");
    const bytes = (n: number): Uint8Array[] => Array.from(new TextEncoder().encode(big(n)), (b) => Uint8Array.of(b));
    for (const chunks of [strings(200_000), bytes(100_000)]) expect(await collect(chunks)).toHaveLength(1);
    // Linear: two sizes compared with each other, not with a budget.
    for (const [form, make] of [
      ["strings", built(strings)],
      ["bytes", built(bytes)],
    ] as const) {
      await expectSubquadratic(`1-character chunks (${form})`, (n) => collect(make(n)), 1 << 14, { factor: 16 });
    }
    const many = Array.from(
      { length: 1000 },
      (_, i) => `{"type":"ADDED","object":{${ING},"metadata":{"name":"n${i}"}}}`,
    ).join("\n");
    const names = (await collect(many.split(""))).map(
      (e) => (e.object as { metadata: { name: string } }).metadata.name,
    );
    expect(names).toEqual(Array.from({ length: 1000 }, (_, i) => `n${i}`));
    // decodeJsonWatchEvent alone: the same rules.
    expect(() =>
      decodeJsonWatchEvent(
        '{"type":"ADDED","object":{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","spec":{"rules":[{"host":1}]}}}',
      ),
    ).toThrow(/spec\.rules\[0\]\.host/);
  });
});
