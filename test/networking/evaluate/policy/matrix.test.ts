// Truth matrices as packed bit rows, held to plain boolean matrices; the lazy string-keyed
// table; and the per-query port sets, held to the NetworkPolicy port rules (a rule without
// ports admits every port; an entry admits its protocol's port, range or named port).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wordCount } from "../../../../src/networking/evaluate/bitset.js";
import type { Pod, PortEntry, Rule } from "../../../../src/networking/evaluate/policy/compiled.js";
import {
  ALL,
  declares,
  lazyTable,
  Matrix,
  NONE,
  namedPort,
  PortSets,
} from "../../../../src/networking/evaluate/policy/matrix.js";
import type { SkippedObject } from "../../../../src/networking/index.js";
import { parseIPSloppy } from "../../../../src/networking/validation/rules/ip.js";
import { propertyRuns } from "../../../support/property-runs.js";

/** Packs boolean rows into the matrix layout: row `from`, bit `to`, `words` words per row. */
function pack(rows: readonly (readonly boolean[])[], words: number): Uint32Array {
  const out = new Uint32Array(rows.length * words);
  rows.forEach((row, from) => {
    row.forEach((on, to) => {
      if (on) out[from * words + (to >>> 5)]! |= 1 << (to & 31);
    });
  });
  return out;
}

const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `ns/p${i}`);

/** A size and two boolean matrices of it. */
const matrices = fc
  .integer({ min: 1, max: 70 })
  .chain((n) =>
    fc.tuple(
      fc.constant(n),
      fc.array(fc.array(fc.boolean(), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }),
      fc.array(fc.array(fc.boolean(), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }),
    ),
  );

function pod(i: number, ports: Pod["ports"] = []): Pod {
  return {
    key: `ns/p${i}`,
    ns: 0,
    labels: {},
    ip: parseIPSloppy(`10.0.0.${i + 1}`)!,
    hostIP: undefined,
    hostNetwork: false,
    ports,
  };
}

function rule(ports: PortEntry[] | undefined): Rule {
  return {
    index: 0,
    anyPeer: true,
    peerPods: new Uint32Array(1),
    ipBlocks: [],
    anyPort: ports === undefined,
    ports: ports ?? [],
  };
}

describe("Matrix", () => {
  it("answers as the boolean matrices it packs: allowed is egress and ingress", () => {
    fc.assert(
      fc.property(matrices, ([n, egress, ingress]) => {
        const words = wordCount(n);
        const m = new Matrix(names(n), "TCP", 80, words, pack(egress, words), pack(ingress, words), []);
        let allowed = 0;
        for (let from = 0; from < n; from++) {
          for (let to = 0; to < n; to++) {
            const both = egress[from]![to]! && ingress[from]![to]!;
            if (both) allowed++;
            if (m.allowed(from, to) !== both) return false;
            if (m.egressAllowed(from, to) !== egress[from]![to]) return false;
            if (m.ingressAllowed(from, to) !== ingress[from]![to]) return false;
          }
          const row = m.row(from);
          for (let to = 0; to < n; to++)
            if ((((row[to >>> 5]! >>> (to & 31)) & 1) === 1) !== m.allowed(from, to)) return false;
        }
        return m.countAllowed() === allowed;
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it("allowedInto adds the allowed pairs whose destination is a column asked for", () => {
    const n = 40;
    const words = wordCount(n);
    const egress = Array.from({ length: n }, (_, f) => Array.from({ length: n }, (_, t) => (f + t) % 3 !== 0));
    const ingress = Array.from({ length: n }, (_, f) => Array.from({ length: n }, (_, t) => (f * t) % 5 !== 1));
    const m = new Matrix(names(n), "UDP", 53, words, pack(egress, words), pack(ingress, words), []);
    const columns = new Uint32Array(words);
    for (const c of [0, 5, 31, 32, 39]) columns[c >>> 5]! |= 1 << (c & 31);
    const seed = Array.from({ length: n }, (_, f) => Array.from({ length: n }, (_, t) => f === 1 && t === 2));
    const out = pack(seed, words);
    m.allowedInto(out, columns);
    const want = Array.from({ length: n }, (_, f) =>
      Array.from({ length: n }, (_, t) => seed[f]![t]! || (m.allowed(f, t) && [0, 5, 31, 32, 39].includes(t))),
    );
    expect(Array.from(out)).toEqual(Array.from(pack(want, words)));
  });

  it("keeps its question and refuses indexes that are not pods", () => {
    const skipped: SkippedObject[] = [{ kind: "NetworkPolicy", name: "ns/x", index: 0, errors: [] }];
    const m = new Matrix(["a", "b"], "SCTP", 9, 1, Uint32Array.of(3, 3), Uint32Array.of(3, 3), skipped);
    expect([m.pods, m.protocol, m.port, m.skipped]).toEqual([["a", "b"], "SCTP", 9, skipped]);
    expect(() => m.allowed(2, 0)).toThrow(new RangeError("from: 2 is not a pod index below 2"));
    expect(() => m.allowed(0, -1)).toThrow(new RangeError("to: -1 is not a pod index below 2"));
    expect(() => m.egressAllowed(0.5, 0)).toThrow(RangeError);
    expect(() => m.ingressAllowed(0, Number.NaN)).toThrow(RangeError);
  });
});

describe("lazyTable", () => {
  const packed = {
    pods: ["web/a", "web/b", "db/c"],
    row: (from: number) => Uint32Array.of([0b011, 0b100, 0b111][from]!),
  };
  const facts = {
    skipped: [{ kind: "NetworkPolicy", name: "web/x", index: 3, errors: [] }] as SkippedObject[],
    unresolved: ["db/c"],
  };

  it("has one enumerable row per pod, of allow and deny cells; what it left out is not enumerable", () => {
    const t = lazyTable(packed, facts);
    expect(Object.keys(t)).toEqual(["web/a", "web/b", "db/c"]);
    expect(t["web/a"]).toEqual({ "web/a": "allow", "web/b": "allow", "db/c": "deny" });
    expect(t["db/c"]).toEqual({ "web/a": "allow", "web/b": "allow", "db/c": "allow" });
    expect(t.skipped).toBe(facts.skipped);
    expect(t.unresolved).toBe(facts.unresolved);
    expect(JSON.parse(JSON.stringify(t))).toEqual({
      "web/a": { "web/a": "allow", "web/b": "allow", "db/c": "deny" },
      "web/b": { "web/a": "deny", "web/b": "deny", "db/c": "allow" },
      "db/c": { "web/a": "allow", "web/b": "allow", "db/c": "allow" },
    });
  });

  it("builds a row once, when first read, and lets it be replaced", () => {
    let reads = 0;
    const row = (f: number): Uint32Array => {
      reads++;
      return packed.row(f);
    };
    const t = lazyTable({ pods: packed.pods, row }, facts);
    expect(reads).toBe(0);
    const first = t["web/b"];
    expect(t["web/b"]).toBe(first);
    expect(reads).toBe(1);
    t["web/a"] = { "web/a": "deny" };
    expect(t["web/a"]).toEqual({ "web/a": "deny" });
    expect(reads).toBe(1);
  });

  it("with columns, each row has only those cells", () => {
    const t = lazyTable(packed, facts, Uint32Array.of(0b101));
    expect(t["web/b"]).toEqual({ "web/a": "deny", "db/c": "allow" });
    expect(Object.keys(t)).toEqual(["web/a", "web/b", "db/c"]);
  });

  it("prints its rows, and what it left out, in Node's inspector", async () => {
    const { inspect } = await import("node:util");
    const text = inspect(lazyTable(packed, facts), { depth: 4 });
    expect(text).toContain("'web/a': { 'web/a': 'allow'");
    expect(text).toContain("unresolved: [ 'db/c' ]");
    expect(text).not.toContain("Getter");
  });
});

describe("PortSets, declares and namedPort", () => {
  const pods = [
    pod(0, [{ name: "http", containerPort: 8080, protocol: "TCP" }]),
    pod(1, [
      { name: "http", containerPort: 80, protocol: "TCP" },
      { name: "dns", containerPort: 53, protocol: "UDP" },
    ]),
    pod(2, [{ name: "http", containerPort: 8080, protocol: "UDP" }]),
  ];

  it("a rule without ports admits every port", () => {
    expect(new PortSets(pods, 1, "TCP", 1).destinations(rule(undefined))).toBe(ALL);
  });

  it("a port, a range or a whole protocol admits every destination, for its protocol only", () => {
    const sets = new PortSets(pods, 1, "TCP", 8080);
    expect(sets.destinations(rule([{ kind: "range", protocol: "TCP", lo: 8080, hi: 8080 }]))).toBe(ALL);
    expect(sets.destinations(rule([{ kind: "range", protocol: "TCP", lo: 8000, hi: 9000 }]))).toBe(ALL);
    expect(sets.destinations(rule([{ kind: "range", protocol: "TCP", lo: 8081, hi: 9000 }]))).toBe(NONE);
    expect(sets.destinations(rule([{ kind: "range", protocol: "UDP", lo: 8080, hi: 8080 }]))).toBe(NONE);
    expect(sets.destinations(rule([{ kind: "all", protocol: "TCP" }]))).toBe(ALL);
    expect(sets.destinations(rule([{ kind: "all", protocol: "SCTP" }]))).toBe(NONE);
    expect(sets.destinations(rule([]))).toBe(NONE);
  });

  it("a named port admits the pods that declare that name, protocol and port", () => {
    const at = (protocol: "TCP" | "UDP", port: number, name: string) =>
      new PortSets(pods, 1, protocol, port).destinations(rule([{ kind: "named", protocol, name }]));
    expect(Array.from(at("TCP", 8080, "http") as Uint32Array)).toEqual([0b001]);
    expect(Array.from(at("TCP", 80, "http") as Uint32Array)).toEqual([0b010]);
    expect(Array.from(at("UDP", 8080, "http") as Uint32Array)).toEqual([0b100]);
    expect(Array.from(at("TCP", 53, "dns") as Uint32Array)).toEqual([0]);
    // A number or range admitting the port wins over the names beside it.
    const sets = new PortSets(pods, 1, "TCP", 8080);
    const mixed = rule([
      { kind: "named", protocol: "TCP", name: "http" },
      { kind: "range", protocol: "TCP", lo: 1, hi: 65535 },
    ]);
    expect(sets.destinations(mixed)).toBe(ALL);
    // Several names: the union of their pods.
    const two = rule([
      { kind: "named", protocol: "TCP", name: "http" },
      { kind: "named", protocol: "TCP", name: "web" },
    ]);
    const withWeb = [...pods, pod(3, [{ name: "web", containerPort: 8080, protocol: "TCP" }])];
    expect(Array.from(new PortSets(withWeb, 1, "TCP", 8080).destinations(two) as Uint32Array)).toEqual([0b1001]);
  });

  it("answers each rule once", () => {
    const sets = new PortSets(pods, 1, "TCP", 8080);
    const r = rule([{ kind: "named", protocol: "TCP", name: "http" }]);
    expect(sets.destinations(r)).toBe(sets.destinations(r));
  });

  it("declares and namedPort read a pod's own ports (the first of a name)", () => {
    expect(declares(pods[1]!, "http", "TCP", 80)).toBe(true);
    expect(declares(pods[1]!, "http", "TCP", 8080)).toBe(false);
    expect(declares(pods[1]!, "dns", "TCP", 53)).toBe(false);
    expect(namedPort(pods[1]!, "dns", "UDP")).toBe(53);
    expect(namedPort(pods[1]!, "dns", "TCP")).toBeUndefined();
    const twice = pod(4, [
      { name: "x", containerPort: 1, protocol: "TCP" },
      { name: "x", containerPort: 2, protocol: "TCP" },
    ]);
    expect(namedPort(twice, "x", "TCP")).toBe(1);
    expect(declares(twice, "x", "TCP", 2)).toBe(true);
  });
});
