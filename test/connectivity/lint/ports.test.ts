// Named ports resolved on container ports, and port sets cut into atoms.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  atomsToSet,
  hasPorts,
  holdsAtom,
  holdsPort,
  portAtoms,
  resolveNamedPorts,
} from "../../../src/connectivity/lint/ports.js";
import {
  ALL_CONNECTIONS,
  NO_CONNECTIONS,
  parseConnectionSet,
  type Protocol,
  unionConnectionSets as union,
} from "../../../src/networking/index.js";
import { propertyRuns } from "../../support/property-runs.js";

describe("resolveNamedPorts", () => {
  const ports = [
    { name: "http", containerPort: 8080 },
    { name: "dns", containerPort: 53, protocol: "UDP" as const },
    { name: "http", containerPort: 8081, protocol: "TCP" as const },
    { containerPort: 9000 },
  ];

  it("matches name and protocol, TCP when the container port gives none", () => {
    expect(resolveNamedPorts([{ protocol: "TCP", name: "http" }], ports)).toEqual(parseConnectionSet("TCP 8080-8081"));
    expect(resolveNamedPorts([{ protocol: "UDP", name: "dns" }], ports)).toEqual(parseConnectionSet("UDP 53"));
    expect(resolveNamedPorts([{ protocol: "TCP", name: "dns" }], ports)).toEqual(NO_CONNECTIONS);
    expect(resolveNamedPorts([{ protocol: "UDP", name: "http" }], ports)).toEqual(NO_CONNECTIONS);
  });

  it("resolves to nothing without container ports or names", () => {
    expect(resolveNamedPorts([{ protocol: "TCP", name: "http" }], undefined)).toEqual(NO_CONNECTIONS);
    expect(resolveNamedPorts([], ports)).toEqual(NO_CONNECTIONS);
  });
});

describe("portAtoms", () => {
  it("cuts a set at every edge of the others", () => {
    const atoms = portAtoms(parseConnectionSet("TCP 1-100; UDP 53"), [
      parseConnectionSet("TCP 10-20"),
      parseConnectionSet("TCP 15-200; UDP 1-65535"),
    ]);
    expect(atoms).toEqual([
      { protocol: "TCP", from: 1, to: 9 },
      { protocol: "TCP", from: 10, to: 14 },
      { protocol: "TCP", from: 15, to: 20 },
      { protocol: "TCP", from: 21, to: 100 },
      { protocol: "UDP", from: 53, to: 53 },
    ]);
  });

  it("gives each atom wholly inside or outside each cutting set, and covers the target exactly", () => {
    const protocols: Protocol[] = ["TCP", "UDP", "SCTP"];
    const rangeArb = fc
      .tuple(fc.constantFrom(...protocols), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 40 }))
      .map(([p, from, span]) => `${p} ${from}-${Math.min(65535, from + span)}`);
    const setArb = fc
      .array(rangeArb, { maxLength: 4 })
      .map((parts) => parts.reduce((acc, part) => union(acc, parseConnectionSet(part)), NO_CONNECTIONS));
    fc.assert(
      fc.property(setArb, fc.array(setArb, { maxLength: 4 }), (target, by) => {
        const atoms = portAtoms(target, by);
        expect(atomsToSet(atoms)).toEqual(target);
        for (const atom of atoms) {
          for (const set of by) {
            const inside = holdsAtom(set, atom);
            expect(holdsPort(set, atom.protocol, atom.from)).toBe(inside);
            expect(holdsPort(set, atom.protocol, atom.to)).toBe(inside);
          }
        }
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe("holdsPort, holdsAtom, hasPorts", () => {
  const set = parseConnectionSet("TCP 80,443,8000-8100; UDP 53");
  it("answers for single ports and ranges", () => {
    expect(holdsPort(set, "TCP", 8050)).toBe(true);
    expect(holdsPort(set, "TCP", 81)).toBe(false);
    expect(holdsPort(set, "UDP", 80)).toBe(false);
    expect(holdsAtom(set, { protocol: "TCP", from: 8000, to: 8100 })).toBe(true);
    expect(holdsAtom(set, { protocol: "TCP", from: 443, to: 444 })).toBe(false);
    expect(holdsAtom(set, { protocol: "SCTP", from: 1, to: 1 })).toBe(false);
    expect(hasPorts(set)).toBe(true);
    expect(hasPorts(NO_CONNECTIONS)).toBe(false);
    expect(hasPorts(ALL_CONNECTIONS)).toBe(true);
  });
});
