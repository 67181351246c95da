// deploy/ applied with the kubectl of each release to a real kube-apiserver (no kubelet, no
// controllers, no cert-manager): first as server-side dry runs, then for real, in the order a
// cluster without nodes can hold it. Skips where the control plane is not built; .ci/run builds
// it and runs this file.
//
// 20-cert-manager.yaml holds cert-manager's kinds (Issuer, Certificate), which this API server
// does not serve: rather than stand in for cert-manager's CRDs, the test asserts that kubectl's
// only complaint about that file is "no matches for kind", once per document.
//
// The ValidatingWebhookConfiguration is applied for real before the webhook's Service exists, so
// the API server's calls to it fail at once with `service "clusterwire-webhook" not found`. Once
// the Service exists, the API server would send a review to the Service's ClusterIP (an address
// off loopback, where nothing listens), so after that the test writes networking objects only in
// the namespaces the configuration leaves out.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/apiserver/webhook.js";
import { type KubectlRun, kubectl as runKubectl } from "../../../conformance/kubectl/kubectl.js";
import {
  binaryPaths,
  type ControlPlane,
  controlPlaneBuilt,
  startControlPlane,
  VERSIONS,
} from "../../support/controlplane/start.js";

const DEPLOY = join(ROOT, "deploy");
const file = (name: string) => join(DEPLOY, name);
const NAMESPACE = file("00-namespace.yaml");
const RBAC = file("10-rbac.yaml");
const CERT_MANAGER = file("20-cert-manager.yaml");
const SERVER = file("30-webhook-server.yaml");
const WEBHOOK = file("40-validating-webhook.yaml");
const NO_CERT_MANAGER = file("no-cert-manager/40-validating-webhook.yaml");

type Run = KubectlRun;

type Doc = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [k: string]: unknown;
};

/** The documents of a deploy/ file, as plain objects. */
function documents(path: string): Doc[] {
  return parseAllDocuments(readFileSync(path, "utf8")).map((d) => d.toJS() as Doc);
}

/** What kubectl names an object in its output: kind.group/name, lower case (core kinds have no group). */
function label(doc: Doc): string {
  const group = doc.apiVersion.includes("/") ? `.${doc.apiVersion.split("/")[0]}` : "";
  return `${doc.kind.toLowerCase()}${group}/${doc.metadata.name}`;
}

/** A Run as text, for failure messages. */
const show = (r: Run) => `exit ${r.code}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;

for (const version of Object.keys(VERSIONS)) {
  describe.skipIf(!controlPlaneBuilt(version))(`deploy/ applied with kubectl (${version})`, () => {
    let plane: ControlPlane;
    const kubectl = (args: readonly string[], stdin?: string): Promise<Run> =>
      runKubectl(
        {
          binary: binaryPaths(version).kubectl,
          kubeconfig: plane.kubeconfigPath,
          cacheDir: join(plane.dir, "kubectl"),
        },
        args,
        { timeoutMs: 30_000, ...(stdin !== undefined ? { stdin } : {}) },
      );
    /** kubectl that must exit 0; its output is in the failure message otherwise. */
    const ok = async (args: readonly string[], stdin?: string): Promise<Run> => {
      const r = await kubectl(args, stdin);
      expect(r.code, `kubectl ${args.join(" ")}\n${show(r)}`).toBe(0);
      return r;
    };
    const lines = (text: string) => text.split("\n").filter((l) => l !== "");

    beforeAll(async () => {
      plane = await startControlPlane({ version, timeoutMs: 60_000 });
    }, 90_000);
    afterAll(async () => {
      await plane?.stop();
    }, 30_000);

    it("dry run: without the namespace, the namespaced objects are refused as NotFound", async () => {
      const r = await kubectl(["apply", "--dry-run=server", "-f", NAMESPACE, "-f", RBAC, "-f", SERVER]);
      expect(r.code, show(r)).toBe(1);
      const namespaced = [...documents(RBAC), ...documents(SERVER)].filter((d) => d.metadata.namespace !== undefined);
      expect(lines(r.stderr), show(r)).toEqual(
        namespaced.map(
          (d) =>
            `Error from server (NotFound): error when creating "${d.kind === "ServiceAccount" ? RBAC : SERVER}": namespaces "clusterwire" not found`,
        ),
      );
    });

    it("the namespace, for real; then every file but 20-cert-manager.yaml passes a dry run", async () => {
      const created = await ok(["apply", "-f", NAMESPACE]);
      expect(lines(created.stdout)).toEqual(["namespace/clusterwire created"]);
      const r = await ok(["apply", "--dry-run=server", "--validate=strict", "-f", RBAC, "-f", SERVER, "-f", WEBHOOK]);
      const expected = [...documents(RBAC), ...documents(SERVER), ...documents(WEBHOOK)].map(
        (d) => `${label(d)} created (server dry run)`,
      );
      expect(lines(r.stdout), show(r)).toEqual(expected);
      expect(r.stderr, show(r)).toBe("");
    });

    it("kubectl apply -f deploy/: the only refusals are cert-manager's kinds, not served here", async () => {
      const r = await kubectl(["apply", "--dry-run=server", "--validate=strict", "-f", `${DEPLOY}/`]);
      expect(r.code, show(r)).toBe(1);
      // Everything else is (or would be) created.
      const others = [NAMESPACE, RBAC, SERVER, WEBHOOK].flatMap(documents);
      expect(lines(r.stdout).sort(), show(r)).toEqual(
        others.map((d) => `${label(d)} ${d.kind === "Namespace" ? "unchanged" : "created"} (server dry run)`).sort(),
      );
      const refused = documents(CERT_MANAGER).map(
        (d) =>
          `resource mapping not found for name: "${d.metadata.name}" namespace: "${d.metadata.namespace}" from "${CERT_MANAGER}": no matches for kind "${d.kind}" in version "${d.apiVersion}"\nensure CRDs are installed first`,
      );
      expect(refused).toHaveLength(4);
      expect(r.stderr, show(r)).toBe(`${refused.join("\n")}\n`);
    });

    it("no-cert-manager/: refused until its placeholder is replaced, then accepted", async () => {
      const refused = await kubectl([
        "apply",
        "--dry-run=server",
        "--validate=strict",
        "-f",
        `${DEPLOY}/no-cert-manager/`,
      ]);
      expect(refused.code, show(refused)).toBe(1);
      expect(refused.stderr, show(refused)).toBe(
        `Error from server (BadRequest): error when creating "${NO_CERT_MANAGER}": ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: illegal base64 data at input byte 2\n`,
      );
      const bundle = Buffer.from(plane.caPem).toString("base64");
      const text = readFileSync(NO_CERT_MANAGER, "utf8").replaceAll("CA_BUNDLE_PLACEHOLDER", bundle);
      const r = await ok(["apply", "--dry-run=server", "--validate=strict", "-f", "-"], text);
      expect(lines(r.stdout)).toEqual([
        "validatingwebhookconfiguration.admissionregistration.k8s.io/clusterwire created (server dry run)",
      ]);
    });

    it("for real: RBAC and the webhook configuration; with no Service yet, networking writes outside the left-out namespaces fail", async () => {
      const r = await ok(["apply", "--validate=strict", "-f", RBAC, "-f", WEBHOOK]);
      expect(lines(r.stdout)).toEqual([...documents(RBAC), ...documents(WEBHOOK)].map((d) => `${label(d)} created`));
      // Stored as applied.
      const [config] = documents(WEBHOOK);
      const stored = JSON.parse(
        (await ok(["get", "validatingwebhookconfiguration", "clusterwire", "-o", "json"])).stdout,
      );
      expect(stored.webhooks).toMatchObject(config?.["webhooks"] as object);
      expect(stored.metadata.annotations["cert-manager.io/inject-ca-from"]).toBe("clusterwire/clusterwire-webhook-tls");

      const policy = (namespace: string) =>
        JSON.stringify({
          apiVersion: "networking.k8s.io/v1",
          kind: "NetworkPolicy",
          metadata: { name: "probe", namespace },
          spec: { podSelector: {} },
        });
      const call = (hook: string) =>
        `failed calling webhook "${hook}": failed to call webhook: Post "https://clusterwire-webhook.clusterwire.svc:443/validate?timeout=5s": service "clusterwire-webhook" not found`;
      // The API server picks the configuration up from its own watch, a moment after the write.
      let refused: Run | undefined;
      for (let i = 0; i < 50; i++) {
        refused = await kubectl(["apply", "--dry-run=server", "-f", "-"], policy("default"));
        if (refused.code !== 0) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(refused?.code, refused && show(refused)).toBe(1);
      expect(refused?.stderr).toBe(
        `Error from server (InternalError): error when creating "STDIN": Internal error occurred: ${call("namespaced.networking.webhook.clusterwire.io")}\n`,
      );
      const ingressClass = JSON.stringify({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: { name: "probe" },
        spec: { controller: "example.com/lb" },
      });
      const cluster = await kubectl(["apply", "--dry-run=server", "-f", "-"], ingressClass);
      expect(cluster.stderr, show(cluster)).toBe(
        `Error from server (InternalError): error when creating "STDIN": Internal error occurred: ${call("cluster.networking.webhook.clusterwire.io")}\n`,
      );
      // kube-system and clusterwire are left out: no call, accepted.
      for (const namespace of ["kube-system", "clusterwire"]) {
        const accepted = await ok(["apply", "--dry-run=server", "-f", "-"], policy(namespace));
        expect(lines(accepted.stdout)).toEqual(["networkpolicy.networking.k8s.io/probe created (server dry run)"]);
      }
    });

    it("for real: the webhook server's objects, in the namespace the webhooks leave out, read back as applied", async () => {
      const docs = documents(SERVER);
      const r = await ok(["apply", "--validate=strict", "-f", SERVER]);
      expect(lines(r.stdout)).toEqual(docs.map((d) => `${label(d)} created`));
      for (const doc of docs) {
        const stored = JSON.parse(
          (await ok(["get", "-n", "clusterwire", label(doc).split("/")[0] as string, doc.metadata.name, "-o", "json"]))
            .stdout,
        );
        expect(stored.metadata.labels).toEqual(doc.metadata.labels);
        // Every field the file sets is stored as written (the server adds its defaults beside them).
        expect(stored.spec, doc.kind).toMatchObject(doc["spec"] as object);
      }
      // Applying the same files again changes nothing. kubectl says "configured" for the
      // PodDisruptionBudget all the same: its spec.selector is patched by replacement, so the
      // patch kubectl sends is never empty; the stored object stays at generation 1.
      const again = await ok(["apply", "--validate=strict", "-f", NAMESPACE, "-f", RBAC, "-f", SERVER, "-f", WEBHOOK]);
      expect(lines(again.stdout)).toEqual(
        [NAMESPACE, RBAC, SERVER, WEBHOOK]
          .flatMap(documents)
          .map((d) => `${label(d)} ${d.kind === "PodDisruptionBudget" ? "configured" : "unchanged"}`),
      );
      const pdb = JSON.parse(
        (await ok(["get", "-n", "clusterwire", "pdb", "clusterwire-webhook", "-o", "json"])).stdout,
      );
      expect(pdb.metadata.generation).toBe(1);
    });
  });
}
