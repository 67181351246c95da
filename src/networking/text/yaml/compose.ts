/**
 * The composer of clusterwire's YAML reader. It pulls events from the event
 * parser (events.ts) the way go-yaml v2's decode.go does: the stream start,
 * then at most one document, and nothing after that document's end (what the
 * API server's sigs.k8s.io/yaml `YAMLToJSON` reads of a body), and builds
 * that document's node tree. decode.ts turns the tree into a JSON value.
 * Callers may ask for a nesting limit stricter than go-yaml's 10,000 levels
 * (`maxDepth`). Nothing recurses per level.
 *
 * Hand-written because the `yaml` package follows YAML 1.2 and could not be
 * bent to go-yaml v2 (docs/yaml-differential.md: 76 classes of disagreement).
 */
import { DecodeError } from "../../model/errors.js";
import { YamlEventParser } from "./events.js";
import type { YamlEvent, YamlMark, YamlScalarStyle } from "./syntax.js";

export type YamlNodeKind = "scalar" | "mapping" | "sequence" | "alias";

/** One node of a composed document. Every node has the same shape. */
export interface YamlNode {
  readonly kind: YamlNodeKind;
  /** Where the node's event starts (for an alias, the `*`). */
  readonly start: YamlMark;
  /** Where it ends: a scalar's or alias's end, a collection's end event's end. */
  end: YamlMark;
  /** The resolved tag ("" when none). */
  readonly tag: string;
  /** scalar: its text; alias: the anchor name it refers to. */
  readonly value: string;
  /** scalar: go-yaml's `implicit` (plain and untagged, or tagged `!`). */
  readonly implicit: boolean;
  readonly style: YamlScalarStyle;
  /** sequence: the items; mapping: key, value, key, value, ... */
  readonly children: YamlNode[];
  /** alias: the node its anchor named when the alias was read. */
  readonly target: YamlNode | undefined;
}

/**
 * No nesting limit of clusterwire's own: go-yaml's scanner refuses more than
 * 10,000 levels ("exceeded max depth of 10000"), and that is the limit the
 * API server has. Callers may ask for a stricter one (`maxDepth`).
 */
export const NO_DEPTH_LIMIT = Number.POSITIVE_INFINITY;

/** The caller's depth limit as a whole number of levels; none (go-yaml's own) when not given. */
export function clampDepth(requested: number | undefined): number {
  if (requested === undefined || Number.isNaN(requested)) return NO_DEPTH_LIMIT;
  return Math.max(0, Math.floor(requested));
}

/** A DecodeError at `mark` of the text read. */
export function errorAt(reason: string, mark: YamlMark): DecodeError {
  return new DecodeError("yaml", reason, { line: mark.line + 1, column: mark.column + 1, offset: mark.offset });
}

/** Throws {@link errorAt}'s error. */
export function failAt(reason: string, mark: YamlMark): never {
  throw errorAt(reason, mark);
}

function makeNode(kind: YamlNodeKind, e: YamlEvent, target: YamlNode | undefined): YamlNode {
  return {
    kind,
    start: e.start,
    end: e.end,
    tag: e.tag,
    value: kind === "alias" ? e.anchor : e.value,
    implicit: e.implicit,
    style: e.style,
    children: [],
    target,
  };
}

/** Pulls events from a parser; the composer needs no more than this. */
interface YamlEventSource {
  next(): YamlEvent;
}

/**
 * The first document of `text` as go-yaml v2's parser builds it, or undefined
 * when the stream holds no document (empty, or only comments). Events after
 * the first document's end are never pulled, so errors there are not seen,
 * as go-yaml does not see them. Collections nested deeper than `maxDepth`
 * are refused as soon as they start; the build is iterative.
 */
export function composeFirstDocument(text: string, maxDepth: number): YamlNode | undefined {
  return composeFrom(new YamlEventParser(text), maxDepth);
}

function composeFrom(events: YamlEventSource, maxDepth: number): YamlNode | undefined {
  let e = events.next();
  if (e.kind !== "stream-start") failAt(`expected STREAM-START event but got ${e.kind}`, e.start);
  e = events.next();
  if (e.kind === "stream-end") return undefined;
  if (e.kind !== "document-start") failAt(`expected DOCUMENT-START event but got ${e.kind}`, e.start);
  // go-yaml keeps one anchor table per document; a later anchor of the same
  // name replaces an earlier one, and an alias takes the one current when it
  // is read. An anchor is registered when its node starts, so an alias inside
  // the node refers to the node itself (caught when decoding).
  const anchors = new Map<string, YamlNode>();
  const open: YamlNode[] = [];
  let root: YamlNode | undefined;
  for (;;) {
    e = events.next();
    let node: YamlNode;
    switch (e.kind) {
      case "scalar":
        node = makeNode("scalar", e, undefined);
        if (e.anchor !== "") anchors.set(e.anchor, node);
        break;
      case "alias": {
        const target = anchors.get(e.anchor);
        if (target === undefined) failAt(`unknown anchor '${e.anchor}' referenced`, e.start);
        node = makeNode("alias", e, target);
        break;
      }
      case "sequence-start":
      case "mapping-start":
        if (open.length + 1 > maxDepth) failAt(`nesting deeper than ${maxDepth}`, e.start);
        node = makeNode(e.kind === "sequence-start" ? "sequence" : "mapping", e, undefined);
        if (e.anchor !== "") anchors.set(e.anchor, node);
        break;
      case "sequence-end":
      case "mapping-end": {
        const closed = open.pop();
        if (closed === undefined) return failAt(`unexpected ${e.kind} event`, e.start);
        closed.end = e.end;
        if (open.length === 0) return finishDocument(events);
        continue;
      }
      default:
        return failAt(`unexpected ${e.kind} event inside a document`, e.start);
    }
    const parent = open[open.length - 1];
    if (parent !== undefined) parent.children.push(node);
    else root = node;
    if (node.kind === "sequence" || node.kind === "mapping") open.push(node);
    else if (open.length === 0) return finishDocument(events);
  }

  function finishDocument(source: YamlEventSource): YamlNode | undefined {
    const end = source.next();
    if (end.kind !== "document-end") failAt(`expected DOCUMENT-END event but got ${end.kind}`, end.start);
    return root;
  }
}
