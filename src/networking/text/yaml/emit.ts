/**
 * Kubernetes YAML text out: {@link stringifyGoYaml} reproduces sigs.k8s.io/yaml
 * `JSONToYAML`, i.e. the JSON value decoded by go-yaml v2 (2.4, the version
 * Kubernetes vendors) and marshalled again by go-yaml v2. The emitter is
 * written here because it must follow go-yaml's own rules, which the `yaml`
 * package's stringifier does not express: e.g. go-yaml folds long lines at the
 * first space *after* column 80 (the package folds *before* it), quotes `1:20`,
 * `0o17` and `2008-01-01`, escapes every non-BMP character, and sorts keys
 * "naturally" (`a9` < `a10`).
 */
import { DecodeError } from "../../model/errors.js";
import type { JsonObject, JsonValue } from "../../model/json-value.js";
import { LF, SP, codePoints, isBlank, isBlankZ, isBreak, isPrintable, utf8Length, wellFormed } from "./chars.js";
import { sortKeysLikeGo } from "./key-order.js";
import { formatNumber } from "./number-format.js";
import { BASE60_FLOAT, resolvePlain } from "./resolve.js";

// The emitter: the parts of libyaml's emitter (as ported in go-yaml v2) that a
// JSON value can reach. Block collections, flow only for `{}` / `[]`, width 80,
// indent 2, unicode output on.

type ScalarStyle = "plain" | "single" | "double" | "literal";

interface ScalarAnalysis {
  readonly multiline: boolean;
  readonly blockPlainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
}

function analyzeScalar(v: readonly number[]): ScalarAnalysis {
  if (v.length === 0) {
    return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  const [c0, c1, c2] = v;
  if ((c0 === 0x2d && c1 === 0x2d && c2 === 0x2d) || (c0 === 0x2e && c1 === 0x2e && c2 === 0x2e)) {
    blockIndicators = true;
  }
  let precededByWhitespace = true;
  for (let i = 0; i < v.length; i++) {
    const c = v[i] ?? 0;
    const next = v[i + 1];
    const followedByWhitespace = next === undefined || isBlank(next);
    if (i === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(String.fromCodePoint(c))) blockIndicators = true;
      else if ((c === 0x3f || c === 0x3a || c === 0x2d) && followedByWhitespace) blockIndicators = true; // ? : -
    } else if (c === 0x3a && followedByWhitespace)
      blockIndicators = true; // ": "
    else if (c === 0x23 && precededByWhitespace) blockIndicators = true; // " #"
    if (!isPrintable(c)) special = true;
    if (c === SP) {
      if (i === 0) leadingSpace = true;
      if (i === v.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === v.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankZ(c);
  }
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks || blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

/** The style go-yaml's encoder asks for (encode.go `stringv`); the emitter may still override it. */
function requestedStringStyle(s: string): ScalarStyle {
  if (s.includes("\n")) return "literal";
  const r = resolvePlain(s);
  return r.kind === "str" && !(/^[-+0-9]/.test(s) && s.includes(":") && BASE60_FLOAT.test(s)) ? "plain" : "double";
}

const BEST_INDENT = 2;
const BEST_WIDTH = 80;

const SHORT_ESCAPES = new Map<number, string>([
  [0x00, "0"],
  [0x07, "a"],
  [0x08, "b"],
  [0x09, "t"],
  [0x0a, "n"],
  [0x0b, "v"],
  [0x0c, "f"],
  [0x0d, "r"],
  [0x1b, "e"],
  [0x22, '"'],
  [0x5c, "\\"],
  [0x85, "N"],
  [0xa0, "_"],
  [0x2028, "L"],
  [0x2029, "P"],
]);

class GoYamlEmitter {
  out = "";
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;
  private readonly ancestors = new Set<object>();

  private put(s: string): void {
    this.out += s;
    this.column += s.length; // only ever ASCII
  }
  private putCp(c: number): void {
    this.out += String.fromCodePoint(c);
    this.column++;
  }
  private putBreak(): void {
    this.out += "\n";
    this.column = 0;
  }
  private writeBreak(c: number): void {
    if (c === LF) this.putBreak();
    else {
      this.putCp(c);
      this.column = 0;
    }
  }
  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(" ");
    this.whitespace = true;
    this.indention = true;
  }
  private writeIndicator(ind: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(" ");
    this.put(ind);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }
  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }
  private popIndent(): void {
    this.indent = this.indents.pop() ?? -1;
  }

  /** One node; `mapping` marks a mapping value (block sequences there are not indented). */
  node(value: JsonValue, mapping: boolean, path: string): void {
    if (value === null) {
      this.scalar("null", "plain", false);
      return;
    }
    switch (typeof value) {
      case "boolean":
        this.scalar(value ? "true" : "false", "plain", false);
        return;
      case "number":
      case "bigint":
        this.scalar(formatNumber(value), "plain", false);
        return;
      case "string": {
        const s = wellFormed(value);
        this.scalar(s, requestedStringStyle(s), false);
        return;
      }
      case "object":
        break;
      default:
        throw new DecodeError("yaml", `cannot encode a value of type ${typeof value}`, { path });
    }
    if (this.ancestors.has(value)) throw new DecodeError("yaml", "cannot encode a cyclic value", { path });
    this.ancestors.add(value);
    if (Array.isArray(value)) this.sequence(value, mapping, path);
    else this.mappingNode(value, path);
    this.ancestors.delete(value);
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.increaseIndent(true, false);
    this.popIndent();
    this.writeIndicator(close, false, false, false);
  }

  private sequence(items: readonly JsonValue[], mapping: boolean, path: string): void {
    if (items.length === 0) {
      this.emptyFlow("[", "]");
      return;
    }
    this.increaseIndent(false, mapping && !this.indention);
    items.forEach((item, i) => {
      this.writeIndent();
      this.writeIndicator("-", true, false, true);
      this.node(item, false, `${path}[${i}]`);
    });
    this.popIndent();
  }

  private mappingNode(obj: JsonObject, path: string): void {
    // Like JSON.stringify, keys holding undefined are left out.
    const keys = sortKeysLikeGo(Object.keys(obj).filter((k) => obj[k] !== undefined));
    if (keys.length === 0) {
      this.emptyFlow("{", "}");
      return;
    }
    this.increaseIndent(false, false);
    for (const rawKey of keys) {
      const key = wellFormed(rawKey);
      const style = requestedStringStyle(key);
      const cps = codePoints(key);
      const a = analyzeScalar(cps);
      this.writeIndent();
      if (!a.multiline && utf8Length(cps) <= 128) {
        this.scalar(key, style, true);
        this.writeIndicator(":", false, false, false);
      } else {
        // Not a simple key: explicit `? key` / `: value`.
        this.writeIndicator("?", true, false, true);
        this.scalar(key, style, false);
        this.writeIndent();
        this.writeIndicator(":", true, false, true);
      }
      this.node(obj[rawKey] ?? null, true, path === "" ? rawKey : `${path}.${rawKey}`);
    }
    this.popIndent();
  }

  private scalar(text: string, requested: ScalarStyle, simpleKey: boolean): void {
    const v = codePoints(text);
    const a = analyzeScalar(v);
    let style = requested;
    if (simpleKey && a.multiline) style = "double";
    if (style === "plain" && (!a.blockPlainAllowed || (v.length === 0 && simpleKey))) style = "single";
    if (style === "single" && !a.singleQuotedAllowed) style = "double";
    if (style === "literal" && (!a.blockAllowed || simpleKey)) style = "double";
    this.increaseIndent(true, false);
    const allowBreaks = !simpleKey;
    if (style === "plain") this.plain(text, v, allowBreaks);
    else if (style === "single") this.singleQuoted(v, allowBreaks);
    else if (style === "double") this.doubleQuoted(v, allowBreaks);
    else this.literal(v);
    this.popIndent();
  }

  private plain(text: string, v: readonly number[], allowBreaks: boolean): void {
    if (!this.whitespace) this.put(" ");
    // Fast path: no space sits past the width, so nothing can fold.
    if (!v.some(isBreak) && (!allowBreaks || this.column + v.lastIndexOf(SP) <= BEST_WIDTH)) {
      this.out += text;
      this.column += v.length;
      this.whitespace = false;
      this.indention = false;
      return;
    }
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i] ?? 0;
      if (c === SP) {
        // Fold at the first space once the line is past the width.
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && v[i + 1] !== SP) this.writeIndent();
        else this.putCp(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === LF) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.putCp(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private singleQuoted(v: readonly number[], allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i] ?? 0;
      if (c === SP) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < v.length - 1 && v[i + 1] !== SP) {
          this.writeIndent();
        } else this.putCp(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === LF) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 0x27) this.put("'");
        this.putCp(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private doubleQuoted(v: readonly number[], allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    // go-yaml's BOM test looks at the start of the value, not at the current
    // character: a value starting with U+FEFF has every character escaped.
    const escapeAll = v[0] === 0xfeff;
    let spaces = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i] ?? 0;
      if (escapeAll || !isPrintable(c) || isBreak(c) || c === 0x22 || c === 0x5c) {
        const short = SHORT_ESCAPES.get(c);
        if (short !== undefined) this.put("\\" + short);
        else {
          const [prefix, width] = c <= 0xff ? ["x", 2] : c <= 0xffff ? ["u", 4] : ["U", 8];
          this.put(`\\${prefix}${c.toString(16).toUpperCase().padStart(width, "0")}`);
        }
        spaces = false;
      } else if (c === SP) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < v.length - 1) {
          this.writeIndent();
          // A following space would be eaten as indentation: escape it.
          if (v[i + 1] === SP) this.put("\\");
        } else this.putCp(c);
        spaces = true;
      } else {
        this.putCp(c);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private literal(v: readonly number[]): void {
    this.writeIndicator("|", true, false, false);
    const first = v[0];
    if (first !== undefined && (first === SP || isBreak(first))) {
      this.writeIndicator(String(BEST_INDENT), false, false, false);
    }
    // Chomping: strip without a final break, keep with two or more, clip otherwise.
    const last = v[v.length - 1];
    const beforeLast = v[v.length - 2];
    const chomp =
      last === undefined || !isBreak(last) ? "-" : beforeLast === undefined || isBreak(beforeLast) ? "+" : "";
    if (chomp !== "") this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of v) {
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.putCp(c);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

/**
 * Serialize a JSON value exactly as Kubernetes serves YAML (sigs.k8s.io/yaml
 * JSONToYAML over go-yaml v2). The result ends with one newline.
 *
 * Throws {@link DecodeError} for values JSON cannot hold (undefined,
 * functions, cycles) and for nesting too deep to walk.
 */
export function stringifyGoYaml(value: JsonValue): string {
  const emitter = new GoYamlEmitter();
  try {
    emitter.node(value, false, "");
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    if (e instanceof RangeError) throw new DecodeError("yaml", "value is nested too deeply to encode");
    throw e;
  }
  emitter.writeIndent(); // document end: finish the last line
  return emitter.out;
}
