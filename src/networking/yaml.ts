import type { Message } from "@bufbuild/protobuf";
import { DecodeError } from "./errors.js";
import { fromParsedYaml, toJson, type FromJsonOptions } from "./json.js";
import type { NetworkingObject } from "./kinds.js";
import { parseYamlDocuments, stringifyGoYaml } from "./yaml-text.js";

/**
 * Decodes a YAML stream (documents separated by `---`) the way the API server
 * does: YAML 1.1 scalars, converted to JSON, then decoded as Kubernetes JSON.
 * Empty documents are skipped. Errors name the document index and the line
 * and column or field path.
 */
export function fromYaml(text: string, options: FromJsonOptions = {}): NetworkingObject[] {
  if (typeof text !== "string") throw new DecodeError("yaml", `expected YAML text, got ${text === null ? "null" : typeof text}`);
  const docs = parseYamlDocuments(text, options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {});
  return docs.map((value, document) => {
    try {
      return fromParsedYaml(value, options);
    } catch (e) {
      if (e instanceof DecodeError) {
        throw new DecodeError("yaml", e.reason, {
          document,
          ...(e.path !== undefined && e.path !== "" ? { path: e.path } : {}),
        });
      }
      throw e;
    }
  });
}

/** YAML exactly as Kubernetes writes it (sigs.k8s.io/yaml): sorted keys, Go's quoting. */
export function toYaml(obj: NetworkingObject | Message): string {
  return stringifyGoYaml(toJson(obj));
}
