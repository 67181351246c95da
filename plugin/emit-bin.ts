import { ScalarType, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import type { GeneratedFile, ImportSymbol } from "@bufbuild/protoplugin";
import { TIME_TYPE, type FieldShape, type MessageShape } from "../src/networking/model/go-shapes.js";
import { allMessages, shapeOf } from "./descriptors.js";
import { type Emitter, writeRuntimeFile } from "./emitter.js";

/*
 * The binary codecs: per message, a constructor, Go's zero value, a decoder
 * and an encoder, written to `<file>_bin.ts` next to protoc-gen-es's
 * `<file>_pb.ts`. The generated code imports nothing from src/: it reads and
 * writes through the BinDecoder / BinEncoder interfaces declared in
 * gen/clusterwire/bin_runtime.ts, which src/networking/protobuf implements
 * with the generic codec's own checks, so both accept, reject and write
 * exactly the same bytes.
 */

/** Where the shared interfaces go, relative to the output root. */
export const BIN_RUNTIME = "clusterwire/bin_runtime";

export const binEmitter: Emitter = {
  name: "binary codecs",
  shared(schema) {
    writeRuntimeFile(schema, `${BIN_RUNTIME}.ts`, RUNTIME_SOURCE);
  },
  file(schema, file) {
    const messages = allMessages(file.messages);
    if (messages.length === 0) return;
    const f = schema.generateFile(`${file.name}_bin.ts`);
    f.preamble(file);
    const rt = {
      decoder: f.import("BinDecoder", `./${BIN_RUNTIME}.js`, true),
      encoder: f.import("BinEncoder", `./${BIN_RUNTIME}.js`, true),
      fields: f.import("BinFields", `./${BIN_RUNTIME}.js`, true),
      codec: f.import("BinCodec", `./${BIN_RUNTIME}.js`, true),
    };
    const pointerScalars = messages.some((m) =>
      shapeOf(m).wireOrder.some((fs) => fs.pointer && fs.field.fieldKind === "scalar"),
    );
    if (pointerScalars) f.print("const own = Object.prototype.hasOwnProperty;");
    const maps = messages.some((m) => m.fields.some((field) => field.fieldKind === "map"));
    if (maps) emitEmptyMap(f);
    for (const desc of messages) emitMessage(f, file, desc, shapeOf(desc), rt);
    f.print();
    f.print(f.jsDoc("Every message of this file with its binary codec, by type name."));
    f.print(f.export("const", "binCodecs"), ": { readonly [typeName: string]: ", rt.codec, " } = {");
    for (const desc of messages) {
      const n = desc.name;
      f.print(
        `  ${JSON.stringify(desc.typeName)}: { create: new${n}, decode: decode${n}, encode: encode${n}, size: size${n} },`,
      );
    }
    f.print("};");
  },
};

interface RuntimeTypes {
  readonly decoder: ImportSymbol;
  readonly encoder: ImportSymbol;
  readonly fields: ImportSymbol;
  readonly codec: ImportSymbol;
}

/** The generated function `prefix + message name`, imported when it lives in another file. */
function fn(
  f: GeneratedFile,
  here: DescFile,
  desc: DescMessage,
  prefix: "new" | "zero" | "decode" | "size" | "encode",
): ImportSymbol | string {
  const name = prefix + desc.name;
  return desc.file === here ? name : f.import(name, `./${desc.file.name}_bin.js`);
}

function tagOf(fs: FieldShape): number {
  return ((fs.field.number << 3) | wireTypeOf(fs)) >>> 0;
}

function wireTypeOf(fs: FieldShape): number {
  const f = fs.field;
  if (f.fieldKind === "message" || f.fieldKind === "map") return 2;
  if (f.fieldKind === "list" && f.listKind === "message") return 2;
  if (f.fieldKind === "scalar" || f.fieldKind === "list") {
    const t = f.scalar;
    if (t === undefined) throw new Error(`${f.toString()}: list without a scalar type`);
    switch (t) {
      case ScalarType.STRING:
      case ScalarType.BYTES:
        return 2;
      case ScalarType.INT32:
      case ScalarType.INT64:
      case ScalarType.BOOL:
        return 0;
      default:
        throw new Error(`${f.toString()}: scalar type ${ScalarType[t]} is not supported`);
    }
  }
  throw new Error(`${f.toString()}: field kind ${f.fieldKind} is not supported`);
}

/** The path segment errors name a field by ("" for an inlined struct), as plan.ts computes it. */
function segmentOf(fs: FieldShape): string {
  return fs.jsonKey ?? "";
}

const READ: Partial<Record<ScalarType, string>> = {
  [ScalarType.STRING]: "st.string(end)",
  [ScalarType.BYTES]: "st.bytesValue(end)",
  [ScalarType.INT32]: "st.int32()",
  [ScalarType.INT64]: "st.int64()",
  [ScalarType.BOOL]: "st.bool()",
};
const WRITE: Partial<Record<ScalarType, string>> = {
  [ScalarType.STRING]: "str",
  [ScalarType.BYTES]: "bytesField",
  [ScalarType.INT32]: "i32",
  [ScalarType.INT64]: "i64",
  [ScalarType.BOOL]: "bool",
};

function scalarOf(fs: FieldShape): ScalarType {
  const f = fs.field;
  const t = f.fieldKind === "scalar" || f.fieldKind === "list" ? f.scalar : undefined;
  if (t === undefined) throw new Error(`${f.toString()} is not scalar`);
  return t;
}

/**
 * An unset map field holds an object made by EmptyMap$: a plain object (its
 * prototype is Object.prototype, as a {} literal's) that V8 gives no property
 * slots, 24 bytes instead of the 56 of a {} literal, which reserves four.
 * Most maps of real objects stay empty (labels, annotations, matchLabels), so
 * decoders keep the shell for them and give a map its {} at its first entry,
 * where the four slots hold the commonest one to four entries in the object.
 */
function emitEmptyMap(f: GeneratedFile): void {
  f.print();
  f.print("function EmptyMap$(this: object): void {}");
  f.print("EmptyMap$.prototype = Object.prototype;");
  f.print("const EmptyMap = EmptyMap$ as unknown as new () => { [key: string]: string };");
  f.print();
  f.print("/** Whether `map` has no entries yet (an empty map can be swapped for a fresh one). */");
  f.print("function isEmptyMap(map: object): boolean {");
  f.print("  for (const _ in map) return false;");
  f.print("  return true;");
  f.print("}");
}

function emitMessage(f: GeneratedFile, here: DescFile, desc: DescMessage, shape: MessageShape, rt: RuntimeTypes): void {
  const T = f.importShape(desc);
  const name = desc.name;
  const child = (fs: FieldShape, prefix: "new" | "zero" | "decode" | "encode") =>
    fn(f, here, fs.field.message as DescMessage, prefix);
  const structs = shape.wireOrder.filter((fs) => fs.field.fieldKind === "message" && !fs.pointer);

  // Constructor: the prototype protobuf-es gives the type (it holds the proto2
  // defaults), $typeName and empty lists and maps as own properties in member order.
  const own: string[] = [`this.$typeName = ${JSON.stringify(desc.typeName)};`];
  for (const member of desc.members) {
    if (member.kind !== "field") continue;
    if (member.fieldKind === "list") own.push(`this.${member.localName} = [];`);
    else if (member.fieldKind === "map") own.push(`this.${member.localName} = new EmptyMap();`);
  }
  f.print();
  f.print(`function ${name}$(this: Record<string, unknown>): void {`);
  for (const line of own) f.print(`  ${line}`);
  f.print("}");
  f.print(`let ${name}$ready = false;`);
  f.print();
  f.print(f.jsDoc(`An empty ${desc.typeName}, exactly as create() makes it.`));
  f.print(f.export("function", `new${name}`), "(): ", T, " {");
  f.print(`  if (!${name}$ready) {`);
  f.print(
    `    ${name}$.prototype = Object.getPrototypeOf(`,
    f.runtime.create,
    "(",
    f.importSchema(desc),
    ")) as object;",
  );
  f.print(`    ${name}$ready = true;`);
  f.print("  }");
  f.print(`  return new (${name}$ as unknown as new () => `, T, ")();");
  f.print("}");

  f.print();
  f.print(f.jsDoc(`Go's zero ${desc.typeName}: its non-pointer struct fields exist, recursively.`));
  f.print(f.export("function", `zero${name}`), "(): ", T, " {");
  f.print(`  const m = new${name}();`);
  for (const fs of structs) f.print(`  m.${fs.localName} = `, child(fs, "zero"), "();");
  f.print("  return m;");
  f.print("}");

  // Known fields by number: what a wrong wire type is reported with.
  f.print();
  const known = shape.wireOrder
    .map(
      (fs) =>
        `${fs.field.number}: [${JSON.stringify(fs.field.name)}, ${wireTypeOf(fs)}, ${JSON.stringify(segmentOf(fs))}]`,
    )
    .join(", ");
  f.print(`const ${name}$known: `, rt.fields, ` = { ${known} };`);

  // Decoder.
  f.print();
  f.print(f.jsDoc(`Reads the fields of a ${desc.typeName} from the reader's position to \`end\` into \`m\`.`));
  f.print(f.export("function", `decode${name}`), "(st: ", rt.decoder, ", m: ", T, ", end: number): ", T, " {");
  f.print("  const r = st.reader;");
  f.print("  const b = st.bytes;");
  const mapFields = shape.wireOrder.filter((fs) => fs.field.fieldKind === "map");
  for (const fs of mapFields) f.print(`  let ${fs.localName}$first = true;`);
  f.print("  while (r.pos < end) {");
  f.print("    const at = r.pos;");
  f.print("    st.fieldStart = at;");
  f.print("    let tag = b[at]!;");
  f.print("    if (tag < 0x80) r.pos = at + 1;");
  f.print("    else tag = st.tag();");
  f.print("    switch (tag) {");
  for (const fs of shape.wireOrder) {
    const field = fs.field;
    const m = `m.${fs.localName}`;
    const seg = JSON.stringify(segmentOf(fs));
    f.print(`      case ${tagOf(fs)}:`);
    f.print("        try {");
    switch (field.fieldKind) {
      case "scalar":
        f.print(`          ${m} = ${READ[scalarOf(fs)]};`);
        break;
      case "list":
        if (field.listKind === "message") {
          f.print("          const stop = st.length(end);");
          f.print(`          const list = ${m};`);
          f.print("          try {");
          f.print("            const x = ", child(fs, "decode"), "(st, ", child(fs, "new"), "(), stop);");
          f.print(`            if (list.length === 0) ${m} = [x];`);
          f.print("            else list.push(x);");
          f.print("          } catch (e) {");
          f.print("            throw st.atIndex(e, list.length);");
          f.print("          }");
        } else {
          f.print(`          const x = ${READ[scalarOf(fs)]};`);
          f.print(`          const list = ${m};`);
          f.print(`          if (list.length === 0) ${m} = [x];`);
          f.print("          else list.push(x);");
        }
        break;
      case "message":
        // A repeated singular message merges into the first, as in Go.
        f.print("          const stop = st.length(end);");
        f.print(`          ${m} = `, child(fs, "decode"), `(st, ${m} ?? `, child(fs, "new"), "(), stop);");
        break;
      case "map":
        // The first entry replaces a still empty map with a {} (see emitEmptyMap).
        f.print(`          if (${fs.localName}$first) {`);
        f.print(`            ${fs.localName}$first = false;`);
        f.print(`            if (isEmptyMap(${m})) ${m} = {};`);
        f.print("          }");
        f.print(`          st.mapEntry(${m}, end);`);
        break;
      default:
        throw new Error(`${field.toString()}: unsupported field kind`);
    }
    f.print("        } catch (e) {");
    f.print(`          throw st.inField(e, ${seg}, at);`);
    f.print("        }");
    f.print("        break;");
  }
  f.print("      default:");
  f.print(`        st.other(m, tag, at, end, ${name}$known);`);
  f.print("    }");
  f.print("  }");
  f.print("  if (r.pos !== end) throw st.overrun(r.pos);");
  // A list push() grew to at least 17 slots: keep a copy of exactly its length.
  for (const fs of shape.wireOrder)
    if (fs.field.fieldKind === "list")
      f.print(`  if (m.${fs.localName}.length > 1) m.${fs.localName} = m.${fs.localName}.slice();`);
  for (const fs of structs)
    f.print(`  if (m.${fs.localName} === undefined) m.${fs.localName} = `, child(fs, "zero"), "();");
  f.print("  return m;");
  f.print("}");

  // Encoder.
  f.print();
  f.print(f.jsDoc(`Writes the body of a ${desc.typeName} with Go's field rules.`));
  f.print(f.export("function", `encode${name}`), "(w: ", rt.encoder, ", m: ", T, "): void {");
  if (desc.typeName === TIME_TYPE) {
    f.print("  w.time(m);");
  } else {
    const usesV = shape.wireOrder.some((fs) => fs.field.fieldKind !== "scalar" && fs.field.fieldKind !== "map");
    if (usesV) f.print("  let v: unknown;");
    for (const fs of shape.wireOrder) {
      const field = fs.field;
      const m = `m.${fs.localName}`;
      const tag = tagOf(fs);
      const seg = JSON.stringify(segmentOf(fs) === "" ? field.name : segmentOf(fs));
      f.print("  try {");
      switch (field.fieldKind) {
        case "scalar": {
          const write = `w.${fs.nonEmpty ? "nonEmptyBytes" : WRITE[scalarOf(fs)]}(${tag}, ${m});`;
          if (fs.pointer) f.print(`    if (own.call(m, ${JSON.stringify(fs.localName)})) ${write}`);
          else f.print(`    ${write}`);
          break;
        }
        case "message":
          f.print(`    v = ${m};`);
          f.print("    if (v === undefined) {");
          if (!fs.pointer) {
            // A non-pointer struct is always written; if absent, as Go's zero struct.
            f.print(`      w.forkField(${tag});`);
            f.print("      ", child(fs, "encode"), "(w, ", child(fs, "new"), "());");
            f.print("      w.join();");
          }
          f.print("    } else {");
          f.print("      w.message(v);");
          f.print(`      w.forkField(${tag});`);
          f.print("      ", child(fs, "encode"), "(w, v as ", f.importShape(field.message as DescMessage), ");");
          f.print("      w.join();");
          f.print("    }");
          break;
        case "list":
          f.print(`    v = ${m};`);
          f.print("    w.list(v);");
          f.print("    const list = v as unknown[];");
          f.print("    for (let j = 0; j < list.length; j++) {");
          f.print("      const x = list[j];");
          f.print("      try {");
          if (field.listKind === "message") {
            f.print("        w.message(x);");
            f.print(`        w.forkField(${tag});`);
            f.print("        ", child(fs, "encode"), "(w, x as ", f.importShape(field.message), ");");
            f.print("        w.join();");
          } else {
            f.print(`        w.${WRITE[scalarOf(fs)]}(${tag}, x);`);
          }
          f.print("      } catch (e) {");
          f.print('        throw w.inField(e, "[" + j + "]");');
          f.print("      }");
          f.print("    }");
          break;
        case "map":
          f.print(`    w.map(${tag}, ${m});`);
          break;
        default:
          throw new Error(`${field.toString()}: unsupported field kind`);
      }
      f.print("  } catch (e) {");
      f.print(`    throw w.inField(e, ${seg});`);
      f.print("  }");
    }
  }
  f.print("  if (w.keep && m.$unknown !== undefined) w.unknown(m);");
  f.print("}");
  emitSize(f, here, desc, shape, rt);
}

/** How many bytes a field's tag takes as a varint. */
function tagLengthOf(fs: FieldShape): number {
  let n = 1;
  for (let v = tagOf(fs) >>> 7; v > 0; v >>>= 7) n++;
  return n;
}

/**
 * The size function: the exact length of the body the encoder writes, as
 * Go's Size(), making every check the encoder makes, in the same order, so
 * it refuses the same values with the same paths.
 */
function emitSize(f: GeneratedFile, here: DescFile, desc: DescMessage, shape: MessageShape, rt: RuntimeTypes): void {
  const T = f.importShape(desc);
  const child = (fs: FieldShape, prefix: "new" | "size") => fn(f, here, fs.field.message as DescMessage, prefix);
  f.print();
  f.print(f.jsDoc(`The exact length of the body encode${desc.name}() writes, after the same checks.`));
  f.print(f.export("function", `size${desc.name}`), "(w: ", rt.encoder, ", m: ", T, "): number {");
  f.print("  let n = 0;");
  if (desc.typeName === TIME_TYPE) {
    f.print("  n += w.timeSize(m);");
  } else {
    const usesV = shape.wireOrder.some((fs) => fs.field.fieldKind !== "scalar" && fs.field.fieldKind !== "map");
    if (usesV) f.print("  let v: unknown;");
    for (const fs of shape.wireOrder) {
      const field = fs.field;
      const m = `m.${fs.localName}`;
      const tl = tagLengthOf(fs);
      const seg = JSON.stringify(segmentOf(fs) === "" ? field.name : segmentOf(fs));
      f.print("  try {");
      switch (field.fieldKind) {
        case "scalar": {
          const size = `n += w.${fs.nonEmpty ? "nonEmptyBytes" : WRITE[scalarOf(fs)]}Size(${tl}, ${m});`;
          if (fs.pointer) f.print(`    if (own.call(m, ${JSON.stringify(fs.localName)})) ${size}`);
          else f.print(`    ${size}`);
          break;
        }
        case "message":
          f.print(`    v = ${m};`);
          f.print("    if (v === undefined) {");
          if (!fs.pointer) {
            // A non-pointer struct is always written; if absent, as Go's zero struct.
            f.print(`      n += w.subSize(${tl}, `, child(fs, "size"), "(w, ", child(fs, "new"), "()));");
          }
          f.print("    } else {");
          f.print("      w.message(v);");
          f.print(
            `      n += w.subSize(${tl}, `,
            child(fs, "size"),
            "(w, v as ",
            f.importShape(field.message as DescMessage),
            "));",
          );
          f.print("    }");
          break;
        case "list":
          f.print(`    v = ${m};`);
          f.print("    w.list(v);");
          f.print("    const list = v as unknown[];");
          f.print("    for (let j = 0; j < list.length; j++) {");
          f.print("      const x = list[j];");
          f.print("      try {");
          if (field.listKind === "message") {
            f.print("        w.message(x);");
            f.print(
              `        n += w.subSize(${tl}, `,
              child(fs, "size"),
              "(w, x as ",
              f.importShape(field.message),
              "));",
            );
          } else {
            f.print(`        n += w.${WRITE[scalarOf(fs)]}Size(${tl}, x);`);
          }
          f.print("      } catch (e) {");
          f.print('        throw w.inField(e, "[" + j + "]");');
          f.print("      }");
          f.print("    }");
          break;
        case "map":
          f.print(`    n += w.mapSize(${tl}, ${m});`);
          break;
        default:
          throw new Error(`${field.toString()}: unsupported field kind`);
      }
      f.print("  } catch (e) {");
      f.print(`    throw w.inField(e, ${seg});`);
      f.print("  }");
    }
  }
  f.print("  if (w.keep && m.$unknown !== undefined) n += w.unknownSize(m);");
  f.print("  return n;");
  f.print("}");
}

const RUNTIME_SOURCE = `/* eslint-disable */

import type { Message } from "@bufbuild/protobuf";

/*
 * What the generated binary codecs (*_bin.ts) need from clusterwire's wire
 * readers and writers. Declared here, implemented in src/networking/protobuf,
 * so generated code imports nothing from src/ and src/ passes itself in.
 */

/** Known fields by number: [proto name, wire type, error path segment]. */
export type BinFields = { readonly [no: number]: readonly [string, number, string] };

/** One message type's generated functions. */
export interface BinCodec {
  /** An empty message, exactly as protobuf-es create() makes it. */
  create(): Message;
  /** Reads fields from the reader's position to \`end\` into \`m\` (a repeated singular message merges). */
  decode(st: BinDecoder, m: Message, end: number): Message;
  /** Writes the message body (no tag, no length). */
  encode(w: BinEncoder, m: Message): void;
  /** The exact length of the body encode() writes (as Go's Size()), after the same checks. */
  size(w: BinEncoder, m: Message): number;
}

/** A reader positioned in one input; every method checks what Go checks and says where. */
export interface BinDecoder {
  readonly bytes: Uint8Array;
  readonly reader: { pos: number };
  /** Start of the field being read, for errors the wire reader raises itself. */
  fieldStart: number;
  /** A field tag of more than one byte. */
  tag(): number;
  /** A length prefix bounded by \`end\`; returns where the payload ends. */
  length(end: number): number;
  string(end: number): string;
  bytesValue(end: number): Uint8Array;
  int32(): number;
  int64(): bigint;
  bool(): boolean;
  mapEntry(map: { [key: string]: string }, end: number): void;
  /** A tag no case took: a bad tag, a known field of the wrong wire type, or an unknown field (kept). */
  other(m: Message, tag: number, at: number, end: number, known: BinFields): void;
  /** Names the field an error happened in. */
  inField(e: unknown, segment: string, at: number): unknown;
  /** Names the list index an error happened at. */
  atIndex(e: unknown, index: number): unknown;
  /** The error for a message whose last field ran past its end. */
  overrun(at: number): unknown;
}

/** A writer; each scalar method checks the value's type and writes the field, tag included. */
export interface BinEncoder {
  /** Whether unknown fields are written back. */
  readonly keep: boolean;
  str(tag: number, v: unknown): void;
  bytesField(tag: number, v: unknown): void;
  nonEmptyBytes(tag: number, v: unknown): void;
  i32(tag: number, v: unknown): void;
  i64(tag: number, v: unknown): void;
  bool(tag: number, v: unknown): void;
  map(tag: number, v: unknown): void;
  /** Throws unless \`v\` can be a message / a list. */
  message(v: unknown): void;
  list(v: unknown): void;
  /** Starts a length-delimited submessage field; join() ends it. */
  forkField(tag: number): void;
  join(): void;
  /** A meta.v1.Time, as Go writes it. */
  time(m: Message): void;
  unknown(m: Message): void;
  /** Names the field (or list index) an error happened in. */
  inField(e: unknown, segment: string): unknown;

  // What the size functions measure with: each checks as the writer above
  // does and returns the field's length, tag (\`tagLength\` bytes) included.
  strSize(tagLength: number, v: unknown): number;
  bytesFieldSize(tagLength: number, v: unknown): number;
  nonEmptyBytesSize(tagLength: number, v: unknown): number;
  i32Size(tagLength: number, v: unknown): number;
  i64Size(tagLength: number, v: unknown): number;
  boolSize(tagLength: number, v: unknown): number;
  mapSize(tagLength: number, v: unknown): number;
  /** A submessage field of a body of \`bodyLength\` bytes. */
  subSize(tagLength: number, bodyLength: number): number;
  /** A meta.v1.Time's body, as Go writes it. */
  timeSize(m: Message): number;
  unknownSize(m: Message): number;
}`;
