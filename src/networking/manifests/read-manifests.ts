import { NETWORKING_API_VERSION } from "../model/kind-names.js";
import { DecodeError, type DecodeErrorLocation, type DecodeFormat } from "../model/errors.js";
import type { JsonValue } from "../model/json-value.js";
import { lookupKind } from "../model/kinds.js";
import { renderPath } from "../model/path.js";
import { fromJson, fromParsedYaml } from "../text/json/from-json.js";
import { DuplicateKey, locatePath, parseJsonText } from "../text/json/parse.js";
import { parseYamlDocumentsLocated, yamlLocator, type YamlLocator, type YamlReading } from "../text/yaml/parse.js";
import { splitYamlDocuments } from "../text/yaml/split.js";
import {
  errorEntry,
  skipped,
  type At,
  type FieldValidation,
  type ManifestEntry,
  type ManifestError,
  type ReadManifestsOptions,
} from "./entries.js";
import {
  identityFromJsonText,
  identityFromText,
  identityOf,
  isObject,
  unwrapDuplicate,
  type Identity,
} from "./identity.js";
import { firstContentLine, lineStarts, positionIn, shifted } from "./text-position.js";
import type { ManifestWarning, TextPosition } from "./verdict.js";

// Reading a manifest text document by document, as kubectl reads a file it
// applies: each YAML document (or JSON value) on its own, so one bad document
// is reported without hiding the others; networking.k8s.io/v1 objects decoded,
// any other kind named and passed over, a v1 List read item by item.

/** The apiVersion and kind of kubectl's List, which it expands into its items. */
const LIST_API_VERSION = "v1";
const LIST_KIND = "List";

/**
 * Networking kinds under API versions no supported Kubernetes serves, and the
 * release that removed them.
 */
const REMOVED_KINDS: ReadonlyMap<string, string> = new Map([
  ["extensions/v1beta1/NetworkPolicy", "1.16"],
  ["extensions/v1beta1/Ingress", "1.22"],
  ["networking.k8s.io/v1beta1/Ingress", "1.22"],
  ["networking.k8s.io/v1beta1/IngressClass", "1.22"],
]);

/** The strict decoders' words for a field the schema lacks or a key given twice. */
const FIELD_PROBLEM = /^(unknown|duplicate) field "/;

/** What the JSON parser says when a value is followed by more text: the next value of a stream. */
const JSON_TRAILER = "unexpected text after the JSON value";

/** What a repeated key's warning adds in the kubectl reading: what kubectl does with it. */
const KUBECTL_SENDS_LAST = "kubectl sends the last value";

/** More unknown fields than this in one object are not listed one by one. */
const MAX_FIELD_PROBLEMS = 100;

type Locate = (path: readonly (string | number)[]) => TextPosition | undefined;

/** The lines of the text (from, inclusive, to to, exclusive) whose document warnings an entry takes. */
type Span = readonly [number, number];

const ALL_LINES: Span = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];

/** Whether a warning is at a line of the span; one with no line belongs to every entry. */
function inSpan(w: ManifestWarning, span: Span): boolean {
  const line = w.position?.line;
  return line === undefined || (line >= span[0] && line < span[1]);
}

/**
 * Reads a YAML stream or JSON text of mixed kinds, giving each document its
 * own entry, in order, as `clusterwire validate` reads a file: a
 * networking.k8s.io/v1 object decoded (`object`), a document of another kind
 * named and passed over (`skipped`), or a document that cannot be read or
 * decoded (`error`, with its line and column; the documents after it are
 * still read). A v1 `List` gives one entry per item. Empty documents and
 * comments give no entry. Never throws for bad content.
 *
 * Fields are checked as kubectl's default `fieldValidation: "Strict"` has
 * the API server check them: an unknown field makes the document an error.
 * A repeated key does not, in the default kubectl reading: kubectl sends the
 * last value, so that value is decoded and each repeat is a warning of the
 * object at its line and column (`key "controller" already set in map;
 * kubectl sends the last value`). See {@link ReadManifestsOptions}.
 *
 * @example
 * import { readManifests } from "clusterwire/networking";
 * const text = `apiVersion: apps/v1
 * kind: Deployment
 * metadata: {name: web, namespace: shop}
 * ---
 * apiVersion: networking.k8s.io/v1
 * kind: IngressClass
 * metadata: {name: edge}
 * spec: {controller: example.com/ingress}
 * `;
 * for (const e of readManifests(text)) console.log(e.type, e.document, e.line);
 * // skipped 1 1
 * // object 2 5
 */
export function readManifests(text: string, options: ReadManifestsOptions = {}): ManifestEntry[] {
  if (typeof text !== "string") throw new TypeError(`readManifests: expected text, got ${typeof text}`);
  const reader = new TextReader(text, options);
  return (options.format ?? formatOfText(text)) === "json" ? reader.json() : reader.yaml();
}

/**
 * JSON when the first non-blank character opens an object or array, as the
 * CLI guesses a file without extension; but `{{` opens a template, never JSON.
 */
function formatOfText(text: string): "yaml" | "json" {
  const at = text.search(/\S/);
  const first = at < 0 ? undefined : text[at];
  if (first === "{" && text[at + 1] === "{") return "yaml";
  return first === "{" || first === "[" ? "json" : "yaml";
}

class TextReader {
  private document = 0;
  private yamlInput = false;
  private format: DecodeFormat = "json";
  /** Warnings of the YAML document being read (a repeated key, under Warn), for each object in it. */
  private chunkWarnings: ManifestWarning[] = [];
  private readonly mode: FieldValidation;
  /** Whether a repeated key is kubectl's to settle: it reads the text non-strictly, so the last value is sent. */
  private readonly kubectlReading: boolean;

  constructor(
    private readonly text: string,
    private readonly options: ReadManifestsOptions,
  ) {
    this.mode = options.fieldValidation ?? "Strict";
    this.kubectlReading = (options.reading ?? "kubectl") === "kubectl";
  }

  /**
   * A stream of JSON values, each an object or a List of them: one for a
   * usual file, several when they are concatenated, as kubectl's decoder
   * reads them one after another. Unlike kubectl's YAMLOrJSONDecoder, a JSON
   * error before a second value does not switch to YAML (docs/json-yaml.md).
   */
  json(): ManifestEntry[] {
    const out: ManifestEntry[] = [];
    const text = this.text;
    // Found once: a position is then a binary search, where a scan from the start for each
    // document made a JSON stream of n documents take n * n steps (32,000 took 10 s).
    const starts = lineStarts(text);
    let start = text.search(/\S/);
    while (start >= 0 && start < text.length) {
      let end = text.length;
      let value: JsonValue;
      const document = ++this.document;
      const line = positionIn(starts, start).line;
      try {
        // Parsed once without decoding, to learn the kind; bigints and repeated keys survive as the decoder sees them.
        value = parseJsonText(text.slice(start)).value as JsonValue;
      } catch (e) {
        const next =
          e instanceof DecodeError && e.reason === JSON_TRAILER && e.offset !== undefined ? start + e.offset : -1;
        try {
          if (next < 0) throw e;
          end = next;
          value = parseJsonText(text.slice(start, end)).value as JsonValue;
        } catch (inner) {
          if (!(inner instanceof DecodeError)) throw inner;
          const offset = inner.offset !== undefined ? start + inner.offset : start;
          const at = positionIn(starts, offset);
          const error = new DecodeError("json", inner.reason, {
            ...at,
            offset,
            document,
            ...(inner.path !== undefined && inner.path !== "" ? { path: inner.path } : {}),
            ...(inner.segments !== undefined ? { segments: inner.segments } : {}),
          });
          // As with broken YAML: a "kind" member says the text was meant to be a manifest.
          out.push(errorEntry({ document, line }, identityFromJsonText(text.slice(start)), error));
          return out;
        }
      }
      const base = start;
      const slice = text.slice(start, end);
      const locate = (path: readonly (string | number)[]): TextPosition =>
        positionIn(starts, base + locatePath(slice, path));
      out.push(...this.classify(value, { document, line }, locate, []));
      const rest = text.slice(end).search(/\S/);
      start = rest < 0 ? -1 : end + rest;
    }
    return out;
  }

  yaml(): ManifestEntry[] {
    this.yamlInput = true;
    this.format = "yaml";
    const out: ManifestEntry[] = [];
    if (this.options.reading === "server") {
      // One request body: the raw text, its first document only.
      this.readChunk(this.text, 1, 0, "server", out);
      return out;
    }
    for (const chunk of splitYamlDocuments(this.text)) {
      this.readChunk(chunk.text, chunk.line, chunk.offset, "kubectl", out);
      if (chunk.separatorError !== undefined) {
        const e = chunk.separatorError;
        const document = ++this.document;
        const line = e.line ?? chunk.line;
        out.push(
          errorEntry(
            { document, line },
            {},
            new DecodeError("yaml", e.reason, {
              line,
              column: e.column ?? 1,
              ...(e.offset !== undefined ? { offset: e.offset } : {}),
              document,
            }),
          ),
        );
      }
    }
    return out;
  }

  private readChunk(text: string, line: number, offset: number, reading: YamlReading, out: ManifestEntry[]): void {
    if (text.trim() === "") return;
    let values: JsonValue[];
    let locator: YamlLocator | undefined;
    this.chunkWarnings = [];
    try {
      ({ values, locator } = this.parseChunk(text, line, offset, reading));
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      const document = ++this.document;
      // Even when the YAML is broken, a kind written near the top says what the document was meant to be.
      const identity = identityFromText(text);
      const entry = errorEntry({ document, line }, identity, shifted(e, line, offset, document));
      out.push(/\{\{.*\}\}/.test(text) ? { ...entry, template: true } : entry);
      return;
    }
    // While the chunk is read, the locator walks the trees the parse composed, so an error found
    // here (a removed API version, a decode error) reads the text no second time. Then they are let
    // go, so that entries kept do not hold them: an object's later placements (its validation
    // errors) compose the text again, once.
    values.forEach((value, index) => {
      const document = ++this.document;
      const locate = (path: readonly (string | number)[]): TextPosition | undefined => {
        locator ??= yamlLocator(text, reading);
        const w = locator(index, path, false);
        return w.line === undefined ? undefined : { line: w.line + line - 1, column: w.column ?? 1 };
      };
      const start = values.length === 1 ? firstContentLine(text, line) : (locate([])?.line ?? line);
      out.push(...this.classify(value, { document, line: start }, locate, []));
    });
    locator = undefined;
  }

  /**
   * Parses one document. In the kubectl reading a repeated key is a warning,
   * each one named, the last value winning: kubectl reads YAML non-strictly
   * and sends that value, so the API server never sees the repeat. Read as
   * one request body, a repeated key is the server's strict decoding error
   * under Strict, and under Warn a warning (go-yaml stops at the first, so
   * only that one is named).
   */
  private parseChunk(
    text: string,
    line: number,
    offset: number,
    reading: YamlReading,
  ): { readonly values: JsonValue[]; readonly locator: YamlLocator } {
    if (this.mode === "Ignore") return parseYamlDocumentsLocated(text, { uniqueKeys: false, reading });
    if (this.kubectlReading) {
      const onRepeatedKey = (e: DecodeError): void => {
        const moved = shifted(e, line, offset, undefined);
        this.chunkWarnings.push({
          message: `${moved.reason}; ${KUBECTL_SENDS_LAST}`,
          ...(moved.line !== undefined ? { position: { line: moved.line, column: moved.column ?? 1 } } : {}),
        });
      };
      return parseYamlDocumentsLocated(text, { uniqueKeys: true, reading, onRepeatedKey });
    }
    try {
      return parseYamlDocumentsLocated(text, { uniqueKeys: true, reading });
    } catch (e) {
      if (this.mode === "Strict" || !(e instanceof DecodeError) || !/ already set in map$/.test(e.reason)) throw e;
      const parsed = parseYamlDocumentsLocated(text, { uniqueKeys: false, reading });
      const moved = shifted(e, line, offset, undefined);
      this.chunkWarnings.push({
        message: moved.reason,
        ...(moved.line !== undefined ? { position: { line: moved.line, column: moved.column ?? 1 } } : {}),
      });
      return parsed;
    }
  }

  /**
   * Turns one parsed document into entries: a networking object decoded,
   * another kind named, a v1 List expanded into its items.
   */
  private classify(
    value: JsonValue,
    at: At,
    locate: Locate,
    prefix: readonly (string | number)[],
    span: Span = ALL_LINES,
  ): ManifestEntry[] {
    const id = identityOf(value);
    if (prefix.length === 0 && id.apiVersion === LIST_API_VERSION && id.kind === LIST_KIND && isObject(value)) {
      const items = value.items;
      if (Array.isArray(items)) {
        const lines = items.map((_, i) => locate(["items", i])?.line ?? at.line);
        return items.flatMap((item, i) => {
          const path = ["items", i];
          const itemAt: At = { ...at, item: i, line: lines[i] ?? at.line };
          // A warning of the document goes to the item whose lines hold it: the first takes those before it, the last those after it.
          const from = i === 0 ? Number.NEGATIVE_INFINITY : (lines[i] ?? at.line);
          const to = i === items.length - 1 ? Number.POSITIVE_INFINITY : (lines[i + 1] ?? at.line);
          return this.classify(item, itemAt, (p) => locate([...path, ...p]), path, [from, to]);
        });
      }
    }
    // Only networking.k8s.io/v1 kinds are checked; the decoder also knows meta/v1 Status, which is no object to create.
    const known =
      id.apiVersion === NETWORKING_API_VERSION &&
      id.kind !== undefined &&
      lookupKind(id.apiVersion, id.kind) !== undefined;
    if (known && this.options.select !== undefined && !this.options.select(id.apiVersion ?? "", id.kind ?? "")) {
      return [skipped(at, id, this.options.notSelected ?? "not selected")];
    }
    const removed =
      id.apiVersion !== undefined && id.kind !== undefined
        ? REMOVED_KINDS.get(`${id.apiVersion}/${id.kind}`)
        : undefined;
    if (removed !== undefined) {
      // Not another kind to pass over: no API server still serves it, so it is refused as kubectl would be.
      const message = `no matches for kind ${JSON.stringify(id.kind)} in version ${JSON.stringify(id.apiVersion)}: removed in Kubernetes ${removed}; use ${NETWORKING_API_VERSION}`;
      return [this.failed(at, id, message, ["apiVersion"], locate)];
    }
    // A kind networking.k8s.io/v1 does not have falls through to the decoder, which refuses it as the API server would.
    if (
      !known &&
      id.apiVersion !== undefined &&
      id.apiVersion !== "" &&
      id.apiVersion !== NETWORKING_API_VERSION &&
      id.kind !== undefined &&
      id.kind !== ""
    ) {
      return [skipped(at, id, `${id.apiVersion} ${id.kind} is not a ${NETWORKING_API_VERSION} kind`)];
    }
    return [this.decode(value, at, locate, id, span)];
  }

  /** Decodes a networking object under the field validation asked for. */
  private decode(value: JsonValue, at: At, locate: Locate, id: Identity, span: Span): ManifestEntry {
    const mode = this.mode;
    const problems: { message: string; path: readonly (string | number)[] }[] = [];
    // Repeated JSON keys in the kubectl reading: kubectl's non-strict decoder sends the last value.
    const repeats: { message: string; path: readonly (string | number)[] }[] = [];
    // The decoder stops at the first unknown or repeated field. To report them
    // all, as the API server does, each one found is removed from a copy of the
    // value and decoding is tried again; bounded, since each pass removes one
    // and the passes stop at MAX_FIELD_PROBLEMS.
    let current = value;
    const listed = (): string => problems.map((p) => p.message).join(", ");
    for (;;) {
      try {
        const strict = mode !== "Ignore";
        // YAML integers and floats follow go-yaml's rules, so a YAML value has its own entry point.
        // fromJson reads a string as JSON text: a parsed string goes back to its text.
        const object = this.yamlInput
          ? fromParsedYaml(current, { strict })
          : fromJson(typeof current === "string" ? JSON.stringify(current) : current, { strict });
        if (problems.length > 0 && mode === "Strict") {
          return this.failed(at, id, `strict decoding error: ${listed()}`, problems[0]?.path ?? [], locate);
        }
        const located = (p: { message: string; path: readonly (string | number)[] }): ManifestWarning => ({
          message: p.message,
          ...fieldAt(p.path, locate),
        });
        const chunk = this.chunkWarnings.filter((w) => inSpan(w, span));
        const warnings =
          mode === "Warn"
            ? [...chunk, ...repeats.map(located), ...problems.map(located)]
            : [...chunk, ...repeats.map(located)];
        return { type: "object", ...at, object, warnings, locate };
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        const path = e.segments ?? [];
        if (!FIELD_PROBLEM.test(e.reason) || path.length === 0) return this.failed(at, id, e.reason, path, locate);
        const message = `${e.reason.slice(0, e.reason.indexOf(" "))} field ${JSON.stringify(renderPath(path))}`;
        if (this.kubectlReading && e.reason.startsWith("duplicate")) {
          repeats.push({ message: `${message}; ${KUBECTL_SENDS_LAST}`, path });
        } else problems.push({ message, path });
        if (problems.length + repeats.length === MAX_FIELD_PROBLEMS) {
          // Past this many the object is not what its kind describes; even under Warn it is refused.
          const all = [...problems, ...repeats];
          const message = `strict decoding error: ${all.map((p) => p.message).join(", ")}, and more`;
          return this.failed(at, id, message, all[0]?.path ?? [], locate);
        }
        current = without(current, path, e.reason.startsWith("unknown"));
      }
    }
  }

  /** An error about the field at `path` of a parsed document, located in the text. */
  private failed(
    at: At,
    id: Identity,
    reason: string,
    path: readonly (string | number)[],
    locate: Locate,
  ): ManifestError {
    const field = fieldAt(path, locate);
    const error = reportedError(this.format, reason, {
      document: at.document,
      ...(field.position !== undefined ? field.position : {}),
      ...(field.field !== undefined ? { path: field.field, segments: path } : {}),
    });
    return errorEntry(at, id, error);
  }
}

/**
 * A DecodeError that is reported in an entry and never thrown, built without
 * capturing a stack trace: its stack would only name clusterwire's own
 * frames. Hand-written for speed: capturing it took about 2% of a CPU profile
 * of `clusterwire validate` over 10,000 files (1,150 refused documents,
 * 1,050 of them removed API versions). Message, reason and place are as
 * `new DecodeError` gives them.
 */
function reportedError(format: DecodeFormat, reason: string, where: DecodeErrorLocation): DecodeError {
  // V8's limit on captured frames; engines without it are left alone.
  const engine = Error as { stackTraceLimit?: unknown };
  const limit = engine.stackTraceLimit;
  if (typeof limit !== "number") return new DecodeError(format, reason, where);
  engine.stackTraceLimit = 0;
  try {
    return new DecodeError(format, reason, where);
  } finally {
    engine.stackTraceLimit = limit;
  }
}

function fieldAt(path: readonly (string | number)[], locate: Locate): { field?: string; position?: TextPosition } {
  if (path.length === 0) return {};
  const position = locate(path);
  return { field: renderPath(path), ...(position !== undefined ? { position } : {}) };
}

/** A copy of `value` without the member at `path` (only the objects on the path are copied). */
function without(value: JsonValue, path: readonly (string | number)[], unknown: boolean): JsonValue {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(value) && typeof head === "number") {
    const copy = value.slice();
    if (rest.length === 0) copy.splice(head, 1);
    else copy[head] = without(value[head] as JsonValue, rest, unknown);
    return copy;
  }
  if (isObject(value)) {
    const copy = Object.assign(Object.create(null) as Record<string, JsonValue>, value);
    const key = String(head);
    // A repeated key keeps its last value, as the decoder would; an unknown one is dropped, however often written.
    if (rest.length === 0 && !unknown && value[key] instanceof DuplicateKey)
      copy[key] = unwrapDuplicate(value[key] as JsonValue);
    else if (rest.length === 0) delete copy[key];
    else copy[key] = without(unwrapDuplicate(value[key] as JsonValue), rest, unknown);
    return copy as JsonValue;
  }
  return value;
}
