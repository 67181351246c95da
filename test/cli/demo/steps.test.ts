// The demo's manifests section: each object through each step (round-trip, validate), the steps
// a later section plugs in, and the summary and exit code runDemo makes of them. The demo command
// as a whole (the routes, reach and storage sections after it) is in command.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  DEMO_STEPS,
  EXPECTED_INVALID_DIR,
  describeError,
  expectedInvalid,
  roundTripStep,
  runDemo,
  validateStep,
  type DemoStep,
} from "../../../src/cli/demo/steps.js";
import { CliError, EXIT_USAGE } from "../../../src/cli/shared/io.js";
import { DecodeError, EncodeError, encode, encodeWatchEvent, fromYaml } from "../../../src/networking/index.js";
import { REPO, cli } from "../../support/cli/harness.js";
import { ingressClassYaml, memorySink, tempTrees } from "../../support/cli/validate.js";

const EXAMPLES = join(REPO, "examples");
const tmp = mkdtempSync(join(tmpdir(), "clusterwire-demo-steps-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tree = tempTrees("demo-steps");

const object = fromYaml(ingressClassYaml("a"))[0]!;
const invalidObject = fromYaml(ingressClassYaml("Bad_"))[0]!;

describe("roundTripStep", () => {
  it("passes an object that survives every form, with its protobuf and JSON sizes", () => {
    expect(roundTripStep.check({ file: "a.yaml", object }, [])).toEqual({
      ok: true,
      summary: `pb ${String(encode(object).length).padStart(5)} B  json   127 B  round-trip ok`,
    });
    const pb = encode(object);
    expect(roundTripStep.check({ file: "a.pb", object, original: pb }, []).ok).toBe(true);
    const frame = encodeWatchEvent({ type: "ADDED", object });
    expect(roundTripStep.check({ file: "w.pb", object, original: frame, event: "ADDED" }, []).ok).toBe(true);
  });

  it("fails when re-encoding differs from the bytes read, saying where", () => {
    const pb = encode(object);
    const flipped = Uint8Array.from(pb);
    flipped[pb.length - 1] = (flipped[pb.length - 1] ?? 0) ^ 1;
    expect(roundTripStep.check({ file: "a.pb", object, original: flipped }, [])).toEqual({
      ok: false,
      summary: `pb ${String(pb.length).padStart(5)} B  json   127 B  round-trip FAILED`,
      problems: [
        `re-encoding differs from the input bytes at byte ${pb.length - 1} (${pb.length} vs ${pb.length} bytes)`,
      ],
    });
    // A watch event is compared as its whole frame.
    expect(roundTripStep.check({ file: "w.pb", object, original: pb, event: "ADDED" }, []).problems).toEqual([
      `re-encoding differs from the input bytes at byte 0 (${encodeWatchEvent({ type: "ADDED", object }).length} vs ${pb.length} bytes)`,
    ]);
    expect(roundTripStep.check({ file: "a.pb", object, original: pb.subarray(0, 10) }, []).problems).toEqual([
      `re-encoding differs from the input bytes in length (${pb.length} vs 10 bytes)`,
    ]);
  });
});

describe("validateStep and expectedInvalid", () => {
  it("passes a valid object, and fails an invalid one with its errors as problems", () => {
    expect(validateStep.check({ file: "a.yaml", object }, [])).toEqual({ ok: true, summary: "validate ok" });
    const r = validateStep.check({ file: "a.yaml", object: invalidObject }, []);
    expect(r).toMatchObject({ ok: false, summary: "validate FAILED: 1 error" });
    expect(r.problems).toEqual([expect.stringMatching(/^metadata\.name: Invalid value: "Bad_": /)]);
  });

  it("under a directory named invalid, wants errors and shows them as notes", () => {
    const r = validateStep.check({ file: "x/invalid/a.yaml", relative: "invalid/a.yaml", object: invalidObject }, []);
    expect(r).toMatchObject({ ok: true, expectedFailure: true, summary: "validate: 1 error, as expected" });
    expect(r.notes).toHaveLength(1);
    expect(validateStep.check({ file: "invalid/a.yaml", object }, [])).toEqual({
      ok: false,
      summary: "validate FAILED",
      problems: ["valid, but files under invalid/ must fail validation"],
    });
    expect(validateStep.expectedFailureText).toBe("invalid as expected");
  });

  it("counts only the directories below the demo directory, when the item says where that is", () => {
    expect(EXPECTED_INVALID_DIR).toBe("invalid");
    expect(expectedInvalid({ file: "invalid/a.yaml", object })).toBe(true);
    expect(expectedInvalid({ file: "d/invalid/sub/a.yaml", object })).toBe(true);
    expect(expectedInvalid({ file: "d\\invalid\\a.yaml", object })).toBe(true);
    expect(expectedInvalid({ file: "invalid/a.yaml", relative: "a.yaml", object })).toBe(false);
    expect(expectedInvalid({ file: "d/invalid.yaml", object })).toBe(false);
    expect(expectedInvalid({ file: "d/not-invalid/a.yaml", object })).toBe(false);
  });

  it("the demo's steps are round-trip, then validate", () => {
    expect(DEMO_STEPS).toEqual([roundTripStep, validateStep]);
  });
});

describe("describeError", () => {
  it("is the message of codec and CLI errors, and rethrows anything else", () => {
    const decodeError = new DecodeError("yaml", "bad", { line: 2 });
    expect(describeError(decodeError)).toBe(decodeError.message);
    expect(describeError(new EncodeError("too big", "spec"))).toBe("spec: too big");
    expect(describeError(new CliError("cli", EXIT_USAGE))).toBe("cli");
    const bug = new RangeError("bug");
    expect(() => describeError(bug)).toThrow(bug);
  });
});

describe("runDemo", () => {
  it("runs every step on every object, with a plugged-in step's notes and expected failures counted", async () => {
    const dir = tree({
      "x.yaml": `${ingressClassYaml("a")}---\n${ingressClassYaml("b")}`,
      "invalid/y.yaml": ingressClassYaml("Bad_"),
      "notes.txt": "not read",
      "package.json": '{"name": "not a manifest"}',
    });
    const seen: number[] = [];
    const custom: DemoStep = {
      name: "custom",
      check: (item, all) => {
        seen.push(all.length);
        return {
          ok: true,
          summary: `custom ${item.index ?? "-"}`,
          notes: ["a note"],
          expectedFailure: item.index === 1,
        };
      },
    };
    const out = memorySink(false);
    const code = await runDemo({ stdout: out, stderr: memorySink(false), cwd: dir }, ".", [...DEMO_STEPS, custom]);
    expect(code).toBe(0);
    expect(seen).toEqual([3, 3, 3]);
    const lines = out.text().split("\n");
    expect(lines[0]).toBe(
      "clusterwire demo: 2 manifest files in . (1 other files are not manifests) (steps: round-trip, validate, custom)",
    );
    expect(lines.filter((l) => !l.startsWith(" "))).toEqual([
      lines[0],
      expect.stringMatching(
        /^invalid\/y\.yaml {2}IngressClass {2}Bad_ {2}pb +\d+ B {2}json +\d+ B {2}round-trip ok {2}validate: 1 error, as expected {2}custom -$/,
      ),
      expect.stringMatching(/^x\.yaml #1 {7}IngressClass {2}a {5}pb .* {2}validate ok {2}custom 0$/),
      expect.stringMatching(/^x\.yaml #2 {7}IngressClass {2}b {5}pb .* {2}validate ok {2}custom 1$/),
      "ok: 3 objects from 2 files; round-trip 3/3 ok; validate 3/3 ok (1 invalid as expected); custom 3/3 ok (1 expected failures)",
      "",
    ]);
    expect(lines.filter((l) => l === "      a note")).toHaveLength(3);
  });

  it("fails with exit 1 on a broken manifest and still reports the rest", async () => {
    const dir = mkdtempSync(join(tmp, "demo-"));
    writeFileSync(join(dir, "good.yaml"), readFileSync(join(EXAMPLES, "netpol-default-deny.yaml")));
    writeFileSync(
      join(dir, "typo.yaml"),
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: x\nspec:\n  podSelectr: {}\n",
    );
    writeFileSync(join(dir, "notes.txt"), "ignored");
    const r = await cli(["demo", "--no-storage", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/good\.yaml\s+NetworkPolicy\s+shop\/default-deny-all\s.*round-trip ok {2}validate ok/);
    // The unknown field is reported at its value, "{}" on line 6, column 15.
    expect(r.stdout).toMatch(
      /typo\.yaml {2}FAILED: line 6, column 15: strict decoding error: unknown field "spec\.podSelectr"/,
    );
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe(
      "FAILED: 1 objects from 2 files; round-trip 1/1 ok; validate 1/1 ok; 1 file failed to load",
    );
  });

  it("fails when a valid example becomes invalid, printing its errors", async () => {
    const dir = mkdtempSync(join(tmp, "demo-"));
    writeFileSync(join(dir, "good.yaml"), readFileSync(join(EXAMPLES, "netpol-default-deny.yaml")));
    writeFileSync(
      join(dir, "port.yaml"),
      readFileSync(join(EXAMPLES, "netpol-egress-dns.yaml"), "utf8").replace("port: 53", "port: 0"),
    );
    const r = await cli(["demo", "--no-storage", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /port\.yaml\s+NetworkPolicy\s+\S+\s.*round-trip ok {2}validate FAILED: \d errors?\n {4}- spec\.egress\[0\]\.ports\[\d\]\.port: Invalid value: 0: must be between 1 and 65535, inclusive\n/,
    );
    expect(r.stdout.trimEnd().split("\n").at(-1)).toMatch(
      /^FAILED: 2 objects from 2 files; round-trip 2\/2 ok; validate 1\/2 ok$/,
    );
  });

  it("fails when an example under invalid/ becomes valid, and passes while it stays invalid", async () => {
    const dir = mkdtempSync(join(tmp, "demo-"));
    mkdirSync(join(dir, "invalid"));
    writeFileSync(join(dir, "invalid", "fixed.yaml"), readFileSync(join(EXAMPLES, "netpol-default-deny.yaml")));
    const r = await cli(["demo", "--no-storage", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "round-trip ok  validate FAILED\n    - valid, but files under invalid/ must fail validation\n",
    );
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe(
      "FAILED: 1 objects from 1 files; round-trip 1/1 ok; validate 0/1 ok",
    );

    writeFileSync(join(dir, "invalid", "fixed.yaml"), readFileSync(join(EXAMPLES, "invalid", "ingressclass-bad.yaml")));
    const again = await cli(["demo", "--no-storage", dir]);
    expect(again.code).toBe(0);
    expect(again.stdout.trimEnd().split("\n").at(-1)).toBe(
      "ok: 1 objects from 1 files; round-trip 1/1 ok; validate 1/1 ok (1 invalid as expected)",
    );
    // Only a directory below the demo directory counts: the same file given as the demo directory itself is checked as valid.
    expect((await cli(["demo", "--no-storage", join(dir, "invalid")])).code).toBe(1);
  });

  it("exits 2 for a directory without manifests", async () => {
    const dir = mkdtempSync(join(tmp, "empty-"));
    const r = await cli(["demo", "--no-storage", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no .yaml, .yml, .json, .jsonl or .pb files found");
  });
});
