// fromJson(): every malformed input raises a DecodeError saying where (byte
// offset, path, line/column) and why, and nothing else is thrown; the kind is
// found as the API server finds it; repeated keys cost linear time. How fields
// and scalars are decoded: decode-object.test.ts, decode-scalar.test.ts,
// decoding.test.ts.

import { describe, expect, it } from "vitest";
import { DecodeError, fromJson, fromYaml } from "../../../../src/networking/index.js";
import { NP, renderSegments, jsonError, onlyDecodeError } from "../../../support/bad-input.js";
import { decodeError } from "../../../support/errors.js";

describe("JSON: type errors name the path", () => {
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

describe("JSON: hostile input", () => {
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
});

// ------------------------------------------------------------ JSON/YAML fuzzing

describe("repeated keys cost linear time", () => {
  // With copying, n repeats cost O(n^2): 200,000 would take minutes and hit the test timeout.
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

describe("a value of the wrong type: the API server's message (sigs.k8s.io/json), byte for byte", () => {
  const ING = '"kind":"Ingress","apiVersion":"networking.k8s.io/v1"';
  const reason = (input: string, strict = false): string => jsonError(input, { strict }).reason;
  const yamlReason = (text: string, strict = false): string =>
    decodeError(() => fromYaml(text, { strict, reading: "server" })).reason;

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
