// clusterwire decode --annotate, run in-process.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { annotateWire, decode } from "../../../src/networking/index.js";
import { cli, expectNoStack } from "../../support/cli/harness.js";

const tmp = mkdtempSync(join(tmpdir(), "clusterwire-decode-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const EXAMPLE = "examples/ingress.pb";
const bytes = new Uint8Array(readFileSync(EXAMPLE));

describe("clusterwire decode --annotate", () => {
  it("prints a header and one line per field, starting at each field's offset", async () => {
    const r = await cli(["decode", "--annotate", EXAMPLE]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const lines = r.stdout.split("\n");
    const obj = decode(bytes);
    expect(lines[0]).toBe(`# networking.k8s.io/v1 Ingress (${obj.$typeName}), ${bytes.length} bytes`);
    expect(lines[1]).toMatch(/^000000 {2}6b 38 73 00 +magic/);
    const spans = annotateWire(bytes).spans;
    expect(lines.slice(1, -1).map((l) => Number.parseInt(l.slice(0, l.indexOf(" ")), 16))).toEqual(
      spans.map((s) => s.offset),
    );
    // The object's name, as the decoder reads it, is on its own line.
    const name = (obj as { metadata?: { name: string } }).metadata?.name ?? "";
    expect(r.stdout).toMatch(new RegExp(`1:LEN metadata\\.name = ${JSON.stringify(name)}$`, "m"));
  });

  it("reads standard input and writes to -o FILE", async () => {
    const out = join(tmp, "annotated.txt");
    const r = await cli(["decode", "--annotate", "-", "-o", out], { stdin: bytes });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(readFileSync(out, "utf8")).toBe((await cli(["decode", "--annotate", EXAMPLE])).stdout);
  });

  it("bad input exits 1 with the byte offset, and no partial output", async () => {
    const bad = join(tmp, "truncated.pb");
    writeFileSync(bad, bytes.subarray(0, 60));
    const r = await cli(["decode", "--annotate", bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/protobuf decode error at byte \d+/);
    expect(r.stdout).toBe("");
    expectNoStack(r);
  });

  it.each([
    [["--annotate", "--watch", "examples/ingress-watch.pb"], /--annotate reads one object/],
    [["--annotate", "--output", "json", EXAMPLE], /--output and --indent do not apply/],
  ])("usage errors exit 2: %j", async (args, message) => {
    const r = await cli(["decode", ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  it("is in --help", async () => {
    const r = await cli(["decode", "--help"]);
    expect(r.stdout).toContain("--annotate");
  });
});
