// Each documented difference is recognised only for what it says, and nothing else passes as one.
import { describe, expect, it } from "vitest";
import { explain, orderFree } from "../../../conformance/campaign/known.js";

const status = (message: string, causes: { field: string; message: string }[]) =>
  JSON.stringify({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason: "Invalid",
    details: { causes },
    code: 422,
  });

describe("explain", () => {
  it("an empty list printed [] by the server and null by clusterwire", () => {
    const server = "spec: Invalid value: []: either `defaultBackend` or `rules` must be specified";
    expect(explain(server, server.replace("[]", "null"))?.id).toBe("empty-list");
  });

  it("an update's generation one higher on the server, for a spec with an empty list", () => {
    const ours = '{"metadata":{"name":"a","generation":1},"spec":{"x":"y"}}';
    const server = ours.replace('"generation":1', '"generation":2');
    expect(explain(server, ours, '{"spec":{"ports":[]}}')?.id).toBe("empty-list");
    // Without an empty list in the request, or by more than one, it is a disagreement.
    expect(explain(server, ours, '{"spec":{"podSelector":{}}}')).toBeUndefined();
    expect(explain(ours.replace('"generation":1', '"generation":3'), ours, '{"spec":{"ports":[]}}')).toBeUndefined();
  });

  it("nothing for a decode message worded otherwise: Go's words are clusterwire's", () => {
    const server =
      'Ingress in version \\"v1\\" cannot be handled as a Ingress: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string';
    const ours = 'Ingress in version \\"v1\\" cannot be handled as a Ingress: cannot unmarshal bool into a string';
    expect(explain(server, ours)).toBeUndefined();
  });

  it("the same errors of one map in another order", () => {
    const a = { field: "metadata.labels", message: 'Invalid value: "-a": x' };
    const b = { field: "metadata.labels", message: 'Invalid value: "b-": x' };
    const server = status(
      'N "n" is invalid: [metadata.labels: Invalid value: "-a": x, metadata.labels: Invalid value: "b-": x]',
      [a, b],
    );
    const ours = status(
      'N "n" is invalid: [metadata.labels: Invalid value: "b-": x, metadata.labels: Invalid value: "-a": x]',
      [b, a],
    );
    expect(explain(server, ours)?.id).toBe("map-order");
  });

  it("nothing for other differences: another error, another value, one error more", () => {
    const a = { field: "spec.x", message: "Required value" };
    const b = { field: "spec.y", message: "Required value" };
    expect(explain(status("m", [a]), status("m", [b]))).toBeUndefined();
    expect(explain(status("m", [a]), status("m", [a, a]))).toBeUndefined();
    expect(explain("Invalid value: 80: x", "Invalid value: 70: x")).toBeUndefined();
  });

  it("orderFree leaves non-Status bodies alone", () => {
    expect(orderFree('{"kind":"Ingress"}')).toBeUndefined();
    expect(orderFree("not json")).toBeUndefined();
  });
});
