// syntax.ts declares the YAML reader's vocabulary, types only. Each union and shape is written
// out below as a Record over it, so the type checker refuses this file when a member is added
// or dropped; the scanner and the event parser are then held to produce exactly those: every
// kind, every style, and every token or event with exactly the declared fields.

import { describe, expect, it } from "vitest";
import { YamlEventParser } from "../../../../src/networking/text/yaml/events.js";
import { YamlScanner } from "../../../../src/networking/text/yaml/scanner.js";
import type {
  YamlEvent,
  YamlEventKind,
  YamlMark,
  YamlScalarStyle,
  YamlToken,
  YamlTokenKind,
} from "../../../../src/networking/text/yaml/syntax.js";

const TOKEN_KINDS: Record<YamlTokenKind, true> = {
  "stream-start": true,
  "stream-end": true,
  "version-directive": true,
  "tag-directive": true,
  "document-start": true,
  "document-end": true,
  "block-sequence-start": true,
  "block-mapping-start": true,
  "block-end": true,
  "flow-sequence-start": true,
  "flow-sequence-end": true,
  "flow-mapping-start": true,
  "flow-mapping-end": true,
  "block-entry": true,
  "flow-entry": true,
  key: true,
  value: true,
  alias: true,
  anchor: true,
  tag: true,
  scalar: true,
};
const EVENT_KINDS: Record<YamlEventKind, true> = {
  "stream-start": true,
  "stream-end": true,
  "document-start": true,
  "document-end": true,
  alias: true,
  scalar: true,
  "sequence-start": true,
  "sequence-end": true,
  "mapping-start": true,
  "mapping-end": true,
};
const STYLES: Record<YamlScalarStyle, true> = { plain: true, single: true, double: true, literal: true, folded: true };
const TOKEN_FIELDS: Record<keyof YamlToken, true> = {
  kind: true,
  start: true,
  end: true,
  value: true,
  handle: true,
  style: true,
};
const EVENT_FIELDS: Record<keyof YamlEvent, true> = {
  kind: true,
  start: true,
  end: true,
  anchor: true,
  tag: true,
  value: true,
  style: true,
  implicit: true,
  flow: true,
};
const MARK_FIELDS: Record<keyof YamlMark, true> = { offset: true, line: true, column: true };

/** A document with every token kind, event kind and scalar style in it. */
const EVERYTHING = `%YAML 1.01
%TAG !e! tag:example.com,2000:
---
plain: a
single: 'b'
double: "c"
literal: |
  d
folded: >
  e
block:
  - &anchor x
  - *anchor
  - !e!foo y
  - !<tag:v> z
  - !!str w
  - ! q
flow: [1, {k: v}]
? complex
: value
...
`;

function tokens(text: string): YamlToken[] {
  const scanner = new YamlScanner(text);
  const out: YamlToken[] = [];
  for (let t = scanner.next(); ; t = scanner.next()) {
    out.push(t);
    if (t.kind === "stream-end") return out;
  }
}

function events(text: string): YamlEvent[] {
  const parser = new YamlEventParser(text);
  const out: YamlEvent[] = [];
  for (let e = parser.next(); ; e = parser.next()) {
    out.push(e);
    if (e.kind === "stream-end") return out;
  }
}

const keys = (o: object): string[] => Object.keys(o).sort();

describe("YamlToken", () => {
  const all = tokens(EVERYTHING);

  it("the scanner produces every kind the union names, and no other", () => {
    expect([...new Set(all.map((t) => t.kind))].sort()).toEqual(keys(TOKEN_KINDS));
  });

  it("every token has exactly the declared fields, and marks theirs", () => {
    for (const t of all) {
      expect(keys(t)).toEqual(keys(TOKEN_FIELDS));
      expect(keys(t.start)).toEqual(keys(MARK_FIELDS));
      expect(keys(t.end)).toEqual(keys(MARK_FIELDS));
      expect(t.start.offset <= t.end.offset).toBe(true);
    }
  });

  it("scalar styles are the five the union names; non-scalars are plain", () => {
    expect([...new Set(all.filter((t) => t.kind === "scalar").map((t) => t.style))].sort()).toEqual(keys(STYLES));
    expect(all.filter((t) => t.kind !== "scalar").every((t) => t.style === "plain")).toBe(true);
  });

  it("value and handle hold what the field comments say", () => {
    const find = (kind: YamlTokenKind, value?: string): YamlToken | undefined =>
      all.find((t) => t.kind === kind && (value === undefined || t.value === value));
    expect(find("version-directive")).toMatchObject({ value: "1.1", handle: "" });
    expect(find("tag-directive")).toMatchObject({ value: "tag:example.com,2000:", handle: "!e!" });
    expect(find("anchor")).toMatchObject({ value: "anchor" });
    expect(find("alias")).toMatchObject({ value: "anchor" });
    expect(find("tag", "foo")?.handle).toBe("!e!");
    expect(find("tag", "str")?.handle).toBe("!!");
    expect(find("tag", "tag:v")?.handle).toBe(""); // verbatim
    expect(find("scalar", "d\n")?.style).toBe("literal");
    expect(all.filter((t) => t.kind === "key").every((t) => t.value === "" && t.handle === "")).toBe(true);
  });
});

describe("YamlEvent", () => {
  const all = events(EVERYTHING);

  it("the parser produces every kind the union names, and no other", () => {
    expect([...new Set(all.map((e) => e.kind))].sort()).toEqual(keys(EVENT_KINDS));
  });

  it("every event has exactly the declared fields", () => {
    for (const e of all) {
      expect(keys(e)).toEqual(keys(EVENT_FIELDS));
      expect(keys(e.start)).toEqual(keys(MARK_FIELDS));
    }
  });

  it("tags are resolved through %TAG; ! is the non-specific tag; implicit and flow as documented", () => {
    const scalar = (value: string): YamlEvent | undefined => all.find((e) => e.kind === "scalar" && e.value === value);
    expect(scalar("y")?.tag).toBe("tag:example.com,2000:foo");
    expect(scalar("w")?.tag).toBe("tag:yaml.org,2002:str");
    expect(scalar("z")?.tag).toBe("tag:v");
    expect(scalar("q")).toMatchObject({ tag: "!", implicit: true });
    expect(scalar("a")).toMatchObject({ tag: "", implicit: true, style: "plain" });
    expect(scalar("b")).toMatchObject({ implicit: false, style: "single" });
    expect(scalar("x")?.anchor).toBe("anchor");
    expect(all.find((e) => e.kind === "alias")?.anchor).toBe("anchor");
    expect(all.filter((e) => e.kind === "sequence-start").map((e) => e.flow)).toEqual([false, true]);
    expect(all.filter((e) => e.kind === "mapping-start").map((e) => e.flow)).toEqual([false, true]);
    // Both markers are written, so neither document event is implicit.
    expect(all.filter((e) => e.kind.startsWith("document-")).map((e) => e.implicit)).toEqual([false, false]);
    expect(
      events("a: b\n")
        .filter((e) => e.kind.startsWith("document-"))
        .map((e) => e.implicit),
    ).toEqual([true, true]);
  });
});

describe("YamlMark", () => {
  it("offset in UTF-16 units, column in code points; LF, CR LF, NEL, LS and PS each end a line", () => {
    const scalars = tokens("\u{1F600}: x\u0085b: y\r\nc: z\u2028d: w\u2029e: v\rf: u").filter(
      (t) => t.kind === "scalar",
    );
    expect(scalars.map((t) => [t.value, t.start.offset, t.start.line, t.start.column])).toEqual([
      ["\u{1F600}", 0, 0, 0],
      ["x", 4, 0, 3],
      ["b", 6, 1, 0],
      ["y", 9, 1, 3],
      ["c", 12, 2, 0],
      ["z", 15, 2, 3],
      ["d", 17, 3, 0],
      ["w", 20, 3, 3],
      ["e", 22, 4, 0],
      ["v", 25, 4, 3],
      ["f", 27, 5, 0],
      ["u", 30, 5, 3],
    ]);
  });
});
