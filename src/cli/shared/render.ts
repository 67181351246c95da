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
 *
 * Hand-written for speed with loops and string appends, not entries, filter,
 * map and join: `clusterwire validate -o json` writes every document's result
 * with it, and the array-building version took about a sixteenth of a run over
 * 10,000 files (CPU profile), this one about a third of that.
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
        let out = "[\n";
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ",\n";
          // A hole is written as nothing, as Array.prototype.map and join leave it.
          if (i in value) out += inner + jsonText(value[i], inner);
        }
        return `${out}\n${pad}]`;
      }
      let out = "";
      for (const key of Object.keys(value)) {
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined || typeof v === "function") continue;
        out += `${out === "" ? "" : ",\n"}${inner}${JSON.stringify(key)}: ${jsonText(v, inner)}`;
      }
      return out === "" ? "{}" : `{\n${out}\n${pad}}`;
    }
    default:
      return "null";
  }
}
