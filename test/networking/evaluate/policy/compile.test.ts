// Compiling the policy engine's input: pods checked field by field (each refusal names its path
// in the input), and NetworkPolicies turned into rules over bit sets of the pods their peers
// select, by the API's rules: a podSelector alone selects in the policy's own namespace, a
// namespaceSelector across namespaces, an ipBlock by address (minus its excepts), hostNetwork
// pods never by selector; a port without a protocol is TCP.

import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { NetworkPolicySchema } from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { type Bits, forEachBit, setBit, wordCount } from "../../../../src/networking/evaluate/bitset.js";
import {
  compilePod,
  compilePolicy,
  inBlock,
  ipKey,
  labelsAt,
  listAt,
  portNumberAt,
  protocolAt,
  SetBuilder,
  sameIP,
  stringAt,
} from "../../../../src/networking/evaluate/policy/compile.js";
import type { Pod } from "../../../../src/networking/evaluate/policy/compiled.js";
import type { ClusterPod, SkippedObject } from "../../../../src/networking/index.js";
import { NAMESPACE_NAME_LABEL } from "../../../../src/networking/model/constants.js";
import { EvaluatorInputError } from "../../../../src/networking/model/errors.js";
import { fromJson } from "../../../../src/networking/text/json/from-json.js";
import { parseCIDRSloppy, parseIPSloppy } from "../../../../src/networking/validation/rules/ip.js";

const NS_INDEX = new Map([
  ["web", 0],
  ["db", 1],
]);
const NS_LABELS = [
  { team: "a", [NAMESPACE_NAME_LABEL]: "web" },
  { team: "b", [NAMESPACE_NAME_LABEL]: "db" },
];
const CLUSTER: ClusterPod[] = [
  { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
  { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
  { namespace: "db", name: "c", ip: "10.0.1.1", labels: { app: "c" } },
  { namespace: "db", name: "node", ip: "10.0.0.9", hostNetwork: true, labels: { app: "c" } },
];

function world(): { pods: Pod[]; sets: SetBuilder } {
  const pods = CLUSTER.map((p, i) => compilePod(p, `pods[${i}]`, NS_INDEX));
  const words = wordCount(pods.length);
  const selectable: Bits[] = NS_LABELS.map(() => new Uint32Array(words));
  const members: number[][] = NS_LABELS.map(() => []);
  pods.forEach((p, i) => {
    if (p.hostNetwork) return;
    setBit(selectable[p.ns]!, i);
    members[p.ns]!.push(i);
  });
  return { pods, sets: new SetBuilder(pods, NS_LABELS, selectable, members, words) };
}

const list = (b: Bits): number[] => {
  const out: number[] = [];
  forEachBit(b, (i) => out.push(i));
  return out;
};

function inputError(f: () => unknown): EvaluatorInputError {
  try {
    f();
  } catch (e) {
    if (e instanceof EvaluatorInputError) return e;
    throw e;
  }
  throw new Error("no EvaluatorInputError");
}

const np = (metadata: object, spec?: object) =>
  fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata,
    ...(spec === undefined ? {} : { spec }),
  } as never) as ReturnType<typeof create<typeof NetworkPolicySchema>>;

function compile(policies: ReturnType<typeof np>[]) {
  const { sets } = world();
  const seen = new Set<string>();
  const skipped: SkippedObject[] = [];
  const out = policies.map((p, i) => compilePolicy(p, i, sets, i, seen, skipped, NS_INDEX));
  return { out, skipped };
}

describe("compilePod", () => {
  it("keys a pod by namespace/name and keeps its parsed addresses, ports (TCP by default) and labels", () => {
    const p = compilePod(CLUSTER[1]!, "pods[1]", NS_INDEX);
    expect(p.key).toBe("web/b");
    expect(p.ns).toBe(0);
    expect(sameIP(p.ip, parseIPSloppy("10.0.0.2")!)).toBe(true);
    expect(p.hostIP).toBeUndefined();
    expect(p.hostNetwork).toBe(false);
    expect(p.ports).toEqual([{ name: "http", containerPort: 8080, protocol: "TCP" }]);
    expect(p.labels).toEqual({ app: "b" });
    expect(Object.isFrozen(p.labels)).toBe(true);
  });

  it("a hostNetwork pod's hostIP is its own IP; a different one is refused", () => {
    const p = compilePod({ namespace: "db", name: "n", ip: "10.0.0.9", hostNetwork: true }, "pods[0]", NS_INDEX);
    expect(p.hostIP !== undefined && sameIP(p.hostIP, p.ip)).toBe(true);
    const e = inputError(() =>
      compilePod(
        { namespace: "db", name: "n", ip: "10.0.0.9", hostIP: "10.0.0.8", hostNetwork: true },
        "pods[0]",
        NS_INDEX,
      ),
    );
    expect(e.path).toBe("pods[0].hostIP");
  });

  it("refuses what has no meaning, naming where it is", () => {
    const cases: [unknown, string, string][] = [
      [null, "pods[7]", "must be an object"],
      [{ namespace: 1, name: "a", ip: "10.0.0.1" }, "pods[7].namespace", "must be a string"],
      [{ namespace: "web", name: "", ip: "10.0.0.1" }, "pods[7].name", "must be non-empty"],
      [
        { namespace: "ops", name: "a", ip: "10.0.0.1" },
        "pods[7].namespace",
        'namespace "ops" is not listed in namespaces',
      ],
      [{ namespace: "web", name: "a", ip: "10.0.0" }, "pods[7].ip", '"10.0.0" is not an IP address'],
      [
        { namespace: "web", name: "a", ip: "10.0.0.1", hostNetwork: "yes" },
        "pods[7].hostNetwork",
        "must be true or false",
      ],
      [{ namespace: "web", name: "a", ip: "10.0.0.1", ports: {} }, "pods[7].ports", "must be a list"],
      [
        { namespace: "web", name: "a", ip: "10.0.0.1", ports: [7] },
        "pods[7].ports[0]",
        "must be an object with containerPort",
      ],
      [
        { namespace: "web", name: "a", ip: "10.0.0.1", ports: [{ containerPort: 0 }] },
        "pods[7].ports[0].containerPort",
        "0 is not a port number (1-65535)",
      ],
      [
        { namespace: "web", name: "a", ip: "10.0.0.1", ports: [{ containerPort: 80, protocol: "tcp" }] },
        "pods[7].ports[0].protocol",
        '"tcp" is not one of TCP, UDP, SCTP',
      ],
      [{ namespace: "web", name: "a", ip: "10.0.0.1", labels: [] }, "pods[7].labels", "must be a map of strings"],
      [{ namespace: "web", name: "a", ip: "10.0.0.1", labels: { k: 1 } }, 'pods[7].labels["k"]', "must be a string"],
    ];
    for (const [input, path, reason] of cases) {
      const e = inputError(() => compilePod(input as ClusterPod, "pods[7]", NS_INDEX));
      expect([e.path, e.reason], JSON.stringify(input)).toEqual([path, reason]);
    }
  });
});

describe("the input readers", () => {
  it("listAt, stringAt, portNumberAt and protocolAt", () => {
    expect(listAt(undefined, "x")).toEqual([]);
    expect(listAt([1, 2], "x")).toEqual([1, 2]);
    expect(stringAt("", "x")).toBe("");
    expect(() => stringAt(undefined, "x")).toThrow(EvaluatorInputError);
    expect([1, 65535].map((p) => portNumberAt(p, "x"))).toEqual([1, 65535]);
    for (const bad of [0, 65536, 1.5, "80", Number.NaN])
      expect(() => portNumberAt(bad, "x"), String(bad)).toThrow(EvaluatorInputError);
    expect(inputError(() => portNumberAt("80", "port")).reason).toBe('"80" is not a port number (1-65535)');
    expect([undefined, "TCP", "UDP", "SCTP"].map((p) => protocolAt(p, "x"))).toEqual(["TCP", "TCP", "UDP", "SCTP"]);
  });

  it("labelsAt: null and undefined are no labels; __proto__ stays a label", () => {
    expect(labelsAt(undefined, "x")).toEqual({});
    expect(labelsAt(null, "x")).toEqual({});
    const l = labelsAt(JSON.parse('{"__proto__": "v", "a": "b"}'), "x");
    expect(Object.keys(l)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(l)).toBe(Object.prototype);
  });

  it("sameIP and ipKey tell addresses apart by family and value", () => {
    const v4 = parseIPSloppy("10.0.0.1")!;
    const mapped = parseIPSloppy("::ffff:10.0.0.1")!;
    expect(sameIP(v4, parseIPSloppy("10.0.0.1")!)).toBe(true);
    expect(sameIP(v4, parseIPSloppy("10.0.0.2")!)).toBe(false);
    // An IPv4-mapped IPv6 address is the IPv4 address, as Go's net.IP.Equal has it; ::a00:1 is not.
    expect(sameIP(v4, mapped)).toBe(true);
    expect(sameIP(v4, parseIPSloppy("::a00:1")!)).toBe(false);
    expect(ipKey(v4)).toBe(ipKey(mapped));
    expect(ipKey(v4)).not.toBe(ipKey(parseIPSloppy("::a00:1")!));
    expect(ipKey(v4)).not.toBe(ipKey(parseIPSloppy("10.0.0.2")!));
    // The API server's legacy grammar: leading zeros are decimal.
    expect(sameIP(parseIPSloppy("010.000.000.001")!, v4)).toBe(true);
  });
});

describe("inBlock", () => {
  it("is in the CIDR and in none of its excepts", () => {
    const block = { cidr: parseCIDRSloppy("10.0.0.0/16")!, except: [parseCIDRSloppy("10.0.1.0/24")!] };
    expect(inBlock(block, parseIPSloppy("10.0.0.1")!)).toBe(true);
    expect(inBlock(block, parseIPSloppy("10.0.1.1")!)).toBe(false);
    expect(inBlock(block, parseIPSloppy("10.1.0.1")!)).toBe(false);
    expect(inBlock({ cidr: parseCIDRSloppy("0.0.0.0/0")!, except: [] }, parseIPSloppy("8.8.8.8")!)).toBe(true);
    expect(inBlock({ cidr: parseCIDRSloppy("::/0")!, except: [] }, parseIPSloppy("8.8.8.8")!)).toBe(false);
  });
});

describe("SetBuilder", () => {
  it("selects in one namespace, never hostNetwork pods; an empty selector is every selectable pod", () => {
    const { sets } = world();
    const all = sets.inNamespace(1, { key: "{}", match: () => true, empty: true });
    expect(list(all)).toEqual([2]);
    const appA = sets.inNamespace(0, { key: "app=a", match: (l) => l["app"] === "a", empty: false });
    expect(list(appA)).toEqual([0]);
    // Cached by key: the same set again.
    expect(sets.inNamespace(0, { key: "app=a", match: () => false, empty: false })).toBe(appA);
  });

  it("across namespaces: the pods a pod selector matches in every namespace the namespace selector matches", () => {
    const { sets } = world();
    const b = sets.acrossNamespaces(
      { key: "team=b", match: (l) => l["team"] === "b" },
      { key: "{}", match: () => true, empty: true },
    );
    expect(list(b)).toEqual([2]);
    const everywhere = sets.acrossNamespaces(
      { key: "{}", match: () => true },
      { key: "{}", match: () => true, empty: true },
    );
    expect(list(everywhere)).toEqual([0, 1, 2]);
  });

  it("an ipBlock selects by address, hostNetwork pods too", () => {
    const { sets } = world();
    const block = { cidr: parseCIDRSloppy("10.0.0.0/24")!, except: [parseCIDRSloppy("10.0.0.2/32")!] };
    expect(list(sets.inBlock(block, "k"))).toEqual([0, 3]);
  });
});

describe("compilePolicy", () => {
  it("compiles selected pods, peers and ports by the API's rules", () => {
    const { out, skipped } = compile([
      np(
        { name: "p", namespace: "web" },
        {
          podSelector: {},
          policyTypes: ["Ingress", "Egress"],
          ingress: [
            {
              from: [
                { podSelector: { matchLabels: { app: "b" } } },
                { namespaceSelector: { matchLabels: { team: "b" } } },
              ],
              ports: [
                { port: 8080 },
                { protocol: "UDP", port: 53, endPort: 60 },
                { port: "http" },
                { protocol: "SCTP" },
              ],
            },
          ],
          egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/16", except: ["10.0.1.0/24"] } }] }],
        },
      ),
    ]);
    expect(skipped).toEqual([]);
    const { policy, selected } = out[0]!;
    expect(list(selected)).toEqual([0, 1]);
    expect([policy.key, policy.order]).toEqual(["web/p", 0]);
    const [rule] = policy.ingress!;
    expect(list(rule!.peerPods)).toEqual([1, 2]);
    expect([rule!.anyPeer, rule!.anyPort, rule!.ipBlocks]).toEqual([false, false, []]);
    expect(rule!.ports).toEqual([
      { kind: "range", protocol: "TCP", lo: 8080, hi: 8080 },
      { kind: "range", protocol: "UDP", lo: 53, hi: 60 },
      { kind: "named", protocol: "TCP", name: "http" },
      { kind: "all", protocol: "SCTP" },
    ]);
    const [egress] = policy.egress!;
    expect(list(egress!.peerPods)).toEqual([0, 1, 3]);
    expect([egress!.anyPeer, egress!.anyPort, egress!.ipBlocks.length]).toEqual([false, true, 1]);
  });

  it("policyTypes after defaulting: none given means Ingress, plus Egress with egress rules; a type left out is null", () => {
    const { out } = compile([
      np({ name: "in", namespace: "web" }, { podSelector: {} }),
      np({ name: "both", namespace: "web" }, { podSelector: {}, egress: [{}] }),
      np({ name: "out", namespace: "web" }, { podSelector: {}, policyTypes: ["Egress"], ingress: [{}] }),
      np({ name: "nospec", namespace: "db" }),
    ]);
    const shape = (i: number) => [out[i]!.policy.ingress?.length ?? null, out[i]!.policy.egress?.length ?? null];
    expect([shape(0), shape(1), shape(2), shape(3)]).toEqual([
      [0, null],
      [0, 1],
      [null, 0],
      [0, null],
    ]);
    // No spec: no podSelector, which is the empty one.
    expect(list(out[3]!.selected)).toEqual([2]);
    // A rule without peers admits any peer.
    expect(out[1]!.policy.egress![0]!.anyPeer).toBe(true);
  });

  it("skips a policy the API server would refuse, and a second one of the same name", () => {
    const { out, skipped } = compile([
      np({ name: "bad", namespace: "web" }, { podSelector: {}, ingress: [{ ports: [{ port: 0 }] }] }),
      np({ name: "p", namespace: "web" }, { podSelector: {} }),
      np({ name: "p", namespace: "web" }, { podSelector: {} }),
      np({ generateName: "gen-", namespace: "web" }, { podSelector: {} }),
    ]);
    expect(out.map((o) => o === undefined)).toEqual([true, false, true, false]);
    expect(skipped.map((s) => [s.kind, s.name, s.index, s.errors.map((e) => `${e.type} ${e.field}`)])).toEqual([
      ["NetworkPolicy", "web/bad", 0, ["FieldValueInvalid spec.ingress[0].ports[0].port"]],
      ["NetworkPolicy", "web/p", 2, ["FieldValueDuplicate metadata.name"]],
    ]);
    expect(out[3]!.policy.key).toBe("web/gen-");
  });

  it("refuses what is not a NetworkPolicy, or one in a namespace not listed", () => {
    const { sets } = world();
    const run = (p: unknown, i = 4) => compilePolicy(p as never, i, sets, 0, new Set(), [], NS_INDEX);
    const notPolicy = inputError(() => run({ $typeName: "k8s.io.api.networking.v1.Ingress" }));
    expect(notPolicy.path).toBe("policies[4]");
    expect(notPolicy.reason).toMatch(/must be a NetworkPolicy message/);
    expect(inputError(() => run(null)).path).toBe("policies[4]");
    const elsewhere = inputError(() => run(np({ name: "p", namespace: "ops" }, { podSelector: {} })));
    expect([elsewhere.path, elsewhere.reason]).toEqual([
      "policies[4].metadata.namespace",
      'namespace "ops" is not listed in namespaces',
    ]);
    expect(inputError(() => run(np({ name: "p" }, { podSelector: {} }))).reason).toBe(
      'namespace "default" (a policy without a namespace is in default) is not listed in namespaces',
    );
    expect(inputError(() => run(create(NetworkPolicySchema, { metadata: { name: "p" } }))).path).toBe(
      "policies[4].metadata.namespace",
    );
  });
});
