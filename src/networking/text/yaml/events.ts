/**
 * The event parser of clusterwire's YAML reader: it pulls tokens from the
 * scanner (yaml-scanner.ts) and turns them into the events the composer
 * (yaml-compose.ts) builds documents from.
 *
 * Hand-written rather than taken from the `yaml` package because the API
 * server reads YAML through go-yaml v2, and the differential against it
 * (docs/yaml-differential.md, issue 17) measured 76 classes of disagreement
 * the package cannot be bent to. So this follows go-yaml v2's parser state
 * machine rule for rule: the same states, the same empty scalars at the same
 * marks, the same problem texts at the same marks, and the same laziness (a
 * token is pulled from the scanner only when go-yaml would peek at it, so an
 * error past the point go-yaml stops reading is never raised here either).
 *
 * The grammar it recognises (YAML 1.1 as libyaml reads it):
 *
 *   stream          = STREAM-START implicit-doc? explicit-doc* STREAM-END
 *   implicit-doc    = block-node DOCUMENT-END*
 *   explicit-doc    = DIRECTIVE* DOCUMENT-START block-node? DOCUMENT-END*
 *   block-node      = ALIAS | properties block-content? | block-content
 *   flow-node       = ALIAS | properties flow-content? | flow-content
 *   properties      = TAG ANCHOR? | ANCHOR TAG?
 *   block-content   = block-sequence | block-mapping | flow-collection | SCALAR
 *   block-sequence  = BLOCK-SEQUENCE-START (BLOCK-ENTRY block-node?)* BLOCK-END
 *   indentless-seq  = (BLOCK-ENTRY block-node?)+      (a mapping value only)
 *   block-mapping   = BLOCK-MAPPING-START ((KEY node?)? (VALUE node?)?)* BLOCK-END
 *   flow-sequence   = FLOW-SEQUENCE-START (entry FLOW-ENTRY)* entry? FLOW-SEQUENCE-END
 *   flow-mapping    = FLOW-MAPPING-START (entry FLOW-ENTRY)* entry? FLOW-MAPPING-END
 *   entry           = flow-node | KEY flow-node? (VALUE flow-node?)?
 *
 * Nesting is kept on an explicit stack of states, never on the call stack, so
 * depth costs memory, not recursion; the scanner bounds it (go-yaml's
 * "exceeded max depth" limits live in its scanner, not its parser).
 */
import { DecodeError } from "../../model/errors.js";
import { YamlScanner } from "./scanner.js";
import type { YamlEvent, YamlEventKind, YamlMark, YamlScalarStyle, YamlToken } from "./syntax.js";

/** Anything that hands out tokens one at a time, as {@link YamlScanner} does. */
export interface YamlTokenSource {
  next(): YamlToken;
}

// The parser's states, one for each of go-yaml's. Plain numbers: the
// dispatch is a switch on them.
const STREAM_START = 0;
const IMPLICIT_DOCUMENT_START = 1;
const DOCUMENT_START = 2;
const DOCUMENT_CONTENT = 3;
const DOCUMENT_END = 4;
const BLOCK_NODE = 5;
const BLOCK_NODE_OR_INDENTLESS_SEQUENCE = 6;
const FLOW_NODE = 7;
const BLOCK_SEQUENCE_FIRST_ENTRY = 8;
const BLOCK_SEQUENCE_ENTRY = 9;
const INDENTLESS_SEQUENCE_ENTRY = 10;
const BLOCK_MAPPING_FIRST_KEY = 11;
const BLOCK_MAPPING_KEY = 12;
const BLOCK_MAPPING_VALUE = 13;
const FLOW_SEQUENCE_FIRST_ENTRY = 14;
const FLOW_SEQUENCE_ENTRY = 15;
const FLOW_SEQUENCE_ENTRY_MAPPING_KEY = 16;
const FLOW_SEQUENCE_ENTRY_MAPPING_VALUE = 17;
const FLOW_SEQUENCE_ENTRY_MAPPING_END = 18;
const FLOW_MAPPING_FIRST_KEY = 19;
const FLOW_MAPPING_KEY = 20;
const FLOW_MAPPING_VALUE = 21;
const FLOW_MAPPING_EMPTY_VALUE = 22;
const END = 23;

/** The prefix the secondary handle `!!` stands for unless a %TAG directive says otherwise. */
const YAML_TAG_PREFIX = "tag:yaml.org,2002:";

/** The only %YAML version go-yaml accepts. */
const COMPATIBLE_VERSION = "1.1";

/** Builds every event, so all of them share one object shape. */
function makeEvent(
  kind: YamlEventKind,
  start: YamlMark,
  end: YamlMark,
  anchor: string,
  tag: string,
  value: string,
  style: YamlScalarStyle,
  implicit: boolean,
  flow: boolean,
): YamlEvent {
  return { kind, start, end, anchor, tag, value, style, implicit, flow };
}

/** go-yaml's empty scalar: plain, untagged, "", zero-width at `mark`. */
function emptyScalar(mark: YamlMark): YamlEvent {
  return makeEvent("scalar", mark, mark, "", "", "", "plain", true, false);
}

function fail(problem: string, mark: YamlMark): never {
  throw new DecodeError("yaml", problem, { line: mark.line + 1, column: mark.column + 1, offset: mark.offset });
}

/**
 * Pull-based event parser: each {@link next} returns one event, reading only
 * as many tokens as go-yaml v2 would to produce it. After `stream-end` it
 * returns `stream-end` again; after an error it throws the same error again.
 * Only {@link DecodeError} is ever thrown.
 */
export class YamlEventParser {
  private readonly tokens: YamlTokenSource;
  /** The token peeked at and not yet consumed (go-yaml's token queue head). */
  private peeked: YamlToken | undefined = undefined;
  private state = STREAM_START;
  /**
   * States to return to when the current node is finished. go-yaml keeps a
   * second stack, of collection start marks, only to name the context of an
   * error ("while parsing a block mapping at ..."); its messages print the
   * problem alone, so that stack is not kept here.
   */
  private readonly states: number[] = [];
  /** The tag handles in scope for the current document and what they stand for. */
  private readonly handles: string[] = [];
  private readonly prefixes: string[] = [];
  private streamEnd: YamlEvent | undefined = undefined;
  private failure: unknown = undefined;

  /**
   * @param text the YAML text.
   * @param tokens where tokens come from; by default a {@link YamlScanner}
   *   over `text`. Tests pass their own token sequences here.
   */
  constructor(text: string, tokens?: YamlTokenSource) {
    this.tokens = tokens ?? new YamlScanner(text);
  }

  next(): YamlEvent {
    if (this.streamEnd !== undefined) return this.streamEnd;
    if (this.failure !== undefined) throw this.failure;
    try {
      const event = this.step();
      if (event.kind === "stream-end") this.streamEnd = event;
      return event;
    } catch (e) {
      this.failure = e instanceof DecodeError ? e : internal(e);
      throw this.failure;
    }
  }

  // Token queue.

  private peek(): YamlToken {
    let t = this.peeked;
    if (t === undefined) {
      t = this.tokens.next();
      this.peeked = t;
    }
    return t;
  }

  private skip(): void {
    this.peeked = undefined;
  }

  private pop(): void {
    // The stack is never empty here: every state that pops was entered with a push.
    this.state = this.states.pop() ?? END;
  }

  // State dispatch.

  private step(): YamlEvent {
    switch (this.state) {
      case STREAM_START:
        return this.streamStart();
      case IMPLICIT_DOCUMENT_START:
        return this.documentStart(true);
      case DOCUMENT_START:
        return this.documentStart(false);
      case DOCUMENT_CONTENT:
        return this.documentContent();
      case DOCUMENT_END:
        return this.documentEnd();
      case BLOCK_NODE:
        return this.node(true, false);
      case BLOCK_NODE_OR_INDENTLESS_SEQUENCE:
        return this.node(true, true);
      case FLOW_NODE:
        return this.node(false, false);
      case BLOCK_SEQUENCE_FIRST_ENTRY:
        this.skip(); // BLOCK-SEQUENCE-START
        return this.blockSequenceEntry();
      case BLOCK_SEQUENCE_ENTRY:
        return this.blockSequenceEntry();
      case INDENTLESS_SEQUENCE_ENTRY:
        return this.indentlessSequenceEntry();
      case BLOCK_MAPPING_FIRST_KEY:
        this.skip(); // BLOCK-MAPPING-START
        return this.blockMappingKey();
      case BLOCK_MAPPING_KEY:
        return this.blockMappingKey();
      case BLOCK_MAPPING_VALUE:
        return this.blockMappingValue();
      case FLOW_SEQUENCE_FIRST_ENTRY:
        this.skip(); // FLOW-SEQUENCE-START
        return this.flowSequenceEntry(true);
      case FLOW_SEQUENCE_ENTRY:
        return this.flowSequenceEntry(false);
      case FLOW_SEQUENCE_ENTRY_MAPPING_KEY:
        return this.flowSequenceEntryMappingKey();
      case FLOW_SEQUENCE_ENTRY_MAPPING_VALUE:
        return this.flowSequenceEntryMappingValue();
      case FLOW_SEQUENCE_ENTRY_MAPPING_END:
        return this.flowSequenceEntryMappingEnd();
      case FLOW_MAPPING_FIRST_KEY:
        this.skip(); // FLOW-MAPPING-START
        return this.flowMappingKey(true);
      case FLOW_MAPPING_KEY:
        return this.flowMappingKey(false);
      case FLOW_MAPPING_VALUE:
        return this.flowMappingValue(false);
      case FLOW_MAPPING_EMPTY_VALUE:
        return this.flowMappingValue(true);
      default:
        // END is only reached together with the stream-end event, which next() replays.
        throw new DecodeError("yaml", "internal error: parser state past the end of the stream");
    }
  }

  // Stream and documents.

  private streamStart(): YamlEvent {
    const t = this.peek();
    if (t.kind !== "stream-start") fail("did not find expected <stream-start>", t.start);
    this.state = IMPLICIT_DOCUMENT_START;
    this.skip();
    return makeEvent("stream-start", t.start, t.end, "", "", "", "plain", false, false);
  }

  private documentStart(implicit: boolean): YamlEvent {
    let t = this.peek();
    if (!implicit) {
      // Any number of `...` between documents.
      while (t.kind === "document-end") {
        this.skip();
        t = this.peek();
      }
    }
    const k = t.kind;
    if (
      implicit &&
      k !== "version-directive" &&
      k !== "tag-directive" &&
      k !== "document-start" &&
      k !== "stream-end"
    ) {
      // A document without `---`: its content starts right here.
      this.directives();
      this.states.push(DOCUMENT_END);
      this.state = BLOCK_NODE;
      return makeEvent("document-start", t.start, t.end, "", "", "", "plain", true, false);
    }
    if (k !== "stream-end") {
      const start = t.start;
      this.directives();
      t = this.peek();
      if (t.kind !== "document-start") fail("did not find expected <document start>", t.start);
      this.states.push(DOCUMENT_END);
      this.state = DOCUMENT_CONTENT;
      this.skip();
      return makeEvent("document-start", start, t.end, "", "", "", "plain", false, false);
    }
    this.state = END;
    this.skip();
    return makeEvent("stream-end", t.start, t.end, "", "", "", "plain", false, false);
  }

  /**
   * Reads the %YAML and %TAG directives before a document and puts the tag
   * handles in scope: the document's own first, then `!` and `!!` unless it
   * redefined them.
   */
  private directives(): void {
    let t = this.peek();
    let versionSeen = false;
    while (t.kind === "version-directive" || t.kind === "tag-directive") {
      if (t.kind === "version-directive") {
        if (versionSeen) fail("found duplicate %YAML directive", t.start);
        if (t.value !== COMPATIBLE_VERSION) fail("found incompatible YAML document", t.start);
        versionSeen = true;
      } else {
        if (this.handles.includes(t.handle)) fail("found duplicate %TAG directive", t.start);
        this.handles.push(t.handle);
        this.prefixes.push(t.value);
      }
      this.skip();
      t = this.peek();
    }
    if (!this.handles.includes("!")) {
      this.handles.push("!");
      this.prefixes.push("!");
    }
    if (!this.handles.includes("!!")) {
      this.handles.push("!!");
      this.prefixes.push(YAML_TAG_PREFIX);
    }
  }

  private documentContent(): YamlEvent {
    const t = this.peek();
    const k = t.kind;
    if (
      k === "version-directive" ||
      k === "tag-directive" ||
      k === "document-start" ||
      k === "document-end" ||
      k === "stream-end"
    ) {
      // `---` with nothing after it: the document is one empty scalar.
      this.pop();
      return emptyScalar(t.start);
    }
    return this.node(true, false);
  }

  private documentEnd(): YamlEvent {
    const t = this.peek();
    let end = t.start;
    let implicit = true;
    if (t.kind === "document-end") {
      end = t.end;
      this.skip();
      implicit = false;
    }
    // Directives are scoped to their document.
    this.handles.length = 0;
    this.prefixes.length = 0;
    this.state = DOCUMENT_START;
    return makeEvent("document-end", t.start, end, "", "", "", "plain", implicit, false);
  }

  // Nodes.

  /**
   * One node: an alias, or properties (anchor and tag, either order) followed
   * by a scalar, a collection start, or nothing (an empty scalar that keeps
   * the properties). `indentless` allows a `-` sequence at the parent key's
   * own column, which only a block mapping's key or value may hold.
   */
  private node(block: boolean, indentless: boolean): YamlEvent {
    let t = this.peek();
    if (t.kind === "alias") {
      this.pop();
      this.skip();
      return makeEvent("alias", t.start, t.end, t.value, "", "", "plain", false, false);
    }

    let start = t.start;
    let end = t.start;
    let anchor = "";
    let tagged = false;
    let handle = "";
    let suffix = "";
    let tagMark = t.start;
    if (t.kind === "anchor") {
      anchor = t.value;
      end = t.end;
      this.skip();
      t = this.peek();
      if (t.kind === "tag") {
        tagged = true;
        handle = t.handle;
        suffix = t.value;
        tagMark = t.start;
        end = t.end;
        this.skip();
        t = this.peek();
      }
    } else if (t.kind === "tag") {
      tagged = true;
      handle = t.handle;
      suffix = t.value;
      start = t.start;
      tagMark = t.start;
      end = t.end;
      this.skip();
      t = this.peek();
      if (t.kind === "anchor") {
        anchor = t.value;
        end = t.end;
        this.skip();
        t = this.peek();
      }
    }

    let tag = "";
    if (tagged) {
      if (handle === "") {
        // A verbatim tag `!<...>` is taken as written.
        tag = suffix;
      } else {
        const i = this.handles.indexOf(handle);
        if (i >= 0) tag = (this.prefixes[i] ?? "") + suffix;
        // go-yaml takes a handle whose expansion is empty as undefined too.
        if (tag === "") fail("found undefined tag handle", tagMark);
      }
    }
    const untagged = tag === "";

    switch (t.kind) {
      case "block-entry":
        if (!(indentless && block)) break;
        // `key:\n- a`: the sequence's entries sit at the key's column and no
        // BLOCK-SEQUENCE-START token was produced for it.
        this.state = INDENTLESS_SEQUENCE_ENTRY;
        return makeEvent("sequence-start", start, t.end, anchor, tag, "", "plain", untagged, false);
      case "scalar": {
        // go-yaml's plain_implicit: what lets the composer resolve the value.
        const implicit = (untagged && t.style === "plain") || tag === "!";
        this.pop();
        this.skip();
        return makeEvent("scalar", start, t.end, anchor, tag, t.value, t.style, implicit, false);
      }
      case "flow-sequence-start":
        this.state = FLOW_SEQUENCE_FIRST_ENTRY;
        return makeEvent("sequence-start", start, t.end, anchor, tag, "", "plain", untagged, true);
      case "flow-mapping-start":
        this.state = FLOW_MAPPING_FIRST_KEY;
        return makeEvent("mapping-start", start, t.end, anchor, tag, "", "plain", untagged, true);
      case "block-sequence-start":
        if (!block) break;
        this.state = BLOCK_SEQUENCE_FIRST_ENTRY;
        return makeEvent("sequence-start", start, t.end, anchor, tag, "", "plain", untagged, false);
      case "block-mapping-start":
        if (!block) break;
        this.state = BLOCK_MAPPING_FIRST_KEY;
        return makeEvent("mapping-start", start, t.end, anchor, tag, "", "plain", untagged, false);
      default:
        break;
    }
    if (anchor !== "" || tagged) {
      // Properties with no content: an empty scalar that carries them. Only an
      // untagged one is implicit (`!` with nothing after it is not).
      this.pop();
      return makeEvent("scalar", start, end, anchor, tag, "", "plain", untagged, false);
    }
    return fail("did not find expected node content", t.start);
  }

  // Block collections.

  private blockSequenceEntry(): YamlEvent {
    let t = this.peek();
    if (t.kind === "block-entry") {
      const mark = t.end;
      this.skip();
      t = this.peek();
      if (t.kind !== "block-entry" && t.kind !== "block-end") {
        this.states.push(BLOCK_SEQUENCE_ENTRY);
        return this.node(true, false);
      }
      this.state = BLOCK_SEQUENCE_ENTRY;
      return emptyScalar(mark);
    }
    if (t.kind === "block-end") {
      this.pop();
      this.skip();
      return makeEvent("sequence-end", t.start, t.end, "", "", "", "plain", false, false);
    }
    return fail("did not find expected '-' indicator", t.start);
  }

  private indentlessSequenceEntry(): YamlEvent {
    let t = this.peek();
    if (t.kind === "block-entry") {
      const mark = t.end;
      this.skip();
      t = this.peek();
      const k = t.kind;
      if (k !== "block-entry" && k !== "key" && k !== "value" && k !== "block-end") {
        this.states.push(INDENTLESS_SEQUENCE_ENTRY);
        return this.node(true, false);
      }
      this.state = INDENTLESS_SEQUENCE_ENTRY;
      return emptyScalar(mark);
    }
    // The sequence ends where the next key (or the mapping's end) begins; that token stays.
    this.pop();
    return makeEvent("sequence-end", t.start, t.start, "", "", "", "plain", false, false);
  }

  private blockMappingKey(): YamlEvent {
    let t = this.peek();
    if (t.kind === "key") {
      const mark = t.end;
      this.skip();
      t = this.peek();
      if (t.kind !== "key" && t.kind !== "value" && t.kind !== "block-end") {
        this.states.push(BLOCK_MAPPING_VALUE);
        return this.node(true, true);
      }
      this.state = BLOCK_MAPPING_VALUE;
      return emptyScalar(mark);
    }
    if (t.kind === "block-end") {
      this.pop();
      this.skip();
      return makeEvent("mapping-end", t.start, t.end, "", "", "", "plain", false, false);
    }
    return fail("did not find expected key", t.start);
  }

  private blockMappingValue(): YamlEvent {
    let t = this.peek();
    if (t.kind === "value") {
      const mark = t.end;
      this.skip();
      t = this.peek();
      if (t.kind !== "key" && t.kind !== "value" && t.kind !== "block-end") {
        this.states.push(BLOCK_MAPPING_KEY);
        return this.node(true, true);
      }
      this.state = BLOCK_MAPPING_KEY;
      return emptyScalar(mark);
    }
    // A key with no `:` after it has an empty value, placed at the next token.
    this.state = BLOCK_MAPPING_KEY;
    return emptyScalar(t.start);
  }

  // Flow collections.

  private flowSequenceEntry(first: boolean): YamlEvent {
    let t = this.peek();
    if (t.kind !== "flow-sequence-end") {
      if (!first) {
        if (t.kind !== "flow-entry") fail("did not find expected ',' or ']'", t.start);
        this.skip();
        t = this.peek();
      }
      if (t.kind === "key") {
        // `[a: b]`: a single-pair mapping as an entry of the sequence.
        this.state = FLOW_SEQUENCE_ENTRY_MAPPING_KEY;
        this.skip();
        return makeEvent("mapping-start", t.start, t.end, "", "", "", "plain", true, true);
      }
      if (t.kind !== "flow-sequence-end") {
        this.states.push(FLOW_SEQUENCE_ENTRY);
        return this.node(false, false);
      }
    }
    this.pop();
    this.skip();
    return makeEvent("sequence-end", t.start, t.end, "", "", "", "plain", false, false);
  }

  private flowSequenceEntryMappingKey(): YamlEvent {
    const t = this.peek();
    if (t.kind !== "value" && t.kind !== "flow-entry" && t.kind !== "flow-sequence-end") {
      this.states.push(FLOW_SEQUENCE_ENTRY_MAPPING_VALUE);
      return this.node(false, false);
    }
    // go-yaml consumes the token after an empty key here, whatever it is; a
    // `,` or `]` taken this way is not seen again by the sequence.
    const mark = t.end;
    this.skip();
    this.state = FLOW_SEQUENCE_ENTRY_MAPPING_VALUE;
    return emptyScalar(mark);
  }

  private flowSequenceEntryMappingValue(): YamlEvent {
    const t = this.peek();
    if (t.kind === "value") {
      this.skip();
      const after = this.peek();
      if (after.kind !== "flow-entry" && after.kind !== "flow-sequence-end") {
        this.states.push(FLOW_SEQUENCE_ENTRY_MAPPING_END);
        return this.node(false, false);
      }
    }
    // An empty value sits at the start of the `:` itself when there is one
    // (`[a: ]`), not at the `,` or `]` after it: go-yaml marks it so.
    this.state = FLOW_SEQUENCE_ENTRY_MAPPING_END;
    return emptyScalar(t.start);
  }

  private flowSequenceEntryMappingEnd(): YamlEvent {
    const t = this.peek();
    this.state = FLOW_SEQUENCE_ENTRY;
    return makeEvent("mapping-end", t.start, t.start, "", "", "", "plain", false, false);
  }

  private flowMappingKey(first: boolean): YamlEvent {
    let t = this.peek();
    if (t.kind !== "flow-mapping-end") {
      if (!first) {
        if (t.kind !== "flow-entry") fail("did not find expected ',' or '}'", t.start);
        this.skip();
        t = this.peek();
      }
      if (t.kind === "key") {
        this.skip();
        t = this.peek();
        if (t.kind !== "value" && t.kind !== "flow-entry" && t.kind !== "flow-mapping-end") {
          this.states.push(FLOW_MAPPING_VALUE);
          return this.node(false, false);
        }
        this.state = FLOW_MAPPING_VALUE;
        return emptyScalar(t.start);
      }
      if (t.kind !== "flow-mapping-end") {
        // `{a}`: a key with no `:` has an empty value.
        this.states.push(FLOW_MAPPING_EMPTY_VALUE);
        return this.node(false, false);
      }
    }
    this.pop();
    this.skip();
    return makeEvent("mapping-end", t.start, t.end, "", "", "", "plain", false, false);
  }

  private flowMappingValue(empty: boolean): YamlEvent {
    let t = this.peek();
    if (empty) {
      this.state = FLOW_MAPPING_KEY;
      return emptyScalar(t.start);
    }
    if (t.kind === "value") {
      this.skip();
      t = this.peek();
      if (t.kind !== "flow-entry" && t.kind !== "flow-mapping-end") {
        this.states.push(FLOW_MAPPING_KEY);
        return this.node(false, false);
      }
    }
    this.state = FLOW_MAPPING_KEY;
    return emptyScalar(t.start);
  }
}

/** Anything but a DecodeError escaping the scanner is a bug; it still leaves as a DecodeError. */
function internal(e: unknown): DecodeError {
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new DecodeError("yaml", `internal error: ${what}`);
}
