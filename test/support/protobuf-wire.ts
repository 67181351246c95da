/*
 * Just enough protobuf for structural mutations: varints, a lenient parser
 * that turns a fixture into a tree of fields (with every offset), and a
 * serializer that writes the tree back with edits applied and the lengths of
 * the enclosing messages recomputed, so an edit deep inside an object is what
 * the decoder meets rather than an earlier length mismatch.
 */

export const MAGIC = [0x6b, 0x38, 0x73, 0x00] as const;

/** Minimal varint encoding of a non-negative integer (up to 2^70, so 11-byte forms too). */
export function varint(n: number | bigint): number[] {
  if (typeof n === "number" && n >= 0 && n <= 0x7fffffff) {
    // The common case, without BigInt.
    const out: number[] = [];
    let v = n;
    while (v > 127) {
      out.push((v & 127) | 128);
      v >>>= 7;
    }
    out.push(v);
    return out;
  }
  let v = BigInt(n);
  if (v < 0n) v = BigInt.asUintN(64, v); // int32/int64 negatives: 10 bytes, as Go writes them
  const out: number[] = [];
  while (v > 127n) {
    out.push(Number(v & 127n) | 128);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

/** A varint padded to `size` bytes with redundant continuation groups (legal up to 10 bytes). */
export function paddedVarint(n: number | bigint, size: number): number[] {
  const out = varint(n);
  if (out.length >= size) return out;
  const last = out.pop() as number;
  out.push(last | 0x80);
  while (out.length < size - 1) out.push(0x80);
  out.push(0x00);
  return out;
}

/** Reads a varint as a bigint (no length limit); for tests and checks. */
export function readVarint(bytes: Uint8Array, at: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  let pos = at;
  for (;;) {
    const b = bytes[pos++];
    if (b === undefined) throw new Error(`varint at ${at} runs past the end`);
    value |= BigInt(b & 0x7f) << shift;
    shift += 7n;
    if (b < 0x80) return { value, next: pos };
  }
}

export const tag = (no: number, wt: number): number[] => varint(no * 8 + wt);
export const ld = (no: number, body: ArrayLike<number>): number[] => [
  ...tag(no, 2),
  ...varint(body.length),
  ...Array.from(body),
];

export const WT = { VARINT: 0, I64: 1, LEN: 2, SGROUP: 3, EGROUP: 4, I32: 5 } as const;

/** One field of a parsed message; offsets are absolute in the parsed buffer. */
export interface PbNode {
  readonly no: number;
  readonly wt: number;
  /** The tag's first byte. */
  readonly start: number;
  /** After the tag: a length prefix for wire type 2, else the value. */
  readonly valueStart: number;
  /** The payload (after the length prefix); equals valueStart for other wire types. */
  readonly dataStart: number;
  readonly end: number;
  /** Set when a length-delimited payload parses as a message. */
  readonly children: PbNode[] | undefined;
  /** The payload is `k8s\0` followed by a message (an enveloped object inside a watch event). */
  readonly magic: boolean;
  readonly parent: PbNode | undefined;
  readonly depth: number;
}

export interface PbDoc {
  readonly bytes: Uint8Array;
  /** Bytes before the first field: 4 for `k8s\0`, else 0. */
  readonly prefix: number;
  readonly fields: PbNode[];
  /** Every node, depth first. */
  readonly all: PbNode[];
}

/** Parses a fixture (enveloped, or a bare message such as a watch event). */
export function parseDoc(bytes: Uint8Array): PbDoc {
  const prefix = hasMagic(bytes, 0, bytes.length) ? 4 : 0;
  const all: PbNode[] = [];
  const fields = parseMessage(bytes, prefix, bytes.length, undefined, 0, all);
  if (fields === undefined) throw new Error("not a protobuf message");
  return { bytes, prefix, fields, all };
}

function hasMagic(b: Uint8Array, start: number, end: number): boolean {
  return (
    end - start >= 4 && b[start] === 0x6b && b[start + 1] === 0x38 && b[start + 2] === 0x73 && b[start + 3] === 0x00
  );
}

const MAX_PARSE_DEPTH = 24;

/**
 * The fields of b[start, end), or undefined if that is not a well-formed
 * message (strings usually are not). Groups are not expected in fixtures and
 * make the payload count as bytes.
 */
function parseMessage(
  b: Uint8Array,
  start: number,
  end: number,
  parent: PbNode | undefined,
  depth: number,
  all: PbNode[],
): PbNode[] | undefined {
  const out: PbNode[] = [];
  const mark = all.length;
  let pos = start;
  while (pos < end) {
    const t = readSmallVarint(b, pos, end);
    if (t === undefined) return fail();
    const no = Math.floor(t.value / 8);
    const wt = t.value % 8;
    if (no === 0) return fail();
    let dataStart = t.next;
    let stop: number;
    switch (wt) {
      case WT.VARINT: {
        const v = readSmallVarint(b, t.next, end);
        if (v === undefined) return fail();
        stop = v.next;
        break;
      }
      case WT.I64:
        stop = t.next + 8;
        break;
      case WT.I32:
        stop = t.next + 4;
        break;
      case WT.LEN: {
        const len = readSmallVarint(b, t.next, end);
        if (len === undefined) return fail();
        dataStart = len.next;
        stop = len.next + len.value;
        break;
      }
      default:
        return fail();
    }
    if (stop > end) return fail();
    const node: { -readonly [K in keyof PbNode]: PbNode[K] } = {
      no,
      wt,
      start: pos,
      valueStart: t.next,
      dataStart,
      end: stop,
      children: undefined,
      magic: false,
      parent,
      depth,
    };
    all.push(node);
    if (wt === WT.LEN && depth < MAX_PARSE_DEPTH && stop > dataStart) {
      const magic = hasMagic(b, dataStart, stop);
      const kids = parseMessage(b, magic ? dataStart + 4 : dataStart, stop, node, depth + 1, all);
      if (kids !== undefined && kids.length > 0) {
        node.children = kids;
        node.magic = magic;
      }
    }
    out.push(node);
    pos = stop;
  }
  return out;

  function fail(): undefined {
    all.length = mark;
    return undefined;
  }
}

/** A varint of at most 5 bytes (tags and fixture lengths), as a number. */
function readSmallVarint(b: Uint8Array, at: number, end: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 5; i++) {
    if (at + i >= end) return undefined;
    const x = b[at + i] as number;
    value += (x & 0x7f) * scale;
    scale *= 128;
    if (x < 0x80) return { value, next: at + i + 1 };
  }
  return undefined;
}

/** A change to one node; several may apply to the same node. */
export type Edit =
  /** Replace the length prefix (wire type 2 only), e.g. with a huge or 11-byte varint. */
  | { readonly op: "length"; readonly bytes: readonly number[] }
  /** Replace the tag, e.g. a different wire type or field number, or an overlong encoding. */
  | { readonly op: "tag"; readonly bytes: readonly number[] }
  /** Replace the value (for wire type 2: the payload; its length is recomputed). */
  | { readonly op: "value"; readonly bytes: Uint8Array }
  | { readonly op: "drop" }
  /** Write the field `times` times in a row. */
  | { readonly op: "repeat"; readonly times: number }
  /** Insert raw bytes before / after the field. */
  | { readonly op: "before"; readonly bytes: Uint8Array }
  | { readonly op: "after"; readonly bytes: Uint8Array }
  /** Enclose the field in start-group `no` ... end-group `endNo`. */
  | { readonly op: "group"; readonly no: number; readonly endNo: number };

/** A growable byte buffer. */
export class Sink {
  buf: Uint8Array;
  len = 0;
  constructor(capacity = 256) {
    this.buf = new Uint8Array(capacity);
  }
  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  push(bytes: ArrayLike<number>): void {
    this.ensure(bytes.length);
    if (bytes instanceof Uint8Array) this.buf.set(bytes, this.len);
    else for (let i = 0; i < bytes.length; i++) this.buf[this.len + i] = bytes[i] as number;
    this.len += bytes.length;
  }
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }
  copy(from: Uint8Array, start: number, end: number): void {
    this.push(from.subarray(start, end));
  }
  take(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/**
 * Writes `doc` with `edits` applied. Untouched subtrees are copied as they
 * are; the length of every message enclosing an edit is recomputed.
 */
export function serialize(doc: PbDoc, edits: ReadonlyMap<PbNode, readonly Edit[]>): Uint8Array {
  const dirty = new Set<PbNode>();
  for (const n of edits.keys()) for (let p = n.parent; p !== undefined && !dirty.has(p); p = p.parent) dirty.add(p);
  const out = new Sink(doc.bytes.length + 64);
  out.copy(doc.bytes, 0, doc.prefix);
  writeFields(out, doc, doc.fields, edits, dirty);
  return out.take();
}

function writeFields(
  out: Sink,
  doc: PbDoc,
  nodes: readonly PbNode[],
  edits: ReadonlyMap<PbNode, readonly Edit[]>,
  dirty: ReadonlySet<PbNode>,
): void {
  for (const n of nodes) {
    const es = edits.get(n);
    if (es === undefined && !dirty.has(n)) {
      out.copy(doc.bytes, n.start, n.end);
      continue;
    }
    writeNode(out, doc, n, es ?? [], edits, dirty);
  }
}

function writeNode(
  out: Sink,
  doc: PbDoc,
  n: PbNode,
  es: readonly Edit[],
  edits: ReadonlyMap<PbNode, readonly Edit[]>,
  dirty: ReadonlySet<PbNode>,
): void {
  let tagBytes: ArrayLike<number> = doc.bytes.subarray(n.start, n.valueStart);
  let lengthBytes: readonly number[] | undefined;
  let value: Uint8Array | undefined;
  let times = 1;
  let group: { no: number; endNo: number } | undefined;
  const before: Uint8Array[] = [];
  const after: Uint8Array[] = [];
  for (const e of es) {
    switch (e.op) {
      case "drop":
        return;
      case "tag":
        tagBytes = e.bytes;
        break;
      case "length":
        lengthBytes = e.bytes;
        break;
      case "value":
        value = e.bytes;
        break;
      case "repeat":
        times = e.times;
        break;
      case "before":
        before.push(e.bytes);
        break;
      case "after":
        after.push(e.bytes);
        break;
      case "group":
        group = { no: e.no, endNo: e.endNo };
        break;
    }
  }
  // The field's value bytes, after the tag: for wire type 2 a length prefix and the payload.
  let prefix: readonly number[] = [];
  let payload: Uint8Array;
  if (n.wt === WT.LEN) {
    if (value !== undefined) payload = value;
    else if (n.children !== undefined && dirty.has(n)) {
      const inner = new Sink(n.end - n.dataStart + 64);
      if (n.magic) inner.push(MAGIC);
      writeFields(inner, doc, n.children, edits, dirty);
      payload = inner.buf.subarray(0, inner.len);
    } else payload = doc.bytes.subarray(n.dataStart, n.end);
    prefix = lengthBytes ?? varint(payload.length);
  } else {
    payload = value ?? doc.bytes.subarray(n.valueStart, n.end);
  }
  for (const b of before) out.push(b);
  for (let i = 0; i < times; i++) {
    if (group !== undefined) out.push(tag(group.no, WT.SGROUP));
    out.push(tagBytes);
    out.push(prefix);
    out.push(payload);
    if (group !== undefined) out.push(tag(group.endNo, WT.EGROUP));
  }
  for (const a of after) out.push(a);
}
