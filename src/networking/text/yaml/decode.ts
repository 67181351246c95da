/**
 * The decoder of clusterwire's YAML reader: a document's node tree (from
 * compose.ts) turned into a JSON value as go-yaml v2 `Unmarshal` into
 * `interface{}` followed by sigs.k8s.io/yaml's conversion to JSON does:
 * YAML 1.1 scalar resolution (resolve.ts), explicit tags, `<<` merge keys,
 * duplicate keys, non-string keys turned into strings, and the alias
 * expansion guard. Callers may ask for a nesting limit stricter than
 * go-yaml's 10,000 levels (`maxDepth`). Nothing recurses per level.
 *
 * Hand-written because the `yaml` package follows YAML 1.2 and could not be
 * bent to go-yaml v2 (docs/yaml-differential.md: 76 classes of disagreement).
 */
import type { DecodeError } from "../../model/errors.js";
import type { JsonObject, JsonValue } from "../../model/json-value.js";
import { NO_DEPTH_LIMIT, composeFirstDocument, errorAt, failAt, type YamlNode } from "./compose.js";
import { goFormatFloat } from "./number-format.js";
import { resolvePlain, type GoScalar } from "./resolve.js";
import type { YamlMark } from "./syntax.js";

export interface DecodeYamlOptions {
  /** Deepest allowed collection nesting, counted through aliases (see clampDepth). */
  readonly maxDepth: number;
  /** go-yaml's strict decoding: a key set twice in one mapping is an error. */
  readonly strict: boolean;
  /**
   * With `strict`, each key set twice is given here instead of thrown, and
   * decoding goes on with the last value winning, as the non-strict decoding.
   */
  readonly repeated?: (error: DecodeError) => void;
}

const TAG_PREFIX = "tag:yaml.org,2002:";
const STR_TAG = `${TAG_PREFIX}str`;
const BINARY_TAG = `${TAG_PREFIX}binary`;
const MERGE_TAG = `${TAG_PREFIX}merge`;
/** The tags go-yaml's resolve() resolves; any other tag leaves the text a string. */
const RESOLVABLE = new Set(["bool", "int", "float", "null", "timestamp"]);

/** Go's base64.StdEncoding.DecodeString (which skips CR and LF), then the bytes as a Go string. */
function decodeBinary(text: string): string | undefined {
  const b64 = text.replace(/[\r\n]/g, "");
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return undefined;
  // atob, not Buffer: the library runs in browsers too. The pattern above
  // already holds it to the standard alphabet and padding, so atob cannot throw.
  const binary = atob(b64);
  // Go replaces each byte of an invalid UTF-8 sequence with U+FFFD when it
  // writes JSON; TextDecoder would merge some of them.
  let out = "";
  for (let i = 0; i < binary.length; ) {
    const b0 = binary.charCodeAt(i);
    // Continuation bytes a lead byte announces; -1 for bytes that cannot start a sequence.
    const need =
      b0 < 0x80 ? 0 : b0 >= 0xc2 && b0 <= 0xdf ? 1 : b0 >= 0xe0 && b0 <= 0xef ? 2 : b0 >= 0xf0 && b0 <= 0xf4 ? 3 : -1;
    let cp = need === 0 ? b0 : need === 1 ? b0 & 0x1f : need === 2 ? b0 & 0x0f : b0 & 0x07;
    let ok = need >= 0 && i + need < binary.length;
    for (let k = 1; ok && k <= need; k++) {
      const bk = binary.charCodeAt(i + k);
      if ((bk & 0xc0) !== 0x80) ok = false;
      cp = (cp << 6) | (bk & 0x3f);
    }
    const min = need === 1 ? 0x80 : need === 2 ? 0x800 : need === 3 ? 0x10000 : 0;
    if (ok && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
      out += String.fromCodePoint(cp);
      i += need + 1;
    } else {
      out += "\uFFFD";
      i += 1;
    }
  }
  return out;
}

/** A value of a JSON object under construction, with the Go keys it already holds (strict mode). */
interface MapTarget {
  readonly obj: JsonObject;
  readonly goKeys: Set<string> | undefined;
  /**
   * Entries (by Go key) that JSON cannot hold: an unsupported key, or a value
   * that holds one or a NaN or infinity. sigs.k8s.io/yaml and json.Marshal
   * refuse them only if they survive (a later write of the same key drops them).
   */
  poison: Map<string, Poison> | undefined;
}

/** Why a decoded value cannot become JSON, and where. */
interface Poison {
  readonly reason: string;
  readonly mark: YamlMark;
}

/** A decoded mapping key: its JSON text and its identity as a Go map key. */
interface GoKey {
  readonly text: string;
  readonly id: string;
  /** Set when sigs.k8s.io/yaml cannot turn the key into a string (null, uint64). */
  readonly bad: Poison | undefined;
}

/**
 * One step of the decoder's explicit stack: a sequence being filled, a
 * mapping being written (its own object, or a merge's host when `at` is set),
 * a sequence of merged maps, or an alias being expanded. One shape for all.
 */
interface Frame {
  readonly kind: "seq" | "map" | "merge-seq" | "alias";
  readonly node: YamlNode;
  /** Collections around `node`. */
  readonly depth: number;
  /** seq: the item being decoded; map: the key of the entry; merge-seq: the merged map being written. */
  index: number;
  readonly items: JsonValue[] | undefined;
  readonly target: MapTarget | undefined;
  /** map: the decoded key whose value is being decoded. */
  key: GoKey | undefined;
  /** seq: the first item that cannot become JSON. */
  poison: Poison | undefined;
  /** map, merge-seq: where a merge brings keys in (a repeat is reported there); undefined for a map's own entries. */
  readonly at: YamlMark | undefined;
}

/** go-yaml's guard against alias expansion bombs (decode.go, allowedAliasRatio). */
function allowedAliasRatio(decodes: number): number {
  if (decodes <= 400_000) return 0.99;
  if (decodes >= 4_000_000) return 0.1;
  return 0.99 - (0.89 * (decodes - 400_000)) / 3_600_000;
}

class Decoder {
  // go-yaml counts the document node too.
  private decodes = 1;
  private aliasDecodes = 0;
  private aliasDepth = 0;
  private readonly expanding = new Set<YamlNode>();
  private nanKeys = 0;
  /** Decoded values that cannot become JSON (see MapTarget.poison), refused if they reach the root. */
  private readonly poisoned = new WeakMap<object, Poison>();

  private poisonOf(v: JsonValue | undefined): Poison | undefined {
    return v !== null && typeof v === "object" ? this.poisoned.get(v) : undefined;
  }

  constructor(private readonly options: DecodeYamlOptions) {}

  private count(node: YamlNode): void {
    this.decodes++;
    if (this.aliasDepth > 0) this.aliasDecodes++;
    if (
      this.aliasDecodes > 100 &&
      this.decodes > 1000 &&
      this.aliasDecodes / this.decodes > allowedAliasRatio(this.decodes)
    ) {
      failAt("document contains excessive aliasing", node.start);
    }
  }

  /** Follows an alias as go-yaml does: an alias met again while expanding it is a cycle. */
  private follow<T>(alias: YamlNode, use: (target: YamlNode) => T): T {
    const target = alias.target;
    if (target === undefined) return failAt(`unknown anchor '${alias.value}' referenced`, alias.start);
    if (this.expanding.has(alias)) failAt(`anchor '${alias.value}' value contains itself`, alias.start);
    this.expanding.add(alias);
    this.aliasDepth++;
    try {
      return use(target);
    } finally {
      this.aliasDepth--;
      this.expanding.delete(alias);
    }
  }

  /** go-yaml's decoder on a scalar node, into `interface{}`. */
  private scalar(node: YamlNode): GoScalar {
    const text = node.value;
    if (node.tag === "" && !node.implicit) return { kind: "str", text };
    if (node.tag === "" || node.tag === "!") {
      // `!` is not a tag resolve() knows: the text stays a string.
      return node.tag === "" ? resolvePlain(text) : { kind: "str", text };
    }
    if (node.tag === BINARY_TAG) {
      const decoded = decodeBinary(text);
      if (decoded === undefined) failAt("!!binary value contains invalid base64 data", node.start);
      return { kind: "str", text: decoded };
    }
    if (node.tag === STR_TAG || !node.tag.startsWith(TAG_PREFIX)) return { kind: "str", text };
    const name = node.tag.slice(TAG_PREFIX.length);
    if (!RESOLVABLE.has(name)) return { kind: "str", text };
    // resolve() tries timestamps only untagged or for !!timestamp.
    const r = resolvePlain(text);
    const got: GoScalar = r.kind === "timestamp" && name !== "timestamp" ? { kind: "str", text } : r;
    // An integer beyond int64 resolves to a uint64, which !!int accepts (into interface{}).
    if (got.kind === name || (name === "int" && got.kind === "uint")) return got;
    if (name === "float" && got.kind === "int") return { kind: "float", value: Number(got.value) };
    const shown = got.kind === "uint" ? "int" : got.kind;
    return failAt(`cannot decode !!${shown} \`${text}\` as a !!${name}`, node.start);
  }

  private scalarValue(node: YamlNode): JsonValue {
    const s = this.scalar(node);
    switch (s.kind) {
      case "str":
      case "timestamp":
        return s.text;
      case "null":
        return null;
      case "bool":
        return s.value;
      case "int":
      case "uint":
        return s.value >= BigInt(Number.MIN_SAFE_INTEGER) && s.value <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(s.value)
          : s.value;
      case "float":
        if (!Number.isFinite(s.value)) {
          // json.Marshal refuses it, but only if it is still there at the end.
          const placeholder: JsonObject = Object.create(null) as JsonObject;
          this.poisoned.set(placeholder, {
            reason: `JSON cannot represent the float ${goFormatFloat(s.value, 64)}`,
            mark: node.start,
          });
          return placeholder;
        }
        return s.value;
    }
  }

  /** Enters an alias as go-yaml does: an alias met again while expanding it is a cycle. */
  private enterAlias(alias: YamlNode, stack: Frame[]): YamlNode {
    const target = alias.target;
    if (target === undefined) return failAt(`unknown anchor '${alias.value}' referenced`, alias.start);
    if (this.expanding.has(alias)) failAt(`anchor '${alias.value}' value contains itself`, alias.start);
    this.expanding.add(alias);
    this.aliasDepth++;
    stack.push({
      kind: "alias",
      node: alias,
      depth: 0,
      index: 0,
      items: undefined,
      target: undefined,
      key: undefined,
      at: undefined,
      poison: undefined,
    });
    return target;
  }

  private leaveAlias(alias: YamlNode): void {
    this.aliasDepth--;
    this.expanding.delete(alias);
  }

  private checkDepth(node: YamlNode, depth: number): void {
    if (depth + 1 > this.options.maxDepth) failAt(`nesting deeper than ${this.options.maxDepth}`, node.start);
  }

  /** A map frame that writes `node`'s entries into `target` (its own map, or the one a merge writes into). */
  private mapFrame(node: YamlNode, target: MapTarget, depth: number, at: YamlMark | undefined): Frame {
    return { kind: "map", node, depth, index: 0, items: undefined, target, key: undefined, at, poison: undefined };
  }

  /**
   * go-yaml's `unmarshal` of `root` into `interface{}`, in the same order (so
   * the aliasing guard counts as it does), with an explicit stack instead of
   * recursion: go-yaml's scanner allows 10,000 levels. `depth` is the number
   * of collections around `root`.
   */
  value(root: YamlNode, depth: number): JsonValue {
    const stack: Frame[] = [];
    // The node to decode next (undefined: deliver `result` to the top frame instead).
    let next: YamlNode | undefined = root;
    let nextDepth = depth;
    let result: JsonValue | undefined;
    for (;;) {
      if (next !== undefined) {
        let node: YamlNode = next;
        next = undefined;
        this.count(node);
        if (node.kind === "alias") {
          node = this.enterAlias(node, stack);
          this.count(node);
        }
        if (node.kind === "scalar") result = this.scalarValue(node);
        else if (node.kind === "sequence") {
          this.checkDepth(node, nextDepth);
          const items = new Array<JsonValue>(node.children.length);
          if (node.children.length === 0) result = items;
          else {
            stack.push({
              kind: "seq",
              node,
              depth: nextDepth,
              index: 0,
              items,
              target: undefined,
              key: undefined,
              at: undefined,
              poison: undefined,
            });
            next = node.children[0];
            nextDepth++;
            continue;
          }
        } else {
          this.checkDepth(node, nextDepth);
          const target: MapTarget = {
            obj: Object.create(null) as JsonObject,
            goKeys: this.options.strict ? new Set<string>() : undefined,
            poison: undefined,
          };
          stack.push(this.mapFrame(node, target, nextDepth, undefined));
          result = undefined;
        }
      }
      // Deliver `result` to the top frame, which then schedules its next node or completes.
      const frame = stack[stack.length - 1];
      if (frame === undefined) {
        // sigs.k8s.io/yaml and json.Marshal refuse what survived decoding and JSON cannot hold.
        const poison = this.poisonOf(result);
        if (poison !== undefined) failAt(poison.reason, poison.mark);
        return result ?? null;
      }
      switch (frame.kind) {
        case "alias":
          stack.pop();
          this.leaveAlias(frame.node);
          continue;
        case "seq": {
          const items = frame.items as JsonValue[];
          items[frame.index] = result ?? null;
          frame.poison ??= this.poisonOf(result);
          frame.index++;
          if (frame.index < frame.node.children.length) {
            next = frame.node.children[frame.index];
            nextDepth = frame.depth + 1;
          } else {
            stack.pop();
            if (frame.poison !== undefined) this.poisoned.set(items, frame.poison);
            result = items;
          }
          continue;
        }
        case "merge-seq":
          // A merged map is done; go on with the one before it (earlier maps win, so they come last).
          frame.index--;
          if (frame.index < 0) {
            stack.pop();
            result = undefined;
            continue;
          }
          this.mergeOne(frame.node.children[frame.index] as YamlNode, frame, stack);
          continue;
        case "map":
          if (frame.key !== undefined) {
            // The value of the current entry.
            const target = frame.target as MapTarget;
            const k = frame.node.children[frame.index] as YamlNode;
            if (target.goKeys !== undefined) {
              // go-yaml names only the line of the value; the mark is the repeated
              // key, or the merge that brings it in.
              if (target.goKeys.has(frame.key.id)) {
                const error = errorAt(`key ${goQuote(frame.key)} already set in map`, frame.at ?? k.start);
                if (this.options.repeated === undefined) throw error;
                this.options.repeated(error);
              }
              target.goKeys.add(frame.key.id);
            }
            // A key JSON cannot hold has no text to write under; it stays in Go's map.
            if (frame.key.bad === undefined) target.obj[frame.key.text] = result ?? null;
            const poison = frame.key.bad ?? this.poisonOf(result);
            if (poison !== undefined) {
              target.poison ??= new Map();
              target.poison.set(frame.key.id, poison);
            } else target.poison?.delete(frame.key.id);
            frame.key = undefined;
            frame.index += 2;
          }
          if (this.advanceMap(frame, stack)) {
            next = frame.node.children[frame.index + 1];
            nextDepth = frame.depth + 1;
          } else if (stack[stack.length - 1] === frame) {
            // Every entry written: a map decoded for itself gives its object; a merged one gives nothing.
            stack.pop();
            const target = frame.target as MapTarget;
            const poison = target.poison?.values().next().value;
            if (frame.at === undefined && poison !== undefined) this.poisoned.set(target.obj, poison);
            result = frame.at === undefined ? target.obj : undefined;
          }
          continue;
      }
    }
  }

  /**
   * Moves a map frame to its next entry: true when that entry's value is to
   * be decoded next (its key is decoded and held in the frame). A `<<` entry
   * pushes the merge's frames on top (returns false with the frame no longer
   * on top); false with the frame on top when the mapping is done.
   */
  private advanceMap(frame: Frame, stack: Frame[]): boolean {
    const children = frame.node.children;
    while (frame.index + 1 < children.length) {
      const k = children[frame.index] as YamlNode;
      const v = children[frame.index + 1] as YamlNode;
      if (!isMergeKey(k)) {
        frame.key = this.key(k, frame.depth + 1);
        return true;
      }
      frame.index += 2;
      this.merge(v, frame, stack);
      // A merge of an empty sequence pushes nothing: go on with the next entry.
      if (stack[stack.length - 1] !== frame) return false;
    }
    return false;
  }

  /** `<<: value`: the value must be a mapping, an alias of one, or a sequence of those. */
  private merge(node: YamlNode, host: Frame, stack: Frame[]): void {
    const at = host.at ?? node.start;
    const frame: Frame = {
      kind: "merge-seq",
      node,
      depth: host.depth,
      index: 0,
      items: undefined,
      target: host.target,
      key: undefined,
      at,
      poison: undefined,
    };
    switch (node.kind) {
      case "mapping":
      case "alias":
        this.mergeOne(node, frame, stack);
        return;
      case "sequence":
        // Earlier maps win: go-yaml applies them from last to first.
        if (node.children.length === 0) return;
        frame.index = node.children.length - 1;
        stack.push(frame);
        this.mergeOne(node.children[frame.index] as YamlNode, frame, stack);
        return;
      default:
        failAt("map merge requires map or sequence of maps as the value", node.start);
    }
  }

  /** Pushes the frames that write one merged mapping (or an alias of one) into the host's map. */
  private mergeOne(n: YamlNode, frame: Frame, stack: Frame[]): void {
    const wantMap = (): never => failAt("map merge requires map or sequence of maps as the value", frame.node.start);
    if (n.kind === "alias" ? n.target !== undefined && n.target.kind !== "mapping" : n.kind !== "mapping") wantMap();
    this.count(n);
    let m = n;
    if (n.kind === "alias") {
      m = this.enterAlias(n, stack);
      this.count(m);
    }
    stack.push(this.mapFrame(m, frame.target as MapTarget, frame.depth, frame.at));
  }

  /** A mapping key, turned into a JSON object key as sigs.k8s.io/yaml does. */
  key(node: YamlNode, depth: number): GoKey {
    this.count(node);
    if (node.kind === "alias") return this.follow(node, (target) => this.key(target, depth));
    if (node.kind !== "scalar") return failAt("invalid map key: a mapping or sequence cannot be a key", node.start);
    const s = this.scalar(node);
    switch (s.kind) {
      case "str":
      case "timestamp":
        return { text: s.text, id: `s${s.text}`, bad: undefined };
      case "int":
        return { text: s.value.toString(), id: `i${s.value}`, bad: undefined };
      case "bool":
        return { text: s.value ? "true" : "false", id: `b${s.value}`, bad: undefined };
      case "float":
        // sigs.k8s.io/yaml formats float keys at 32-bit precision (narrowing first:
        // 1e40 is +Inf as a float32, ".inf"); NaN equals no key.
        return {
          text: goFormatFloat(Math.fround(s.value), 32),
          id: Number.isNaN(s.value) ? `nan${this.nanKeys++}` : `f${Object.is(s.value, -0) ? "-0" : s.value}`,
          bad: undefined,
        };
      case "uint":
        return {
          text: s.value.toString(),
          id: `u${s.value}`,
          bad: { reason: `unsupported map key of type uint64: ${s.value}`, mark: node.start },
        };
      case "null":
        return { text: "<nil>", id: "n", bad: { reason: "unsupported map key: null", mark: node.start } };
    }
  }
}

function isMergeKey(node: YamlNode): boolean {
  return node.kind === "scalar" && node.value === "<<" && (node.implicit || node.tag === MERGE_TAG);
}

/** A key as Go's %#v prints it. */
function goQuote(key: GoKey): string {
  // (%#v prints a nil key as <nil> and a uint64 in hex; the message names it plainly.)
  return key.id.startsWith("s") ? JSON.stringify(key.text) : key.text;
}

/** The JSON object key a mapping key node becomes, or undefined when it is refused. */
export function keyTextOf(node: YamlNode): string | undefined {
  try {
    const key = new Decoder({ maxDepth: NO_DEPTH_LIMIT, strict: false }).key(node, 1);
    return key.bad === undefined ? key.text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The value node a path segment (a key or an index) leads to from `node`, and
 * its key node in a mapping: aliases are followed and merge keys searched as
 * decoding applies them (a later entry, written or merged, wins). `seen`
 * guards against alias cycles.
 */
export function findChild(
  node: YamlNode,
  seg: string | number,
  seen: Set<YamlNode> = new Set(),
): { readonly key: YamlNode | undefined; readonly value: YamlNode } | undefined {
  let n: YamlNode | undefined = node;
  while (n !== undefined && n.kind === "alias") {
    if (seen.has(n)) return undefined;
    seen.add(n);
    n = n.target;
  }
  if (n === undefined) return undefined;
  if (n.kind === "sequence") {
    const item = typeof seg === "number" ? n.children[seg] : undefined;
    return item === undefined ? undefined : { key: undefined, value: item };
  }
  if (n.kind !== "mapping") return undefined;
  const key = String(seg);
  for (let i = n.children.length - 2; i >= 0; i -= 2) {
    const k = n.children[i] as YamlNode;
    const v = n.children[i + 1] as YamlNode;
    if (isMergeKey(k)) {
      // In a sequence of merged maps the first one wins.
      const sources = v.kind === "sequence" ? v.children : [v];
      for (const source of sources) {
        const found = findChild(source, seg, seen);
        if (found !== undefined) return found;
      }
      continue;
    }
    if (keyTextOf(k) === key) return { key: k, value: v };
  }
  return undefined;
}

/**
 * A composed document as a JSON value: go-yaml v2 `Unmarshal` into
 * `interface{}`, then sigs.k8s.io/yaml's conversion. Integers are `number`
 * when safe and `bigint` otherwise; timestamps stay strings.
 */
export function decodeYamlNode(root: YamlNode | undefined, options: DecodeYamlOptions): JsonValue {
  if (root === undefined) return null;
  return new Decoder(options).value(root, 0);
}

/**
 * sigs.k8s.io/yaml `YAMLToJSON` (or `YAMLToJSONStrict`) on one text: its first
 * YAML document as a JSON value, null when it has none. Throws only
 * {@link DecodeError}, positioned in `text`.
 */
export function yamlToJson(text: string, options: DecodeYamlOptions): JsonValue {
  return decodeYamlNode(composeFirstDocument(text, options.maxDepth), options);
}
