// The fake API server's frames, read by an independent decoder (protobufjs over
// the same .proto files): what the watch client is tested against is what an
// API server would send.
import * as https from "node:https";
import { afterEach, describe, expect, it } from "vitest";
import type { JsonObject } from "../../../src/networking/index.js";
import { oracleDecode, oracleDecodeEnvelope } from "../protobufjs.js";
import { startFakeApiServer, type FakeApiServer } from "./fake-api-server.js";
import { skipWithout } from "../tools.js";
import { certProblem } from "../storage/cert.js";

let fake: FakeApiServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const ingress: JsonObject = {
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name: "web", namespace: "shop" },
  spec: { defaultBackend: { service: { name: "s", port: { number: 80 } } } },
};

function get(f: FakeApiServer, path: string, accept: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      `${f.url}${path}`,
      { ca: f.ca, headers: { accept, authorization: `Bearer ${f.token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          // One whole frame is enough for a watch.
          const all = Buffer.concat(chunks);
          if (path.includes("watch=1") && all.length >= 4 && all.length >= 4 + all.readUInt32BE(0)) {
            res.destroy();
            resolve({ status: res.statusCode ?? 0, body: all });
          }
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", reject);
  });
}

describe("the fake API server", () => {
  it("serves a list and a watch frame that protobufjs decodes as an IngressList and a WatchEvent", async (t) => {
    fake = await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    fake.apply(ingress);
    const list = await get(fake, "/apis/networking.k8s.io/v1/ingresses", "application/vnd.kubernetes.protobuf");
    expect(list.status).toBe(200);
    const envelope = oracleDecodeEnvelope(list.body);
    expect(envelope["typeMeta"]).toEqual({ apiVersion: "networking.k8s.io/v1", kind: "IngressList" });
    const decoded = oracleDecode("k8s.io.api.networking.v1.IngressList", envelope["raw"] as Uint8Array);
    expect((decoded["metadata"] as Record<string, unknown>)["resourceVersion"]).toBe(String(fake.resourceVersion));
    expect((decoded["items"] as { metadata: { name: string } }[]).map((i) => i.metadata.name)).toEqual(["web"]);

    const watch = await get(
      fake,
      "/apis/networking.k8s.io/v1/ingresses?watch=1&resourceVersion=1",
      "application/vnd.kubernetes.protobuf;stream=watch",
    );
    const length = watch.body.readUInt32BE(0);
    const event = oracleDecode("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent", watch.body.subarray(4, 4 + length));
    expect(event["type"]).toBe("ADDED");
    const raw = (event["object"] as { raw: Uint8Array }).raw;
    const inner = oracleDecodeEnvelope(raw);
    const object = oracleDecode("k8s.io.api.networking.v1.Ingress", inner["raw"] as Uint8Array);
    expect(object["metadata"]).toMatchObject({ name: "web", namespace: "shop" });
  });

  it("refuses a wrong token with 401", async (t) => {
    fake = await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    const f = fake;
    const status = await new Promise<number>((resolve, reject) => {
      https
        .get(
          `${f.url}/apis/networking.k8s.io/v1/ingresses`,
          { ca: f.ca, headers: { authorization: "Bearer no" } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on("error", reject);
    });
    expect(status).toBe(401);
  });
});
