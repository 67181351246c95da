/**
 * YamlEventParser against go-yaml v2: every expected event list, mark and
 * error below was printed by go-yaml v2.4.0's own parser (yaml_parser_parse)
 * on the same text, not written by hand. The notation is yaml-test-suite's:
 * `+MAP {}` is a flow mapping, `=VAL :a` a plain scalar "a" (`'` single, `"`
 * double, `|` literal, `>` folded), `<tag>` the resolved tag, `&a` an anchor,
 * and `!implicit` marks a scalar go-yaml does not resolve (a quoted or tagged
 * one). `+DOC ---` and `-DOC ...` are documents with their markers written.
 */
import { describe, expect, it } from "vitest";
import { DecodeError } from "../../../../src/networking/model/errors.js";
import { YamlEventParser, type YamlTokenSource } from "../../../../src/networking/text/yaml/events.js";
import type { YamlEvent, YamlMark, YamlToken, YamlTokenKind } from "../../../../src/networking/text/yaml/syntax.js";

const STYLE = { plain: ":", single: "'", double: '"', literal: "|", folded: ">" } as const;

function show(e: YamlEvent): string {
  const props = (e.anchor !== "" ? ` &${e.anchor}` : "") + (e.tag !== "" ? ` <${e.tag}>` : "");
  switch (e.kind) {
    case "stream-start":
      return "+STR";
    case "stream-end":
      return "-STR";
    case "document-start":
      return e.implicit ? "+DOC" : "+DOC ---";
    case "document-end":
      return e.implicit ? "-DOC" : "-DOC ...";
    case "mapping-start":
      return `+MAP${e.flow ? " {}" : ""}${props}`;
    case "sequence-start":
      return `+SEQ${e.flow ? " []" : ""}${props}`;
    case "mapping-end":
      return "-MAP";
    case "sequence-end":
      return "-SEQ";
    case "alias":
      return `=ALI *${e.anchor}`;
    case "scalar":
      return `=VAL${props} ${STYLE[e.style]}${JSON.stringify(e.value).slice(1, -1)}${e.implicit ? "" : " !implicit"}`;
  }
}

const span = (e: YamlEvent): string => `${e.start.line}:${e.start.column}-${e.end.line}:${e.end.column}`;

/** Every event up to stream-end, or up to the error, which is returned too. */
function run(parser: YamlEventParser): { events: YamlEvent[]; error: DecodeError | undefined } {
  const events: YamlEvent[] = [];
  for (let i = 0; i < 10_000_000; i++) {
    let e: YamlEvent;
    try {
      e = parser.next();
    } catch (x) {
      if (x instanceof DecodeError) return { events, error: x };
      throw x;
    }
    events.push(e);
    if (e.kind === "stream-end") return { events, error: undefined };
  }
  throw new Error("no stream-end");
}

const trace = (text: string): string[] => {
  const { events, error } = run(new YamlEventParser(text));
  if (error !== undefined) throw error;
  return events.map(show);
};
const spans = (text: string): string[] => run(new YamlEventParser(text)).events.map(span);

/** The events before the error, and the error's reason and 1-based line, column and offset. */
function failure(text: string): { events: string[]; reason: string; line?: number; column?: number; offset?: number } {
  const { events, error } = run(new YamlEventParser(text));
  if (error === undefined) throw new Error(`no error for ${JSON.stringify(text)}`);
  return {
    events: events.map(show),
    reason: error.reason,
    ...(error.line !== undefined ? { line: error.line } : {}),
    ...(error.column !== undefined ? { column: error.column } : {}),
    ...(error.offset !== undefined ? { offset: error.offset } : {}),
  };
}

describe("YamlEventParser: event sequences as go-yaml v2 produces them", () => {
  it("a block mapping holding an indentless sequence, which ends at the next key", () => {
    const text = "a:\n- b\n- c\nd: e";
    expect(trace(text)).toEqual([
      "+STR",
      "+DOC",
      "+MAP",
      "=VAL :a",
      "+SEQ",
      "=VAL :b",
      "=VAL :c",
      "-SEQ",
      "=VAL :d",
      "=VAL :e",
      "-MAP",
      "-DOC",
      "-STR",
    ]);
    // The indentless sequence starts at its first `-` and ends, zero-width, where `d` begins.
    expect(spans(text)).toEqual([
      "0:0-0:0",
      "0:0-0:0",
      "0:0-0:0",
      "0:0-0:1",
      "1:0-1:1",
      "1:2-1:3",
      "2:2-2:3",
      "3:0-3:0",
      "3:0-3:1",
      "3:3-3:4",
      "4:0-4:0",
      "4:0-4:0",
      "4:0-4:0",
    ]);
  });

  it("flow collections, and a single-pair mapping inside a flow sequence", () => {
    expect(trace("[a, b c: d]")).toEqual([
      "+STR",
      "+DOC",
      "+SEQ []",
      "=VAL :a",
      "+MAP {}",
      "=VAL :b c",
      "=VAL :d",
      "-MAP",
      "-SEQ",
      "-DOC",
      "-STR",
    ]);
    expect(spans("[a, b c: d]")).toEqual([
      "0:0-0:0",
      "0:0-0:1",
      "0:0-0:1",
      "0:1-0:2",
      "0:4-0:4",
      "0:4-0:7",
      "0:9-0:10",
      "0:10-0:10",
      "0:10-0:11",
      "1:0-1:0",
      "1:0-1:0",
    ]);
    expect(trace("{a: b, c d: e f}")).toEqual([
      "+STR",
      "+DOC",
      "+MAP {}",
      "=VAL :a",
      "=VAL :b",
      "=VAL :c d",
      "=VAL :e f",
      "-MAP",
      "-DOC",
      "-STR",
    ]);
  });

  it("empty keys and values in flow mappings are empty plain scalars at go-yaml's marks", () => {
    // `{a}` gives a an empty value at the `,`; `b: ` an empty value at the `,`.
    const f = failure("{a, b: , : c, ? d}");
    expect(f.events).toEqual(["+STR", "+DOC", "+MAP {}", "=VAL :a", "=VAL :", "=VAL :b", "=VAL :"]);
    expect(spans("{a, b: , : c, ? d}")).toEqual([
      "0:0-0:0",
      "0:0-0:1",
      "0:0-0:1",
      "0:1-0:2",
      "0:2-0:2",
      "0:4-0:5",
      "0:7-0:7",
    ]);
    expect(f).toMatchObject({ reason: "did not find expected node content", line: 1, column: 10, offset: 9 });
  });

  it("an empty value of a single-pair mapping in a flow sequence sits at the `:`", () => {
    expect(trace("[a: ]")).toEqual([
      "+STR",
      "+DOC",
      "+SEQ []",
      "+MAP {}",
      "=VAL :a",
      "=VAL :",
      "-MAP",
      "-SEQ",
      "-DOC",
      "-STR",
    ]);
    expect(spans("[a: ]")[5]).toBe("0:2-0:2");
  });

  it("empty block sequence entries, and a sequence nested on the entry's line", () => {
    const text = "- \n-\n- - \n  -";
    expect(trace(text)).toEqual([
      "+STR",
      "+DOC",
      "+SEQ",
      "=VAL :",
      "=VAL :",
      "+SEQ",
      "=VAL :",
      "=VAL :",
      "-SEQ",
      "-SEQ",
      "-DOC",
      "-STR",
    ]);
    // An empty entry sits right after its `-`.
    expect(spans(text).slice(3, 8)).toEqual(["0:1-0:1", "1:1-1:1", "2:2-2:2", "2:3-2:3", "3:3-3:3"]);
  });

  it("explicit keys and a key without a value", () => {
    const f = failure("? a\n? b\n: c\n: d");
    expect(f.events).toEqual(["+STR", "+DOC", "+MAP", "=VAL :a", "=VAL :", "=VAL :b", "=VAL :c"]);
    // The missing value of `a` is placed at the next key's `?`.
    expect(spans("? a\n? b\n: c\n: d")[4]).toBe("1:0-1:0");
    expect(f).toMatchObject({ reason: "did not find expected key", line: 4, column: 1, offset: 12 });
  });

  it("scalar styles: only plain untagged scalars are implicit", () => {
    expect(trace("a: |\n  x\nb: >-\n  y\nc: 's'\nd: \"t\"")).toEqual([
      "+STR",
      "+DOC",
      "+MAP",
      "=VAL :a",
      "=VAL |x\\n !implicit",
      "=VAL :b",
      "=VAL >y !implicit",
      "=VAL :c",
      "=VAL 's !implicit",
      "=VAL :d",
      '=VAL "t !implicit',
      "-MAP",
      "-DOC",
      "-STR",
    ]);
  });

  it("properties in either order, tags resolved through the handles, the non-specific tag `!`", () => {
    expect(trace("&a !!str b")).toEqual([
      "+STR",
      "+DOC",
      "=VAL &a <tag:yaml.org,2002:str> :b !implicit",
      "-DOC",
      "-STR",
    ]);
    expect(spans("&a !!str b")[2]).toBe("0:0-0:10");
    expect(trace("!!str &a b")).toEqual(trace("&a !!str b"));
    expect(trace("--- !<tag:x> y")).toEqual(["+STR", "+DOC ---", "=VAL <tag:x> :y !implicit", "-DOC", "-STR"]);
    // `!` keeps a scalar implicit, even a quoted one, unless it has no content.
    expect(trace('- !\n- ! a\n- !!str\n- "q"\n- ! "q"\n- &z')).toEqual([
      "+STR",
      "+DOC",
      "+SEQ",
      "=VAL <!> : !implicit",
      "=VAL <!> :a",
      "=VAL <tag:yaml.org,2002:str> : !implicit",
      '=VAL "q !implicit',
      '=VAL <!> "q',
      "=VAL &z :",
      "-SEQ",
      "-DOC",
      "-STR",
    ]);
    // Properties without content end where the properties end.
    expect(spans('- !\n- ! a\n- !!str\n- "q"\n- ! "q"\n- &z').slice(3, 9)).toEqual([
      "0:2-0:3",
      "1:2-1:5",
      "2:2-2:7",
      "3:2-3:5",
      "4:2-4:7",
      "5:2-5:4",
    ]);
  });

  it("collections carry their properties; untagged collections are implicit", () => {
    const events = run(new YamlEventParser("&m !!map {a: &s !!seq [b]}")).events;
    expect(events.map(show)).toEqual([
      "+STR",
      "+DOC",
      "+MAP {} &m <tag:yaml.org,2002:map>",
      "=VAL :a",
      "+SEQ [] &s <tag:yaml.org,2002:seq>",
      "=VAL :b",
      "-SEQ",
      "-MAP",
      "-DOC",
      "-STR",
    ]);
    expect(
      events
        .filter((e) => e.kind.endsWith("-start") && e.kind !== "stream-start" && e.kind !== "document-start")
        .map((e) => e.implicit),
    ).toEqual([false, false]);
    const plain = run(new YamlEventParser("a: [b]")).events.filter(
      (e) => e.kind === "mapping-start" || e.kind === "sequence-start",
    );
    expect(plain.map((e) => e.implicit)).toEqual([true, true]);
  });

  it("anchors and aliases", () => {
    expect(trace("a: &x\nb: *x")).toEqual([
      "+STR",
      "+DOC",
      "+MAP",
      "=VAL :a",
      "=VAL &x :",
      "=VAL :b",
      "=ALI *x",
      "-MAP",
      "-DOC",
      "-STR",
    ]);
    expect(spans("a: &x\nb: *x").slice(4, 7)).toEqual(["0:3-0:5", "1:0-1:1", "1:3-1:5"]);
  });

  it("documents: markers, `...`, and empty documents as one empty scalar", () => {
    const text = "---\n...\n--- \n---\n";
    expect(trace(text)).toEqual([
      "+STR",
      "+DOC ---",
      "=VAL :",
      "-DOC ...",
      "+DOC ---",
      "=VAL :",
      "-DOC",
      "+DOC ---",
      "=VAL :",
      "-DOC",
      "-STR",
    ]);
    expect(spans(text)).toEqual([
      "0:0-0:0",
      "0:0-0:3",
      "1:0-1:0",
      "1:0-1:3",
      "2:0-2:3",
      "3:0-3:0",
      "3:0-3:0",
      "3:0-3:3",
      "4:0-4:0",
      "4:0-4:0",
      "4:0-4:0",
    ]);
    expect(trace("")).toEqual(["+STR", "-STR"]);
  });

  it("%TAG directives: a handle of the document's own, `!` and `!!` redefined", () => {
    expect(trace("%TAG ! a:\n--- !x b")).toEqual(["+STR", "+DOC ---", "=VAL <a:x> :b !implicit", "-DOC", "-STR"]);
    expect(spans("%TAG ! a:\n--- !x b")[1]).toBe("0:0-1:3");
    expect(trace("%TAG !! tag:e,\n--- !!x a")).toEqual([
      "+STR",
      "+DOC ---",
      "=VAL <tag:e,x> :a !implicit",
      "-DOC",
      "-STR",
    ]);
    expect(trace("%YAML 1.1\n%TAG !e! tag:e,\n--- !e!x [a]")).toEqual([
      "+STR",
      "+DOC ---",
      "+SEQ [] <tag:e,x>",
      "=VAL :a",
      "-SEQ",
      "-DOC",
      "-STR",
    ]);
  });

  it("after stream-end it returns stream-end again", () => {
    const p = new YamlEventParser("a");
    const { events } = run(p);
    const end = events.at(-1);
    expect(end?.kind).toBe("stream-end");
    expect(p.next()).toBe(end);
    expect(p.next()).toBe(end);
  });

  it("every event has the same fields (one object shape)", () => {
    const { events } = run(new YamlEventParser("%TAG !e! x:\n--- &a !e!m {b: [*a, 'c', \"d\"], ? e}\n...\n"));
    expect(events.map(show)).toEqual([
      "+STR",
      "+DOC ---",
      "+MAP {} &a <x:m>",
      "=VAL :b",
      "+SEQ []",
      "=ALI *a",
      "=VAL 'c !implicit",
      '=VAL "d !implicit',
      "-SEQ",
      "=VAL :e",
      "=VAL :",
      "-MAP",
      "-DOC ...",
      "-STR",
    ]);
    const keys = Object.keys(events[0] ?? {}).join();
    for (const e of events) expect(Object.keys(e).join()).toBe(keys);
  });
});

describe("YamlEventParser: laziness (only as far as go-yaml reads)", () => {
  it("the first document's events come out before an error later in the stream", () => {
    const p = new YamlEventParser("a: 1\n---\n]]]\n");
    const first: string[] = [];
    for (let e = p.next(); ; e = p.next()) {
      first.push(show(e));
      if (e.kind === "document-end") break;
    }
    expect(first).toEqual(["+STR", "+DOC", "+MAP", "=VAL :a", "=VAL :1", "-MAP", "-DOC"]);
    expect(show(p.next())).toBe("+DOC ---");
    expect(() => p.next()).toThrow(DecodeError);
  });

  it("a directive before content is a missing `---` before the content's own scanner error", () => {
    // go-yaml's scanner would refuse `: 1` here (mapping values...), but its parser stops first.
    expect(failure("%YAML 1.1\na: 1")).toEqual({
      events: ["+STR"],
      reason: "did not find expected <document start>",
      line: 2,
      column: 1,
      offset: 10,
    });
  });
});

describe("YamlEventParser: errors with go-yaml's problem and mark", () => {
  const cases: [string, string[], string, number, number, number][] = [
    ["- a\nb: c", ["+STR", "+DOC", "+SEQ", "=VAL :a"], "did not find expected '-' indicator", 2, 1, 4],
    ["a: 1\n- b", ["+STR", "+DOC", "+MAP", "=VAL :a", "=VAL :1"], "did not find expected key", 2, 1, 5],
    ["{a: ]}", ["+STR", "+DOC", "+MAP {}", "=VAL :a"], "did not find expected node content", 1, 5, 4],
    ["[a, }]", ["+STR", "+DOC", "+SEQ []", "=VAL :a"], "did not find expected node content", 1, 5, 4],
    ["key: ]", ["+STR", "+DOC", "+MAP", "=VAL :key"], "did not find expected node content", 1, 6, 5],
    ["- ]", ["+STR", "+DOC", "+SEQ"], "did not find expected node content", 1, 3, 2],
    [
      "{a: [b] c}",
      ["+STR", "+DOC", "+MAP {}", "=VAL :a", "+SEQ []", "=VAL :b", "-SEQ"],
      "did not find expected ',' or '}'",
      1,
      9,
      8,
    ],
    [
      "{[a] b}",
      ["+STR", "+DOC", "+MAP {}", "+SEQ []", "=VAL :a", "-SEQ", "=VAL :"],
      "did not find expected ',' or '}'",
      1,
      6,
      5,
    ],
    [
      "[a, {b: c} d]",
      ["+STR", "+DOC", "+SEQ []", "=VAL :a", "+MAP {}", "=VAL :b", "=VAL :c", "-MAP"],
      "did not find expected ',' or ']'",
      1,
      12,
      11,
    ],
    // go-yaml's parser consumes the token after an empty key in `[? ...]`,
    // here the `,`, so the sequence then misses its separator.
    [
      "[? , b]",
      ["+STR", "+DOC", "+SEQ []", "+MAP {}", "=VAL :", "=VAL :", "-MAP"],
      "did not find expected ',' or ']'",
      1,
      6,
      5,
    ],
    ["[: b]", ["+STR", "+DOC", "+SEQ []"], "did not find expected node content", 1, 2, 1],
    ["%YAML 1.2\n--- a", ["+STR"], "found incompatible YAML document", 1, 1, 0],
    ["%YAML 1.1\n%YAML 1.1\n--- a", ["+STR"], "found duplicate %YAML directive", 2, 1, 10],
    ["%TAG !e! a:\n%TAG !e! b:\n--- a", ["+STR"], "found duplicate %TAG directive", 2, 1, 12],
    ["!e!x a", ["+STR", "+DOC"], "found undefined tag handle", 1, 1, 0],
    // A %TAG handle is defined for its own document only.
    [
      "%TAG !e! tag:e,\n--- !e!x a\n--- !e!y b",
      ["+STR", "+DOC ---", "=VAL <tag:e,x> :a !implicit", "-DOC", "+DOC ---"],
      "found undefined tag handle",
      3,
      5,
      31,
    ],
    [
      "a: 1\n...\nb: 2",
      ["+STR", "+DOC", "+MAP", "=VAL :a", "=VAL :1", "-MAP", "-DOC ..."],
      "did not find expected <document start>",
      3,
      1,
      9,
    ],
    [
      "a: 1\n---\n]]]\n",
      ["+STR", "+DOC", "+MAP", "=VAL :a", "=VAL :1", "-MAP", "-DOC", "+DOC ---"],
      "did not find expected node content",
      3,
      1,
      9,
    ],
  ];
  for (const [text, events, reason, line, column, offset] of cases) {
    it(`${JSON.stringify(text)}: ${reason}`, () => {
      expect(failure(text)).toEqual({ events, reason, line, column, offset });
    });
  }

  it("after an error, next() throws the same error again", () => {
    const p = new YamlEventParser("a: 1\n- b");
    const { error } = run(p);
    expect(error).toBeInstanceOf(DecodeError);
    expect(() => p.next()).toThrow(error);
  });
});

describe("YamlEventParser: the state machine on token sequences of its own", () => {
  const at = (offset: number): YamlMark => ({ offset, line: 0, column: offset });
  const tok = (kind: YamlTokenKind, offset: number, value = ""): YamlToken => ({
    kind,
    start: at(offset),
    end: at(offset + 1),
    value,
    handle: "",
    style: "plain",
  });
  const source = (tokens: readonly YamlToken[]): YamlTokenSource => {
    let i = 0;
    return {
      next: () => {
        const t = tokens[i++];
        if (t === undefined) throw new Error("the parser read past stream-end");
        return t;
      },
    };
  };

  it("a stream that does not begin with stream-start", () => {
    const p = new YamlEventParser("", source([tok("scalar", 3, "a")]));
    expect(() => p.next()).toThrow(
      expect.objectContaining({ reason: "did not find expected <stream-start>", offset: 3 }),
    );
  });

  it("nesting far deeper than the scanner allows costs no recursion", () => {
    // go-yaml's scanner stops at 10,000 levels; the parser itself must not care.
    const depth = 100_000;
    const tokens: YamlToken[] = [tok("stream-start", 0)];
    for (let i = 0; i < depth; i++) tokens.push(tok("flow-sequence-start", i));
    tokens.push(tok("scalar", depth, "x"));
    for (let i = 0; i < depth; i++) tokens.push(tok("flow-sequence-end", depth + 1 + i));
    tokens.push(tok("stream-end", 2 * depth + 1));
    const { events, error } = run(new YamlEventParser("", source(tokens)));
    expect(error).toBeUndefined();
    expect(events.length).toBe(2 * depth + 5);
    expect(show(events[depth + 2] as YamlEvent)).toBe("=VAL :x");
  });

  it("an error that is not a DecodeError leaves as a DecodeError", () => {
    const p = new YamlEventParser(
      "",
      source([tok("stream-start", 0)]), // then the source throws a plain Error
    );
    p.next();
    expect(() => p.next()).toThrow(DecodeError);
  });
});

describe("YamlEventParser: hostile input", () => {
  it("deep flow nesting within the scanner's limit", () => {
    const depth = 5_000;
    const { events, error } = run(new YamlEventParser(`${"[".repeat(depth)}a${"]".repeat(depth)}`));
    expect(error).toBeUndefined();
    expect(events).toHaveLength(2 * depth + 5);
  });

  it("deep block nesting on one line", () => {
    const depth = 3_000;
    const { events, error } = run(new YamlEventParser(`${"- ".repeat(depth)}a\n`));
    expect(error).toBeUndefined();
    expect(events).toHaveLength(2 * depth + 5);
  });

  it("nesting past go-yaml's limit is the scanner's error, raised as a DecodeError", () => {
    const { error } = run(new YamlEventParser("[".repeat(100_000)));
    expect(error?.reason).toBe("exceeded max depth of 10000");
  });

  it("a long line and many entries", () => {
    const long = "x".repeat(1_000_000);
    expect(trace(`a: ${long}`)[4]).toBe(`=VAL :${long}`);
    const n = 100_000;
    const { events, error } = run(new YamlEventParser(`[${"a, ".repeat(n)}]`));
    expect(error).toBeUndefined();
    expect(events).toHaveLength(n + 6);
  });
});
