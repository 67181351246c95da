// Malformed input for the JSON text parser: every bad input raises a DecodeError saying
// where (byte offset, path, line/column) and why, and nothing else is thrown.

import { describe, expect, it } from "vitest";
import { parseJsonText, textKeyOrder } from "../../../../src/networking/text/json/parse.js";
import { jsonError } from "../../../support/bad-input.js";

describe("JSON: syntax errors report line and column", () => {
  it.each([
    ['{\n  "kind": "Ingress",\n  "apiVersion" "x"\n}', 3, 16],
    ['{"kind": "Ingress",}', 1, 20],
    ["{\n\n   ]", 3, 4],
    ['{"a": tru}', 1, 7],
    ['{"a": "b\nc"}', 1, 9],
    ['{"a": 01}', 1, 8],
    ['{"a": -}', 1, 8],
    ['{"a": "\\x"}', 1, 8],
    ["", 1, 1],
    ["{", 1, 2],
    ['{"a":1} {}', 1, 9],
    ["\ufeff{}", 1, 1],
  ] as const)("%j -> line %i, column %i", (text, line, column) => {
    const e = jsonError(text);
    expect(e.line).toBe(line);
    expect(e.column).toBe(column);
    expect(e.message).toContain(`line ${line}, column ${column}`);
  });
});

describe("textKeyOrder: the text's order of keys, where a JS object lists them otherwise", () => {
  it("is kept for a repeated key and for an index-like key, and only then", () => {
    const order = (text: string) => textKeyOrder(parseJsonText(text).value as object);
    expect(order('{"b":1,"a":2}')).toBeUndefined();
    expect(order('{"b":1,"a":2,"b":3,"c":4}')).toEqual(["b", "a", "b", "c"]);
    expect(order('{"b":1,"10":2,"2":3}')).toEqual(["b", "10", "2"]);
    // Not index-like: a leading zero, a sign, 2^32 - 1 and beyond.
    expect(order('{"b":1,"01":2,"-1":3,"4294967295":4}')).toBeUndefined();
  });
});
