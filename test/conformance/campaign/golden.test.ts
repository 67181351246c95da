// npm test checks clusterwire against the real API server's answers without Go: the golden
// answers of `npm run conformance -- --golden write` (regenerated and compared by .ci/run), one
// file per server version, each request predicted again and compared byte for byte.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allKnown } from "../../../conformance/campaign/compare.js";
import { repoRoot } from "../../../conformance/campaign/controlplane.js";
import { goldenChanges, readGolden, type GoldenRecord } from "../../../conformance/campaign/golden.js";
import { KNOWN_DIFFERENCES } from "../../../conformance/campaign/known.js";
import { check } from "../../../conformance/campaign/run.js";

const DIR = join(repoRoot(), "test", "fixtures", "apiserver");
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith(".json.gz"))
  .sort();

describe("golden answers of a real kube-apiserver", () => {
  it("has the answers of both servers clusterwire validates as", () => {
    expect(FILES).toEqual(["v1.35.4.json.gz", "v1.37.2.json.gz"]);
  });

  for (const file of FILES) {
    const golden = readGolden(join(DIR, file));

    describe(golden.server, () => {
      it("covers at least 3,000 requests across kinds, operations, body formats and field validations", () => {
        const r = golden.records.map((x) => x.request);
        expect(r.length).toBeGreaterThanOrEqual(3000);
        const values = (f: (x: (typeof r)[number]) => string) => new Set(r.map(f));
        expect(values((x) => x.kind)).toEqual(
          new Set(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"]),
        );
        expect(values((x) => x.operation)).toEqual(new Set(["create", "update", "status"]));
        expect(values((x) => x.format)).toEqual(new Set(["json", "yaml", "protobuf"]));
        expect(values((x) => x.fieldValidation)).toEqual(new Set(["Strict", "Warn", "Ignore"]));
        expect(values((x) => x.accept)).toEqual(new Set(["json", "protobuf"]));
        // Refusals and acceptances both, with warnings among them.
        const statuses = new Set(golden.records.map((x) => String(x.answer.status)));
        for (const s of ["200", "201", "400", "422"]) expect(statuses).toContain(s);
        expect(golden.records.some((x) => x.answer.warnings.length > 0)).toBe(true);
      });

      it("clusterwire gives every answer the server gave, but for the documented differences", () => {
        const disagreeing: string[] = [];
        const known = new Map<string, number>();
        for (const [i, record] of golden.records.entries()) {
          const differences = check(record.request, record.answer, golden.kubernetesVersion);
          if (differences.length === 0) continue;
          if (allKnown(differences)) {
            const id = differences[0]!.known!;
            known.set(id, (known.get(id) ?? 0) + 1);
            continue;
          }
          const r = record.request;
          disagreeing.push(
            `record ${i}: ${r.operation} ${r.kind} (${r.source}) as ${r.format}: ${differences
              .map((d) => `${d.what}: ${d.detail}`)
              .join("; ")
              .slice(0, 800)}`,
          );
        }
        expect(disagreeing).toEqual([]);
        for (const id of known.keys()) expect(KNOWN_DIFFERENCES.map((k) => k.id)).toContain(id);
      });
    });
  }
});

describe("goldenChanges", () => {
  const golden = readGolden(join(DIR, FILES[0]!));
  const records = golden.records.slice(0, 400);

  it("finds no change between a record list and itself", () => {
    expect(goldenChanges(records, records)).toEqual([]);
  });

  it("ignores what only a server fills: uid, timestamps, resourceVersion", () => {
    const i = records.findIndex((r) => r.answer.status === 201 && r.answer.contentType.startsWith("application/json"));
    expect(i).toBeGreaterThanOrEqual(0);
    const a = records[i]!;
    const body = JSON.parse(a.answer.body) as { metadata: Record<string, unknown> };
    body.metadata.uid = "00000000-0000-4000-8000-000000000000";
    body.metadata.creationTimestamp = "2000-01-01T00:00:00Z";
    const changed: GoldenRecord = { ...a, answer: { ...a.answer, body: `${JSON.stringify(body)}\n` } };
    expect(goldenChanges([a], [changed])).toEqual([]);
  });

  it("reports any other change to an answer: status, warnings, a field of the object", () => {
    const i = records.findIndex((r) => r.answer.status === 201 && r.answer.contentType.startsWith("application/json"));
    const a = records[i]!;
    const body = JSON.parse(a.answer.body) as { metadata: Record<string, unknown> };
    body.metadata.generation = 7;
    const changes = goldenChanges(
      [a, a, a],
      [
        { ...a, answer: { ...a.answer, status: 200 } },
        { ...a, answer: { ...a.answer, warnings: ["new"] } },
        { ...a, answer: { ...a.answer, body: JSON.stringify(body) } },
      ],
    );
    expect(changes).toHaveLength(3);
  });

  it("reports a changed plan and a changed count", () => {
    const [a, b] = records;
    expect(goldenChanges([a!, b!], [b!, a!])[0]).toMatch(/the request differs/);
    expect(goldenChanges([a!, b!], [a!])[0]).toMatch(/2 records before, 1 now/);
  });
});
