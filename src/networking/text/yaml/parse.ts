/**
 * Kubernetes YAML text in. {@link parseYamlDocuments} reads a stream as
 * `kubectl apply -f` reads a YAML file (apimachinery's YAMLReader splits it,
 * then each document goes through sigs.k8s.io/yaml `YAMLToJSON`), or a
 * request body as the API server does (`YAMLToJSON` on the raw text). It
 * never sniffs for JSON: kubectl reads a file whose first non-space character
 * is `{` as JSON first (its YAMLOrJSONDecoder), which docs/json-yaml.md says
 * where it matters. The YAML itself is read by clusterwire's own go-yaml v2
 * reader (compose.ts, decode.ts and below).
 */
import { DecodeError, type DecodeErrorLocation } from "../../model/errors.js";
import type { JsonValue } from "../../model/json-value.js";
import { NO_DEPTH_LIMIT, clampDepth, composeFirstDocument, type YamlNode } from "./compose.js";
import { decodeYamlNode, findChild } from "./decode.js";
import { kubectlBodyOffset, kubectlDocumentBody, splitYamlDocuments } from "./split.js";

/**
 * Which reading of a YAML text: `"kubectl"` splits a stream into documents as
 * `kubectl apply -f` does for a YAML file (lines end at LF or CRLF and each
 * document's lines are handed on ending in LF, so a final line break is
 * added; `---` lines separate, the first one kept as a document start), then
 * reads each; `"server"` reads the text as one request body, as the API
 * server does (raw text, first YAML document only).
 *
 * @example
 * ```ts
 * import { fromYaml } from "clusterwire/networking";
 *
 * const text = "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: a}\n---\napiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: b}\n";
 * console.log(fromYaml(text, { reading: "kubectl" }).length); // 2
 * console.log(fromYaml(text, { reading: "server" }).length); // 1
 * ```
 */
export type YamlReading = "kubectl" | "server";

/**
 * Options of {@link parseYamlDocuments}.
 *
 * @example
 * ```ts
 * import { parseYamlDocuments } from "clusterwire/networking";
 *
 * console.log(parseYamlDocuments("a: 1\na: 2\n", { uniqueKeys: false })); // [ { a: 2 } ]
 * ```
 */
export interface ParseYamlOptions {
  /**
   * Deepest allowed collection nesting, counted through aliases. By default
   * none of clusterwire's own: go-yaml's scanner refuses more than 10,000
   * levels, as the API server does.
   */
  readonly maxDepth?: number;
  /**
   * Reject a key repeated in one mapping (default true), as go-yaml's strict
   * decoding does. With false the last value wins, as the API server's
   * default (non-strict) YAML-to-JSON step does.
   */
  readonly uniqueKeys?: boolean;
  /**
   * With `uniqueKeys` true: each key repeated in one mapping is given to this
   * function (a DecodeError placed in the text, as it would be thrown) instead
   * of being thrown, and the last value wins. Lets a caller name every repeat.
   */
  readonly onRepeatedKey?: (error: DecodeError) => void;
  /** Default `"kubectl"`. */
  readonly reading?: YamlReading;
}

/** One body the YAML decoder reads, and how its positions map to the whole text. */
interface Body {
  /** 1-based number of the document in the text, as kubectl counts them. */
  readonly document: number;
  readonly text: string;
  /** The whole-text offset of a body offset. */
  readonly toText: (offset: number) => number;
}

/**
 * The bodies the YAML decoder reads. A separator line kubectl refuses fails
 * the whole text before any document is read, as kubectl's reader does.
 */
function bodies(text: string, reading: YamlReading): Body[] {
  if (reading === "server") return [{ document: 1, text, toText: (o) => o }];
  const out: Body[] = [];
  for (const piece of splitYamlDocuments(text)) {
    if (piece.separatorError !== undefined) {
      const e = piece.separatorError;
      throw new DecodeError("yaml", e.reason, {
        ...(e.line !== undefined ? { line: e.line, column: e.column ?? 1 } : {}),
        ...(e.offset !== undefined ? { offset: e.offset } : {}),
        document: out.length + 1,
      });
    }
    out.push({
      document: out.length + 1,
      text: kubectlDocumentBody(piece.text),
      toText: (o) => piece.offset + kubectlBodyOffset(piece.text, o),
    });
  }
  return out;
}

/** go-yaml's line breaks: LF, CR, CRLF (one break), NEL, LS, PS. */
function linesBefore(text: string, end: number): number {
  let lines = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x85 || c === 0x2028 || c === 0x2029) lines++;
    else if (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a) lines++;
  }
  return lines;
}

/** A body's error, placed in the whole text: line and column as go-yaml counts them. */
function placed(text: string, body: Body, e: DecodeError): DecodeError {
  if (e.offset === undefined) return new DecodeError("yaml", e.reason, { document: body.document });
  const offset = body.toText(e.offset);
  const bodyStart = body.toText(0);
  const line = linesBefore(text, bodyStart) + (e.line ?? 1);
  return new DecodeError("yaml", e.reason, { line, column: e.column ?? 1, offset, document: body.document });
}

/** Runs `read`, letting only DecodeError out (a RangeError here would be stack exhaustion). */
function guarded<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    const reason = e instanceof RangeError ? "input is nested too deeply" : `unexpected parser failure: ${String(e)}`;
    throw new DecodeError("yaml", reason);
  }
}

function composeBody(text: string, body: Body, maxDepth: number): YamlNode | undefined {
  try {
    return guarded(() => composeFirstDocument(body.text, maxDepth));
  } catch (e) {
    throw e instanceof DecodeError ? placed(text, body, e) : e;
  }
}

/**
 * Parse a YAML text the way Kubernetes does (sigs.k8s.io/yaml YAMLToJSON on
 * go-yaml v2), in the given reading (default `"kubectl"`). Null documents
 * are skipped. Integers are `number` when safe and `bigint` otherwise;
 * unquoted timestamps stay strings; duplicate keys are rejected unless
 * `uniqueKeys` is false (see {@link ParseYamlOptions}).
 *
 * Throws only {@link DecodeError}, with 1-based line, column and document
 * number, and the character offset.
 *
 * @example
 * ```ts
 * import { parseYamlDocuments } from "clusterwire/networking";
 *
 * // YAML 1.1, as go-yaml v2 reads it: the key `on` and the value `yes` are both true.
 * console.log(parseYamlDocuments("on: yes\nport: 0x1F\n---\nname: b\n")); // [ { true: true, port: 31 }, { name: "b" } ]
 * ```
 */
export function parseYamlDocuments(text: string, options: ParseYamlOptions = {}): JsonValue[] {
  if (typeof text !== "string") throw new DecodeError("yaml", "input is not a string");
  return parseBodies(
    text,
    guarded(() => bodies(text, options?.reading ?? "kubectl")),
    options,
    undefined,
  );
}

/** The composed root of each body of a text, and whether it decodes to a non-null value. */
type ComposedRoots = { readonly root: YamlNode | undefined; readonly nonNull: boolean }[];

/** parseYamlDocuments over bodies already found; each composed root is kept in `roots` when given. */
function parseBodies(
  text: string,
  list: readonly Body[],
  options: ParseYamlOptions,
  roots: ComposedRoots | undefined,
): JsonValue[] {
  const maxDepth = clampDepth(options?.maxDepth);
  const strict = options?.uniqueKeys ?? true;
  const out: JsonValue[] = [];
  for (const body of list) {
    const root = composeBody(text, body, maxDepth);
    let value: JsonValue;
    try {
      const report = options?.onRepeatedKey;
      const repeated = report === undefined ? {} : { repeated: (e: DecodeError) => report(placed(text, body, e)) };
      value = guarded(() => decodeYamlNode(root, { maxDepth, strict, ...repeated }));
    } catch (e) {
      throw e instanceof DecodeError ? placed(text, body, e) : e;
    }
    roots?.push({ root, nonNull: value !== null });
    if (value !== null) out.push(value);
  }
  return out;
}

/**
 * Places paths of a text's non-null documents (see {@link yamlLocator}):
 * `(index, path, atKey)` as {@link locateYamlPath} takes them.
 *
 * @example
 * ```ts
 * import { yamlLocator, type YamlLocator } from "./parse.js";
 *
 * const at: YamlLocator = yamlLocator("kind: Ingress\n", "kubectl");
 * console.log(at(0, ["kind"], true)); // line 1, column 1
 * ```
 */
export type YamlLocator = (index: number, path: readonly (string | number)[], atKey: boolean) => DecodeErrorLocation;

/**
 * {@link parseYamlDocuments}, and a {@link yamlLocator} of the same text
 * that walks the trees this parse composed rather than composing the text
 * again: what it answers is what yamlLocator answers (a parse that succeeds
 * composes the same tree the locator would, and a decoded value is null in
 * the strict reading exactly when it is in the non-strict one). Throws as
 * parseYamlDocuments throws.
 *
 * Hand-written for speed: `clusterwire validate` places the errors of about
 * 1,050 of the 16,911 documents of its 10,000-file benchmark tree, and
 * composing and decoding each of them again took about a fifteenth of the
 * run (CPU profile).
 *
 * @example
 * ```ts
 * import { parseYamlDocumentsLocated } from "./parse.js";
 *
 * const { values, locator } = parseYamlDocumentsLocated("kind: Ingress\nspec: {a: 1}\n");
 * console.log(values.length, locator(0, ["spec", "a"], false)); // 1, line 2, column 11
 * ```
 */
export function parseYamlDocumentsLocated(
  text: string,
  options: ParseYamlOptions = {},
): { readonly values: JsonValue[]; readonly locator: YamlLocator } {
  if (typeof text !== "string") throw new DecodeError("yaml", "input is not a string");
  const list = guarded(() => bodies(text, options?.reading ?? "kubectl"));
  const roots: ComposedRoots = [];
  const values = parseBodies(text, list, options, roots);
  return { values, locator: locatorOver(text, () => list, roots) };
}

/**
 * Options of {@link locateYamlPath}.
 *
 * @example
 * ```ts
 * import { locateYamlPath } from "clusterwire/networking";
 *
 * const text = "kind: Ingress\nspec:\n  rules:\n  - host: a\n";
 * console.log(locateYamlPath(text, 0, ["spec", "rules", 0, "host"], { atKey: true })); // line 4, column 5
 * ```
 */
export interface LocateYamlOptions {
  /** Default `"kubectl"`. */
  readonly reading?: YamlReading;
  /** Point at the key of the last path segment rather than its value, when it has one. */
  readonly atKey?: boolean;
}

/**
 * Where the value at `path` (keys and array indexes) sits in the `index`-th
 * non-null document of `text` (in the given reading), for errors found after
 * parsing. Falls back to the deepest part of the path that exists; `{}` when
 * the text cannot be read or has no such document.
 *
 * @example
 * ```ts
 * import { formatFieldError, fromYaml, locateYamlPath, validate } from "clusterwire/networking";
 *
 * const text = "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: Bad_Name}\n";
 * for (const error of validate(fromYaml(text)[0]!)) {
 *   const { line, column } = locateYamlPath(text, 0, error.path);
 *   console.log(`${line}:${column} ${formatFieldError(error)}`);
 * }
 * ```
 */
export function locateYamlPath(
  text: string,
  index: number,
  path: readonly (string | number)[],
  options: LocateYamlOptions = {},
): DecodeErrorLocation {
  return yamlLocator(text, options.reading ?? "kubectl")(index, path, options.atKey === true);
}

/**
 * {@link locateYamlPath} for many paths of one text, each document composed
 * at most once (and only as far as a path asks), where locateYamlPath
 * composes the text again for each path. Gives what locateYamlPath gives for
 * the same arguments: locateYamlPath is this with one call.
 *
 * Hand-written for speed: `clusterwire validate` places every error of a
 * document this way, and composing the document again for each one took
 * about a twentieth of a run over 10,000 files (CPU profile).
 *
 * @example
 * ```ts
 * import { yamlLocator } from "./parse.js";
 *
 * const at = yamlLocator("kind: Ingress\nspec:\n  rules:\n  - host: a\n", "kubectl");
 * console.log(at(0, ["spec", "rules", 0, "host"], false), at(0, ["kind"], true)); // line 4, column 11; line 1, column 1
 * ```
 */
export function yamlLocator(text: string, reading: YamlReading): YamlLocator {
  let list: Body[] | undefined;
  return locatorOver(text, () => {
    list ??= bodies(text, reading);
    return list;
  }, []);
}

/**
 * The locator over a text's bodies (`bodiesOf` may throw: the answer is then
 * `{}`), with `roots` the bodies composed so far, in order; the rest are
 * composed as a path reaches them.
 */
function locatorOver(text: string, bodiesOf: () => readonly Body[], roots: ComposedRoots): YamlLocator {
  return (index, path, atKey) => {
    try {
      const list = bodiesOf();
      let seen = 0;
      for (let b = 0; b < list.length; b++) {
        const body = list[b] as Body;
        if (roots.length === b) {
          // A body that cannot be read throws here, each time it is reached, and the answer is {}.
          const composed = composeFirstDocument(body.text, NO_DEPTH_LIMIT);
          const nonNull = decodeYamlNode(composed, { maxDepth: NO_DEPTH_LIMIT, strict: false }) !== null;
          roots.push({ root: composed, nonNull });
        }
        const { root, nonNull } = roots[b] as ComposedRoots[number];
        if (!nonNull) continue;
        if (seen++ < index || root === undefined) continue;
        let node = root;
        const visited = new Set<YamlNode>();
        for (const [i, seg] of path.entries()) {
          const next = findChild(node, seg, visited);
          if (next === undefined) break;
          if (atKey && i === path.length - 1 && next.key !== undefined) {
            node = next.key;
            break;
          }
          node = next.value;
        }
        const offset = body.toText(node.start.offset);
        const line = linesBefore(text, body.toText(0)) + node.start.line + 1;
        return { line, column: node.start.column + 1, offset, document: body.document };
      }
      return {};
    } catch {
      return {};
    }
  };
}

/**
 * The text range of the field at `path` in a one-document `text` read as a
 * request body (offsets into `text`): its key when it has one, else its
 * value; the nearest parent that exists when the field is missing; the root
 * when the path is empty. Undefined when the text cannot be read or holds no
 * document. For editors that underline a field.
 *
 * @example
 * ```ts
 * import { locateYamlRange } from "clusterwire/networking";
 *
 * const text = "metadata:\n  name: shop\n";
 * const range = locateYamlRange(text, ["metadata", "name"]);
 * if (range) console.log(text.slice(range.from, range.to)); // "name"
 * ```
 */
export function locateYamlRange(
  text: string,
  path: readonly (string | number)[],
): { readonly from: number; readonly to: number } | undefined {
  try {
    const root = composeFirstDocument(text, NO_DEPTH_LIMIT);
    if (root === undefined) return undefined;
    let node = root;
    let best = root;
    const seen = new Set<YamlNode>();
    for (const seg of path) {
      const next = findChild(node, seg, seen);
      if (next === undefined) break;
      best = next.key ?? next.value;
      node = next.value;
    }
    return { from: best.start.offset, to: Math.max(best.end.offset, best.start.offset) };
  } catch {
    return undefined;
  }
}
