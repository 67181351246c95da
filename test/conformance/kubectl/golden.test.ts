// kubectl's answers to a fixed selection of documents (test/fixtures/kubectl/<version>.json, made
// by `npm run kubectl-compare -- --golden write` against a real kube-apiserver and the kubectl of
// the same release) checked against what `clusterwire validate -o json` implies kubectl prints,
// with no Go and no server. `--golden check` (in .ci/run) asks kubectl again.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../conformance/campaign/controlplane.js";
import { clusterwireSide, samePrinted } from "../../../conformance/kubectl/compare.js";
import { statusLines } from "../../../conformance/kubectl/expect.js";
import { FILE, goldenPath, readGolden } from "../../../conformance/kubectl/golden.js";
import { explain } from "../../../conformance/kubectl/known.js";
import type { KubernetesVersion } from "../../../src/networking/index.js";

const dir = mkdtempSync(join(tmpdir(), "clusterwire-kubectl-golden-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const [version, minor] of [
  ["v1.35.4", "1.35"],
  ["v1.37.2", "1.37"],
] as const) {
  describe(`kubectl ${version}'s answers, stored`, () => {
    const golden = readGolden(goldenPath(repoRoot(), version));

    it("hold refusals and acceptances of every networking kind the corpora have", () => {
      expect(golden.version).toBe(version);
      expect(golden.records.length).toBeGreaterThan(100);
      expect(golden.records.filter((r) => r.code === 0).length).toBeGreaterThan(10);
      expect(golden.records.filter((r) => r.code === 1).length).toBeGreaterThan(50);
      const kinds = new Set(
        golden.records.map((r) => /"kind": ?"(\w+)"|^kind: (\w+)/m.exec(r.text)?.slice(1).find(Boolean)),
      );
      expect([...kinds].sort()).toEqual(expect.arrayContaining(["Ingress", "IngressClass", "NetworkPolicy"]));
    });

    it("clusterwire validate implies kubectl's exit status and every line, or a named known difference", async () => {
      const mismatches: string[] = [];
      for (const [i, record] of golden.records.entries()) {
        const path = join(dir, `${version}-${i}${record.extension}`);
        writeFileSync(path, record.text);
        const { expected } = await clusterwireSide(path, record.text, minor as KubernetesVersion, FILE);
        const agrees = expected !== undefined && samePrinted(expected, record);
        const known = expected === undefined || agrees ? undefined : explain(record, expected, new Set());
        if (agrees ? record.known !== undefined : known?.id !== record.known || known === undefined) {
          mismatches.push(
            `${record.id}: kubectl ${JSON.stringify(record)}\n  clusterwire implies ${JSON.stringify(expected)}`,
          );
        }
      }
      expect(mismatches).toEqual([]);
    });
  });
}

describe("kubectl's rendering of a Status", () => {
  const invalid = (causes: { field: string; message: string }[]) => ({
    reason: "Invalid",
    message: "ignored when there are causes",
    details: { kind: "Ingress", name: "web", causes },
  });

  it("one cause: on the header's line", () => {
    expect(statusLines(invalid([{ field: "spec", message: "Required value" }]), FILE)).toEqual([
      'The Ingress "web" is invalid: spec: Required value',
    ]);
  });

  it("several causes: a header ending in a space, then a * line each", () => {
    expect(
      statusLines(
        invalid([
          { field: "spec.a", message: "Required value" },
          { field: "spec.b", message: 'Invalid value: "x": no' },
        ]),
        FILE,
      ),
    ).toEqual(['The Ingress "web" is invalid: ', "* spec.a: Required value", '* spec.b: Invalid value: "x": no']);
  });

  it("other refusals: Error from server, with the reason when there is one, and the file", () => {
    expect(statusLines({ reason: "BadRequest", message: "no" }, "f.yaml")).toEqual([
      'Error from server (BadRequest): error when creating "f.yaml": no',
    ]);
    expect(
      statusLines({ reason: "", message: "resourceVersion should not be set on objects to be created" }, "f"),
    ).toEqual([
      'Error from server: error when creating "f": resourceVersion should not be set on objects to be created',
    ]);
  });
});
