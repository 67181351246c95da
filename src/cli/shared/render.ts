import { toJsonString, toYaml, type NetworkingObject, type WatchEvent } from "../../networking/index.js";
import { yamlStream } from "./io.js";

export type TextFormat = "json" | "yaml";

/** Objects as text. JSON gets a trailing newline, which toJsonString leaves off. */
export function renderObjects(objects: readonly NetworkingObject[], to: TextFormat, indent: number): string {
  if (to === "yaml") return yamlStream(objects.map((o) => toYaml(o)));
  return objects.map((o) => `${toJsonString(o, indent)}\n`).join("");
}

/**
 * One watch event in the shape `kubectl get --watch --output-watch-events`
 * prints: `{type, object}`. JSON with indent 0 is one line per event.
 */
export function renderEvent(event: WatchEvent, to: TextFormat, indent: number): string {
  if (to === "yaml") return `type: ${event.type}\nobject:\n${indentLines(toYaml(event.object), "  ")}`;
  const type = JSON.stringify(event.type);
  const object = toJsonString(event.object, indent);
  if (indent === 0) return `{"type":${type},"object":${object}}\n`;
  const pad = " ".repeat(indent);
  // JSON strings hold no raw newlines, so re-indenting line by line is safe.
  return `{\n${pad}"type": ${type},\n${pad}"object": ${object.replaceAll("\n", `\n${pad}`)}\n}\n`;
}

/** Indents every non-empty line; block scalars stay valid because the shift is uniform. */
function indentLines(text: string, pad: string): string {
  return text.replace(/^(?=.)/gm, pad);
}

/**
 * JSON.stringify(value, null, 2), except that a bigint is written as an exact
 * JSON number (int64 bad values such as metadata.generation), as Kubernetes
 * JSON writes int64.
 */
export function jsonText(value: unknown, pad = ""): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "object": {
      const inner = `${pad}  `;
      if (Array.isArray(value)) {
        if (value.length === 0) return "[]";
        return `[\n${value.map((v: unknown) => inner + jsonText(v, inner)).join(",\n")}\n${pad}]`;
      }
      const fields = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== "function");
      if (fields.length === 0) return "{}";
      return `{\n${fields.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${jsonText(v, inner)}`).join(",\n")}\n${pad}}`;
    }
    default:
      return "null";
  }
}
