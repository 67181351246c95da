// sortKeysLikeGo is the order go-yaml v2 writes a map's keys in (its sorter, which
// sigs.k8s.io/yaml's JSONToYAML, and so kubectl -o yaml, goes through). GO_ORDER is the order
// go.yaml.in/yaml/v2 v2.4.3 wrote a map[string]int with these keys in, the same in each of
// 200 runs. (go-yaml's comparison is not transitive for some keys, e.g. "a1b" < "a2" < "a10"
// < "a1b", and then Go's own output depends on the map's random iteration order; the keys
// here are ones it orders the same way every time.)

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortKeysLikeGo } from "../../../../src/networking/text/yaml/key-order.js";
import { propertyRuns } from "../../../support/property-runs.js";

const GO_ORDER = [
  "",
  "-",
  ".",
  "_x",
  "~",
  "1",
  "01",
  "001",
  "9",
  "10",
  "\u0663",
  "A",
  "B",
  "Zed",
  "a",
  "a 1",
  "a2",
  "a9",
  "a09",
  "a10",
  "a010",
  "app",
  "app.kubernetes.io/name",
  "app2",
  "app10",
  "b",
  "kubernetes.io/ingress.class",
  "node-role.kubernetes.io/control-plane",
  "node-role.kubernetes.io/worker",
  "release",
  "topology.kubernetes.io/zone",
  "version",
  "x0",
  "x00",
  "x000",
  "x1",
  "x01",
  "x001",
  "x2y9",
  "x2y10",
  "x10y1",
  "x010",
  "zed",
  "\u00c4",
  "\u00df",
  "\u00e4",
  "\u00e9",
  "\u01c5",
  "\u03a9",
  "\u65e5\u672c",
];

describe("sortKeysLikeGo", () => {
  it("orders keys as go-yaml v2 does, from any starting order", () => {
    expect(sortKeysLikeGo([...GO_ORDER].reverse())).toEqual(GO_ORDER);
    fc.assert(
      fc.property(fc.shuffledSubarray(GO_ORDER, { minLength: GO_ORDER.length }), (keys) => {
        return JSON.stringify(sortKeysLikeGo(keys)) === JSON.stringify(GO_ORDER);
      }),
      { numRuns: propertyRuns(50) },
    );
  });

  it("letters sort after every other character, and among themselves by code point", () => {
    expect(sortKeysLikeGo(["a", "_", "Z", "1", "é", "~"])).toEqual(["_", "~", "1", "Z", "a", "é"]);
  });

  it("digit runs compare as numbers, then the shorter run (fewer leading zeros) first", () => {
    expect(sortKeysLikeGo(["v10", "v9", "v1"])).toEqual(["v1", "v9", "v10"]);
    expect(sortKeysLikeGo(["001", "1", "01"])).toEqual(["1", "01", "001"]);
    expect(sortKeysLikeGo(["port-8080", "port-443", "port-80"])).toEqual(["port-80", "port-443", "port-8080"]);
  });

  it("a prefix sorts first; nothing is lost or duplicated", () => {
    expect(sortKeysLikeGo(["app.kubernetes.io/name", "app"])).toEqual(["app", "app.kubernetes.io/name"]);
    expect(sortKeysLikeGo([])).toEqual([]);
    expect(sortKeysLikeGo(["x", "x"])).toEqual(["x", "x"]);
  });

  it("returns a new array and leaves its input as it was", () => {
    const keys = ["b", "a"];
    const sorted = sortKeysLikeGo(keys);
    expect(keys).toEqual(["b", "a"]);
    expect(sorted).not.toBe(keys);
  });
});
