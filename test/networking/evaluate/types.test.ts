// The public constants of the evaluators' shapes (src/networking/evaluate/types.ts).
import { describe, expect, it } from "vitest";
import { create, NetworkPolicySchema, PROTOCOLS, validate } from "../../../src/networking/index.js";

describe("PROTOCOLS", () => {
  it("lists the protocols in the API server's order, frozen", () => {
    expect(PROTOCOLS).toEqual(["TCP", "UDP", "SCTP"]);
    expect(Object.isFrozen(PROTOCOLS)).toBe(true);
  });

  it("holds exactly the values validate accepts for a NetworkPolicy port", () => {
    const policy = (protocol: string) =>
      create(NetworkPolicySchema, {
        metadata: { name: "p", namespace: "web" },
        spec: { podSelector: {}, policyTypes: ["Ingress"], ingress: [{ ports: [{ protocol }] }] },
      });
    for (const protocol of PROTOCOLS) expect(validate(policy(protocol)), protocol).toEqual([]);
    for (const protocol of ["ICMP", "tcp", ""]) {
      expect(
        validate(policy(protocol)).map((e) => e.field),
        protocol,
      ).toEqual(["spec.ingress[0].ports[0].protocol"]);
    }
  });
});
