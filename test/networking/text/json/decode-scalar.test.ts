// Scalars as Go reads them into a field (src/networking/text/json/decode-scalar.ts): an integer
// from a number Go's strconv.ParseInt takes and the type's range holds, else Go's type error
// naming the literal; a string or bool only from its own JSON kind.

import { ScalarType } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { fromJson, fromYaml } from "../../../../src/networking/index.js";
import { NP, jsonError } from "../../../support/bad-input.js";
import { decodeError } from "../../../support/errors.js";
import { INT32, INT64, SKIPPED, integer, scalar } from "../../../../src/networking/text/json/decode-scalar.js";
import { Decoding, PROBLEM } from "../../../../src/networking/text/json/decoding.js";
import { FloatLiteral, parseJsonText } from "../../../../src/networking/text/json/parse.js";
import { PathError } from "../../../../src/networking/text/json/path-error.js";

describe("JSON: type errors name the path", () => {
  it("a float where an IntOrString/int32 port goes", () => {
    const e = jsonError(`{${NP},"spec":{"ingress":[{"ports":[{"port":1.5}]}]}}`);
    expect(e.path).toBe("spec.ingress[0].ports[0].port");
    expect(e.reason).toBe(
      "json: cannot unmarshal number 1.5 into Go struct field NetworkPolicyPort.spec.ingress.ports.port of type int32",
    );
    expect(e.line).toBe(1);
  });

  it('"endPort":"x"', () => {
    const e = jsonError(`{${NP},"spec":{"ingress":[{"ports":[{"port":80,"endPort":"x"}]}]}}`);
    expect(e.path).toBe("spec.ingress[0].ports[0].endPort");
    expect(e.reason).toBe(
      "json: cannot unmarshal string into Go struct field NetworkPolicyPort.spec.ingress.ports.endPort of type int32",
    );
  });

  it("int32 overflow 70000000000", () => {
    const e = jsonError(`{${NP},"spec":{"egress":[{"ports":[{"endPort":70000000000}]}]}}`);
    expect(e.path).toBe("spec.egress[0].ports[0].endPort");
    expect(e.reason).toBe(
      "json: cannot unmarshal number 70000000000 into Go struct field NetworkPolicyPort.spec.egress.ports.endPort of type int32",
    );
  });

  it("int64 overflow and a float in an int64", () => {
    expect(jsonError(`{${NP},"metadata":{"generation":9223372036854775808}}`).path).toBe("metadata.generation");
    expect(jsonError(`{${NP},"metadata":{"generation":-9223372036854775809}}`).reason).toBe(
      "json: cannot unmarshal number -9223372036854775809 into Go struct field ObjectMeta.metadata.generation of type int64",
    );
    expect(jsonError(`{${NP},"metadata":{"generation":1e3}}`).path).toBe("metadata.generation");
  });
});

describe("a value of the wrong type: the API server's message (sigs.k8s.io/json), byte for byte", () => {
  const type = (value: string, struct: string, field: string, goType: string): string =>
    `json: cannot unmarshal ${value} into Go struct field ${struct}.${field} of type ${goType}`;
  const reason = (input: string, strict = false): string => jsonError(input, { strict }).reason;
  const yamlReason = (text: string, strict = false): string =>
    decodeError(() => fromYaml(text, { strict, reading: "server" })).reason;

  it("numbers: the literal as written where an integer cannot hold it, the kind alone elsewhere", () => {
    expect(reason(`{${NP},"spec":{"ingress":[{"ports":[{"endPort":2147483648}]}]}}`)).toBe(
      type("number 2147483648", "NetworkPolicyPort", "spec.ingress.ports.endPort", "int32"),
    );
    expect(reason(`{${NP},"metadata":{"generation":1.50}}`)).toBe(
      type("number 1.50", "ObjectMeta", "metadata.generation", "int64"),
    );
    expect(reason(`{${NP},"metadata":{"generation":1E3}}`)).toBe(
      type("number 1E3", "ObjectMeta", "metadata.generation", "int64"),
    );
    expect(reason(`{${NP},"metadata":{"name":1.5}}`)).toBe(type("number", "ObjectMeta", "metadata.name", "string"));
    expect(fromJson(`{${NP},"metadata":{"generation":-0}}`)).toBeDefined();
    // From YAML a float reaches the decoder as json.Marshal writes it: 1.0 is 1, 1e22 is 1e+22.
    const np = "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  generation: ";
    expect(fromYaml(`${np}1.0\n`)).toHaveLength(1);
    expect(yamlReason(`${np}1e22\n`)).toBe(type("number 1e+22", "ObjectMeta", "metadata.generation", "int64"));
    expect(yamlReason(`${np}0.0000001\n`)).toBe(type("number 1e-7", "ObjectMeta", "metadata.generation", "int64"));
  });
});

// ------------------------------------------------------------ scalar() and integer() themselves

const decoding = (format: "json" | "yaml", goMode = true): Decoding =>
  new Decoding({ strict: false, source: undefined, format }, goMode);

/** What `f` throws (PROBLEM is a symbol, not an Error). */
function thrownBy(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("nothing was thrown");
}

describe("integer", () => {
  it("a safe number in range as it is (-0 as 0); a bigint, or -0 written as text, by the same range", () => {
    const d = decoding("json");
    expect(integer(d, 2147483647, INT32, "int32", false)).toBe(2147483647);
    expect(Object.is(integer(d, -0, INT32, "int32", false), 0)).toBe(true);
    expect(integer(d, -5n, INT32, "int32", false)).toBe(-5n);
    expect(integer(d, new FloatLiteral(-0, "-0"), INT32, "int32", false)).toBe(0);
    expect(d.typeError).toBeUndefined();
  });

  it("a miss is skipped with Go's type error naming the literal, or ends decoding for a custom unmarshaler", () => {
    const d = decoding("json");
    expect(integer(d, 2147483648, INT32, "int32", false)).toBeUndefined();
    expect(integer(d, "80", INT32, "int32", false)).toBeUndefined();
    expect(d.typeError?.reason).toBe("json: cannot unmarshal number 2147483648 into Go value of type int32");
    const f = decoding("json");
    expect(integer(f, new FloatLiteral(1, "1.0"), INT32, "int32", false)).toBeUndefined();
    expect(f.typeError?.reason).toBe("json: cannot unmarshal number 1.0 into Go value of type int32");
    const fatal = thrownBy(() => integer(decoding("json"), "80", INT32, "int32", true)) as PathError;
    expect(fatal).toBeInstanceOf(PathError);
    expect(fatal.reason).toBe("json: cannot unmarshal string into Go value of type int32");
    expect(thrownBy(() => integer(decoding("json", false), 1.5, INT32, "int32", false))).toBe(PROBLEM);
  });

  it("an integer beyond 2^53: refused from a JS value (pass a bigint), read from YAML as json.Marshal writes it", () => {
    const big = 2 ** 60;
    expect((thrownBy(() => integer(decoding("json"), big, INT64, "int64", false)) as PathError).reason).toBe(
      `number ${big} cannot be represented exactly; pass a bigint`,
    );
    // The shortest digits that read back as the float, as json.Marshal writes them, not its exact value.
    expect(integer(decoding("yaml"), big, INT64, "int64", false)).toBe(1152921504606847000n);
    const d = decoding("yaml");
    expect(integer(d, 1e21, INT64, "int64", false)).toBeUndefined();
    expect(d.typeError?.reason).toBe("json: cannot unmarshal number 1e+21 into Go value of type int64");
    expect(
      (thrownBy(() => integer(decoding("json"), Number.POSITIVE_INFINITY, INT64, "int64", false)) as PathError).reason,
    ).toBe("number Infinity is not JSON");
  });
});

describe("scalar", () => {
  it("int32 as a number, int64 as a bigint, a string and a bool only from their own kind", () => {
    const d = decoding("json");
    expect(scalar(d, ScalarType.INT32, 7, "int32")).toBe(7);
    expect(scalar(d, ScalarType.INT64, 7, "int64")).toBe(7n);
    expect(scalar(d, ScalarType.BOOL, false, "bool")).toBe(false);
    expect(scalar(d, ScalarType.STRING, "x", "string")).toBe("x");
    expect(d.typeError).toBeUndefined();
    expect(scalar(d, ScalarType.STRING, 5, "types.UID")).toBe(SKIPPED);
    expect(scalar(d, ScalarType.BOOL, "true", "bool")).toBe(SKIPPED);
    expect(d.typeError?.reason).toBe("json: cannot unmarshal number into Go value of type types.UID");
    expect(thrownBy(() => scalar(decoding("json", false), ScalarType.BOOL, 1, "bool"))).toBe(PROBLEM);
  });

  it("a JS value's string is read as Go reads it (a lone surrogate becomes U+FFFD); parsed text's is kept", () => {
    expect(scalar(decoding("json"), ScalarType.STRING, "a\ud800b", "string")).toBe("a\ufffdb");
    const parsed = new Decoding({ strict: false, source: parseJsonText('"x"'), format: "json" }, true);
    expect(scalar(parsed, ScalarType.STRING, "a\ud800b", "string")).toBe("a\ud800b");
  });
});
