// clusterwire encode, run in-process: one JSON or YAML object to Kubernetes protobuf. The HEAD
// fixtures and the examples through every codec command are in test/cli/main.test.ts.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decode, encode, fromYaml } from "../../../src/networking/index.js";
import { cli, expectNoStack } from "../../support/cli/harness.js";

const tmp = mkdtempSync(join(tmpdir(), "clusterwire-encode-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CLASS =
  "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: x\nspec:\n  controller: x.io/c\n";

describe("clusterwire encode", () => {
  it("writes the object's protobuf, from a file or stdin, the format from the name or the content", async () => {
    const want = encode(fromYaml(CLASS)[0]!);
    expect((await cli(["encode", "-"], { stdin: CLASS })).bytes).toEqual(want);
    const json = (await cli(["convert", "-", "--to", "json"], { stdin: CLASS })).stdout;
    expect((await cli(["encode"], { stdin: json })).bytes).toEqual(want);
    // --from overrides what the content says: JSON is YAML too.
    expect((await cli(["encode", "-", "--from", "yaml"], { stdin: json })).bytes).toEqual(want);
  });

  it("encodes to a file even when stdout is a terminal", async () => {
    const out = join(tmp, "tty.pb");
    const r = await cli(["encode", "examples/netpol-default-deny.yaml", "-o", out], { stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(decode(readFileSync(out)).$typeName).toBe("k8s.io.api.networking.v1.NetworkPolicy");
  });

  it("asks for one object per file when encoding multi-document YAML", async () => {
    const r = await cli(["encode", "examples/catalog-stack.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("examples/catalog-stack.yaml: 3 YAML documents, but protobuf output holds one object");
    expect(r.bytes.length).toBe(0);
  });

  it("rejects empty input", async () => {
    const r = await cli(["encode", "-", "--from", "yaml"], { stdin: "# nothing here\n" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("<stdin>: no object found");
  });

  it("takes only JSON and YAML, and -o as a file name", async () => {
    const pb = await cli(["encode", "-", "--from", "pb"], { stdin: CLASS });
    expect(pb.code).toBe(2);
    expect(pb.stderr).toContain('--from must be one of json, yaml, got "pb"');
    const sniffed = await cli(["encode", "examples/ingress.pb", "-o", join(tmp, "again.pb")]);
    expect(sniffed.code).toBe(2);
    expect(sniffed.stderr).toContain(
      "examples/ingress.pb: already protobuf; use clusterwire decode, or convert --to pb to re-encode",
    );
    const out = await cli(["encode", "-", "-o", "yml"], { stdin: CLASS });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('-o takes a file name, got "yml" (write ./yml if you mean that file)');
    expect(out.stderr).toContain("clusterwire encode --help");
    expectNoStack(out);
  });
});

describe("clusterwire encode: processing failures exit 1 and say where", () => {
  it("reports a JSON syntax error with line and column", async () => {
    const r = await cli(["encode", "-"], {
      stdin: '{\n  "apiVersion": "networking.k8s.io/v1",\n  "kind": "Ingress",\n  "metadata": {"name": }\n}\n',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^clusterwire: <stdin>: json decode error at line 4, column \d+: /);
    expectNoStack(r);
  });

  it("reports a type error in YAML with the document and field path", async () => {
    const yaml =
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: x\nspec:\n  ingress:\n  - ports:\n    - endPort: ten\n";
    const r = await cli(["encode", "-"], { stdin: yaml });
    expect(r.code).toBe(1);
    // Documents are numbered from 1; line and column point at the value "ten".
    expect(r.stderr).toMatch(
      /^clusterwire: <stdin>: yaml decode error at document 1, line 8, column 16, field spec\.ingress\[0\]\.ports\[0\]\.endPort: /,
    );
    expectNoStack(r);
  });

  it("reports an unsupported kind", async () => {
    const r = await cli(["encode", "-"], { stdin: '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unsupported apiVersion/kind "v1/Pod"');
  });
});
