import { ScalarType } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import { DecodeError } from "../model/errors.js";
import { lookupKind } from "../model/kinds.js";
import { formatRfc3339 } from "../model/time.js";
import { defaultCodec } from "./codec.js";
import { MAGIC, readEnvelope } from "./envelope.js";
import { decodeState, toDecodeError, type BinaryDecodeOptions, type DecodeState } from "./from-binary.js";
import { planOf, type FieldPlan, type Plan } from "./plan.js";
import {
  WIRE_NAMES,
  copyBytes,
  readBool,
  readInt32,
  readInt64,
  readLength,
  readTag,
  readUtf8,
  skipValue,
} from "./wire.js";

/*
 * An annotated view of an API server protobuf body: which bytes are which
 * field. It reads the bytes with the decoder's own wire primitives and the
 * same plans, after decode() has accepted them, so it annotates exactly what
 * the decoder reads and fails with the decoder's DecodeError.
 */

/**
 * What a span is: the magic, a field of the envelope, a field of the object, or a field no schema names.
 *
 * @example
 * ```ts
 * import { IngressSchema, annotateWire, create, encode } from "clusterwire/networking";
 *
 * const annotation = annotateWire(encode(create(IngressSchema, { metadata: { name: "shop" } })));
 * const fields = annotation.spans.filter((s) => s.kind === "field");
 * ```
 */
export type WireSpanKind = "magic" | "envelope" | "field" | "unknown";

/**
 * A step of a path: a field's JSON name, a list index, or a map key.
 *
 * @example
 * ```ts
 * import { renderWirePath } from "clusterwire/networking";
 *
 * console.log(renderWirePath(["metadata", "labels", { key: "app" }])); // metadata.labels["app"]
 * ```
 */
export type WirePathSegment = string | number | { readonly key: string };

/**
 * A decoded scalar as the decoder returns it (int64 as bigint, bytes as a copy).
 *
 * @example
 * ```ts
 * import { IngressSchema, annotateWire, create, encode } from "clusterwire/networking";
 *
 * const annotation = annotateWire(encode(create(IngressSchema, { metadata: { name: "shop" } })));
 * for (const span of annotation.spans) if (span.scalar !== undefined) console.log(span.path, span.scalar);
 * ```
 */
export type WireScalar = string | number | bigint | boolean | Uint8Array;

/**
 * One field on the wire. A span's own bytes are its tag, its length prefix
 * and, unless it is `nested`, its value; a nested span's value (a message or
 * a map entry) is covered by the spans after it that are one level deeper.
 * Over all spans, the own bytes cover the input once each, in order.
 *
 * @example
 * ```ts
 * import { IngressSchema, annotateWire, create, encode } from "clusterwire/networking";
 *
 * const annotation = annotateWire(encode(create(IngressSchema, { metadata: { name: "shop" } })));
 * for (const span of annotation.spans) console.log(span.offset, span.wireTypeName, span.path, span.value ?? "");
 * ```
 */
export interface WireSpan {
  /** What the bytes are: the magic, an envelope field, a field of the object, or an unknown field. */
  readonly kind: WireSpanKind;
  /** Nesting level: 0 for the magic and the envelope's fields, 1 for the object's top-level fields. */
  readonly depth: number;
  /** Offset of the span's first byte (its tag; the magic's first byte). */
  readonly offset: number;
  /** Bytes of the tag (0 for the magic). */
  readonly tagLength: number;
  /** Bytes of the length prefix (0 unless the wire type is length-delimited). */
  readonly lengthPrefixLength: number;
  /** Offset and length of the value (for a group, everything up to and with its end-group tag). */
  readonly valueOffset: number;
  /** Length in bytes of the value (for a message, its whole body). */
  readonly valueLength: number;
  /** True when the value is a message or map entry annotated by the spans that follow. */
  readonly nested: boolean;
  /** Field number and wire type (absent for the magic). */
  readonly fieldNumber?: number;
  /** The protobuf wire type number; absent for the magic. */
  readonly wireType?: WireType;
  /** "varint", "64-bit", "length-delimited", "start-group", "32-bit"; "magic" for the magic. */
  readonly wireTypeName: string;
  /** The field's name in the .proto ("" for the magic and unknown fields). */
  readonly name: string;
  /** The message type of a nested message field. */
  readonly typeName?: string;
  /**
   * Where the field is: in the object, as Kubernetes renders paths
   * (`spec.rules[0].http.paths[1].backend.service.port.number`, map entries
   * as `metadata.labels["app"]`); in the envelope, by runtime.Unknown's
   * field names (`typeMeta.kind`, `raw`). An unknown field has the path of
   * the message holding it.
   */
  readonly path: string;
  /** The same path as keys, indexes and map keys. */
  readonly segments: readonly WirePathSegment[];
  /** A short rendering of the value: strings quoted and cut, bytes as hex, numbers in decimal. */
  readonly value?: string;
  /** The value as the decoder returns it, for scalar fields of the schema. */
  readonly scalar?: WireScalar;
}

/**
 * The annotation of one body: the kind its envelope names and the spans, in byte order.
 *
 * @example
 * ```ts
 * import { IngressSchema, annotateWire, create, encode } from "clusterwire/networking";
 *
 * const annotation = annotateWire(encode(create(IngressSchema, { metadata: { name: "shop" } })));
 * console.log(annotation.kind, annotation.length, annotation.spans.length);
 * ```
 */
export interface WireAnnotation {
  /** The apiVersion the envelope names. */
  readonly apiVersion: string;
  /** The kind the envelope names. */
  readonly kind: string;
  /** The protobuf message type of the object. */
  readonly typeName: string;
  /** Length of the input. */
  readonly length: number;
  /** One span per field, magic and envelope part, in byte order. */
  readonly spans: readonly WireSpan[];
}

/** Strings longer than this many characters are cut in `WireSpan.value`. */
const MAX_STRING_CHARS = 48;
/** Bytes values longer than this are cut in `WireSpan.value`. */
const MAX_HEX_BYTES = 16;

/**
 * Annotates an API server protobuf body (`application/vnd.kubernetes.protobuf`):
 * the `k8s\0` magic, the `runtime.Unknown` envelope (typeMeta, raw,
 * contentEncoding, contentType), and the object in `raw`, read by the schema
 * of the kind the envelope names. Returns a span for every field, in byte
 * order, with its offsets, number, wire type, name, path and a short
 * rendering of its value; unknown fields (which clusterwire keeps) are spans
 * of kind "unknown". Input that `decode` rejects throws the same
 * `DecodeError`, with its byte offset. Browser-safe; nesting is bounded by
 * the schema and, for groups in unknown fields, by `options.maxDepth`.
 *
 * @example
 * ```ts
 * import { IngressSchema, annotateWire, create, encode } from "clusterwire/networking";
 *
 * const annotation = annotateWire(encode(create(IngressSchema, { metadata: { name: "shop" } })));
 * for (const span of annotation.spans) console.log(span.path, span.value ?? "");
 * ```
 */
export function annotateWire(bytes: Uint8Array, options: BinaryDecodeOptions = {}): WireAnnotation {
  // The decoder decides what is valid: the annotator then cannot accept or
  // reject differently, and errors are the decoder's own.
  defaultCodec().decode(bytes, options);
  const env = readEnvelope(bytes, options);
  const info = lookupKind(env.apiVersion, env.kind);
  if (info === undefined) {
    // decode() has rejected it already; kept for the type checker.
    throw new DecodeError("protobuf", `unsupported apiVersion/kind ${env.apiVersion}/${env.kind}`, {
      offset: MAGIC.length,
    });
  }
  const state = decodeState(bytes, MAGIC.length, options);
  const spans: WireSpan[] = [
    {
      kind: "magic",
      depth: 0,
      offset: 0,
      tagLength: 0,
      lengthPrefixLength: 0,
      valueOffset: 0,
      valueLength: MAGIC.length,
      nested: false,
      wireTypeName: "magic",
      name: "",
      path: "",
      segments: [],
      value: '"k8s\\u0000"',
    },
  ];
  const walker = new Walker(state, spans);
  try {
    walker.envelope(env.rawStart, planOf(info.desc));
  } catch (e) {
    throw toDecodeError(e, state);
  }
  return {
    apiVersion: env.apiVersion,
    kind: env.kind,
    typeName: info.desc.typeName,
    length: bytes.length,
    spans,
  };
}

/** runtime.Unknown's fields and runtime.TypeMeta's, by number. */
const UNKNOWN_FIELDS = ["", "typeMeta", "raw", "contentEncoding", "contentType"];
const TYPE_META_FIELDS = ["", "apiVersion", "kind"];

/** A field's tag and prefix, read: where each part starts. */
interface Tag {
  readonly offset: number;
  /** Where the tag ends. */
  readonly tagEnd: number;
  readonly no: number;
  readonly wireType: WireType;
}

/** A path both as segments and rendered, extended one segment at a time. */
interface Where {
  readonly segments: readonly WirePathSegment[];
  readonly path: string;
}

const ROOT: Where = { segments: [], path: "" };

function child(where: Where, segment: WirePathSegment): Where {
  return { segments: [...where.segments, segment], path: where.path + pathStep(where.path === "", segment) };
}

type MutableSpan = { -readonly [K in keyof WireSpan]: WireSpan[K] };

class Walker {
  private readonly bytes: Uint8Array;
  constructor(
    private readonly state: DecodeState,
    private readonly spans: WireSpan[],
  ) {
    this.bytes = state.bytes;
  }

  /**
   * Elements seen so far of each list, by its path. By path rather than per
   * message read: a singular message that occurs twice is merged by the
   * decoder, its lists appended, so the second occurrence's elements follow
   * the first's.
   */
  private readonly lists = new Map<string, number>();

  private nextIndex(list: Where): number {
    const i = this.lists.get(list.path) ?? 0;
    this.lists.set(list.path, i + 1);
    return i;
  }

  private get pos(): number {
    return this.state.reader.pos;
  }

  /** Reads a tag at the current position. */
  head(): Tag {
    const offset = this.pos;
    this.state.fieldStart = offset;
    const tag = readTag(this.state.reader);
    return { offset, tagEnd: this.pos, no: tag >>> 3, wireType: (tag & 7) as WireType };
  }

  /** Reads a length prefix after a tag; leaves the position at the value. */
  prefix(end: number): { valueOffset: number; stop: number } {
    const stop = readLength(this.state.reader, this.bytes, end);
    return { valueOffset: this.pos, stop };
  }

  envelope(rawStart: number, plan: Plan): void {
    const end = this.bytes.length;
    while (this.pos < end) {
      const h = this.head();
      const name = UNKNOWN_FIELDS[h.no];
      if (name === undefined || name === "" || h.wireType !== WireType.LengthDelimited) {
        this.unknown(h, end, 0, ROOT);
        continue;
      }
      const { valueOffset, stop } = this.prefix(end);
      const at = child(ROOT, name);
      if (name === "typeMeta") {
        this.push(
          h,
          valueOffset,
          stop,
          0,
          "envelope",
          name,
          at,
          true,
          undefined,
          "k8s.io.apimachinery.pkg.runtime.TypeMeta",
        );
        this.typeMeta(stop, at);
      } else if (name === "raw" && valueOffset === rawStart && stop !== valueOffset) {
        this.push(h, valueOffset, stop, 0, "envelope", name, at, true, undefined, plan.desc.typeName);
        this.message(plan, stop, 1, ROOT);
      } else if (name === "raw") {
        // A raw field that a later one replaces (or an empty one): bytes.
        this.state.reader.pos = stop;
        this.push(h, valueOffset, stop, 0, "envelope", name, at, false, copyBytes(this.bytes, valueOffset, stop));
      } else {
        const s = readUtf8(this.bytes, valueOffset, stop, h.offset);
        this.state.reader.pos = stop;
        this.push(h, valueOffset, stop, 0, "envelope", name, at, false, s);
      }
    }
  }

  private typeMeta(end: number, where: Where): void {
    while (this.pos < end) {
      const h = this.head();
      const name = TYPE_META_FIELDS[h.no];
      if (name === undefined || name === "" || h.wireType !== WireType.LengthDelimited) {
        this.unknown(h, end, 1, where);
        continue;
      }
      const { valueOffset, stop } = this.prefix(end);
      const s = readUtf8(this.bytes, valueOffset, stop, h.offset);
      this.state.reader.pos = stop;
      this.push(h, valueOffset, stop, 1, "envelope", name, child(where, name), false, s);
    }
  }

  /**
   * The fields of a message of `plan` up to `end`. Recursion follows the
   * schema's nesting (as the decoder's does), never the input's.
   */
  private message(plan: Plan, end: number, depth: number, where: Where): void {
    while (this.pos < end) {
      const h = this.head();
      const fp = plan.byNumber[h.no];
      if (fp === undefined) {
        this.unknown(h, end, depth, where);
        continue;
      }
      const here = fp.segment === "" ? where : child(where, fp.segment);
      switch (fp.kind) {
        case "scalar":
          this.scalar(h, fp, end, depth, here);
          break;
        case "scalarList": {
          this.scalar(h, fp, end, depth, child(here, this.nextIndex(here)));
          break;
        }
        case "message":
        case "messageList": {
          let at = here;
          if (fp.kind === "messageList") {
            at = child(here, this.nextIndex(here));
          }
          const { valueOffset, stop } = this.prefix(end);
          const sub = fp.child as Plan;
          this.push(
            h,
            valueOffset,
            stop,
            depth,
            "field",
            fp.name,
            at,
            true,
            undefined,
            sub.desc.typeName,
            sub.isTime ? this.timeValue(valueOffset, stop) : undefined,
          );
          this.message(sub, stop, depth + 1, at);
          break;
        }
        case "map":
          this.mapEntry(h, fp, end, depth, here);
          break;
      }
    }
  }

  private scalar(h: Tag, fp: FieldPlan, end: number, depth: number, where: Where): void {
    const r = this.state.reader;
    let value: WireScalar;
    let valueOffset = this.pos;
    switch (fp.scalar) {
      case ScalarType.STRING: {
        const p = this.prefix(end);
        valueOffset = p.valueOffset;
        value = readUtf8(this.bytes, p.valueOffset, p.stop, h.offset);
        r.pos = p.stop;
        break;
      }
      case ScalarType.BYTES: {
        const p = this.prefix(end);
        valueOffset = p.valueOffset;
        value = copyBytes(this.bytes, p.valueOffset, p.stop);
        r.pos = p.stop;
        break;
      }
      case ScalarType.INT32:
        value = readInt32(r);
        break;
      case ScalarType.INT64:
        value = readInt64(r);
        break;
      case ScalarType.BOOL:
        value = readBool(r);
        break;
      default:
        throw new Error(`annotate: scalar type ${ScalarType[fp.scalar]} is not used by these schemas`);
    }
    this.push(h, valueOffset, this.pos, depth, "field", fp.name, where, false, value);
  }

  /** A map<string, string> entry: the entry, then its key and value (and any unknown fields). */
  private mapEntry(h: Tag, fp: FieldPlan, end: number, depth: number, where: Where): void {
    const { valueOffset, stop } = this.prefix(end);
    // The key names the entry in paths, so find it first (the last key wins, as in decoding).
    const children: WireSpan[] = [];
    const inner = new Walker(this.state, children);
    let key = "";
    let value = "";
    while (this.pos < stop) {
      const eh = inner.head();
      if ((eh.no === 1 || eh.no === 2) && eh.wireType === WireType.LengthDelimited) {
        const p = inner.prefix(stop);
        const s = readUtf8(this.bytes, p.valueOffset, p.stop, eh.offset);
        this.state.reader.pos = p.stop;
        if (eh.no === 1) key = s;
        else value = s;
        inner.push(eh, p.valueOffset, p.stop, depth + 1, "field", eh.no === 1 ? "key" : "value", ROOT, false, s);
      } else {
        inner.unknown(eh, stop, depth + 1, ROOT);
      }
    }
    const at = child(where, { key });
    this.push(
      h,
      valueOffset,
      stop,
      depth,
      "field",
      fp.name,
      at,
      true,
      undefined,
      undefined,
      `${quote(key)}: ${quote(value)}`,
    );
    for (const c of children as MutableSpan[]) {
      c.path = at.path;
      c.segments = at.segments;
      this.spans.push(c);
    }
  }

  /** An unknown field: one span, whatever its wire type (a group with its end-group tag). */
  unknown(h: Tag, end: number, depth: number, where: Where): void {
    const r = this.state.reader;
    const after = this.pos;
    let valueOffset = after;
    let rendered: string;
    if (h.wireType === WireType.LengthDelimited) {
      const p = this.prefix(end);
      valueOffset = p.valueOffset;
      r.pos = p.stop;
      rendered = hexValue(this.bytes, p.valueOffset, p.stop);
    } else {
      skipValue(r, this.bytes, h.wireType, h.no, end, this.state.maxDepth, h.offset);
      rendered =
        h.wireType === WireType.Varint
          ? this.unsignedVarint(after)
          : h.wireType === WireType.StartGroup
            ? `group (${this.pos - after} bytes)`
            : fixedValue(this.bytes, after, this.pos);
    }
    this.spans.push({
      kind: "unknown",
      depth,
      offset: h.offset,
      tagLength: after - h.offset,
      lengthPrefixLength: valueOffset - after,
      valueOffset,
      valueLength: this.pos - valueOffset,
      nested: false,
      fieldNumber: h.no,
      wireType: h.wireType,
      wireTypeName: WIRE_NAMES[h.wireType] as string,
      name: "",
      path: where.path,
      segments: where.segments,
      value: rendered,
    });
  }

  /** Pushes a span for the field whose tag was read at `h.offset` and whose value ends at `stop`. */
  push(
    h: Tag,
    valueOffset: number,
    stop: number,
    depth: number,
    kind: WireSpanKind,
    name: string,
    where: Where,
    nested: boolean,
    scalar?: WireScalar,
    typeName?: string,
    value?: string,
  ): void {
    const rendered = value ?? (scalar === undefined ? undefined : renderScalar(scalar));
    const span: MutableSpan = {
      kind,
      depth,
      offset: h.offset,
      tagLength: h.tagEnd - h.offset,
      lengthPrefixLength: valueOffset - h.tagEnd,
      valueOffset,
      valueLength: stop - valueOffset,
      nested,
      fieldNumber: h.no,
      wireType: h.wireType,
      wireTypeName: WIRE_NAMES[h.wireType] as string,
      name,
      path: where.path,
      segments: where.segments,
    };
    if (typeName !== undefined) span.typeName = typeName;
    if (rendered !== undefined) span.value = rendered;
    if (scalar !== undefined) span.scalar = scalar;
    this.spans.push(span);
  }

  /** The unknown varint at `at` as the unsigned 64-bit number it encodes (skipValue has checked it). */
  private unsignedVarint(at: number): string {
    const r = this.state.reader;
    const saved = r.pos;
    r.pos = at;
    const v = BigInt(readInt64(r));
    r.pos = saved;
    return BigInt.asUintN(64, v).toString();
  }

  /** A meta/v1 Time's seconds as RFC 3339, for the Time's own span (the decoder has checked the bytes). */
  private timeValue(start: number, stop: number): string | undefined {
    const r = this.state.reader;
    const saved = r.pos;
    let seconds = 0n;
    try {
      r.pos = start;
      while (r.pos < stop) {
        const tag = readTag(r);
        if (tag === 0x08) seconds = BigInt(readInt64(r));
        else skipValue(r, this.bytes, (tag & 7) as WireType, tag >>> 3, stop, this.state.maxDepth, r.pos);
      }
    } finally {
      r.pos = saved;
    }
    return formatRfc3339(seconds);
  }
}

/**
 * Paths as Kubernetes renders them (model/path.ts's renderPath), and map keys as `["key"]`.
 *
 * @example
 * ```ts
 * import { renderWirePath } from "clusterwire/networking";
 *
 * console.log(renderWirePath(["spec", "rules", 0, "host"])); // spec.rules[0].host
 * ```
 */
export function renderWirePath(segments: readonly WirePathSegment[]): string {
  let out = "";
  for (const s of segments) out += pathStep(out === "", s);
  return out;
}

/** One segment of a rendered path; `first` when nothing precedes it. */
function pathStep(first: boolean, segment: WirePathSegment): string {
  if (typeof segment === "object") return `[${JSON.stringify(segment.key)}]`;
  if (typeof segment === "number") return `[${segment}]`;
  return first ? segment : `.${segment}`;
}

function quote(s: string): string {
  if (s.length <= MAX_STRING_CHARS) return JSON.stringify(s);
  return `${JSON.stringify(s.slice(0, MAX_STRING_CHARS))}… (${s.length} chars)`;
}

function renderScalar(v: WireScalar): string {
  if (typeof v === "string") return quote(v);
  if (v instanceof Uint8Array) return hexValue(v, 0, v.length);
  return String(v);
}

function hex(bytes: Uint8Array, start: number, stop: number): string {
  let out = "";
  for (let i = start; i < stop; i++) out += (bytes[i] as number).toString(16).padStart(2, "0");
  return out;
}

/** Bytes as hex, cut after MAX_HEX_BYTES. */
function hexValue(bytes: Uint8Array, start: number, stop: number): string {
  const n = stop - start;
  if (n <= MAX_HEX_BYTES) return `0x${hex(bytes, start, stop)}`;
  return `0x${hex(bytes, start, start + MAX_HEX_BYTES)}… (${n} bytes)`;
}

/** A fixed 32- or 64-bit value: little-endian on the wire, shown as a hex number. */
function fixedValue(bytes: Uint8Array, start: number, stop: number): string {
  let out = "";
  for (let i = stop - 1; i >= start; i--) out += (bytes[i] as number).toString(16).padStart(2, "0");
  return `0x${out}`;
}
