// Where a random cluster's pods and nodes live (src/testing/clusters/pod-addresses.ts): pod and
// node ranges in both families, addresses outside them, and IPv4 spellings that all read back
// as the same address, as the API server's sloppy parser reads them.

import { describe, expect, it } from "vitest";
import { parseAddress } from "../../../src/testing/addresses.js";
import {
  OUTSIDE_V4,
  OUTSIDE_V6,
  nodeAddress,
  podAddress,
  renderAddress,
  renderV4,
} from "../../../src/testing/clusters/pod-addresses.js";

describe("pod and node addresses", () => {
  it("pods in 10.0.<subnet>.<host> and fd00::<subnet>:<host>, nodes in 10.1.0.<n+1> and fd00:1::<n+1>", () => {
    expect(renderAddress(podAddress(4, 1, 5))).toBe("10.0.1.5");
    expect(renderAddress(podAddress(6, 1, 5))).toBe("fd00::1:5");
    expect(renderAddress(nodeAddress(4, 0))).toBe("10.1.0.1");
    expect(renderAddress(nodeAddress(6, 2))).toBe("fd00:1::3");
  });

  it("the outside addresses are documentation ranges, in no pod or node range", () => {
    expect(renderAddress({ family: 4, value: OUTSIDE_V4 })).toBe("203.0.113.0");
    expect(renderAddress({ family: 6, value: OUTSIDE_V6 })).toBe("2001:db8::");
  });

  it("an IPv4 address plainly, IPv4-mapped or zero-padded reads back as itself; IPv6 is always plain", () => {
    const v = podAddress(4, 1, 5).value;
    const spellings = (["plain", "mapped", "zeros"] as const).map((s) => renderV4(v, s));
    expect(spellings).toEqual(["10.0.1.5", "::ffff:10.0.1.5", "010.000.001.005"]);
    for (const text of spellings) expect(parseAddress(text)).toEqual({ family: 4, value: v });
    expect(renderAddress({ family: 4, value: v }, "zeros")).toBe("010.000.001.005");
    expect(renderAddress(podAddress(6, 0, 1), "mapped")).toBe("fd00::1");
  });
});
