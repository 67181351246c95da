// `clusterwire webhook serve` as a real kube-apiserver calls it: deploy/'s configuration
// registered against one control plane per release, and every request sent through the API
// server (plain HTTPS). Each case checks both sides: the review lines the webhook logged (kind,
// operation, namespace, dryRun, verdict) and what the client got back (status, Status body).
// The API server runs its own validation before any validating webhook, so an object it refuses
// never reaches the webhook; with the webhook following the same release there is no object the
// API server admits and the webhook denies, which the sampled objects at the end look for.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../../src/networking/index.js";
import { arbTargetedInvalid, arbValidJson, VALIDATED_KINDS, type ValidatedKind } from "../../../src/testing/index.js";
import {
  type ApiResponse,
  apiRequest,
  type ControlPlane,
  controlPlaneBuilt,
  startControlPlane,
} from "../../support/controlplane/start.js";
import {
  ensureNamespace,
  expectStatus,
  makeCerts,
  type RunningWebhook,
  registerWebhook,
  type ReviewLog,
  reviewsDuring,
  startWebhook,
  unregisterWebhook,
  type WebhookCertFiles,
  waitUntilCalled,
  webhookConfiguration,
} from "../../support/apiserver/webhook.js";

const NS = "shop";
const API = "/apis/networking.k8s.io/v1";
const NAMESPACED = new Set<ValidatedKind>(["Ingress", "NetworkPolicy"]);
const PLURAL: Record<ValidatedKind, string> = {
  Ingress: "ingresses",
  IngressClass: "ingressclasses",
  NetworkPolicy: "networkpolicies",
  IPAddress: "ipaddresses",
  ServiceCIDR: "servicecidrs",
};

/** The collection URL of `kind` (in `namespace` for the namespaced kinds). */
function collection(kind: ValidatedKind, namespace = NS): string {
  return NAMESPACED.has(kind) ? `${API}/namespaces/${namespace}/${PLURAL[kind]}` : `${API}/${PLURAL[kind]}`;
}

interface Status {
  kind: string;
  status: string;
  code: number;
  reason?: string;
  message: string;
}
const statusOf = (res: ApiResponse): Status => JSON.parse(res.body) as Status;

/** The API server's own refusal: 422 Invalid, with no word of a webhook. */
function expectOwnRefusal(res: ApiResponse, what: string): Status {
  expectStatus(res, 422, what);
  const status = statusOf(res);
  expect(status).toMatchObject({ kind: "Status", status: "Failure", code: 422, reason: "Invalid" });
  expect(status.message).not.toMatch(/admission webhook/);
  return status;
}

/** The fields of a review line the tests compare. */
function summary(r: ReviewLog) {
  return {
    kind: r["kind"],
    operation: r["operation"],
    subResource: r["subResource"],
    namespace: r["namespace"],
    name: r["name"],
    dryRun: r["dryRun"],
    verdict: r.verdict,
  };
}

const obj = (kind: ValidatedKind, name: string, rest: JsonObject): JsonObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind,
  metadata: { name },
  ...rest,
});

const backend = { service: { name: "web", port: { number: 80 } } };
const ingressSpec = (host: string, path = "/") => ({
  spec: { rules: [{ host, http: { paths: [{ path, pathType: "Prefix", backend }] } }] },
});

/** Per kind: a valid object, an invalid one, a valid change and an invalid change of the valid one. */
const CASES: ReadonlyArray<{
  kind: ValidatedKind;
  valid: JsonObject;
  invalid: JsonObject;
  change: (o: JsonObject) => void;
  badChange: (o: JsonObject) => void;
}> = [
  {
    kind: "Ingress",
    valid: obj("Ingress", "web", ingressSpec("shop.example.com")),
    // A Prefix path must be absolute.
    invalid: obj("Ingress", "web-bad", ingressSpec("shop.example.com", "no-slash")),
    change: (o) => {
      (o["spec"] as JsonObject)["ingressClassName"] = "cw";
    },
    badChange: (o) => Object.assign(o, ingressSpec("*.*.example.com")),
  },
  {
    kind: "IngressClass",
    valid: obj("IngressClass", "cw", { spec: { controller: "example.com/ingress" } }),
    invalid: obj("IngressClass", "cw-bad", { spec: { controller: "not a controller" } }),
    change: (o) => {
      (o["metadata"] as JsonObject)["labels"] = { tier: "edge" };
    },
    // spec.controller is immutable.
    badChange: (o) => {
      (o["spec"] as JsonObject)["controller"] = "example.com/other";
    },
  },
  {
    kind: "NetworkPolicy",
    valid: obj("NetworkPolicy", "db", {
      spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/8" } }] }] },
    }),
    invalid: obj("NetworkPolicy", "db-bad", {
      spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/33" } }] }] },
    }),
    change: (o) => {
      (o["spec"] as JsonObject)["policyTypes"] = ["Ingress"];
    },
    badChange: (o) => {
      (o["spec"] as JsonObject)["policyTypes"] = ["Sideways"];
    },
  },
];

const VERSIONS_UNDER_TEST = ["v1.35.4", "v1.37.2"] as const;

describe.each(VERSIONS_UNDER_TEST)("webhook serve behind kube-apiserver %s", (version) => {
  const minor = version.slice(1).split(".").slice(0, 2).join(".") as "1.35" | "1.37";
  describe.skipIf(!controlPlaneBuilt(version))("deploy/'s configuration", () => {
    let plane: ControlPlane;
    let certs: WebhookCertFiles;
    let webhook: RunningWebhook;
    const during = <T>(action: () => Promise<T>) => reviewsDuring(plane, webhook, NS, action);

    beforeAll(async () => {
      [plane, certs] = await Promise.all([startControlPlane({ version }), makeCerts()]);
      webhook = await startWebhook(certs, ["--kubernetes-version", version]);
      await Promise.all([NS, "clusterwire"].map((ns) => ensureNamespace(plane, ns)));
      await registerWebhook(plane, webhookConfiguration(webhook.url, certs.caPem));
      await waitUntilCalled(plane, webhook, NS);
    }, 90_000);

    afterAll(async () => {
      if (plane !== undefined) await unregisterWebhook(plane).catch(() => undefined);
      await webhook?.stop();
      await plane?.stop();
      certs?.dispose();
    }, 60_000);

    it.each(CASES)("$kind: create, update and delete, valid and invalid", async (c) => {
      const url = collection(c.kind);
      const namespace = NAMESPACED.has(c.kind) ? NS : undefined;
      const name = (c.valid["metadata"] as JsonObject)["name"] as string;
      const seen = (operation: string) => ({
        kind: c.kind,
        operation,
        subResource: undefined,
        namespace,
        name,
        dryRun: undefined,
        verdict: "allowed",
      });

      // A valid create reaches the webhook, which allows it.
      const created = await during(() => apiRequest(plane, "POST", url, c.valid));
      expectStatus(created.result, 201, `create ${c.kind}`);
      expect(created.reviews.map(summary)).toEqual([seen("CREATE")]);

      // An invalid create is refused by the API server's own validation and never reaches it.
      const refused = await during(() => apiRequest(plane, "POST", url, c.invalid));
      expectOwnRefusal(refused.result, `create invalid ${c.kind}`);
      expect(refused.reviews).toEqual([]);
      expectStatus(
        await apiRequest(plane, "GET", `${url}/${(c.invalid["metadata"] as JsonObject)["name"] as string}`),
        404,
        "the refused object",
      );

      // A valid update reaches it as UPDATE; an invalid one does not.
      const stored = JSON.parse(created.result.body) as JsonObject;
      const changed = structuredClone(stored);
      c.change(changed);
      const updated = await during(() => apiRequest(plane, "PUT", `${url}/${name}`, changed));
      expectStatus(updated.result, 200, `update ${c.kind}`);
      expect(updated.reviews.map(summary)).toEqual([seen("UPDATE")]);

      const broken = JSON.parse(updated.result.body) as JsonObject;
      c.badChange(broken);
      const badUpdate = await during(() => apiRequest(plane, "PUT", `${url}/${name}`, broken));
      expectOwnRefusal(badUpdate.result, `invalid update of ${c.kind}`);
      expect(badUpdate.reviews).toEqual([]);

      // DELETE is not in the configuration's rules.
      const deleted = await during(() => apiRequest(plane, "DELETE", `${url}/${name}`));
      expectStatus(deleted.result, 200, `delete ${c.kind}`);
      expect(deleted.reviews).toEqual([]);
      expectStatus(await apiRequest(plane, "GET", `${url}/${name}`), 404, "the deleted object");
    });

    it("Ingress status: an update of /status reaches the webhook as ingresses/status; an invalid one does not", async () => {
      const url = collection("Ingress");
      const ingress = obj("Ingress", "status-web", ingressSpec("status.example.com"));
      const created = JSON.parse(expectStatus(await apiRequest(plane, "POST", url, ingress), 201, "create").body);
      const withStatus = { ...created, status: { loadBalancer: { ingress: [{ ip: "192.0.2.10" }] } } };
      const put = await during(() => apiRequest(plane, "PUT", `${url}/status-web/status`, withStatus));
      expectStatus(put.result, 200, "update status");
      expect(JSON.parse(put.result.body).status).toEqual(withStatus.status);
      expect(put.reviews.map(summary)).toEqual([
        {
          kind: "Ingress",
          operation: "UPDATE",
          subResource: "status",
          namespace: NS,
          name: "status-web",
          dryRun: undefined,
          verdict: "allowed",
        },
      ]);

      const stored = JSON.parse(put.result.body);
      const bad = { ...stored, status: { loadBalancer: { ingress: [{ ip: "not-an-ip" }] } } };
      const refused = await during(() => apiRequest(plane, "PUT", `${url}/status-web/status`, bad));
      expectOwnRefusal(refused.result, "invalid status");
      expect(refused.reviews).toEqual([]);
      expectStatus(await apiRequest(plane, "DELETE", `${url}/status-web`), 200, "delete");
    });

    it("dry runs: the review says dryRun, nothing is stored", async () => {
      const url = collection("NetworkPolicy");
      const policy = obj("NetworkPolicy", "dry", { spec: { podSelector: {} } });
      const dry = await during(() => apiRequest(plane, "POST", `${url}?dryRun=All`, policy));
      expectStatus(dry.result, 201, "dry-run create");
      expect(dry.reviews.map(summary)).toEqual([
        {
          kind: "NetworkPolicy",
          operation: "CREATE",
          subResource: undefined,
          namespace: NS,
          name: "dry",
          dryRun: true,
          verdict: "allowed",
        },
      ]);
      expectStatus(await apiRequest(plane, "GET", `${url}/dry`), 404, "the dry-run object");

      const bad = obj("NetworkPolicy", "dry-bad", { spec: { podSelector: { matchLabels: { "a b": "c" } } } });
      const refused = await during(() => apiRequest(plane, "POST", `${url}?dryRun=All`, bad));
      expectOwnRefusal(refused.result, "invalid dry-run create");
      expect(refused.reviews).toEqual([]);
    });

    it.each(["kube-system", "clusterwire"])("objects in %s never reach the webhook", async (namespace) => {
      const url = collection("NetworkPolicy", namespace);
      const policy = obj("NetworkPolicy", "skipped", { spec: { podSelector: {} } });
      const ingress = obj("Ingress", "skipped", ingressSpec("skipped.example.com"));
      const { result, reviews } = await during(async () => [
        await apiRequest(plane, "POST", url, policy),
        await apiRequest(plane, "POST", collection("Ingress", namespace), ingress),
        await apiRequest(plane, "PUT", `${url}/skipped`, {
          ...policy,
          metadata: { name: "skipped", labels: { changed: "yes" } },
        }),
        await apiRequest(plane, "POST", `${url}?dryRun=All`, { ...policy, metadata: { name: "skipped-dry" } }),
      ]);
      expect(result.map((r) => r.status)).toEqual([201, 201, 200, 201]);
      expect(reviews).toEqual([]);
      // Built-in validation still applies there.
      const bad = obj("NetworkPolicy", "skipped-bad", { spec: { podSelector: {}, policyTypes: ["Sideways"] } });
      expectOwnRefusal(await apiRequest(plane, "POST", url, bad), `invalid in ${namespace}`);
      expectStatus(await apiRequest(plane, "DELETE", `${url}/skipped`), 200, "delete");
      expectStatus(await apiRequest(plane, "DELETE", `${collection("Ingress", namespace)}/skipped`), 200, "delete");
    });

    it("built-in validation runs first: sampled valid objects reach the webhook and are allowed, targeted-invalid ones never reach it", async () => {
      const SAMPLES = 200;
      const CONCURRENCY = 4;
      /** A request body for `kind`: namespaced kinds go to NS, whatever namespace the sample named. */
      const request = (kind: ValidatedKind, json: JsonObject) => {
        const body = structuredClone(json);
        const meta = body["metadata"] as JsonObject | undefined;
        if (meta !== undefined) delete meta["namespace"];
        return { kind, url: `${collection(kind)}?dryRun=All`, body };
      };
      const valid = fc
        .sample(
          fc.constantFrom(...VALIDATED_KINDS).chain((k) => arbValidJson(k, { version: minor }).map((j) => ({ k, j }))),
          { numRuns: SAMPLES, seed: 20_261_128 },
        )
        .map(({ k, j }) => request(k, j));
      const invalid = fc
        .sample(arbTargetedInvalid(undefined, { version: minor }), { numRuns: SAMPLES, seed: 20_261_129 })
        .map((t) => ({ ...request(t.kind, t.json), mutation: t.mutation }));

      /** Sends every request, CONCURRENCY at a time; answers in the requests' order. */
      const send = async (requests: ReadonlyArray<{ url: string; body: JsonObject }>): Promise<ApiResponse[]> => {
        const answers: ApiResponse[] = new Array(requests.length);
        let next = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            for (let i = next++; i < requests.length; i = next++) {
              const r = requests[i]!;
              answers[i] = await apiRequest(plane, "POST", r.url, r.body);
            }
          }),
        );
        return answers;
      };
      const key = (kind: unknown, name: unknown) => `${String(kind)}/${String(name)}`;

      const ok = await during(() => send(valid));
      const notCreated = ok.result.flatMap((res, i) =>
        res.status === 201 ? [] : [`${valid[i]!.kind} ${res.status}: ${res.body}`],
      );
      expect(notCreated).toEqual([]);
      // One review per object, of that object, allowed.
      expect(ok.reviews.map((r) => r.verdict).filter((v) => v !== "allowed")).toEqual([]);
      expect(ok.reviews.every((r) => r["dryRun"] === true)).toBe(true);
      expect(ok.reviews.map((r) => key(r["kind"], r["name"])).sort()).toEqual(
        valid.map((r) => key(r.kind, (r.body["metadata"] as JsonObject)["name"])).sort(),
      );

      const sent = await during(() => send(invalid));
      // Each answer is the API server's own refusal: a 4xx Status naming no webhook (a webhook's
      // denial says "admission webhook ... denied the request"), and the webhook saw none of them.
      const notRefused = sent.result.flatMap((res, i) =>
        /admission webhook/.test(res.body) || !(res.status >= 400 && res.status < 500)
          ? [`${invalid[i]!.mutation}: ${res.status} ${res.body}`]
          : [],
      );
      expect(notRefused).toEqual([]);
      expect(sent.reviews).toEqual([]);
      const statuses = new Map<number, number>();
      for (const r of sent.result) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      console.info(
        `${version}: ${valid.length} valid objects -> ${ok.reviews.length} reviews, all allowed; ` +
          `${invalid.length} targeted-invalid -> answers ${[...statuses].map(([s, n]) => `${s}x${n}`).join(" ")}, ` +
          "0 reviews",
      );
    });
  });
});
