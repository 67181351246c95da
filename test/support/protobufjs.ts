// A second, independent protobuf decoder for tests: protobufjs reading the very
// same .proto files under proto/ at run time (no code generation involved).
// Tests use it as an oracle next to the protobuf-es code in gen/.
//
// Output conventions of oracleDecode (chosen so that the result can be compared
// with a protobuf-es message directly, see ORACLE_TO_OBJECT_OPTIONS):
//
// * Keys are the proto field names exactly as written in the .proto files
//   (`keepCase: true`), e.g. `aPIGroup`, `Raw`, `ingressRuleValue`. For our
//   files these equal protobuf-es's localName of each field.
// * Presence-exact: only fields that occurred on the wire appear. A proto2
//   optional field that Go wrote as an empty value (`""`, `0`, empty message)
//   does appear, with that empty value; a field that was absent does not. Empty
//   repeated and map fields are absent (the wire cannot tell empty from unset).
// * int64 values are `bigint` (as in protobuf-es), int32 values are `number`,
//   bytes are `Uint8Array` (never a Node `Buffer`), maps are plain objects,
//   repeated fields are arrays.
// * Unknown fields are kept: a message that carried unknown fields gets a
//   `$unknown` array of `{ no, wireType, data }` records in wire order, where
//   `data` is everything after the tag (for length-delimited fields this
//   includes the length prefix). That is the shape protobuf-es uses for
//   `message.$unknown`.

import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import type { IConversionOptions, Message, Root, Type } from "protobufjs";

/** Directory holding our .proto files (imports such as `k8s/io/...` are relative to it). */
export const PROTO_ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), "../../proto");

/** The files loaded into the oracle; their imports pull in nothing else. */
export const ORACLE_PROTO_FILES: readonly string[] = [
  "k8s/io/apimachinery/pkg/runtime/runtime.proto",
  "k8s/io/apimachinery/pkg/util/intstr/intstr.proto",
  "k8s/io/apimachinery/pkg/apis/meta/v1/meta.proto",
  "k8s/io/api/core/v1/core.proto",
  "k8s/io/api/networking/v1/networking.proto",
];

/**
 * Options passed to protobufjs `Type.toObject`.
 *
 * - `longs: BigInt`: int64 fields become `bigint`, the type protobuf-es uses for
 *   int64 (no precision loss for the huge values in the old fuzzed fixtures,
 *   and no string/number mismatch when comparing).
 * - `bytes` left unset: bytes stay `Uint8Array` (the decoder input is always a
 *   plain Uint8Array, so they are never Buffers), as in protobuf-es.
 * - `defaults: false`, `arrays: false`, `objects: false`: nothing is invented
 *   for fields that were not on the wire, so the result shows exactly what the
 *   encoder wrote. This is what matters for Go parity (ALW vs SET fields).
 *   protobuf-es always materialises every field, so compare against a
 *   projection of the protobuf-es message onto its set fields (`isFieldSet`).
 * - `enums`, `oneofs`, `json`: not set; our files have no enums, oneofs or
 *   floating-point fields.
 */
export const ORACLE_TO_OBJECT_OPTIONS: Readonly<IConversionOptions> = Object.freeze({
  longs: BigInt,
  defaults: false,
  arrays: false,
  objects: false,
});

/** One unknown field, shaped like protobuf-es's `UnknownField`. */
export interface OracleUnknownField {
  no: number;
  wireType: number;
  data: Uint8Array;
}

let cachedRoot: Root | undefined;

/** The protobufjs Root with all our .proto files loaded and resolved (cached). */
export function loadOracle(): Root {
  if (cachedRoot !== undefined) return cachedRoot;
  const root = new protobuf.Root();
  // Imports name files relative to proto/ ("k8s/io/..."), not to the importing file.
  root.resolvePath = (_origin: string, target: string): string =>
    isAbsolute(target) ? target : resolve(PROTO_ROOT, target);
  root.loadSync([...ORACLE_PROTO_FILES], { keepCase: true });
  root.resolveAll();
  cachedRoot = root;
  return root;
}

/**
 * Decodes `bytes` as the message `typeName` (fully qualified, with or without a
 * leading dot, e.g. "k8s.io.api.networking.v1.Ingress") and returns a plain
 * object following the conventions described at the top of this file.
 * Throws if the type is unknown or the bytes are not a valid encoding.
 */
export function oracleDecode(typeName: string, bytes: Uint8Array): Record<string, unknown> {
  const type = loadOracle().lookupType(typeName);
  // Copy into a plain Uint8Array: protobufjs would use its Buffer reader for a Node
  // Buffer (and hand out Buffers for bytes fields), and bytes fields are views
  // into the input, which must not alias the caller's memory.
  const input = new Uint8Array(bytes);
  const reader = protobuf.Reader.create(input);
  reader.discardUnknown = false; // protobufjs 8 drops unknown fields by default
  const message = type.decode(reader);
  if (reader.pos !== input.length) {
    throw new Error(`oracleDecode(${typeName}): stopped at byte ${reader.pos} of ${input.length}`);
  }
  const object = type.toObject(message, ORACLE_TO_OBJECT_OPTIONS) as Record<string, unknown>;
  attachUnknownFields(type, message, object);
  return object;
}

/** Strips the "k8s\0" magic and decodes the runtime.Unknown envelope of a Kubernetes .pb body. */
export function oracleDecodeEnvelope(body: Uint8Array): Record<string, unknown> {
  const magic = [0x6b, 0x38, 0x73, 0x00];
  if (body.length < 4 || magic.some((b, i) => body[i] !== b)) {
    throw new Error("oracleDecodeEnvelope: body does not start with the k8s\\0 magic");
  }
  return oracleDecode("k8s.io.apimachinery.pkg.runtime.Unknown", body.subarray(4));
}

type DecodedMessage = Message & { $unknowns?: Uint8Array[]; [field: string]: unknown };

// protobufjs keeps unknown fields in a non-enumerable `$unknowns` array of raw
// records (tag included) that toObject does not copy; walk the message and the
// converted object side by side and copy them over as `$unknown`.
function attachUnknownFields(type: Type, message: Message, object: Record<string, unknown>): void {
  const decoded = message as DecodedMessage;
  const raw = Object.hasOwn(decoded, "$unknowns") ? decoded.$unknowns : undefined;
  if (raw !== undefined && raw.length > 0) {
    object["$unknown"] = raw.map(splitUnknownRecord);
  }
  for (const field of type.fieldsArray) {
    const fieldType = field.resolvedType;
    if (fieldType === null || !(fieldType instanceof protobuf.Type)) continue;
    const value = decoded[field.name];
    const converted = object[field.name];
    if (value == null || converted == null) continue;
    if (field.map) {
      const values = value as Record<string, Message>;
      const objects = converted as Record<string, Record<string, unknown>>;
      for (const key of Object.keys(objects)) {
        const v = values[key];
        const o = objects[key];
        if (v !== undefined && o !== undefined) attachUnknownFields(fieldType, v, o);
      }
    } else if (field.repeated) {
      const values = value as Message[];
      const objects = converted as Record<string, unknown>[];
      objects.forEach((o, i) => {
        const v = values[i];
        if (v !== undefined) attachUnknownFields(fieldType, v, o);
      });
    } else {
      attachUnknownFields(fieldType, value as Message, converted as Record<string, unknown>);
    }
  }
}

function splitUnknownRecord(record: Uint8Array): OracleUnknownField {
  // The record starts with its tag varint: (field number << 3) | wire type.
  let tag = 0;
  let shift = 0;
  let i = 0;
  for (;;) {
    const b = record[i];
    if (b === undefined) throw new Error("oracleDecode: truncated unknown field tag");
    i++;
    tag += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) break;
    shift += 7;
    if (shift > 28) throw new Error("oracleDecode: unknown field tag too long");
  }
  return { no: Math.floor(tag / 8), wireType: tag % 8, data: record.slice(i) };
}
