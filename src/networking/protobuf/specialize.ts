import type { DescMessage } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import type { WireType } from "@bufbuild/protobuf/wire";

/*
 * Specialised decoders and encoders, one function per message, built from the
 * same plans the generic codec interprets. A generic loop reads and stores
 * every field through `msg[name]`, which V8 cannot cache across dozens of
 * names; a per-message function with constant property names (and, for
 * decoding, class-built messages) avoids that. The generated code only
 * dispatches: every check lives in helpers shared with the generic codec, so
 * both accept, reject and write exactly the same bytes, which tests hold them
 * to. Where `new Function` is forbidden (a Content Security Policy), the
 * generic codec is used instead.
 */

/** What the specialiser needs to know of a field (a subset of plan.ts's FieldPlan). */
export interface SpecField {
  readonly no: number;
  /** The proto field name, for error paths of fields without a JSON key. */
  readonly name: string;
  readonly nonEmpty: boolean;
  readonly localName: string;
  readonly kind: "scalar" | "message" | "scalarList" | "messageList" | "map";
  readonly scalar: ScalarType;
  readonly wireType: WireType;
  readonly pointer: boolean;
  readonly segment: string;
  readonly child: SpecPlan | undefined;
}

export interface SpecPlan {
  readonly desc: DescMessage;
  readonly isTime: boolean;
  readonly fields: readonly SpecField[];
  readonly structs: readonly SpecField[];
}

/** The shared helpers the generated code calls; see from-binary.ts and to-binary.ts. */
export interface SpecHelpers {
  readTag(st: unknown): number;
  readLength(st: unknown, end: number): number;
  readString(st: unknown, end: number): string;
  readBytes(st: unknown, end: number): Uint8Array;
  /** Varint scalars, read by wire.ts (the one place varints are read). */
  readInt32(r: unknown): number;
  readInt64(r: unknown): bigint | string;
  readBool(r: unknown): boolean;
  readMapEntry(st: unknown, map: Record<string, unknown>, end: number): void;
  /** A tag the switch did not take: an unknown field, or a known one with the wrong wire type. */
  other(st: unknown, plan: SpecPlan, msg: object, tag: number, at: number, end: number): void;
  prefixSegment(e: unknown, seg: string, at: number): unknown;
  prefixIndex(e: unknown, index: number): unknown;
  overrun(at: number): unknown;

  // Encoding: each writes one field (tag included) after checking the value's type.
  str(w: unknown, tag: number, v: unknown): void;
  i32(w: unknown, tag: number, v: unknown): void;
  i64(w: unknown, tag: number, v: unknown): void;
  bool(w: unknown, tag: number, v: unknown): void;
  bytes(w: unknown, tag: number, v: unknown): void;
  nonEmptyBytes(w: unknown, tag: number, v: unknown): void;
  map(w: unknown, tag: number, v: unknown): void;
  /** Throws unless `v` can be a message / a list. */
  message(v: unknown): void;
  list(v: unknown): void;
  time(w: unknown, m: object): void;
  unknown(w: unknown, m: object): void;
  /** Prefixes a path segment to an encoding failure. */
  segment(e: unknown, seg: string): unknown;
  /** A shared, frozen empty message, written for an absent non-pointer struct. */
  empty(plan: SpecPlan): object;
}

export type SpecDecoder = (st: { reader: { pos: number }; fieldStart: number }, msg: object, end: number) => object;
export type SpecEncoder = (w: unknown, msg: object, keepUnknown: boolean) => void;

export interface Specialised {
  /** Creates an empty message exactly like protobuf-es `create()` would. */
  readonly Ctor: new () => object;
  readonly decode: SpecDecoder;
  /** Writes a message body with Go's field rules, like the generic encoder. */
  readonly encode: SpecEncoder;
  /** Go's zero value: non-pointer structs filled, recursively. */
  readonly zero: () => object;
}

let functionsAllowed: boolean | undefined;

/**
 * Whether this runtime lets us build functions (a CSP may forbid it). Asked
 * on first use, not at import: under a CSP the probe itself is reported.
 */
export function canSpecialise(): boolean {
  if (functionsAllowed === undefined) {
    try {
      functionsAllowed = new Function("return 1")() === 1;
    } catch {
      functionsAllowed = false;
    }
  }
  return functionsAllowed;
}

/**
 * Builds specialised decoders for `root` and every message it reaches.
 * `prototypeOf` gives the prototype protobuf-es gives that message type.
 */
export function specialise(
  root: SpecPlan,
  helpers: SpecHelpers,
  prototypeOf: (desc: DescMessage) => object,
  cache: Map<SpecPlan, Specialised>,
): Specialised {
  const done = cache.get(root);
  if (done !== undefined) return done;
  // Register a forwarding entry first so recursive schemas terminate.
  const slot: { impl?: Specialised } = {};
  const forward: Specialised = {
    Ctor: function Pending() {} as unknown as new () => object,
    decode: (st, msg, end) => (slot.impl as Specialised).decode(st, msg, end),
    encode: (w, msg, keep) => (slot.impl as Specialised).encode(w, msg, keep),
    zero: () => (slot.impl as Specialised).zero(),
  };
  cache.set(root, forward);

  const children = root.fields.filter((f) => f.child !== undefined).map((f) => f.child as SpecPlan);
  const childImpls = children.map((c) => specialise(c, helpers, prototypeOf, cache));
  const childIndex = new Map(children.map((c, i) => [c, i]));

  const Ctor = buildCtor(root, prototypeOf(root.desc));
  const name = (f: SpecField): string => `m[${JSON.stringify(f.localName)}]`;
  const seg = (f: SpecField): string => JSON.stringify(f.segment);

  let cases = "";
  for (const f of root.fields) {
    const tag = ((f.no << 3) | f.wireType) >>> 0;
    let body: string;
    switch (f.kind) {
      case "scalar":
        body = `${name(f)} = ${readScalarExpr(f.scalar)};`;
        break;
      case "scalarList":
        body = `${name(f)}.push(${readScalarExpr(f.scalar)});`;
        break;
      case "message": {
        const i = childIndex.get(f.child as SpecPlan) as number;
        // A repeated singular message merges into the first, as in Go.
        body = `const stop = h.readLength(st, end); const x = ${name(f)}; ${name(f)} = K[${i}].decode(st, x === undefined ? new K[${i}].Ctor() : x, stop);`;
        break;
      }
      case "messageList": {
        const i = childIndex.get(f.child as SpecPlan) as number;
        body =
          `const stop = h.readLength(st, end); const list = ${name(f)}; ` +
          `try { list.push(K[${i}].decode(st, new K[${i}].Ctor(), stop)); } catch (e) { throw h.prefixIndex(e, list.length); }`;
        break;
      }
      case "map":
        body = `h.readMapEntry(st, ${name(f)}, end);`;
        break;
    }
    cases += `case ${tag}: try { ${body} } catch (e) { throw h.prefixSegment(e, ${seg(f)}, at); } break;\n`;
  }
  let structs = "";
  for (const f of root.structs) {
    const i = childIndex.get(f.child as SpecPlan) as number;
    structs += `if (${name(f)} === undefined) ${name(f)} = K[${i}].zero();\n`;
  }
  const source = `"use strict";
return function decode(st, m, end) {
  const r = st.reader;
  while (r.pos < end) {
    const at = r.pos;
    st.fieldStart = at;
    const tag = h.readTag(st);
    switch (tag) {
${cases}      default: h.other(st, plan, m, tag, at, end);
    }
  }
  if (r.pos !== end) throw h.overrun(r.pos);
${structs}  return m;
};`;
  const decode = new Function("h", "K", "plan", source)(helpers, childImpls, root) as SpecDecoder;
  const zero = (): object => {
    const m = new Ctor() as Record<string, unknown>;
    for (const f of root.structs)
      m[f.localName] = (childImpls[childIndex.get(f.child as SpecPlan) as number] as Specialised).zero();
    return m;
  };
  const encode = buildEncoder(root, helpers, childImpls, childIndex);
  const impl: Specialised = { Ctor, decode, encode, zero };
  slot.impl = impl;
  cache.set(root, impl);
  return impl;
}

/** The encoder: constant property names again, and every check in the shared helpers. */
function buildEncoder(
  plan: SpecPlan,
  h: SpecHelpers,
  children: readonly Specialised[],
  index: ReadonlyMap<SpecPlan, number>,
): SpecEncoder {
  const unknown = "if (keep && m.$unknown !== undefined) h.unknown(w, m);";
  if (plan.isTime)
    return new Function("h", `"use strict"; return function encode(w, m, keep) { h.time(w, m); ${unknown} };`)(
      h,
    ) as SpecEncoder;
  const empties = plan.fields.map((f) =>
    f.kind === "message" && !f.pointer ? h.empty(f.child as SpecPlan) : undefined,
  );
  let body = "";
  plan.fields.forEach((f, k) => {
    const tag = ((f.no << 3) | f.wireType) >>> 0;
    const name = `m[${JSON.stringify(f.localName)}]`;
    const child = f.child === undefined ? -1 : (index.get(f.child) as number);
    let code: string;
    switch (f.kind) {
      case "scalar": {
        const write = `h.${f.nonEmpty ? "nonEmptyBytes" : writerOf(f.scalar)}(w, ${tag}, ${name});`;
        code = f.pointer ? `if (own.call(m, ${JSON.stringify(f.localName)})) ${write}` : write;
        break;
      }
      case "message":
        code =
          `v = ${name}; if (v === undefined) { ${f.pointer ? "" : `w.uint32(${tag}).fork(); K[${child}].encode(w, E[${k}], keep); w.join();`} } ` +
          `else { h.message(v); w.uint32(${tag}).fork(); K[${child}].encode(w, v, keep); w.join(); }`;
        break;
      case "messageList":
        code =
          `v = ${name}; h.list(v); for (let j = 0; j < v.length; j++) { const x = v[j]; ` +
          `try { h.message(x); w.uint32(${tag}).fork(); K[${child}].encode(w, x, keep); w.join(); } catch (e) { throw h.segment(e, "[" + j + "]"); } }`;
        break;
      case "scalarList":
        code =
          `v = ${name}; h.list(v); for (let j = 0; j < v.length; j++) { ` +
          `try { h.${writerOf(f.scalar)}(w, ${tag}, v[j]); } catch (e) { throw h.segment(e, "[" + j + "]"); } }`;
        break;
      case "map":
        code = `h.map(w, ${tag}, ${name});`;
        break;
    }
    body += `  try { ${code} } catch (e) { throw h.segment(e, ${JSON.stringify(f.segment === "" ? f.name : f.segment)}); }\n`;
  });
  const source = `"use strict";
return function encode(w, m, keep) {
  let v;
${body}  ${unknown}
};`;
  return new Function("h", "K", "E", "own", source)(
    h,
    children,
    empties,
    Object.prototype.hasOwnProperty,
  ) as SpecEncoder;
}

function writerOf(t: ScalarType): string {
  switch (t) {
    case ScalarType.STRING:
      return "str";
    case ScalarType.BYTES:
      return "bytes";
    case ScalarType.INT32:
      return "i32";
    case ScalarType.INT64:
      return "i64";
    case ScalarType.BOOL:
      return "bool";
    default:
      throw new Error(`scalar type ${ScalarType[t]} is not used by these schemas`);
  }
}

function readScalarExpr(t: ScalarType): string {
  switch (t) {
    case ScalarType.STRING:
      return "h.readString(st, end)";
    case ScalarType.BYTES:
      return "h.readBytes(st, end)";
    case ScalarType.INT32:
      return "h.readInt32(r)";
    case ScalarType.INT64:
      return "h.readInt64(r)";
    case ScalarType.BOOL:
      return "h.readBool(r)";
    default:
      throw new Error(`scalar type ${ScalarType[t]} is not used by these schemas`);
  }
}

/**
 * A constructor producing what protobuf-es `create()` produces for a proto2
 * message: an object on the same prototype (which holds the scalar zero
 * values), with `$typeName` and empty lists and maps as own properties, in
 * member order.
 */
function buildCtor(plan: SpecPlan, prototype: object): new () => object {
  let body = `this.$typeName = ${JSON.stringify(plan.desc.typeName)};\n`;
  for (const member of plan.desc.members) {
    if (member.kind !== "field") continue;
    if (member.fieldKind === "list") body += `this[${JSON.stringify(member.localName)}] = [];\n`;
    else if (member.fieldKind === "map") body += `this[${JSON.stringify(member.localName)}] = {};\n`;
  }
  const Ctor = new Function(body) as unknown as new () => object;
  Ctor.prototype = prototype;
  return Ctor;
}
