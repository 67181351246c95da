/**
 * The YAML scanner: text in, go-yaml v2 tokens out, one at a time.
 *
 * Hand-written rather than taken from a library, for fidelity (issue 17):
 * the API server and kubectl read YAML with go-yaml v2, and the differential
 * in bench/yaml-differential/ measured 76 classes of disagreement between
 * go-yaml v2 and the `yaml` package that no option of that package removes.
 * So this scanner follows go-yaml v2.4.0's reader and scanner (scannerc.go,
 * readerc.go) rule for rule, quirks included, and looks ahead exactly as far
 * as go-yaml does. That matters because go-yaml reads lazily: a character
 * go-yaml never decodes cannot fail the text, and one it decodes early (its
 * reader checks input in 512-byte chunks, ahead of the scanner) can fail it
 * even after the first document has ended.
 *
 * It works on the JavaScript string with `charCodeAt` and index arithmetic:
 * offsets are UTF-16 units, columns count code points as go-yaml does.
 */
import { DecodeError } from "../../model/errors.js";
import type { YamlMark, YamlScalarStyle, YamlToken, YamlTokenKind } from "./syntax.js";

/** go-yaml's reader fetches its input in chunks of this many bytes of UTF-8. */
const RAW_CHUNK_BYTES = 512;
/** go-yaml v2 refuses more nested flow collections, or more block indentation levels, than this. */
const MAX_NESTING = 10000;
/** A simple key (one without `?`) must see its `:` within this many characters on its line. */
const MAX_SIMPLE_KEY_CHARS = 1024;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const NEL = 0x85;
const LS = 0x2028;
const PS = 0x2029;
const BOM = 0xfeff;

/** LF, CR, NEL, LS, PS: the characters that end a line for go-yaml. */
function isBreak(c: number): boolean {
  return c === LF || c === CR || c === NEL || c === LS || c === PS;
}
function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}
/** A break or the end of input (the scanner sees the end as code 0; the reader refuses a real NUL). */
function isBreakZ(c: number): boolean {
  return c === 0 || isBreak(c);
}
function isBlankZ(c: number): boolean {
  return c === SPACE || c === TAB || c === 0 || isBreak(c);
}
/** go-yaml's "alpha": the characters of anchor names, tag handles and directive names. */
function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}
/** The characters a tag URI may hold, besides word characters (`%` starts an escape). */
function isUriChar(c: number): boolean {
  if (isWordChar(c)) return true;
  switch (c) {
    case 0x3b: // ;
    case 0x2f: // /
    case 0x3f: // ?
    case 0x3a: // :
    case 0x40: // @
    case 0x26: // &
    case 0x3d: // =
    case 0x2b: // +
    case 0x24: // $
    case 0x2c: // ,
    case 0x2e: // .
    case 0x21: // !
    case 0x7e: // ~
    case 0x2a: // *
    case 0x27: // '
    case 0x28: // (
    case 0x29: // )
    case 0x5b: // [
    case 0x5d: // ]
    case 0x25: // %
      return true;
    default:
      return false;
  }
}
/** The code points go-yaml's reader lets through; anything else is "control characters are not allowed". */
function isAllowedInput(c: number): boolean {
  return (
    (c >= 0x20 && c <= 0x7e) ||
    c === LF ||
    c === TAB ||
    c === CR ||
    c === NEL ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}
/** UTF-8 length of a (short) text; a lone surrogate counts three bytes. */
function utf8Bytes(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}
/** Bytes a UTF-8 sequence has, from its first byte; 0 when the byte cannot start one. */
function utf8SequenceLength(octet: number): number {
  if ((octet & 0x80) === 0) return 1;
  if ((octet & 0xe0) === 0xc0) return 2;
  if ((octet & 0xf0) === 0xe0) return 3;
  if ((octet & 0xf8) === 0xf0) return 4;
  return 0;
}
const STOP_ALWAYS = 1;
const STOP_IN_FLOW = 2;
const STOP_BEFORE_BLANK = 3;
/** How an ASCII character ends a plain scalar's run: blanks, breaks and the end always; `,?[]{}` in flow context; `:` before a blank. */
const PLAIN_STOP: Uint8Array = (() => {
  const t = new Uint8Array(0x80);
  for (const c of [0, TAB, LF, CR, SPACE]) t[c] = STOP_ALWAYS;
  for (const ch of ",?[]{}") t[ch.charCodeAt(0)] = STOP_IN_FLOW;
  t[0x3a] = STOP_BEFORE_BLANK;
  return t;
})();
/** Indicators that end a plain scalar inside a flow collection. */
function isFlowIndicator(c: number): boolean {
  return c === 0x2c || c === 0x3f || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
}
/** Characters that cannot start a plain scalar (some can, in the cases {@link YamlScanner.fetchNextToken} checks). */
function isIndicator(c: number): boolean {
  switch (c) {
    case 0x2d: // -
    case 0x3f: // ?
    case 0x3a: // :
    case 0x2c: // ,
    case 0x5b: // [
    case 0x5d: // ]
    case 0x7b: // {
    case 0x7d: // }
    case 0x23: // #
    case 0x26: // &
    case 0x2a: // *
    case 0x21: // !
    case 0x7c: // |
    case 0x3e: // >
    case 0x27: // '
    case 0x22: // "
    case 0x25: // %
    case 0x40: // @
    case 0x60: // `
      return true;
    default:
      return false;
  }
}

/** A place where a mapping key without `?` may have started. */
interface SimpleKey {
  possible: boolean;
  /** In block context at the current indentation, the key must turn out to be one. */
  required: boolean;
  /** The number of the token the key starts with, counted from the stream start. */
  tokenNumber: number;
  mark: YamlMark;
}

function makeToken(
  kind: YamlTokenKind,
  start: YamlMark,
  end: YamlMark,
  value = "",
  handle = "",
  style: YamlScalarStyle = "plain",
): YamlToken {
  return { kind, start, end, value, handle, style };
}

/**
 * Pull-based scanner: `next()` returns the next token as go-yaml v2 would
 * produce it, with its marks, and throws {@link DecodeError} with go-yaml's
 * problem text and problem position where go-yaml fails. Once `stream-end`
 * has been returned it is returned again on every call; once an error has
 * been thrown it is thrown again.
 */
export class YamlScanner {
  private readonly text: string;
  private readonly length: number;

  // Position of the next character: UTF-16 offset, 0-based line and column (code points).
  private pos = 0;
  private line = 0;
  private column = 0;

  // The reader, as go-yaml's: it decodes and checks the UTF-8 input in chunks
  // of 512 bytes whenever the scanner wants more characters than it has.
  /** Bytes of input fetched so far (the last fetch may count past the end; nothing is decoded there). */
  private bytesFetched = 0;
  /** Bytes of input decoded and checked so far. */
  private bytesChecked = 0;
  /** UTF-16 offset up to which the text has been decoded and checked. */
  private checked = 0;
  private readerStarted = false;
  private inputExhausted = false;
  /** End-of-input markers the reader has appended (each counts as an unread character). */
  private endMarkers = 0;
  /**
   * Where go-yaml's character buffer began at its last refill. go-yaml tests
   * for a byte order mark at the buffer's start rather than at the current
   * position, so a line start is skipped when the buffer began with one.
   */
  private bufferStart = 0;

  // The scanner's state, as go-yaml's.
  /** The queue is tokens[head..tail); slots past tail are reused, not freed. */
  private readonly tokens: YamlToken[] = [];
  private head = 0;
  private tail = 0;
  private tokensTaken = 0;
  private tokenAvailable = false;
  private streamStartProduced = false;
  private streamEnd: YamlToken | undefined;
  private failure: DecodeError | undefined;
  private indent = -1;
  private readonly indents: number[] = [];
  private flowLevel = 0;
  private simpleKeyAllowed = false;
  private readonly simpleKeys: SimpleKey[] = [];
  /** Token number -> index in simpleKeys of the key that starts there (go-yaml's simple_keys_by_tok). */
  private readonly keysByToken = new Map<number, number>();

  constructor(text: string) {
    this.text = text;
    this.length = text.length;
  }

  next(): YamlToken {
    if (this.failure !== undefined) throw this.failure;
    if (this.streamEnd !== undefined) return this.streamEnd;
    try {
      if (!this.tokenAvailable) this.fetchMoreTokens();
    } catch (e) {
      this.failure =
        e instanceof DecodeError ? e : this.errorAt(this.mark(), `internal scanner error: ${(e as Error).message}`);
      throw this.failure;
    }
    const token = this.tokens[this.head] as YamlToken;
    // No lookup reaches a token number once its token is handed out.
    this.keysByToken.delete(this.tokensTaken);
    this.head++;
    this.tokensTaken++;
    this.tokenAvailable = false;
    if (this.head === this.tail) {
      this.head = 0;
      this.tail = 0;
    }
    if (token.kind === "stream-end") this.streamEnd = token;
    return token;
  }

  // ---------------------------------------------------------------- reader

  /** The code unit at `i`, or 0 past the end (go-yaml's end-of-input NUL). */
  private at(i: number): number {
    return this.text.charCodeAt(i) | 0;
  }

  private mark(): YamlMark {
    return { offset: this.pos, line: this.line, column: this.column };
  }

  private errorAt(mark: YamlMark, problem: string): DecodeError {
    return new DecodeError("yaml", problem, { line: mark.line + 1, column: mark.column + 1, offset: mark.offset });
  }

  private fail(problem: string): never {
    throw this.errorAt(this.mark(), problem);
  }

  /** Makes sure `n` characters past the current one are decoded, as go-yaml's CACHE(n). */
  private cache(n: number): void {
    if (this.checked - this.pos >= 2 * n) return;
    if (this.unread(n) < n) this.refill(n);
  }

  /** Characters decoded and not yet consumed, counting end markers; counts no further than `limit`. */
  private unread(limit: number): number {
    let count = this.endMarkers;
    let i = this.pos;
    while (i < this.checked && count < limit) {
      i += (this.text.charCodeAt(i) & 0xfc00) === 0xd800 ? 2 : 1;
      count++;
    }
    return count;
  }

  /** go-yaml's yaml_parser_update_buffer: decode whole chunks until `n` characters are unread. */
  private refill(n: number): void {
    if (!this.readerStarted) {
      this.readerStarted = true;
      // The encoding check fetches the first chunk, and fetches again (finding the
      // end) when it got fewer than 3 bytes; a UTF-8 byte order mark is dropped there.
      this.fetchChunk();
      if (this.length <= 2 && utf8Bytes(this.text) < 3) this.inputExhausted = true;
      if (this.at(0) === BOM) {
        this.bytesChecked = 3;
        this.checked = 1;
        this.pos = 1;
      }
    }
    this.bufferStart = this.pos;
    let first = true;
    while (this.unread(n) < n) {
      if (!first || this.bytesChecked === this.bytesFetched) this.fetchChunk();
      first = false;
      this.decodeFetched();
      if (this.inputExhausted) {
        this.endMarkers++;
        break;
      }
    }
  }

  /** Fetches input until the raw buffer holds a chunk (what remains undecoded stays in it). */
  private fetchChunk(): void {
    if (this.inputExhausted) return;
    // Called only when every whole fetched character is decoded: the text is
    // all decoded exactly when the previous fetches reached its end, so this
    // fetch finds nothing, as go-yaml's read at the end of input.
    if (this.checked === this.length) this.inputExhausted = true;
    else this.bytesFetched += RAW_CHUNK_BYTES - (this.bytesFetched - this.bytesChecked);
  }

  /** Decodes and checks every whole character among the fetched bytes. */
  private decodeFetched(): void {
    const text = this.text;
    let i = this.checked;
    let bytes = this.bytesChecked;
    const limit = this.bytesFetched;
    const length = this.length;
    while (i < length) {
      // Printable ASCII, one byte each, as far as the fetched bytes go.
      const asciiEnd = Math.min(length, i + (limit - bytes));
      const from = i;
      let c = text.charCodeAt(i);
      while (c >= 0x20 && c <= 0x7e && i < asciiEnd) c = text.charCodeAt(++i);
      bytes += i - from;
      if (i >= length) break;
      if (c >= 0x20 && c <= 0x7e) break; // printable ASCII that the fetched bytes do not reach
      let code = c;
      let units = 1;
      let width: number;
      if (c < 0x80) width = 1;
      else if (c < 0x800) width = 2;
      else if ((c & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        code = 0x10000 + ((c & 0x3ff) << 10) + (text.charCodeAt(i + 1) & 0x3ff);
        units = 2;
        width = 4;
      } else width = 3;
      if (bytes + width > limit) break;
      if ((c & 0xf800) === 0xd800 && units === 1) {
        // A lone surrogate has no UTF-8 form; go-yaml refuses its nearest
        // byte equivalent (a surrogate encoded as three bytes) with this problem.
        throw this.errorAt(this.markAt(i), "invalid Unicode character");
      }
      if (!isAllowedInput(code)) throw this.errorAt(this.markAt(i), "control characters are not allowed");
      bytes += width;
      i += units;
    }
    this.checked = i;
    this.bytesChecked = bytes;
  }

  /** The mark of a decoded offset at or after the current position (for reader errors). */
  private markAt(target: number): YamlMark {
    let line = this.line;
    let column = this.column;
    let i = this.pos;
    while (i < target) {
      const c = this.text.charCodeAt(i);
      if (c === CR && this.text.charCodeAt(i + 1) === LF) {
        i += 2;
        line++;
        column = 0;
      } else if (isBreak(c)) {
        i++;
        line++;
        column = 0;
      } else {
        i += (c & 0xfc00) === 0xd800 ? 2 : 1;
        column++;
      }
    }
    return { offset: target, line, column };
  }

  // ---------------------------------------------------------------- moving

  /** Moves past one character on the current line. */
  private skip(): void {
    this.pos += (this.text.charCodeAt(this.pos) & 0xfc00) === 0xd800 ? 2 : 1;
    this.column++;
  }

  /** Moves past one line break (CRLF counts as one), if there is one. */
  private skipLine(): void {
    const c = this.at(this.pos);
    if (c === CR && this.at(this.pos + 1) === LF) {
      this.pos += 2;
      this.line++;
      this.column = 0;
    } else if (isBreak(c)) {
      this.pos++;
      this.line++;
      this.column = 0;
    }
  }

  /** Moves past one line break and returns it as it reads inside a scalar: LS and PS stay, the rest become LF. */
  private readLine(): string {
    const c = this.at(this.pos);
    if (c === CR && this.at(this.pos + 1) === LF) {
      this.pos += 2;
    } else if (c === LF || c === CR || c === NEL) {
      this.pos++;
    } else if (c === LS || c === PS) {
      this.pos++;
      this.line++;
      this.column = 0;
      return c === LS ? "\u2028" : "\u2029";
    } else {
      return "";
    }
    this.line++;
    this.column = 0;
    return "\n";
  }

  // ---------------------------------------------------------------- token queue

  private enqueue(token: YamlToken): void {
    this.tokens[this.tail++] = token;
  }

  /** Puts a token `at` places after the head of the queue (-1: at the end). */
  private insertToken(at: number, token: YamlToken): void {
    if (at < 0) {
      this.enqueue(token);
      return;
    }
    const tokens = this.tokens;
    const place = this.head + at;
    for (let i = this.tail; i > place; i--) tokens[i] = tokens[i - 1] as YamlToken;
    tokens[place] = token;
    this.tail++;
  }

  private queuedNumber(): number {
    return this.tokensTaken + (this.tail - this.head);
  }

  /** Scans until the head token can be handed out: no simple key that starts at it is still possible. */
  private fetchMoreTokens(): void {
    for (;;) {
      if (this.head !== this.tail) {
        const index = this.keysByToken.get(this.tokensTaken);
        if (index === undefined) break;
        const key = this.simpleKeys[index];
        if (key === undefined || !this.simpleKeyStillValid(key)) break;
      }
      this.fetchNextToken();
    }
    this.tokenAvailable = true;
  }

  private fetchNextToken(): void {
    this.cache(1);
    if (!this.streamStartProduced) {
      this.fetchStreamStart();
      return;
    }
    this.scanToNextToken();
    this.unrollIndent(this.column);
    this.cache(4);
    const c = this.at(this.pos);
    if (c === 0) {
      this.fetchStreamEnd();
      return;
    }
    if (this.column === 0) {
      if (c === 0x25) {
        this.fetchDirective();
        return;
      }
      if (this.documentIndicatorHere()) {
        this.fetchDocumentIndicator(c === 0x2d ? "document-start" : "document-end");
        return;
      }
    }
    const next = this.at(this.pos + 1);
    switch (c) {
      case 0x5b: // [
        this.fetchFlowCollectionStart("flow-sequence-start");
        return;
      case 0x7b: // {
        this.fetchFlowCollectionStart("flow-mapping-start");
        return;
      case 0x5d: // ]
        this.fetchFlowCollectionEnd("flow-sequence-end");
        return;
      case 0x7d: // }
        this.fetchFlowCollectionEnd("flow-mapping-end");
        return;
      case 0x2c: // ,
        this.fetchFlowEntry();
        return;
      case 0x2d: // -
        if (isBlankZ(next)) {
          this.fetchBlockEntry();
          return;
        }
        break;
      case 0x3f: // ?
        if (this.flowLevel > 0 || isBlankZ(next)) {
          this.fetchKey();
          return;
        }
        break;
      case 0x3a: // :
        if (this.flowLevel > 0 || isBlankZ(next)) {
          this.fetchValue();
          return;
        }
        break;
      case 0x2a: // *
        this.fetchAnchor("alias");
        return;
      case 0x26: // &
        this.fetchAnchor("anchor");
        return;
      case 0x21: // !
        this.fetchTag();
        return;
      case 0x7c: // |
        if (this.flowLevel === 0) {
          this.fetchBlockScalar(true);
          return;
        }
        break;
      case 0x3e: // >
        if (this.flowLevel === 0) {
          this.fetchBlockScalar(false);
          return;
        }
        break;
      case 0x27: // '
        this.fetchFlowScalar(true);
        return;
      case 0x22: // "
        this.fetchFlowScalar(false);
        return;
    }
    if (
      !(isBlankZ(c) || isIndicator(c)) ||
      (c === 0x2d && !isBlank(next)) ||
      (this.flowLevel === 0 && (c === 0x3f || c === 0x3a) && !isBlankZ(next))
    ) {
      this.fetchPlainScalar();
      return;
    }
    this.fail("found character that cannot start any token");
  }

  /** `---` or `...` at the current position followed by a blank, a break or the end (column 0 is checked by the caller). */
  private documentIndicatorHere(): boolean {
    const c = this.at(this.pos);
    if (c !== 0x2d && c !== 0x2e) return false;
    return this.at(this.pos + 1) === c && this.at(this.pos + 2) === c && isBlankZ(this.at(this.pos + 3));
  }

  // ---------------------------------------------------------------- simple keys, indentation, flow level

  private simpleKeyStillValid(key: SimpleKey): boolean {
    if (!key.possible) return false;
    // On one line, go-yaml's character index and the column move together.
    if (key.mark.line < this.line || key.mark.column + MAX_SIMPLE_KEY_CHARS < this.column) {
      if (key.required) this.fail("could not find expected ':'");
      key.possible = false;
      return false;
    }
    return true;
  }

  private saveSimpleKey(): void {
    if (!this.simpleKeyAllowed) return;
    const required = this.flowLevel === 0 && this.indent === this.column;
    const tokenNumber = this.queuedNumber();
    this.removeSimpleKey();
    // go-yaml stores keys by value in one slot per flow level: overwrite the slot.
    const last = this.simpleKeys.length - 1;
    const key = this.simpleKeys[last] as SimpleKey;
    key.possible = true;
    key.required = required;
    key.tokenNumber = tokenNumber;
    key.mark = this.mark();
    this.keysByToken.set(tokenNumber, last);
  }

  private removeSimpleKey(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey;
    if (key.possible) {
      if (key.required) this.fail("could not find expected ':'");
      key.possible = false;
      this.keysByToken.delete(key.tokenNumber);
    }
  }

  private increaseFlowLevel(): void {
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: this.queuedNumber(), mark: this.mark() });
    this.flowLevel++;
    if (this.flowLevel > MAX_NESTING) this.fail(`exceeded max depth of ${MAX_NESTING}`);
  }

  private decreaseFlowLevel(): void {
    if (this.flowLevel > 0) {
      this.flowLevel--;
      const key = this.simpleKeys.pop() as SimpleKey;
      this.keysByToken.delete(key.tokenNumber);
    }
  }

  /** Opens a block collection when `column` is deeper than the current indentation; `number` is where its start token goes (-1: at the end). */
  private rollIndent(column: number, number: number, kind: YamlTokenKind, mark: YamlMark): void {
    if (this.flowLevel > 0) return;
    if (this.indent < column) {
      this.indents.push(this.indent);
      this.indent = column;
      if (this.indents.length > MAX_NESTING) this.fail(`exceeded max depth of ${MAX_NESTING}`);
      this.insertToken(number > -1 ? number - this.tokensTaken : -1, makeToken(kind, mark, mark));
    }
  }

  /** Closes every block collection deeper than `column`. */
  private unrollIndent(column: number): void {
    if (this.flowLevel > 0) return;
    while (this.indent > column) {
      const m = this.mark();
      this.enqueue(makeToken("block-end", m, m));
      this.indent = this.indents.pop() as number;
    }
  }

  // ---------------------------------------------------------------- fetchers

  private fetchStreamStart(): void {
    this.indent = -1;
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, mark: this.mark() });
    this.simpleKeyAllowed = true;
    this.streamStartProduced = true;
    const m = this.mark();
    this.enqueue(makeToken("stream-start", m, m));
  }

  private fetchStreamEnd(): void {
    // go-yaml puts the stream end on a line of its own.
    if (this.column !== 0) {
      this.column = 0;
      this.line++;
    }
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const m = this.mark();
    this.enqueue(makeToken("stream-end", m, m));
  }

  private fetchDirective(): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.enqueue(this.scanDirective());
  }

  private fetchDocumentIndicator(kind: YamlTokenKind): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    this.skip();
    this.skip();
    this.skip();
    this.enqueue(makeToken(kind, start, this.mark()));
  }

  private fetchFlowCollectionStart(kind: YamlTokenKind): void {
    this.saveSimpleKey();
    this.increaseFlowLevel();
    this.simpleKeyAllowed = true;
    this.pushIndicator(kind);
  }

  private fetchFlowCollectionEnd(kind: YamlTokenKind): void {
    this.removeSimpleKey();
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    this.pushIndicator(kind);
  }

  private fetchFlowEntry(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.pushIndicator("flow-entry");
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) this.fail("block sequence entries are not allowed in this context");
      this.rollIndent(this.column, -1, "block-sequence-start", this.mark());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.pushIndicator("block-entry");
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) this.fail("mapping keys are not allowed in this context");
      this.rollIndent(this.column, -1, "block-mapping-start", this.mark());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = this.flowLevel === 0;
    this.pushIndicator("key");
  }

  private fetchValue(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey;
    if (this.simpleKeyStillValid(key)) {
      // The key turned out to be one: its KEY token (and a mapping start, if
      // this opens a block mapping) go in front of the token it began at.
      this.insertToken(key.tokenNumber - this.tokensTaken, makeToken("key", key.mark, key.mark));
      this.rollIndent(key.mark.column, key.tokenNumber, "block-mapping-start", key.mark);
      key.possible = false;
      this.keysByToken.delete(key.tokenNumber);
      this.simpleKeyAllowed = false;
    } else {
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed) this.fail("mapping values are not allowed in this context");
        this.rollIndent(this.column, -1, "block-mapping-start", this.mark());
      }
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    this.pushIndicator("value");
  }

  /** Consumes a one-character indicator and queues its token. */
  private pushIndicator(kind: YamlTokenKind): void {
    const start = this.mark();
    this.skip();
    this.enqueue(makeToken(kind, start, this.mark()));
  }

  private fetchAnchor(kind: "anchor" | "alias"): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.enqueue(this.scanAnchor(kind));
  }

  private fetchTag(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.enqueue(this.scanTag());
  }

  private fetchBlockScalar(literal: boolean): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.enqueue(this.scanBlockScalar(literal));
  }

  private fetchFlowScalar(single: boolean): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.enqueue(this.scanFlowScalar(single));
  }

  private fetchPlainScalar(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.enqueue(this.scanPlainScalar());
  }

  // ---------------------------------------------------------------- scanners

  // The hot loops below keep the position in locals and ask the reader for
  // more only when the decoded text runs short, exactly where go-yaml's
  // per-character CACHE would refill.

  /** Moves to the next break or the end, as go-yaml's skip-and-CACHE(1) loop; returns the character there. */
  private restOfLine(): number {
    const text = this.text;
    let pos = this.pos;
    let column = this.column;
    let c = text.charCodeAt(pos) | 0;
    while (!isBreakZ(c)) {
      pos += (c & 0xfc00) === 0xd800 ? 2 : 1;
      column++;
      if (this.checked - pos < 2) {
        this.pos = pos;
        this.column = column;
        this.cache(1);
      }
      c = text.charCodeAt(pos) | 0;
    }
    this.pos = pos;
    this.column = column;
    return c;
  }

  /** Moves over the characters of a plain scalar from `c` on, as go-yaml's read-and-CACHE(2) loop; returns the character it stops at. */
  private runOver(c: number, inFlow: boolean): number {
    const text = this.text;
    let pos = this.pos;
    let column = this.column;
    let refillAt = this.checked - 4;
    for (;;) {
      pos += (c & 0xfc00) === 0xd800 ? 2 : 1;
      column++;
      if (pos > refillAt) {
        this.pos = pos;
        this.column = column;
        this.cache(2);
        refillAt = this.checked - 4;
      }
      c = text.charCodeAt(pos) | 0;
      if (c < 0x80) {
        const stop = PLAIN_STOP[c];
        if (stop === 0) continue;
        if (stop === STOP_ALWAYS || (stop === STOP_IN_FLOW && inFlow)) break;
        if (stop === STOP_BEFORE_BLANK && isBlankZ(text.charCodeAt(pos + 1) | 0)) break;
      } else if (c === NEL || c === LS || c === PS) break;
    }
    this.pos = pos;
    this.column = column;
    return c;
  }

  /** Moves over ordinary characters of a quoted scalar, as go-yaml's read-and-CACHE(2) loop; returns the character it stops at. */
  private quotedRun(c: number): number {
    const text = this.text;
    let pos = this.pos;
    let column = this.column;
    do {
      pos += (c & 0xfc00) === 0xd800 ? 2 : 1;
      column++;
      if (this.checked - pos < 4) {
        this.pos = pos;
        this.column = column;
        this.cache(2);
      }
      c = text.charCodeAt(pos) | 0;
    } while (!isBlankZ(c) && c !== 0x27 && c !== 0x22 && c !== 0x5c);
    this.pos = pos;
    this.column = column;
    return c;
  }

  /** Skips blanks, comments and line breaks up to the next token (go-yaml allows tabs only where no key may start). */
  private scanToNextToken(): void {
    for (;;) {
      this.cache(1);
      if (this.column === 0 && this.at(this.bufferStart) === BOM) this.skip();
      this.cache(1);
      let c = this.at(this.pos);
      while (c === SPACE || (c === TAB && (this.flowLevel > 0 || !this.simpleKeyAllowed))) {
        this.skip();
        this.cache(1);
        c = this.at(this.pos);
      }
      if (c === 0x23) c = this.restOfLine();
      if (!isBreak(c)) return;
      this.cache(2);
      this.skipLine();
      if (this.flowLevel === 0) this.simpleKeyAllowed = true;
    }
  }

  /** Skips blanks, then a comment, then requires a line break or the end, which it consumes. */
  private finishLine(problem: string): void {
    this.cache(1);
    let c = this.at(this.pos);
    while (isBlank(c)) {
      this.skip();
      this.cache(1);
      c = this.at(this.pos);
    }
    if (c === 0x23) c = this.restOfLine();
    if (!isBreakZ(c)) this.fail(problem);
    if (isBreak(c)) {
      this.cache(2);
      this.skipLine();
    }
  }

  private skipBlanks(): void {
    this.cache(1);
    while (isBlank(this.at(this.pos))) {
      this.skip();
      this.cache(1);
    }
  }

  /** Reads word characters (anchor names, handles, directive names) as one slice. */
  private readWord(): string {
    const from = this.pos;
    while (isWordChar(this.at(this.pos))) {
      this.skip();
      this.cache(1);
    }
    return this.text.slice(from, this.pos);
  }

  private scanDirective(): YamlToken {
    const start = this.mark();
    this.skip();
    this.cache(1);
    const name = this.readWord();
    if (name === "") this.fail("could not find expected directive name");
    if (!isBlankZ(this.at(this.pos))) this.fail("found unexpected non-alphabetical character");
    let token: YamlToken;
    if (name === "YAML") {
      this.skipBlanks();
      const major = this.scanVersionNumber();
      if (this.at(this.pos) !== 0x2e) this.fail("did not find expected digit or '.' character");
      this.skip();
      const minor = this.scanVersionNumber();
      token = makeToken("version-directive", start, this.mark(), `${major}.${minor}`);
    } else if (name === "TAG") {
      this.skipBlanks();
      const handle = this.scanTagHandle(true);
      this.cache(1);
      if (!isBlank(this.at(this.pos))) this.fail("did not find expected whitespace");
      this.skipBlanks();
      const prefix = this.scanTagUri("");
      this.cache(1);
      if (!isBlankZ(this.at(this.pos))) this.fail("did not find expected whitespace or line break");
      token = makeToken("tag-directive", start, this.mark(), prefix, handle);
    } else {
      this.fail("found unknown directive name");
    }
    this.finishLine("did not find expected comment or line break");
    return token;
  }

  private scanVersionNumber(): number {
    this.cache(1);
    let value = 0;
    let digits = 0;
    for (let c = this.at(this.pos); isDigit(c); c = this.at(this.pos)) {
      digits++;
      if (digits > 2) this.fail("found extremely long version number");
      value = value * 10 + (c - 0x30);
      this.skip();
      this.cache(1);
    }
    if (digits === 0) this.fail("did not find expected version number");
    return value;
  }

  private scanAnchor(kind: "anchor" | "alias"): YamlToken {
    const start = this.mark();
    this.skip();
    this.cache(1);
    const name = this.readWord();
    const end = this.mark();
    const c = this.at(this.pos);
    const endsWell =
      isBlankZ(c) ||
      c === 0x3f ||
      c === 0x3a ||
      c === 0x2c ||
      c === 0x5d ||
      c === 0x7d ||
      c === 0x25 ||
      c === 0x40 ||
      c === 0x60;
    if (name === "" || !endsWell) this.fail("did not find expected alphabetic or numeric character");
    return makeToken(kind, start, end, name);
  }

  private scanTag(): YamlToken {
    const start = this.mark();
    this.cache(2);
    let handle: string;
    let suffix: string;
    if (this.at(this.pos + 1) === 0x3c) {
      // Verbatim: !<uri>
      this.skip();
      this.skip();
      handle = "";
      suffix = this.scanTagUri("");
      if (this.at(this.pos) !== 0x3e) this.fail("did not find the expected '>'");
      this.skip();
    } else {
      const scanned = this.scanTagHandle(false);
      if (scanned.length > 1 && scanned.endsWith("!")) {
        handle = scanned;
        suffix = this.scanTagUri("");
      } else {
        // `!suffix`: what looked like a handle is the start of the suffix.
        suffix = this.scanTagUri(scanned);
        handle = "!";
        if (suffix === "") {
          // A lone `!` is the non-specific tag: go-yaml gives it an empty handle and "!" as suffix.
          handle = "";
          suffix = "!";
        }
      }
    }
    this.cache(1);
    if (!isBlankZ(this.at(this.pos))) this.fail("did not find expected whitespace or line break");
    return makeToken("tag", start, this.mark(), suffix, handle);
  }

  private scanTagHandle(directive: boolean): string {
    this.cache(1);
    if (this.at(this.pos) !== 0x21) this.fail("did not find expected '!'");
    const from = this.pos;
    this.skip();
    this.cache(1);
    this.readWord();
    if (this.at(this.pos) === 0x21) this.skip();
    else if (directive && this.pos - from !== 1) this.fail("did not find expected '!'");
    return this.text.slice(from, this.pos);
  }

  /** A tag URI; `head` is a handle that turned out to begin the suffix (its `!` is dropped). */
  private scanTagUri(head: string): string {
    let hasTag = head.length > 0;
    let out = head.length > 1 ? head.slice(1) : "";
    this.cache(1);
    let from = this.pos;
    for (let c = this.at(this.pos); isUriChar(c); c = this.at(this.pos)) {
      if (c === 0x25) {
        out += this.text.slice(from, this.pos) + this.scanUriEscapes();
        from = this.pos;
      } else {
        this.skip();
      }
      this.cache(1);
      hasTag = true;
    }
    out += this.text.slice(from, this.pos);
    if (!hasTag) this.fail("did not find expected tag URI");
    return out;
  }

  /** `%xx` escapes forming one UTF-8 sequence, decoded (bytes that are not valid UTF-8 become U+FFFD). */
  private scanUriEscapes(): string {
    const bytes: number[] = [];
    let remaining = -1;
    while (remaining !== 0) {
      this.cache(3);
      const hi = hexValue(this.at(this.pos + 1));
      const lo = hexValue(this.at(this.pos + 2));
      if (this.at(this.pos) !== 0x25 || hi < 0 || lo < 0) this.fail("did not find URI escaped octet");
      const octet = (hi << 4) + lo;
      if (remaining < 0) {
        remaining = utf8SequenceLength(octet);
        if (remaining === 0) this.fail("found an incorrect leading UTF-8 octet");
      } else if ((octet & 0xc0) !== 0x80) {
        this.fail("found an incorrect trailing UTF-8 octet");
      }
      bytes.push(octet);
      this.skip();
      this.skip();
      this.skip();
      remaining--;
    }
    return new TextDecoder("utf-8").decode(new Uint8Array(bytes));
  }

  private scanBlockScalar(literal: boolean): YamlToken {
    const start = this.mark();
    this.skip();
    this.cache(1);
    let chomping = 0;
    let increment = 0;
    let c = this.at(this.pos);
    if (c === 0x2b || c === 0x2d) {
      chomping = c === 0x2b ? 1 : -1;
      this.skip();
      this.cache(1);
      c = this.at(this.pos);
      if (isDigit(c)) {
        if (c === 0x30) this.fail("found an indentation indicator equal to 0");
        increment = c - 0x30;
        this.skip();
      }
    } else if (isDigit(c)) {
      if (c === 0x30) this.fail("found an indentation indicator equal to 0");
      increment = c - 0x30;
      this.skip();
      this.cache(1);
      c = this.at(this.pos);
      if (c === 0x2b || c === 0x2d) {
        chomping = c === 0x2b ? 1 : -1;
        this.skip();
      }
    }
    // Blanks, then a comment (`|#` too: go-yaml needs no blank before it), then the line break.
    this.finishLine("did not find expected comment or line break");

    let indent = 0;
    if (increment > 0) indent = this.indent >= 0 ? this.indent + increment : increment;
    const state: BlockBreaks = { indent, breaks: "", end: this.mark() };
    this.scanBlockBreaks(state);
    indent = state.indent;
    let trailingBreaks = state.breaks;
    state.breaks = "";
    this.cache(1);

    let value = "";
    let leadingBreak = "";
    let leadingBlank = false;
    while (this.column === indent && this.at(this.pos) !== 0) {
      const trailingBlank = isBlank(this.at(this.pos));
      // Folding: a line break between two lines that start without a blank becomes a space.
      if (!literal && !leadingBlank && !trailingBlank && leadingBreak.charCodeAt(0) === LF) {
        if (trailingBreaks === "") value += " ";
      } else {
        value += leadingBreak;
      }
      leadingBreak = "";
      value += trailingBreaks;
      trailingBreaks = "";
      leadingBlank = isBlank(this.at(this.pos));
      const from = this.pos;
      this.restOfLine();
      value += this.text.slice(from, this.pos);
      this.cache(2);
      leadingBreak = this.readLine();
      this.scanBlockBreaks(state);
      trailingBreaks = state.breaks;
      state.breaks = "";
    }
    if (chomping !== -1) value += leadingBreak;
    if (chomping === 1) value += trailingBreaks;
    return makeToken("scalar", start, state.end, value, "", literal ? "literal" : "folded");
  }

  /**
   * Empty lines and indentation before a block scalar's next content line.
   * With `state.indent` 0 (not yet known) it settles the indentation: the
   * deepest of those lines, at least one more than the enclosing block.
   */
  private scanBlockBreaks(state: BlockBreaks): void {
    state.end = this.mark();
    let maxIndent = 0;
    for (;;) {
      this.cache(1);
      while ((state.indent === 0 || this.column < state.indent) && this.at(this.pos) === SPACE) {
        this.skip();
        this.cache(1);
      }
      if (this.column > maxIndent) maxIndent = this.column;
      const c = this.at(this.pos);
      if ((state.indent === 0 || this.column < state.indent) && c === TAB) {
        this.fail("found a tab character where an indentation space is expected");
      }
      if (!isBreak(c)) break;
      this.cache(2);
      state.breaks += this.readLine();
      state.end = this.mark();
    }
    if (state.indent === 0) {
      state.indent = Math.max(maxIndent, this.indent + 1, 1);
    }
  }

  private scanFlowScalar(single: boolean): YamlToken {
    const start = this.mark();
    this.skip();
    const quote = single ? 0x27 : 0x22;
    let value = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    let whitespaces = "";
    for (;;) {
      this.cache(4);
      if (this.column === 0 && this.documentIndicatorHere()) this.fail("found unexpected document indicator");
      let c = this.at(this.pos);
      if (c === 0) this.fail("found unexpected end of stream");

      let leadingBlanks = false;
      while (!isBlankZ(c)) {
        if (single && c === 0x27 && this.at(this.pos + 1) === 0x27) {
          value += "'";
          this.skip();
          this.skip();
        } else if (c === quote) {
          break;
        } else if (!single && c === 0x5c && isBreak(this.at(this.pos + 1))) {
          // A backslash at the end of a line joins it to the next without a space.
          this.cache(3);
          this.skip();
          this.skipLine();
          leadingBlanks = true;
          break;
        } else if (!single && c === 0x5c) {
          value += this.scanEscape();
        } else {
          const from = this.pos;
          c = this.quotedRun(c);
          value += this.text.slice(from, this.pos);
          continue;
        }
        this.cache(2);
        c = this.at(this.pos);
      }

      this.cache(1);
      c = this.at(this.pos);
      if (c === quote) break;

      while (isBlank(c) || isBreak(c)) {
        if (isBlank(c)) {
          if (!leadingBlanks) whitespaces += c === TAB ? "\t" : " ";
          this.skip();
        } else {
          this.cache(2);
          if (!leadingBlanks) {
            whitespaces = "";
            leadingBreak = this.readLine();
            leadingBlanks = true;
          } else {
            trailingBreaks += this.readLine();
          }
        }
        this.cache(1);
        c = this.at(this.pos);
      }

      if (leadingBlanks) {
        if (leadingBreak.charCodeAt(0) === LF) value += trailingBreaks === "" ? " " : trailingBreaks;
        else value += leadingBreak + trailingBreaks;
        leadingBreak = "";
        trailingBreaks = "";
      } else {
        value += whitespaces;
        whitespaces = "";
      }
    }
    this.skip();
    return makeToken("scalar", start, this.mark(), value, "", single ? "single" : "double");
  }

  /** One backslash escape in a double-quoted scalar (go-yaml v2's set: no `\/`). */
  private scanEscape(): string {
    let out: string;
    let digits = 0;
    switch (this.at(this.pos + 1)) {
      case 0x30: // 0
        out = "\0";
        break;
      case 0x61: // a
        out = "\x07";
        break;
      case 0x62: // b
        out = "\b";
        break;
      case 0x74: // t
      case TAB:
        out = "\t";
        break;
      case 0x6e: // n
        out = "\n";
        break;
      case 0x76: // v
        out = "\v";
        break;
      case 0x66: // f
        out = "\f";
        break;
      case 0x72: // r
        out = "\r";
        break;
      case 0x65: // e
        out = "\x1b";
        break;
      case SPACE:
        out = " ";
        break;
      case 0x22: // "
        out = '"';
        break;
      case 0x27: // '
        out = "'";
        break;
      case 0x5c: // backslash
        out = "\\";
        break;
      case 0x4e: // N
        out = "\x85";
        break;
      case 0x5f: // _
        out = "\xa0";
        break;
      case 0x4c: // L
        out = "\u2028";
        break;
      case 0x50: // P
        out = "\u2029";
        break;
      case 0x78: // x
        out = "";
        digits = 2;
        break;
      case 0x75: // u
        out = "";
        digits = 4;
        break;
      case 0x55: // U
        out = "";
        digits = 8;
        break;
      default:
        this.fail("found unknown escape character");
    }
    this.skip();
    this.skip();
    if (digits > 0) {
      this.cache(digits);
      let code = 0;
      for (let k = 0; k < digits; k++) {
        const h = hexValue(this.at(this.pos + k));
        if (h < 0) this.fail("did not find expected hexdecimal number");
        code = code * 16 + h;
      }
      if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff)
        this.fail("found invalid Unicode character escape code");
      out = String.fromCodePoint(code);
      for (let k = 0; k < digits; k++) this.skip();
    }
    return out;
  }

  private scanPlainScalar(): YamlToken {
    const indent = this.indent + 1;
    const start = this.mark();
    let end = start;
    let value = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    let whitespaces = "";
    let leadingBlanks = false;
    for (;;) {
      this.cache(4);
      if (this.column === 0 && this.documentIndicatorHere()) break;
      let c = this.at(this.pos);
      if (c === 0x23) break;

      let from = -1;
      while (!isBlankZ(c)) {
        if ((c === 0x3a && isBlankZ(this.at(this.pos + 1))) || (this.flowLevel > 0 && isFlowIndicator(c))) break;
        if (from < 0) {
          if (leadingBlanks) {
            if (leadingBreak.charCodeAt(0) === LF) value += trailingBreaks === "" ? " " : trailingBreaks;
            else value += leadingBreak + trailingBreaks;
            leadingBreak = "";
            trailingBreaks = "";
            leadingBlanks = false;
          } else if (whitespaces !== "") {
            value += whitespaces;
            whitespaces = "";
          }
          from = this.pos;
        }
        c = this.runOver(c, this.flowLevel > 0);
      }
      if (from >= 0) {
        value += this.text.slice(from, this.pos);
        end = this.mark();
      }

      if (!(isBlank(c) || isBreak(c))) break;
      this.cache(1);
      c = this.at(this.pos);
      while (isBlank(c) || isBreak(c)) {
        if (isBlank(c)) {
          if (leadingBlanks && this.column < indent && c === TAB) {
            this.fail("found a tab character that violates indentation");
          }
          if (!leadingBlanks) whitespaces += c === TAB ? "\t" : " ";
          this.skip();
        } else {
          this.cache(2);
          if (!leadingBlanks) {
            whitespaces = "";
            leadingBreak = this.readLine();
            leadingBlanks = true;
          } else {
            trailingBreaks += this.readLine();
          }
        }
        this.cache(1);
        c = this.at(this.pos);
      }
      if (this.flowLevel === 0 && this.column < indent) break;
    }
    if (leadingBlanks) this.simpleKeyAllowed = true;
    return makeToken("scalar", start, end, value);
  }
}

/** The running state of {@link YamlScanner.scanBlockBreaks}. */
interface BlockBreaks {
  indent: number;
  breaks: string;
  end: YamlMark;
}
