/**
 * A seeded generator of YAML renderings of valid networking objects, for the
 * go-yaml v2 differential (issue 17). Each rendering picks, node by node, one
 * of the ways YAML can spell the same (or a nearly-same) value: block and flow
 * collections, plain/single/double-quoted scalars, block scalars with every
 * chomping and indentation indicator, multi-line quoted scalars, anchors,
 * aliases and merge keys, comments, explicit keys, YAML 1.1 spellings of
 * numbers and booleans, and then text-level surface: CRLF, BOM, tabs, NEL,
 * U+2028/U+2029, document markers and directives. Some choices change the
 * value on purpose (a clipped block scalar gains a newline): the differential
 * compares both readers on the same text, so only their agreement matters.
 * Same seed, same object, same text.
 *
 * The wider surface (wide.ts: tags, `%TAG`, odd and long keys, deep nesting,
 * merges of sequences, hostile plain and quoted scalars, `...` followed by
 * text, CR-only line ends, a BOM mid-text, ...) draws from a second stream of
 * choices seeded from the same seed, each with a small probability, so a text
 * that no wide choice touched is the one the first generator wrote.
 */
import type { JsonValue } from "../../src/networking/index.js";
import { prng } from "../evaluator-inputs.js";
import {
  compactField,
  deepField,
  docEndTail,
  emptyDocuments,
  oddEntry,
  tagDirective,
  wideInt,
  wideOther,
  wideString,
  type WideFeature,
} from "./wide.js";

type JsonObject = { readonly [k: string]: JsonValue };

/** A source of choices, deterministic from its seed. */
export class Choices {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new RangeError("pick from an empty list");
    return item;
  }
}

/** The surface features a rendering used, for reports. */
export type Feature =
  | "block-scalar"
  | "quoted-multiline"
  | "anchor"
  | "merge"
  | "flow"
  | "comment"
  | "explicit-key"
  | "crlf"
  | "bom"
  | "tab"
  | "unicode-break"
  | "doc-marker"
  | "directive"
  | "yaml11-scalar"
  | "escape"
  | WideFeature;

export interface Rendering {
  readonly text: string;
  readonly features: readonly Feature[];
}

interface Ctx {
  readonly c: Choices;
  /** The wider surface's own stream of choices. */
  readonly w: Choices;
  /** The key whose value is being written ("" at the top). */
  readonly key: string;
  /** A `%TAG` directive declared the `!e!` handle for this document. */
  readonly tagHandle: boolean;
  /** Sequences already written with an anchor, by their JSON spelling. */
  readonly seqAnchors: Map<string, string>;
  readonly indent: number;
  readonly features: Set<Feature>;
  /** Scalars already written with an anchor, by their JSON spelling. */
  readonly anchors: Map<string, string>;
  /** Mappings already written with an anchor, by their JSON spelling. */
  readonly mapAnchors: Map<string, { name: string; value: JsonObject }>;
}

/** Maps from string to string, where an extra key of any spelling stays in the object. */
const FREE_MAPS = new Set(["labels", "annotations", "matchLabels", "nodeSelector"]);
/** Probability that a scalar is written in a spelling of the wider surface. */
const WIDE_SCALAR = 0.015;

function noter(x: Ctx): (f: WideFeature) => void {
  return (f) => x.features.add(f);
}

const PLAIN_SAFE = /^[A-Za-z0-9_./-][A-Za-z0-9_./ -]*$/;
const YAML11_WORDS =
  /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;
/** Anchor names: mostly ordinary, sometimes with characters go-yaml's scanner may refuse. */
const ANCHOR_CHARS = ["a", "b", "x", "1", "_", "-", ".", "/", ":", "é", "[", "+"];

function anchorName(x: Ctx): string {
  let name = `a${x.anchors.size + x.mapAnchors.size}`;
  if (x.c.chance(0.15)) name += x.c.pick(ANCHOR_CHARS) + x.c.pick(ANCHOR_CHARS);
  return name;
}

function isPlainSafe(s: string): boolean {
  return PLAIN_SAFE.test(s) && !YAML11_WORDS.test(s) && !/^[-+.0-9]/.test(s) && !s.endsWith(" ") && !s.includes(" #");
}

function doubleQuoted(s: string, x: Ctx): string {
  let out = '"';
  for (const ch of s) {
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += x.c.chance(0.5) ? "\\t" : "\t";
    else if (x.c.chance(0.03)) {
      x.features.add("escape");
      const code = ch.codePointAt(0) ?? 0;
      out += x.c.pick(
        code < 0x100
          ? [
              `\\x${code.toString(16).padStart(2, "0")}`,
              `\\u${code.toString(16).padStart(4, "0")}`,
              ch === "/" ? "\\/" : ch,
            ]
          : [`\\u${code.toString(16).padStart(4, "0")}`],
      );
    } else out += ch;
  }
  return `${out}"`;
}

function singleQuoted(s: string): string {
  return `'${s.replaceAll("'", "''").replaceAll("\n", "\n\n")}'`;
}

/** A double-quoted scalar broken across lines at a space, its continuation at some column. */
function foldedQuoted(s: string, x: Ctx): string | undefined {
  const at = s.indexOf(" ");
  if (at <= 0 || s.includes("\n")) return undefined;
  x.features.add("quoted-multiline");
  const col = x.c.pick([0, Math.max(0, x.indent - 1), x.indent, x.indent + 2]);
  const q = x.c.chance(0.5);
  const head = s.slice(0, at);
  const tail = s.slice(at + 1);
  const open = q ? '"' : "'";
  return `${open}${head}\n${" ".repeat(col)}${tail}${open}`;
}

/** A block scalar for a string in a block context whose content sits at x.indent + step. */
function blockScalar(s: string, x: Ctx, step: number): string {
  x.features.add("block-scalar");
  const style = x.c.pick(["|", ">"]);
  const chomp = x.c.pick(["", "-", "+"]);
  const explicit = x.c.chance(0.3);
  const order = x.c.chance(0.5);
  const indicator = explicit ? String(step) : "";
  let header = style + (order ? indicator + chomp : chomp + indicator);
  if (x.c.chance(0.15)) {
    x.features.add("comment");
    header += x.c.pick([" # note", "#x", "\t# tab"]);
  }
  const pad = " ".repeat(x.indent);
  const lines = (s === "" ? [] : s.split("\n")).map((l) => (l === "" ? "" : pad + l));
  const trail = x.c.pick(["", "\n", `\n${pad}`, "\n\n"]);
  return `${header}\n${lines.join("\n")}${trail}`;
}

function scalar(v: JsonValue, x: Ctx, inFlow: boolean, step: number): string {
  if (x.w.chance(WIDE_SCALAR)) {
    if (typeof v === "string") return wideString(v, x.w, noter(x), x.indent, inFlow, x.tagHandle);
    if (typeof v === "number" && Number.isInteger(v) && v >= 0) return wideInt(v, x.w, noter(x));
    if (typeof v === "boolean" || v === null) return wideOther(v, x.w, noter(x));
  }
  if (x.tagHandle && typeof v === "string" && x.w.chance(0.15)) {
    x.features.add("tag");
    const q = JSON.stringify(v);
    return x.w.pick([`!e!str ${q}`, `!e!foo ${q}`, `!e!x%21 ${q}`, `!e!int ${q}`]);
  }
  if (v === null) return x.c.pick(["null", "~", "Null", ""]);
  if (typeof v === "boolean") {
    if (x.c.chance(0.15)) {
      x.features.add("yaml11-scalar");
      return x.c.pick(v ? ["yes", "on", "True", "TRUE", "y"] : ["no", "off", "False", "FALSE", "n"]);
    }
    return String(v);
  }
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (Number.isInteger(v) && v >= 0 && x.c.chance(0.15)) {
      x.features.add("yaml11-scalar");
      return x.c.pick([`+${v}`, `0x${v.toString(16)}`, `0${v.toString(8)}`, `${v}.0`, `0o${v.toString(8)}`, `${v}e0`]);
    }
    return String(v);
  }
  if (typeof v !== "string") throw new TypeError("scalar expected");
  const key = JSON.stringify(v);
  const existing = x.anchors.get(key);
  if (existing !== undefined && x.c.chance(0.5)) {
    x.features.add("anchor");
    return `*${existing}`;
  }
  let prefix = "";
  if (existing === undefined && v.length > 0 && x.c.chance(0.05)) {
    const name = anchorName(x);
    x.anchors.set(key, name);
    x.features.add("anchor");
    prefix = `&${name} `;
  }
  const styles = ["double", "single"];
  if (isPlainSafe(v)) styles.push("plain", "plain", "plain");
  if (!inFlow && prefix === "") styles.push("block");
  if (v.includes(" ") && !inFlow) styles.push("folded-quoted");
  if (inFlow && /^[\w./?=:-]+$/.test(v) && !YAML11_WORDS.test(v)) styles.push("plain");
  const style = x.c.pick(styles);
  switch (style) {
    case "plain":
      return prefix + v;
    case "single":
      return prefix + singleQuoted(v);
    case "block":
      return blockScalar(v, x, step);
    case "folded-quoted":
      return prefix + (foldedQuoted(v, x) ?? doubleQuoted(v, x));
    default:
      return prefix + doubleQuoted(v, x);
  }
}

function keyText(k: string, x: Ctx): string {
  if (isPlainSafe(k) && !x.c.chance(0.05)) return k;
  return x.c.chance(0.5) ? doubleQuoted(k, x) : singleQuoted(k);
}

function flow(v: JsonValue, x: Ctx): string {
  if (v === null || typeof v !== "object") return scalar(v, x, true, 0);
  x.features.add("flow");
  let sep = x.c.pick([", ", ",", " , ", ",\n  "]);
  if (x.w.chance(0.02)) {
    const wide = x.w.pick([",\t", "\t,", " ,\t", ", # c\n  ", ",\t# c\n  ", ",\n\t"]);
    x.features.add(wide.includes("#") ? "comment-position" : "tab-flow");
    if (wide.includes("#") && wide.includes("\t")) x.features.add("tab-flow");
    sep = wide;
  }
  if (Array.isArray(v)) return `[${v.map((e) => flow(e, x)).join(sep)}]`;
  const entries = Object.entries(v as JsonObject);
  const json = entries.length > 0 && x.w.chance(0.01);
  if (json) x.features.add("json-style");
  const parts = entries.map(([k, e]) => {
    const child: Ctx = { ...x, key: k };
    if (json) return `${JSON.stringify(k)}:${flow(e, child)}`;
    const entry = `${keyText(k, x)}: ${flow(e, child)}`;
    if (!x.w.chance(0.005)) return entry;
    x.features.add("flow-explicit");
    return `? ${entry}`;
  });
  if (FREE_MAPS.has(x.key) && x.w.chance(0.05)) {
    x.features.add("flow-explicit");
    parts.splice(x.w.int(parts.length + 1), 0, x.w.pick(["solo", "? solo", "solo:", "? solo : v", "? [a, b]: v"]));
  }
  return `{${parts.join(sep)}}`;
}

/** `<<:` merging maps written inline or aliases of earlier maps, with overriding keys after it. */
function mergedMapping(v: JsonObject, head: string, child: Ctx, step: number): string[] {
  const x = child;
  x.features.add("merge-list");
  const entries = Object.entries(v);
  const cut = 1 + x.w.int(entries.length);
  const merged: { [k: string]: JsonValue } = Object.fromEntries(entries.slice(0, cut));
  let rest: JsonObject = Object.fromEntries(entries.slice(cut));
  const first = Object.keys(rest)[0];
  // A key both merged (with a value to be overridden) and written: the written one wins.
  if (first !== undefined && x.w.chance(0.5))
    Object.defineProperty(merged, first, { value: "overridden", enumerable: true, writable: true, configurable: true });
  const forms = ["map", "list"];
  if (x.mapAnchors.size > 0) forms.push("aliases");
  let text: string;
  switch (x.w.pick(forms)) {
    case "map":
      text = flow(merged, x);
      break;
    case "list": {
      const keys = Object.keys(merged);
      const half = Math.ceil(keys.length / 2);
      const a = Object.fromEntries(keys.slice(0, half).map((k) => [k, merged[k] as JsonValue]));
      const b = Object.fromEntries(keys.slice(half).map((k) => [k, merged[k] as JsonValue]));
      text = `[${flow(a, x)}, ${flow(b, x)}]`;
      break;
    }
    default: {
      const names = [...x.mapAnchors.values()].map((a) => a.name);
      const picked = [x.w.pick(names), x.w.pick(names)];
      text = x.w.chance(0.3) ? `*${picked[0]}` : `[*${picked.join(", *")}]`;
      rest = v;
    }
  }
  const out = [head, `${" ".repeat(x.indent)}<<: ${text}`];
  if (Object.keys(rest).length > 0) out.push(...blockMapping(rest, x, step));
  return out;
}

/** Writes `key: value` lines of a block mapping at x.indent. */
function blockMapping(obj: JsonObject, x: Ctx, step: number): string[] {
  const pad = " ".repeat(x.indent);
  const out: string[] = [];
  const json = JSON.stringify(obj);
  const reused = x.mapAnchors.get(json);
  if (FREE_MAPS.has(x.key) && x.w.chance(0.06)) {
    const scalarAnchors = [...x.anchors.values()];
    const mapAnchors = [...x.mapAnchors.values()];
    if (scalarAnchors.length > 0 && x.w.chance(0.15)) {
      x.features.add("alias-collection");
      out.push(`${pad}*${x.w.pick(scalarAnchors)}${x.w.pick([" : v", ": v"])}`);
    } else if (mapAnchors.length > 0 && x.w.chance(0.1)) {
      x.features.add("alias-collection");
      out.push(`${pad}? *${x.w.pick(mapAnchors).name}\n${pad}: v`);
    } else out.push(oddEntry(x.w, noter(x), pad));
  }
  for (const [k, v] of Object.entries(obj)) {
    const key = keyText(k, x);
    const explicit = x.c.chance(0.03);
    if (explicit) x.features.add("explicit-key");
    const head = explicit ? `${pad}? ${key}\n${pad}:` : `${pad}${key}:`;
    const gap = x.c.chance(0.04) ? "\t" : " ";
    if (gap === "\t") x.features.add("tab");
    if (x.c.chance(0.05)) {
      x.features.add("comment");
      out.push(`${pad}# ${k}`);
    }
    const child: Ctx = { ...x, indent: x.indent + step, key: k };
    // A comment between the key and its block collection.
    let headNote = "";
    if (x.w.chance(0.003)) {
      headNote = x.w.pick([" # c", "\t# c", " #c", " \t# c"]);
      x.features.add("comment-position");
      if (headNote.includes("\t")) x.features.add("tab-flow");
    }
    if (v !== null && typeof v === "object") {
      const isArr = Array.isArray(v);
      if ((isArr ? v.length === 0 : Object.keys(v).length === 0) || x.c.chance(0.1)) {
        out.push(`${head}${gap}${flow(v, child)}`);
      } else if (isArr) {
        const sj = JSON.stringify(v);
        const seqAnchor = x.seqAnchors.get(sj);
        if (seqAnchor !== undefined && x.w.chance(0.6)) {
          x.features.add("alias-collection");
          out.push(`${head} *${seqAnchor}`);
        } else {
          // A sequence under a key may sit at the key's own column.
          let seqCtx: Ctx = x.c.chance(0.4) ? { ...x, key: k } : child;
          if (x.w.chance(0.01)) {
            x.features.add("seq-indent");
            seqCtx = { ...child, indent: child.indent + 1 + x.w.int(3) };
          }
          let anchor = "";
          if (seqAnchor === undefined && x.w.chance(0.01)) {
            const name = `s${x.seqAnchors.size}`;
            x.seqAnchors.set(sj, name);
            x.features.add("alias-collection");
            anchor = ` &${name}`;
          }
          out.push(head + anchor + headNote);
          out.push(...blockSequence(v, seqCtx, step));
        }
      } else if (x.w.chance(0.01)) {
        out.push(...mergedMapping(v as JsonObject, head + headNote, child, step));
      } else {
        const vj = JSON.stringify(v);
        const anchored = x.mapAnchors.get(vj);
        if (anchored !== undefined && x.c.chance(0.6)) {
          x.features.add("anchor");
          out.push(`${head} *${anchored.name}`);
        } else if (anchored !== undefined && x.c.chance(0.5)) {
          x.features.add("merge");
          out.push(head, `${" ".repeat(child.indent)}<<: *${anchored.name}`);
        } else {
          let anchor = "";
          if (anchored === undefined && x.c.chance(0.08)) {
            const name = anchorName(x);
            x.mapAnchors.set(vj, { name, value: v as JsonObject });
            x.features.add("anchor");
            anchor = ` &${name}`;
          }
          out.push(head + anchor + headNote);
          out.push(...blockMapping(v as JsonObject, child, step));
        }
      }
    } else {
      const s = scalar(v, child, false, step);
      out.push(s === "" ? head : `${head}${gap}${s}`);
    }
    if (x.c.chance(0.03)) {
      x.features.add("comment");
      const last = out.length - 1;
      const tab = x.w.chance(0.05);
      if (tab) x.features.add("tab-flow");
      if (!(out[last] ?? "").includes("\n")) out[last] = `${out[last] ?? ""}${tab ? "\t# c" : " # c"}`;
    }
  }
  if (reused === undefined && out.length === 0) out.push(`${pad}{}`);
  return out;
}

function blockSequence(items: readonly JsonValue[], x: Ctx, step: number): string[] {
  const pad = " ".repeat(x.indent);
  const out: string[] = [];
  for (const item of items) {
    const child: Ctx = { ...x, indent: x.indent + 2 };
    if (item !== null && typeof item === "object" && !Array.isArray(item) && Object.keys(item).length > 0) {
      if (x.c.chance(0.1)) {
        out.push(`${pad}- ${flow(item, child)}`);
        continue;
      }
      const lines = blockMapping(item as JsonObject, child, step);
      const first = lines[0] ?? "";
      out.push(`${pad}- ${first.slice(child.indent)}`, ...lines.slice(1));
    } else if (item !== null && typeof item === "object") {
      out.push(`${pad}- ${flow(item, child)}`);
    } else {
      out.push(`${pad}- ${scalar(item, child, false, 2)}`);
    }
  }
  return out;
}

/** Renders one document body. */
function renderDocument(obj: JsonObject, x: Ctx): string {
  if (x.c.chance(0.05)) return flow(obj, x);
  const step = x.c.pick([2, 2, 2, 4, 1, 3]);
  return blockMapping(obj, x, step).join("\n");
}

const BREAKS = ["\u0085", "\u2028", "\u2029"];

/** Text-level surface: line ends, BOM, Unicode breaks, trailing spaces. */
function textSurface(text: string, c: Choices, features: Set<Feature>): string {
  let out = text;
  if (c.chance(0.04)) {
    features.add("unicode-break");
    const lines = out.split("\n");
    const at = 1 + c.int(Math.max(1, lines.length - 1));
    out = lines.map((l, i) => (i === at ? c.pick(BREAKS) + l : l)).join("\n");
  }
  if (c.chance(0.03)) {
    features.add("unicode-break");
    const lines = out.split("\n");
    const at = c.int(lines.length);
    out = lines.map((l, i) => (i === at && l.includes(": ") ? l.replace(": ", `: x${c.pick(BREAKS)}`) : l)).join("\n");
  }
  if (c.chance(0.05)) out = out.replaceAll("\n", (m) => (c.chance(0.3) ? ` ${m}` : m));
  if (c.chance(0.1)) {
    features.add("crlf");
    out = c.chance(0.7) ? out.replaceAll("\n", "\r\n") : out.replaceAll("\n", (m) => (c.chance(0.5) ? "\r\n" : m));
  }
  if (c.chance(0.05)) {
    features.add("bom");
    out = `\ufeff${out}`;
  }
  return out;
}

/** The wider surface on the whole text: trailing whitespace, CR-only line ends, a BOM mid-text. */
function wideTextSurface(text: string, w: Choices, features: Set<Feature>): string {
  let out = text;
  if (w.chance(0.04)) {
    features.add("trailing-whitespace");
    const lines = out.split("\n");
    const forced = w.int(lines.length);
    out = lines
      .map((l, i) => (i === forced || w.chance(0.3) ? l + w.pick([" ", "\t", " \t", "  ", "\t "]) : l))
      .join("\n");
  }
  if (w.chance(0.03)) {
    // Some line ends become a lone CR; never one before an empty line, which would make a CRLF.
    const ends: number[] = [];
    for (let i = out.indexOf("\n"); i >= 0; i = out.indexOf("\n", i + 1)) if (out[i + 1] !== "\n") ends.push(i);
    if (ends.length > 0) {
      features.add("cr");
      const forced = w.pick(ends);
      const cr = new Set(ends.filter((i) => i === forced || w.chance(0.3)));
      out = out.replace(/\n/g, (m, at: number) => (cr.has(at) ? "\r" : m));
    }
  }
  if (w.chance(0.02)) {
    features.add("bom-middle");
    let at = 1 + w.int(Math.max(1, out.length - 1));
    const line = out.indexOf("\n", at);
    if (w.chance(0.5) && line >= 0) at = line + 1; // a line start
    // Never between the halves of a surrogate pair: the text stays well-formed.
    if (/[\udc00-\udfff]/.test(out.charAt(at))) at++;
    out = `${out.slice(0, at)}\ufeff${out.slice(at)}`;
  }
  return out;
}

/** The object with an annotation added (so that a string-to-string map is there for odd keys). */
function withAnnotation(obj: JsonObject): JsonObject {
  const meta = obj.metadata;
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return obj;
  const m = meta as JsonObject;
  const ann = m.annotations;
  const annotations = ann !== null && typeof ann === "object" && !Array.isArray(ann) ? (ann as JsonObject) : {};
  return { ...obj, metadata: { ...m, annotations: { ...annotations, note: "wide" } } };
}

/** The object as JSON text, which YAML reads as a flow mapping. */
function jsonText(obj: JsonObject, w: Choices): string {
  return JSON.stringify(obj, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v), w.pick([0, 2, "\t"]));
}

/** Seed of the wider surface's stream: the same seed, mixed apart from the first stream's. */
function wideSeed(seed: number): number {
  return (Math.imul(seed ^ 0x5bd1e995, 0x85ebca6b) + 0x27d4eb2f) >>> 0;
}

/**
 * One YAML text holding one or two of `objects` (picked by the choices),
 * with document markers, directives and the text-level surface.
 */
export function renderVariant(objects: readonly JsonValue[], seed: number): Rendering {
  const c = new Choices(seed);
  const w = new Choices(wideSeed(seed));
  const features = new Set<Feature>();
  const note = (f: WideFeature): void => {
    features.add(f);
  };
  const count = c.chance(0.15) ? 2 : 1;
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    const picked = c.pick(objects);
    if (picked === null || typeof picked !== "object" || Array.isArray(picked))
      throw new TypeError("objects must be JSON objects");
    let obj = picked as JsonObject;
    if (w.chance(0.1)) {
      features.add("extra-annotation");
      obj = withAnnotation(obj);
    }
    const tags = w.chance(0.03) ? tagDirective(w, note) : "";
    const tagHandle = tags.includes("!e!");
    const x: Ctx = {
      c,
      w,
      key: "",
      tagHandle,
      seqAnchors: new Map(),
      indent: 0,
      features,
      anchors: new Map(),
      mapAnchors: new Map(),
    };
    let body: string;
    if (w.chance(0.02)) {
      features.add("json-style");
      body = jsonText(obj, w);
    } else {
      body = renderDocument(obj, x);
      // Unknown top-level fields (non-strict reading drops them): deep nesting, compact sequences.
      if (!body.startsWith("{")) {
        if (w.chance(0.03)) body += `\n${deepField(w, note)}`;
        if (w.chance(0.03)) body += `\n${compactField(w, note)}`;
      }
    }
    if (c.chance(0.1)) {
      features.add("comment");
      body = `# ${c.pick(["manifest", "a: b", "---"])}\n${body}`;
    }
    const marker = c.pick(["", "", "", "---\n", "--- \n", "--- # doc\n", "---\t\n"]);
    if (marker !== "") features.add("doc-marker");
    let directive = "";
    if (c.chance(0.02)) {
      features.add("directive");
      directive = `${c.pick(["%YAML 1.1", "%YAML 1.2", "%TAG !e! tag:example.com,2000:"])}\n`;
    }
    if (tags !== "") directive += `${tags}\n`;
    let empties = "";
    if (w.chance(0.03)) {
      // Empty documents before this one, which then needs its own `---` (and a `...` before directives).
      empties = emptyDocuments(w, note) + (directive !== "" ? "...\n" : "");
      if (marker === "" && directive === "") body = `---\n${body}`;
    }
    if (w.chance(0.04)) body += `\n${docEndTail(w, note)}`;
    docs.push(
      `${empties}${directive}${i > 0 && marker === "" ? "---\n" : directive !== "" && marker === "" ? "---\n" : marker}${body}`,
    );
  }
  let text = docs.join("\n");
  const end = c.pick(["\n", "\n", "\n", "", "\n...\n", "\n...", "\n---\n", "\n\n", "\n# end\n"]);
  if (end.includes("...") || end.includes("---")) features.add("doc-marker");
  text += end;
  text = wideTextSurface(text, w, features);
  text = textSurface(text, c, features);
  return { text, features: [...features].sort() };
}
