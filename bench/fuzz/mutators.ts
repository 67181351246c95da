import type { Rng } from "./rng.js";
import {
  MAGIC,
  WT,
  Sink,
  paddedVarint,
  serialize,
  tag,
  varint,
  type Edit,
  type PbDoc,
  type PbNode,
} from "../../test/support/protobuf-wire.js";

// ------------------------------------------------------------------ bytes

/** Byte values that sit on varint, wire-type and sign boundaries. */
export const INTERESTING_BYTES = [
  0x00, 0x01, 0x7f, 0x80, 0xff, 0x08, 0x0a, 0x12, 0x1a, 0x22, 0x2b, 0x2c, 0x6b,
] as const;

export const BYTE_OPS = [
  "flip",
  "interesting",
  "random",
  "insert",
  "delete",
  "duplicate",
  "truncate",
  "varint-run",
] as const;
export type ByteOp = (typeof BYTE_OPS)[number];

/** Applies `count` random byte-level mutations. */
export function mutateBytes(rng: Rng, input: Uint8Array, count: number): Uint8Array {
  let b = input;
  for (let i = 0; i < count; i++) b = applyByteOp(rng, b, rng.pick(BYTE_OPS));
  return b;
}

/** One mutation; never changes `input` itself. */
export function applyByteOp(rng: Rng, input: Uint8Array, op: ByteOp): Uint8Array {
  const n = input.length;
  if (n === 0 && op !== "insert") return applyByteOp(rng, input, "insert");
  switch (op) {
    case "flip": {
      const out = input.slice();
      const at = rng.int(n);
      out[at] = (out[at] as number) ^ (1 << rng.int(8));
      return out;
    }
    case "interesting":
    case "random": {
      const out = input.slice();
      out[rng.int(n)] = op === "random" ? rng.int(256) : rng.pick(INTERESTING_BYTES);
      return out;
    }
    case "insert": {
      const k = rng.range(1, 8);
      const ins = rng.chance(0.5) ? rng.bytes(k) : Uint8Array.from({ length: k }, () => rng.pick(INTERESTING_BYTES));
      return splice(input, rng.int(n + 1), 0, ins);
    }
    case "delete": {
      const k = rng.range(1, Math.min(16, n));
      return splice(input, rng.int(n - k + 1), k, new Uint8Array(0));
    }
    case "duplicate": {
      const k = rng.range(1, Math.min(64, n));
      const from = rng.int(n - k + 1);
      return splice(input, rng.int(n + 1), 0, input.subarray(from, from + k));
    }
    case "truncate":
      return input.slice(0, rng.int(n));
    case "varint-run": {
      // A run of continuation bytes: a varint that is too long, or never ends.
      const k = rng.range(1, 11);
      const run = Uint8Array.from({ length: k }, (_, i) =>
        i === k - 1 && rng.chance(0.5) ? rng.int(0x80) : rng.chance(0.5) ? 0xff : 0x80,
      );
      const at = rng.int(n);
      const out = input.slice();
      out.set(run.subarray(0, Math.min(k, n - at)), at);
      return out;
    }
  }
}

/** input[0, at) + insert + input[at + remove, ...). */
export function splice(input: Uint8Array, at: number, remove: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(input.length - remove + insert.length);
  out.set(input.subarray(0, at), 0);
  out.set(insert, at);
  out.set(input.subarray(at + remove), at + insert.length);
  return out;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ------------------------------------------------------------------ protobuf structure

const truncationCache = new WeakMap<PbDoc, number[]>();

/**
 * Every kind of place to cut a message: in the magic, before/inside/after
 * each tag, inside and after each length prefix, inside and at the end of
 * each value.
 */
export function truncationPoints(doc: PbDoc): number[] {
  let pts = truncationCache.get(doc);
  if (pts !== undefined) return pts;
  const set = new Set<number>([0, 1, 2, 3, 4]);
  for (const n of doc.all) {
    set.add(n.start);
    if (n.valueStart - n.start > 1) set.add(n.start + 1);
    set.add(n.valueStart);
    if (n.dataStart - n.valueStart > 1) set.add(n.valueStart + 1);
    set.add(n.dataStart);
    if (n.end > n.dataStart) {
      set.add(n.dataStart + 1);
      set.add((n.dataStart + n.end) >>> 1);
      set.add(n.end - 1);
    }
    set.add(n.end);
  }
  pts = [...set].filter((p) => p <= doc.bytes.length).sort((a, b) => a - b);
  truncationCache.set(doc, pts);
  return pts;
}

/** Field boundaries (starts and ends of nodes), for splicing. */
export function boundaries(doc: PbDoc): number[] {
  const out = [doc.prefix, doc.bytes.length];
  for (const n of doc.all) out.push(n.start, n.end);
  return out;
}

/** A's bytes before a boundary, then B's bytes from a boundary on. */
export function spliceDocs(rng: Rng, a: PbDoc, b: PbDoc): Uint8Array {
  const i = rng.chance(0.8) ? rng.pick(boundaries(a)) : rng.int(a.bytes.length + 1);
  const j = rng.chance(0.8) ? rng.pick(boundaries(b)) : rng.int(b.bytes.length + 1);
  return concat([a.bytes.subarray(0, i), b.bytes.subarray(j)]);
}

/**
 * Declared lengths a 32-bit or float length reader gets wrong: around 2^31,
 * 2^32 (plus the real length, which 32-bit truncation turns back into a
 * plausible value), 2^53, 2^63, 2^64 (65 bits in 10 bytes) and 2^70 (11 bytes).
 */
export function hugeLengths(actual: number): bigint[] {
  const k = BigInt(actual);
  return [
    2n ** 31n - 1n,
    2n ** 31n,
    2n ** 31n + k,
    2n ** 32n - 1n,
    2n ** 32n,
    2n ** 32n + k,
    2n ** 35n + k,
    2n ** 53n - 1n,
    2n ** 53n,
    2n ** 53n + k,
    2n ** 63n - 1n,
    2n ** 63n,
    2n ** 63n + k,
    2n ** 64n - 1n,
    2n ** 64n + k,
    2n ** 70n + k,
  ];
}

/** Varint values on every boundary that matters to int32/int64/bool readers. */
export const INTERESTING_VARINTS: readonly bigint[] = [
  0n,
  1n,
  2n,
  0x7fn,
  0x80n,
  0x7fffffffn,
  0x80000000n,
  0xffffffffn,
  0x100000000n,
  2n ** 53n + 1n,
  2n ** 63n - 1n,
  2n ** 63n,
  2n ** 64n - 1n,
  2n ** 64n,
  2n ** 70n - 1n,
];

/** Strings that are not valid UTF-8, or are at its edges. */
export const UTF8_EDGES: readonly (readonly number[])[] = [
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
  [0xef, 0xbb, 0xbf],
  [0xf0, 0x9f, 0x98, 0x80],
  [0x00],
  [0xc2, 0x80],
];

export const STRUCTURAL_OPS = [
  "length",
  "huge-length",
  "wire-type",
  "field-number",
  "overlong-tag",
  "overlong-length",
  "drop",
  "repeat",
  "value",
  "insert",
  "group",
] as const;
export type StructuralOp = (typeof STRUCTURAL_OPS)[number];

/** The nodes an op can apply to. */
function candidates(doc: PbDoc, op: StructuralOp): readonly PbNode[] {
  if (op === "length" || op === "huge-length" || op === "overlong-length")
    return doc.all.filter((n) => n.wt === WT.LEN);
  return doc.all;
}

/** One edit of kind `op` to a random suitable node, or undefined when the doc has none. */
export function structuralEdit(
  rng: Rng,
  doc: PbDoc,
  op: StructuralOp,
  donors: readonly PbDoc[] = [],
): [PbNode, Edit] | undefined {
  const nodes = candidates(doc, op);
  if (nodes.length === 0) return undefined;
  const n = rng.pick(nodes);
  const payload = n.end - n.dataStart;
  switch (op) {
    case "length": {
      const v = rng.pick([
        0,
        1,
        payload - 1,
        payload + 1,
        payload + rng.range(2, 200),
        Math.max(0, payload - rng.range(2, 50)),
        payload * 2,
        rng.int(1 << 16),
      ]);
      return [n, { op: "length", bytes: varint(Math.max(0, v)) }];
    }
    case "huge-length":
      return [n, { op: "length", bytes: varint(rng.pick(hugeLengths(payload))) }];
    case "overlong-length":
      return [n, { op: "length", bytes: paddedVarint(payload, rng.range(2, 11)) }];
    case "wire-type": {
      let wt = rng.int(8);
      if (wt === n.wt) wt = (wt + 1 + rng.int(7)) % 8;
      return [n, { op: "tag", bytes: tag(n.no, wt) }];
    }
    case "field-number": {
      const no = rng.pick([
        0,
        rng.range(1, 20),
        rng.range(1, 20),
        15,
        16,
        2047,
        2048,
        2 ** 29 - 1,
        2 ** 29,
        2 ** 32 - 1,
      ]);
      return [n, { op: "tag", bytes: varint(BigInt(no) * 8n + BigInt(n.wt)) }];
    }
    case "overlong-tag":
      return [n, { op: "tag", bytes: paddedVarint(n.no * 8 + n.wt, rng.range(2, 11)) }];
    case "drop":
      return [n, { op: "drop" }];
    case "repeat":
      return [n, { op: "repeat", times: rng.range(2, 4) }];
    case "value":
      return [n, { op: "value", bytes: replacementValue(rng, n.wt, donors) }];
    case "insert":
      return [n, { op: rng.chance(0.5) ? "before" : "after", bytes: strayField(rng, donors) }];
    case "group": {
      const no = rng.range(1, 40);
      return [n, { op: "group", no, endNo: rng.chance(0.8) ? no : rng.range(1, 40) }];
    }
  }
}

/** A value for a node of wire type `wt`: interesting varints, bad UTF-8, a donor's payload, random bytes. */
function replacementValue(rng: Rng, wt: number, donors: readonly PbDoc[]): Uint8Array {
  if (wt === WT.VARINT)
    return Uint8Array.from(
      rng.chance(0.8)
        ? varint(rng.pick(INTERESTING_VARINTS))
        : [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
    );
  if (wt === WT.I64) return rng.bytes(8);
  if (wt === WT.I32) return rng.bytes(4);
  const r = rng.float();
  if (r < 0.3) return Uint8Array.from(rng.pick(UTF8_EDGES));
  if (r < 0.45) return new Uint8Array(0);
  if (r < 0.6) return Uint8Array.from([...MAGIC, ...rng.bytes(rng.size(64))]);
  if (r < 0.8 && donors.length > 0) {
    const d = rng.pick(donors);
    const m = rng.pick(d.all);
    return d.bytes.subarray(m.dataStart, m.end);
  }
  if (r < 0.85) return new Uint8Array(rng.pick([1000, 70000])).fill(0x61);
  return rng.bytes(rng.size(200));
}

/** Bytes for an extra field: a donor's field, a random one, or a lone group tag. */
function strayField(rng: Rng, donors: readonly PbDoc[]): Uint8Array {
  const r = rng.float();
  if (r < 0.4 && donors.length > 0) {
    const d = rng.pick(donors);
    const m = rng.pick(d.all);
    return d.bytes.subarray(m.start, m.end);
  }
  if (r < 0.6) return Uint8Array.from(tag(rng.range(1, 40), rng.chance(0.5) ? WT.SGROUP : WT.EGROUP));
  const no = rng.range(1, 40);
  const wt = rng.pick([0, 1, 2, 5, 6, 7]);
  const out = new Sink();
  out.push(tag(no, wt));
  if (wt === WT.VARINT) out.push(varint(rng.pick(INTERESTING_VARINTS)));
  else if (wt === WT.I64) out.push(rng.bytes(8));
  else if (wt === WT.I32) out.push(rng.bytes(4));
  else if (wt === WT.LEN) {
    const body = rng.bytes(rng.size(40));
    out.push(varint(body.length));
    out.push(body);
  }
  return out.take();
}

/** Applies `count` structural edits of random kinds and writes the result. */
export function mutateStructure(
  rng: Rng,
  doc: PbDoc,
  count: number,
  donors: readonly PbDoc[] = [],
  ops: readonly StructuralOp[] = STRUCTURAL_OPS,
): Uint8Array {
  const edits = new Map<PbNode, Edit[]>();
  for (let i = 0; i < count; i++) {
    const e = structuralEdit(rng, doc, rng.pick(ops), donors);
    if (e === undefined) continue;
    const [node, edit] = e;
    const list = edits.get(node);
    if (list === undefined) edits.set(node, [edit]);
    else list.push(edit);
  }
  return serialize(doc, edits);
}

// ------------------------------------------------------------------ deep nesting

const deepCache = new Map<string, Uint8Array | string>();
let deepCacheSize = 0;
/** Bound on the cache, so it cannot pass for a leak in the decoders. */
const DEEP_CACHE_BUDGET = 24 << 20;

/** Builds once per shape: a 100,000-level input is 200 KB and is reused. */
function cached<T extends Uint8Array | string>(key: string, build: () => T): T {
  let v = deepCache.get(key) as T | undefined;
  if (v === undefined) {
    v = build();
    if (deepCacheSize + v.length > DEEP_CACHE_BUDGET) {
      deepCache.clear();
      deepCacheSize = 0;
    }
    deepCache.set(key, v);
    deepCacheSize += v.length;
  }
  return v;
}

/** Nesting depths to try: around the default limits (64 groups, 100 JSON/YAML levels) and far beyond. */
export function pickDepth(rng: Rng): number {
  return rng.weighted<() => number>([
    [2, () => rng.range(1, 10)],
    [3, () => rng.pick([63, 64, 65, 99, 100, 101])],
    [2, () => rng.pick([499, 500, 501, 1000])],
    [2, () => rng.pick([2000, 5000, 10_000])],
    [1, () => 100_000],
  ])();
}

/** `depth` start-group tags for field `no`; balanced adds the matching end-group tags. */
export function deepGroups(depth: number, no = 5, balanced = true): Uint8Array {
  return cached(`g:${depth}:${no}:${balanced}`, () => {
    const s = tag(no, WT.SGROUP);
    const e = tag(no, WT.EGROUP);
    const out = new Uint8Array(depth * s.length + (balanced ? depth * e.length : 0));
    repeatInto(out, 0, s, depth);
    if (balanced) repeatInto(out, depth * s.length, e, depth);
    return out;
  });
}

/** Writes `times` copies of `unit` at `at`, doubling the written run (fast for 100,000 copies). */
function repeatInto(out: Uint8Array, at: number, unit: readonly number[], times: number): void {
  const total = unit.length * times;
  if (total === 0) return;
  out.set(unit, at);
  for (let done = unit.length; done < total; done *= 2)
    out.copyWithin(at + done, at, at + Math.min(done, total - done));
}

/** `depth` length-delimited fields for field `no`, each holding the next, around `core`. */
export function deepMessages(
  depth: number,
  no = 1,
  core: Uint8Array = new Uint8Array(0),
  coreKey = `${core.length}`,
): Uint8Array {
  return cached(`m:${depth}:${no}:${coreKey}`, () => {
    // Built from the inside out; each level adds a tag and a length prefix.
    const t = tag(no, WT.LEN);
    const sizes = new Float64Array(depth);
    let inner = core.length;
    for (let i = depth - 1; i >= 0; i--) {
      sizes[i] = inner;
      inner += t.length + varintSize(inner);
    }
    const out = new Uint8Array(inner);
    let at = 0;
    for (let i = 0; i < depth; i++) {
      out.set(t, at);
      at += t.length;
      let v = sizes[i] as number;
      while (v > 127) {
        out[at++] = (v & 127) | 128;
        v = Math.floor(v / 128);
      }
      out[at++] = v;
    }
    out.set(core, at);
    return out;
  });
}

function varintSize(n: number): number {
  let size = 1;
  while (n > 127) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

export type JsonNest = "array" | "object" | "mixed" | "unclosed";

/** JSON nested `depth` levels deep. */
export function deepJson(depth: number, form: JsonNest): string {
  return cached(`j:${depth}:${form}`, () => {
    switch (form) {
      case "array":
        return "[".repeat(depth) + "]".repeat(depth);
      case "object":
        return '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
      case "mixed":
        return '[{"f:a":'.repeat(Math.ceil(depth / 2)) + "{}" + "}]".repeat(Math.ceil(depth / 2));
      case "unclosed":
        return '{"a":['.repeat(Math.ceil(depth / 2));
    }
  });
}

export type YamlNest = "flow" | "block-seq" | "block-map";

/** YAML nested `depth` levels deep. Block maps grow quadratically with depth, so they stop at 2,000. */
export function deepYaml(depth: number, form: YamlNest): string {
  return cached(`y:${depth}:${form}`, () => {
    switch (form) {
      case "flow":
        return "[".repeat(depth) + "]".repeat(depth) + "\n";
      case "block-seq":
        return "- ".repeat(depth) + "x\n";
      case "block-map": {
        const d = Math.min(depth, 2000);
        let s = "";
        for (let i = 0; i < d; i++) s += `${" ".repeat(i)}a:\n`;
        return `${s}${" ".repeat(d)}b: 1\n`;
      }
    }
  });
}

// ------------------------------------------------------------------ text

/** Literals where Go's and JS's number handling part ways, and values of the wrong type. */
export const HOSTILE_JSON_VALUES: readonly string[] = [
  "1e400",
  "-1e400",
  "1e-400",
  "-0",
  "0.0",
  "1.0",
  "1e2",
  "1E+2",
  "0.5",
  "2147483647",
  "2147483648",
  "-2147483649",
  "4294967296",
  "9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775809",
  "18446744073709551616",
  "123456789012345678901234567890123456789012345678901234567890",
  '""',
  '"\\ud800"',
  '"\\udc00\\ud800"',
  '"\\u0000"',
  '"\\\\"',
  '"80"',
  '"http"',
  '"2008-01-01T01:01:01Z"',
  '"2008-01-01T01:01:01.999999999999Z"',
  '"0000-01-01T00:00:00Z"',
  '"9999-12-31T23:59:60+14:00"',
  '"yesterday"',
  '"networking.k8s.io/v1"',
  '"Ingress"',
  "true",
  "false",
  "null",
  "[]",
  "{}",
  "[null]",
  '{"":null}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '["a",1,true,null,{}]',
];

export const HOSTILE_KEYS: readonly string[] = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "$typeName",
  "$unknown",
  "",
  "kind",
  "apiVersion",
  "metadata",
  "spec",
  "status",
  "items",
  "Metadata",
  "aPIGroup",
  "ingressRuleValue",
  "Raw",
  "f:spec",
];

/** Spans of a valid JSON text: every value, and where each object's members start. */
export interface JsonSpans {
  /** [start, end) of every value, primitives and containers. */
  readonly values: readonly (readonly [number, number])[];
  /** Just after each `{`. */
  readonly objectStarts: readonly number[];
  /** [start, end) of each `"key": value` member. */
  readonly members: readonly (readonly [number, number])[];
}

const spanCache = new Map<string, JsonSpans>();

/** Scans valid JSON (the fixtures) once and caches the spans. */
export function jsonSpans(text: string): JsonSpans {
  let s = spanCache.get(text);
  if (s !== undefined) return s;
  const values: [number, number][] = [];
  const objectStarts: number[] = [];
  const members: [number, number][] = [];
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \n\r\t".includes(text[i] as string)) i++;
  };
  const str = (): void => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
  };
  const value = (depth: number): void => {
    if (depth > 200) throw new Error("fixture nested too deeply");
    ws();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      objectStarts.push(i);
      ws();
      if (text[i] === "}") i++;
      else
        for (;;) {
          ws();
          const m = i;
          str();
          ws();
          i++; // colon
          value(depth + 1);
          members.push([m, i]);
          ws();
          if (text[i++] === "}") break;
        }
    } else if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") i++;
      else
        for (;;) {
          value(depth + 1);
          ws();
          if (text[i++] === "]") break;
        }
    } else if (c === '"') str();
    else while (i < text.length && !",]} \n\r\t".includes(text[i] as string)) i++;
    values.push([start, i]);
  };
  value(0);
  s = { values, objectStarts, members };
  if (spanCache.size > 256) spanCache.clear();
  spanCache.set(text, s);
  return s;
}

export const JSON_OPS = ["replace-value", "insert-member", "duplicate-member", "drop-member", "nest-value"] as const;
export type JsonOp = (typeof JSON_OPS)[number];

/** Value-level changes to valid JSON that keep it valid JSON (mostly), so the decoder gets past the parser. */
export function mutateJsonValues(rng: Rng, text: string, count: number): string {
  // Edits are applied from the end backwards so earlier spans stay valid.
  const spans = jsonSpans(text);
  const edits: { at: number; remove: number; insert: string }[] = [];
  for (let k = 0; k < count; k++) {
    const op = rng.pick(JSON_OPS);
    switch (op) {
      case "replace-value": {
        const [a, b] = rng.pick(spans.values);
        edits.push({ at: a, remove: b - a, insert: rng.pick(HOSTILE_JSON_VALUES) });
        break;
      }
      case "insert-member": {
        if (spans.objectStarts.length === 0) break;
        const at = rng.pick(spans.objectStarts);
        const empty = /^\s*}/.test(text.slice(at, at + 64));
        edits.push({
          at,
          remove: 0,
          insert: `${JSON.stringify(rng.pick(HOSTILE_KEYS))}:${rng.pick(HOSTILE_JSON_VALUES)}${empty ? "" : ","}`,
        });
        break;
      }
      case "duplicate-member": {
        if (spans.members.length === 0) break;
        const [a, b] = rng.pick(spans.members);
        edits.push({ at: b, remove: 0, insert: `,${text.slice(a, b)}` });
        break;
      }
      case "drop-member": {
        if (spans.members.length === 0) break;
        const [a, b] = rng.pick(spans.members);
        // Take a comma with it, the one after or else the one before, so the JSON stays valid.
        const after = /^\s*,/.exec(text.slice(b, b + 16));
        const before = /,\s*$/.exec(text.slice(Math.max(0, a - 16), a));
        if (after !== null) edits.push({ at: a, remove: b - a + after[0].length, insert: "" });
        else if (before !== null)
          edits.push({ at: a - before[0].length, remove: b - a + before[0].length, insert: "" });
        else edits.push({ at: a, remove: b - a, insert: "" });
        break;
      }
      case "nest-value": {
        const [a, b] = rng.pick(spans.values);
        const d = rng.pick([99, 100, 101, 1000]);
        edits.push({ at: a, remove: 0, insert: "[".repeat(d) });
        edits.push({ at: b, remove: 0, insert: "]".repeat(d) });
        break;
      }
    }
  }
  return applyTextEdits(text, edits);
}

/** Applies non-overlapping-or-nested edits, last position first. */
export function applyTextEdits(text: string, edits: { at: number; remove: number; insert: string }[]): string {
  // Overlapping removals would garble each other: keep the first of any overlap.
  edits.sort((x, y) => y.at - x.at);
  let out = text;
  let limit = Infinity;
  for (const e of edits) {
    if (e.at + e.remove > limit) continue;
    out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove);
    limit = e.at;
  }
  return out;
}

const JSON_TOKENS: readonly string[] = [
  "{",
  "}",
  "[",
  "]",
  ":",
  ",",
  '"',
  "\\",
  "\\u00",
  "\\ud800",
  " ",
  "\n",
  "\t",
  "\r",
  "\u2028",
  "\ufeff",
  "\u0000",
  "\ud800",
  "//",
  "/*",
  "'",
  "NaN",
  "Infinity",
  "0x10",
  "-",
  ".",
  "e",
  "tru",
  "nul",
  '"kind"',
  '"apiVersion"',
  '"metadata"',
  '"__proto__"',
  ...HOSTILE_JSON_VALUES,
];

const YAML_TOKENS: readonly string[] = [
  "- ",
  ": ",
  "? ",
  ",",
  "[",
  "]",
  "{",
  "}",
  "&a ",
  "*a",
  "*b",
  "!!str ",
  "!!int ",
  "!!binary ",
  "!!map ",
  "!!set ",
  "!foo ",
  "!<tag:x> ",
  "|",
  "|-",
  ">+",
  "---\n",
  "...\n",
  "%YAML 1.1\n",
  "%TAG ! tag:x,2000:\n",
  "<<: ",
  "'",
  '"',
  "#",
  "\t",
  "\n",
  "  ",
  "\r\n",
  "\ufeff",
  "\u0085",
  "\ud800",
  "~",
  "null",
  "yes",
  "no",
  "on",
  "0x1F",
  "0o17",
  "017",
  "+12",
  "1_000",
  ".inf",
  "-.nan",
  "1e400",
  "9223372036854775808",
  "2001-12-14t21:59:43.10-05:00",
  "__proto__: ",
  "kind: ",
  "apiVersion: ",
  "metadata:\n  ",
  "\\",
  "%",
];

export type Dialect = "json" | "yaml";

/** Character-level mutations with tokens of the dialect. */
export function mutateText(rng: Rng, text: string, count: number, dialect: Dialect): string {
  let s = text;
  const tokens = dialect === "json" ? JSON_TOKENS : YAML_TOKENS;
  for (let k = 0; k < count; k++) {
    const n = s.length;
    const at = rng.int(n + 1);
    const r = rng.int(dialect === "yaml" ? 9 : 7);
    switch (r) {
      case 0: // replace one character
        s = s.slice(0, at) + rng.pick(tokens).slice(0, 1) + s.slice(at + 1);
        break;
      case 1:
      case 2: // insert a token
        s = s.slice(0, at) + rng.pick(tokens) + s.slice(at);
        break;
      case 3: {
        const len = rng.range(1, 16);
        s = s.slice(0, at) + s.slice(at + len);
        break;
      }
      case 4: {
        const from = rng.int(n + 1);
        const len = rng.range(1, 200);
        s = s.slice(0, at) + s.slice(from, from + len) + s.slice(at);
        break;
      }
      case 5:
        s = s.slice(0, at);
        break;
      case 6: // a random code unit, lone surrogates included
        s = s.slice(0, at) + String.fromCharCode(rng.chance(0.5) ? rng.int(0x80) : rng.int(0x10000)) + s.slice(at);
        break;
      case 7:
      case 8:
        s = mutateYamlLines(rng, s, 1);
        break;
    }
  }
  return s;
}

/** Hostile YAML scalars: YAML 1.1 booleans, octal, sexagesimal, tags, aliases. */
export const HOSTILE_YAML_SCALARS: readonly string[] = [
  "~",
  "null",
  "NULL",
  "yes",
  "No",
  "on",
  "OFF",
  "y",
  "0x1F",
  "0o17",
  "017",
  "0b101",
  "+12",
  "1_000",
  "190:20:30",
  ".inf",
  "-.Inf",
  ".nan",
  "1e400",
  "9223372036854775808",
  "-9223372036854775809",
  "18446744073709551616",
  "1.0",
  "-0",
  "2001-12-14t21:59:43.10-05:00",
  "2002-12-14",
  "!!binary aGVsbG8=",
  '!!int "12"',
  "!!float 1",
  "!!str 5",
  "!!bool yes",
  "!!null x",
  "!!timestamp 2001-12-14",
  "!!map {}",
  "!!seq []",
  "!!set {a}",
  "!!omap [a: 1]",
  "!local x",
  "&a x",
  "*a",
  "*undefined",
  '"\\ud800"',
  '"\\x00"',
  "'it''s'",
  "|-\n  text",
  ">\n  folded",
  "[a, b",
  "{a: 1",
  "[]",
  "{}",
  '{"__proto__": {"polluted": 1}}',
  "? complex",
  "- x",
  "''",
  '""',
  "@reserved",
  "`reserved",
  "%",
  "&a [*a]",
];

const YAML_KEYS: readonly string[] = [
  "__proto__",
  "constructor",
  "<<",
  "? x",
  "kind",
  "apiVersion",
  "metadata",
  "spec",
  "items",
  "name",
  "labels",
  "'quoted'",
  '"a\\u0000"',
  "[a]",
  "{a: b}",
  "1",
  "null",
  "y",
];

/** Line-level YAML changes: values, keys, indentation, duplicates, anchors and aliases. */
export function mutateYamlLines(rng: Rng, text: string, count: number): string {
  const lines = text.split("\n");
  for (let k = 0; k < count; k++) {
    const i = rng.int(lines.length);
    const line = lines[i] as string;
    const indent = /^[ -]*/.exec(line)?.[0] ?? "";
    switch (rng.int(8)) {
      case 0: {
        // Replace the value of a `key: value` line.
        const m = /^(\s*(?:- )*[^:#]+:)(\s.*)?$/.exec(line);
        if (m !== null) lines[i] = `${m[1] as string} ${rng.pick(HOSTILE_YAML_SCALARS)}`;
        else lines[i] = `${indent}${rng.pick(HOSTILE_YAML_SCALARS)}`;
        break;
      }
      case 1:
        lines.splice(i, 0, `${indent.replace(/-/g, " ")}${rng.pick(YAML_KEYS)}: ${rng.pick(HOSTILE_YAML_SCALARS)}`);
        break;
      case 2:
        lines.splice(i, 0, line); // a repeated key or list item
        break;
      case 3:
        lines.splice(i, 1);
        break;
      case 4: {
        const j = rng.int(lines.length);
        lines[i] = lines[j] as string;
        lines[j] = line;
        break;
      }
      case 5:
        lines[i] = rng.chance(0.5) ? ` ${line}` : line.replace(/^ /, "").replace(/^ /, rng.chance(0.3) ? "\t" : "");
        break;
      case 6:
        // Anchor this line's value, alias it from another line.
        lines[i] = line.replace(/: /, ": &a ");
        lines.splice(rng.int(lines.length + 1), 0, `${indent.replace(/-/g, " ")}alias: *a`);
        break;
      case 7:
        lines.splice(
          i,
          0,
          rng.pick(["---", "...", "--- !!map", "%YAML 1.2", "--- |", "#", "- ", "? ", "<<: {name: x}"]),
        );
        break;
    }
  }
  return lines.join("\n");
}

/** Known field names, so generated objects reach deep into the decoder. */
export const FIELD_NAMES: readonly string[] = [
  "metadata",
  "spec",
  "status",
  "items",
  "name",
  "namespace",
  "labels",
  "annotations",
  "generation",
  "resourceVersion",
  "uid",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "ownerReferences",
  "finalizers",
  "managedFields",
  "fieldsV1",
  "time",
  "operation",
  "manager",
  "rules",
  "host",
  "http",
  "paths",
  "path",
  "pathType",
  "backend",
  "service",
  "port",
  "number",
  "resource",
  "apiGroup",
  "kind",
  "tls",
  "hosts",
  "secretName",
  "defaultBackend",
  "ingressClassName",
  "loadBalancer",
  "ingress",
  "ip",
  "hostname",
  "ports",
  "protocol",
  "error",
  "controller",
  "parameters",
  "scope",
  "podSelector",
  "matchLabels",
  "matchExpressions",
  "key",
  "operator",
  "values",
  "from",
  "to",
  "ipBlock",
  "cidr",
  "except",
  "namespaceSelector",
  "endPort",
  "policyTypes",
  "parentRef",
  "cidrs",
  "conditions",
  "type",
  "reason",
  "message",
  "lastTransitionTime",
  "observedGeneration",
  "details",
  "causes",
  "field",
  "code",
  "retryAfterSeconds",
  "remainingItemCount",
  "continue",
  "selfLink",
];

export const KIND_NAMES: readonly string[] = [
  "Ingress",
  "IngressList",
  "IngressClass",
  "IngressClassList",
  "NetworkPolicy",
  "NetworkPolicyList",
  "IPAddress",
  "IPAddressList",
  "ServiceCIDR",
  "ServiceCIDRList",
  "Status",
  "Pod",
  "ingress",
  "",
];

/** A leaf written into the text as it is (a literal JSON.stringify cannot produce, like 1e400). */
export class Raw {
  constructor(readonly raw: string) {}
}

/** A random object tree with known field names and hostile leaves. */
export type GenValue = null | boolean | string | Raw | GenValue[] | { [key: string]: GenValue };

export function generateObject(rng: Rng): { [key: string]: GenValue } {
  const kind = rng.pick(KIND_NAMES);
  const top: { [key: string]: GenValue } = {};
  if (rng.chance(0.95)) top["kind"] = kind;
  if (rng.chance(0.95)) top["apiVersion"] = kind === "Status" || rng.chance(0.05) ? "v1" : "networking.k8s.io/v1";
  const members = rng.range(0, 4);
  for (let i = 0; i < members; i++) top[rng.pick(FIELD_NAMES)] = generateValue(rng, 0);
  return top;
}

function generateValue(rng: Rng, depth: number): GenValue {
  const r = rng.float();
  if (depth < 6 && r < 0.35) {
    const o: { [key: string]: GenValue } = {};
    const n = rng.range(0, 4);
    for (let i = 0; i < n; i++) {
      const key = rng.chance(0.9) ? rng.pick(FIELD_NAMES) : rng.pick(HOSTILE_KEYS);
      // An own "__proto__" member, not a prototype change.
      Object.defineProperty(o, key, {
        value: generateValue(rng, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return o;
  }
  if (depth < 6 && r < 0.5) return Array.from({ length: rng.range(0, 3) }, () => generateValue(rng, depth + 1));
  if (r < 0.75) return new Raw(rng.pick(HOSTILE_JSON_VALUES));
  if (r < 0.85)
    return rng.pick([
      "a",
      "80",
      "http",
      "TCP",
      "Exact",
      "Prefix",
      "10.0.0.0/8",
      "::1/128",
      "Ingress",
      "Egress",
      "Cluster",
      "*.example.com",
    ]);
  return rng.chance(0.5);
}

/** JSON text of a generated value. */
export function renderJson(v: GenValue): string {
  if (v === null) return "null";
  if (typeof v === "boolean" || typeof v === "string") return JSON.stringify(v);
  if (v instanceof Raw) return v.raw;
  if (Array.isArray(v)) return `[${v.map(renderJson).join(",")}]`;
  return `{${Object.keys(v)
    .map((k) => `${JSON.stringify(k)}:${renderJson(v[k] as GenValue)}`)
    .join(",")}}`;
}

/** Block-style YAML of a generated value; leaves are sometimes YAML-only scalars. */
export function renderYaml(rng: Rng, v: GenValue, indent = ""): string {
  if (v === null || typeof v !== "object" || v instanceof Raw) return `${indent}${scalarYaml(rng, v)}\n`;
  if (Array.isArray(v)) {
    if (v.length === 0) return `${indent}[]\n`;
    return v
      .map((x) =>
        isContainer(x) ? `${indent}-\n${renderYaml(rng, x, `${indent}  `)}` : `${indent}- ${scalarYaml(rng, x)}\n`,
      )
      .join("");
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return `${indent}{}\n`;
  return keys
    .map((k) => {
      const x = v[k] as GenValue;
      const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
      return isContainer(x)
        ? `${indent}${key}:\n${renderYaml(rng, x, `${indent}  `)}`
        : `${indent}${key}: ${scalarYaml(rng, x)}\n`;
    })
    .join("");
}

function isContainer(v: GenValue): boolean {
  return (
    v !== null &&
    typeof v === "object" &&
    !(v instanceof Raw) &&
    (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0)
  );
}

function scalarYaml(rng: Rng, v: GenValue): string {
  if (rng.chance(0.3)) return rng.pick(HOSTILE_YAML_SCALARS).replace(/\n/g, " ");
  if (v instanceof Raw) return v.raw;
  if (v === null) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "boolean") return String(v);
  return Array.isArray(v) ? "[]" : "{}";
}

/** A random sequence of JSON tokens: mostly garbage, sometimes almost JSON. */
export function jsonTokenSoup(rng: Rng): string {
  const n = rng.size(200);
  let s = "";
  for (let i = 0; i < n; i++) s += rng.pick(JSON_TOKENS);
  return s;
}

export function yamlTokenSoup(rng: Rng): string {
  const n = rng.size(200);
  let s = "";
  for (let i = 0; i < n; i++) s += rng.chance(0.3) ? rng.pick(FIELD_NAMES) : rng.pick(YAML_TOKENS);
  return s;
}

/** Splits `data` at random points (some chunks empty), or into pieces of `every`. */
export function chunk<T extends Uint8Array | string>(rng: Rng, data: T, every?: number): T[] {
  const out: T[] = [];
  if (every !== undefined) {
    for (let i = 0; i < data.length; i += every) out.push(data.slice(i, i + every) as T);
    if (data.length === 0) out.push(data);
    return out;
  }
  const cuts = Array.from({ length: rng.int(12) }, () => rng.int(data.length + 1)).sort((a, b) => a - b);
  let from = 0;
  for (const c of cuts) {
    out.push(data.slice(from, c) as T);
    from = c;
  }
  out.push(data.slice(from) as T);
  return out;
}
