import {
  DecodeError,
  decode,
  decodeJsonWatchStream,
  decodeWatchStream,
  fromJson,
  lookupKind,
  NETWORKING_API_VERSION,
  splitYamlDocuments,
  type JsonValue,
  type NetworkingObject,
  type WatchEvent,
  type WatchEventType,
} from "../../networking/index.js";
import { fromParsedYaml } from "../../networking/text/from-json.js";
import { DuplicateKey, locatePath, parseJsonText } from "../../networking/text/json-parse.js";
import { locateYamlPath, parseYamlDocuments } from "../../networking/text/yaml-parse.js";
import { CliError, asText, hasMagic, type Input } from "./io.js";
import { manifestFormat } from "./manifest-format.js";
import type { DecodeFailure, Position, Warning } from "./verdict.js";

// Reading one manifest file document by document, as kubectl reads a file it
// applies: each YAML document on its own, so one bad document is reported
// without hiding the others; networking.k8s.io/v1 objects decoded, any other
// kind named and passed over.

/**
 * How unknown and repeated fields are treated, as the API server's
 * `fieldValidation` query parameter: Strict refuses the object (kubectl's
 * default), Warn decodes it and returns a warning per field, Ignore drops them.
 */
export type FieldValidation = "Strict" | "Warn" | "Ignore";

export const FIELD_VALIDATIONS: readonly FieldValidation[] = ["Strict", "Warn", "Ignore"];

interface Located {
  /** 1-based document or watch event number in the file. */
  readonly document?: number;
  /** 0-based index in a v1 List's items. */
  readonly item?: number;
  /** 1-based line where the document (or List item) starts, for text. */
  readonly line?: number;
  readonly event?: WatchEventType;
}

/** A networking.k8s.io/v1 object, decoded. */
export interface ObjectDocument extends Located {
  readonly type: "object";
  readonly object: NetworkingObject;
  /** Unknown or repeated fields under fieldValidation=Warn. */
  readonly warnings: readonly Warning[];
  /** Where the value at a JSON field path sits in the file, for text input. */
  readonly locate: (path: readonly (string | number)[]) => Position | undefined;
  /** For protobuf input: the bytes the object (or its whole watch frame) came from. */
  readonly original?: Uint8Array;
}

/** A document of some other kind, or a kind not selected: passed over, but named. */
export interface OtherDocument extends Located {
  readonly type: "other";
  readonly apiVersion: string;
  readonly kind: string;
  readonly name?: string;
  readonly namespace?: string;
}

/** A document that cannot be decoded; what could be read of its identity is kept. */
export interface FailedDocument extends Located {
  readonly type: "failed";
  readonly failure: DecodeFailure;
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

export type ReadDocument = ObjectDocument | OtherDocument | FailedDocument;

export interface ReadFile {
  readonly documents: readonly ReadDocument[];
  /**
   * Set when the file is not a Kubernetes manifest at all: JSON or YAML
   * with no kind anywhere (package.json, a Helm Chart.yaml or values file),
   * or an unrendered template. Its documents are then empty.
   */
  readonly notManifest?: string;
}

export interface ReadOptions {
  readonly fieldValidation: FieldValidation;
  /** Kinds to decode; others are returned as OtherDocument. Default: every networking kind. */
  readonly select?: (apiVersion: string, kind: string) => boolean;
}

/** The type meta and identity of a parsed document, read without decoding it. */
interface Identity {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

/** The apiVersion and kind of kubectl's List, which it expands into its items. */
const LIST_API_VERSION = "v1";
const LIST_KIND = "List";

/**
 * Networking kinds under API versions no supported Kubernetes serves, and the
 * release that removed them (Kubernetes deprecated API migration guide).
 */
const REMOVED_KINDS: ReadonlyMap<string, string> = new Map([
  ["extensions/v1beta1/NetworkPolicy", "1.16"],
  ["extensions/v1beta1/Ingress", "1.22"],
  ["networking.k8s.io/v1beta1/Ingress", "1.22"],
  ["networking.k8s.io/v1beta1/IngressClass", "1.22"],
]);

/** The strict decoders' words for a field the schema lacks or a key given twice. */
const FIELD_PROBLEM = /^(unknown|duplicate) field "/;

/**
 * Reads one file. Never throws for bad content: every problem becomes a
 * FailedDocument (or the file's notManifest note). Text that is not UTF-8
 * is one failed document.
 */
export async function readManifestFile(input: Input, options: ReadOptions): Promise<ReadFile> {
  const format = manifestFormat(input.name, input.bytes);
  if (format === "pb") return { documents: await readProtobuf(input.bytes) };
  // The watch decoder reads the bytes itself, and gives a byte offset where UTF-8 breaks.
  if (format === "jsonl") return { documents: await readJsonWatch(input.bytes, options) };
  let text: string;
  try {
    text = asText(input, format);
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    return { documents: [{ type: "failed", failure: { message: e.message.slice(input.name.length + 2) } }] };
  }
  const reader = new TextReader(text, options);
  const documents = format === "json" ? reader.json() : reader.yaml();
  // A template is not a manifest until rendered, even where its kind can be read.
  if (reader.looksTemplated) return { documents: [], notManifest: TEMPLATE_NOTE };
  if (reader.sawManifest || documents.length === 0) {
    if (documents.length === 0) return { documents, notManifest: "no documents: empty, or comments only" };
    return { documents };
  }
  return { documents: [], notManifest: "no kind: not a Kubernetes manifest" };
}

export const TEMPLATE_NOTE =
  "holds {{ }} and does not parse: a template, not a manifest (render it first, e.g. helm template)";

async function readProtobuf(bytes: Uint8Array): Promise<ReadDocument[]> {
  const locate = (): undefined => undefined;
  if (hasMagic(bytes)) {
    try {
      return [{ type: "object", object: decode(bytes), warnings: [], locate, original: bytes }];
    } catch (e) {
      return [{ type: "failed", failure: failureOf(e) }];
    }
  }
  const out: ReadDocument[] = [];
  let at = 0;
  try {
    for await (const ev of decodeWatchStream([bytes])) {
      // The decoder checked the framing, so the length prefix can be trusted here.
      const len = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
      out.push(watchDocument(out.length + 1, ev, bytes.subarray(at, at + 4 + len)));
      at += 4 + len;
    }
  } catch (e) {
    out.push({ type: "failed", document: out.length + 1, failure: failureOf(e) });
  }
  return out;
}

/** An object read from a watch stream: stored by the server, with no lines to point at. */
function watchDocument(document: number, ev: WatchEvent, original?: Uint8Array): ObjectDocument {
  return {
    type: "object",
    document,
    event: ev.type,
    object: ev.object,
    warnings: [],
    locate: () => undefined,
    ...(original !== undefined ? { original } : {}),
  };
}

async function readJsonWatch(bytes: Uint8Array, options: ReadOptions): Promise<ReadDocument[]> {
  const out: ReadDocument[] = [];
  try {
    const strict = options.fieldValidation === "Strict";
    for await (const ev of decodeJsonWatchStream([bytes], { strict })) {
      out.push(watchDocument(out.length + 1, ev));
    }
  } catch (e) {
    out.push({ type: "failed", document: out.length + 1, failure: failureOf(e) });
  }
  return out;
}

class TextReader {
  /** Whether any document carried a kind. */
  sawManifest = false;
  /** Whether a document failed to parse and the text has template braces. */
  looksTemplated = false;
  private document = 0;
  private yamlInput = false;
  /** Warnings of the YAML document being read (a repeated key, under Warn), for each object in it. */
  private chunkWarnings: Warning[] = [];

  constructor(
    private readonly text: string,
    private readonly options: ReadOptions,
  ) {}

  /** One JSON value: an object, or a List of them. */
  /**
   * A stream of JSON values, each an object or a List of them: one for a
   * usual file, several when they are concatenated, as kubectl's decoder
   * reads them one after another.
   */
  json(): ReadDocument[] {
    const out: ReadDocument[] = [];
    const text = this.text;
    let start = text.search(/\S/);
    while (start >= 0 && start < text.length) {
      let end = text.length;
      let value: JsonValue;
      const document = ++this.document;
      const line = positionOf(text, start).line;
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
          // As with broken YAML: a "kind" member says the text was meant to be a manifest, so the failure is reported.
          if (/"kind"\s*:/.test(text)) this.sawManifest = true;
          const f = failureOf(inner);
          const offset = inner instanceof DecodeError && inner.offset !== undefined ? start + inner.offset : start;
          out.push({ type: "failed", document, line, failure: { ...f, position: positionOf(text, offset) } });
          return out;
        }
      }
      const base = start;
      const slice = text.slice(start, end);
      const locate = (path: readonly (string | number)[]): Position => positionOf(text, base + locatePath(slice, path));
      out.push(...this.classify(value, { document, line }, locate, []));
      const rest = text.slice(end).search(/\S/);
      start = rest < 0 ? -1 : end + rest;
    }
    return out;
  }

  yaml(): ReadDocument[] {
    this.yamlInput = true;
    const out: ReadDocument[] = [];
    for (const chunk of splitYamlDocuments(this.text)) {
      this.readChunk(chunk.text, chunk.line, out);
      if (chunk.separatorError !== undefined) {
        out.push({
          type: "failed",
          document: ++this.document,
          line: chunk.separatorError.line ?? chunk.line,
          failure: failureOf(chunk.separatorError),
        });
      }
    }
    return out;
  }

  private readChunk(text: string, line: number, out: ReadDocument[]): void {
    if (text.trim() === "") return;
    let values: JsonValue[];
    this.chunkWarnings = [];
    try {
      values = this.parseChunk(text, line);
    } catch (e) {
      const failure = shiftFailure(failureOf(e), line);
      if (/\{\{.*\}\}/.test(text)) this.looksTemplated = true;
      // Even when the YAML is broken, a kind written near the top says what the document was meant to be.
      const identity = identityFromText(text);
      out.push({ type: "failed", document: ++this.document, line, failure, ...identity });
      if (identity.kind !== undefined) this.sawManifest = true;
      return;
    }
    values.forEach((value, index) => {
      const document = ++this.document;
      const locate = (path: readonly (string | number)[]): Position | undefined => {
        const w = locateYamlPath(text, index, path);
        return w.line === undefined ? undefined : { line: w.line + line - 1, column: w.column ?? 1 };
      };
      out.push(
        ...this.classify(
          value,
          { document, line: values.length === 1 ? firstContentLine(text, line) : (locate([])?.line ?? line) },
          locate,
          [],
        ),
      );
    });
  }

  /**
   * Parses one document. Under Warn a repeated key is a warning, the last
   * value winning; go-yaml stops at the first, so only that one is named.
   */
  private parseChunk(text: string, line: number): JsonValue[] {
    const mode = this.options.fieldValidation;
    if (mode === "Ignore") return parseYamlDocuments(text, { uniqueKeys: false });
    try {
      return parseYamlDocuments(text, { uniqueKeys: true });
    } catch (e) {
      if (mode === "Strict" || !(e instanceof DecodeError) || !/ already set in map$/.test(e.reason)) throw e;
      const values = parseYamlDocuments(text, { uniqueKeys: false });
      const failure = shiftFailure(failureOf(e), line);
      this.chunkWarnings.push({
        message: failure.message,
        ...(failure.position !== undefined ? { position: failure.position } : {}),
      });
      return values;
    }
  }

  /**
   * Turns one parsed document into read documents: a networking object
   * decoded, another kind named, a v1 List expanded into its items.
   */
  private classify(
    value: JsonValue,
    at: Located,
    locate: (path: readonly (string | number)[]) => Position | undefined,
    prefix: readonly (string | number)[],
  ): ReadDocument[] {
    const id = identityOf(value);
    // A kind makes a manifest; an apiVersion alone does not (Helm's Chart.yaml has one).
    if (id.kind !== undefined) this.sawManifest = true;
    if (prefix.length === 0 && id.apiVersion === LIST_API_VERSION && id.kind === LIST_KIND && isObject(value)) {
      const items = value.items;
      if (Array.isArray(items)) {
        return items.flatMap((item, i) => {
          const path = ["items", i];
          const line = locate(path)?.line ?? at.line;
          const itemAt: Located = { ...at, item: i, ...(line !== undefined ? { line } : {}) };
          return this.classify(item, itemAt, (p) => locate([...path, ...p]), path);
        });
      }
    }
    // Only networking.k8s.io/v1 kinds are checked; the decoder also knows meta/v1 Status, which is no object to create.
    const known =
      id.apiVersion === NETWORKING_API_VERSION &&
      id.kind !== undefined &&
      lookupKind(id.apiVersion, id.kind) !== undefined;
    if (known && this.options.select !== undefined && !this.options.select(id.apiVersion ?? "", id.kind ?? "")) {
      return [{ type: "other", ...at, apiVersion: id.apiVersion ?? "", kind: id.kind ?? "", ...nameOf(id) }];
    }
    const removed =
      id.apiVersion !== undefined && id.kind !== undefined
        ? REMOVED_KINDS.get(`${id.apiVersion}/${id.kind}`)
        : undefined;
    if (removed !== undefined) {
      // Not another kind to pass over: no API server still serves it, so it is refused as kubectl would be.
      return [
        failed(at, id, {
          message: `no matches for kind ${JSON.stringify(id.kind)} in version ${JSON.stringify(id.apiVersion)}: removed in Kubernetes ${removed}; use networking.k8s.io/v1`,
          ...fieldAt(["apiVersion"], locate),
        }),
      ];
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
      return [{ type: "other", ...at, apiVersion: id.apiVersion, kind: id.kind, ...nameOf(id) }];
    }
    return [this.decode(value, at, locate, id)];
  }

  /** Decodes a networking object under the field validation asked for. */
  private decode(
    value: JsonValue,
    at: Located,
    locate: (path: readonly (string | number)[]) => Position | undefined,
    id: Identity,
  ): ReadDocument {
    const mode = this.options.fieldValidation;
    const problems: { message: string; path: readonly (string | number)[] }[] = [];
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
        const object = this.yamlInput ? fromParsedYaml(current, { strict }) : fromJson(current, { strict });
        if (problems.length > 0 && mode === "Strict") {
          return failed(at, id, {
            message: `strict decoding error: ${listed()}`,
            ...fieldAt(problems[0]?.path ?? [], locate),
          });
        }
        const warnings =
          mode === "Warn"
            ? [...this.chunkWarnings, ...problems.map((p) => ({ message: p.message, ...fieldAt(p.path, locate) }))]
            : [];
        return { type: "object", ...at, object, warnings, locate };
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        const path = e.segments ?? [];
        if (!FIELD_PROBLEM.test(e.reason) || path.length === 0) {
          return failed(at, id, { message: e.reason, ...fieldAt(path, locate) });
        }
        problems.push({
          message: `${e.reason.slice(0, e.reason.indexOf(" "))} field ${JSON.stringify(renderField(path))}`,
          path,
        });
        if (problems.length === MAX_FIELD_PROBLEMS) {
          // Past this many the object is not what its kind describes; even under Warn it is refused.
          const message = `strict decoding error: ${listed()}, and more`;
          return failed(at, id, { message, ...fieldAt(problems[0]?.path ?? [], locate) });
        }
        current = without(current, path);
      }
    }
  }
}

/** What the JSON parser says when a value is followed by more text: the next value of a stream. */
const JSON_TRAILER = "unexpected text after the JSON value";

/** More unknown fields than this in one object are not listed one by one. */
const MAX_FIELD_PROBLEMS = 100;

function failed(at: Located, id: Identity, failure: DecodeFailure): FailedDocument {
  return {
    type: "failed",
    ...at,
    failure,
    ...(id.apiVersion !== undefined ? { apiVersion: id.apiVersion } : {}),
    ...(id.kind !== undefined ? { kind: id.kind } : {}),
    ...nameOf(id),
  };
}

function fieldAt(
  path: readonly (string | number)[],
  locate: (path: readonly (string | number)[]) => Position | undefined,
): { field?: string; position?: Position } {
  if (path.length === 0) return {};
  const position = locate(path);
  return { field: renderField(path), ...(position !== undefined ? { position } : {}) };
}

/** `spec.rules[0].host`, as Kubernetes renders field paths. */
export function renderField(path: readonly (string | number)[]): string {
  let out = "";
  for (const seg of path) out += typeof seg === "number" ? `[${seg}]` : out === "" ? seg : `.${seg}`;
  return out;
}

/** A copy of `value` without the member at `path` (only the objects on the path are copied). */
function without(value: JsonValue, path: readonly (string | number)[]): JsonValue {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(value) && typeof head === "number") {
    const copy = value.slice();
    if (rest.length === 0) copy.splice(head, 1);
    else copy[head] = without(value[head] as JsonValue, rest);
    return copy;
  }
  if (isObject(value)) {
    const copy = Object.assign(Object.create(null) as Record<string, JsonValue>, value);
    const key = String(head);
    // A repeated key keeps its last value, as the decoder would; an unknown one is dropped.
    if (rest.length === 0 && value[key] instanceof DuplicateKey) copy[key] = unwrapDuplicate(value[key] as JsonValue);
    else if (rest.length === 0) delete copy[key];
    else copy[key] = without(unwrapDuplicate(value[key] as JsonValue), rest);
    return copy as JsonValue;
  }
  return value;
}

/** JSON text parsed by parseJsonText marks a repeated key with its values; the last one is the one decoded. */
function unwrapDuplicate(v: JsonValue): JsonValue {
  const d = v as unknown;
  return d instanceof DuplicateKey ? (d.values[d.values.length - 1] as JsonValue) : v;
}

function isObject(v: unknown): v is Record<string, JsonValue> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function stringAt(obj: Record<string, JsonValue>, key: string): string | undefined {
  const v = unwrapDuplicate(obj[key] as JsonValue);
  return typeof v === "string" ? v : undefined;
}

function identityOf(value: JsonValue): Identity {
  if (!isObject(value)) return {};
  const meta = unwrapDuplicate(value.metadata as JsonValue);
  const apiVersion = stringAt(value, "apiVersion");
  const kind = stringAt(value, "kind");
  const name = isObject(meta) ? stringAt(meta, "name") : undefined;
  const namespace = isObject(meta) ? stringAt(meta, "namespace") : undefined;
  return {
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
  };
}

function nameOf(id: Identity): { name?: string; namespace?: string } {
  return {
    ...(id.name !== undefined && id.name !== "" ? { name: id.name } : {}),
    ...(id.namespace !== undefined && id.namespace !== "" ? { namespace: id.namespace } : {}),
  };
}

/** `kind:` and `apiVersion:` written at the top level of a document that does not parse. */
function identityFromText(text: string): Identity {
  const kind = /^kind:[ \t]*["']?([A-Za-z0-9]+)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
  const apiVersion = /^apiVersion:[ \t]*["']?([A-Za-z0-9./-]+)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
  return { ...(kind !== undefined ? { kind } : {}), ...(apiVersion !== undefined ? { apiVersion } : {}) };
}

function failureOf(e: unknown): DecodeFailure {
  if (e instanceof DecodeError) {
    return {
      message: e.reason,
      ...(e.path !== undefined && e.path !== "" ? { field: e.path } : {}),
      ...(e.line !== undefined ? { position: { line: e.line, column: e.column ?? 1 } } : {}),
      // Where no line is known (protobuf, a watch stream), the byte offset says where.
      ...(e.line === undefined && e.offset !== undefined ? { offset: e.offset } : {}),
    };
  }
  throw e;
}

/**
 * The first line of a document that holds content (not blank, a comment or a
 * directive): where the document starts for a reader, found without parsing.
 */
function firstContentLine(text: string, line: number): number {
  let n = line;
  for (const l of text.split("\n", 200)) {
    if (!/^\s*(#.*)?\r?$/.test(l) && !l.startsWith("%")) return n;
    n++;
  }
  return line;
}

/** A failure found in a document that starts at `line` of its file. */
function shiftFailure(f: DecodeFailure, line: number): DecodeFailure {
  if (f.position === undefined) return f;
  return { ...f, position: { line: f.position.line + line - 1, column: f.position.column } };
}

/** 1-based line and column (in UTF-16 units, as editors count) of a character offset. */
function positionOf(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
