// compactEtcd() against a real control plane with its watch cache off: after the compaction, a
// watch from an older resourceVersion is answered 200 with one ERROR event carrying a 410 Status
// (reason Expired), in JSON and in protobuf alike, and an Exact list or a continue token from
// before is refused with HTTP 410; a watch from the compacted revision itself still works.
import { request } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeWatchStream, type Status } from "../../../src/networking/index.js";
import { compactEtcd, etcdRevision } from "./etcd.js";
import { apiRequest, type ControlPlane, controlPlaneBuilt, startControlPlane, VERSIONS } from "./start.js";

const NS = "compaction";
const INGRESSES = `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses`;

const ingress = (name: string) => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name },
  spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } } },
});

/**
 * Opens a watch and resolves with its status and the bytes up to the first whole event (a JSON
 * line, or a protobuf frame), then cuts it. `onOpen` runs once the response headers are in.
 */
function firstEvent(
  plane: ControlPlane,
  path: string,
  format: "json" | "protobuf",
  onOpen: () => Promise<unknown> = async () => {},
): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const accept = format === "json" ? "application/json" : "application/vnd.kubernetes.protobuf;stream=watch";
    const req = request(
      new URL(path, plane.url),
      { ca: plane.caPem, headers: { Authorization: `Bearer ${plane.token}`, Accept: accept } },
      (res) => {
        let bytes = Buffer.alloc(0);
        const done = (): void => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, bytes });
        };
        const whole = (): boolean =>
          format === "json" ? bytes.includes(0x0a) : bytes.length >= 4 && bytes.length >= 4 + bytes.readUInt32BE(0);
        res.on("data", (chunk: Buffer) => {
          bytes = Buffer.concat([bytes, chunk]);
          if (whole()) done();
        });
        res.on("end", done);
        if (res.statusCode === 200) onOpen().catch(reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function decodedFirst(bytes: Buffer, format: "json" | "protobuf"): Promise<{ type: string; object: unknown }> {
  if (format === "json") return JSON.parse(bytes.subarray(0, bytes.indexOf(0x0a)).toString("utf8"));
  for await (const event of decodeWatchStream([bytes.subarray(0, 4 + bytes.readUInt32BE(0))])) return event;
  throw new Error("no protobuf frame");
}

for (const version of Object.keys(VERSIONS)) {
  describe.skipIf(!controlPlaneBuilt(version))(`compactEtcd against ${version} with --watch-cache=false`, () => {
    let plane: ControlPlane;
    let before = "";
    let continueToken = "";
    let compacted = 0;

    beforeAll(async () => {
      plane = await startControlPlane({ version, apiserverFlags: ["--watch-cache=false"] });
      const ns = await apiRequest(plane, "POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name: NS },
      });
      expect(ns.status, ns.body).toBe(201);
      const first = await apiRequest(plane, "POST", INGRESSES, ingress("first"));
      expect(first.status, first.body).toBe(201);
      before = (JSON.parse(first.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      for (const name of ["second", "third"]) {
        const res = await apiRequest(plane, "POST", INGRESSES, ingress(name));
        expect(res.status, res.body).toBe(201);
      }
      const page = await apiRequest(plane, "GET", `${INGRESSES}?limit=1`);
      continueToken = (JSON.parse(page.body) as { metadata: { continue: string } }).metadata.continue;
      expect(continueToken).not.toBe("");
      // One more write, so the revision compacted to is past the list's.
      expect((await apiRequest(plane, "POST", INGRESSES, ingress("fourth"))).status).toBe(201);
      compacted = (await compactEtcd(plane)).revision;
    }, 90_000);
    afterAll(async () => {
      await plane?.stop();
    }, 30_000);

    it("compacts to the current revision, past every resourceVersion written, and again without error", async () => {
      expect(compacted).toBeGreaterThan(Number(before));
      // The API server writes on its own now and then (its leases), so the revision may have moved
      // on since; it never goes back.
      expect(await etcdRevision(plane)).toBeGreaterThanOrEqual(compacted);
      // Again: the same revision if nothing was written since (already compacted, which is not an
      // error), or a later one.
      expect((await compactEtcd(plane)).revision).toBeGreaterThanOrEqual(compacted);
    });

    for (const format of ["json", "protobuf"] as const) {
      it(`a ${format} watch from before the compaction: HTTP 200, then an ERROR event with a 410 Expired Status`, async () => {
        const { status, bytes } = await firstEvent(plane, `${INGRESSES}?watch=1&resourceVersion=${before}`, format);
        expect(status).toBe(200);
        const event = await decodedFirst(bytes, format);
        expect(event.type).toBe("ERROR");
        const object = event.object as Pick<Status, "code" | "reason" | "message">;
        expect(object.code).toBe(410);
        expect(object.reason).toBe("Expired");
        expect(object.message).toMatch(/too old/);
      });
    }

    it("a list with resourceVersionMatch=Exact from before, or a continue token from before: HTTP 410 Expired", async () => {
      const exact = await apiRequest(plane, "GET", `${INGRESSES}?resourceVersion=${before}&resourceVersionMatch=Exact`);
      expect(exact.status, exact.body).toBe(410);
      expect(JSON.parse(exact.body)).toMatchObject({ kind: "Status", code: 410, reason: "Expired" });
      const next = await apiRequest(plane, "GET", `${INGRESSES}?limit=1&continue=${encodeURIComponent(continueToken)}`);
      expect(next.status, next.body).toBe(410);
      expect(JSON.parse(next.body)).toMatchObject({ kind: "Status", code: 410, reason: "Expired" });
    });

    it("a watch from the compacted revision itself is accepted and delivers the next write", async () => {
      const { status, bytes } = await firstEvent(
        plane,
        `${INGRESSES}?watch=1&resourceVersion=${compacted}`,
        "json",
        () => apiRequest(plane, "POST", INGRESSES, ingress("after")),
      );
      expect(status).toBe(200);
      const event = (await decodedFirst(bytes, "json")) as { type: string; object: { metadata: { name: string } } };
      expect(event.type).toBe("ADDED");
      expect(event.object.metadata.name).toBe("after");
    });
  });
}
