// YAML out and back in: the Kubernetes fixtures byte for byte, and round-trip properties.

import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError } from "../../src/networking/model/errors.js";
import type { JsonValue } from "../../src/networking/model/json-value.js";
import { stringifyGoYaml } from "../../src/networking/text/yaml/emit.js";
import { parseYamlDocuments } from "../../src/networking/text/yaml/parse.js";
import { FIXTURES, parseJsonExact, PAIRS } from "../support/yaml-fixtures.js";

describe("Kubernetes compatibility fixtures", () => {
  it("finds the fixtures (every folder, including after_roundtrip pairs)", () => {
    expect(fileURLToPath(FIXTURES)).toMatch(/shared[/\\]testdata[/\\]k8s-api[/\\]$/);
    expect(PAIRS.length).toBeGreaterThanOrEqual(30);
    expect(PAIRS.some((p) => p.name.includes("after_roundtrip"))).toBe(true);
    expect(new Set(PAIRS.map((p) => p.name.split("/")[0])).size).toBe(10);
  });

  describe.each(PAIRS.map((p) => [p.name, p] as const))("%s", (_name, pair) => {
    const expected = parseJsonExact(pair.json);

    it("stringifyGoYaml(json) equals the .yaml byte for byte", () => {
      expect(stringifyGoYaml(expected)).toBe(pair.yaml);
    });

    it("parseYamlDocuments(yaml) equals the .json value", () => {
      expect(parseYamlDocuments(pair.yaml)).toEqual([expected]);
    });

    it("parseYamlDocuments(json) equals the .json value (JSON is YAML, as JSONToYAML reads it)", () => {
      expect(parseYamlDocuments(pair.json)).toEqual([expected]);
    });
  });

  it("keeps int64 values beyond 2^53 exact (v1.19.0)", () => {
    const pair = PAIRS.find((p) => p.name === "v1.19.0/networking.k8s.io.v1.Ingress");
    const [doc] = parseYamlDocuments(pair?.yaml ?? "") as [{ metadata: { generation: unknown } }];
    expect(doc.metadata.generation).toBe(8071137005907523419n);
  });
});

/** The YAML go-yaml writes for `{k: value}`. */
describe("properties", () => {
  // fast-check 4 has no fullUnicodeString(); unit "binary" is its replacement
  // (any code point, no lone surrogates).
  // U+2028/U+2029 are excluded: go-yaml treats them as YAML 1.1 line breaks and
  // writes them raw (with indentation after them) in quoted scalars, which the
  // YAML 1.2 lexer of the `yaml` package reads as ordinary characters.
  // "<<" is excluded: go-yaml writes it as a plain key that reads back as a merge key.
  const unicode = fc.string({ unit: "binary" }).filter((s) => !/[\u2028\u2029]/.test(s));
  const key = fc.oneof(fc.string(), unicode).filter((s) => s !== "<<");

  it("round-trips maps of strings", () => {
    fc.assert(
      fc.property(fc.dictionary(key, fc.oneof(fc.string(), unicode)), (v) => {
        expect(parseYamlDocuments(stringifyGoYaml(v))[0]).toEqual(v);
      }),
      { numRuns: 2000 },
    );
  });

  it("round-trips long strings and nested values", () => {
    const text = fc.oneof(
      unicode,
      fc
        .array(fc.constantFrom("word", " ", "  ", "\n", "\t", "é", "x".repeat(30), ": ", "#", "'", '"'), {
          maxLength: 60,
        })
        .map((parts) => parts.join("")),
    );
    const { value } = fc.letrec<{ value: JsonValue }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        text,
        fc.boolean(),
        fc.constant(null),
        fc.integer(),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }).filter((b) => !Number.isSafeInteger(Number(b))),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(key, tie("value"), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(value, (v) => {
        const text = stringifyGoYaml(v);
        const back = parseYamlDocuments(text);
        // A null root is an empty document, which is skipped.
        expect(back).toEqual(v === null ? [] : [v]);
      }),
      { numRuns: 1000 },
    );
  });

  it("never throws anything but DecodeError on random text", () => {
    const yamlish = fc
      .array(
        fc.constantFrom(
          "-",
          ":",
          " ",
          "\n",
          "\t",
          "[",
          "]",
          "{",
          "}",
          ",",
          "&a",
          "*a",
          "!!int",
          "!x",
          "?",
          "|",
          ">",
          "#",
          "'",
          '"',
          "\\",
          "%YAML 1.1\n",
          "---",
          "...",
          "<<",
          "a",
          "1",
          "0x",
          "~",
          "\u2028",
          "\u{1F600}",
        ),
        { maxLength: 40 },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), yamlish), (text) => {
        try {
          parseYamlDocuments(text);
        } catch (e) {
          expect(e).toBeInstanceOf(DecodeError);
          expect((e as DecodeError).line ?? 1).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
