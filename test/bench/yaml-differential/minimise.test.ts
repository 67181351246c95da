import { describe, expect, it } from "vitest";
import { minimise, splitLines } from "../../../bench/yaml-differential/minimise.js";

describe("minimise", () => {
  it("finds the one line and the characters that matter", async () => {
    const text = "a: 1\nb: 2\nc: x\ty\nd: 4\n";
    const out = await minimise(text, async (t) => t.includes("\t"));
    expect(out).toBe("\t");
  });

  it("keeps a pair of characters that only fail together", async () => {
    const text = "key: value # a comment\nother: [1, 2]\n";
    const keep = async (t: string): Promise<boolean> => t.includes("[") && t.includes("#");
    const out = await minimise(text, keep);
    expect(await keep(out)).toBe(true);
    expect(out.length).toBe(2);
  });

  it("returns a text that still holds, within its budget", async () => {
    let calls = 0;
    const keep = async (t: string): Promise<boolean> => {
      calls++;
      return t.length % 7 === 3 || t === "abcdefghijklmnopqrstuvwxyz";
    };
    const out = await minimise("abcdefghijklmnopqrstuvwxyz", keep, { budget: 10 });
    expect(calls).toBeLessThanOrEqual(10);
    expect(await keep(out)).toBe(true);
  });

  it("splits lines keeping their ends", () => {
    expect(splitLines("a\r\nb\n\nc")).toEqual(["a\r\n", "b\n", "\n", "c"]);
    expect(splitLines("")).toEqual([]);
  });
});
