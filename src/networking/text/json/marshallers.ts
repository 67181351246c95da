import { ScalarType, type Message } from "@bufbuild/protobuf";
import { scalarMismatch } from "../../model/value-checks.js";
import { DecodeError, EncodeError } from "../../model/errors.js";
import { utf8OrUndefined } from "../../model/utf8.js";
import { parseJsonText } from "./parse.js";
import { RawJson, type PrintableValue } from "./print.js";

/*
 * The JSON of the messages whose Go types marshal themselves (IntOrString,
 * FieldsV1), shared by the generic writer (to-json.ts) and the generated
 * writers' runtime (json-fast-write.ts).
 */

type AnyMessage = Message & Record<string, unknown>;

/** Throws an EncodeError for a type mismatch, at `path` below the current field. */
export function check(reason: string | undefined, path = ""): void {
  if (reason !== undefined) throw new EncodeError(reason, path);
}

export function intOrString(sub: AnyMessage | undefined): PrintableValue {
  const type = (sub?.["type"] as bigint | undefined) ?? 0n;
  check(scalarMismatch(ScalarType.INT64, type), "type");
  if (type === 0n) {
    const v = (sub?.["intVal"] as number | undefined) ?? 0;
    check(scalarMismatch(ScalarType.INT32, v), "intVal");
    return v;
  }
  if (type === 1n) {
    const v = (sub?.["strVal"] as string | undefined) ?? "";
    check(scalarMismatch(ScalarType.STRING, v), "strVal");
    return v;
  }
  throw new EncodeError(`IntOrString has type ${type}; only 0 (int) and 1 (string) exist`, "");
}

export function fieldsV1(sub: AnyMessage | undefined): PrintableValue {
  const raw = sub?.["Raw"] as Uint8Array | undefined;
  if (raw !== undefined) check(scalarMismatch(ScalarType.BYTES, raw), "Raw");
  if (raw === undefined || raw.length === 0) return null;
  const text = utf8OrUndefined(raw);
  if (text === undefined) throw new EncodeError("fieldsV1 holds bytes that are not UTF-8 JSON", "");
  try {
    return new RawJson(text, parseJsonText(text).value);
  } catch (e) {
    throw new EncodeError(`fieldsV1 is not valid JSON: ${e instanceof DecodeError ? e.reason : String(e)}`, "");
  }
}
