import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Client, createClient, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from "../../src/client/client.js";
import { CredentialsError } from "../../src/client/config/credentials.js";
import type { ClientKind } from "../../src/client/types.js";
import { type FakeApiServer, startFakeApiServer } from "../support/admission/fake-api-server.js";
import { certProblem } from "../support/storage/cert.js";
import { type Skippable, skipWithout } from "../support/tools.js";

const TOKEN = "client-test-token";
let fake: FakeApiServer | undefined;
const clients: Client[] = [];
beforeAll(async () => {
  fake = await startFakeApiServer({ token: TOKEN });
});
afterAll(async () => {
  await fake?.close();
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  if (fake === undefined) return;
  fake.requests.length = 0;
  fake.stalled = false;
});
function need(t: Skippable): FakeApiServer {
  if (fake === undefined) return skipWithout(t, "openssl", certProblem());
  return fake;
}
function clientOf(f: FakeApiServer, more: Omit<Parameters<typeof createClient>[0], "credentials"> = {}): Client {
  const c = createClient({
    credentials: { server: f.url, ca: Buffer.from(f.ca), token: TOKEN, source: "test" },
    ...more,
  });
  clients.push(c);
  return c;
}
const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => {
      throw new Error("resolved, expected a failure");
    },
    (e: unknown) => e,
  );
const NOWHERE = { server: "https://127.0.0.1:1", source: "test" };

describe("createClient", () => {
  it("has one resource client per kind, the same for resource(kind) and its property", () => {
    const c = createClient({ credentials: NOWHERE });
    const kinds: [ClientKind, unknown][] = [
      ["Ingress", c.ingresses],
      ["IngressClass", c.ingressClasses],
      ["NetworkPolicy", c.networkPolicies],
      ["IPAddress", c.ipAddresses],
      ["ServiceCIDR", c.serviceCIDRs],
    ];
    for (const [kind, property] of kinds) {
      expect(c.resource(kind), kind).toBe(property);
      expect(c.resource(kind).kind).toBe(kind);
    }
    expect(() => c.resource("Pod" as ClientKind)).toThrow(RangeError);
    c.close();
  });

  it("refuses options out of range with a RangeError, and a server that is not https:// with a CredentialsError", () => {
    const refused: [Parameters<typeof createClient>[0], string][] = [
      [{ credentials: NOWHERE, timeoutMs: 0 }, "timeoutMs must be a whole number of at least 1, got 0"],
      [{ credentials: NOWHERE, timeoutMs: 1.5 }, "timeoutMs must be a whole number of at least 1, got 1.5"],
      [{ credentials: NOWHERE, maxResponseBytes: -1 }, "maxResponseBytes must be a whole number of at least 1, got -1"],
      [{ credentials: NOWHERE, format: "yaml" as never }, 'format must be "protobuf" or "json", got "yaml"'],
    ];
    for (const [options, message] of refused) expect(() => createClient(options)).toThrow(new RangeError(message));
    expect(() => createClient({ credentials: { server: "http://a", source: "kubeconfig k" } })).toThrow(
      CredentialsError,
    );
    for (const bad of [undefined, null, {}, { credentials: null }]) {
      expect(() => createClient(bad as never)).toThrow(
        new TypeError("createClient needs options.credentials: see loadCredentials()"),
      );
    }
  });

  it("sends User-Agent clusterwire/<version> unless told otherwise; protobuf unless told json", async (t) => {
    const f = need(t);
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    await clientOf(f).ingressClasses.list();
    await clientOf(f, { userAgent: "my-controller/2.0", format: "json" }).ingressClasses.list();
    expect(f.requests.map((r) => [r.userAgent, r.accept])).toEqual([
      [`clusterwire/${pkg.version}`, "application/vnd.kubernetes.protobuf"],
      ["my-controller/2.0", "application/json"],
    ]);
  });

  it("applies timeoutMs to every request, unless the request gives its own", async (t) => {
    const f = need(t);
    f.stalled = true;
    const c = clientOf(f, { timeoutMs: 40 });
    expect(await failure(c.ingressClasses.list())).toMatchObject({
      code: "timeout",
      message: "GET /apis/networking.k8s.io/v1/ingressclasses: no response headers within 40 ms",
    });
    expect(await failure(c.ingressClasses.get("x", { timeoutMs: 30 }))).toMatchObject({
      code: "timeout",
      message: "GET /apis/networking.k8s.io/v1/ingressclasses/x: no response headers within 30 ms",
    });
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
  });

  it("applies maxResponseBytes to every answer", async (t) => {
    const f = need(t);
    for (let i = 0; i < 20; i++) {
      f.apply({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: { name: `big-${i}` },
        spec: { controller: "example.com/a-controller" },
      });
    }
    expect((await clientOf(f).ingressClasses.list()).items.length).toBeGreaterThanOrEqual(20);
    expect(await failure(clientOf(f, { maxResponseBytes: 200 }).ingressClasses.list())).toMatchObject({
      code: "too-large",
    });
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(128 * 1024 * 1024);
  });
});
