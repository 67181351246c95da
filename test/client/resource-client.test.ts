// Every call of a resource client, in protobuf and in JSON, against the fake API server
// (test/support/admission/fake-api-server.ts): what goes on the wire (method, path, query,
// headers, body) and what comes back (objects, pages, Statuses, errors).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "../../src/client/client.js";
import { ApiError, RequestError } from "../../src/client/errors.js";
import {
  create,
  decode,
  DecodeError,
  encode,
  fromJson,
  IngressClassSchema,
  IngressSchema,
  type Ingress,
  type JsonObject,
  NetworkPolicySchema,
  ServiceCIDRSchema,
  StatusSchema,
  toJsonString,
} from "../../src/networking/index.js";
import {
  type FakeApiServer,
  mediaTypeOf,
  type RecordedRequest,
  startFakeApiServer,
  statusBody,
} from "../support/admission/fake-api-server.js";
import { certProblem } from "../support/storage/cert.js";
import { type Skippable, skipWithout } from "../support/tools.js";

const TOKEN = "resource-client-test-token";
const API = "/apis/networking.k8s.io/v1";
const FORMATS = ["protobuf", "json"] as const;
type Format = (typeof FORMATS)[number];

let fake: FakeApiServer | undefined;
const clients: Client[] = [];
beforeAll(async () => {
  fake = await startFakeApiServer({ token: TOKEN });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await fake?.close();
});
afterEach(() => {
  if (fake === undefined) return;
  fake.requests.length = 0;
  fake.warnings = [];
});

function need(t: Skippable): FakeApiServer {
  if (fake === undefined) return skipWithout(t, "openssl", certProblem());
  return fake;
}
function clientOf(f: FakeApiServer, format: Format, onWarning?: (w: string) => void): Client {
  const c = createClient({
    credentials: { server: f.url, ca: Buffer.from(f.ca), token: TOKEN, source: "test" },
    format,
    ...(onWarning === undefined ? {} : { onWarning }),
  });
  clients.push(c);
  return c;
}
/** The only request recorded since the last test. */
function only(f: FakeApiServer): RecordedRequest {
  expect(f.requests).toHaveLength(1);
  return f.requests[0]!;
}
const query = (r: RecordedRequest): [string, string][] => [...r.query];
/** A request body as the object it carries. */
const bodyObject = (r: RecordedRequest) =>
  r.contentType === "application/vnd.kubernetes.protobuf" ? decode(r.body) : fromJson(r.body.toString("utf8"));

let unique = 0;
const named = (prefix: string): string => `${prefix}-${++unique}`;
const web = (namespace: string | undefined, name: string): Ingress =>
  create(IngressSchema, {
    metadata: { name, ...(namespace === undefined ? {} : { namespace }), labels: { app: "web" } },
    spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } } },
  });
const ingressJson = (namespace: string, name: string): JsonObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name, namespace },
  spec: { defaultBackend: { service: { name: "s", port: { number: 80 } } } },
});
const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => {
      throw new Error("resolved, expected a failure");
    },
    (e: unknown) => e,
  );

for (const format of FORMATS) {
  const ACCEPT = mediaTypeOf(format);
  describe(`ResourceClient in ${format}`, () => {
    it("create: POST to the namespace of metadata.namespace, the object in the format's body; resolves with it as stored", async (t) => {
      const f = need(t);
      const name = named("create");
      const made = await clientOf(f, format).ingresses.create(web("shop", name));
      const r = only(f);
      expect([r.method, r.path, r.accept, r.contentType, query(r)]).toEqual([
        "POST",
        `${API}/namespaces/shop/ingresses`,
        ACCEPT,
        ACCEPT,
        [],
      ]);
      expect(toJsonString(bodyObject(r))).toBe(toJsonString(web("shop", name)));
      expect(made.$typeName).toBe("k8s.io.api.networking.v1.Ingress");
      expect(made.metadata?.name).toBe(name);
      expect(made.metadata?.resourceVersion).toBe(String(f.resourceVersion));
      expect(f.stored("Ingress", "shop", name)).toBeDefined();
    });

    it("create: dryRun, fieldManager and fieldValidation are exactly the query; options.namespace wins; dryRun stores nothing", async (t) => {
      const f = need(t);
      const name = named("dry");
      await clientOf(f, format).ingresses.create(web(undefined, name), {
        namespace: "other",
        dryRun: true,
        fieldManager: "my-tool",
        fieldValidation: "Strict",
      });
      const r = only(f);
      expect(r.path).toBe(`${API}/namespaces/other/ingresses`);
      expect(query(r)).toEqual([
        ["dryRun", "All"],
        ["fieldManager", "my-tool"],
        ["fieldValidation", "Strict"],
      ]);
      expect(f.stored("Ingress", "other", name)).toBeUndefined();
    });

    it("get: GET of the object; cluster-scoped kinds have no namespace in the path", async (t) => {
      const f = need(t);
      const name = named("get");
      f.apply(ingressJson("shop", name));
      const got = await clientOf(f, format).ingresses.get(name, { namespace: "shop" });
      expect(got.metadata?.name).toBe(name);
      const r = only(f);
      expect([r.method, r.path, r.accept, query(r), r.body.length]).toEqual([
        "GET",
        `${API}/namespaces/shop/ingresses/${name}`,
        ACCEPT,
        [],
        0,
      ]);
      f.requests.length = 0;
      const klass = named("class");
      f.apply({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: { name: klass },
        spec: { controller: "a/b" },
      });
      expect((await clientOf(f, format).ingressClasses.get(klass)).spec?.controller).toBe("a/b");
      expect(only(f).path).toBe(`${API}/ingressclasses/${klass}`);
    });

    it("list: every option is exactly the query; the page carries items, resourceVersion, continue and remainingItemCount", async (t) => {
      const f = need(t);
      const ns = named("list-ns");
      for (const n of ["a", "b", "c"]) f.apply(ingressJson(ns, n));
      const c = clientOf(f, format);
      const page = await c.ingresses.list({ namespace: ns, limit: 2 });
      expect(page.items.map((i) => i.metadata?.name)).toEqual(["a", "b"]);
      expect(page.resourceVersion).toBe(String(f.resourceVersion));
      expect(page.continue).not.toBe("");
      expect(page.remainingItemCount).toBe(1);
      const last = await c.ingresses.list({ namespace: ns, limit: 2, continue: page.continue });
      expect(last.items.map((i) => i.metadata?.name)).toEqual(["c"]);
      expect(last.continue).toBe("");
      expect(last).not.toHaveProperty("remainingItemCount");
      expect(f.requests.map((r) => [r.path, query(r)])).toEqual([
        [`${API}/namespaces/${ns}/ingresses`, [["limit", "2"]]],
        [
          `${API}/namespaces/${ns}/ingresses`,
          [
            ["limit", "2"],
            ["continue", page.continue],
          ],
        ],
      ]);
      f.requests.length = 0;
      await c.ingresses.list({
        labelSelector: "app=web,tier!=db",
        fieldSelector: "metadata.name=a",
        limit: 0,
        continue: "",
        resourceVersion: "0",
        resourceVersionMatch: "NotOlderThan",
      });
      const r = only(f);
      expect(r.path).toBe(`${API}/ingresses`);
      expect(r.accept).toBe(ACCEPT);
      expect(query(r)).toEqual([
        ["labelSelector", "app=web,tier!=db"],
        ["fieldSelector", "metadata.name=a"],
        ["limit", "0"],
        ["resourceVersion", "0"],
        ["resourceVersionMatch", "NotOlderThan"],
      ]);
    });

    it("listAll: follows the continue tokens (limit 500 unless given)", async (t) => {
      const f = need(t);
      const ns = named("all-ns");
      for (let i = 0; i < 5; i++) f.apply(ingressJson(ns, `i${i}`));
      const c = clientOf(f, format);
      const all = await c.ingresses.listAll({ namespace: ns, limit: 2 });
      expect(all.items.map((i) => i.metadata?.name)).toEqual(["i0", "i1", "i2", "i3", "i4"]);
      expect(all.resourceVersion).toBe(String(f.resourceVersion));
      expect(f.requests.map((r) => r.query.get("limit"))).toEqual(["2", "2", "2"]);
      expect(f.requests.map((r) => r.query.has("continue"))).toEqual([false, true, true]);
      f.requests.length = 0;
      expect((await c.ingresses.listAll({ namespace: ns })).items).toHaveLength(5);
      expect(query(only(f))).toEqual([["limit", "500"]]);
    });

    it("listAll: a continue token that expired (410) starts the list over once; a second time it throws", async (t) => {
      const f = need(t);
      const ns = named("expire-ns");
      for (let i = 0; i < 3; i++) f.apply(ingressJson(ns, `i${i}`));
      const c = clientOf(f, format);
      const expired = {
        status: 410,
        headers: { "content-type": ACCEPT },
        body: statusBody(format, {
          code: 410,
          reason: "Expired",
          message: "The provided continue parameter is too old",
        }),
      };
      const continued = (r: RecordedRequest): boolean => r.query.has("continue");
      f.answerNext(expired, continued);
      const all = await c.ingresses.listAll({ namespace: ns, limit: 2 });
      expect(all.items.map((i) => i.metadata?.name)).toEqual(["i0", "i1", "i2"]);
      expect(f.requests.map((r) => r.query.has("continue"))).toEqual([false, true, false, true]);
      f.requests.length = 0;
      f.answerNext(expired, continued);
      f.answerNext(expired, continued);
      const e = await failure(c.ingresses.listAll({ namespace: ns, limit: 2 }));
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({ status: 410, reason: "Expired" });
      expect(f.requests).toHaveLength(4);
      // A 410 on the first page (no continue token) is not a restart.
      f.requests.length = 0;
      f.answerNext(expired);
      expect(await failure(c.ingresses.listAll({ namespace: ns }))).toMatchObject({ status: 410 });
      expect(f.requests).toHaveLength(1);
    });

    it("update: PUT of metadata.name; a stale resourceVersion is an ApiError Conflict", async (t) => {
      const f = need(t);
      const name = named("update");
      const c = clientOf(f, format);
      const made = await c.ingresses.create(web("shop", name));
      f.requests.length = 0;
      made.metadata!.labels = { app: "web", tier: "front" };
      const updated = await c.ingresses.update(made, { fieldManager: "m", fieldValidation: "Warn" });
      const r = only(f);
      expect([r.method, r.path, r.contentType, query(r)]).toEqual([
        "PUT",
        `${API}/namespaces/shop/ingresses/${name}`,
        ACCEPT,
        [
          ["fieldManager", "m"],
          ["fieldValidation", "Warn"],
        ],
      ]);
      expect(bodyObject(r)).toMatchObject({ metadata: { labels: { tier: "front" } } });
      expect(updated.metadata?.labels).toEqual({ app: "web", tier: "front" });
      const e = await failure(c.ingresses.update(made));
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({
        status: 409,
        reason: "Conflict",
        method: "PUT",
        path: `${API}/namespaces/shop/ingresses/${name}`,
      });
      expect((e as ApiError).statusObject?.$typeName).toBe("k8s.io.apimachinery.pkg.apis.meta.v1.Status");
    });

    it("updateStatus: PUT of .../status, for Ingress and ServiceCIDR", async (t) => {
      const f = need(t);
      const name = named("status");
      const c = clientOf(f, format);
      const made = await c.ingresses.create(web("shop", name));
      f.requests.length = 0;
      made.status = create(IngressSchema, { status: { loadBalancer: { ingress: [{ ip: "192.0.2.1" }] } } }).status;
      const updated = await c.ingresses.updateStatus(made, { dryRun: true });
      const r = only(f);
      expect([r.method, r.path, query(r)]).toEqual([
        "PUT",
        `${API}/namespaces/shop/ingresses/${name}/status`,
        [["dryRun", "All"]],
      ]);
      expect(updated.status?.loadBalancer?.ingress?.[0]?.ip).toBe("192.0.2.1");
      f.requests.length = 0;
      const cidr = named("cidr");
      const range = create(ServiceCIDRSchema, { metadata: { name: cidr }, spec: { cidrs: ["10.0.0.0/24"] } });
      await c.serviceCIDRs.updateStatus(await c.serviceCIDRs.create(range));
      expect(f.requests.map((x) => `${x.method} ${x.path}`)).toEqual([
        `POST ${API}/servicecidrs`,
        `PUT ${API}/servicecidrs/${cidr}/status`,
      ]);
    });

    it("delete: DELETE with the DeleteOptions as a JSON body; resolves with the Status the API server answers", async (t) => {
      const f = need(t);
      const name = named("delete");
      const c = clientOf(f, format);
      const made = await c.ingresses.create(web("shop", name));
      f.requests.length = 0;
      const dry = await c.ingresses.delete(name, { namespace: "shop", dryRun: true });
      expect(dry.$typeName).toBe("k8s.io.apimachinery.pkg.apis.meta.v1.Status");
      expect(f.stored("Ingress", "shop", name)).toBeDefined();
      const done = await c.ingresses.delete(name, {
        namespace: "shop",
        gracePeriodSeconds: 0,
        propagationPolicy: "Foreground",
        preconditions: { uid: made.metadata!.uid!, resourceVersion: made.metadata!.resourceVersion! },
      });
      expect(done).toMatchObject({ status: "Success", details: { name, kind: "ingresses" } });
      expect(f.stored("Ingress", "shop", name)).toBeUndefined();
      expect(
        f.requests.map((r) => [r.method, r.path, r.accept, r.contentType, query(r), JSON.parse(r.body.toString())]),
      ).toEqual([
        [
          "DELETE",
          `${API}/namespaces/shop/ingresses/${name}`,
          ACCEPT,
          "application/json",
          [],
          { kind: "DeleteOptions", apiVersion: "v1", dryRun: ["All"] },
        ],
        [
          "DELETE",
          `${API}/namespaces/shop/ingresses/${name}`,
          ACCEPT,
          "application/json",
          [],
          {
            kind: "DeleteOptions",
            apiVersion: "v1",
            gracePeriodSeconds: 0,
            preconditions: { uid: made.metadata!.uid, resourceVersion: made.metadata!.resourceVersion },
            propagationPolicy: "Foreground",
          },
        ],
      ]);
      // An answer that is the object itself (a kind with finalizers) is the object.
      f.answerNext({
        status: 200,
        headers: { "content-type": ACCEPT },
        body: format === "protobuf" ? encode(made) : toJsonString(made),
      });
      const object = await c.ingresses.delete(name, { namespace: "shop" });
      expect(object.$typeName).toBe("k8s.io.api.networking.v1.Ingress");
      const gone = await failure(c.ingresses.delete(name, { namespace: "shop" }));
      expect(gone).toMatchObject({ status: 404, reason: "NotFound" });
    });

    it("apply: PATCH application/apply-patch+yaml of the object as JSON, fieldManager and force exactly the query", async (t) => {
      const f = need(t);
      const name = named("apply");
      const c = clientOf(f, format);
      const object = web("shop", name);
      const applied = await c.ingresses.apply(object, {
        fieldManager: "my-tool",
        force: true,
        dryRun: true,
        fieldValidation: "Strict",
      });
      expect(applied.metadata?.name).toBe(name);
      let r = only(f);
      expect([r.method, r.path, r.accept, r.contentType, query(r)]).toEqual([
        "PATCH",
        `${API}/namespaces/shop/ingresses/${name}`,
        ACCEPT,
        "application/apply-patch+yaml",
        [
          ["dryRun", "All"],
          ["fieldManager", "my-tool"],
          ["fieldValidation", "Strict"],
          ["force", "true"],
        ],
      ]);
      expect(r.body.toString()).toBe(toJsonString(object));
      f.requests.length = 0;
      await c.ingresses.apply(object, { fieldManager: "my-tool", force: false });
      r = only(f);
      expect(query(r)).toEqual([["fieldManager", "my-tool"]]);
      expect(f.stored("Ingress", "shop", name)).toBeDefined();
    });

    it("an error answer is an ApiError read from the format's Status: reason, causes, message", async (t) => {
      const f = need(t);
      const c = clientOf(f, format);
      const notFound = await failure(c.ingresses.get("nope", { namespace: "shop" }));
      expect(notFound).toBeInstanceOf(ApiError);
      expect((notFound as Error).message).toBe(
        `GET ${API}/namespaces/shop/ingresses/nope: HTTP 404 NotFound: ingresses.networking.k8s.io "nope" not found`,
      );
      f.answerNext({
        status: 422,
        headers: { "content-type": ACCEPT },
        body: statusBody(format, {
          code: 422,
          reason: "Invalid",
          message: 'Ingress.networking.k8s.io "x" is invalid: spec: Required value',
          details: {
            name: "x",
            kind: "Ingress",
            causes: [{ reason: "FieldValueRequired", message: "Required value", field: "spec" }],
          },
        }),
      });
      const invalid = await failure(c.ingresses.create(web("shop", "x")));
      expect(invalid).toMatchObject({
        status: 422,
        reason: "Invalid",
        method: "POST",
        path: `${API}/namespaces/shop/ingresses`,
        causes: [{ field: "spec", reason: "FieldValueRequired", message: "Required value" }],
      });
      f.answerNext({ status: 502, headers: { "content-type": "text/html" }, body: "<html>502 Bad Gateway</html>" });
      const proxy = await failure(c.ingresses.list());
      expect(proxy).toMatchObject({ status: 502, reason: "", statusObject: undefined, causes: [] });
      expect((proxy as Error).message).toBe(
        `GET ${API}/ingresses: HTTP 502: Bad Gateway: a 28-byte text/html body that is not a Status`,
      );
    });

    it("an answer of the wrong kind or media type is a RequestError bad-response; a malformed body a DecodeError", async (t) => {
      const f = need(t);
      const c = clientOf(f, format);
      const klass = create(IngressClassSchema, { metadata: { name: "k" } });
      f.answerNext({
        status: 200,
        headers: { "content-type": ACCEPT },
        body: format === "protobuf" ? encode(klass) : toJsonString(klass),
      });
      const wrong = await failure(c.ingresses.get("k", { namespace: "shop" }));
      expect(wrong).toBeInstanceOf(RequestError);
      expect(wrong).toMatchObject({
        code: "bad-response",
        message: `GET ${API}/namespaces/shop/ingresses/k: the answer is a k8s.io.api.networking.v1.IngressClass, not a k8s.io.api.networking.v1.Ingress`,
      });
      f.answerNext({ status: 200, headers: { "content-type": "text/plain" }, body: "ok" });
      expect(await failure(c.ingresses.list())).toMatchObject({
        code: "bad-response",
        message: `GET ${API}/ingresses: the answer's media type "text/plain" is neither protobuf nor JSON`,
      });
      f.answerNext({
        status: 200,
        headers: { "content-type": ACCEPT },
        body: format === "protobuf" ? "k8s\0\x0a\x05" : "{",
      });
      expect(await failure(c.ingresses.list())).toBeInstanceOf(DecodeError);
      const status = create(StatusSchema, { status: "Success" });
      f.answerNext({
        status: 200,
        headers: { "content-type": ACCEPT },
        body: format === "protobuf" ? encode(status) : toJsonString(status),
      });
      expect(await failure(c.networkPolicies.list())).toMatchObject({ code: "bad-response" });
    });

    it("hands the API server's warnings to onWarning", async (t) => {
      const f = need(t);
      const seen: string[] = [];
      f.warnings = ['unknown field "spec.bogus"'];
      await clientOf(f, format, (w) => seen.push(w)).ingressClasses.list();
      expect(seen).toEqual(['unknown field "spec.bogus"']);
    });
  });
}

describe("ResourceClient: what is refused before anything is sent", () => {
  it("names and namespaces that cannot be a path segment are RangeErrors", async (t) => {
    const f = need(t);
    const c = clientOf(f, "protobuf");
    for (const bad of ["", ".", "..", "a/b", "/"]) {
      const refused = [
        c.ingresses.get(bad, { namespace: "shop" }),
        c.ingresses.get("web", { namespace: bad }),
        c.ingresses.delete(bad, { namespace: "shop" }),
        c.ingresses.delete("web", { namespace: bad }),
        c.ingresses.create(web(bad, "web")),
        c.ingresses.update(web("shop", bad)),
        c.ingresses.update(web("shop", "web"), { namespace: bad }),
        c.ingresses.apply(web("shop", bad), { fieldManager: "m" }),
        c.ingresses.list({ namespace: bad }),
        c.ingressClasses.get(bad),
      ];
      for (const [i, p] of refused.entries()) {
        const e = await failure(p);
        // An empty namespace in metadata means none given; an empty name, none at all.
        expect(e, `${JSON.stringify(bad)} #${i}`).toBeInstanceOf(RangeError);
      }
    }
    expect(() => c.ingresses.watch({ namespace: ".." })).toThrow(RangeError);
    expect(await failure(c.ingresses.get("..", { namespace: "shop" }))).toMatchObject({
      message: 'Ingress name ".." cannot be a path segment: it must not be empty, "." or "..", nor hold "/"',
    });
    expect(f.requests).toHaveLength(0);
  });

  it("a namespaced kind needs a namespace; a cluster-scoped kind refuses one", async (t) => {
    const f = need(t);
    const c = clientOf(f, "json");
    expect(await failure(c.ingresses.get("web"))).toMatchObject({
      name: "RangeError",
      message: "Ingress is namespaced: give options.namespace",
    });
    expect(
      await failure(c.networkPolicies.create(create(NetworkPolicySchema, { metadata: { name: "p" } }))),
    ).toMatchObject({
      name: "RangeError",
      message: "NetworkPolicy is namespaced: give options.namespace or metadata.namespace",
    });
    expect(await failure(c.ingressClasses.get("k", { namespace: "shop" }))).toMatchObject({
      name: "RangeError",
      message: 'IngressClass is cluster-scoped: no namespace can be given (got "shop")',
    });
    expect(await failure(c.ipAddresses.list({ namespace: "shop" }))).toBeInstanceOf(RangeError);
    expect(() => c.serviceCIDRs.watch({ namespace: "shop" })).toThrow(RangeError);
    expect(f.requests).toHaveLength(0);
    // A cluster-scoped object's metadata.namespace is not a path segment.
    const klass = create(IngressClassSchema, {
      metadata: { name: named("k"), namespace: "ignored" },
      spec: { controller: "a/b" },
    });
    await c.ingressClasses.create(klass);
    expect(only(f).path).toBe(`${API}/ingressclasses`);
  });

  it("other characters are escaped in the path", async (t) => {
    const f = need(t);
    const e = await failure(clientOf(f, "json").ingresses.get("a b%c?d#e", { namespace: "n s" }));
    expect(e).toMatchObject({ status: 404 });
    expect(only(f).path).toBe(`${API}/namespaces/n%20s/ingresses/a%20b%25c%3Fd%23e`);
  });

  it("an object of another kind is a TypeError; an update or apply without a name, a status of a kind without one, an apply without a field manager are RangeErrors", async (t) => {
    const f = need(t);
    const c = clientOf(f, "protobuf");
    const klass = create(IngressClassSchema, { metadata: { name: "k" } });
    expect(await failure(c.ingresses.create(klass as never))).toMatchObject({
      name: "TypeError",
      message:
        "the Ingress client takes k8s.io.api.networking.v1.Ingress objects, got k8s.io.api.networking.v1.IngressClass",
    });
    expect(await failure(c.ingresses.update({ metadata: { name: "x" } } as never))).toBeInstanceOf(TypeError);
    expect(await failure(c.ingresses.update(null as never))).toMatchObject({
      message: "the Ingress client takes k8s.io.api.networking.v1.Ingress objects, got object",
    });
    expect(await failure(c.ingresses.update(web("shop", "")))).toMatchObject({
      name: "RangeError",
      message: "the Ingress has no metadata.name",
    });
    expect(await failure(c.ingressClasses.updateStatus(klass))).toMatchObject({
      name: "RangeError",
      message: "IngressClass has no status subresource: updateStatus cannot be used",
    });
    expect(await failure(c.ingresses.apply(web("shop", "a"), { fieldManager: "" }))).toMatchObject({
      name: "RangeError",
      message: "apply needs options.fieldManager: who owns the applied fields",
    });
    expect(await failure(c.ingresses.apply(web("shop", "a"), undefined as never))).toBeInstanceOf(RangeError);
    expect(await failure(c.ingresses.list({ limit: -1 }))).toMatchObject({
      message: "limit must be a whole number of at least 0, got -1",
    });
    expect(await failure(c.ingresses.list({ limit: 1.5 }))).toBeInstanceOf(RangeError);
    expect(() => c.ingresses.watch({ timeoutSeconds: 0 })).toThrow(
      "timeoutSeconds must be a whole number of at least 1, got 0",
    );
    expect(f.requests).toHaveLength(0);
  });

  it("kind and namespaced say what the client serves", (t) => {
    const f = need(t);
    const c = clientOf(f, "protobuf");
    expect(
      [c.ingresses, c.ingressClasses, c.networkPolicies, c.ipAddresses, c.serviceCIDRs].map((r) => [
        r.kind,
        r.namespaced,
      ]),
    ).toEqual([
      ["Ingress", true],
      ["IngressClass", false],
      ["NetworkPolicy", true],
      ["IPAddress", false],
      ["ServiceCIDR", false],
    ]);
  });
});
