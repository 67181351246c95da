// The admission cases clusterwire/testing ships are exactly what the committed golden answers
// make (npm run conformance -- --admission-cases write makes them again), and stay small.
import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  admissionCase,
  admissionCases,
  readRecordedModule,
  recordedModule,
  recordedModulePath,
} from "../../../conformance/campaign/admission-cases.js";
import { repoRoot } from "../../../conformance/campaign/controlplane.js";
import { GOLDEN_SERVERS, goldenPath, readGolden } from "../../../conformance/campaign/golden.js";
import type { CampaignRequest, ServerAnswer } from "../../../conformance/campaign/request.js";

describe("admission cases from the golden answers", () => {
  for (const server of GOLDEN_SERVERS) {
    it(`src/testing/recorded/ holds what the golden answers of ${server} make, in under 300 KB`, () => {
      const path = recordedModulePath(repoRoot(), server);
      const made = admissionCases(readGolden(goldenPath(repoRoot(), server)));
      // The content, not the bytes: another zlib may compress the same text otherwise.
      expect(JSON.stringify(readRecordedModule(readFileSync(path, "utf8")))).toBe(JSON.stringify(made));
      expect(statSync(path).size).toBeLessThan(300 * 1024);
      expect(made.server).toBe(server);
    });
  }

  for (const server of GOLDEN_SERVERS) {
    it(`each admitted object of ${server} is the object the server returned, but for what it fills per request`, () => {
      let compared = 0;
      for (const { request: r, answer } of readGolden(goldenPath(repoRoot(), server)).records) {
        const c = admissionCase(r, answer);
        if (c === undefined || !c.allowed || answer.contentType !== "application/json") continue;
        const returned = JSON.parse(answer.body) as { metadata: Record<string, unknown> };
        for (const k of ["uid", "creationTimestamp", "resourceVersion", "managedFields"]) delete returned.metadata[k];
        // The stored object's own uid and timestamps stay on an update's object.
        const object = structuredClone(c.object) as { metadata: Record<string, unknown> };
        for (const k of ["uid", "creationTimestamp", "resourceVersion", "managedFields"]) delete object.metadata[k];
        expect(object, `${r.source} ${r.operation}`).toEqual(returned);
        compared++;
      }
      expect(compared).toBeGreaterThan(200);
    });
  }

  it("reads back what it writes", () => {
    const made = admissionCases(readGolden(goldenPath(repoRoot(), GOLDEN_SERVERS[0])));
    const small = { ...made, cases: made.cases.slice(0, 5) };
    expect(readRecordedModule(recordedModule(small))).toEqual(small);
  });

  const request = (over: Partial<CampaignRequest>): CampaignRequest => ({
    source: "test",
    kind: "IngressClass",
    operation: "create",
    format: "json",
    accept: "json",
    fieldValidation: "Strict",
    body: JSON.stringify({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name: "edge", namespace: "ignored" },
      spec: { controller: "example.com/c" },
    }),
    ...over,
  });
  const answer = (over: Partial<ServerAnswer>): ServerAnswer => ({
    status: 201,
    contentType: "application/json",
    warnings: [],
    body: JSON.stringify({ metadata: { name: "edge" } }),
    ...over,
  });

  it("keeps JSON bodies the server decoded and judged, as the webhook would see them", () => {
    const c = admissionCase(request({}), answer({ warnings: ["spec.x: deprecated"] }));
    expect(c).toMatchObject({ kind: "IngressClass", operation: "CREATE", name: "edge", allowed: true });
    expect(c?.warnings).toEqual(["spec.x: deprecated"]);
    // A cluster-scoped object's namespace is cleared by the API server before admission.
    expect((c!.object as { metadata: Record<string, unknown> }).metadata).toEqual({ name: "edge", generation: 1 });
  });

  it("leaves out other formats, type errors, unknown fields and other statuses", () => {
    expect(admissionCase(request({ format: "yaml" }), answer({}))).toBeUndefined();
    expect(admissionCase(request({}), answer({ status: 400 }))).toBeUndefined();
    expect(admissionCase(request({}), answer({ status: 409 }))).toBeUndefined();
    expect(admissionCase(request({}), answer({ warnings: ['unknown field "spec.x"'] }))).toBeUndefined();
    const unknown = request({
      fieldValidation: "Ignore",
      body: JSON.stringify({ apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "a" }, x: 1 }),
    });
    expect(admissionCase(unknown, answer({}))).toBeUndefined();
  });

  it("takes a generated name from the server's answer", () => {
    const body = JSON.stringify({
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { generateName: "web-" },
      spec: {},
    });
    const status = { kind: "Status", reason: "Invalid", message: "m", details: { name: "web-abcde", causes: [] } };
    const c = admissionCase(
      request({ kind: "Ingress", namespace: "shop", body }),
      answer({ status: 422, body: JSON.stringify(status) }),
    );
    expect(c?.name).toBe("web-abcde");
    expect((c!.object as { metadata: unknown }).metadata).toEqual({
      generateName: "web-",
      namespace: "shop",
      name: "web-abcde",
      generation: 1,
    });
    expect(c?.status).toEqual({ code: 422, reason: "Invalid", message: "m", causes: [] });
  });
});
