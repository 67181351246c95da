import type { JsonValue } from "../../model/json-value.js";
import { quoteGo } from "../../model/go-json-string.js";
import { compareUtf8 } from "../../model/utf8.js";
import { DuplicateKey, FloatLiteral, type ParsedValue } from "./parse.js";

// ---------------------------------------------------------------- printing

/**
 * JSON text embedded verbatim (Go's json.RawMessage-style marshallers such as
 * FieldsV1). The printer compacts or re-indents it as encoding/json does.
 */
export class RawJson {
  constructor(
    readonly text: string,
    /** The parsed text, keeping key order, duplicates and number spelling. */
    readonly value: ParsedValue,
  ) {}
}

/**
 * A Go map: entries in Go's order (byte order of the keys). A JS object
 * cannot carry that order, because it puts integer-like keys first.
 */
export class GoMap {
  constructor(readonly entries: readonly (readonly [string, string])[]) {}
}

export type PrintableValue =
  | JsonValue
  | RawJson
  | GoMap
  | FloatLiteral
  | DuplicateKey
  | PrintableValue[]
  | { [key: string]: PrintableValue };

/**
 * Prints like Go's encoding/json: json.Marshal when `indent` is empty,
 * json.MarshalIndent(v, "", indent) otherwise. Strings are escaped as Go does,
 * including `<`, `>`, `&`, U+2028 and U+2029. Object keys keep their order.
 */
export function printGoJson(value: PrintableValue, indent = ""): string {
  return write(value, indent, "");
}

function write(v: PrintableValue, indent: string, prefix: string): string {
  switch (typeof v) {
    case "string":
      return quoteGo(v);
    case "number":
      if (!Number.isFinite(v)) throw new TypeError(`cannot print ${v} as JSON`);
      return Object.is(v, -0) ? "-0" : String(v);
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v.toString();
    default:
      break;
  }
  if (v === null) return "null";
  const inner = indent === "" ? "" : prefix + indent;
  const nl = indent === "" ? "" : "\n";
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    let out = "[";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out += ",";
      out += nl + inner + write(v[i] as PrintableValue, indent, inner);
    }
    return out + nl + prefix + "]";
  }
  if (v instanceof GoMap) {
    if (v.entries.length === 0) return "{}";
    const colon = indent === "" ? ":" : ": ";
    let out = "{";
    for (let i = 0; i < v.entries.length; i++) {
      const [k, val] = v.entries[i] as readonly [string, string];
      out += (i > 0 ? "," : "") + nl + inner + quoteGo(k) + colon + quoteGo(val);
    }
    return out + nl + prefix + "}";
  }
  if (v instanceof RawJson) return reformatRaw(v.text, indent, prefix);
  if (v instanceof FloatLiteral) return v.text;
  if (v instanceof DuplicateKey) throw new TypeError("a duplicate key can only be printed inside its object");
  const obj = v as { [key: string]: PrintableValue };
  const keys = Object.keys(obj);
  if (keys.length === 0) return "{}";
  const colon = indent === "" ? ":" : ": ";
  let out = "{";
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const item = obj[k] as PrintableValue;
    if (item instanceof DuplicateKey) {
      for (const one of item.values as PrintableValue[]) {
        out += (first ? "" : ",") + nl + inner + quoteGo(k) + colon + write(one, indent, inner);
        first = false;
      }
    } else {
      out += (first ? "" : ",") + nl + inner + quoteGo(k) + colon + write(item, indent, inner);
      first = false;
    }
  }
  return out + nl + prefix + "}";
}

/**
 * Embedded JSON text (already validated) as Go writes it: json.Marshal
 * compacts a marshaller's output textually, escaping HTML characters in
 * strings, and MarshalIndent re-indents the whole document. Key order,
 * duplicate keys and number spelling survive unchanged.
 */
function reformatRaw(text: string, indent: string, prefix: string): string {
  let out = "";
  let depth = 0;
  const pad = (d: number): string => (indent === "" ? "" : "\n" + prefix + indent.repeat(d));
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") continue;
    if (c === '"') {
      let j = i + 1;
      let raw = "";
      for (; j < text.length; j++) {
        const d = text[j] as string;
        if (d === "\\") {
          raw += d + (text[j + 1] ?? "");
          j++;
          continue;
        }
        if (d === '"') break;
        raw += d;
      }
      out += '"' + escapeHtmlInRaw(raw) + '"';
      i = j;
      continue;
    }
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      let k = i + 1;
      while (k < text.length && " \t\n\r".includes(text[k] as string)) k++;
      if (text[k] === close) {
        out += c + close;
        i = k;
        continue;
      }
      depth++;
      out += c + pad(depth);
      continue;
    }
    if (c === "}" || c === "]") {
      depth--;
      out += pad(depth) + c;
      continue;
    }
    if (c === ",") {
      out += "," + pad(depth);
      continue;
    }
    if (c === ":") {
      out += indent === "" ? ":" : ": ";
      continue;
    }
    out += c;
  }
  return out;
}

/** Go's compact() keeps escapes as written but escapes <, >, & and U+2028/9 in string bodies. */
function escapeHtmlInRaw(body: string): string {
  return body.replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Go map key order for encoding/json (byte order of the UTF-8 keys). */
export function sortedKeys(obj: object): string[] {
  return Object.keys(obj).sort(compareUtf8);
}
