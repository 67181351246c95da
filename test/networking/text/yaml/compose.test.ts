/**
 * The composer (src/networking/text/yaml/compose.ts) against go-yaml v2's parser: one document,
 * pulled lazily, with go-yaml's marks; and its depth limit. The expected marks were read from
 * go-yaml itself.
 */
import { describe, expect, it } from "vitest";
import {
  NO_DEPTH_LIMIT,
  clampDepth,
  composeFirstDocument,
  type YamlNode,
} from "../../../../src/networking/text/yaml/compose.js";
import { findChild, yamlToJson } from "../../../../src/networking/text/yaml/decode.js";

const LAX = { maxDepth: NO_DEPTH_LIMIT, strict: false };

describe("composeFirstDocument: go-yaml's parser, one document, lazily", () => {
  it("has no document for an empty or comment-only stream", () => {
    expect(composeFirstDocument("", NO_DEPTH_LIMIT)).toBeUndefined();
    expect(composeFirstDocument("# c\n\n", NO_DEPTH_LIMIT)).toBeUndefined();
  });

  it("never pulls an event after the first document's end", () => {
    // Scanner and parser errors in the second document are not reached, as in go-yaml.
    for (const rest of ["]]]\n", "a: [\n", "*nope\n", "a: b: c\n"]) {
      expect(yamlToJson(`a: 1\n---\n${rest}`, LAX)).toEqual({ a: 1 });
      expect(yamlToJson(`a: 1\n...\n${rest}`, LAX)).toEqual({ a: 1 });
    }
  });

  it("keeps marks: a block mapping starts at its first key, a scalar at its tag, an alias at its *", () => {
    const text = "r: &r 1\na:\n  b: !!str x\n  c: *r\n";
    const root = composeFirstDocument(text, NO_DEPTH_LIMIT) as YamlNode;
    const a = findChild(root, "a")?.value as YamlNode;
    expect(a.start.offset).toBe(text.indexOf("b:"));
    expect(findChild(a, "b")?.value.start.offset).toBe(text.indexOf("!!str"));
    const alias = a.children[3] as YamlNode;
    expect([alias.kind, alias.value, alias.start.offset]).toEqual(["alias", "r", text.indexOf("*r")]);
    expect(alias.target).toBe(findChild(root, "r")?.value);
  });

  it("builds nodes with their start and end", () => {
    const text = "a:\n  b: !!str x\n  c: [1, 2]\n";
    const root = composeFirstDocument(text, NO_DEPTH_LIMIT) as YamlNode;
    expect(root.kind).toBe("mapping");
    expect([root.start.line, root.start.column]).toEqual([0, 0]);
    const a = findChild(root, "a");
    const b = findChild(a?.value as YamlNode, "b");
    expect(b?.value.kind).toBe("scalar");
    expect(b?.value.start.offset).toBe(text.indexOf("!!str"));
    expect(b?.value.end.offset).toBe(text.indexOf("x\n") + 1);
    expect(b?.key?.start.offset).toBe(text.indexOf("b:"));
    const c = findChild(a?.value as YamlNode, "c")?.value as YamlNode;
    expect(text.slice(c.start.offset, c.end.offset)).toBe("[1, 2]");
    expect(findChild(c, 1)?.value.value).toBe("2");
    expect(findChild(c, 2)).toBeUndefined();
    expect(findChild(c, "x")).toBeUndefined();
  });
});

describe("clampDepth", () => {
  it("has no depth limit of its own unless asked for one", () => {
    expect(clampDepth(undefined)).toBe(NO_DEPTH_LIMIT);
    expect(clampDepth(Number.NaN)).toBe(NO_DEPTH_LIMIT);
    expect(clampDepth(3.7)).toBe(3);
    expect(clampDepth(-1)).toBe(0);
    expect(clampDepth(20_000)).toBe(20_000);
  });
});
