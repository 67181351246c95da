import { describe, expect, it } from "vitest";
import { predict, summary } from "../../../conformance/campaign/predict.js";
import type { CampaignRequest } from "../../../conformance/campaign/request.js";

describe("summary: how the API server shows a body whose kind it cannot read", () => {
  it("the first 30 bytes, as text when it starts with {, in hex otherwise", () => {
    expect(summary("")).toBe("<empty>");
    expect(summary('{"kind":5}')).toBe('{"kind":5}');
    expect(summary(`{"kind":5,"apiVersion":"networking.k8s.io/v1"}`)).toBe('{"kind":5,"apiVersion":"networ ...');
    expect(summary("[1]")).toBe("5b315d");
    expect(summary("kind: [1]\napiVersion: networking.k8s.io/v1\n")).toBe(
      "6b696e643a205b315d0a61706956657273696f6e3a206e6574776f726b69 ...",
    );
  });

  it("a UTF-8 sequence cut at byte 30: one U+FFFD for each of its bytes, as Go's JSON writes it", () => {
    // 28 ASCII bytes, then € (3 bytes): 2 of them within the 30.
    expect(summary(`{"a":"${"x".repeat(22)}€"}`)).toBe(`{"a":"${"x".repeat(22)}\ufffd\ufffd ...`);
  });
});

describe("predict: a body refused while decoding", () => {
  const request = (body: string): CampaignRequest => ({
    source: "test",
    kind: "Ingress",
    operation: "create",
    format: "json",
    accept: "json",
    fieldValidation: "Strict",
    namespace: "default",
    body,
  });

  it("a type error: cannot be handled as the kind", () => {
    const body = '{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","spec":{"rules":5}}';
    expect(predict(request(body), "1.35").failure?.message).toBe(
      'Ingress in version "v1" cannot be handled as a Ingress: json: cannot unmarshal number into Go struct field IngressSpec.spec.rules of type []v1.IngressRule',
    );
  });

  it("a kind of the wrong type: the object is unrecognized, shown by its first bytes", () => {
    const body = '{"kind":5,"apiVersion":"networking.k8s.io/v1"}';
    expect(predict(request(body), "1.35").failure?.message).toBe(
      `the object provided is unrecognized (must be of type Ingress): couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5,"apiVersion":"networ ...)`,
    );
  });
});
