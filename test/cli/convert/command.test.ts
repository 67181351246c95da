// clusterwire convert, run in-process: between JSON, YAML and protobuf. The HEAD fixtures and the
// examples through every codec command are in test/cli/main.test.ts.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encode, fromYaml, toJsonString, toYaml } from "../../../src/networking/index.js";
import { cli, expectNoStack } from "../../support/cli/harness.js";

const tmp = mkdtempSync(join(tmpdir(), "clusterwire-convert-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CLASS =
  "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: x\nspec:\n  controller: x.io/c\n";
const object = fromYaml(CLASS)[0]!;
const prettyJson = (indent: number) => `${JSON.stringify(JSON.parse(toJsonString(object)), null, indent)}\n`;

describe("clusterwire convert", () => {
  it("takes --to from the -o file's extension, in any case", async () => {
    const wants: [string, string | Uint8Array][] = [
      ["o.JSON", prettyJson(2)],
      ["o.yml", toYaml(object)],
      ["o.yaml", toYaml(object)],
      ["o.pb", encode(object)],
    ];
    for (const [name, want] of wants) {
      const out = join(tmp, name);
      const r = await cli(["convert", "-", "-o", out], { stdin: CLASS });
      expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
      const written = readFileSync(out);
      if (typeof want === "string") expect(written.toString()).toBe(want);
      else expect(new Uint8Array(written)).toEqual(want);
    }
    const unknown = await cli(["convert", "-", "-o", join(tmp, "o.txt")], { stdin: CLASS });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--to json|yaml|pb is required (or an -o file ending in .json, .yaml or .pb)");
  });

  it("writes compact JSON with --indent 0, and takes --indent with --to json only", async () => {
    const compact = await cli(["convert", "-", "--to", "json", "--indent", "0"], { stdin: CLASS });
    expect(compact.stdout).toBe(`${toJsonString(object)}\n`);
    const four = await cli(["convert", "-", "--to", "json", "--indent", "4"], { stdin: CLASS });
    expect(four.stdout).toBe(prettyJson(4));
    const yaml = await cli(["convert", "-", "--to", "yaml", "--indent", "2"], { stdin: CLASS });
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain("--indent applies to --to json only");
  });

  it("keeps every YAML document for YAML output, and wants one object for JSON and protobuf", async () => {
    const two = `${CLASS}---\n${CLASS.replace("name: x", "name: z")}`;
    const yaml = await cli(["convert", "-", "--to", "yaml"], { stdin: two });
    expect(yaml.code).toBe(0);
    expect(fromYaml(yaml.stdout).map((o) => (o as { metadata?: { name?: string } }).metadata?.name)).toEqual([
      "x",
      "z",
    ]);
    const json = await cli(["convert", "-", "--to", "json"], { stdin: two });
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("<stdin>: 2 YAML documents, but JSON output holds one object");
    const pb = await cli(["convert", "-", "--to", "pb"], { stdin: two });
    expect(pb.code).toBe(2);
    expect(pb.stderr).toContain("<stdin>: 2 YAML documents, but protobuf output holds one object");
  });

  it("--from overrides detection, and input that does not decode as that format exits 1", async () => {
    const pb = encode(object);
    const r = await cli(["convert", "-", "--from", "pb", "--to", "yaml"], { stdin: pb });
    expect(r.stdout).toBe(toYaml(object));
    const broken = await cli(["convert", "-", "--from", "pb", "--to", "yaml"], { stdin: pb.subarray(0, 12) });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^clusterwire: <stdin>: protobuf decode error at byte \d+/);
    expect(broken.stdout).toBe("");
    expectNoStack(broken);
    const text = await cli(["convert", "-", "--from", "json", "--to", "yaml"], { stdin: CLASS });
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^clusterwire: <stdin>: json decode error/);
  });

  it("refuses -o with a bare format name, hinting at --to", async () => {
    const r = await cli(["convert", "-", "--to", "yaml", "-o", "json"], { stdin: CLASS });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-o takes a file name, got "json"; for the output format use --to json');
  });
});

describe("clusterwire convert: processing failures exit 1 and say where", () => {
  it("keeps the last of repeated YAML keys by default, rejects them with --strict, and numbers documents from 1", async () => {
    const doc = (name: string) => `apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: ${name}\n`;
    const dup = `${doc("first")}  name: last\n`;
    const lax = await cli(["convert", "-", "--from", "yaml", "--to", "json"], { stdin: dup });
    expect(lax.code).toBe(0);
    expect(lax.stdout).toMatch(/"name": "last"/);
    expect(lax.stdout).not.toContain("first");
    const strict = await cli(["convert", "-", "--from", "yaml", "--to", "json", "--strict"], {
      stdin: `${doc("a")}---\n${dup}`,
    });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(
      /^clusterwire: <stdin>: yaml decode error at document 2, line 10, column 3: .*"name"/,
    );
    expectNoStack(strict);
  });

  it("reports binary given as text", async () => {
    const r = await cli(["convert", "-", "--from", "yaml", "--to", "json"], {
      stdin: Uint8Array.of(0xff, 0xfe, 0x00, 0x01),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("<stdin>: not valid UTF-8");
  });
});
