import { ScalarType } from "@bufbuild/protobuf";

/**
 * Why `value` cannot be a value of scalar type `t`, or undefined if it can.
 * Shared by the binary encoder and the JSON/YAML printers, so no output is
 * written from a value of the wrong type.
 */
export function scalarMismatch(t: ScalarType, value: unknown): string | undefined {
  switch (t) {
    case ScalarType.STRING:
      return typeof value === "string" ? undefined : `expected a string, got ${describe(value)}`;
    case ScalarType.BYTES:
      return value instanceof Uint8Array ? undefined : `expected a Uint8Array, got ${describe(value)}`;
    case ScalarType.INT32:
      return typeof value === "number" && Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff
        ? undefined
        : `expected an int32, got ${describe(value)}`;
    case ScalarType.INT64:
      return typeof value === "bigint" && value >= -(2n ** 63n) && value < 2n ** 63n
        ? undefined
        : `expected an int64 bigint, got ${describe(value)}`;
    case ScalarType.BOOL:
      return typeof value === "boolean" ? undefined : `expected a boolean, got ${describe(value)}`;
    default:
      return `unsupported scalar type ${ScalarType[t]}`;
  }
}

/** Checks the container of a list, map or message field before writing it. */
export function containerMismatch(kind: "list" | "map" | "message", value: unknown): string | undefined {
  if (kind === "list") return Array.isArray(value) ? undefined : `expected an array, got ${describe(value)}`;
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    return `expected ${kind === "map" ? "a map object" : "a message"}, got ${describe(value)}`;
  }
  return undefined;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  switch (typeof v) {
    case "string":
      // Never the contents: a misplaced value may be a secret.
      return "a string";
    case "number":
    case "bigint":
    case "boolean":
      return `${typeof v} ${String(v)}`;
    default:
      return typeof v;
  }
}
