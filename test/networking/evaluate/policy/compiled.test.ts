// compiled.ts declares the policy engine's compiled input, types only. Each shape is written out
// below as a Record over its keys, so the type checker refuses this file when a field is added
// or dropped; compile.ts is then held to produce exactly those fields, and every PortEntry kind.

import { describe, expect, expectTypeOf, it } from "vitest";
import { setBit, wordCount } from "../../../../src/networking/evaluate/bitset.js";
import { compilePod, compilePolicy, SetBuilder } from "../../../../src/networking/evaluate/policy/compile.js";
import type {
  Block,
  Pod,
  PodPort,
  Policy,
  PortEntry,
  ResolvedEndpoint,
  Rule,
} from "../../../../src/networking/evaluate/policy/compiled.js";
import type { Protocol, SkippedObject } from "../../../../src/networking/index.js";
import type { IP } from "../../../../src/networking/validation/rules/ip.js";
import { fromJson } from "../../../../src/networking/text/json/from-json.js";

const POD: Record<keyof Pod, true> = {
  key: true,
  ns: true,
  labels: true,
  ip: true,
  hostIP: true,
  hostNetwork: true,
  ports: true,
};
const POD_PORT: Record<keyof PodPort, true> = { name: true, containerPort: true, protocol: true };
const RULE: Record<keyof Rule, true> = {
  index: true,
  anyPeer: true,
  peerPods: true,
  ipBlocks: true,
  anyPort: true,
  ports: true,
};
const BLOCK: Record<keyof Block, true> = { cidr: true, except: true };
const POLICY: Record<keyof Policy, true> = { key: true, order: true, ingress: true, egress: true };
const PORT_KINDS: Record<PortEntry["kind"], readonly string[]> = {
  all: ["kind", "protocol"],
  range: ["hi", "kind", "lo", "protocol"],
  named: ["kind", "name", "protocol"],
};

const keys = (o: object): string[] => Object.keys(o).sort();
const NS = new Map([["web", 0]]);

describe("the compiled shapes", () => {
  it("a compiled pod and its ports have exactly the declared fields", () => {
    const pod = compilePod(
      { namespace: "web", name: "a", ip: "10.0.0.1", ports: [{ name: "http", containerPort: 80 }] },
      "pods[0]",
      NS,
    );
    expect(keys(pod)).toEqual(keys(POD));
    expect(keys(pod.ports[0]!)).toEqual(keys(POD_PORT));
  });

  it("a compiled policy, its rules, blocks and every kind of port entry have exactly the declared fields", () => {
    const pod = compilePod({ namespace: "web", name: "a", ip: "10.0.0.1" }, "pods[0]", NS);
    const words = wordCount(1);
    const selectable = new Uint32Array(words);
    setBit(selectable, 0);
    const sets = new SetBuilder([pod], [{}], [selectable], [[0]], words);
    const skipped: SkippedObject[] = [];
    const np = fromJson({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "p", namespace: "web" },
      spec: {
        podSelector: {},
        ingress: [
          {
            from: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } }],
            ports: [{ protocol: "UDP" }, { port: 80, endPort: 90 }, { port: "http" }],
          },
        ],
      },
    });
    const compiled = compilePolicy(np as never, 0, sets, 0, new Set(), skipped, NS);
    const policy = compiled!.policy;
    expect(keys(policy)).toEqual(keys(POLICY));
    const rule = policy.ingress![0]!;
    expect(keys(rule)).toEqual(keys(RULE));
    expect(keys(rule.ipBlocks[0]!)).toEqual(keys(BLOCK));
    expect(rule.ports.map((p) => p.kind)).toEqual(Object.keys(PORT_KINDS));
    for (const p of rule.ports) expect(keys(p), p.kind).toEqual(PORT_KINDS[p.kind]);
  });

  it("types: protocols are Protocol, addresses IP, pod sets Uint32Array, and an endpoint is a pod or -1", () => {
    expectTypeOf<PodPort["protocol"]>().toEqualTypeOf<Protocol>();
    expectTypeOf<PortEntry["protocol"]>().toEqualTypeOf<Protocol>();
    expectTypeOf<Pod["hostIP"]>().toEqualTypeOf<IP | undefined>();
    expectTypeOf<Rule["peerPods"]>().toEqualTypeOf<Uint32Array>();
    expectTypeOf<Policy["ingress"]>().toEqualTypeOf<readonly Rule[] | null>();
    expectTypeOf<ResolvedEndpoint["pod"]>().toEqualTypeOf<number>();
    expectTypeOf<ResolvedEndpoint["ip"]>().toEqualTypeOf<IP>();
    expect(Object.keys(PORT_KINDS)).toHaveLength(3);
  });
});
