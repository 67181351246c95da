// What the dry-run campaign cannot show, checked with real (stored) creates against a real
// kube-apiserver: a create that carries a resourceVersion is refused by the storage layer with a
// 500 and no reason, as clusterwire's checkManifests says, while a dry run accepts it (which
// predict.ts follows). Skips where the control plane is not built; .ci/run builds it and runs
// this file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyDefaults, checkManifests, fromJson, toJsonString } from "../../../src/networking/index.js";
import {
  apiRequest,
  type ControlPlane,
  controlPlaneBuilt,
  startControlPlane,
  VERSIONS,
} from "../../support/controlplane/start.js";

const ingressClass = (name: string) =>
  JSON.stringify({
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata: { name, resourceVersion: "123" },
    spec: { controller: "example.com/lb" },
  });

for (const version of Object.keys(VERSIONS)) {
  describe.skipIf(!controlPlaneBuilt(version))(`real creates (${version})`, () => {
    let plane: ControlPlane;
    beforeAll(async () => {
      plane = await startControlPlane({ version, timeoutMs: 60_000 });
    }, 90_000);
    afterAll(async () => {
      await plane?.stop();
    }, 30_000);

    it("a create with a resourceVersion: refused with clusterwire's 500 Status, byte for byte", async () => {
      const body = ingressClass("with-rv");
      const real = await apiRequest(plane, "POST", "/apis/networking.k8s.io/v1/ingressclasses", body, {
        "content-type": "application/json",
      });
      const [verdict] = checkManifests(body, { format: "json" });
      expect(verdict?.status).toBe("invalid");
      expect(real.status).toBe(500);
      expect(real.body).toBe(`${JSON.stringify(verdict?.response)}\n`);
      // Nothing was stored.
      const get = await apiRequest(plane, "GET", "/apis/networking.k8s.io/v1/ingressclasses/with-rv");
      expect(get.status).toBe(404);
    });

    it("the same create as a dry run is accepted and keeps the resourceVersion", async () => {
      const dry = await apiRequest(
        plane,
        "POST",
        "/apis/networking.k8s.io/v1/ingressclasses?dryRun=All",
        ingressClass("dry"),
        {
          "content-type": "application/json",
        },
      );
      expect(dry.status).toBe(201);
      expect((JSON.parse(dry.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe("123");
    });

    it("a valid object is stored as clusterwire's defaulted JSON, but for what the server fills", async () => {
      const body = JSON.stringify({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: { name: "stored" },
        spec: { controller: "example.com/lb", parameters: { kind: "Config", name: "c" } },
      });
      const real = await apiRequest(plane, "POST", "/apis/networking.k8s.io/v1/ingressclasses", body, {
        "content-type": "application/json",
      });
      expect(real.status).toBe(201);
      const stored = JSON.parse(real.body) as { metadata: Record<string, unknown>; spec: unknown };
      // The v1 default (scope Cluster) is applied, as applyDefaults does.
      const ours = JSON.parse(toJsonString(applyDefaults(fromJson(body)))) as { spec: unknown };
      expect(stored.spec).toEqual(ours.spec);
      expect(stored.spec).toEqual({
        controller: "example.com/lb",
        parameters: { kind: "Config", name: "c", scope: "Cluster" },
      });
      expect(stored.metadata.resourceVersion).toMatch(/^[0-9]+$/);
    });
  });
}
