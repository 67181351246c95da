// One decoding's state (src/networking/text/json/decoding.ts): the order Go's decoder meets an
// object's members in (the text's, YAML's sorted keys, a JS value's own), where an error points
// (each occurrence of a repeated key), which problem Go reports (the first type error, unless a
// custom unmarshaler's error ends decoding first), and a JS value JSON has no form for refused.

import { describe, expect, it } from "vitest";
import { DecodeError, fromJson, fromYaml } from "../../../../src/networking/index.js";
import { NP, jsonError } from "../../../support/bad-input.js";
import { decodeError } from "../../../support/errors.js";
import {
  Decoding,
  PROBLEM,
  goMembers,
  isObject,
  notJson,
  valueKind,
  type Ctx,
} from "../../../../src/networking/text/json/decoding.js";
import {
  DuplicateKey,
  FloatLiteral,
  parseJsonText,
  type ParsedJson,
} from "../../../../src/networking/text/json/parse.js";
import { PathError } from "../../../../src/networking/text/json/path-error.js";

describe("JSON: type errors name the path", () => {
  // encoding/json reports the first type error and keeps going, so with a
  // repeated key the error is about the occurrence that held the bad value.
  it("a type error in the first of two repeated keys points at that value", () => {
    const text = `{${NP},"metadata":{"generation":"x","generation":1}}`;
    const e = jsonError(text);
    expect(e.path).toBe("metadata.generation");
    expect(e.offset).toBe(text.indexOf('"x"'));
  });
});

describe("a value of the wrong type: the API server's message (sigs.k8s.io/json), byte for byte", () => {
  const ING = '"kind":"Ingress","apiVersion":"networking.k8s.io/v1"';
  const type = (value: string, struct: string, field: string, goType: string): string =>
    `json: cannot unmarshal ${value} into Go struct field ${struct}.${field} of type ${goType}`;
  const reason = (input: string, strict = false): string => jsonError(input, { strict }).reason;

  it("the first type error in the order the decoder reads; a Time's or IntOrString's error ends decoding, over it", () => {
    expect(reason(`{${ING},"metadata":{"labels":{"a":true},"creationTimestamp":5}}`)).toBe(
      type("number", "ObjectMeta", "metadata.creationTimestamp", "string"),
    );
    expect(reason(`{${ING},"spec":{"rules":[{"host":"a"},5,{"host":6}]}}`)).toBe(
      type("number", "IngressSpec", "spec.rules", "v1.IngressRule"),
    );
    // The text's order, where the JS object lists an index-like key first.
    const e = jsonError(`{${ING},"metadata":{"labels":{"b":true,"1":5}}}`);
    expect([e.reason, e.path]).toEqual([type("bool", "ObjectMeta", "metadata.labels", "string"), "metadata.labels.b"]);
    // A repeated key: each value where it is written.
    expect(reason(`{${ING},"spec":5,"metadata":{"name":[]},"spec":{}}`)).toBe(
      type("number", "Ingress", "spec", "v1.IngressSpec"),
    );
    // YAML reaches the decoder as JSON with its keys sorted.
    const y = decodeError(() =>
      fromYaml("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  labels:\n    b: true\n    a: 1\n"),
    );
    expect([y.reason, y.path, y.line]).toEqual([
      type("number", "ObjectMeta", "metadata.labels", "string"),
      "metadata.labels.a",
      6,
    ]);
  });
});

describe("JSON: hostile input", () => {
  it("non-JSON JS values give DecodeError", () => {
    for (const v of [
      undefined,
      () => 1,
      Symbol("s"),
      5n,
      new Date(0),
      { kind: "Ingress", apiVersion: "networking.k8s.io/v1", metadata: { name: undefined } },
    ]) {
      let thrown: unknown;
      try {
        fromJson(v as never);
      } catch (e) {
        thrown = e;
      }
      if (thrown !== undefined) expect(thrown, String(v)).toBeInstanceOf(DecodeError);
    }
  });
});

// ------------------------------------------------------------ the state itself

const ctxOf = (format: "json" | "yaml", source?: ParsedJson): Ctx => ({ strict: true, source, format });

/** What `f` throws (PROBLEM is a symbol, not an Error). */
function thrownBy(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("nothing was thrown");
}

describe("Decoding", () => {
  it("outside Go mode keeps no place, and every problem throws PROBLEM at once", () => {
    const d = new Decoding(ctxOf("json"), false);
    d.enter("spec");
    d.inField("Ingress", "spec");
    expect([d.path, d.goFields, d.goStruct]).toEqual([[], [], ""]);
    for (const problem of [
      () => d.mismatch("bool", "string"),
      () => d.strictProblem('unknown field "x"'),
      () => d.fail("bad"),
      () => d.fatalMismatch("bool", "string"),
      () => d.failBelow(new PathError("bad", ["a"])),
    ])
      expect(thrownBy(problem)).toBe(PROBLEM);
  });

  it("in Go mode puts aside the first type error and the first strict problem, each where it was met", () => {
    const d = new Decoding(ctxOf("json"), true);
    d.enter("spec");
    d.inField("Ingress", "spec");
    d.enter("rules", 1);
    d.inField("IngressSpec", "rules");
    d.enter(0);
    d.mismatch("bool", "v1.IngressRule");
    d.mismatch("string", "v1.IngressRule");
    d.strictProblem('duplicate field "rules"', true);
    d.strictProblem('unknown field "x"');
    expect(d.typeError?.reason).toBe(
      "json: cannot unmarshal bool into Go struct field IngressSpec.spec.rules of type v1.IngressRule",
    );
    expect([d.typeError?.path, d.typeError?.occurrences]).toEqual([
      ["spec", "rules", 0],
      [undefined, 1, undefined],
    ]);
    // lastOccurrence: the error points at the last value of the repeated key.
    expect([d.strictError?.reason, d.strictError?.occurrences]).toEqual([
      'duplicate field "rules"',
      [undefined, 1, undefined],
    ]);
    d.leave();
    d.outOfField("Ingress", 1);
    d.leave();
    expect([d.path, d.goFields, d.goStruct]).toEqual([["spec"], ["spec"], "Ingress"]);
  });

  it("in Go mode fail and fatalMismatch end decoding where it is; failBelow places an error from below", () => {
    const d = new Decoding(ctxOf("json"), true);
    d.enter("metadata");
    d.inField("ObjectMeta", "metadata");
    const fatal = thrownBy(() => d.fatalMismatch("bool", "string")) as PathError;
    expect([fatal.reason, fatal.path]).toEqual([
      "json: cannot unmarshal bool into Go struct field ObjectMeta.metadata of type string",
      ["metadata"],
    ]);
    const below = thrownBy(() => d.failBelow(new PathError("too deep", ["f:spec", 2]))) as PathError;
    expect(below).toBeInstanceOf(PathError);
    expect([below.reason, below.path]).toEqual(["too deep", ["metadata", "f:spec", 2]]);
    expect(d.typeError).toBeUndefined();
  });
});

describe("goMembers: the order Go's decoder meets an object's members in", () => {
  it("parsed text: the text's order, each value of a repeated key with its occurrence", () => {
    const parsed = parseJsonText('{"b":1,"1":2,"b":3,"a":4}');
    const members = goMembers(new Decoding(ctxOf("json", parsed), true), parsed.value as never);
    expect(members).toEqual([
      ["b", 1, 0],
      ["1", 2, undefined],
      ["b", 3, 1],
      ["a", 4, undefined],
    ]);
  });

  it("a JS value: its own key order, undefined members left out; from YAML: keys sorted, as Go's map writes them", () => {
    const value = { b: 1, a: undefined, 1: 2, c: new DuplicateKey([3, 4]) };
    expect(goMembers(new Decoding(ctxOf("json"), true), value as never)).toEqual([
      ["1", 2, undefined],
      ["b", 1, undefined],
      ["c", 3, 0],
      ["c", 4, 1],
    ]);
    expect(goMembers(new Decoding(ctxOf("yaml"), true), { b: 1, B: 2, a: 3 })).toEqual([
      ["B", 2, undefined],
      ["a", 3, undefined],
      ["b", 1, undefined],
    ]);
  });
});

describe("valueKind, notJson and isObject", () => {
  it("names each JSON kind as Go's type errors do, and refuses what JSON has no form for", () => {
    const d = new Decoding(ctxOf("json"), true);
    const kinds = [null, true, 1, 2n, new FloatLiteral(1.5, "1.5"), "s", [], {}].map((v) => valueKind(d, v));
    expect(kinds).toEqual(["null", "bool", "number", "number", "number", "string", "array", "object"]);
    for (const [v, reason] of [
      [undefined, "undefined is not a JSON value"],
      [Number.NaN, "number NaN is not JSON"],
      [() => 1, "a function is not a JSON value"],
      [Symbol("s"), "a symbol is not a JSON value"],
    ] as const) {
      expect(notJson(v)).toBe(reason);
      expect((thrownBy(() => valueKind(d, v)) as PathError).reason).toBe(reason);
    }
    expect(thrownBy(() => valueKind(new Decoding(ctxOf("json"), false), undefined))).toBe(PROBLEM);
  });

  it("isObject: a JSON object only, not a list, a number literal or a repeated key's values", () => {
    expect([{}, parseJsonText('{"a":1}').value].map(isObject)).toEqual([true, true]);
    expect([null, [], "x", new FloatLiteral(1, "1.0"), new DuplicateKey([{}])].map(isObject)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
