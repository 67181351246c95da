/**
 * Kubernetes YAML text in: {@link parseYamlDocuments} reads a multi-document
 * stream like sigs.k8s.io/yaml `YAMLToJSON` does: YAML 1.1 scalar resolution as
 * go-yaml v2 implements it, unquoted timestamps kept as strings, non-string
 * keys converted as Go converts them. The `yaml` package does the syntax
 * (lexer, parser, composer); scalar resolution follows go-yaml (yaml-resolve.ts).
 */
import {
  Composer,
  Lexer,
  LineCounter,
  Parser,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  parseAllDocuments,
  type CST,
  type Document,
  type Scalar,
} from "yaml";
import { DecodeError, type DecodeErrorLocation } from "../model/errors.js";
import type { JsonObject, JsonValue } from "../model/json-value.js";
import { goFormatFloat } from "./yaml-number-format.js";
import { resolvePlain, type GoScalar } from "./yaml-resolve.js";

// Parsing.

export interface ParseYamlOptions {
  /** Deepest allowed collection nesting (default 100, capped at 500). */
  readonly maxDepth?: number;
  /**
   * Reject a key repeated in one mapping (default true), as go-yaml's strict
   * decoding does. With false the last value wins, as the API server's
   * default (non-strict) YAML-to-JSON step does.
   */
  readonly uniqueKeys?: boolean;
}

/**
 * The composer of the `yaml` package recurses once per nesting level and
 * overflows the stack at roughly 900 levels, so depth is checked on the
 * (iteratively built) CST before composing, and never allowed above this.
 */
const HARD_MAX_DEPTH = 500;
const DEFAULT_MAX_DEPTH = 100;

type Where = (offset: number) => DecodeErrorLocation;

/** Outside YAML 1.1's printable set (tab, breaks, BOM and non-BMP are fine). */
const NOT_PRINTABLE_INPUT = /[^\t\n\r\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** The first collection deeper than `maxDepth`, as an offset; the CST walk is iterative. */
function tooDeepAt(root: CST.Token, maxDepth: number): number | undefined {
  const stack: [CST.Token, number][] = [[root, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [tok, depth] = top;
    switch (tok.type) {
      case "document":
        if (tok.value) stack.push([tok.value, depth]);
        break;
      case "block-map":
      case "block-seq":
      case "flow-collection": {
        if (depth + 1 > maxDepth) return tok.offset;
        for (const item of tok.items) {
          if ("key" in item && item.key) stack.push([item.key, depth + 1]);
          if (item.value) stack.push([item.value, depth + 1]);
        }
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}

const TAG_PREFIX = "tag:yaml.org,2002:";
const RESOLVABLE_TAGS = new Set(["bool", "int", "float", "null", "timestamp"]);

/** Go's base64.StdEncoding.DecodeString (which skips CR and LF), then the bytes as a Go string. */
function decodeBinary(text: string): string | undefined {
  const b64 = text.replace(/[\r\n]/g, "");
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return undefined;
  // atob, not Buffer: the library runs in browsers too. The pattern above
  // already holds it to the standard alphabet and padding, so atob cannot throw.
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // Go replaces each byte of an invalid UTF-8 sequence with U+FFFD when it
  // writes JSON; TextDecoder would merge some of them.
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b0 = bytes[i] ?? 0;
    // Continuation bytes a lead byte announces; -1 for bytes that cannot start a sequence.
    const need =
      b0 < 0x80 ? 0 : b0 >= 0xc2 && b0 <= 0xdf ? 1 : b0 >= 0xe0 && b0 <= 0xef ? 2 : b0 >= 0xf0 && b0 <= 0xf4 ? 3 : -1;
    let cp = need === 0 ? b0 : need === 1 ? b0 & 0x1f : need === 2 ? b0 & 0x0f : b0 & 0x07;
    let ok = need >= 0 && i + need < bytes.length;
    for (let k = 1; ok && k <= need; k++) {
      const bk = bytes[i + k] ?? 0;
      if ((bk & 0xc0) !== 0x80) ok = false;
      cp = (cp << 6) | (bk & 0x3f);
    }
    const min = [0, 0x80, 0x800, 0x10000][need] ?? 0;
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

/**
 * A block scalar (`|`, `>`) as go-yaml v2 reads it, where that differs from
 * the `yaml` package's `value` (test/suites/yaml-block-scalars.test.ts checks
 * both against go-yaml itself):
 *
 * - go-yaml ends the last content line with a line break (clip `|`, keep
 *   `|+`) only if the input has one there. At the end of input without a
 *   final newline it adds none; the package always does. Before `---`, `...`
 *   or a less indented line the break is in the input, so both agree, and
 *   `|-` drops it anyway.
 * - With an explicit indentation indicator (`|2`), a line of only spaces that
 *   is more indented than the indicator says is content (the spaces past the
 *   indentation). The package reads a scalar made only of such lines as
 *   empty. (Without an indicator, a scalar of only blank lines takes the
 *   deepest one's indentation, so none of them is content: both agree.)
 *
 * `token` is the scalar's CST token (the composer keeps it as `srcToken`):
 * its header, the indentation of its parent and its raw lines.
 */
function goBlockScalar(value: string, token: CST.BlockScalar | undefined): string {
  if (token?.type !== "block-scalar") return value;
  const header = token.props[0]?.type === "block-scalar-header" ? token.props[0].source : "";
  const chomp = header.includes("-") ? "-" : header.includes("+") ? "+" : "";
  const indicator = Number(/[1-9]/.exec(header)?.[0] ?? 0);
  // The lines after the header; the last one is what follows the last line
  // break (often ""). A CR of a CRLF is not part of the line.
  const lines = token.source.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const blank = (line: string): boolean => /^ *$/.test(line);
  const firstContent = lines.find((l) => !blank(l));
  const contentIndent = indicator > 0 ? token.indent + indicator : firstContent?.match(/^ */)?.[0].length;

  if (
    indicator > 0 &&
    contentIndent !== undefined &&
    lines.every(blank) &&
    lines.some((l) => l.length > contentIndent)
  ) {
    // go-yaml's scan_block_scalar on blank lines: no folding (a content line
    // that starts with a space is never folded), breaks kept as they come.
    let out = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    lines.forEach((line, i) => {
      const lineBreak = i < lines.length - 1 ? "\n" : ""; // none at the end of input
      if (line.length > contentIndent) {
        out += leadingBreak + trailingBreaks + line.slice(contentIndent);
        leadingBreak = lineBreak;
        trailingBreaks = "";
      } else trailingBreaks += lineBreak;
    });
    return out + (chomp === "-" ? "" : leadingBreak) + (chomp === "+" ? trailingBreaks : "");
  }

  // The input ends inside the scalar without a final line break: the last
  // line, if it is content (or the only line: then there is no break at all
  // to keep), has no break for go-yaml, while the package added one.
  if (chomp === "-" || lines[lines.length - 1] === "" || !value.endsWith("\n")) return value;
  const last = lines[lines.length - 1] ?? "";
  const lastIsContent = !blank(last) || (contentIndent !== undefined && last.length > contentIndent);
  return lines.length === 1 || lastIsContent ? value.slice(0, -1) : value;
}

/** Converts one composed document to a JSON value following go-yaml v2 + sigs.k8s.io/yaml. */
class DocumentConverter {
  // go-yaml counts the document node too.
  private decodeCount = 1;
  private aliasCount = 0;
  private aliasDepth = 0;
  private readonly expanding = new Set<unknown>();
  private readonly aliasTargets = new Map<unknown, unknown>();

  constructor(
    private readonly text: string,
    private readonly where: Where,
    private readonly maxDepth: number,
    private readonly uniqueKeys: boolean,
  ) {}

  private fail(reason: string, node: unknown): never {
    const range = (node as { range?: readonly number[] | null } | null)?.range;
    throw new DecodeError("yaml", reason, this.where(range?.[0] ?? 0));
  }

  /**
   * Aliases point at the latest anchor defined before them in document order;
   * as in go-yaml, an anchor registers when its node starts.
   */
  collectAnchors(node: unknown, anchors: Map<string, unknown>): void {
    if (isAlias(node)) {
      this.aliasTargets.set(node, anchors.get(node.source));
      return;
    }
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) return;
    if (node.anchor !== undefined) anchors.set(node.anchor, node);
    if (isMap(node)) {
      for (const pair of node.items) {
        this.collectAnchors(pair.key, anchors);
        this.collectAnchors(pair.value, anchors);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) this.collectAnchors(item, anchors);
    }
  }

  /** go-yaml's guard against alias expansion bombs (decode.go, allowedAliasRatio). */
  private count(node: unknown): void {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    const d = this.decodeCount;
    const allowed = d <= 400_000 ? 0.99 : d >= 4_000_000 ? 0.1 : 0.99 - (0.89 * (d - 400_000)) / 3_600_000;
    if (this.aliasCount > 100 && d > 1000 && this.aliasCount / d > allowed) {
      this.fail("document contains excessive aliasing", node);
    }
  }

  /** Follows an alias (counting it as go-yaml does) and returns its target. */
  private deref<T>(alias: { source: string }, node: unknown, use: (target: unknown) => T): T {
    const target = this.aliasTargets.get(node);
    if (target === undefined) this.fail(`unknown anchor '${alias.source}' referenced`, node);
    if (this.expanding.has(node)) this.fail(`anchor '${alias.source}' value contains itself`, node);
    this.expanding.add(node);
    this.aliasDepth++;
    try {
      return use(target);
    } finally {
      this.aliasDepth--;
      this.expanding.delete(node);
    }
  }

  /** go-yaml refuses a `\u` or `\U` escape of a surrogate, paired or not: it is not a character. */
  private checkEscapes(node: Scalar): void {
    const [start = 0, end = 0] = node.range ?? [];
    const raw = this.text.slice(start, end);
    for (let i = raw.indexOf("\\"); i >= 0; i = raw.indexOf("\\", i + 2)) {
      const e = raw[i + 1];
      if (e !== "u" && e !== "U") continue;
      const cp = parseInt(raw.slice(i + 2, i + (e === "u" ? 6 : 10)), 16);
      if (cp >= 0xd800 && cp <= 0xdfff)
        throw new DecodeError("yaml", "found invalid Unicode character escape code", this.where(start + i));
    }
  }

  private scalar(node: Scalar): GoScalar {
    if (node.type === "QUOTE_DOUBLE") this.checkEscapes(node);
    let text = node.source ?? String(node.value ?? "");
    if (node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") {
      text = goBlockScalar(text, (node as { srcToken?: CST.BlockScalar }).srcToken);
    }
    // go-yaml reads U+2028/U+2029 as line breaks: in a flow scalar the blanks
    // around one are folding whitespace and vanish, while the break itself
    // is kept. YAML 1.2 (the yaml package) treats them as ordinary text.
    if ((node.type === "QUOTE_SINGLE" || node.type === "PLAIN") && /[\u2028\u2029]/.test(text)) {
      text = text.replace(/[ \t]*([\u2028\u2029])[ \t]*/g, "$1");
    }
    const tag = node.tag;
    if (tag === undefined) return node.type === "PLAIN" ? resolvePlain(text) : { kind: "str", text };
    if (!tag.startsWith(TAG_PREFIX)) return { kind: "str", text }; // `!`, local tags
    const name = tag.slice(TAG_PREFIX.length);
    if (name === "binary") {
      const decoded = decodeBinary(text);
      if (decoded === undefined) this.fail("!!binary value contains invalid base64 data", node);
      return { kind: "str", text: decoded };
    }
    if (!RESOLVABLE_TAGS.has(name)) return { kind: "str", text };
    const r = resolvePlain(text);
    if (r.kind === name) return r;
    if (name === "float" && r.kind === "int") return { kind: "float", value: Number(r.value) };
    const got = r.kind === "uint" ? "int" : r.kind;
    return this.fail(`cannot decode !!${got} \`${text}\` as a !!${name}`, node);
  }

  value(node: unknown, depth: number): JsonValue {
    this.count(node);
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return this.deref(node, node, (target) => this.value(target, depth));
    if (isScalar(node)) {
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
            this.fail(`JSON cannot represent the float ${goFormatFloat(s.value, 64)}`, node);
          }
          return s.value;
      }
    }
    if (depth + 1 > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`, node);
    if (isSeq(node)) return node.items.map((item) => this.value(item, depth + 1));
    if (isMap(node)) {
      const obj: JsonObject = Object.create(null) as JsonObject;
      // go-yaml v2 applies entries in document order into one map: a later
      // key, merged or written, replaces an earlier one; strict decoding
      // rejects any key already set.
      for (const pair of node.items) {
        if (this.isMergeKey(pair.key)) {
          this.merge(obj, pair.value, depth + 1);
          continue;
        }
        const key = this.key(pair.key, depth + 1);
        if (this.uniqueKeys && Object.hasOwn(obj, key)) {
          this.fail(`mapping key ${JSON.stringify(key)} already defined`, pair.key ?? node);
        }
        obj[key] = this.value(pair.value, depth + 1);
      }
      return obj;
    }
    return this.fail("unsupported YAML node", node);
  }

  private isMergeKey(key: unknown): boolean {
    return (
      isScalar(key) &&
      key.source === "<<" &&
      ((key.type === "PLAIN" && key.tag === undefined) || key.tag === `${TAG_PREFIX}merge`)
    );
  }

  /** `<<` merge keys: each merged map is written into `obj` like its own entries. */
  private merge(obj: JsonObject, source: unknown, depth: number): void {
    const copy = (from: JsonValue, at: unknown): void => {
      for (const k of Object.keys(from as JsonObject)) {
        if (this.uniqueKeys && Object.hasOwn(obj, k)) {
          this.fail(`mapping key ${JSON.stringify(k)} already set in map`, at);
        }
        obj[k] = (from as JsonObject)[k] ?? null;
      }
    };
    const mergeOne = (n: unknown): void => {
      // An alias to nothing fails as an unknown anchor inside value().
      const target = isAlias(n) ? this.aliasTargets.get(n) : n;
      const ok = isMap(target) || (isAlias(n) && target === undefined);
      if (!ok) this.fail("map merge requires map or sequence of maps as the value", source);
      copy(this.value(n, depth), n);
    };
    if (isSeq(source)) {
      // Earlier entries take precedence, so apply them last.
      for (let i = source.items.length - 1; i >= 0; i--) mergeOne(source.items[i]);
    } else mergeOne(source);
  }

  /** A mapping key as sigs.k8s.io/yaml turns it into a JSON object key. */
  private key(node: unknown, depth: number): string {
    this.count(node);
    if (isAlias(node)) return this.deref(node, node, (target) => this.key(target, depth));
    if (node === null || node === undefined) this.fail("unsupported map key: null", node);
    if (!isScalar(node)) return this.fail("invalid map key: a mapping or sequence cannot be a key", node);
    const s = this.scalar(node);
    switch (s.kind) {
      case "str":
      case "timestamp":
        return s.text;
      case "int":
        return s.value.toString();
      case "bool":
        return s.value ? "true" : "false";
      case "float":
        return goFormatFloat(s.value, 32); // sigs.k8s.io/yaml formats float keys at 32-bit precision
      case "uint":
        return this.fail(`unsupported map key of type uint64: ${s.value}`, node);
      case "null":
        return this.fail("unsupported map key: null", node);
    }
  }
}

/**
 * The text as go-yaml's reader and scanner see it, at the same offsets. YAML
 * 1.1 has more line breaks than the `yaml` package's YAML 1.2: a lone CR and
 * NEL break lines too (and read as LF in scalars). A BOM at the start of a
 * line, where the scanner looks for the next token, is skipped but takes a
 * column, as a space does; inside a quoted or block scalar it is text.
 */
function goYamlSource(text: string): string {
  let s = /[\r\x85]/.test(text) ? text.replace(/\r(?!\n)|\x85/g, "\n") : text;
  if (s.includes("\n\ufeff")) {
    const lineStarts = new Set<number>();
    for (let i = s.indexOf("\n\ufeff"); i >= 0; i = s.indexOf("\n\ufeff", i + 1)) lineStarts.add(i + 1);
    const spaces: number[] = [];
    let offset = 0;
    for (const lexeme of new Lexer().lex(s)) {
      if (lexeme === DOCUMENT_MARK || lexeme === FLOW_ERROR_MARK || lexeme === SCALAR_MARK) continue; // take no text
      if (lineStarts.has(offset) && lexeme.startsWith("\ufeff")) spaces.push(offset);
      offset += lexeme.length;
    }
    let out = "";
    let from = 0;
    for (const at of spaces) {
      out += s.slice(from, at) + " ";
      from = at + 1;
    }
    s = out + s.slice(from);
  }
  return s;
}

/**
 * libyaml ends a simple key's chance once the scanner is more than 1,024
 * characters past its start when it reaches the `:`; the `yaml` package
 * counts UTF-16 units, so a key of astral characters would fail sooner.
 */
function simpleKeyFits(text: string, start: number, end: number): boolean {
  let colon = end;
  while (text[colon] === " " || text[colon] === "\t") colon++;
  let chars = 0;
  for (let i = start; i < colon; i++) if ((text.charCodeAt(i) & 0xfc00) !== 0xdc00) chars++;
  return chars <= 1024;
}

// The lexer's zero-width lexemes (see CST.tokenType in the `yaml` package).
const DOCUMENT_MARK = "\x02";
const FLOW_ERROR_MARK = "\x18";
const SCALAR_MARK = "\x1f";

function collectionDepthAt(stack: readonly CST.Token[], maxDepth: number): number {
  let depth = 0;
  for (const tok of stack) {
    if ((tok.type === "block-map" || tok.type === "block-seq" || tok.type === "flow-collection") && ++depth > maxDepth)
      return tok.offset;
  }
  return -1;
}

function parseDocuments(original: string, maxDepth: number, uniqueKeys: boolean): JsonValue[] {
  const text = goYamlSource(original);
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0);
  const tokens: CST.Token[] = [];
  // Collections being built sit on the parser's stack: stop as soon as one is
  // too deep (the parser slows down super-linearly on very deep input).
  let tooDeep = -1;
  // go-yaml's scanner eats a tab only in flow context or where no simple key
  // may start; elsewhere (at the start of a line, after `-`, `?` or `:` in
  // block context) a tab cannot start any token. YAML 1.2 allows it there.
  let tabAt = -1;
  let flow = 0;
  let keyAllowed = true;
  let atScalar = false;
  for (const lexeme of new Lexer().lex(text)) {
    const offset = parser.offset;
    for (const tok of parser.next(lexeme)) tokens.push(tok);
    if (parser.stack.length > maxDepth + 1) {
      tooDeep = collectionDepthAt(parser.stack, maxDepth);
      if (tooDeep >= 0) break;
    }
    if (atScalar) {
      atScalar = false;
      keyAllowed = false;
      continue;
    }
    switch (lexeme) {
      case SCALAR_MARK: // the next lexeme is a scalar's text
        atScalar = true;
        continue;
      case DOCUMENT_MARK:
      case FLOW_ERROR_MARK:
      case "\ufeff":
      case ",":
        continue;
      case "":
      case "\n":
      case "\r\n":
      case "-":
      case "?":
      case ":":
        if (flow === 0) keyAllowed = true;
        continue;
      case "{":
      case "[":
        flow++;
        continue;
      case "}":
      case "]":
        flow = Math.max(0, flow - 1);
        keyAllowed = false;
        continue;
    }
    const c = lexeme.charCodeAt(0);
    if (c === 0x20 || c === 0x09) {
      if (flow === 0 && keyAllowed && tabAt < 0 && lexeme.includes("\t")) tabAt = offset + lexeme.indexOf("\t");
      continue;
    }
    if (c !== 0x23) keyAllowed = false; // a comment changes nothing
  }
  if (tooDeep < 0) for (const tok of parser.end()) tokens.push(tok);
  let docIndex = 0;
  const whereIn =
    (doc: number): Where =>
    (offset) => {
      const { line, col } = lines.linePos(offset);
      return { line: Math.max(line, 1), column: Math.max(col, 1), document: doc + 1, offset };
    };
  const docStarts = tokens.filter((t) => t.type === "document").map((t) => t.offset);
  if (tooDeep >= 0 && parser.stack[0]?.type === "document") docStarts.push(parser.stack[0].offset);
  const docAt = (offset: number): number => Math.max(0, docStarts.filter((o) => o <= offset).length - 1);

  // go-yaml's reader refuses characters outside YAML's printable set.
  const bad = NOT_PRINTABLE_INPUT.exec(original);
  if (bad !== null && (tooDeep < 0 || bad.index <= tooDeep)) {
    throw new DecodeError("yaml", "control characters are not allowed", whereIn(docAt(bad.index))(bad.index));
  }
  if (tabAt >= 0 && (tooDeep < 0 || tabAt < tooDeep)) {
    throw new DecodeError("yaml", "found character that cannot start any token", whereIn(docAt(tabAt))(tabAt));
  }
  if (tooDeep >= 0) throw new DecodeError("yaml", `nesting deeper than ${maxDepth}`, whereIn(docAt(tooDeep))(tooDeep));

  // Depth first: the composer is recursive and must never see deep input.
  for (const tok of tokens) {
    if (tok.type === "directive") {
      // go-yaml v2 knows %YAML 1.1 and %TAG only.
      const [name, version] = tok.source.slice(1).split(/[ \t]+/);
      let reason: string | undefined;
      if (name === "YAML" && version !== "1.1") reason = "found incompatible YAML document";
      else if (name !== "YAML" && name !== "TAG") reason = "found unknown directive name";
      if (reason !== undefined) throw new DecodeError("yaml", reason, whereIn(docIndex)(tok.offset));
    }
    if (tok.type !== "document") continue;
    const at = tooDeepAt(tok, maxDepth);
    if (at !== undefined) throw new DecodeError("yaml", `nesting deeper than ${maxDepth}`, whereIn(docIndex)(at));
    docIndex++;
  }

  const composer = new Composer({
    version: "1.1",
    // Failsafe: every scalar stays text here; go-yaml's resolution is applied below.
    schema: "failsafe",
    resolveKnownTags: false,
    uniqueKeys: false,
    // Block scalars need their CST token (srcToken): see goBlockScalar.
    keepSourceTokens: true,
  });
  const docs: Document.Parsed[] = Array.from(composer.compose(tokens));
  const out: JsonValue[] = [];
  for (const [i, doc] of docs.entries()) {
    const where = whereIn(i);
    const err = doc.errors.find((e) => !(e.code === "KEY_OVER_1024_CHARS" && simpleKeyFits(text, e.pos[0], e.pos[1])));
    if (err !== undefined) throw new DecodeError("yaml", err.message, where(err.pos[0]));
    const converter = new DocumentConverter(text, where, maxDepth, uniqueKeys);
    converter.collectAnchors(doc.contents, new Map());
    const value = converter.value(doc.contents, 0);
    if (value !== null) out.push(value);
  }
  const streamErr = composer.streamInfo().errors[0];
  if (streamErr !== undefined) throw new DecodeError("yaml", streamErr.message, whereIn(docs.length)(streamErr.pos[0]));
  return out;
}

/**
 * Parse a multi-document YAML stream the way Kubernetes does (sigs.k8s.io/yaml
 * YAMLToJSON on go-yaml v2). Empty and null documents are skipped. Integers
 * are `number` when safe and `bigint` otherwise; unquoted timestamps stay
 * strings; duplicate keys are rejected unless `uniqueKeys` is false (see
 * {@link ParseYamlOptions}).
 *
 * Throws only {@link DecodeError}, with 1-based line, column and document
 * number, and the character offset.
 */
export function parseYamlDocuments(text: string, options: ParseYamlOptions = {}): JsonValue[] {
  try {
    const requested = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
    const maxDepth = Number.isFinite(requested)
      ? Math.max(0, Math.min(Math.floor(requested), HARD_MAX_DEPTH))
      : HARD_MAX_DEPTH;
    if (typeof text !== "string") throw new DecodeError("yaml", "input is not a string");
    return parseDocuments(text, maxDepth, options.uniqueKeys ?? true);
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    // Nothing else may escape; a RangeError here would be stack exhaustion.
    const reason = e instanceof RangeError ? "input is nested too deeply" : `unexpected parser failure: ${String(e)}`;
    throw new DecodeError("yaml", reason);
  }
}

/**
 * Where the value at `path` (keys and array indexes) sits in the `index`-th
 * non-empty document of `text`, for errors found after parsing. Falls back to
 * the deepest part of the path that exists.
 */
const NULL_SCALARS = new Set(["", "~", "null", "Null", "NULL"]);

export function locateYamlPath(text: string, index: number, path: readonly (string | number)[]): DecodeErrorLocation {
  try {
    const lines = new LineCounter();
    const docs = parseAllDocuments(goYamlSource(text), {
      version: "1.1",
      schema: "failsafe",
      uniqueKeys: false,
      lineCounter: lines,
    });
    if (!Array.isArray(docs)) return {};
    const nonEmpty = docs
      .map((d, i) => ({ d, i }))
      // The same documents parseYamlDocuments keeps: a plain null scalar is empty, a quoted '' is not.
      .filter(
        ({ d }) =>
          d.contents !== null &&
          !(
            isScalar(d.contents) &&
            d.contents.type === "PLAIN" &&
            d.contents.tag === undefined &&
            NULL_SCALARS.has(String(d.contents.source))
          ),
      );
    const entry = nonEmpty[index];
    if (entry === undefined) return {};
    let node: unknown = entry.d.contents;
    let at = (node as { range?: readonly number[] } | null)?.range?.[0];
    for (const seg of path) {
      let next: unknown;
      if (isMap(node)) {
        // A repeated key keeps its last value, so that is the one to point at.
        for (let k = node.items.length - 1; k >= 0; k--) {
          const p = node.items[k];
          if (p !== undefined && isScalar(p.key) && String(p.key.source ?? p.key.value) === String(seg)) {
            next = p.value;
            break;
          }
        }
      } else if (isSeq(node) && typeof seg === "number") {
        next = node.items[seg];
      }
      const r = (next as { range?: readonly number[] } | null | undefined)?.range?.[0];
      if (next === undefined || r === undefined) break;
      node = next;
      at = r;
    }
    if (at === undefined) return { document: entry.i + 1 };
    const { line, col } = lines.linePos(at);
    return { line, column: col, offset: at, document: entry.i + 1 };
  } catch {
    return {};
  }
}
