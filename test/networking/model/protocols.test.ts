// The protocol list (src/networking/model/protocols.ts): the one home of the values a NetworkPolicy
// port may name, read by validation (which refuses any other) and by the policy engine.
import { describe, expect, it } from "vitest";
import { PROTOCOLS, isProtocol } from "../../../src/networking/model/protocols.js";
import { PROTOCOLS as PUBLIC_PROTOCOLS, create, NetworkPolicySchema, validate } from "../../../src/networking/index.js";

describe("PROTOCOLS and isProtocol", () => {
  it("lists TCP, UDP and SCTP in the API server's order, frozen, and is the list clusterwire/networking exports", () => {
    expect(PROTOCOLS).toEqual(["TCP", "UDP", "SCTP"]);
    expect(Object.isFrozen(PROTOCOLS)).toBe(true);
    expect(PUBLIC_PROTOCOLS).toBe(PROTOCOLS);
  });

  it("isProtocol takes exactly the listed spellings: case matters, and nothing else passes", () => {
    for (const p of PROTOCOLS) expect(isProtocol(p), p).toBe(true);
    for (const p of ["tcp", "Udp", "sctp", "ICMP", "", " TCP", "TCP ", "TCP\u0000", undefined])
      expect(isProtocol(p), JSON.stringify(p)).toBe(false);
  });

  it("validation refuses any other protocol, naming these as the supported values, in this order", () => {
    const policy = (protocol: string) =>
      create(NetworkPolicySchema, {
        metadata: { name: "p", namespace: "web" },
        spec: { podSelector: {}, policyTypes: ["Egress"], egress: [{ ports: [{ protocol }] }] },
      });
    for (const p of PROTOCOLS) expect(validate(policy(p)), p).toEqual([]);
    const [error, ...rest] = validate(policy("ICMP"));
    expect(rest).toEqual([]);
    expect(error?.field).toBe("spec.egress[0].ports[0].protocol");
    expect(error?.type).toBe("FieldValueNotSupported");
    expect(error?.detail).toBe('supported values: "TCP", "UDP", "SCTP"');
  });
});
