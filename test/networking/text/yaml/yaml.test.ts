// Malformed input for fromYaml(): every bad input raises a DecodeError saying
// where (byte offset, path, line/column) and why, and nothing else is thrown.

import { describe, expect, it } from "vitest";
import { fromYaml, parseYamlDocuments, toJsonString } from "../../../../src/networking/index.js";
import type { NetworkingObject } from "../../../../src/networking/index.js";
import { onlyDecodeError } from "../../../support/bad-input.js";
import { decodeError } from "../../../support/errors.js";

describe("YAML: errors name the document and the path or line", () => {
  // DecodeError.document is 1-based (the first document is 1).
  it("a type error names the path, the document, the line and column", () => {
    const text =
      "kind: NetworkPolicy\napiVersion: networking.k8s.io/v1\nspec:\n  ingress:\n  - ports:\n    - port: 1.5\n";
    const e = decodeError(() => fromYaml(text));
    expect(e.format).toBe("yaml");
    expect(e.path).toBe("spec.ingress[0].ports[0].port");
    expect(e.document).toBe(1);
    expect(e.line).toBe(6);
    expect(e.column).toBe(13); // the value 1.5
    expect(e.message).toMatch(/document 1, line 6, column 13/);
  });

  it("an error in the second document says so", () => {
    const text =
      "kind: Ingress\napiVersion: networking.k8s.io/v1\n---\nkind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata:\n  generation: x\n";
    const e = decodeError(() => fromYaml(text));
    expect(e.document).toBe(2);
    expect(e.path).toBe("metadata.generation");
    expect(e.segments).toEqual(["metadata", "generation"]);
    expect(e.line).toBe(7);
    expect(e.column).toBe(15); // the value x
    expect(e.offset).toBe(text.indexOf("x\n"));
    expect(e.message).toMatch(/^yaml decode error at document 2, line 7, column 15, field metadata\.generation: /);
  });

  it("documents are numbered as kubectl's reader hands them on, null ones included", () => {
    const text = "---\nnull\n---\nkind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata:\n  generation: x\n";
    const e = decodeError(() => fromYaml(text));
    expect([e.document, e.line, e.column]).toEqual([2, 7, 15]);
    // kubectl refuses `--- null` as a separator line; the server reads the first YAML document only.
    const sep = decodeError(() => fromYaml(`--- null\n${text.slice(9)}`));
    expect([sep.reason, sep.document, sep.line]).toEqual(["invalid Yaml document separator: null", 1, 1]);
    expect(fromYaml(`--- null\n${text.slice(9)}`, { reading: "server" })).toEqual([]);
  });

  it("segments and the value's position for a label key with dots", () => {
    const text =
      'kind: NetworkPolicy\napiVersion: networking.k8s.io/v1\nmetadata:\n  labels:\n    app.kubernetes.io/name: [x]\n    "app.kubernetes.io/part-of": {}\n';
    const e = decodeError(() => fromYaml(text));
    expect(e.segments).toEqual(["metadata", "labels", "app.kubernetes.io/name"]);
    expect(e.path).toBe("metadata.labels.app.kubernetes.io/name");
    expect([e.document, e.line, e.column]).toEqual([1, 5, 29]); // the [x]
    expect(e.offset).toBe(text.indexOf("[x]"));
    const quoted = decodeError(() => fromYaml(text.replace("[x]", "ok")));
    expect(quoted.segments).toEqual(["metadata", "labels", "app.kubernetes.io/part-of"]);
    expect([quoted.line, quoted.column]).toEqual([6, 34]); // the {}
  });

  // BUG: the error is located at the first of two repeated keys, though the
  // last one is the value that was decoded (and is the bad one here).
  it("a type error after a repeated key points at the last occurrence", () => {
    const text = "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata:\n  generation: 1\n  generation: x\n";
    const e = decodeError(() => fromYaml(text));
    expect(e.path).toBe("metadata.generation");
    expect([e.line, e.column]).toEqual([5, 15]);
  });

  // BUG: when locating an error after parsing, a document that is a quoted
  // '' (or 'null') is taken for an empty one and skipped, so an error in it
  // is reported in the next document (here document 2, line 3, column 1).
  it("an error in a document that is a quoted empty string names that document", () => {
    const text = "---\n''\n---\nkind: Ingress\napiVersion: networking.k8s.io/v1\n";
    const e = decodeError(() => fromYaml(text));
    expect(e.reason).toMatch(/string/);
    expect([e.document, e.line, e.column]).toEqual([1, 2, 1]);
    const body = decodeError(() => fromYaml("--- ''\n", { reading: "server" }));
    expect([body.document, body.line, body.column]).toEqual([1, 1, 5]);
  });

  it("a syntax error gives a line", () => {
    const text = "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata:\n  name: [a\n";
    const e = decodeError(() => fromYaml(text));
    expect(e.format).toBe("yaml");
    expect(e.line).toBeGreaterThanOrEqual(4);
    expect(e.line).toBeLessThanOrEqual(5);
  });

  it("strict mode names unknown fields and points at duplicate keys", () => {
    const base = "kind: Ingress\napiVersion: networking.k8s.io/v1\n";
    expect(fromYaml(`${base}spec:\n  bogus: 1\n`).length).toBe(1);
    const unknown = decodeError(() => fromYaml(`${base}spec:\n  bogus: 1\n`, { strict: true }));
    expect(unknown.path).toBe("spec.bogus");
    expect(unknown.line).toBe(4);
    expect(unknown.segments).toEqual(["spec", "bogus"]);
    expect(unknown.document).toBe(1);
    // A repeated key keeps its last value by default (sigs.k8s.io/yaml YAMLToJSON)...
    const dup = `${base}metadata:\n  name: a\n  name: b\n`;
    expect(toJsonString(fromYaml(dup)[0] as NetworkingObject)).toContain('"name":"b"');
    expect(toJsonString(fromYaml(dup, { strict: false })[0] as NetworkingObject)).toContain('"name":"b"');
    // ...and is rejected when strict (YAMLToJSONStrict), at the repeated key.
    const e = decodeError(() => fromYaml(dup, { strict: true }));
    expect([e.document, e.line, e.column]).toEqual([1, 5, 3]);
    expect(e.reason).toMatch(/name/);
    // The first value may be one that would not decode: it is gone before decoding.
    expect(
      toJsonString(fromYaml(`${base}metadata:\n  generation: x\n  generation: 2\n`)[0] as NetworkingObject),
    ).toContain('"generation":2');
  });

  it("deep nesting, anchors and alias bombs give DecodeError", () => {
    // go-yaml's scanner limit: 10,000 levels read (a list is not an object), 10,001 refused.
    const n = 10_000;
    expect(decodeError(() => fromYaml("[".repeat(n) + "]".repeat(n))).reason).toMatch(
      /^couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/,
    );
    expect(decodeError(() => fromYaml("[".repeat(n + 1) + "]".repeat(n + 1))).reason).toBe(
      "exceeded max depth of 10000",
    );
    // A stricter limit on request.
    expect(
      decodeError(() =>
        fromYaml("a:\n" + Array.from({ length: 500 }, (_, i) => `${" ".repeat(i + 1)}b${i}:`).join("\n") + " 1\n", {
          maxDepth: 100,
        }),
      ).reason,
    ).toBe("nesting deeper than 100");
    // A "billion laughs" alias bomb must not expand without bound.
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(",")}]`,
      );
    bomb.push("kind: Ingress", "apiVersion: networking.k8s.io/v1");
    onlyDecodeError(() => fromYaml(bomb.join("\n") + "\n"), "alias bomb");
  });

  it("refuses JSON deeper than the API server's JSON decoder reads (10,000 levels), though go-yaml reads it", () => {
    const doc = (n: number): string =>
      `kind: Ingress\napiVersion: networking.k8s.io/v1\nx: ${"[".repeat(n)}${"]".repeat(n)}\n`;
    // The top-level object is level 1: 9,999 brackets under it are 10,000 JSON levels.
    for (const reading of ["kubectl", "server"] as const) {
      expect(fromYaml(doc(9_999), { reading })).toHaveLength(1);
      const e = decodeError(() => fromYaml(doc(10_000), { reading }));
      expect(e.reason).toBe("exceeded max depth of 10000 in the JSON the YAML converts to");
      expect([e.document, e.line, e.column]).toEqual([1, 3, 4 + 9_999]); // the 10,000th bracket
    }
    expect(parseYamlDocuments(doc(10_000))).toHaveLength(1); // YAMLToJSON itself reads it
  });

  it("non-string input", () => {
    for (const v of [null, undefined, 5, {}, new Uint8Array(2)]) {
      expect(decodeError(() => fromYaml(v as never)).format).toBe("yaml");
    }
  });
});

// ------------------------------------------------------------ found by the fuzz campaign (npm run fuzz)
