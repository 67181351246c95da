import { describe, expect, it } from "vitest";
import { isolate, parseCpuList } from "../../../bench/webhook/isolation.js";

describe("parseCpuList", () => {
  it("reads taskset's lists: single CPUs, ranges and both", () => {
    expect(parseCpuList("0,1")).toEqual([0, 1]);
    expect(parseCpuList(" 0-3,6\n")).toEqual([0, 1, 2, 3, 6]);
    expect(parseCpuList("5")).toEqual([5]);
  });

  it("refuses what is not a CPU list", () => {
    expect(() => parseCpuList("mask ff")).toThrow(/not a CPU list/);
  });
});

describe("isolate", () => {
  it("runs unpinned when asked, and says so", () => {
    const i = isolate(false);
    expect(i).toMatchObject({ serverCpu: undefined, generatorCpu: undefined });
    expect(i.description).toMatch(/^none: --unpinned/);
  });
});
