import { describe, expect, it } from "vitest";
import { stableAnswer } from "../../../bench/yaml-differential/golden.js";
import type { OracleAnswer } from "../../../bench/yaml-differential/oracle.js";

describe("stableAnswer", () => {
  // Two texts of one probe gave these two answers in two Go runs (seed 20261475):
  // sigs.k8s.io/yaml names whichever unsupported key Go's map order reaches first (1.6.0's wording).
  const run = (strictKey: string): OracleAnswer => ({
    docs: [
      {
        text: "k0: {18446744073709551614: v}\nk2: {0o1000000000000000000000: v}\n",
        error: 'unsupported map key of type: uint64, key: 0xfffffffffffffffe, value: "v"',
        strictError: `unsupported map key of type: uint64, key: ${strictKey}, value: "v"`,
      },
    ],
    body: { error: `unsupported map key of type: uint64, key: ${strictKey}, value: "v"` },
  });

  it("gives one answer for both runs, still an error in every place Go refused", () => {
    const a = stableAnswer(run("0xfffffffffffffffe"));
    const b = stableAnswer(run("0x8000000000000000"));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.docs[0]?.error).toMatch(/^unsupported map key of type: /);
    expect(a.docs[0]?.strictError).toMatch(/^unsupported map key of type: /);
    expect(a.body.error).toMatch(/^unsupported map key of type: /);
    expect(a.body.strictError).toBeUndefined();
  });

  it("leaves every other answer as Go gave it", () => {
    const answer: OracleAnswer = {
      docs: [
        {
          text: "a: 1\na: 2\n",
          json: '{"a":2}',
          strictError: 'yaml: unmarshal errors:\n  line 2: key "a" already set in map',
        },
      ],
      body: { json: '{"a":2}', strictError: 'yaml: unmarshal errors:\n  line 2: key "a" already set in map' },
    };
    expect(stableAnswer(answer)).toEqual(answer);
  });
});
