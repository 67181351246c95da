import { describe, expect, it } from "vitest";
import { DecodeError } from "../../../../src/networking/model/errors.js";
import { YamlScanner } from "../../../../src/networking/text/yaml/scanner.js";
import type { YamlToken } from "../../../../src/networking/text/yaml/syntax.js";

/** JSON with every code unit above ASCII escaped, so expectations stay readable and exact. */
function asciiJson(s: string): string {
  return JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A token as one line: kind, 0-based start and end line:column, then style and value, or handle and value. */
function compact(t: YamlToken): string {
  let s = `${t.kind} ${t.start.line}:${t.start.column}-${t.end.line}:${t.end.column}`;
  if (t.kind === "scalar") s += ` ${t.style} ${asciiJson(t.value)}`;
  else if (t.kind === "tag" || t.kind === "tag-directive") s += ` ${JSON.stringify(t.handle)} ${asciiJson(t.value)}`;
  else if (t.value !== "") s += ` ${JSON.stringify(t.value)}`;
  return s;
}

interface Scanned {
  readonly tokens: YamlToken[];
  readonly error: DecodeError | undefined;
}

/** Pulls tokens to the stream end or the first error. */
function scan(text: string, limit = 1_000_000): Scanned {
  const scanner = new YamlScanner(text);
  const tokens: YamlToken[] = [];
  try {
    for (let i = 0; i < limit; i++) {
      const t = scanner.next();
      tokens.push(t);
      if (t.kind === "stream-end") return { tokens, error: undefined };
    }
    throw new Error("no stream end");
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { tokens, error: e };
  }
}

interface Case {
  readonly text: string;
  readonly tokens: readonly string[];
  /** problem, and the 1-based position of go-yaml's problem mark */
  readonly error?: { readonly problem: string; readonly line: number; readonly column: number };
}

/*
 * Expectations recorded from go-yaml v2.4.0's own scanner (yaml_parser_scan,
 * driven by a small Go program to the stream end or the first error): the
 * token kinds, marks, values, handles and styles, and the problem text and
 * problem mark of the error. Reader errors carry no mark in go-yaml; ours
 * points at the refused character.
 */
const CASES: readonly Case[] = [
  {
    text: "a: 1\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-0:4 plain "1"',
      "block-end 1:0-1:0",
      "stream-end 1:0-1:0",
    ],
  },
  {
    text: "a:\n  - b\n  - c\nd: e\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      "block-sequence-start 1:2-1:2",
      "block-entry 1:2-1:3",
      'scalar 1:4-1:5 plain "b"',
      "block-entry 2:2-2:3",
      'scalar 2:4-2:5 plain "c"',
      "block-end 3:0-3:0",
      "key 3:0-3:0",
      'scalar 3:0-3:1 plain "d"',
      "value 3:1-3:2",
      'scalar 3:3-3:4 plain "e"',
      "block-end 4:0-4:0",
      "stream-end 4:0-4:0",
    ],
  },
  {
    text: "{a: [b, c], d}\n",
    tokens: [
      "stream-start 0:0-0:0",
      "flow-mapping-start 0:0-0:1",
      "key 0:1-0:1",
      'scalar 0:1-0:2 plain "a"',
      "value 0:2-0:3",
      "flow-sequence-start 0:4-0:5",
      'scalar 0:5-0:6 plain "b"',
      "flow-entry 0:6-0:7",
      'scalar 0:8-0:9 plain "c"',
      "flow-sequence-end 0:9-0:10",
      "flow-entry 0:10-0:11",
      'scalar 0:12-0:13 plain "d"',
      "flow-mapping-end 0:13-0:14",
      "stream-end 1:0-1:0",
    ],
  },
  {
    text: "%YAML 1.1\n%TAG !e! tag:example.com,2000:\n--- !e!foo x\n...\n",
    tokens: [
      "stream-start 0:0-0:0",
      'version-directive 0:0-0:9 "1.1"',
      'tag-directive 1:0-1:30 "!e!" "tag:example.com,2000:"',
      "document-start 2:0-2:3",
      'tag 2:4-2:10 "!e!" "foo"',
      'scalar 2:11-2:12 plain "x"',
      "document-end 3:0-3:3",
      "stream-end 4:0-4:0",
    ],
  },
  {
    text: "- !<tag:x,2000:y> a\n- !!str b\n- ! c\n- !foo d\n- !e%C3%A9 e\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-sequence-start 0:0-0:0",
      "block-entry 0:0-0:1",
      'tag 0:2-0:17 "" "tag:x,2000:y"',
      'scalar 0:18-0:19 plain "a"',
      "block-entry 1:0-1:1",
      'tag 1:2-1:7 "!!" "str"',
      'scalar 1:8-1:9 plain "b"',
      "block-entry 2:0-2:1",
      'tag 2:2-2:3 "" "!"',
      'scalar 2:4-2:5 plain "c"',
      "block-entry 3:0-3:1",
      'tag 3:2-3:6 "!" "foo"',
      'scalar 3:7-3:8 plain "d"',
      "block-entry 4:0-4:1",
      'tag 4:2-4:10 "!" "e\\u00e9"',
      'scalar 4:11-4:12 plain "e"',
      "block-end 5:0-5:0",
      "stream-end 5:0-5:0",
    ],
  },
  {
    text: "a: &x1 b\nc: *x1\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'anchor 0:3-0:6 "x1"',
      'scalar 0:7-0:8 plain "b"',
      "key 1:0-1:0",
      'scalar 1:0-1:1 plain "c"',
      "value 1:1-1:2",
      'alias 1:3-1:6 "x1"',
      "block-end 2:0-2:0",
      "stream-end 2:0-2:0",
    ],
  },
  {
    text: '- "a\\x41\\u00e9\\U0001F600\\t\\\tb"\n- "fold\n  ed\n\n  x"\n- "con\\\n  tinued"\n- \'it\'\'s\n  here\'\n',
    tokens: [
      "stream-start 0:0-0:0",
      "block-sequence-start 0:0-0:0",
      "block-entry 0:0-0:1",
      'scalar 0:2-0:30 double "aA\\u00e9\\ud83d\\ude00\\t\\tb"',
      "block-entry 1:0-1:1",
      'scalar 1:2-4:4 double "fold ed\\nx"',
      "block-entry 5:0-5:1",
      'scalar 5:2-6:9 double "continued"',
      "block-entry 7:0-7:1",
      'scalar 7:2-8:7 single "it\'s here"',
      "block-end 9:0-9:0",
      "stream-end 9:0-9:0",
    ],
  },
  {
    text: "a: |\n  one\n   two\n\n  three\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-5:0 literal "one\\n two\\n\\nthree\\n"',
      "block-end 5:0-5:0",
      "stream-end 5:0-5:0",
    ],
  },
  {
    text: "a: >\n  one\n  two\n\n   more\n  back\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-6:0 folded "one two\\n\\n more\\nback\\n"',
      "block-end 6:0-6:0",
      "stream-end 6:0-6:0",
    ],
  },
  {
    text: "- |-\n  x\n\n- |+\n  y\n\n- |2-\n    z\n- >-2\n    w\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-sequence-start 0:0-0:0",
      "block-entry 0:0-0:1",
      'scalar 0:2-3:0 literal "x"',
      "block-entry 3:0-3:1",
      'scalar 3:2-6:0 literal "y\\n\\n"',
      "block-entry 6:0-6:1",
      'scalar 6:2-8:0 literal "  z"',
      "block-entry 8:0-8:1",
      'scalar 8:2-10:0 folded "  w"',
      "block-end 10:0-10:0",
      "stream-end 10:0-10:0",
    ],
  },
  {
    text: "a: |# c\n  x\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-2:0 literal "x\\n"',
      "block-end 2:0-2:0",
      "stream-end 2:0-2:0",
    ],
  },
  {
    text: "a: |\n\n\n  x\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-4:0 literal "\\n\\nx\\n"',
      "block-end 4:0-4:0",
      "stream-end 4:0-4:0",
    ],
  },
  {
    text: "a: b\n  c\r\n  d\u0085  e\u2028  f\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-4:3 plain "b c d e\\u2028f"',
      "block-end 5:0-5:0",
      "stream-end 5:0-5:0",
    ],
  },
  {
    text: "\ufeffa: 1\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-0:4 plain "1"',
      "block-end 1:0-1:0",
      "stream-end 1:0-1:0",
    ],
  },
  {
    text: "\ufeff\ufeffa: 1\nb: 2\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:1-0:1",
      "key 0:1-0:1",
      'scalar 0:1-0:2 plain "a"',
      "value 0:2-0:3",
      'scalar 0:4-0:5 plain "1"',
      "value 1:1-1:2",
      'scalar 1:3-1:4 plain "2"',
      "block-end 2:0-2:0",
      "stream-end 2:0-2:0",
    ],
  },
  {
    text: "a:\tb\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-0:4 plain "b"',
      "block-end 1:0-1:0",
      "stream-end 1:0-1:0",
    ],
  },
  {
    text: "a:\n\t- b\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "found character that cannot start any token", line: 2, column: 1 },
  },
  {
    text: '- "\\/"\n',
    tokens: ["stream-start 0:0-0:0", "block-sequence-start 0:0-0:0", "block-entry 0:0-0:1"],
    error: { problem: "found unknown escape character", line: 1, column: 4 },
  },
  {
    text: "a: b: c\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-0:4 plain "b"',
    ],
    error: { problem: "mapping values are not allowed in this context", line: 1, column: 5 },
  },
  {
    text: "- a\nb: c\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-sequence-start 0:0-0:0",
      "block-entry 0:0-0:1",
      'scalar 0:2-0:3 plain "a"',
      "key 1:0-1:0",
      'scalar 1:0-1:1 plain "b"',
      "value 1:1-1:2",
      'scalar 1:3-1:4 plain "c"',
      "block-end 2:0-2:0",
      "stream-end 2:0-2:0",
    ],
  },
  {
    text: 'key: "unterminated\n',
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:3 plain "key"',
      "value 0:3-0:4",
    ],
    error: { problem: "found unexpected end of stream", line: 2, column: 1 },
  },
  {
    text: "a: 'x\n---\ny'\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "found unexpected document indicator", line: 2, column: 1 },
  },
  {
    text: "&a[ x\n",
    tokens: ["stream-start 0:0-0:0"],
    error: { problem: "did not find expected alphabetic or numeric character", line: 1, column: 3 },
  },
  {
    text: "%FOO bar\n",
    tokens: ["stream-start 0:0-0:0"],
    error: { problem: "found unknown directive name", line: 1, column: 5 },
  },
  {
    text: "%YAML 1.123\n",
    tokens: ["stream-start 0:0-0:0"],
    error: { problem: "found extremely long version number", line: 1, column: 11 },
  },
  {
    text: "%YAML 1\n",
    tokens: ["stream-start 0:0-0:0"],
    error: { problem: "did not find expected digit or '.' character", line: 1, column: 8 },
  },
  {
    text: "%TAG !e tag:x\n",
    tokens: ["stream-start 0:0-0:0"],
    error: { problem: "did not find expected '!'", line: 1, column: 8 },
  },
  {
    text: "!<tag:x y\n",
    tokens: ["stream-start 0:0-0:0"],
    error: { problem: "did not find the expected '>'", line: 1, column: 8 },
  },
  {
    text: "a: !e%zz x\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "did not find URI escaped octet", line: 1, column: 6 },
  },
  {
    text: "a: !e%C3 x\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "did not find URI escaped octet", line: 1, column: 9 },
  },
  {
    text: "a: !e%FF x\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "found an incorrect leading UTF-8 octet", line: 1, column: 6 },
  },
  {
    text: "a: |0\n  x\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "found an indentation indicator equal to 0", line: 1, column: 5 },
  },
  {
    text: "a: | x\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "did not find expected comment or line break", line: 1, column: 6 },
  },
  {
    text: "a: |\n  x\n\t y\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "found a tab character where an indentation space is expected", line: 3, column: 1 },
  },
  {
    text: 'a: "\\q"\n',
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "found unknown escape character", line: 1, column: 5 },
  },
  {
    text: 'a: "\\xZZ"\n',
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "did not find expected hexdecimal number", line: 1, column: 7 },
  },
  {
    text: 'a: "\\uD800"\n',
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "found invalid Unicode character escape code", line: 1, column: 7 },
  },
  {
    text: "@x\n",
    tokens: ["stream-start 0:0-0:0"],
    error: { problem: "found character that cannot start any token", line: 1, column: 1 },
  },
  {
    text: "a: b\n\tc: d\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
    ],
    error: { problem: "found a tab character that violates indentation", line: 2, column: 1 },
  },
  {
    text: "a\n  b: c\n",
    tokens: ["stream-start 0:0-0:0", 'scalar 0:0-1:3 plain "a b"'],
    error: { problem: "mapping values are not allowed in this context", line: 2, column: 4 },
  },
  {
    text: "[a, b]: c\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      "flow-sequence-start 0:0-0:1",
      'scalar 0:1-0:2 plain "a"',
      "flow-entry 0:2-0:3",
      'scalar 0:4-0:5 plain "b"',
      "flow-sequence-end 0:5-0:6",
      "value 0:6-0:7",
      'scalar 0:8-0:9 plain "c"',
      "block-end 1:0-1:0",
      "stream-end 1:0-1:0",
    ],
  },
  {
    text: "? a\n: b\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:1",
      'scalar 0:2-0:3 plain "a"',
      "value 1:0-1:1",
      'scalar 1:2-1:3 plain "b"',
      "block-end 2:0-2:0",
      "stream-end 2:0-2:0",
    ],
  },
  {
    text: "{a: 1 ? b}\n",
    tokens: [
      "stream-start 0:0-0:0",
      "flow-mapping-start 0:0-0:1",
      "key 0:1-0:1",
      'scalar 0:1-0:2 plain "a"',
      "value 0:2-0:3",
      'scalar 0:4-0:5 plain "1"',
      "key 0:6-0:7",
      'scalar 0:8-0:9 plain "b"',
      "flow-mapping-end 0:9-0:10",
      "stream-end 1:0-1:0",
    ],
  },
  {
    text: "{path: /?q=1}\n",
    tokens: [
      "stream-start 0:0-0:0",
      "flow-mapping-start 0:0-0:1",
      "key 0:1-0:1",
      'scalar 0:1-0:5 plain "path"',
      "value 0:5-0:6",
      'scalar 0:7-0:8 plain "/"',
      "key 0:8-0:9",
      'scalar 0:9-0:12 plain "q=1"',
      "flow-mapping-end 0:12-0:13",
      "stream-end 1:0-1:0",
    ],
  },
  {
    text: "[a:b, c: d]\n",
    tokens: [
      "stream-start 0:0-0:0",
      "flow-sequence-start 0:0-0:1",
      'scalar 0:1-0:4 plain "a:b"',
      "flow-entry 0:4-0:5",
      "key 0:6-0:6",
      'scalar 0:6-0:7 plain "c"',
      "value 0:7-0:8",
      'scalar 0:9-0:10 plain "d"',
      "flow-sequence-end 0:10-0:11",
      "stream-end 1:0-1:0",
    ],
  },
  {
    text: "a: 1\n---\n]]]\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-0:4 plain "1"',
      "block-end 1:0-1:0",
      "document-start 1:0-1:3",
      "flow-sequence-end 2:0-2:1",
      "flow-sequence-end 2:1-2:2",
      "flow-sequence-end 2:2-2:3",
      "stream-end 3:0-3:0",
    ],
  },
  {
    text: "a: 1\n...\n\u0001",
    tokens: [],
    error: { problem: "control characters are not allowed", line: 3, column: 1 },
  },
  {
    text: "a: b #c\n# d\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-0:4 plain "b"',
      "block-end 2:0-2:0",
      "stream-end 2:0-2:0",
    ],
  },
  {
    text: "- x\n-\ty\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-sequence-start 0:0-0:0",
      "block-entry 0:0-0:1",
      'scalar 0:2-0:3 plain "x"',
      "block-entry 1:0-1:1",
    ],
    error: { problem: "found character that cannot start any token", line: 2, column: 2 },
  },
  {
    text: "a: 1",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-0:4 plain "1"',
      "block-end 1:0-1:0",
      "stream-end 1:0-1:0",
    ],
  },
  {
    text: "a: |\n  x",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-1:3 literal "x"',
      "block-end 2:0-2:0",
      "stream-end 2:0-2:0",
    ],
  },
  {
    text: "'a': \"b\": c\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:3 single "a"',
      "value 0:3-0:4",
      'scalar 0:5-0:8 double "b"',
    ],
    error: { problem: "mapping values are not allowed in this context", line: 1, column: 9 },
  },
  {
    text: "a: -1\n-x: y\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-0:5 plain "-1"',
      "key 1:0-1:0",
      'scalar 1:0-1:2 plain "-x"',
      "value 1:2-1:3",
      'scalar 1:4-1:5 plain "y"',
      "block-end 2:0-2:0",
      "stream-end 2:0-2:0",
    ],
  },
  {
    text: "a: ---\n--- b\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:1 plain "a"',
      "value 0:1-0:2",
      'scalar 0:3-0:6 plain "---"',
      "block-end 1:0-1:0",
      "document-start 1:0-1:3",
      'scalar 1:4-1:5 plain "b"',
      "stream-end 2:0-2:0",
    ],
  },
  {
    text: "x\ty: 1\n",
    tokens: [
      "stream-start 0:0-0:0",
      "block-mapping-start 0:0-0:0",
      "key 0:0-0:0",
      'scalar 0:0-0:3 plain "x\\ty"',
      "value 0:3-0:4",
      'scalar 0:5-0:6 plain "1"',
      "block-end 1:0-1:0",
      "stream-end 1:0-1:0",
    ],
  },
];

describe("YamlScanner: go-yaml v2's tokens and errors", () => {
  for (const c of CASES) {
    it(JSON.stringify(c.text), () => {
      const { tokens, error } = scan(c.text);
      expect(tokens.map(compact)).toEqual(c.tokens);
      if (c.error === undefined) {
        expect(error).toBeUndefined();
      } else {
        expect(error?.reason).toBe(c.error.problem);
        expect([error?.line, error?.column]).toEqual([c.error.line, c.error.column]);
      }
    });
  }
});

describe("YamlScanner: marks", () => {
  it("counts offsets in UTF-16 units and columns in code points; a leading BOM is no column", () => {
    const { tokens } = scan('\ufeff😀é: "x"\r\nb: c\n');
    const key = tokens.find((t) => t.kind === "scalar");
    // go-yaml: the key spans columns 0-2 (two characters); in the string it is offsets 1-4.
    expect(key?.start).toEqual({ offset: 1, line: 0, column: 0 });
    expect(key?.end).toEqual({ offset: 4, line: 0, column: 2 });
    const b = tokens.filter((t) => t.kind === "scalar")[2];
    expect(b?.value).toBe("b");
    expect(b?.start).toEqual({ offset: 11, line: 1, column: 0 });
  });

  it("puts the stream end on a line of its own when the text has no final line break", () => {
    const { tokens } = scan("a: 1");
    expect(tokens.at(-1)?.start).toEqual({ offset: 4, line: 1, column: 0 });
  });
});

describe("YamlScanner: reading as lazily as go-yaml", () => {
  // Token counts and problems recorded from go-yaml v2.4.0's scanner.
  it("checks characters in 512-byte chunks ahead of the scanner", () => {
    // The refused character sits in the second chunk: go-yaml hands out 410 tokens first.
    const { tokens, error } = scan(`${"k: v\n".repeat(110)}\u0001`);
    expect(tokens).toHaveLength(410);
    expect(tokens.at(-1)?.start).toMatchObject({ line: 101, column: 3 });
    expect(error?.reason).toBe("control characters are not allowed");
    expect([error?.line, error?.column, error?.offset]).toEqual([111, 1, 550]);
  });

  it("fails on a refused character in the first chunk before the first token", () => {
    const scanner = new YamlScanner("a: 1\n...\n\u0001");
    expect(() => scanner.next()).toThrow(/control characters are not allowed/);
  });

  it("decodes a character that straddles a chunk boundary with the next chunk", () => {
    // 5 + 505 bytes, then é (2 bytes) ends at byte 512: the first chunk holds it and the refused character is in the next.
    expect(scan(`a: b\n${"c".repeat(505)}é\u0001`).tokens).toHaveLength(6);
    expect(scan(`a: b\n${"c".repeat(506)}é\u0001`).tokens).toHaveLength(6);
  });

  it("does not scan a token before the parser asks for it", () => {
    const scanner = new YamlScanner("a: 1\n---\n@@@\n");
    const kinds: string[] = [];
    for (let t = scanner.next(); t.kind !== "document-start"; t = scanner.next()) kinds.push(t.kind);
    expect(kinds).toEqual(["stream-start", "block-mapping-start", "key", "scalar", "value", "scalar", "block-end"]);
    expect(() => scanner.next()).toThrow(/found character that cannot start any token/);
  });

  it("returns stream-end again after the end, and the same error again after an error", () => {
    const done = new YamlScanner("");
    expect(done.next().kind).toBe("stream-start");
    const end = done.next();
    expect(end.kind).toBe("stream-end");
    expect(done.next()).toBe(end);
    const bad = new YamlScanner("@");
    bad.next();
    let first: unknown;
    try {
      bad.next();
    } catch (e) {
      first = e;
    }
    expect(first).toBeInstanceOf(DecodeError);
    expect(() => bad.next()).toThrow(first as Error);
  });

  it("refuses a lone UTF-16 surrogate as go-yaml refuses a surrogate's bytes (invalid Unicode character)", () => {
    const { error } = scan("a: b\ud800\n");
    expect(error?.reason).toBe("invalid Unicode character");
    expect([error?.line, error?.column, error?.offset]).toEqual([1, 5, 4]);
  });
});

describe("YamlScanner: hostile input", () => {
  // Outcomes recorded from go-yaml v2.4.0's scanner.
  it("stops 10,001 nested flow collections at go-yaml's limit", () => {
    const { tokens, error } = scan("[".repeat(10001));
    expect(tokens).toHaveLength(8977);
    expect(error?.reason).toBe("exceeded max depth of 10000");
    expect([error?.line, error?.column]).toEqual([1, 10001]);
  });

  it("stops 10,001 nested block sequences at go-yaml's limit", () => {
    const { tokens, error } = scan(`${"- ".repeat(10001)}x\n`);
    expect(tokens).toHaveLength(20001);
    expect(error?.reason).toBe("exceeded max depth of 10000");
    expect([error?.line, error?.column]).toEqual([1, 20001]);
  });

  it("reads exactly 10,000 levels, go-yaml's limit, in flow and block context", () => {
    // Token counts from go-yaml v2.4.0's scanner, which reads all three to the stream end.
    expect(scan(`${"[".repeat(10000)}${"]".repeat(10000)}\n`)).toMatchObject({ error: undefined });
    expect(scan(`${"[".repeat(10000)}${"]".repeat(10000)}\n`).tokens).toHaveLength(20002);
    const block = scan(`${"- ".repeat(10000)}x\n`);
    expect(block.error).toBeUndefined();
    expect(block.tokens).toHaveLength(30003);
    const mappings = scan(`${"{a: ".repeat(10000)}b${"}".repeat(10000)}\n`);
    expect(mappings.error).toBeUndefined();
    expect(mappings.tokens).toHaveLength(50003);
  });

  it("stops a 100,000-deep flow nesting at the same place", () => {
    const { error } = scan("{a: ".repeat(100_000));
    expect(error?.reason).toBe("exceeded max depth of 10000");
  });

  it("gives up a simple key more than 1,024 characters long", () => {
    const block = scan(`${"a".repeat(1100)}: b\n`);
    expect(block.tokens).toHaveLength(2);
    expect(block.error?.reason).toBe("mapping values are not allowed in this context");
    expect([block.error?.line, block.error?.column]).toEqual([1, 1101]);
    // In a flow mapping the key is given up silently; with `?` the length does not matter.
    expect(scan(`{${"a".repeat(1100)}: b}\n`).tokens).toHaveLength(7);
    expect(scan(`? ${"a".repeat(1100)}\n: b\n`).tokens).toHaveLength(8);
  });

  it("reads a 1,000,000-character line and a 100,000-line text", () => {
    const long = scan(`key: ${"x".repeat(1_000_000)}\n`);
    expect(long.error).toBeUndefined();
    expect(long.tokens.find((t) => t.kind === "scalar" && t.value.length === 1_000_000)).toBeDefined();
    const many = scan("k: v\n".repeat(100_000));
    expect(many.error).toBeUndefined();
    expect(many.tokens).toHaveLength(2 + 4 * 100_000 + 2);
  });

  it("throws only DecodeError on arbitrary text", () => {
    const pieces = [
      "a",
      ":",
      " ",
      "\n",
      "-",
      "?",
      "[",
      "]",
      "{",
      "}",
      ",",
      "#",
      "'",
      '"',
      "\\",
      "|",
      ">",
      "!",
      "&",
      "*",
      "%",
      "\t",
      "\r",
      "\u2028",
      "\ufeff",
      "😀",
      "\u0001",
      "\ud800",
    ];
    let seed = 7;
    for (let n = 0; n < 3000; n++) {
      let text = "";
      seed = (seed * 1103515245 + 12345) >>> 0;
      const len = seed % 60;
      for (let i = 0; i < len; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        text += pieces[seed % pieces.length];
      }
      expect(() => scan(text)).not.toThrow();
    }
  });
});
