import type { Message } from "@bufbuild/protobuf";
import { DecodeError } from "../model/errors.js";
import { fromParsedYaml, type FromJsonOptions } from "./from-json.js";
import { toJson } from "./to-json.js";
import type { NetworkingObject } from "../model/kinds.js";
import { stringifyGoYaml } from "./yaml-emit.js";
import { locateYamlPath, parseYamlDocuments } from "./yaml-parse.js";

/**
 * Decodes a YAML stream (documents separated by `---`) the way the API server
 * does: YAML 1.1 scalars, converted to JSON, then decoded as Kubernetes JSON.
 * Empty documents are skipped. A repeated key keeps its last value, unless
 * `strict` is set, which rejects it as the server's strict field validation
 * does. Errors name the document, line and column, and the field path.
 */
export function fromYaml(text: string, options: FromJsonOptions = {}): NetworkingObject[] {
  if (typeof text !== "string")
    throw new DecodeError("yaml", `expected YAML text, got ${text === null ? "null" : typeof text}`);
  const docs = parseYamlDocuments(text, {
    uniqueKeys: options.strict === true,
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
  });
  return docs.map((value, index) => {
    try {
      return fromParsedYaml(value, options);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      const path = e.path ?? "";
      const segments = e.segments ?? [];
      const where = locateYamlPath(text, index, segments);
      throw new DecodeError("yaml", e.reason, { ...where, ...(path !== "" ? { path, segments } : {}) });
    }
  });
}

/** YAML exactly as Kubernetes writes it (sigs.k8s.io/yaml): Go's key order and quoting. */
export function toYaml(obj: NetworkingObject | Message): string {
  return stringifyGoYaml(toJson(obj));
}
