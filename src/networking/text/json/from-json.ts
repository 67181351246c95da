import { DecodeError } from "../../model/errors.js";
import { DuplicateKey, jsonError, locatePath, parseJsonText, type ParsedJson, type ParsedValue } from "./parse.js";
import { fastFromJsonText } from "./fast-text.js";
import { fastFromJsonValue } from "./fast-value.js";
import { PathError } from "./path-error.js";
import { unmarshalTypeError } from "./type-error.js";
import { FIND_KIND_ERROR, FIND_KIND_TYPE, findKindField } from "../find-kind.js";
import type { JsonValue } from "../../model/json-value.js";
import { supportedKinds } from "../../model/kind-names.js";
import { KINDS, lookupKind, type NetworkingObject } from "../../model/kinds.js";
import { renderPath } from "../../model/path.js";
import { Decoding, goMembers, isObject, valueKind, type Ctx } from "./decoding.js";
import { decodeKind } from "./decode-object.js";

// Kubernetes JSON in: the entry points, the kind found from apiVersion and kind as the API
// server finds it, and every problem turned into a DecodeError placed in the text. The fast
// paths (fast-text.ts, fast-value.ts) come first; the generic decoder (decode-object.ts) is what
// they fall back on and are held to.

/**
 * Options of {@link fromJson}.
 *
 * @example
 * ```ts
 * import { DecodeError, fromJson } from "clusterwire/networking";
 *
 * try {
 *   fromJson('{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","spec":{"rulez":[]}}', { strict: true });
 * } catch (e) {
 *   if (e instanceof DecodeError) console.log(e.message); // ... field spec.rulez: unknown field "rulez"
 * }
 * ```
 */
export interface FromJsonOptions {
  /**
   * Reject unknown and duplicate fields, naming their path, as the API server
   * does with `fieldValidation=Strict`. By default they are dropped (unknown)
   * or decoded in order (duplicates), as the API server's default decoder does.
   */
  readonly strict?: boolean;
  /** Maximum nesting of JSON objects and arrays. Default 100. */
  readonly maxDepth?: number;
}

/**
 * Decodes Kubernetes JSON (text, or an already-parsed value) into a typed
 * object, picking the type from `apiVersion` and `kind`. Errors are
 * {@link DecodeError}s naming the field path and, for text, line and column.
 *
 * @example
 * ```ts
 * import { fromJson } from "clusterwire/networking";
 *
 * const object = fromJson('{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"nginx"}}');
 * console.log(object.$typeName); // "k8s.io.api.networking.v1.IngressClass"
 * ```
 */
export function fromJson(input: string | JsonValue, options: FromJsonOptions = {}): NetworkingObject {
  const fast =
    typeof input === "string"
      ? fastFromJsonText(input, options.strict === true, options.maxDepth ?? 100)
      : fastFromJsonValue(input, options.strict === true);
  return fast ?? genericFromJson(input, options);
}

/**
 * fromJson by the generic parser and decoder alone: the specification the
 * fast paths are held to (tests), and what they fall back on.
 */
export function genericFromJson(input: string | JsonValue, options: FromJsonOptions = {}): NetworkingObject {
  let source: ParsedJson | undefined;
  let value: ParsedValue;
  if (typeof input === "string") {
    source = parseJsonText(input, options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {});
    value = source.value;
  } else {
    value = input as ParsedValue;
  }
  return decodeTop({ strict: options.strict === true, source, format: "json" }, value);
}

/**
 * Decodes the member `key` of an already-parsed JSON object, such as the
 * `object` of a JSON watch event. Errors are located in the whole text and
 * their paths start with `key`.
 */
export function fromParsedJsonMember(parsed: ParsedJson, key: string, options: FromJsonOptions = {}): NetworkingObject {
  const root = parsed.value as Record<string, ParsedValue | DuplicateKey>;
  let member = root[key];
  if (member instanceof DuplicateKey) member = member.values[member.values.length - 1];
  return decodeTop(
    { strict: options.strict === true, source: parsed, format: "json", at: [key] },
    (member ?? null) as ParsedValue,
  );
}

/** Decodes a value parsed from YAML (used by fromYaml). */
export function fromParsedYaml(value: JsonValue, options: FromJsonOptions = {}): NetworkingObject {
  return decodeTop({ strict: options.strict === true, source: undefined, format: "yaml" }, value as ParsedValue);
}

function decodeTop(ctx: Ctx, value: ParsedValue): NetworkingObject {
  try {
    // Go reads null into the struct as nothing at all: no kind.
    if (value === null) throw new PathError("Object 'Kind' is missing", ["kind"]);
    if (!isObject(value)) {
      const d = new Decoding(ctx, true);
      throw d.error(FIND_KIND_ERROR + unmarshalTypeError(valueKind(d, value), FIND_KIND_TYPE, "", ""));
    }
    checkFindKind(ctx, value);
    const apiVersion = typeMetaString(value, "apiVersion");
    const kind = typeMetaString(value, "kind");
    if (kind === "") throw new PathError("Object 'Kind' is missing", ["kind"]);
    if (apiVersion === "") throw new PathError("Object 'apiVersion' is missing", ["apiVersion"]);
    const info = lookupKind(apiVersion, kind);
    if (info === undefined) {
      // Blame the apiVersion when the kind exists under another one.
      const at = KINDS.some((k) => k.kind === kind) ? "apiVersion" : "kind";
      throw new PathError(
        `unsupported apiVersion/kind ${JSON.stringify(`${apiVersion}/${kind}`)}; supported: ${supportedKinds()}`,
        [at],
      );
    }
    return decodeKind(ctx, info.desc, value);
  } catch (e) {
    throw toDecodeError(ctx, e);
  }
}

/** Throws the find-kind step's type error: a key it reads as kind or apiVersion holding neither a string nor null. */
function checkFindKind(ctx: Ctx, obj: Record<string, ParsedValue | DuplicateKey>): void {
  // Most objects have no such key: the members are put in Go's order only when one is there.
  const bad = (v: ParsedValue | DuplicateKey | undefined): boolean =>
    v !== undefined &&
    v !== null &&
    typeof v !== "string" &&
    !(v instanceof DuplicateKey && v.values.every((x) => x === null || typeof x === "string"));
  if (!Object.keys(obj).some((k) => findKindField(k) !== undefined && bad(obj[k]))) return;
  const d = new Decoding(ctx, true);
  for (const [key, v, occurrence] of goMembers(d, obj)) {
    const field = findKindField(key);
    if (field === undefined || v === null || typeof v === "string") continue;
    d.enter(key, occurrence);
    d.fail(FIND_KIND_ERROR + unmarshalTypeError(valueKind(d, v), "string", "", field));
  }
}

function typeMetaString(obj: Record<string, ParsedValue | DuplicateKey>, key: string): string {
  let v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  if (v instanceof DuplicateKey) v = v.values[v.values.length - 1];
  // checkFindKind has refused any other type.
  return typeof v === "string" ? v : "";
}

function toDecodeError(ctx: Ctx, e: unknown): DecodeError {
  if (e instanceof DecodeError) return e;
  if (e instanceof PathError) {
    for (const seg of [...(ctx.at ?? [])].reverse()) e.prefix(seg);
    const path = renderPath(e.path);
    const segments = e.path;
    if (ctx.source !== undefined) {
      // Errors are rare: re-parse with positions to point at the value.
      return jsonError(ctx.source.text, e.reason, locatePath(ctx.source.text, segments, e.occurrences), path, segments);
    }
    return new DecodeError(ctx.format, e.reason, { path, segments });
  }
  if (e instanceof RangeError && /call stack/i.test(e.message))
    return new DecodeError(ctx.format, "input nested too deeply");
  // Anything else is a bug in clusterwire, not bad input: let it surface as one.
  throw e;
}
