import { describe, expect, it } from "vitest";
import { probeRequests } from "../../../conformance/campaign/probes.js";
import { predict } from "../../../conformance/campaign/predict.js";

describe("probeRequests", () => {
  const probes = probeRequests();

  it("the same requests every time, without a seed", () => {
    expect(JSON.stringify(probeRequests())).toBe(JSON.stringify(probes));
  });

  it("tries every kind, mostly as JSON creates, a few as YAML, under each field validation", () => {
    expect(probes.length).toBeGreaterThan(700);
    expect(new Set(probes.map((p) => p.kind))).toEqual(
      new Set(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"]),
    );
    expect(new Set(probes.map((p) => p.operation))).toEqual(new Set(["create"]));
    expect(new Set(probes.map((p) => p.format))).toEqual(new Set(["json", "yaml"]));
    expect(new Set(probes.map((p) => p.fieldValidation))).toEqual(new Set(["Strict", "Warn", "Ignore"]));
    expect(new Set(probes.map((p) => `${p.kind} ${p.source}`)).size).toBe(probes.length);
  });

  it("a value of another type at each field: clusterwire refuses nearly all of them while decoding", () => {
    const refused = probes.filter((p) => predict(p, "1.35").failure?.reason === "BadRequest");
    expect(refused.length / probes.length).toBeGreaterThan(0.95);
    // Each names its field the way the server's decoder does.
    const labels = probes.find((p) => p.source === "probe metadata.labels.k = true");
    expect(predict(labels!, "1.35").failure?.message).toBe(
      'Ingress in version "v1" cannot be handled as a Ingress: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string',
    );
  });
});
