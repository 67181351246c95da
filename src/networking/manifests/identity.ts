import type { JsonValue } from "../model/json-value.js";
import { DuplicateKey } from "../text/json/parse.js";

// What a document is, read without decoding it: its apiVersion, kind, namespace and name, from
// a parsed value or, when it does not parse, from the text of its top-level keys.

/** The type meta and identity of a parsed document, read without decoding it. */
export interface Identity {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

/** JSON text parsed by parseJsonText marks a repeated key with its values; the last one is the one decoded. */
export function unwrapDuplicate(v: JsonValue): JsonValue {
  const d = v as unknown;
  return d instanceof DuplicateKey ? (d.values[d.values.length - 1] as JsonValue) : v;
}

export function isObject(v: unknown): v is Record<string, JsonValue> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function stringAt(obj: Record<string, JsonValue>, key: string): string | undefined {
  const v = unwrapDuplicate(obj[key] as JsonValue);
  return typeof v === "string" ? v : undefined;
}

export function identityOf(value: JsonValue): Identity {
  if (!isObject(value)) return {};
  const meta = unwrapDuplicate(value.metadata as JsonValue);
  const apiVersion = stringAt(value, "apiVersion");
  const kind = stringAt(value, "kind");
  const name = isObject(meta) ? stringAt(meta, "name") : undefined;
  const namespace = isObject(meta) ? stringAt(meta, "namespace") : undefined;
  return {
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
  };
}

export function nameOf(id: Identity): { name?: string; namespace?: string } {
  return {
    ...(id.name !== undefined && id.name !== "" ? { name: id.name } : {}),
    ...(id.namespace !== undefined && id.namespace !== "" ? { namespace: id.namespace } : {}),
  };
}

/** `kind:` and `apiVersion:` written at the top level of a YAML document that does not parse. */
export function identityFromText(text: string): Identity {
  const kind = /^kind:[ \t]*["']?([A-Za-z0-9]+)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
  const apiVersion = /^apiVersion:[ \t]*["']?([A-Za-z0-9./-]+)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
  return { ...(kind !== undefined ? { kind } : {}), ...(apiVersion !== undefined ? { apiVersion } : {}) };
}

/** `"kind"` and `"apiVersion"` string members written in JSON text that does not parse. */
export function identityFromJsonText(text: string): Identity {
  const member = (key: string): string | undefined => {
    const quoted = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\\\n]|\\\\.)*")`).exec(text)?.[1];
    try {
      return quoted === undefined ? undefined : (JSON.parse(quoted) as string);
    } catch {
      return undefined;
    }
  };
  const kind = member("kind");
  const apiVersion = member("apiVersion");
  return { ...(kind !== undefined ? { kind } : {}), ...(apiVersion !== undefined ? { apiVersion } : {}) };
}
