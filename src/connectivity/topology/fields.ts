// Reading the fields of a parsed manifest that the topology needs, with the types the API server
// would require of them. A value of the wrong type throws FieldProblem (caught per document, so
// the object is left out and reported, as the API server would refuse it); a string holding
// `{{ }}` throws TemplateText (the document is an unrendered template).

import type { JsonObject, JsonValue, Protocol } from "../../networking/index.js";
import { isObject, member } from "./documents.js";

/** A step of a field path: an object member, a list index, or a map key (rendered `[key]`). */
export type Segment = string | number | { readonly key: string };

/** A field of the wrong type: where, and what it should be. */
export class FieldProblem extends Error {
  constructor(
    readonly path: readonly Segment[],
    readonly reason: string,
  ) {
    super(`${renderPath(path)}: ${reason}`);
  }
}

/** A string that is an unrendered template expression. */
export class TemplateText extends Error {}

const TEMPLATE = /\{\{.*\}\}/;

/** `spec.template.metadata.labels[app]`, `spec.containers[0].ports[1].containerPort`. */
export function renderPath(path: readonly Segment[]): string {
  let out = "";
  for (const s of path) {
    if (typeof s === "number") out += `[${s}]`;
    else if (typeof s === "object") out += `[${s.key}]`;
    else out += out === "" ? s : `.${s}`;
  }
  return out;
}

/** The path as locateYamlPath takes it. */
export function jsonPath(path: readonly Segment[]): (string | number)[] {
  return path.map((s) => (typeof s === "object" ? s.key : s));
}

/** The member `key` of `obj` (undefined when `obj` is). */
export function at(obj: JsonObject | undefined, key: string): JsonValue | undefined {
  return obj === undefined ? undefined : member(obj, key);
}

/** An object, or undefined when absent or null. */
export function objectAt(v: JsonValue | undefined, path: readonly Segment[]): JsonObject | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new FieldProblem(path, "must be an object");
  return v;
}

/** A list, empty when absent or null. */
export function listAt(v: JsonValue | undefined, path: readonly Segment[]): readonly JsonValue[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new FieldProblem(path, "must be a list");
  return v;
}

function checked(s: string): string {
  if (TEMPLATE.test(s)) throw new TemplateText(s);
  return s;
}

/** A string, or undefined when absent, null or empty. */
export function stringAt(v: JsonValue | undefined, path: readonly Segment[]): string | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string") throw new FieldProblem(path, "must be a string");
  return checked(v);
}

/** A boolean, false when absent or null. */
export function booleanAt(v: JsonValue | undefined, path: readonly Segment[]): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean") throw new FieldProblem(path, "must be true or false");
  return v;
}

/**
 * A map of strings (labels, a selector), empty when absent or null. Keys are defined as own
 * properties, so a `__proto__` label stays a label. A null value is the empty string, as Go
 * decodes it into a map of strings.
 */
export function labelsAt(v: JsonValue | undefined, path: readonly Segment[]): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw new FieldProblem(path, "must be a map of strings");
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (value !== null && typeof value !== "string") throw new FieldProblem([...path, { key: k }], "must be a string");
    const text = value === null ? "" : checked(value);
    // Only "__proto__" needs defineProperty (assigned, it would set the prototype); assignment keeps the object fast.
    if (checked(k) === "__proto__") {
      Object.defineProperty(out, k, { value: text, enumerable: true, writable: true, configurable: true });
    } else out[k] = text;
  }
  return out;
}

function describe(v: JsonValue): string {
  return typeof v === "bigint" ? v.toString() : JSON.stringify(v);
}

/** A port number, 1 to 65535; undefined when absent or null (and, with `zeroIsUnset`, when 0). */
export function portAt(v: JsonValue | undefined, path: readonly Segment[], zeroIsUnset = false): number | undefined {
  if (v === undefined || v === null || (zeroIsUnset && v === 0)) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 65535) {
    throw new FieldProblem(path, `${describe(v)} is not a port number (1-65535)`);
  }
  return v;
}

/** A port number or name (an IntOrString); undefined when absent, null, 0 or empty. */
export function portOrNameAt(v: JsonValue | undefined, path: readonly Segment[]): number | string | undefined {
  if (typeof v === "string") return stringAt(v, path);
  return portAt(v, path, true);
}

const PROTOCOLS: ReadonlySet<string> = new Set(["TCP", "UDP", "SCTP"]);

/** A protocol, TCP when absent, null or empty. */
export function protocolAt(v: JsonValue | undefined, path: readonly Segment[]): Protocol {
  if (v === undefined || v === null || v === "") return "TCP";
  if (typeof v !== "string" || !PROTOCOLS.has(v)) {
    throw new FieldProblem(path, `${describe(v)} is not a protocol (TCP, UDP or SCTP)`);
  }
  return v as Protocol;
}
