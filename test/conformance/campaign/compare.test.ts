// The comparison of one answer with clusterwire's prediction: each kind of difference is caught,
// and the fields only a server fills are checked by rule, not by value.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compare, signatureOf } from "../../../conformance/campaign/compare.js";
import { repoRoot } from "../../../conformance/campaign/controlplane.js";
import { readGolden } from "../../../conformance/campaign/golden.js";
import { predict } from "../../../conformance/campaign/predict.js";
import type { ServerAnswer } from "../../../conformance/campaign/request.js";

const golden = readGolden(join(repoRoot(), "test", "fixtures", "apiserver", "v1.35.4.json.gz"));
const find = (f: (status: number, contentType: string) => boolean) => {
  const r = golden.records.find((x) => f(x.answer.status, x.answer.contentType) && x.request.operation === "create");
  if (r === undefined) throw new Error("no such golden record");
  return r;
};
const acceptedJson = find((s, t) => s === 201 && t.startsWith("application/json"));
const acceptedProtobuf = find((s, t) => s === 201 && t.startsWith("application/vnd.kubernetes.protobuf"));
const refusedJson = find((s, t) => s === 422 && t.startsWith("application/json"));

const diff = (record: typeof acceptedJson, answer: ServerAnswer) =>
  compare(record.request, predict(record.request, "1.35"), answer);

describe("compare", () => {
  it("agrees with the server's own answers", () => {
    for (const r of [acceptedJson, acceptedProtobuf, refusedJson]) expect(diff(r, r.answer)).toEqual([]);
  });

  it("catches another status code", () => {
    const d = diff(refusedJson, { ...refusedJson.answer, status: 400 });
    expect(d.map((x) => x.what)).toContain("status");
  });

  it("catches a missing, an extra or a reordered warning", () => {
    expect(diff(acceptedJson, { ...acceptedJson.answer, warnings: ['unknown field "x"'] })[0]?.what).toBe("warnings");
  });

  it("catches one byte of the Status body", () => {
    const body = refusedJson.answer.body.replace("is invalid", "is invalld");
    const d = diff(refusedJson, { ...refusedJson.answer, body });
    expect(d).toHaveLength(1);
    expect(d[0]!.what).toBe("body");
    expect(d[0]!.detail).toContain("invalld");
  });

  it("catches one byte of a protobuf object", () => {
    const bytes = Buffer.from(acceptedProtobuf.answer.body, "base64");
    // The last byte belongs to the object's status or spec, not to a server-filled field.
    bytes[bytes.length - 1] = (bytes[bytes.length - 1]! + 1) & 0xff;
    const d = diff(acceptedProtobuf, { ...acceptedProtobuf.answer, body: bytes.toString("base64") });
    expect(d.length).toBeGreaterThan(0);
  });

  it("takes uid and creationTimestamp from the server once they pass their rule", () => {
    const body = JSON.parse(acceptedJson.answer.body) as { metadata: Record<string, unknown> };
    body.metadata.uid = "6f1c2b3a-0000-4000-8000-0123456789ab";
    body.metadata.creationTimestamp = "2030-01-02T03:04:05Z";
    expect(diff(acceptedJson, { ...acceptedJson.answer, body: `${JSON.stringify(body)}\n` })).toEqual([]);
    body.metadata.uid = "not-a-uuid";
    const d = diff(acceptedJson, { ...acceptedJson.answer, body: `${JSON.stringify(body)}\n` });
    expect(d.map((x) => x.what)).toContain("server-field");
  });

  it("groups alike differences under one signature, numbers aside", () => {
    const a = [{ what: "body" as const, detail: "x", key: "line 12 vs line 13" }];
    const b = [{ what: "body" as const, detail: "y", key: "line 7 vs line 8" }];
    expect(signatureOf(a)).toBe(signatureOf(b));
  });
});
