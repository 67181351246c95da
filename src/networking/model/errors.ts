/**
 * Which input format a {@link DecodeError} came from.
 *
 * @example
 * ```ts
 * import { DecodeError, fromJson } from "clusterwire/networking";
 *
 * try {
 *   fromJson("{");
 * } catch (e) {
 *   if (e instanceof DecodeError) console.log(e.format); // "json"
 * }
 * ```
 */
export type DecodeFormat = "protobuf" | "json" | "yaml";

/**
 * Where in its input a {@link DecodeError} happened; each field is set when that input has it.
 *
 * @example
 * ```ts
 * import { DecodeError, type DecodeErrorLocation, fromYaml } from "clusterwire/networking";
 *
 * try {
 *   fromYaml("kind: [");
 * } catch (e) {
 *   if (e instanceof DecodeError) {
 *     const where: DecodeErrorLocation = e.line === undefined ? {} : { line: e.line };
 *     console.log(where, e.column, e.document);
 *   }
 * }
 * ```
 */
export interface DecodeErrorLocation {
  /** Byte offset into the protobuf input, or character offset into JSON/YAML text. */
  readonly offset?: number;
  /** Kubernetes-style field path, e.g. `spec.rules[0].http.paths[1].backend`. */
  readonly path?: string;
  /** The same path, structured: keys and array indexes. */
  readonly segments?: readonly (string | number)[];
  /** 1-based line of JSON/YAML text. */
  readonly line?: number;
  /** 1-based column of JSON/YAML text. */
  readonly column?: number;
  /** 1-based number of the YAML document in a multi-document stream. */
  readonly document?: number;
}

/**
 * The only error clusterwire's decoders throw. It always says where: a byte
 * offset for protobuf, a line/column and/or field path for JSON and YAML.
 *
 * @example
 * ```ts
 * import { DecodeError, fromJson } from "clusterwire/networking";
 *
 * try {
 *   fromJson('{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "spec": 1}');
 * } catch (e) {
 *   if (!(e instanceof DecodeError)) throw e;
 *   console.log(e.path, e.line, e.column, e.reason);
 * }
 * ```
 */
export class DecodeError extends Error {
  /** Always `"DecodeError"`. */
  override readonly name = "DecodeError";
  /** The input format that failed to decode. */
  readonly format: DecodeFormat;
  /** The reason without the location prefix. */
  readonly reason: string;
  /** Byte offset (protobuf) or character offset (JSON, YAML) of the error, when known. */
  readonly offset: number | undefined;
  /** The field path, as Kubernetes renders it (`spec.rules[0].host`), when known. */
  readonly path: string | undefined;
  /** The field path as keys and array indexes, when known. */
  readonly segments: readonly (string | number)[] | undefined;
  /** 1-based line of the error in a JSON or YAML text, when known. */
  readonly line: number | undefined;
  /** 1-based column of the error in a JSON or YAML text, when known. */
  readonly column: number | undefined;
  /** 1-based number of the YAML document the error is in, when known. */
  readonly document: number | undefined;

  constructor(format: DecodeFormat, reason: string, where: DecodeErrorLocation = {}) {
    super(`${describe(format, where)}: ${reason}`);
    this.format = format;
    this.reason = reason;
    this.offset = where.offset;
    this.path = where.path;
    this.segments = where.segments;
    this.line = where.line;
    this.column = where.column;
    this.document = where.document;
  }
}

function describe(format: DecodeFormat, w: DecodeErrorLocation): string {
  const parts: string[] = [];
  if (w.document !== undefined) parts.push(`document ${w.document}`);
  if (w.line !== undefined) parts.push(`line ${w.line}, column ${w.column ?? 1}`);
  else if (w.offset !== undefined) parts.push(format === "protobuf" ? `byte ${w.offset}` : `offset ${w.offset}`);
  if (w.path !== undefined && w.path !== "") parts.push(`field ${w.path}`);
  return parts.length > 0 ? `${format} decode error at ${parts.join(", ")}` : `${format} decode error`;
}

/**
 * Thrown when an object cannot be written in the requested form, for example
 * an IntOrString whose type is neither 0 nor 1 (Go refuses it too).
 *
 * @example
 * ```ts
 * import { EncodeError, encode } from "clusterwire/networking";
 *
 * try {
 *   encode({ $typeName: "not.a.Kind" } as never);
 * } catch (e) {
 *   if (e instanceof EncodeError) console.log(e.reason);
 * }
 * ```
 */
export class EncodeError extends Error {
  /** Always `"EncodeError"`. */
  override readonly name = "EncodeError";
  /** The field path of the value that cannot be written (empty for the object itself). */
  readonly path: string;
  /** Why it cannot be written, without the path. */
  readonly reason: string;
  constructor(reason: string, path: string) {
    super(path === "" ? reason : `${path}: ${reason}`);
    this.reason = reason;
    this.path = path;
  }
}

/**
 * Thrown by the router and the policy engine for input they cannot give a
 * meaning to: a pod with an unparsable IP, a duplicate pod, a connection to a
 * pod that does not exist, a port name the destination does not declare.
 * `path` locates the value in the input, e.g. `pods[3].ip` or `connection.to.pod`.
 *
 * @example
 * ```ts
 * import { EvaluatorInputError, createPolicyEngine } from "clusterwire/networking";
 *
 * try {
 *   createPolicyEngine({ namespaces: [], pods: [{ namespace: "web", name: "a", ip: "10.0.0.1" }], policies: [] });
 * } catch (e) {
 *   if (e instanceof EvaluatorInputError) console.log(e.path, e.reason); // pods[0].namespace ...
 * }
 * ```
 */
export class EvaluatorInputError extends Error {
  /** Always `"EvaluatorInputError"`. */
  override readonly name = "EvaluatorInputError";
  /** Where the value is in the input, e.g. `pods[3].ip`. */
  readonly path: string;
  /** Why the value has no meaning, without the path. */
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(path === "" ? reason : `${path}: ${reason}`);
    this.reason = reason;
    this.path = path;
  }
}
