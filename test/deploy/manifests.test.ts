import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as https from "node:https";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ValidatingWebhookConfiguration } from "kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ClusterRole } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole";
import { ClusterRoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { Service } from "kubernetes-models/v1/Service";
import { ServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { admit, readAdmissionReview, type AdmissionOperation } from "../../src/admission/index.js";
import { WATCHED_KINDS } from "../../src/admission/server/cluster/ingress-watch.js";
import { API_PREFIX, kindFacts } from "../../src/client/kinds.js";
import {
  DEFAULT_DRAIN_MS,
  makeWebhookCerts,
  serviceDnsNames,
  type WebhookCerts,
} from "../../src/admission/server/index.js";
import { KINDS, NETWORKING_API_VERSION } from "../../src/networking/index.js";
import { REPO, cli, serve } from "../support/cli/harness.js";

// There is no cluster here: these tests hold deploy/ to what the webhook
// server, the CLI and the admission core actually do, so the manifests would
// run as written. Facts about Kubernetes used below: the API server calls
// SERVICE.NAMESPACE.svc, the namespace label kubernetes.io/metadata.name, and
// the resource name the API server derives from a kind (lower case; "s" ->
// "ses", "y" -> "ies", else + "s").

// biome-ignore lint/suspicious/noExplicitAny: manifests are plain YAML, checked field by field below
type Obj = Record<string, any>;

const DEPLOY = join(REPO, "deploy");

interface Doc {
  readonly file: string;
  readonly obj: Obj;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(name) ? [path] : [];
    });
}

const docs: Doc[] = yamlFiles(DEPLOY).flatMap((path) =>
  parseAllDocuments(readFileSync(path, "utf8")).map((d) => {
    if (d.errors.length > 0) throw new Error(`${path}: ${d.errors[0]?.message}`);
    return { file: relative(DEPLOY, path), obj: d.toJS() as Obj };
  }),
);

/** The one object of this kind (and name) in the files applied with cert-manager: deploy/*.yaml. */
function one(kind: string, name?: string, inFile = (f: string) => !f.includes("/")): Obj {
  const found = docs.filter(
    (d) => inFile(d.file) && d.obj.kind === kind && (name === undefined || d.obj.metadata?.name === name),
  );
  expect(
    found.map((d) => `${d.file}: ${kind}`),
    `${kind} ${name ?? ""}`,
  ).toHaveLength(1);
  return (found[0] as Doc).obj;
}

const deployment = one("Deployment");
const service = one("Service");
const webhookConfig = one("ValidatingWebhookConfiguration");
const plainWebhookConfig = one("ValidatingWebhookConfiguration", undefined, (f) => f.startsWith("no-cert-manager/"));
const pod = deployment.spec.template.spec as Obj;
const container = pod.containers[0] as Obj;
const args = container.args as string[];
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const tlsMount = (container.volumeMounts as Obj[]).find((m) =>
  (flag("--tls-cert") ?? "").startsWith(`${m.mountPath}/`),
);
const tlsVolume = (pod.volumes as Obj[]).find((v) => v.name === tlsMount?.name);
const httpsPort = (container.ports as Obj[]).find((p) => p.name === service.spec.ports[0].targetPort);

/** The plural resource name the API server gives a kind. */
function resourceOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower.endsWith("s")) return `${lower}es`;
  if (lower.endsWith("y")) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

const NETWORKING_KINDS = KINDS.filter((k) => k.apiVersion === NETWORKING_API_VERSION && !k.list);

/** What admit() checks rather than lets through, asked of admit() itself. */
function checked(kind: string, operation: AdmissionOperation, subResource: string): boolean {
  const object = { apiVersion: NETWORKING_API_VERSION, kind, metadata: { name: "x" } };
  const request = readAdmissionReview({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: "u",
      kind: { group: "networking.k8s.io", version: "v1", kind },
      resource: { group: "networking.k8s.io", version: "v1", resource: resourceOf(kind) },
      subResource,
      name: "x",
      operation,
      object: operation === "DELETE" ? null : object,
      oldObject: operation === "CREATE" ? null : object,
    },
  });
  return admit(request).verdict !== "ignored";
}

describe("deploy/ manifests", () => {
  it("are YAML documents that each name their apiVersion, kind and metadata.name", () => {
    expect(docs.length).toBeGreaterThanOrEqual(12);
    for (const { file, obj } of docs) {
      expect(typeof obj.apiVersion, file).toBe("string");
      expect(typeof obj.kind, file).toBe("string");
      expect(obj.metadata?.name, `${file} ${obj.kind}`).toMatch(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
    }
  });

  it("match the Kubernetes OpenAPI schema (kubernetes-models), but for cert-manager's kinds, which it lacks", () => {
    // kubernetes-models checks types, formats and required fields; it lets unknown fields through.
    // biome-ignore lint/suspicious/noExplicitAny: each model takes its own kind's fields
    const models: Record<string, new (o: any) => { validate(): void }> = {
      "v1/Namespace": Namespace,
      "v1/ServiceAccount": ServiceAccount,
      "v1/Service": Service,
      "apps/v1/Deployment": Deployment,
      "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
      "rbac.authorization.k8s.io/v1/ClusterRole": ClusterRole,
      "rbac.authorization.k8s.io/v1/ClusterRoleBinding": ClusterRoleBinding,
      "admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration": ValidatingWebhookConfiguration,
      "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
    };
    const unchecked: string[] = [];
    for (const { file, obj } of docs) {
      const Model = models[`${obj.apiVersion}/${obj.kind}`];
      if (Model === undefined) {
        unchecked.push(`${obj.apiVersion}/${obj.kind}`);
        continue;
      }
      const filled = JSON.parse(JSON.stringify(obj).replaceAll("CA_BUNDLE_PLACEHOLDER", "Y2E=")) as Obj;
      expect(() => new Model(filled).validate(), `${file} ${obj.kind}`).not.toThrow();
    }
    expect(new Set(unchecked)).toEqual(new Set(["cert-manager.io/v1/Issuer", "cert-manager.io/v1/Certificate"]));
    // The schema check is not idle: it refuses the placeholder itself, which is not base64.
    expect(() => new ValidatingWebhookConfiguration(plainWebhookConfig).validate()).toThrow(
      /caBundle must match format "byte"/,
    );
  });

  it("put every namespaced object in the webhook's namespace, which is made first", () => {
    const namespace = one("Namespace").metadata.name as string;
    expect(docs[0]?.obj.kind).toBe("Namespace");
    const clusterScoped = new Set(["Namespace", "ClusterRole", "ClusterRoleBinding", "ValidatingWebhookConfiguration"]);
    for (const { file, obj } of docs.filter((d) => !clusterScoped.has(d.obj.kind)))
      expect(obj.metadata.namespace, `${file} ${obj.kind}`).toBe(namespace);
  });

  it("run two replicas, spread over nodes, kept at least one through disruptions, with requests and limits", () => {
    expect(deployment.spec.replicas).toBe(2);
    const labels = deployment.spec.template.metadata.labels as Obj;
    const selects = (selector: Obj): boolean =>
      Object.entries(selector.matchLabels as Obj).every(([k, v]) => labels[k] === v);
    expect(selects(deployment.spec.selector)).toBe(true);
    expect(selects({ matchLabels: service.spec.selector })).toBe(true);
    const pdb = one("PodDisruptionBudget");
    expect(pdb.spec.minAvailable).toBe(1);
    expect(selects(pdb.spec.selector)).toBe(true);
    const spread = (pod.topologySpreadConstraints as Obj[]).find((t) => t.topologyKey === "kubernetes.io/hostname");
    expect(spread).toBeDefined();
    expect(selects(spread?.labelSelector)).toBe(true);
    for (const what of ["requests", "limits"])
      expect(Object.keys(container.resources[what]).sort(), what).toEqual(["cpu", "memory"]);
  });

  it("run the container as a numeric non-root user on a read-only root with no privileges", () => {
    for (const context of [pod.securityContext, container.securityContext]) {
      expect(context.runAsNonRoot).toBe(true);
      expect(Number.isInteger(context.runAsUser) && context.runAsUser > 0).toBe(true);
      expect(context.seccompProfile).toEqual({ type: "RuntimeDefault" });
    }
    const sc = container.securityContext as Obj;
    expect(sc.readOnlyRootFilesystem).toBe(true);
    expect(sc.allowPrivilegeEscalation).toBe(false);
    expect(sc.capabilities).toEqual({ drop: ["ALL"] });
    // The Secret is mounted read-only, readable by the pod's group only.
    expect(tlsMount?.readOnly).toBe(true);
    expect(tlsVolume?.secret.defaultMode).toBe(0o440);
    expect(pod.securityContext.fsGroup).toBe(container.securityContext.runAsGroup);
  });

  it("serve on the port the Service targets, on every interface, and the Service answers on 443", () => {
    expect(httpsPort?.containerPort).toBe(Number(flag("--port")));
    // webhook serve listens on loopback unless told otherwise: the probes and the API server call the pod's address.
    expect(flag("--host")).toBe("*");
    expect(service.spec.ports).toHaveLength(1);
    expect(service.spec.ports[0].port).toBe(443);
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      expect(probe.httpGet.scheme).toBe("HTTPS");
      expect([httpsPort?.name, httpsPort?.containerPort]).toContain(probe.httpGet.port);
    }
    expect(container.readinessProbe.httpGet.path).toBe("/readyz");
    expect(container.livenessProbe.httpGet.path).toBe("/healthz");
  });

  it("let the drain finish inside the termination grace period", () => {
    const pause = Number(container.lifecycle.preStop.exec.command[1]);
    expect(container.lifecycle.preStop.exec.command[0]).toBe("sleep");
    // webhook serve drains for up to createWebhookServer's default drainMs after SIGTERM.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(pause + DEFAULT_DRAIN_MS / 1000);
  });

  it("grant the service account list and watch on what the capture guard watches, and nothing else", () => {
    const role = one("ClusterRole");
    // The resources the guard's watch reads, from the paths of the kinds it asks the client for.
    const watched = Object.values(WATCHED_KINDS).map((kind) =>
      /^\/apis\/([^/]+)\/v1\/([^/]+)$/.exec(`${API_PREFIX}/${kindFacts(kind).plural}`),
    );
    expect(role.rules).toEqual([
      { apiGroups: [watched[0]?.[1]], resources: watched.map((m) => m?.[2]), verbs: ["list", "watch"] },
    ]);
    expect(role.rules?.[0]?.apiGroups).toEqual(["networking.k8s.io"]);
    const binding = one("ClusterRoleBinding");
    expect(binding.roleRef).toEqual({
      apiGroup: "rbac.authorization.k8s.io",
      kind: "ClusterRole",
      name: role.metadata.name,
    });
    const account = one("ServiceAccount");
    expect(binding.subjects).toEqual([
      { kind: "ServiceAccount", name: account.metadata.name, namespace: account.metadata.namespace },
    ]);
    expect(pod.serviceAccountName).toBe(account.metadata.name);
  });

  it("have cert-manager issue the Secret the Deployment mounts, for the Service's DNS names, from a CA issuer", () => {
    const issued = docs.filter(
      (d) => d.obj.kind === "Certificate" && d.obj.spec.secretName === tlsVolume?.secret.secretName,
    );
    expect(issued).toHaveLength(1);
    const certificate = (issued[0] as Doc).obj;
    expect(certificate.spec.dnsNames).toEqual(serviceDnsNames(service.metadata.name, service.metadata.namespace));
    expect(certificate.spec.usages).toContain("server auth");
    const issuer = one("Issuer", certificate.spec.issuerRef.name);
    const ca = docs.find((d) => d.obj.kind === "Certificate" && d.obj.spec.secretName === issuer.spec.ca?.secretName);
    expect(ca?.obj.spec.isCA).toBe(true);
    const root = one("Issuer", ca?.obj.spec.issuerRef.name);
    expect(root.spec).toEqual({ selfSigned: {} });
    expect(webhookConfig.metadata.annotations["cert-manager.io/inject-ca-from"]).toBe(
      `${certificate.metadata.namespace}/${certificate.metadata.name}`,
    );
  });
});

describe("the ValidatingWebhookConfiguration", () => {
  const webhooks = webhookConfig.webhooks as Obj[];
  const namespace = service.metadata.namespace as string;

  it("calls the Service's /validate on its port, with the API server's safe settings", () => {
    expect(webhooks.length).toBeGreaterThan(0);
    expect(new Set(webhooks.map((w) => w.name)).size).toBe(webhooks.length);
    for (const w of webhooks) {
      expect(w.name).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+){2,}$/);
      expect(w.clientConfig.service).toEqual({
        name: service.metadata.name,
        namespace,
        path: "/validate",
        port: service.spec.ports[0].port,
      });
      expect(w.admissionReviewVersions).toEqual(["v1"]);
      expect(w.sideEffects).toBe("None");
      expect(w.failurePolicy).toBe("Fail");
      expect(w.matchPolicy).toBe("Equivalent");
      // The API server's limit is 30 s; a webhook that answers in milliseconds needs far less.
      expect(w.timeoutSeconds).toBeGreaterThanOrEqual(1);
      expect(w.timeoutSeconds).toBeLessThanOrEqual(10);
    }
  });

  it("covers exactly the kinds, operations and subresources admit() checks, each once", () => {
    const operations = (["CREATE", "UPDATE", "DELETE", "CONNECT"] as const).filter((op) => checked("Ingress", op, ""));
    const expected = NETWORKING_KINDS.flatMap((k) => [
      resourceOf(k.kind),
      ...(checked(k.kind, "UPDATE", "status") ? [`${resourceOf(k.kind)}/status`] : []),
    ]).sort();
    expect(expected).toHaveLength(7); // five kinds, two with a status subresource of their own
    const rules = webhooks.flatMap((w) => w.rules as Obj[]);
    for (const rule of rules) {
      expect(rule.apiGroups).toEqual(["networking.k8s.io"]);
      expect(rule.apiVersions).toEqual(["v1"]);
      expect(rule.operations).toEqual(operations);
    }
    expect(rules.flatMap((r) => r.resources as string[]).sort()).toEqual(expected);
  });

  it("leaves kube-system and its own namespace out wherever a namespaced kind is checked", () => {
    const namespaced = new Set(NETWORKING_KINDS.filter((k) => k.namespaced).map((k) => resourceOf(k.kind)));
    for (const w of webhooks) {
      const resources = (w.rules as Obj[]).flatMap((r) => r.resources as string[]).map((r) => r.split("/")[0]);
      const scope = resources.some((r) => namespaced.has(r as string)) ? "Namespaced" : "Cluster";
      for (const rule of w.rules as Obj[]) expect(rule.scope, w.name).toBe(scope);
      if (scope === "Namespaced")
        expect(w.namespaceSelector).toEqual({
          matchExpressions: [
            { key: "kubernetes.io/metadata.name", operator: "NotIn", values: ["kube-system", namespace] },
          ],
        });
    }
  });

  it("never sits on the API server's own ClusterIP allocation", () => {
    // The allocator creates an IPAddress through the API for every new Service.
    const hook = webhooks.find((w) =>
      (w.rules as Obj[]).some((r) => (r.resources as string[]).includes("ipaddresses")),
    );
    expect(hook?.rules).toHaveLength(1);
    expect(hook?.rules[0].resources).toEqual(["ipaddresses"]);
    expect(hook?.objectSelector).toEqual({
      matchExpressions: [
        { key: "ipaddress.kubernetes.io/managed-by", operator: "NotIn", values: ["ipallocator.k8s.io"] },
      ],
    });
  });

  it("is the same without cert-manager, but for the caBundle given instead of injected", async () => {
    expect(plainWebhookConfig.metadata.annotations).toBeUndefined();
    const { annotations: _, ...metadata } = webhookConfig.metadata as Obj;
    expect(plainWebhookConfig.metadata).toEqual(metadata);
    const bundles = (plainWebhookConfig.webhooks as Obj[]).map((w) => w.clientConfig.caBundle as string);
    expect(new Set(bundles)).toEqual(new Set(["CA_BUNDLE_PLACEHOLDER"]));
    expect(
      (plainWebhookConfig.webhooks as Obj[]).map((w) => {
        const { caBundle: __, ...clientConfig } = w.clientConfig as Obj;
        return { ...w, clientConfig };
      }),
    ).toEqual(webhooks);
    // The placeholder is not base64, so the API server refuses the file until it is replaced.
    expect(/^[A-Za-z0-9+/]*={0,2}$/.test("CA_BUNDLE_PLACEHOLDER")).toBe(false);
    // The README's sed puts what webhook certs printed in its place: base64 of the CA's PEM.
    const certs = await makeWebhookCerts({ service: service.metadata.name, namespace });
    const text = readFileSync(join(DEPLOY, "no-cert-manager", "40-validating-webhook.yaml"), "utf8");
    const filled = parseAllDocuments(text.replaceAll("CA_BUNDLE_PLACEHOLDER", certs.caBundle))[0]?.toJS() as Obj;
    for (const w of filled.webhooks as Obj[])
      expect(Buffer.from(w.clientConfig.caBundle, "base64").toString("utf8")).toBe(certs.caCert);
  });
});

// The image's build file is read as text: these tests need no container runtime.
describe("the image", () => {
  const recipe = readFileSync(join(REPO, "Dockerfile"), "utf8");
  const version = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;

  it("is the one the Deployment runs, with the port it serves and the user it runs as", () => {
    expect(container.image).toBe(`clusterwire:${version}`);
    expect(recipe).toMatch(new RegExp(`^EXPOSE ${httpsPort?.containerPort}$`, "m"));
    const user = /^USER (\d+):(\d+)$/m.exec(recipe);
    expect(Number(user?.[1])).toBe(container.securityContext.runAsUser);
    expect(Number(user?.[2])).toBe(container.securityContext.runAsGroup);
    // The entry point is the CLI that `npm run build` compiles from src/cli/main.ts.
    expect(recipe).toMatch(/^ENTRYPOINT \["node", "\/app\/dist\/src\/cli\/main\.js"\]$/m);
    expect(statSync(join(REPO, "src", "cli", "main.ts")).isFile()).toBe(true);
    const stages = recipe.match(/^FROM node:20-[a-z-]+/gm) ?? [];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(recipe).toMatch(/npm ci --omit=dev/);
  });
});

describe("webhook serve from the Deployment's own arguments", () => {
  // The Secret volume is a temporary folder here; the port, 0, and the host,
  // loopback (for every interface), are the only other changes.
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-deploy-"));
  let certs: WebhookCerts;
  beforeAll(async () => {
    certs = await makeWebhookCerts({ service: service.metadata.name, namespace: service.metadata.namespace });
    writeFileSync(join(dir, "tls.crt"), certs.cert);
    writeFileSync(join(dir, "tls.key"), certs.key);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("starts, answers the probes and /validate for the API server's name of the Service, and stops", async () => {
    expect(args.slice(0, 2)).toEqual(["webhook", "serve"]);
    const local = args.map((a) =>
      a.startsWith(`${tlsMount?.mountPath}/`) ? join(dir, a.slice(tlsMount?.mountPath.length + 1)) : a,
    );
    local[local.indexOf("--port") + 1] = "0";
    local[local.indexOf("--host") + 1] = "127.0.0.1";
    const server = await serve(local, { cwd: dir });
    let stopped: Promise<number>;
    const port = Number(new URL(server.url).port);
    const servername = `${service.metadata.name}.${service.metadata.namespace}.svc`;
    const request = (method: string, path: string, body?: string): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const req = https.request(
          {
            host: "127.0.0.1",
            port,
            method,
            path,
            servername,
            ca: certs.caCert,
            headers: { "content-type": "application/json" },
          },
          (res) => {
            let text = "";
            res.on("data", (c: Buffer) => (text += c.toString("utf8")));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    try {
      for (const probe of [container.readinessProbe, container.livenessProbe])
        expect((await request("GET", probe.httpGet.path)).status, probe.httpGet.path).toBe(200);
      const path = (webhookConfig.webhooks as Obj[])[0]?.clientConfig.service.path as string;
      const review = {
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        request: {
          uid: "deploy-1",
          kind: { group: "networking.k8s.io", version: "v1", kind: "NetworkPolicy" },
          operation: "CREATE",
          namespace: "shop",
          object: { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: { name: "p" }, spec: {} },
        },
      };
      const reply = await request("POST", path, JSON.stringify(review));
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body).response).toEqual({ uid: "deploy-1", allowed: true });
    } finally {
      stopped = server.stop();
    }
    expect(await stopped).toBe(0);
  });
});

describe("clusterwire validate deploy/", () => {
  it("accepts clusterwire's own manifests: the networking ones valid, the others skipped, exit 0", async () => {
    const r = await cli(["validate", "deploy/"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const networking = docs.filter((d) => d.obj.apiVersion === NETWORKING_API_VERSION).length;
    expect(networking).toBeGreaterThan(0);
    const files = new Set(docs.map((d) => d.file)).size;
    expect(r.stdout).toContain(
      `Summary: ${docs.length} documents in ${files} files: ${networking} valid, 0 invalid, ${docs.length - networking} skipped, 0 errors`,
    );
  });
});
