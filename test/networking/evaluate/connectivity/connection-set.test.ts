// Connection sets against a plain model: a set of "PROTOCOL:port" strings over a few ports, and
// the text form read back.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ALL_CONNECTIONS,
  type ConnectionSet,
  EvaluatorInputError,
  NO_CONNECTIONS,
  type Protocol,
  connectionSetIncludes,
  formatConnectionSet,
  intersectConnectionSets,
  isEmptyConnectionSet,
  parseConnectionSet,
  sameConnectionSet,
  subtractConnectionSets,
  unionConnectionSets,
} from "../../../../src/networking/index.js";
import { ConnectionPool } from "../../../../src/networking/evaluate/connectivity/connection-set.js";
import { propertyRuns } from "../../../support/property-runs.js";

const PROTOCOLS: readonly Protocol[] = ["TCP", "UDP", "SCTP"];
const PORTS = [1, 2, 3, 52, 53, 54, 79, 80, 81, 8080, 65534, 65535];

const arbSet: fc.Arbitrary<ConnectionSet> = fc
  .array(
    fc.tuple(fc.constantFrom(...PROTOCOLS), fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 0, max: 100 })),
    { maxLength: 5 },
  )
  .map((items) => {
    const text = items.map(([p, from, len]) => `${p} ${from}-${Math.min(65535, from + len)}`).join("; ");
    return text === "" ? NO_CONNECTIONS : parseConnectionSet(text);
  });

const model = (c: ConnectionSet): Set<string> =>
  new Set(PROTOCOLS.flatMap((p) => PORTS.filter((n) => connectionSetIncludes(c, p, n)).map((n) => `${p}:${n}`)));

describe("connection sets", () => {
  it("format and parse agree, and operations agree with sets of ports", () => {
    fc.assert(
      fc.property(arbSet, arbSet, (a, b) => {
        expect(sameConnectionSet(parseConnectionSet(formatConnectionSet(a)), a)).toBe(true);
        const ma = model(a);
        const mb = model(b);
        expect(model(unionConnectionSets(a, b))).toEqual(new Set([...ma, ...mb]));
        expect(model(intersectConnectionSets(a, b))).toEqual(new Set([...ma].filter((x) => mb.has(x))));
        expect(model(subtractConnectionSets(a, b))).toEqual(new Set([...ma].filter((x) => !mb.has(x))));
        expect(
          sameConnectionSet(unionConnectionSets(subtractConnectionSets(a, b), intersectConnectionSets(a, b)), a),
        ).toBe(true);
        const pool = new ConnectionPool();
        expect(pool.set(pool.union(pool.id(a), pool.id(b)))).toEqual(unionConnectionSets(a, b));
        expect(pool.set(pool.meet(pool.id(a), pool.id(b)))).toEqual(intersectConnectionSets(a, b));
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it("writes the forms users read", () => {
    expect(formatConnectionSet(ALL_CONNECTIONS)).toBe("All connections");
    expect(formatConnectionSet(NO_CONNECTIONS)).toBe("No connections");
    expect(formatConnectionSet(parseConnectionSet("udp 53; TCP 8080-8090,53, 54"))).toBe("TCP 53-54,8080-8090; UDP 53");
    expect(formatConnectionSet(parseConnectionSet("SCTP all ports; TCP 1-65535"))).toBe(
      "TCP all ports; SCTP all ports",
    );
    expect(isEmptyConnectionSet(parseConnectionSet("No connections"))).toBe(true);
  });

  it("refuses text it cannot read, saying what it expected", () => {
    for (const bad of ["TCP", "ICMP 1", "TCP 0", "TCP 70000", "TCP 90-80", "TCP 80,,81", ""]) {
      expect(() => parseConnectionSet(bad), bad).toThrow(EvaluatorInputError);
    }
  });
});
