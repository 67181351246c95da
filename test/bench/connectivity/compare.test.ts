import { describe, expect, it } from "vitest";
import {
  clusterwireDiffSide,
  clusterwireListSide,
  compareSides,
  DIFF,
  ipv4Text,
  LIST,
  NONE,
  npGuardDiffSide,
  npGuardListSide,
  overlay,
  setText,
} from "../../../bench/connectivity/compare.js";
import type {
  AddressRange,
  ConnectionSet,
  ConnectivityLine,
  ConnectivityPeer,
} from "../../../src/networking/evaluate/connectivity/types.js";

const ALL: ConnectionSet = {
  TCP: [{ from: 1, to: 65535 }],
  UDP: [{ from: 1, to: 65535 }],
  SCTP: [{ from: 1, to: 65535 }],
};
const tcp = (...ports: number[]): ConnectionSet => ({
  TCP: ports.map((p) => ({ from: p, to: p })),
  UDP: [],
  SCTP: [],
});

function workload(key: string): ConnectivityPeer {
  const [namespace = "", kind = "", name = ""] = key.split("/");
  return { type: "workload", key, namespace, kind, name };
}

function external(...ranges: [4 | 6, string, string, string][]): ConnectivityPeer {
  const list: AddressRange[] = ranges.map(([family, first, last, cidr]) => ({ family, first, last, cidrs: [cidr] }));
  return { type: "external", ranges: list, key: list.map((r) => r.cidrs.join(",")).join(",") };
}

const line = (from: ConnectivityPeer, to: ConnectivityPeer, connections: ConnectionSet): ConnectivityLine => ({
  from,
  to,
  connections,
});

describe("setText", () => {
  it("writes clusterwire's notation", () => {
    expect(setText(ALL)).toBe("All connections");
    expect(setText(NONE)).toBe("No connections");
    expect(
      setText({
        TCP: [
          { from: 80, to: 80 },
          { from: 8080, to: 8090 },
        ],
        UDP: [{ from: 53, to: 53 }],
        SCTP: [],
      }),
    ).toBe("TCP 80,8080-8090; UDP 53");
  });
});

describe("overlay", () => {
  it("cuts both sides at every edge and keeps only the ranges that differ", () => {
    const a = [
      { first: 0, last: 99, value: tcp(80) },
      { first: 100, last: 2 ** 32 - 1, value: tcp(80) },
    ];
    const b = [
      { first: 0, last: 49, value: tcp(80) },
      { first: 50, last: 59, value: tcp(443) },
      { first: 60, last: 2 ** 32 - 1, value: tcp(80) },
    ];
    const { same, differ } = overlay(a, b, LIST);
    expect(differ).toEqual([{ first: 50, last: 59, a: tcp(80), b: tcp(443) }]);
    expect(same).toBe(2);
  });

  it("treats a range only one side lists as no connection on the other", () => {
    const { differ } = overlay([{ first: 10, last: 20, value: tcp(80) }], [], LIST);
    expect(differ).toEqual([{ first: 10, last: 20, a: tcp(80), b: NONE }]);
  });

  it("writes IPv4 numbers dotted", () => {
    expect(ipv4Text(0)).toBe("0.0.0.0");
    expect(ipv4Text(10 * 2 ** 24 + 255)).toBe("10.0.0.255");
    expect(ipv4Text(2 ** 32 - 1)).toBe("255.255.255.255");
  });
});

describe("comparing lists", () => {
  it("agrees when np-guard's pieces and clusterwire's joined line cover the same addresses alike", () => {
    const npGuard = npGuardListSide([
      { src: "0.0.0.0-9.255.255.255", dst: "shop/web[Deployment]", conn: "All Connections" },
      { src: "10.0.0.0-255.255.255.255", dst: "shop/web[Deployment]", conn: "All Connections" },
      { src: "shop/web[Deployment]", dst: "shop/api[Deployment]", conn: "TCP 8080" },
      { src: "{ingress-controller}", dst: "shop/web[Deployment]", conn: "TCP 80" },
    ]);
    const clusterwire = clusterwireListSide(
      [
        line(
          external(
            [4, "0.0.0.0", "255.255.255.255", "0.0.0.0/0"],
            [6, "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "::/0"],
          ),
          workload("shop/Deployment/web"),
          ALL,
        ),
        line(workload("shop/Deployment/web"), workload("shop/Deployment/api"), tcp(8080)),
      ],
      ["shop/Deployment/web", "shop/Deployment/api"],
    );
    const c = compareSides(npGuard, clusterwire, LIST);
    expect(c.differences).toEqual([]);
    expect(c.samePairs).toBe(1);
    expect(c.sameRanges).toBe(1);
    expect(c.ingressController).toBe(1);
    expect(c.ipv6Ranges).toBe(1);
    expect(c.workloadsOnlyNpGuard).toEqual([]);
    expect(c.workloadsOnlyClusterwire).toEqual([]);
  });

  it("lists each pair and address range where they differ, and marks workloads only one side names", () => {
    const npGuard = npGuardListSide([
      { src: "shop/web[Deployment]", dst: "shop/api[Deployment]", conn: "TCP 8080" },
      { src: "shop/web[Deployment]", dst: "0.0.0.0-255.255.255.255", conn: "TCP 443" },
      { src: "shop/api-5f7d[ReplicaSet]", dst: "shop/web[Deployment]", conn: "All Connections" },
    ]);
    const clusterwire = clusterwireListSide(
      [
        line(workload("shop/Deployment/web"), workload("shop/Deployment/api"), tcp(8080, 9090)),
        line(workload("shop/Deployment/web"), external([4, "0.0.0.0", "9.255.255.255", "0.0.0.0/5"]), tcp(443)),
        line(workload("shop/Pod/api-abc"), workload("shop/Deployment/web"), ALL),
      ],
      ["shop/Deployment/web", "shop/Deployment/api", "shop/Pod/api-abc"],
    );
    const c = compareSides(npGuard, clusterwire, LIST);
    expect(c.workloadsOnlyNpGuard).toEqual(["shop/ReplicaSet/api-5f7d"]);
    expect(c.workloadsOnlyClusterwire).toEqual(["shop/Pod/api-abc"]);
    expect(c.differences).toEqual([
      {
        from: "shop/Deployment/web",
        to: "10.0.0.0-255.255.255.255",
        npGuard: "TCP 443",
        clusterwire: "No connections",
        naming: false,
      },
      {
        from: "shop/Deployment/web",
        to: "shop/Deployment/api",
        npGuard: "TCP 8080",
        clusterwire: "TCP 8080,9090",
        naming: false,
      },
      {
        from: "shop/Pod/api-abc",
        to: "shop/Deployment/web",
        npGuard: "No connections",
        clusterwire: "All connections",
        naming: true,
      },
      {
        from: "shop/ReplicaSet/api-5f7d",
        to: "shop/Deployment/web",
        npGuard: "All connections",
        clusterwire: "No connections",
        naming: true,
      },
    ]);
  });
});

describe("comparing diffs", () => {
  it("compares before and after, per pair and per address range", () => {
    const npGuard = npGuardDiffSide([
      {
        diffType: "changed",
        src: "shop/web[Deployment]",
        dst: "shop/api[Deployment]",
        before: "TCP 8080",
        after: "TCP 9090",
        workloads: "",
      },
      {
        diffType: "added",
        src: "0.0.0.0-255.255.255.255",
        dst: "shop/new[Deployment]",
        before: "No Connections",
        after: "All Connections",
        workloads: "workload shop/new[Deployment] added",
      },
    ]);
    const same = clusterwireDiffSide([
      {
        kind: "changed",
        from: workload("shop/Deployment/web"),
        to: workload("shop/Deployment/api"),
        before: tcp(8080),
        after: tcp(9090),
      },
      {
        kind: "added",
        from: external([4, "0.0.0.0", "255.255.255.255", "0.0.0.0/0"]),
        to: workload("shop/Deployment/new"),
        before: NONE,
        after: ALL,
        workload: "added",
      },
    ]);
    expect(compareSides(npGuard, same, DIFF).differences).toEqual([]);

    const other = clusterwireDiffSide([
      {
        kind: "changed",
        from: workload("shop/Deployment/web"),
        to: workload("shop/Deployment/api"),
        before: tcp(8080),
        after: tcp(8080, 9090),
      },
    ]);
    const c = compareSides(npGuard, other, DIFF);
    expect(c.differences.map((d) => [d.from, d.to, d.npGuard, d.clusterwire])).toEqual([
      ["0.0.0.0-255.255.255.255", "shop/Deployment/new", "No connections -> All connections", "no change"],
      ["shop/Deployment/web", "shop/Deployment/api", "TCP 8080 -> TCP 9090", "TCP 8080 -> TCP 8080,9090"],
    ]);
  });
});
