import type { WireAnnotation, WireSpan } from "./annotate.js";

/**
 * Options of {@link formatWireAnnotation}.
 *
 * @example
 * ```ts
 * import { IngressSchema, annotateWire, create, encode, formatWireAnnotation } from "clusterwire/networking";
 *
 * const bytes = encode(create(IngressSchema, { metadata: { name: "shop" } }));
 * console.log(formatWireAnnotation(annotateWire(bytes), bytes, { hexBytes: 8 }));
 * ```
 */
export interface FormatWireOptions {
  /** Bytes shown per line; longer spans are cut with "…". Default 12, at least 1. */
  readonly hexBytes?: number;
}

const DEFAULT_HEX_BYTES = 12;

/** "00 " to "ff ". */
const HEX_BYTES = Array.from({ length: 256 }, (_, i) => `${i.toString(16).padStart(2, "0")} `);

/** The protobuf spec's short names of the wire types, by number. */
const WIRE_SHORT = ["VARINT", "I64", "LEN", "SGROUP", "EGROUP", "I32"];

/**
 * The annotation as plain text, one line per span: the offset (hex), the
 * span's own bytes in hex (tag, length prefix and, for a scalar, the value;
 * cut with "…" past `hexBytes`), then, indented by depth, the field number,
 * wire type, path and value. `bytes` are the input that was annotated.
 *
 * @example
 * ```ts
 * import { IngressSchema, annotateWire, create, encode, formatWireAnnotation } from "clusterwire/networking";
 *
 * const bytes = encode(create(IngressSchema, { metadata: { name: "shop" } }));
 * console.log(formatWireAnnotation(annotateWire(bytes), bytes));
 * ```
 */
export function formatWireAnnotation(
  annotation: WireAnnotation,
  bytes: Uint8Array,
  options: FormatWireOptions = {},
): string {
  const perLine = Math.max(1, Math.floor(options.hexBytes ?? DEFAULT_HEX_BYTES));
  const offsetWidth = Math.max(6, annotation.length.toString(16).length);
  const hexWidth = perLine * 3 + 1; // "xx " per byte, and room for "…"
  const lines = [`# ${annotation.apiVersion} ${annotation.kind} (${annotation.typeName}), ${annotation.length} bytes`];
  const indents: string[] = [];
  for (const span of annotation.spans) {
    const own = span.nested ? span.valueOffset : span.valueOffset + span.valueLength;
    const shown = Math.min(own, span.offset + perLine);
    let hex = "";
    for (let i = span.offset; i < shown; i++) hex += HEX_BYTES[bytes[i] as number];
    if (shown < own) hex = `${hex.slice(0, -1)}…`;
    let indent = indents[span.depth];
    if (indent === undefined) {
      indent = "  ".repeat(span.depth);
      indents[span.depth] = indent;
    }
    lines.push(
      `${span.offset.toString(16).padStart(offsetWidth, "0")}  ${hex.padEnd(hexWidth)} ${indent}${describeSpan(span)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The annotation part of a span's line. */
function describeSpan(span: WireSpan): string {
  if (span.kind === "magic") return `magic ${span.value ?? ""}`;
  const wire = `${span.fieldNumber ?? 0}:${WIRE_SHORT[span.wireType ?? 0] ?? span.wireTypeName}`;
  if (span.kind === "unknown") {
    return `${wire} unknown field${span.path === "" ? "" : ` in ${span.path}`} = ${span.value ?? ""}`;
  }
  // A map entry's key and value carry the entry's path; their names say which.
  const isEntryPart = span.segments.length > 0 && typeof span.segments[span.segments.length - 1] === "object";
  const label = isEntryPart && !span.nested ? span.name : span.path === "" ? span.name : span.path;
  if (span.nested) {
    const type = span.typeName === undefined ? "" : ` ${span.typeName.slice(span.typeName.lastIndexOf(".") + 1)}`;
    const value = span.value === undefined ? "" : ` = ${span.value}`;
    return `${wire} ${label}${type} (${span.valueLength} bytes)${value}`;
  }
  return `${wire} ${label} = ${span.value ?? ""}`;
}
