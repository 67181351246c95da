// startControlPlane() against a real kube-apiserver and etcd. `npm test` never builds Go: without
// the binaries (npm run apiserver builds them once, into .cache/controlplane/) the suite skips.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiRequest,
  type ControlPlane,
  controlPlaneBuilt,
  DEFAULT_VERSION,
  startControlPlane,
  VERSIONS,
} from "./start.js";

if (!controlPlaneBuilt(DEFAULT_VERSION)) {
  console.warn(
    `test/support/controlplane/start.test.ts: skipped, kube-apiserver ${DEFAULT_VERSION} and etcd are not built; ` +
      "`npm run apiserver` builds them (Go 1.26 and the Go module proxy; minutes the first time)",
  );
}

/** Whether something accepts a TCP connection on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const ingress = (name: string, pathType: string) => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name },
  spec: {
    rules: [
      {
        host: "example.com",
        http: { paths: [{ path: "/", pathType, backend: { service: { name: "web", port: { number: 80 } } } }] },
      },
    ],
  },
});

// Every version the repository can build; each runs only where it is built.
for (const version of Object.keys(VERSIONS)) {
  describe.skipIf(!controlPlaneBuilt(version))(`a real control plane (${version})`, () => {
    let plane: ControlPlane;
    const ns = "clusterwire-start-test";
    const ingresses = `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses?dryRun=All`;

    beforeAll(async () => {
      plane = await startControlPlane({ version, timeoutMs: 60_000 });
    }, 90_000);
    afterAll(async () => {
      await plane?.stop();
    }, 30_000);

    it("reports the release it was built from, through the bearer token", async () => {
      expect(plane.version).toBe(version);
      const res = await apiRequest(plane, "GET", "/version");
      expect(res.status).toBe(200);
      const body = JSON.parse(res.body) as { gitVersion: string; major: string; minor: string };
      expect(body).toMatchObject({ gitVersion: version, major: "1", minor: version.split(".")[1] });
      // Another token is refused: the token file is what authenticates.
      const wrong = await apiRequest({ ...plane, token: "not-the-token" }, "GET", "/api/v1/namespaces");
      expect(wrong.status).toBe(401);
    });

    it("creates a namespace, accepts a valid Ingress (dryRun=All, 201) and refuses an invalid one (422)", async () => {
      const created = await apiRequest(plane, "POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name: ns },
      });
      expect(created.status, created.body).toBe(201);

      const ok = await apiRequest(plane, "POST", ingresses, ingress("web", "Prefix"));
      expect(ok.status, ok.body).toBe(201);
      expect(JSON.parse(ok.body)).toMatchObject({ kind: "Ingress", metadata: { name: "web", namespace: ns } });
      // dryRun=All stores nothing.
      const get = await apiRequest(plane, "GET", `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses/web`);
      expect(get.status).toBe(404);

      const bad = await apiRequest(plane, "POST", ingresses, ingress("bad", "Bogus"));
      expect(bad.status, bad.body).toBe(422);
      const status = JSON.parse(bad.body) as {
        kind: string;
        reason: string;
        details: { causes: { field: string; reason: string; message: string }[] };
      };
      expect(status.kind).toBe("Status");
      expect(status.reason).toBe("Invalid");
      expect(status.details.causes.map((c) => c.field)).toContain("spec.rules[0].http.paths[0].pathType");
    });

    it("stops both servers and frees their ports", async () => {
      const apiPort = Number(new URL(plane.url).port);
      const etcdPort = Number(new URL(plane.etcdUrl).port);
      expect(await listening(apiPort)).toBe(true);
      expect(await listening(etcdPort)).toBe(true);
      await plane.stop();
      expect(await listening(apiPort)).toBe(false);
      expect(await listening(etcdPort)).toBe(false);
    }, 30_000);
  });
}
