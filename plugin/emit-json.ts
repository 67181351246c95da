import { ScalarType, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import type { GeneratedFile, ImportSymbol } from "@bufbuild/protoplugin";
import {
  FIELDS_V1_TYPE,
  INT_OR_STRING_TYPE,
  TIME_TYPE,
  type FieldShape,
  type MessageShape,
} from "../src/networking/model/go-shapes.js";
import { KIND_NAMES } from "../src/networking/model/kind-names.js";
import { allMessages, shapeOf } from "./descriptors.js";
import { type Emitter, writeRuntimeFile } from "./emitter.js";

/*
 * The JSON fast paths: per message, a reader of Kubernetes JSON text straight
 * into the typed message and a writer of its compact JSON, to
 * `<file>_json.ts`. Like the binary codecs they import nothing from src/:
 * they read and write through the JsonReader / JsonWriter interfaces of
 * gen/clusterwire/json_runtime.ts, which src/networking/text implements.
 *
 * They are the common path only. The reader gives up (`bail`) on anything
 * rare or wrong (a repeated key, a number that is not a plain integer, a
 * value of the wrong type, ...) and the writer on any value the generic
 * printer would refuse; the caller then runs the generic path, which stays
 * the specification. Messages are made with the binary emitter's `new*` and
 * `zero*` (emit-bin.ts), so both paths build the very same objects.
 */

/** Where the shared interfaces go, relative to the output root. */
export const JSON_RUNTIME = "clusterwire/json_runtime";

const RUNTIME_SOURCE = `/* eslint-disable */

import type { Message } from "@bufbuild/protobuf";

/*
 * What the generated JSON readers and writers (*_json.ts) need from
 * clusterwire's JSON code. Declared here, implemented in src/networking/text,
 * so generated code imports nothing from src/ and src/ passes itself in.
 * Every method gives up (throws, and the caller runs the generic path) on
 * anything the common path does not cover.
 */

/** A reader of JSON text, positioned at a value. */
export interface JsonReader {
  /** Enters an object at nesting \`depth\`; false (and past it) when it is empty. */
  open(depth: number): boolean;
  /** Reads a key and its colon; returns {@link jsonKeyCode} of it. */
  key(): number;
  /** Whether the key just read is \`k\`. */
  keyIs(k: string): boolean;
  /** The text, and the reader's position in it (the generated key guesses compare in place). */
  readonly text: string;
  pos: number;
  /** Passes over whitespace. */
  ws(): void;
  /** After a member: true when another follows, false past the object's end. */
  next(): boolean;
  /** Enters an array at nesting \`depth\`; false (and past it) when it is empty. */
  openList(depth: number): boolean;
  /** After an element: true when another follows, false past the array's end. */
  nextItem(): boolean;
  /** Reads \`null\` if it is there. */
  isNull(): boolean;
  string(): string;
  /** Reads a string and drops it: kind / apiVersion in a kind, found before reading. */
  typeMeta(): void;
  boolean(): boolean;
  integer32(): number;
  integer64(): bigint;
  /** A meta.v1.Time from its RFC 3339 string, into a new message. */
  time(m: Message): void;
  /** An IntOrString from a number or a string, into a new message. */
  intOrString(m: Message): void;
  /** A FieldsV1 as the raw text of its value (at nesting \`depth\` of its container), into a new message. */
  fieldsV1(m: Message, depth: number): void;
  /** A map of strings (null values are ""), at nesting \`depth\`, into an empty map. */
  stringMap(map: { [key: string]: string }, depth: number): void;
  /** The value of a key the message has no field for, in an object at nesting \`depth\`. */
  unknown(depth: number): void;
  bail(): never;
}

/** A writer of compact JSON text into \`out\`. */
export interface JsonWriter {
  out: string;
  /** Writes a key (already quoted, with its colon), after a comma unless it is the object's first. */
  key(k: string): void;
  /** Opens / closes an object. */
  open(): void;
  close(): void;
  /** Each checks the value's type, then writes it. */
  str(v: unknown): void;
  i32(v: unknown): void;
  i64(v: unknown): void;
  bool(v: unknown): void;
  /** Checks that \`v\` can be a message. */
  message(v: unknown): void;
  /** Writes the key and \`[\`, true, for a non-empty list; otherwise the key and null unless \`omit\`, false. */
  listStart(k: string, v: unknown, omit: boolean): boolean;
  listEnd(): void;
  /** A list of scalars of type \`scalar\` (protobuf's ScalarType). */
  scalarList(k: string, v: unknown, scalar: number, omit: boolean): void;
  map(k: string, v: unknown, omit: boolean): void;
  /** The special messages, each with its field's flags. */
  time(k: string, v: unknown, pointer: boolean, omit: boolean, omitZero: boolean): void;
  intOrString(k: string, v: unknown, pointer: boolean, omit: boolean): void;
  fieldsV1(k: string, v: unknown, pointer: boolean, omit: boolean): void;
  bail(): never;
}

/** A reader of an already parsed JSON value (a JS value), member by member. */
export interface JsonValueReader {
  /** \`v\` as a plain object (anything else bails). */
  object(v: unknown): { [key: string]: unknown };
  array(v: unknown): readonly unknown[];
  string(v: unknown): string;
  boolean(v: unknown): boolean;
  integer32(v: unknown): number;
  integer64(v: unknown): bigint;
  time(m: Message, v: unknown): void;
  intOrString(m: Message, v: unknown): void;
  fieldsV1(m: Message, v: unknown): void;
  /** A map of strings (null values are ""), into an empty map. */
  stringMap(map: { [key: string]: string }, v: unknown): void;
  /** kind / apiVersion in a kind: a string or null. */
  typeMeta(v: unknown): void;
  /** A key the message has no field for. */
  unknown(): void;
  bail(): never;
}

/** A message's JSON readers and writer. */
export interface JsonCodec {
  readonly create: () => Message;
  /**
   * Reads the message's JSON object at nesting \`depth\`; for a kind, \`afterTypeMeta\` says the
   * reader is already inside the object, past a first \`"kind":"...","apiVersion":"...",\` the
   * caller has checked (and the whitespace after it).
   */
  readonly read: (r: JsonReader, m: never, depth: number, afterTypeMeta?: boolean) => void;
  readonly readValue: (r: JsonValueReader, o: { [key: string]: unknown }, m: never) => void;
  readonly write: (w: JsonWriter, m: never) => void;
}

/** How the generated readers switch on a key: its length and first UTF-16 unit. */
export function jsonKeyCode(key: string): number {
  return key.length * 65536 + (key.length === 0 ? 0 : key.charCodeAt(0));
}
`;

/** The same code as the runtime's jsonKeyCode (tests hold the generated cases to it). */
function keyCode(key: string): number {
  return key.length * 65536 + (key.length === 0 ? 0 : key.charCodeAt(0));
}

export const jsonEmitter: Emitter = {
  name: "JSON codecs",
  shared(schema) {
    writeRuntimeFile(schema, `${JSON_RUNTIME}.ts`, RUNTIME_SOURCE);
  },
  file(schema, file) {
    const messages = allMessages(file.messages).filter((m) => !SPECIAL.has(m.typeName));
    if (messages.length === 0) return;
    const f = schema.generateFile(`${file.name}_json.ts`);
    f.preamble(file);
    const rt: RuntimeTypes = {
      reader: f.import("JsonReader", `./${JSON_RUNTIME}.js`, true),
      writer: f.import("JsonWriter", `./${JSON_RUNTIME}.js`, true),
      codec: f.import("JsonCodec", `./${JSON_RUNTIME}.js`, true),
      valueReader: f.import("JsonValueReader", `./${JSON_RUNTIME}.js`, true),
    };
    const nullDeletes = messages.some((m) => routesOf(shapeOf(m)).some((r) => deletesOnNull(r.fs)));
    if (nullDeletes) f.print("type Any = Record<string, unknown>;");
    for (const desc of messages) emitMessage(f, file, desc, shapeOf(desc), rt);
    f.print();
    f.print(f.jsDoc("Every message of this file with its JSON reader and writer, by type name."));
    f.print(f.export("const", "jsonCodecs"), ": { readonly [typeName: string]: ", rt.codec, " } = {");
    for (const desc of messages) {
      const n = desc.name;
      const create = fn(f, file, desc, "new");
      f.print(
        `  ${JSON.stringify(desc.typeName)}: { create: `,
        create,
        `, read: readJson${n}, readValue: readValue${n}, write: writeJson${n} },`,
      );
    }
    f.print("} as never;");
  },
};

/** Messages with a JSON form of their own, read and written by the runtime. */
const SPECIAL = new Set([TIME_TYPE, INT_OR_STRING_TYPE, FIELDS_V1_TYPE]);

/** The messages that are kinds embed TypeMeta: kind and apiVersion are known keys there. */
const KIND_TYPES: ReadonlySet<string> = new Set(KIND_NAMES.map((k) => k.typeName));

interface RuntimeTypes {
  readonly valueReader: ImportSymbol;
  readonly reader: ImportSymbol;
  readonly writer: ImportSymbol;
  readonly codec: ImportSymbol;
}

/** A generated function: `new`/`zero` from the binary emitter's file, `readJson`/`writeJson` from this emitter's. */
function fn(
  f: GeneratedFile,
  here: DescFile,
  desc: DescMessage,
  prefix: "new" | "zero" | "readJson" | "readValue" | "writeJson",
): ImportSymbol | string {
  const name = prefix + desc.name;
  if (prefix === "new" || prefix === "zero") return f.import(name, `./${desc.file.name}_bin.js`);
  return desc.file === here ? name : f.import(name, `./${desc.file.name}_json.js`);
}

type Value = "string" | "bool" | "int32" | "int64" | "bytes" | "message" | "time" | "intOrString" | "fieldsV1";

function valueKindOf(fs: FieldShape): Value {
  const f = fs.field;
  const msg = f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message") ? f.message : undefined;
  if (msg !== undefined) {
    if (msg.typeName === TIME_TYPE) return "time";
    if (msg.typeName === INT_OR_STRING_TYPE) return "intOrString";
    if (msg.typeName === FIELDS_V1_TYPE) return "fieldsV1";
    return "message";
  }
  const t = f.fieldKind === "scalar" || f.fieldKind === "list" ? f.scalar : ScalarType.STRING;
  switch (t) {
    case ScalarType.STRING:
      return "string";
    case ScalarType.BOOL:
      return "bool";
    case ScalarType.INT32:
      return "int32";
    case ScalarType.INT64:
      return "int64";
    case ScalarType.BYTES:
      return "bytes";
    default:
      throw new Error(`${f.toString()}: scalar type ${ScalarType[t as ScalarType]} is not supported`);
  }
}

/** A JSON key as the writer prints it: quoted, with its colon. Keys are plain names, so JSON.stringify quotes them as Go does. */
function keyLiteral(key: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(key)) throw new Error(`JSON key ${key} is not a plain name`);
  return JSON.stringify(`${JSON.stringify(key)}:`);
}

interface Route {
  readonly key: string;
  readonly fs: FieldShape;
  /** The inlined struct field the key sits in, if any. */
  readonly inline: FieldShape | undefined;
}

/** The JSON keys of a message, through inlined structs (IngressRule's `http`). */
function routesOf(shape: MessageShape): Route[] {
  const routes: Route[] = [];
  for (const fs of shape.goOrder) {
    if (fs.inline) {
      for (const inner of shapeOf(fs.field.message as DescMessage).goOrder) {
        if (inner.jsonKey !== undefined) routes.push({ key: inner.jsonKey, fs: inner, inline: fs });
      }
    } else if (fs.jsonKey !== undefined) {
      routes.push({ key: fs.jsonKey, fs, inline: undefined });
    }
  }
  return routes;
}

/** Go's null removes a pointer (and a Time, through its UnmarshalJSON); for these the reader deletes the property. */
function deletesOnNull(fs: FieldShape): boolean {
  const f = fs.field;
  if (f.fieldKind === "message") return fs.pointer || f.message.typeName === TIME_TYPE;
  return f.fieldKind === "scalar" && fs.pointer && valueKindOf(fs) !== "bytes";
}

function emitMessage(f: GeneratedFile, here: DescFile, desc: DescMessage, shape: MessageShape, rt: RuntimeTypes): void {
  const T = f.importShape(desc);
  const name = desc.name;
  const child = (fs: FieldShape, prefix: "new" | "zero" | "readJson" | "readValue" | "writeJson") =>
    fn(f, here, fs.field.message as DescMessage, prefix);

  // ---- reader
  const routes = routesOf(shape);
  const typeMeta = KIND_TYPES.has(desc.typeName);
  // In Go's order: TypeMeta's kind and apiVersion come first.
  const keys = [...(typeMeta ? ["kind", "apiVersion"] : []), ...routes.map((r) => r.key)];
  if (keys.length > 30) throw new Error(`${desc.typeName} has too many JSON keys for a seen-set`);
  const byCode = new Map<number, string[]>();
  for (const k of keys) byCode.set(keyCode(k), [...(byCode.get(keyCode(k)) ?? []), k]);

  // Servers write keys in Go's field order (TypeMeta's first), skipping omitted ones: the
  // reader first looks for the key among those after the last one read, compared in place
  // (measured: scanning each key and then switching on it was the largest per-key cost of
  // dense objects), and only when that fails reads the key and switches on it.
  // The comparisons are written out unit by unit against constants (measured: a loop over
  // the key's units in the reader was two fifths of the readers' own time on the corpus).
  f.print();
  f.print(
    f.jsDoc(
      `The index of the first of ${name}'s keys from \`from\` on (in Go's order) that the text at the reader's position spells exactly, quoted and with its colon, read with its colon; or -1 (nothing read).`,
    ),
  );
  f.print(`function guess${name}(r: `, rt.reader, ", from: number): number {");
  f.print("  const t = r.text;");
  f.print("  const p = r.pos;");
  f.print("  if (t.charCodeAt(p) !== 34) return -1;");
  for (const [j, k] of keys.entries()) {
    const quoted = `${JSON.stringify(k)}:`;
    if (quoted !== `"${k}":` || !/^[\x21-\x7e]+$/.test(k))
      throw new Error(`${desc.typeName}: JSON key ${quoted} is not plain ASCII`);
    const units = [...quoted].slice(1).map((c, i) => `t.charCodeAt(p + ${i + 1}) === ${c.charCodeAt(0)}`);
    f.print(`  if (from <= ${j} && ${units.join(" && ")}) {`);
    f.print(`    r.pos = p + ${quoted.length};`);
    f.print(`    if (t.charCodeAt(p + ${quoted.length}) <= 32) r.ws();`);
    f.print(`    return ${j};`);
    f.print("  }");
  }
  f.print("  return -1;");
  f.print("}");
  f.print();
  f.print(f.jsDoc(`The index among ${name}'s keys of the key at the reader's position (read with its colon), or -1.`));
  f.print(`function keyOf${name}(r: `, rt.reader, "): number {");
  f.print("  switch (r.key()) {");
  for (const [code, ks] of [...byCode].sort((a, b) => a[0] - b[0])) {
    f.print(`    case ${code}:`);
    for (const k of ks) f.print(`      if (r.keyIs(${JSON.stringify(k)})) return ${keys.indexOf(k)};`);
    f.print("      return -1;");
  }
  f.print("    default:");
  f.print("      return -1;");
  f.print("  }");
  f.print("}");
  f.print();
  f.print(
    f.jsDoc(
      `Reads the JSON object of a ${desc.typeName} at the reader's position, at nesting \`depth\`, into the new message \`m\`${typeMeta ? " (with `afterTypeMeta`, from inside it, past its kind and apiVersion: see JsonCodec.read)" : ""}.`,
    ),
  );
  if (typeMeta) {
    // A caller that has matched the head servers write (kind, then apiVersion) starts past it
    // (measured: guessing and passing over those two members was a tenth of a small object).
    f.print(
      f.export("function", `readJson${name}`),
      "(r: ",
      rt.reader,
      ", m: ",
      T,
      ", depth: number, afterTypeMeta = false): void {",
    );
    f.print("  if (afterTypeMeta || r.open(depth)) {");
    f.print("    let seen = afterTypeMeta ? 3 : 0;");
    f.print("    let from = afterTypeMeta ? 2 : 0;");
  } else {
    f.print(f.export("function", `readJson${name}`), "(r: ", rt.reader, ", m: ", T, ", depth: number): void {");
    f.print("  if (r.open(depth)) {");
    f.print("    let seen = 0;");
    f.print("    let from = 0;");
  }
  f.print("    do {");
  f.print(`      let i = guess${name}(r, from);`);
  f.print(`      if (i < 0) i = keyOf${name}(r);`);
  f.print("      if (i >= 0) from = i + 1;");
  f.print("      switch (i) {");
  for (const k of keys) {
    const bit = 1 << keys.indexOf(k);
    f.print(`        case ${keys.indexOf(k)}: {`);
    f.print(`            if ((seen & ${bit}) !== 0) r.bail();`);
    f.print(`            seen |= ${bit};`);
    const route = routes.find((r) => r.key === k);
    if (route === undefined) {
      // kind / apiVersion of a kind: strings (or null), otherwise ignored.
      f.print("            if (!r.isNull()) r.typeMeta();");
    } else {
      emitReadField(f, route.fs, emitTarget(f, route, "            ", child), child);
    }
    f.print("            break;");
    f.print("        }");
  }
  f.print("        default:");
  f.print("          r.unknown(depth);");
  f.print("      }");
  f.print("    } while (r.next());");
  f.print("  }");
  emitZeroStructs(f, shape, child);
  f.print("}");

  // ---- value reader (fromJson of an already parsed value)
  f.print();
  f.print(
    f.jsDoc(`Reads the members of the parsed JSON object \`o\` of a ${desc.typeName} into the new message \`m\`.`),
  );
  f.print(
    f.export("function", `readValue${name}`),
    "(r: ",
    rt.valueReader,
    ", o: { [key: string]: unknown }, m: ",
    T,
    "): void {",
  );
  f.print("  const keys = Object.keys(o);");
  f.print("  for (let i = 0; i < keys.length; i++) {");
  f.print("    const k = keys[i]!;");
  f.print("    const v = o[k];");
  f.print("    // An undefined member is an absent one (JSON has no undefined).");
  f.print("    if (v === undefined) continue;");
  f.print("    switch (k) {");
  for (const k of keys) {
    f.print(`      case ${JSON.stringify(k)}: {`);
    const route = routes.find((r) => r.key === k);
    if (route === undefined) {
      f.print("        r.typeMeta(v);");
    } else {
      emitReadValueField(f, route.fs, emitTarget(f, route, "        ", child), child);
    }
    f.print("        break;");
    f.print("      }");
  }
  f.print("      default:");
  f.print("        r.unknown();");
  f.print("    }");
  f.print("  }");
  emitZeroStructs(f, shape, child);
  f.print("}");

  // ---- writer
  f.print();
  f.print(f.jsDoc(`Writes the members of a ${desc.typeName} (or of Go's zero one, for undefined) in Go's order.`));
  f.print(f.export("function", `writeJson${name}`), "(w: ", rt.writer, ", m: ", T, " | undefined): void {");
  for (const fs of shape.goOrder) emitWriteField(f, fs, child);
  f.print("}");
}

/**
 * Where a member's value goes: the message `m`, or for a member of an inlined
 * struct (IngressRule's IngressRuleValue) that struct, created on first use
 * and named `t`. Prints the creation at `ind` and returns the name.
 */
function emitTarget(f: GeneratedFile, route: Route, ind: string, child: Child): string {
  if (route.inline === undefined) return "m";
  const il = route.inline.localName;
  f.print(`${ind}if (m.${il} === undefined) m.${il} = `, child(route.inline, "new"), "();");
  f.print(`${ind}const t = m.${il};`);
  return "t";
}

/** Go's zero value for every non-pointer struct member the input left out. */
function emitZeroStructs(f: GeneratedFile, shape: MessageShape, child: Child): void {
  for (const fs of shape.wireOrder) {
    if (fs.field.fieldKind === "message" && !fs.pointer)
      f.print(`  if (m.${fs.localName} === undefined) m.${fs.localName} = `, child(fs, "zero"), "();");
  }
}

type Child = (fs: FieldShape, prefix: "new" | "zero" | "readJson" | "readValue" | "writeJson") => ImportSymbol | string;

const READ: Record<string, string> = {
  string: "r.string()",
  bool: "r.boolean()",
  int32: "r.integer32()",
  int64: "r.integer64()",
  bytes: "r.bail()",
};
const ZERO: Record<string, string> = { string: '""', bool: "false", int32: "0", int64: "0n", bytes: "r.bail()" };

function emitReadField(f: GeneratedFile, fs: FieldShape, m: string, child: Child): void {
  const field = fs.field;
  const p = `${m}.${fs.localName}`;
  const value = valueKindOf(fs);
  const ind = "            ";
  // Go: null resets pointers, slices and maps (and a Time, through its UnmarshalJSON); it leaves other values alone.
  switch (field.fieldKind) {
    case "list": {
      f.print(`${ind}if (r.isNull()) ${p} = [];`);
      f.print(`${ind}else {`);
      f.print(
        `${ind}  const l: `,
        field.listKind === "message" ? f.importShape(field.message) : tsScalar(value),
        "[] = [];",
      );
      f.print(`${ind}  if (r.openList(depth + 1)) {`);
      f.print(`${ind}    do {`);
      if (value === "message") {
        f.print(`${ind}      if (r.isNull()) l.push(`, child(fs, "zero"), "());");
        f.print(`${ind}      else {`);
        f.print(`${ind}        const s = `, child(fs, "new"), "();");
        f.print(`${ind}        `, child(fs, "readJson"), "(r, s, depth + 2);");
        f.print(`${ind}        l.push(s);`);
        f.print(`${ind}      }`);
      } else if (value === "string" || value === "bool" || value === "int32" || value === "int64") {
        f.print(`${ind}      l.push(r.isNull() ? ${ZERO[value]} : ${READ[value]});`);
      } else {
        f.print(`${ind}      r.bail();`);
      }
      f.print(`${ind}    } while (r.nextItem());`);
      f.print(`${ind}  }`);
      f.print(`${ind}  ${p} = l;`);
      f.print(`${ind}}`);
      return;
    }
    case "map":
      f.print(`${ind}if (r.isNull()) ${p} = {};`);
      f.print(`${ind}else r.stringMap(${p}, depth + 1);`);
      return;
    case "message": {
      if (deletesOnNull(fs)) {
        f.print(`${ind}if (r.isNull()) {`);
        f.print(`${ind}  delete (${m} as unknown as Any)[${JSON.stringify(fs.localName)}];`);
        f.print(`${ind}} else {`);
      } else {
        f.print(`${ind}if (!r.isNull()) {`);
      }
      f.print(`${ind}  const s = `, child(fs, "new"), "();");
      switch (value) {
        case "time":
          f.print(`${ind}  r.time(s);`);
          break;
        case "intOrString":
          f.print(`${ind}  r.intOrString(s);`);
          break;
        case "fieldsV1":
          f.print(`${ind}  r.fieldsV1(s, depth);`);
          break;
        default:
          f.print(`${ind}  `, child(fs, "readJson"), "(r, s, depth + 1);");
      }
      f.print(`${ind}  ${p} = s;`);
      f.print(`${ind}}`);
      return;
    }
    case "scalar":
      if (value === "bytes") {
        f.print(`${ind}r.bail();`);
        return;
      }
      if (fs.pointer) {
        f.print(`${ind}if (r.isNull()) delete (${m} as unknown as Any)[${JSON.stringify(fs.localName)}];`);
        f.print(`${ind}else ${p} = ${READ[value]};`);
      } else {
        f.print(`${ind}if (!r.isNull()) ${p} = ${READ[value]};`);
      }
      return;
    default:
      throw new Error(`${field.toString()}: unsupported field kind`);
  }
}

const READ_VALUE: Record<string, string> = {
  string: "r.string(v)",
  bool: "r.boolean(v)",
  int32: "r.integer32(v)",
  int64: "r.integer64(v)",
  bytes: "r.bail()",
};

/** One member `v` of a parsed object into field `fs` of `m`; null as in emitReadField. */
function emitReadValueField(f: GeneratedFile, fs: FieldShape, m: string, child: Child): void {
  const field = fs.field;
  const p = `${m}.${fs.localName}`;
  const value = valueKindOf(fs);
  const ind = "        ";
  switch (field.fieldKind) {
    case "list": {
      f.print(`${ind}if (v === null) ${p} = [];`);
      f.print(`${ind}else {`);
      f.print(`${ind}  const a = r.array(v);`);
      f.print(
        `${ind}  const l: `,
        field.listKind === "message" ? f.importShape(field.message) : tsScalar(value),
        "[] = [];",
      );
      f.print(`${ind}  for (let j = 0; j < a.length; j++) {`);
      f.print(`${ind}    const e = a[j];`);
      if (value === "message") {
        f.print(`${ind}    if (e === null) l.push(`, child(fs, "zero"), "());");
        f.print(`${ind}    else {`);
        f.print(`${ind}      const s = `, child(fs, "new"), "();");
        f.print(`${ind}      `, child(fs, "readValue"), "(r, r.object(e), s);");
        f.print(`${ind}      l.push(s);`);
        f.print(`${ind}    }`);
      } else if (value === "string" || value === "bool" || value === "int32" || value === "int64") {
        f.print(
          `${ind}    l.push(e === null ? ${ZERO[value]} : ${(READ_VALUE[value] as string).replace("(v)", "(e)")});`,
        );
      } else {
        f.print(`${ind}    r.bail();`);
      }
      f.print(`${ind}  }`);
      f.print(`${ind}  ${p} = l;`);
      f.print(`${ind}}`);
      return;
    }
    case "map":
      f.print(`${ind}if (v === null) ${p} = {};`);
      f.print(`${ind}else r.stringMap(${p}, v);`);
      return;
    case "message": {
      if (deletesOnNull(fs)) {
        f.print(`${ind}if (v === null) {`);
        f.print(`${ind}  delete (${m} as unknown as Any)[${JSON.stringify(fs.localName)}];`);
        f.print(`${ind}} else {`);
      } else {
        f.print(`${ind}if (v !== null) {`);
      }
      f.print(`${ind}  const s = `, child(fs, "new"), "();");
      switch (value) {
        case "time":
          f.print(`${ind}  r.time(s, v);`);
          break;
        case "intOrString":
          f.print(`${ind}  r.intOrString(s, v);`);
          break;
        case "fieldsV1":
          f.print(`${ind}  r.fieldsV1(s, v);`);
          break;
        default:
          f.print(`${ind}  `, child(fs, "readValue"), "(r, r.object(v), s);");
      }
      f.print(`${ind}  ${p} = s;`);
      f.print(`${ind}}`);
      return;
    }
    case "scalar":
      if (value === "bytes") {
        f.print(`${ind}r.bail();`);
        return;
      }
      if (fs.pointer) {
        f.print(`${ind}if (v === null) delete (${m} as unknown as Any)[${JSON.stringify(fs.localName)}];`);
        f.print(`${ind}else ${p} = ${READ_VALUE[value]};`);
      } else {
        f.print(`${ind}if (v !== null) ${p} = ${READ_VALUE[value]};`);
      }
      return;
    default:
      throw new Error(`${field.toString()}: unsupported field kind`);
  }
}

function tsScalar(value: Value): string {
  switch (value) {
    case "string":
      return "string";
    case "bool":
      return "boolean";
    case "int32":
      return "number";
    case "int64":
      return "bigint";
    default:
      return "never";
  }
}

const SCALAR_WRITE: Record<string, string> = { string: "str", bool: "bool", int32: "i32", int64: "i64" };
const SCALAR_ZERO: Record<string, string> = { string: '""', bool: "false", int32: "0", int64: "0n" };
const SCALAR_TYPE: Record<string, ScalarType> = {
  string: ScalarType.STRING,
  bool: ScalarType.BOOL,
  int32: ScalarType.INT32,
  int64: ScalarType.INT64,
};

function emitWriteField(f: GeneratedFile, fs: FieldShape, child: Child): void {
  const field = fs.field;
  const value = valueKindOf(fs);
  const get = `m?.${fs.localName}`;
  if (fs.inline) {
    // An embedded struct: its members join this object.
    f.print("  ", child(fs, "writeJson"), `(w, ${get});`);
    return;
  }
  const k = keyLiteral(fs.jsonKey as string);
  const omit = String(fs.omitEmpty);
  f.print("  {");
  switch (field.fieldKind) {
    case "scalar": {
      if (value === "bytes") {
        f.print("    w.bail();");
        break;
      }
      const write = SCALAR_WRITE[value] as string;
      const zero = SCALAR_ZERO[value] as string;
      if (fs.pointer) {
        f.print(
          `    if (m !== undefined && Object.prototype.hasOwnProperty.call(m, ${JSON.stringify(fs.localName)})) {`,
        );
        f.print(`      w.key(${k});`);
        f.print(`      w.${write}(m.${fs.localName});`);
        if (!fs.omitEmpty) f.print(`    } else {`, `\n      w.key(${k});`, `\n      w.out += "null";`);
        f.print("    }");
      } else {
        // Absent reads as the zero value; a value of the wrong type is never equal to the zero.
        f.print(`    const v = ${get};`);
        if (fs.omitEmpty) {
          f.print(`    if (v !== undefined && v !== ${zero}) {`);
          f.print(`      w.key(${k});`);
          f.print(`      w.${write}(v);`);
          f.print("    }");
        } else {
          f.print(`    w.key(${k});`);
          f.print(`    w.${write}(v === undefined ? ${zero} : v);`);
        }
      }
      break;
    }
    case "message":
      switch (value) {
        case "time":
          f.print(`    w.time(${k}, ${get}, ${fs.pointer}, ${omit}, ${fs.omitZero});`);
          break;
        case "intOrString":
          f.print(`    w.intOrString(${k}, ${get}, ${fs.pointer}, ${omit});`);
          break;
        case "fieldsV1":
          f.print(`    w.fieldsV1(${k}, ${get}, ${fs.pointer}, ${omit});`);
          break;
        default:
          f.print(`    const s = ${get};`);
          if (fs.pointer) {
            f.print("    if (s === undefined) {");
            if (!fs.omitEmpty) f.print(`      w.key(${k});`, `\n      w.out += "null";`);
            f.print("    } else {");
          } else {
            f.print("    {");
          }
          f.print("      if (s !== undefined) w.message(s);");
          f.print(`      w.key(${k});`);
          f.print("      w.open();");
          f.print("      ", child(fs, "writeJson"), "(w, s);");
          f.print("      w.close();");
          f.print("    }");
      }
      break;
    case "list":
      if (value === "message") {
        f.print(`    const l = ${get};`);
        f.print(`    if (w.listStart(${k}, l, ${omit})) {`);
        f.print("      const a = l as unknown[];");
        f.print("      for (let i = 0; i < a.length; i++) {");
        f.print('        if (i > 0) w.out += ",";');
        f.print("        const s = a[i];");
        f.print("        w.message(s);");
        f.print("        w.open();");
        f.print("        ", child(fs, "writeJson"), "(w, s as ", f.importShape(field.message as DescMessage), ");");
        f.print("        w.close();");
        f.print("      }");
        f.print("      w.listEnd();");
        f.print("    }");
      } else if (value in SCALAR_TYPE) {
        f.print(`    w.scalarList(${k}, ${get}, ${SCALAR_TYPE[value]}, ${omit});`);
      } else {
        f.print("    w.bail();");
      }
      break;
    case "map":
      f.print(`    w.map(${k}, ${get}, ${omit});`);
      break;
    default:
      throw new Error(`${field.toString()}: unsupported field kind`);
  }
  f.print("  }");
}
