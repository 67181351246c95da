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
