/**
 * The vocabulary shared by clusterwire's YAML reader: positions, the tokens
 * the scanner (yaml-scanner.ts) produces and the events the parser
 * (yaml-events.ts) builds from them. They are the token and event kinds of
 * go-yaml v2 (itself a port of libyaml), because the reader follows go-yaml
 * v2's rules exactly: the API server and kubectl read YAML through it.
 */

/** A position in the text being read. */
export interface YamlMark {
  /** Offset in UTF-16 code units into the text, as JavaScript strings index it. */
  readonly offset: number;
  /** 0-based line, counted as go-yaml counts: LF, CR, CRLF, NEL, LS and PS each end a line. */
  readonly line: number;
  /** 0-based column in characters (code points), as go-yaml counts it. */
  readonly column: number;
}

export type YamlScalarStyle = "plain" | "single" | "double" | "literal" | "folded";

export type YamlTokenKind =
  | "stream-start"
  | "stream-end"
  | "version-directive"
  | "tag-directive"
  | "document-start"
  | "document-end"
  | "block-sequence-start"
  | "block-mapping-start"
  | "block-end"
  | "flow-sequence-start"
  | "flow-sequence-end"
  | "flow-mapping-start"
  | "flow-mapping-end"
  | "block-entry"
  | "flow-entry"
  | "key"
  | "value"
  | "alias"
  | "anchor"
  | "tag"
  | "scalar";

/** One token. Every token has the same shape, so the hot loop sees one hidden class. */
export interface YamlToken {
  readonly kind: YamlTokenKind;
  readonly start: YamlMark;
  readonly end: YamlMark;
  /**
   * scalar: its value, escapes and folding applied; alias, anchor: the name;
   * tag: the suffix; tag-directive: the prefix; version-directive:
   * `${major}.${minor}` as numbers (`1.01` gives "1.1"); otherwise "".
   */
  readonly value: string;
  /** tag and tag-directive: the handle (`!`, `!!`, `!foo!`, or "" for a verbatim `!<...>` tag); otherwise "". */
  readonly handle: string;
  /** scalar: its style; otherwise "plain". */
  readonly style: YamlScalarStyle;
}

export type YamlEventKind =
  | "stream-start"
  | "stream-end"
  | "document-start"
  | "document-end"
  | "alias"
  | "scalar"
  | "sequence-start"
  | "sequence-end"
  | "mapping-start"
  | "mapping-end";

/** One parser event, with go-yaml v2's fields. Every event has the same shape. */
export interface YamlEvent {
  readonly kind: YamlEventKind;
  readonly start: YamlMark;
  readonly end: YamlMark;
  /** scalar, sequence-start, mapping-start: the anchor name or ""; alias: the name it refers to. */
  readonly anchor: string;
  /** The tag with its handle resolved through the document's %TAG directives (`tag:yaml.org,2002:str`), "!" for the non-specific tag, or "". */
  readonly tag: string;
  /** scalar: its value; otherwise "". */
  readonly value: string;
  /** scalar: its style; otherwise "plain". */
  readonly style: YamlScalarStyle;
  /**
   * scalar: go-yaml's `implicit` (plain with no tag, or the tag is "!"), which
   * is what makes go-yaml resolve the value (bool, int, float, null, ...).
   * sequence-start, mapping-start: true when untagged. document-start,
   * document-end: true when the `---` / `...` marker is absent.
   */
  readonly implicit: boolean;
  /** sequence-start, mapping-start: written in flow style (`[...]`, `{...}`). */
  readonly flow: boolean;
}
