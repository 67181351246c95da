// clusterwire/client against a real kube-apiserver (and etcd) on loopback: every call of a
// resource client, in protobuf and in JSON, and the answers the API server really gives (201 on
// create, a Status for delete, 409 Conflict and 422 Invalid Statuses with their causes, the
// Warning header of a deprecated annotation, a list's continue token and remaining count, a
// watch's events and its end after timeoutSeconds). Skipped when the control plane is not built
// (`npm run apiserver` builds it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, type Client, createClient } from "../../../src/client/index.js";
import {
  create,
  IngressClassSchema,
  IngressSchema,
  IPAddressSchema,
  NetworkPolicySchema,
  ServiceCIDRSchema,
} from "../../../src/networking/index.js";
import {
  apiRequest,
  type ControlPlane,
  controlPlaneBuilt,
  DEFAULT_VERSION,
  startControlPlane,
} from "../../support/controlplane/start.js";

if (!controlPlaneBuilt(DEFAULT_VERSION)) {
  console.warn(
    `test/suites/apiserver/client-calls.test.ts: skipped, the control plane ${DEFAULT_VERSION} is not built; \`npm run apiserver\` builds it`,
  );
}

const FORMATS = ["protobuf", "json"] as const;
const STATUS = "k8s.io.apimachinery.pkg.apis.meta.v1.Status";

const ingress = (namespace: string, name: string, annotations: Record<string, string> = {}) =>
  create(IngressSchema, {
    metadata: { name, namespace, annotations, labels: { app: "web" } },
    spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } } },
  });
const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => {
      throw new Error("resolved, expected a failure");
    },
    (e: unknown) => e,
  );

describe.skipIf(!controlPlaneBuilt(DEFAULT_VERSION))(
  `clusterwire/client against kube-apiserver ${DEFAULT_VERSION}`,
  () => {
    let plane: ControlPlane;
    const clients: Client[] = [];
    const warnings: string[] = [];

    beforeAll(async () => {
      plane = await startControlPlane({ version: DEFAULT_VERSION });
      for (const format of FORMATS) {
        const made = await apiRequest(plane, "POST", "/api/v1/namespaces", {
          apiVersion: "v1",
          kind: "Namespace",
          metadata: { name: `shop-${format}` },
        });
        expect(made.status).toBe(201);
      }
    }, 120_000);
    afterAll(async () => {
      for (const c of clients) c.close();
      await plane?.stop();
    });

    const clientOf = (format: (typeof FORMATS)[number]): Client => {
      const c = createClient({
        credentials: { server: plane.url, ca: Buffer.from(plane.caPem), token: plane.token, source: "test" },
        format,
        onWarning: (w) => warnings.push(w),
      });
      clients.push(c);
      return c;
    };

    for (const format of FORMATS) {
      const ns = `shop-${format}`;

      it(`${format}: create, get, list (pages), listAll, update, updateStatus, and their errors`, async () => {
        const c = clientOf(format);
        const made = await c.ingresses.create(ingress(ns, "a"));
        expect(made.metadata?.uid).not.toBe("");
        expect(made.metadata?.resourceVersion).not.toBe("");
        await c.ingresses.create(ingress(ns, "b"));
        await c.ingresses.create(ingress(ns, "c"));
        expect((await c.ingresses.get("a", { namespace: ns })).metadata?.uid).toBe(made.metadata?.uid);

        const page = await c.ingresses.list({ namespace: ns, limit: 2 });
        expect(page.items.map((i) => i.metadata?.name)).toEqual(["a", "b"]);
        expect(page.continue).not.toBe("");
        expect(page.remainingItemCount).toBe(1);
        expect(Number(page.resourceVersion)).toBeGreaterThan(0);
        const last = await c.ingresses.list({ namespace: ns, limit: 2, continue: page.continue });
        expect(last.items.map((i) => i.metadata?.name)).toEqual(["c"]);
        expect([last.continue, last.remainingItemCount]).toEqual(["", undefined]);
        expect((await c.ingresses.listAll({ namespace: ns, limit: 1 })).items).toHaveLength(3);
        expect((await c.ingresses.list({ namespace: ns, fieldSelector: "metadata.name=b" })).items).toHaveLength(1);
        // With a selector the API server cannot say how many are left: no remainingItemCount.
        const selected = await c.ingresses.list({ namespace: ns, limit: 1, labelSelector: "app=web" });
        expect([selected.items.length, selected.continue !== "", selected.remainingItemCount]).toEqual([
          1,
          true,
          undefined,
        ]);
        expect((await c.ingresses.list({ namespace: ns, labelSelector: "app!=web" })).items).toEqual([]);

        made.metadata!.labels = { app: "web", tier: "front" };
        const updated = await c.ingresses.update(made);
        expect(updated.metadata?.labels).toEqual({ app: "web", tier: "front" });
        const conflict = await failure(c.ingresses.update(made));
        expect(conflict).toBeInstanceOf(ApiError);
        expect(conflict).toMatchObject({ status: 409, reason: "Conflict" });

        updated.status = create(IngressSchema, {
          status: { loadBalancer: { ingress: [{ ip: "192.0.2.10" }] } },
        }).status;
        const withStatus = await c.ingresses.updateStatus(updated);
        expect(withStatus.status?.loadBalancer?.ingress.map((i) => i.ip)).toEqual(["192.0.2.10"]);

        const notFound = await failure(c.ingresses.get("nope", { namespace: ns }));
        expect(notFound).toMatchObject({ status: 404, reason: "NotFound", method: "GET" });
        expect((notFound as ApiError).statusObject?.details?.name).toBe("nope");
        expect((notFound as Error).message).toBe(
          `GET /apis/networking.k8s.io/v1/namespaces/${ns}/ingresses/nope: HTTP 404 NotFound: ingresses.networking.k8s.io "nope" not found`,
        );
        const exists = await failure(c.ingresses.create(ingress(ns, "a")));
        expect(exists).toMatchObject({ status: 409, reason: "AlreadyExists" });
        const invalid = await failure(
          c.ingresses.create(create(IngressSchema, { metadata: { name: "Bad_Name", namespace: ns } })),
        );
        expect(invalid).toMatchObject({ status: 422, reason: "Invalid" });
        expect((invalid as ApiError).causes.map((x) => [x.field, x.reason])).toEqual([
          ["metadata.name", "FieldValueInvalid"],
          ["spec", "FieldValueInvalid"],
        ]);
      });

      it(`${format}: dry runs, field validation and the API server's warnings`, async () => {
        const c = clientOf(format);
        warnings.length = 0;
        const dry = await c.ingresses.create(ingress(ns, "dry", { "kubernetes.io/ingress.class": "nginx" }), {
          dryRun: true,
          fieldValidation: "Strict",
          fieldManager: "dry-runner",
        });
        expect(dry.metadata?.managedFields.map((m) => m.manager)).toEqual(["dry-runner"]);
        expect(await failure(c.ingresses.get("dry", { namespace: ns }))).toMatchObject({ status: 404 });
        expect(warnings.some((w) => w.includes("kubernetes.io/ingress.class") && w.includes("deprecated"))).toBe(true);
      });

      it(`${format}: delete (a Status; dry run, preconditions) and server-side apply (conflict, force)`, async () => {
        const c = clientOf(format);
        const made = await c.ingresses.create(ingress(ns, "to-delete"));
        const dry = await c.ingresses.delete("to-delete", { namespace: ns, dryRun: true });
        expect(dry.$typeName).toBe(STATUS);
        expect((await c.ingresses.get("to-delete", { namespace: ns })).metadata?.uid).toBe(made.metadata?.uid);
        const wrongUid = await failure(
          c.ingresses.delete("to-delete", { namespace: ns, preconditions: { uid: "not-it" } }),
        );
        expect(wrongUid).toMatchObject({ status: 409, reason: "Conflict" });
        const done = await c.ingresses.delete("to-delete", {
          namespace: ns,
          gracePeriodSeconds: 0,
          propagationPolicy: "Background",
          preconditions: { uid: made.metadata!.uid!, resourceVersion: made.metadata!.resourceVersion! },
        });
        expect(done).toMatchObject({
          $typeName: STATUS,
          status: "Success",
          details: { name: "to-delete", uid: made.metadata?.uid },
        });
        expect(await failure(c.ingresses.get("to-delete", { namespace: ns }))).toMatchObject({ status: 404 });

        const applied = await c.ingresses.apply(ingress(ns, "applied"), { fieldManager: "tool-a" });
        expect(applied.metadata?.managedFields.map((m) => [m.manager, m.operation])).toEqual([["tool-a", "Apply"]]);
        const other = create(IngressSchema, { metadata: { name: "applied", namespace: ns, labels: { app: "other" } } });
        const clash = await failure(c.ingresses.apply(other, { fieldManager: "tool-b" }));
        expect(clash).toMatchObject({ status: 409, reason: "Conflict" });
        expect((clash as ApiError).causes).toEqual([
          { field: ".metadata.labels.app", reason: "FieldManagerConflict", message: 'conflict with "tool-a"' },
        ]);
        const forced = await c.ingresses.apply(other, { fieldManager: "tool-b", force: true });
        expect(forced.metadata?.labels).toEqual({ app: "other" });
      });

      it(`${format}: the cluster-scoped kinds and NetworkPolicy`, async () => {
        const c = clientOf(format);
        const klass = `class-${format}`;
        await c.ingressClasses.create(
          create(IngressClassSchema, { metadata: { name: klass }, spec: { controller: "example.com/ingress" } }),
        );
        expect((await c.ingressClasses.get(klass)).spec?.controller).toBe("example.com/ingress");
        expect((await c.ingressClasses.listAll()).items.map((i) => i.metadata?.name)).toContain(klass);
        expect((await c.ingressClasses.delete(klass)).$typeName).toBe(STATUS);

        const policy = await c.networkPolicies.create(
          create(NetworkPolicySchema, {
            metadata: { name: "deny", namespace: ns },
            spec: { policyTypes: ["Ingress"] },
          }),
        );
        expect(policy.spec?.policyTypes).toEqual(["Ingress"]);
        expect((await c.networkPolicies.list({ namespace: ns })).items.map((p) => p.metadata?.name)).toEqual(["deny"]);
        await c.networkPolicies.delete("deny", { namespace: ns });

        const cidrName = `cidr-${format}`;
        const cidr = await c.serviceCIDRs.create(
          create(ServiceCIDRSchema, {
            metadata: { name: cidrName },
            spec: { cidrs: [format === "json" ? "10.96.1.0/24" : "10.96.2.0/24"] },
          }),
        );
        expect(cidr.spec?.cidrs).toHaveLength(1);
        expect((await c.serviceCIDRs.updateStatus(cidr)).metadata?.name).toBe(cidrName);
        await c.serviceCIDRs.delete(cidrName);

        const ip = format === "json" ? "10.0.0.201" : "10.0.0.202";
        await c.ipAddresses.create(
          create(IPAddressSchema, {
            metadata: { name: ip },
            spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "kubernetes" } },
          }),
        );
        expect((await c.ipAddresses.get(ip)).spec?.parentRef?.name).toBe("kubernetes");
        await c.ipAddresses.delete(ip);
      });

      it(`${format}: watch from a list's resourceVersion: ADDED, MODIFIED, DELETED, then the end after timeoutSeconds`, async () => {
        const c = clientOf(format);
        const space = `watch-${format}`;
        await apiRequest(plane, "POST", "/api/v1/namespaces", {
          apiVersion: "v1",
          kind: "Namespace",
          metadata: { name: space },
        });
        const { resourceVersion } = await c.ingresses.list({ namespace: space });
        const seen: string[] = [];
        const changes = (async () => {
          const made = await c.ingresses.create(ingress(space, "w"));
          made.metadata!.labels = { app: "changed" };
          await c.ingresses.update(made);
          await c.ingresses.delete("w", { namespace: space });
        })();
        for await (const event of c.ingresses.watch({ namespace: space, resourceVersion, timeoutSeconds: 2 })) {
          seen.push(
            event.type === "ERROR" ? `ERROR ${event.object.code}` : `${event.type} ${event.object.metadata?.name}`,
          );
        }
        await changes;
        // The API server ends the watch after timeoutSeconds: the iteration ends without an error.
        expect(seen).toEqual(["ADDED w", "MODIFIED w", "DELETED w"]);

        // Aborting ends the iteration quietly. Without a resourceVersion the watch starts with what
        // exists, so "x" comes as ADDED whether it is made before or after the watch is open.
        const abort = new AbortController();
        const quiet: string[] = [];
        const pending = (async () => {
          for await (const event of c.ingresses.watch({ namespace: space, signal: abort.signal })) {
            quiet.push(event.type);
            abort.abort();
          }
        })();
        await c.ingresses.create(ingress(space, "x"));
        await pending;
        expect(quiet[0]).toBe("ADDED");
      });
    }
  },
);
