/** Which input format a {@link DecodeError} came from. */
export type DecodeFormat = "protobuf" | "json" | "yaml";

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
 */
export class DecodeError extends Error {
  override readonly name = "DecodeError";
  readonly format: DecodeFormat;
  /** The reason without the location prefix. */
  readonly reason: string;
  readonly offset: number | undefined;
  readonly path: string | undefined;
  readonly segments: readonly (string | number)[] | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
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
 */
export class EncodeError extends Error {
  override readonly name = "EncodeError";
  readonly path: string;
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
 */
export class EvaluatorInputError extends Error {
  override readonly name = "EvaluatorInputError";
  readonly path: string;
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(path === "" ? reason : `${path}: ${reason}`);
    this.reason = reason;
    this.path = path;
  }
}
