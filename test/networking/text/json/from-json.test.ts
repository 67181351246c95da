// fromJson(): every malformed input raises a DecodeError saying where (byte
// offset, path, line/column) and why, and nothing else is thrown; repeated
// keys cost linear time.

import { describe, expect, it } from "vitest";
import { DecodeError, decode, encode, fromJson, fromYaml, toJsonString } from "../../../../src/networking/index.js";
import type { NetworkingObject } from "../../../../src/networking/index.js";
import { NP, renderSegments, jsonError, onlyDecodeError } from "../../../support/bad-input.js";
import { decodeError } from "../../../support/errors.js";

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

  it('creationTimestamp: "yesterday"', () => {
    const e = jsonError(`{${NP},"metadata":{"creationTimestamp":"yesterday"}}`);
    expect(e.path).toBe("metadata.creationTimestamp");
    expect(e.reason).toMatch(/RFC 3339/);
  });

  it("wrong JSON types at various places: path, segments, and the offending value's position", () => {
    // "@" marks where the offending value starts; it is removed before decoding.
    const cases: [string, string][] = [
      [`{${NP},"metadata":{"name":@5}}`, "metadata.name"],
      [`{${NP},"metadata":{"labels":{"a":@1}}}`, "metadata.labels.a"],
      [`{${NP},"metadata":{"labels":@[]}}`, "metadata.labels"],
      [`{${NP},"metadata":{"finalizers":@"x"}}`, "metadata.finalizers"],
      [`{${NP},"metadata":{"finalizers":["a",@3]}}`, "metadata.finalizers[1]"],
      [`{${NP},"metadata":{"ownerReferences":[{"controller":@"yes"}]}}`, "metadata.ownerReferences[0].controller"],
      [`{${NP},"spec":@[]}`, "spec"],
      [
        `{${NP},"spec":{"podSelector":{"matchExpressions":[{"values":[null,@7]}]}}}`,
        "spec.podSelector.matchExpressions[0].values[1]",
      ],
      [`{${NP},"spec":{"ingress":[{"from":[{"ipBlock":{"cidr":@true}}]}]}}`, "spec.ingress[0].from[0].ipBlock.cidr"],
      [`{${NP},"spec":{"ingress":[{"ports":[{"port":@true}]}]}}`, "spec.ingress[0].ports[0].port"],
      [`{${NP},"spec":{"ingress":[{"ports":[{"port":@{}}]}]}}`, "spec.ingress[0].ports[0].port"],
      [
        `{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","spec":{"rules":[{"http":{"paths":[{"backend":{"service":{"port":{"number":@"80"}}}}]}}]}}`,
        "spec.rules[0].http.paths[0].backend.service.port.number",
      ],
      [
        `{"kind":"IngressList","apiVersion":"networking.k8s.io/v1","items":[{},{"metadata":{"generation":@"1"}}]}`,
        "items[1].metadata.generation",
      ],
      [
        `{"kind":"ServiceCIDR","apiVersion":"networking.k8s.io/v1","status":{"conditions":[{"lastTransitionTime":@5}]}}`,
        "status.conditions[0].lastTransitionTime",
      ],
    ];
    for (const [marked, path] of cases) {
      const at = marked.indexOf("@");
      const text = marked.slice(0, at) + marked.slice(at + 1);
      const e = jsonError(text);
      expect(e.path, text).toBe(path);
      expect(renderSegments(e.segments ?? []), text).toBe(path);
      expect(e.offset, text).toBe(at);
      expect([e.line, e.column], text).toEqual([1, at + 1]);
    }
  });

  it("segments give the structured path: keys and numeric indexes", () => {
    const e = jsonError(`{${NP},"spec":{"ingress":[{"ports":[{"port":1.5}]}]}}`);
    expect(e.segments).toEqual(["spec", "ingress", 0, "ports", 0, "port"]);
    // A label key with dots and a slash is one segment, though the rendered path cannot tell.
    const text = `{${NP},"metadata":{"labels":{"app.kubernetes.io/name":5}}}`;
    const l = jsonError(text);
    expect(l.segments).toEqual(["metadata", "labels", "app.kubernetes.io/name"]);
    expect(l.path).toBe("metadata.labels.app.kubernetes.io/name");
    expect(l.offset).toBe(text.indexOf(":5}") + 1);
    expect(l.column).toBe(text.indexOf(":5}") + 2);
    // A numeric-looking key stays a string; only array indexes are numbers.
    expect(jsonError(`{${NP},"metadata":{"labels":{"0":5}}}`).segments).toEqual(["metadata", "labels", "0"]);
    expect(
      jsonError(
        `{"kind":"IngressList","apiVersion":"networking.k8s.io/v1","items":[{},{"metadata":{"generation":"1"}}]}`,
      ).segments,
    ).toEqual(["items", 1, "metadata", "generation"]);
    // The same for an already-parsed value, which has no text position.
    const v = jsonError({
      kind: "NetworkPolicy",
      apiVersion: "networking.k8s.io/v1",
      metadata: { labels: { "app.kubernetes.io/name": 5 } },
    });
    expect(v.segments).toEqual(["metadata", "labels", "app.kubernetes.io/name"]);
    expect(v.line).toBeUndefined();
  });

  // A map key that looks like an index stays a string segment.
  it('a map key "[0]" is a string segment and its value is located', () => {
    const text = `{${NP},"metadata":{"labels":{"[0]":5}}}`;
    const e = jsonError(text);
    expect(e.segments).toEqual(["metadata", "labels", "[0]"]);
    expect(e.offset).toBe(text.indexOf(":5}") + 1);
  });

  // encoding/json reports the first type error and keeps going, so with a
  // repeated key the error is about the occurrence that held the bad value.
  it("a type error in the first of two repeated keys points at that value", () => {
    const text = `{${NP},"metadata":{"generation":"x","generation":1}}`;
    const e = jsonError(text);
    expect(e.path).toBe("metadata.generation");
    expect(e.offset).toBe(text.indexOf('"x"'));
  });

  it("the same errors for an already-parsed value (no line, but the path)", () => {
    const e = jsonError({
      kind: "NetworkPolicy",
      apiVersion: "networking.k8s.io/v1",
      spec: { ingress: [{ ports: [{ port: 1.5 }] }] },
    });
    expect(e.path).toBe("spec.ingress[0].ports[0].port");
    expect(e.segments).toEqual(["spec", "ingress", 0, "ports", 0, "port"]);
    expect(e.line).toBeUndefined();
    expect(e.offset).toBeUndefined();
  });

  it("kind and apiVersion problems", () => {
    expect(jsonError(`{"apiVersion":"networking.k8s.io/v1"}`).reason).toMatch(/Kind/);
    expect(jsonError(`{"kind":"Ingress"}`).reason).toMatch(/apiVersion/);
    expect(jsonError(`{"kind":"Pod","apiVersion":"v1"}`).reason).toMatch(/unsupported apiVersion\/kind "v1\/Pod"/);
    expect(jsonError(`{"kind":5,"apiVersion":"v1"}`).path).toBe("kind");
    expect(jsonError(`[]`).reason).toMatch(
      /^couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct \{/,
    );
    expect(jsonError(`"Ingress"`).reason).toMatch(/cannot unmarshal string into Go value of type struct \{/);
    // Go reads null into the kind's struct as nothing: no kind.
    expect(jsonError(`null`).reason).toBe("Object 'Kind' is missing");
  });

  it("lines and columns point into pretty JSON", () => {
    const text = `{\n  ${NP.replace(",", ",\n  ")},\n  "spec": {\n    "ingress": [\n      {"ports": [{"port": 1.5}]}\n    ]\n  }\n}`;
    const e = jsonError(text);
    expect(e.path).toBe("spec.ingress[0].ports[0].port");
    // The offending value, 1.5, is on line 6, column 27.
    expect(e.line).toBe(6);
    expect(e.column).toBe(27);
    expect(e.message).toMatch(/line 6, column 27/);
  });
});

describe("JSON: strict mode", () => {
  it("an unknown field is dropped by default and rejected with its path when strict", () => {
    const text = `{${NP},"spec":{"ingress":[{"bogus":1,"ports":[{"port":80}]}]}}`;
    expect(toJsonString(fromJson(text))).toBe(
      toJsonString(fromJson(`{${NP},"spec":{"ingress":[{"ports":[{"port":80}]}]}}`)),
    );
    const e = jsonError(text, { strict: true });
    expect(e.path).toBe("spec.ingress[0].bogus");
    expect(e.reason).toMatch(/unknown field "bogus"/);
  });

  it("case matters: Go matches keys case-sensitively (sigs.k8s.io/json)", () => {
    expect(jsonError(`{${NP},"Metadata":{"name":"a"}}`, { strict: true }).path).toBe("Metadata");
    expect(toJsonString(fromJson(`{${NP},"Metadata":{"name":"a"}}`))).not.toContain('"a"');
  });

  it("proto-only names are not JSON keys (aPIGroup, ingressRuleValue, Raw)", () => {
    const ic = '"kind":"IngressClass","apiVersion":"networking.k8s.io/v1"';
    expect(jsonError(`{${ic},"spec":{"parameters":{"aPIGroup":"x"}}}`, { strict: true }).path).toBe(
      "spec.parameters.aPIGroup",
    );
    const ing = '"kind":"Ingress","apiVersion":"networking.k8s.io/v1"';
    expect(jsonError(`{${ing},"spec":{"rules":[{"ingressRuleValue":{}}]}}`, { strict: true }).path).toBe(
      "spec.rules[0].ingressRuleValue",
    );
  });

  it("a duplicate field is decoded in order by default and rejected with its path when strict", () => {
    const text = `{${NP},"metadata":{"name":"a","name":"b"}}`;
    expect(toJsonString(fromJson(text))).toContain('"name":"b"');
    const e = jsonError(text, { strict: true });
    expect(e.path).toBe("metadata.name");
    expect(e.segments).toEqual(["metadata", "name"]);
    expect(e.offset).toBe(text.indexOf('"b"')); // the repeated key's value
    expect(e.reason).toMatch(/duplicate field "name"/);
    expect(jsonError(`{${NP},"metadata":{"labels":{"a":"1","a":"2"}}}`, { strict: true }).path).toBe(
      "metadata.labels.a",
    );
  });
});

describe("JSON: hostile input", () => {
  it("__proto__ keys in labels stay own properties and pollute nothing", () => {
    const text = `{${NP},"metadata":{"labels":{"__proto__":"x","constructor":"y","a":"b"},"annotations":{"__proto__":"z"}}}`;
    const o = fromJson(text) as NetworkingObject & {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
    };
    const labels = o.metadata.labels;
    expect(Object.hasOwn(labels, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(labels, "__proto__")?.value).toBe("x");
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(Object.keys(labels).sort()).toEqual(["__proto__", "a", "constructor"]);
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
    expect(toJsonString(o)).toContain('"labels":{"__proto__":"x","a":"b","constructor":"y"}');
    // And through protobuf.
    const back = decode(encode(o)) as typeof o;
    expect(Object.getOwnPropertyDescriptor(back.metadata.labels, "__proto__")?.value).toBe("x");
    expect(Object.getOwnPropertyDescriptor(back.metadata.annotations, "__proto__")?.value).toBe("z");
  });

  it("__proto__ as a field name is an unknown field, not a prototype", () => {
    const text = `{${NP},"__proto__":{"polluted":1},"metadata":{"__proto__":{"name":"evil"}},"spec":{"__proto__":{"podSelector":null}}}`;
    const o = fromJson(text);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(toJsonString(o)).not.toContain("evil");
    expect(jsonError(text, { strict: true }).path).toBe("__proto__");
    const v = JSON.parse(text) as unknown; // JSON.parse makes "__proto__" an own key too
    expect(() => fromJson(v as never)).not.toThrow();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("a 10,000-deep nested JSON array or object gives DecodeError", () => {
    const n = 10_000;
    for (const text of [
      "[".repeat(n) + "]".repeat(n),
      "[".repeat(n),
      '{"a":'.repeat(n) + "1" + "}".repeat(n),
      `{${NP},"metadata":{"labels":${"[".repeat(n)}${"]".repeat(n)}}}`,
      `{${NP},"metadata":{"managedFields":[{"fieldsV1":${'{"a":'.repeat(n)}{}${"}".repeat(n)}}]}}`,
    ]) {
      const e = jsonError(text);
      expect(e.reason).toMatch(/nest|deep/);
    }
  });

  it("a 10,000-deep JS value, and a cyclic one, give DecodeError", () => {
    let deepArray: unknown = [];
    for (let i = 0; i < 10_000; i++) deepArray = [deepArray];
    let deepObject: unknown = {};
    for (let i = 0; i < 10_000; i++) deepObject = { a: deepObject };
    const ing = (meta: unknown) => ({ kind: "Ingress", apiVersion: "networking.k8s.io/v1", metadata: meta });
    // Where the schema does not nest, a deep value is just the wrong type.
    expect(jsonError(ing({ labels: deepArray })).path).toBe("metadata.labels");
    // fieldsV1 holds arbitrary JSON, so depth and cycles must be checked there.
    expect(jsonError(ing({ managedFields: [{ fieldsV1: deepObject }] })).reason).toMatch(/deep/);
    expect(jsonError(ing({ managedFields: [{ fieldsV1: { a: deepArray } }] })).reason).toMatch(/deep/);
    const cyclic: Record<string, unknown> = {};
    cyclic["f:spec"] = cyclic;
    expect(jsonError(ing({ managedFields: [{ fieldsV1: cyclic }] })).reason).toMatch(/cycl|deep/);
    // A cycle through known fields (spec.spec...) is only unknown fields.
    const selfRef: Record<string, unknown> = { kind: "Ingress", apiVersion: "networking.k8s.io/v1" };
    selfRef["spec"] = selfRef;
    onlyDecodeError(() => fromJson(selfRef as never), "self-referencing value");
  });

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

// ------------------------------------------------------------ JSON/YAML fuzzing

describe("repeated keys cost linear time", () => {
  // With copying, n repeats cost O(n^2): 200,000 would take minutes and hit the test timeout.
  it("a key repeated 200,000 times decodes, keeping the last value", () => {
    const text = `{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","metadata":{${Array.from({ length: 200_000 }, (_, i) => `"name":"n${i}"`).join(",")}}}`;
    const obj = fromJson(text) as unknown as { metadata: { name: string } };
    expect(obj.metadata.name).toBe("n199999");
  });

  it("an error in the last of 100,000 repeats is located there (the locating re-parse is linear too)", () => {
    const reps = Array.from({ length: 100_000 }, () => '"generation":1');
    reps.push('"generation":"x"');
    const text = `{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","metadata":{${reps.join(",")}}}`;
    let err: unknown;
    try {
      fromJson(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as DecodeError).offset).toBe(text.lastIndexOf('"x"'));
  });
});

// ------------------------------------------------------------ Go's words for a value of the wrong type

describe("a value of the wrong type: the API server's message (sigs.k8s.io/json), byte for byte", () => {
  const ING = '"kind":"Ingress","apiVersion":"networking.k8s.io/v1"';
  const type = (value: string, struct: string, field: string, goType: string): string =>
    `json: cannot unmarshal ${value} into Go struct field ${struct}.${field} of type ${goType}`;
  const reason = (input: string, strict = false): string => jsonError(input, { strict }).reason;
  const yamlReason = (text: string, strict = false): string =>
    decodeError(() => fromYaml(text, { strict, reading: "server" })).reason;

  it("names the struct holding the field, the JSON names from the root (an embedded struct by its Go name) and the Go type", () => {
    const cases: [string, string][] = [
      [
        `{${ING},"spec":{"rules":[{"http":{"paths":[{"backend":{"service":{"name":true}}}]}}]}}`,
        type("bool", "IngressServiceBackend", "spec.rules.IngressRuleValue.http.paths.backend.service.name", "string"),
      ],
      [
        `{${ING},"spec":{"rules":[{"http":{"paths":[{"pathType":1}]}}]}}`,
        type("number", "HTTPIngressPath", "spec.rules.IngressRuleValue.http.paths.pathType", "v1.PathType"),
      ],
      [
        `{${ING},"spec":{"rules":[{"http":[]}]}}`,
        type("array", "IngressRule", "spec.rules.IngressRuleValue.http", "v1.HTTPIngressRuleValue"),
      ],
      [`{${ING},"spec":{"rules":{}}}`, type("object", "IngressSpec", "spec.rules", "[]v1.IngressRule")],
      [`{${ING},"spec":{"rules":["a"]}}`, type("string", "IngressSpec", "spec.rules", "v1.IngressRule")],
      [`{${ING},"spec":"a"}`, type("string", "Ingress", "spec", "v1.IngressSpec")],
      [`{${ING},"metadata":{"labels":["a"]}}`, type("array", "ObjectMeta", "metadata.labels", "map[string]string")],
      [`{${ING},"metadata":{"labels":{"a":{}}}}`, type("object", "ObjectMeta", "metadata.labels", "string")],
      [`{${ING},"metadata":{"uid":1}}`, type("number", "ObjectMeta", "metadata.uid", "types.UID")],
      [
        `{${ING},"status":{"loadBalancer":{"ingress":[{"ports":[{"protocol":1}]}]}}}`,
        type("number", "IngressPortStatus", "status.loadBalancer.ingress.ports.protocol", "v1.Protocol"),
      ],
      [`{${NP},"spec":{"policyTypes":[true]}}`, type("bool", "NetworkPolicySpec", "spec.policyTypes", "v1.PolicyType")],
      [
        `{${NP},"spec":{"egress":[{"ports":[{"protocol":{}}]}]}}`,
        type("object", "NetworkPolicyPort", "spec.egress.ports.protocol", "v1.Protocol"),
      ],
      [
        `{"kind":"IngressList","apiVersion":"networking.k8s.io/v1","items":[{"apiVersion":1}]}`,
        type("number", "Ingress", "items.TypeMeta.apiVersion", "string"),
      ],
    ];
    for (const [input, want] of cases) expect(reason(input), input).toBe(want);
  });

  it("a Time and an IntOrString read the value with encoding/json themselves: its type, the field's place", () => {
    expect(reason(`{${ING},"metadata":{"creationTimestamp":false}}`)).toBe(
      type("bool", "ObjectMeta", "metadata.creationTimestamp", "string"),
    );
    expect(reason(`{${NP},"spec":{"ingress":[{"ports":[{"port":[80]}]}]}}`)).toBe(
      type("array", "NetworkPolicyPort", "spec.ingress.ports.port", "int32"),
    );
  });

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

  it("strict: a type error anywhere over an unknown field; an unknown key written twice is unknown, not repeated", () => {
    expect(reason(`{${ING},"colour":1,"spec":{"rules":[{"host":false}]}}`, true)).toBe(
      type("bool", "IngressRule", "spec.rules.host", "string"),
    );
    expect(reason(`{${ING},"colour":1,"colour":2}`, true)).toBe('unknown field "colour"');
    expect(reason(`{${ING},"metadata":{},"metadata":{}}`, true)).toBe('duplicate field "metadata"');
  });

  it("kind and apiVersion are read first, by encoding/json: keys in any case, worded as that step", () => {
    const first = "couldn't get version/kind; json parse error: json: cannot unmarshal";
    expect(reason(`{${ING},"KIND":5}`)).toBe(`${first} number into Go struct field .kind of type string`);
    expect(reason(`{${ING},"\u212aind":5}`)).toBe(`${first} number into Go struct field .kind of type string`);
    expect(reason(`{${ING},"apiVer\u017fion":[]}`)).toBe(
      `${first} array into Go struct field .apiVersion of type string`,
    );
    expect(reason("true")).toBe(
      `${first} bool into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
    expect(yamlReason("apiVersion: networking.k8s.io/v1\nkind: [Ingress]\n")).toBe(
      `${first} array into Go struct field .kind of type string`,
    );
    // The same for a JS value, which the fast path hands over.
    expect(jsonError({ kind: "Ingress", apiVersion: "networking.k8s.io/v1", Kind: 1 }).reason).toBe(
      `${first} number into Go struct field .kind of type string`,
    );
  });
});
