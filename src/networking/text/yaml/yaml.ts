import type { Message } from "@bufbuild/protobuf";
import { DecodeError } from "../../model/errors.js";
import { fromParsedYaml, type FromJsonOptions } from "../json/from-json.js";
import { toJson } from "../json/to-json.js";
import type { JsonValue } from "../../model/json-value.js";
import type { NetworkingObject } from "../../model/kinds.js";
import { stringifyGoYaml } from "./emit.js";
import { locateYamlPath, parseYamlDocuments, type YamlReading } from "./parse.js";

/**
 * Options of {@link fromYaml}: the JSON options, the reading and a nesting limit.
 *
 * @example
 * ```ts
 * import { fromYaml } from "clusterwire/networking";
 *
 * const objects = fromYaml("apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: a}\n", {
 *   reading: "server",
 *   strict: true,
 * });
 * ```
 */
export interface FromYamlOptions extends FromJsonOptions {
  /**
   * How the text is read. `"kubectl"` (the default) reads it as
   * `kubectl apply -f` reads a YAML file: split into documents at `---` lines by
   * apimachinery's YAMLReader (each line handed on ending in LF, so CRLF
   * becomes LF and a final line break is added), each document then read by
   * sigs.k8s.io/yaml `YAMLToJSON`. A text that starts with `{` is still read
   * as YAML, where kubectl tries JSON first (docs/json-yaml.md). `"server"` reads it as the API server
   * reads a request body: `YAMLToJSON` on the raw text, so only its first
   * YAML document counts and the result holds 0 or 1 objects. The two differ
   * for example on a block scalar at the very end of the text (the added
   * line break) and on a text of several documents.
   */
  readonly reading?: YamlReading;
  /**
   * Deepest YAML collection nesting to accept, counted through aliases. By
   * default go-yaml's own limit (10,000 levels, as the API server reads
   * YAML); give a number for a stricter one.
   */
  readonly maxDepth?: number;
}

/**
 * Decodes YAML the way Kubernetes does: YAML 1.1 scalars as go-yaml v2 reads
 * them, converted to JSON by sigs.k8s.io/yaml, then decoded as Kubernetes
 * JSON. Null documents are skipped. A repeated key keeps its last value,
 * unless `strict` is set, which rejects it as the server's strict field
 * validation does. Errors name the document, line and column, and the field
 * path. See {@link FromYamlOptions} for the two readings.
 *
 * @example
 * ```ts
 * import { fromYaml } from "clusterwire/networking";
 *
 * const [ingressClass] = fromYaml(`apiVersion: networking.k8s.io/v1
 * kind: IngressClass
 * metadata:
 *   name: nginx
 * spec:
 *   controller: k8s.io/ingress-nginx
 * `);
 * console.log(ingressClass?.$typeName); // "k8s.io.api.networking.v1.IngressClass"
 * ```
 */
export function fromYaml(text: string, options: FromYamlOptions = {}): NetworkingObject[] {
  if (typeof text !== "string")
    throw new DecodeError("yaml", `expected YAML text, got ${text === null ? "null" : typeof text}`);
  const reading: YamlReading = options.reading === "server" ? "server" : "kubectl";
  const docs = parseYamlDocuments(text, {
    uniqueKeys: options.strict === true,
    reading,
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
  });
  return docs.map((value, index) => {
    const tooDeep = pathPastJsonDepth(value, API_SERVER_JSON_DEPTH);
    if (tooDeep !== undefined) {
      throw new DecodeError(
        "yaml",
        `exceeded max depth of ${API_SERVER_JSON_DEPTH} in the JSON the YAML converts to`,
        locateYamlPath(text, index, tooDeep, { reading }),
      );
    }
    try {
      return fromParsedYaml(value, options);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      const path = e.path ?? "";
      const segments = e.segments ?? [];
      const where = locateYamlPath(text, index, segments, { reading });
      throw new DecodeError("yaml", e.reason, { ...where, ...(path !== "" ? { path, segments } : {}) });
    }
  });
}

/**
 * The API server (and kubectl) decode the JSON that sigs.k8s.io/yaml makes of
 * the YAML with a JSON decoder that allows this many levels (Go
 * encoding/json's maxNestingDepth, kept by sigs.k8s.io/json). go-yaml itself
 * reads one level more (`a: ` and 10,000 flow levels).
 */
export const API_SERVER_JSON_DEPTH = 10_000;

/**
 * The path to the first array or object nested deeper than `limit` (the top
 * level is level 1), or undefined. Iterative: the value may be 10,001 deep.
 */
function pathPastJsonDepth(value: JsonValue, limit: number): (string | number)[] | undefined {
  interface Step {
    readonly value: JsonValue;
    readonly depth: number;
    readonly parent: Step | undefined;
    readonly seg: string | number;
  }
  const stack: Step[] = [{ value, depth: 1, parent: undefined, seg: "" }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const v = step.value;
    if (v === null || typeof v !== "object") continue;
    if (step.depth > limit) {
      const path: (string | number)[] = [];
      for (let s: Step | undefined = step; s?.parent !== undefined; s = s.parent) path.push(s.seg);
      return path.reverse();
    }
    const depth = step.depth + 1;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ value: v[i] ?? null, depth, parent: step, seg: i });
    } else {
      for (const k of Object.keys(v)) stack.push({ value: v[k] ?? null, depth, parent: step, seg: k });
    }
  }
  return undefined;
}

/**
 * YAML exactly as Kubernetes writes it (sigs.k8s.io/yaml): Go's key order and quoting.
 *
 * @example
 * ```ts
 * import { IngressClassSchema, create, toYaml } from "clusterwire/networking";
 *
 * console.log(toYaml(create(IngressClassSchema, { metadata: { name: "nginx" }, spec: { controller: "k8s.io/ingress-nginx" } })));
 * ```
 */
export function toYaml(obj: NetworkingObject | Message): string {
  return stringifyGoYaml(toJson(obj));
}
