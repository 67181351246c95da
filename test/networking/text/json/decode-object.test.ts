// An object of a kind decoded field by field (src/networking/text/json/decode-object.ts): keys
// routed to fields case-sensitively (through inlined structs, never by proto-only names), unknown
// and repeated fields dropped or decoded in order, or refused when strict; map keys kept as own
// properties; Time and IntOrString read by their own rules; and Go's words for a type error.

import { describe, expect, it } from "vitest";
import { decode, encode, fromJson, toJsonString } from "../../../../src/networking/index.js";
import type { NetworkingObject } from "../../../../src/networking/index.js";
import { NP, jsonError } from "../../../support/bad-input.js";

describe("JSON: type errors name the path", () => {
  it('creationTimestamp: "yesterday"', () => {
    const e = jsonError(`{${NP},"metadata":{"creationTimestamp":"yesterday"}}`);
    expect(e.path).toBe("metadata.creationTimestamp");
    expect(e.reason).toMatch(/RFC 3339/);
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
});

describe("a value of the wrong type: the API server's message (sigs.k8s.io/json), byte for byte", () => {
  const ING = '"kind":"Ingress","apiVersion":"networking.k8s.io/v1"';
  const type = (value: string, struct: string, field: string, goType: string): string =>
    `json: cannot unmarshal ${value} into Go struct field ${struct}.${field} of type ${goType}`;
  const reason = (input: string, strict = false): string => jsonError(input, { strict }).reason;

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

  it("strict: a type error anywhere over an unknown field; an unknown key written twice is unknown, not repeated", () => {
    expect(reason(`{${ING},"colour":1,"spec":{"rules":[{"host":false}]}}`, true)).toBe(
      type("bool", "IngressRule", "spec.rules.host", "string"),
    );
    expect(reason(`{${ING},"colour":1,"colour":2}`, true)).toBe('unknown field "colour"');
    expect(reason(`{${ING},"metadata":{},"metadata":{}}`, true)).toBe('duplicate field "metadata"');
  });
});
