import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fc, test as property } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { readTopology, type ManifestFile, type Topology } from "../../../src/connectivity/index.js";
import { readManifests } from "../../../src/networking/index.js";
import { nonEmpty } from "../../support/non-empty.js";
import { propertyRuns } from "../../support/property-runs.js";

const read = (text: string, defaultNamespace?: string): Topology =>
  readTopology([{ name: "m.yaml", text }], defaultNamespace === undefined ? {} : { defaultNamespace });

/** A workload's key, as the analysis names it. */
const keys = (t: Topology): string[] => t.input.workloads.map((w) => `${w.namespace}/${w.kind}/${w.name}`);

/** A pod template with the given labels and one container port. */
const template = (indent: string, app: string): string =>
  [
    "template:",
    "  metadata:",
    `    labels: {app: ${app}, tier: web}`,
    "  spec:",
    "    containers:",
    "    - name: main",
    "      ports:",
    "      - {name: http, containerPort: 8080}",
    "      - {containerPort: 53, protocol: UDP}",
  ]
    .map((l) => indent + l)
    .join("\n");

describe("readTopology: workloads", () => {
  it("reads every workload kind from its pod template, with the template's labels and ports", () => {
    const controller = (apiVersion: string, kind: string, name: string): string =>
      `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n  namespace: shop\n  labels: {object: label}\nspec:\n${template("  ", name)}\n`;
    const text = [
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod\n  namespace: shop\n  labels: {app: pod}\nspec:\n  containers:\n  - name: c\n    ports: [{name: http, containerPort: 8080}, {containerPort: 53, protocol: UDP}]\n",
      controller("apps/v1", "Deployment", "deploy"),
      controller("apps/v1", "ReplicaSet", "rs"),
      controller("apps/v1", "StatefulSet", "sts"),
      controller("apps/v1", "DaemonSet", "ds"),
      controller("batch/v1", "Job", "job"),
      controller("v1", "ReplicationController", "rc"),
      `apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: cron\n  namespace: shop\nspec:\n  schedule: "* * * * *"\n  jobTemplate:\n    spec:\n${template("      ", "cron")}\n`,
    ].join("---\n");
    const t = read(text);
    expect(keys(t)).toEqual([
      "shop/Pod/pod",
      "shop/Deployment/deploy",
      "shop/ReplicaSet/rs",
      "shop/StatefulSet/sts",
      "shop/DaemonSet/ds",
      "shop/Job/job",
      "shop/ReplicationController/rc",
      "shop/CronJob/cron",
    ]);
    const ports = [
      { name: "http", containerPort: 8080, protocol: "TCP" },
      { containerPort: 53, protocol: "UDP" },
    ];
    expect(t.input.workloads[0]).toEqual({
      namespace: "shop",
      kind: "Pod",
      name: "pod",
      labels: { app: "pod" },
      ports,
    });
    // The template's labels, not the object's own.
    for (const w of t.input.workloads.slice(1))
      expect(w).toEqual({ ...w, labels: { app: w.name, tier: "web" }, ports });
    expect(t.workloadSources.map((s) => s.line)).toEqual([1, 12, 29, 46, 63, 80, 97, 114]);
    expect(t.workloadSources.every((s) => s.file === "m.yaml")).toBe(true);
    expect(t.problems).toEqual([]);
    expect(t.ignored).toEqual([]);
  });

  it("accepts the older apiVersions that carry the same template, and counts the others as ignored", () => {
    const doc = (apiVersion: string, kind: string, name: string): string =>
      `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {name: ${name}}\nspec:\n${template("  ", name)}\n`;
    const text = [
      doc("apps/v1beta1", "Deployment", "a"),
      doc("apps/v1beta2", "Deployment", "b"),
      doc("extensions/v1beta1", "Deployment", "c"),
      doc("extensions/v1beta1", "DaemonSet", "d"),
      doc("apps/v1beta2", "DaemonSet", "e"),
      doc("extensions/v1beta1", "ReplicaSet", "f"),
      doc("apps/v1beta1", "StatefulSet", "g"),
      `apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: h}\nspec:\n  jobTemplate:\n    spec:\n${template("      ", "h")}\n`,
      // Never served under these: not workloads clusterwire reads.
      doc("apps/v1beta1", "DaemonSet", "x"),
      doc("batch/v1beta1", "Job", "y"),
      doc("example.com/v1", "Deployment", "z"),
    ].join("---\n");
    const t = read(text);
    expect(keys(t)).toEqual([
      "default/Deployment/a",
      "default/Deployment/b",
      "default/Deployment/c",
      "default/DaemonSet/d",
      "default/DaemonSet/e",
      "default/ReplicaSet/f",
      "default/StatefulSet/g",
      "default/CronJob/h",
    ]);
    expect(t.ignored).toEqual([
      { apiVersion: "apps/v1beta1", kind: "DaemonSet", count: 1 },
      { apiVersion: "batch/v1beta1", kind: "Job", count: 1 },
      { apiVersion: "example.com/v1", kind: "Deployment", count: 1 },
    ]);
  });

  it("reads hostNetwork, and leaves init containers' ports out", () => {
    const t = read(`apiVersion: v1
kind: Pod
metadata: {name: agent, namespace: kube-system}
spec:
  hostNetwork: true
  initContainers: [{name: init, ports: [{containerPort: 9}]}]
  containers: [{name: agent, ports: [{containerPort: 9100}]}]
`);
    expect(t.input.workloads).toEqual([
      {
        namespace: "kube-system",
        kind: "Pod",
        name: "agent",
        labels: {},
        ports: [{ containerPort: 9100, protocol: "TCP" }],
        hostNetwork: true,
      },
    ]);
  });

  it("gives a workload without template, labels or ports none, rather than a problem", () => {
    const t = read("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bare}\n");
    expect(t.input.workloads).toEqual([
      { namespace: "default", kind: "Deployment", name: "bare", labels: {}, ports: [] },
    ]);
    expect(t.problems).toEqual([]);
  });

  it("puts objects without a namespace in the default namespace, or the one asked for", () => {
    const text =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b, namespace: ''}\n";
    expect(keys(read(text))).toEqual(["default/Pod/a", "default/Pod/b"]);
    const t = read(text, "team");
    expect(keys(t)).toEqual(["team/Pod/a", "team/Pod/b"]);
    expect(t.input.namespaces).toEqual([{ name: "team" }]);
  });

  it("keeps a __proto__ label a label, and the labels' prototype untouched", () => {
    const t = read(`apiVersion: v1
kind: Pod
metadata:
  name: p
  labels:
    __proto__: polluted
    constructor: c
    app: p
`);
    const labels = t.input.workloads[0]?.labels ?? {};
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(Object.hasOwn(labels, "__proto__")).toBe(true);
    expect(Object.entries(labels)).toEqual([
      ["__proto__", "polluted"],
      ["constructor", "c"],
      ["app", "p"],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  property.prop([fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), { maxKeys: 6 })], {
    numRuns: propertyRuns(100),
  })("reads any map of string labels back as written (JSON manifests)", (labels) => {
    const text = JSON.stringify({ apiVersion: "v1", kind: "Pod", metadata: { name: "p", labels } });
    const t = readTopology([{ name: "p.json", text }]);
    // Strings holding {{ }} mark a template; the generator's strings are short enough to hold it rarely.
    if (t.templates.length > 0) return;
    expect(t.problems).toEqual([]);
    const read = t.input.workloads[0]?.labels ?? {};
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.entries(read)).toEqual(Object.entries(labels));
  });
});

describe("readTopology: namespaces, Services, NetworkPolicies and Ingresses", () => {
  it("lists Namespace objects with their labels and every namespace an object names, sorted", () => {
    const t = read(`apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {team: a}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: zoo}
---
apiVersion: v1
kind: Service
metadata: {name: s, namespace: alpha}
---
apiVersion: v1
kind: Namespace
metadata: {name: empty}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ignored-kind}
`);
    expect(t.input.namespaces).toEqual([
      { name: "alpha" },
      { name: "empty", labels: {} },
      { name: "shop", labels: { team: "a" } },
      { name: "zoo" },
    ]);
  });

  it("reads a Service with its defaults filled in", () => {
    const t = read(`apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports:
  - port: 80
  - {name: admin, port: 81, targetPort: admin, protocol: UDP}
  - {port: 82, targetPort: 0}
---
apiVersion: v1
kind: Service
metadata: {name: edge, namespace: shop}
spec:
  type: NodePort
  ports: [{port: 443, targetPort: 8443, nodePort: 30443}]
---
apiVersion: v1
kind: Service
metadata: {name: out, namespace: shop}
spec: {type: ExternalName, externalName: db.example.com}
`);
    expect(t.services).toEqual([
      {
        namespace: "shop",
        name: "web",
        type: "ClusterIP",
        selector: { app: "web" },
        ports: [
          { protocol: "TCP", port: 80, targetPort: 80 },
          { name: "admin", protocol: "UDP", port: 81, targetPort: "admin" },
          { protocol: "TCP", port: 82, targetPort: 82 },
        ],
        source: { file: "m.yaml", line: 1 },
      },
      {
        namespace: "shop",
        name: "edge",
        type: "NodePort",
        selector: undefined,
        ports: [{ protocol: "TCP", port: 443, targetPort: 8443, nodePort: 30443 }],
        source: { file: "m.yaml", line: 11 },
      },
      {
        namespace: "shop",
        name: "out",
        type: "ExternalName",
        selector: undefined,
        ports: [],
        externalName: "db.example.com",
        source: { file: "m.yaml", line: 18 },
      },
    ]);
  });

  it("decodes NetworkPolicies and Ingresses as messages, in the default namespace when they name none", () => {
    const t = read(
      `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny}
spec: {podSelector: {}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: shop}
spec: {defaultBackend: {service: {name: web, port: {number: 80}}}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicyList
items:
- metadata: {name: a, namespace: shop}
  spec: {podSelector: {}}
- metadata: {name: b, namespace: shop}
  spec: {podSelector: {}}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx}
spec: {controller: k8s.io/ingress-nginx}
`,
      "team",
    );
    expect(t.input.policies.map((p) => [p.$typeName, p.metadata?.namespace, p.metadata?.name])).toEqual([
      ["k8s.io.api.networking.v1.NetworkPolicy", "team", "deny"],
      ["k8s.io.api.networking.v1.NetworkPolicy", "shop", "a"],
      ["k8s.io.api.networking.v1.NetworkPolicy", "shop", "b"],
    ]);
    expect(t.policySources.map((s) => s.line)).toEqual([1, 14, 16]);
    expect(t.ingresses.map((i) => [i.ingress.$typeName, i.ingress.metadata?.namespace, i.source.line])).toEqual([
      ["k8s.io.api.networking.v1.Ingress", "shop", 6],
    ]);
    expect(t.ignored).toEqual([{ apiVersion: "networking.k8s.io/v1", kind: "IngressClass", count: 1 }]);
    expect(t.input.namespaces).toEqual([{ name: "shop" }, { name: "team" }]);
  });

  it("reports a NetworkPolicy the decoder refuses where validate does, and passes over one of a removed apiVersion", () => {
    const text = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: typo, namespace: shop}
spec:
  podSelector: {}
  ingres: []
---
apiVersion: extensions/v1beta1
kind: NetworkPolicy
metadata: {name: old, namespace: shop}
spec: {podSelector: {}}
`;
    const t = read(text);
    expect(t.input.policies).toEqual([]);
    const validate = readManifests(text).map((e) => (e.type === "error" ? [e.line, e.column, e.error.reason] : e.type));
    expect(validate).toEqual([
      [6, 11, 'strict decoding error: unknown field "spec.ingres"'],
      [8, 13, expect.stringMatching(/^no matches for kind "NetworkPolicy" in version "extensions\/v1beta1"/)],
    ]);
    expect(t.problems.map((p) => [p.line, p.column, p.message])).toEqual([
      [6, 11, 'NetworkPolicy shop/typo: strict decoding error: unknown field "spec.ingres"'],
    ]);
    // No cluster serves extensions/v1beta1 any more: such a policy shapes no traffic.
    expect(t.ignored).toEqual([{ apiVersion: "extensions/v1beta1", kind: "NetworkPolicy", count: 1 }]);
  });
});

describe("readTopology: Lists, JSON and templates", () => {
  it("expands a v1 List, each item at its own line, networking items decoded among the others", () => {
    const t = read(`apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: a}
- apiVersion: networking.k8s.io/v1
  kind: NetworkPolicy
  metadata: {name: deny}
  spec: {podSelector: {}}

- apiVersion: v1
  kind: Pod
  metadata: {name: b}
- apiVersion: v1
  kind: Secret
  metadata: {name: s}
`);
    expect(keys(t)).toEqual(["default/Pod/a", "default/Pod/b"]);
    expect(t.workloadSources.map((s) => s.line)).toEqual([4, 12]);
    expect(t.policySources.map((s) => s.line)).toEqual([7]);
    expect(t.ignored).toEqual([{ apiVersion: "v1", kind: "Secret", count: 1 }]);
  });

  it("finds each item's line in a List of workloads only, block or flow", () => {
    const block = read(
      "kind: List\napiVersion: v1\nitems:\n  - apiVersion: v1\n    kind: Pod\n    metadata:\n      name: a\n    # a comment\n  - apiVersion: v1\n    kind: Pod\n    metadata: {name: b}\n",
    );
    expect(block.workloadSources.map((s) => s.line)).toEqual([4, 9]);
    const flow = read(
      "kind: List\napiVersion: v1\nitems: [\n  {apiVersion: v1, kind: Pod, metadata: {name: a}},\n\n  {apiVersion: v1, kind: Pod, metadata: {name: b}}]\n",
    );
    expect(flow.workloadSources.map((s) => s.line)).toEqual([4, 6]);
  });

  it("reads JSON: one value, a List, and values one after another", () => {
    const pod = (name: string) => JSON.stringify({ apiVersion: "v1", kind: "Pod", metadata: { name } });
    const list = JSON.stringify(
      { apiVersion: "v1", kind: "List", items: [JSON.parse(pod("b")), JSON.parse(pod("c"))] },
      null,
      2,
    );
    const t = readTopology([
      { name: "a.json", text: pod("a") },
      { name: "list.json", text: list },
      { name: "stream.json", text: `${pod("d")}\n${pod("e")} ${pod("f")}\n` },
    ]);
    expect(keys(t)).toEqual(["a", "b", "c", "d", "e", "f"].map((n) => `default/Pod/${n}`));
    expect(t.workloadSources).toEqual([
      { file: "a.json", line: 1 },
      { file: "list.json", line: 5 },
      { file: "list.json", line: 12 },
      { file: "stream.json", line: 1 },
      { file: "stream.json", line: 2 },
      { file: "stream.json", line: 2 },
    ]);
  });

  it("places a problem of a JSON value that does not start a line at its own column", () => {
    const t = readTopology([
      {
        name: "s.json",
        text: '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}} {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b", "labels": [1]}}',
      },
    ]);
    expect(t.problems).toEqual([
      { file: "s.json", line: 1, column: 136, message: "Pod default/b: metadata.labels: must be a map of strings" },
    ]);
  });

  it("lists unrendered templates, whether or not they parse, and reads nothing of them", () => {
    const t = read(`{{- if .Values.enabled }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
{{- end }}
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: "{{ .Values.app }}"
---
apiVersion: v1
kind: ConfigMap
metadata: {name: alerts}
data:
  rule: "{{ $labels.instance }} is down"
`);
    expect(t.templates).toEqual([
      { file: "m.yaml", line: 1 },
      { file: "m.yaml", line: 8 },
    ]);
    expect(t.input.workloads).toEqual([]);
    expect(t.problems).toEqual([]);
    // Braces in a kind nobody reads are its own business.
    expect(t.ignored).toEqual([{ apiVersion: "v1", kind: "ConfigMap", count: 1 }]);
  });

  it("skips files that are no manifest, as validate does", () => {
    const t = readTopology([
      { name: "package.json", text: '{"name": "shop", "version": "1.0.0"}' },
      { name: "values.yaml", text: "replicas: 2\nimage: {tag: v1}\n" },
      { name: "empty.yaml", text: "# nothing\n" },
      { name: "pod.yaml", text: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n" },
    ]);
    expect(t.skippedFiles).toEqual([
      { file: "package.json", reason: "no kind: not a Kubernetes manifest" },
      { file: "values.yaml", reason: "no kind: not a Kubernetes manifest" },
      { file: "empty.yaml", reason: "no documents: empty, or comments only" },
    ]);
    expect(keys(t)).toEqual(["default/Pod/p"]);
    expect(t.problems).toEqual([]);
  });
});

describe("readTopology: problems", () => {
  it("names the object and the field, at the field's line and column, and leaves the object out", () => {
    const t = read(`apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: [a]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  template:
    metadata:
      labels:
        app: api
        version: 2
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {namespace: shop}
---
apiVersion: v1
kind: Pod
metadata: {name: ports}
spec:
  containers:
  - name: a
  - name: b
    ports:
    - containerPort: "8080"
---
apiVersion: v1
kind: Pod
metadata: {name: proto}
spec:
  containers: [{ports: [{containerPort: 80, protocol: HTTP}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: net}
spec: {hostNetwork: "yes"}
---
apiVersion: v1
kind: Service
metadata: {name: svc}
spec:
  ports:
  - name: http
---
apiVersion: v1
kind: Pod
metadata: {name: nameless-port}
spec:
  containers: [{ports: [{name: http}]}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cron}
spec:
  jobTemplate: [x]
---
apiVersion: v1
kind: Service
metadata: {name: big}
spec:
  ports: [{port: 70000}]
`);
    expect(t.input.workloads).toEqual([]);
    expect(t.services).toEqual([]);
    expect(t.problems).toEqual([
      { file: "m.yaml", line: 5, column: 11, message: "Pod default/web: metadata.labels: must be a map of strings" },
      {
        file: "m.yaml",
        line: 15,
        column: 18,
        message: "Deployment shop/api: spec.template.metadata.labels[version]: must be a string",
      },
      { file: "m.yaml", line: 19, column: 11, message: "DaemonSet: metadata.name: a DaemonSet needs a name" },
      {
        file: "m.yaml",
        line: 29,
        column: 22,
        message: 'Pod default/ports: spec.containers[1].ports[0].containerPort: "8080" is not a port number (1-65535)',
      },
      {
        file: "m.yaml",
        line: 35,
        column: 55,
        message: 'Pod default/proto: spec.containers[0].ports[0].protocol: "HTTP" is not a protocol (TCP, UDP or SCTP)',
      },
      { file: "m.yaml", line: 40, column: 21, message: "Pod default/net: spec.hostNetwork: must be true or false" },
      {
        file: "m.yaml",
        line: 47,
        column: 5,
        message: "Service default/svc: spec.ports[0].port: a Service port needs a number",
      },
      {
        file: "m.yaml",
        line: 53,
        column: 25,
        message:
          "Pod default/nameless-port: spec.containers[0].ports[0].containerPort: a container port needs a number",
      },
      { file: "m.yaml", line: 59, column: 16, message: "CronJob default/cron: spec.jobTemplate: must be an object" },
      {
        file: "m.yaml",
        line: 65,
        column: 18,
        message: "Service default/big: spec.ports[0].port: 70000 is not a port number (1-65535)",
      },
    ]);
  });

  it("reports a second object with the same namespace, kind and name, and keeps the first", () => {
    const t = readTopology([
      { name: "a.yaml", text: "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {v: '1'}}\n" },
      {
        name: "b.yaml",
        text: "# again\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default, labels: {v: '2'}}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: p}\n",
      },
      {
        name: "c.yaml",
        text: "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n",
      },
    ]);
    expect(keys(t)).toEqual(["default/Pod/p", "default/Deployment/p"]);
    expect(t.input.workloads[0]?.labels).toEqual({ v: "1" });
    expect(t.problems).toEqual([
      {
        file: "b.yaml",
        line: 2,
        column: 1,
        message: "Pod default/p: a second default/Pod/p (the first at a.yaml:1); left out",
      },
      {
        file: "c.yaml",
        line: 5,
        column: 1,
        message: "Namespace x: a second Namespace x (the first at c.yaml:1); left out",
      },
    ]);
  });

  it("reports a document that does not parse at its line and column, and reads the others", () => {
    const t = read(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: [\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n",
    );
    expect(keys(t)).toEqual(["default/Pod/a", "default/Pod/b"]);
    expect(t.problems).toHaveLength(1);
    expect(t.problems[0]).toMatchObject({
      file: "m.yaml",
      line: 8,
      column: 1,
      message: expect.stringMatching(/^Pod: /),
    });
  });

  it("reports a bad separator line where kubectl stops", () => {
    const t = read(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n--- junk\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n",
    );
    expect(t.problems).toEqual([
      { file: "m.yaml", line: 4, column: 1, message: "invalid Yaml document separator: junk" },
    ]);
  });

  it("counts kinds nobody reads without parsing them: a broken ConfigMap is not a problem", () => {
    const t = read(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\ndata: [\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n",
    );
    expect(t.ignored).toEqual([{ apiVersion: "v1", kind: "ConfigMap", count: 2 }]);
    expect(t.problems).toEqual([]);
  });

  it("refuses what is not a list of files with a TypeError", () => {
    expect(() => readTopology("a" as never)).toThrow(TypeError);
    expect(() => readTopology([{ name: "a" } as never])).toThrow(TypeError);
    expect(() => readTopology([null as never])).toThrow(TypeError);
    expect(() => readTopology([], { defaultNamespace: "" })).toThrow(TypeError);
  });
});

const REAL_WORLD = new URL("../../fixtures/real-world/", import.meta.url);

function filesUnder(folder: string): ManifestFile[] {
  const root = new URL(folder, REAL_WORLD).pathname;
  const walk = (path: string): string[] =>
    statSync(path).isDirectory() ? readdirSync(path).flatMap((n) => walk(join(path, n))) : [path];
  return nonEmpty(walk(root), folder)
    .sort()
    .map((p) => ({ name: relative(REAL_WORLD.pathname, p), text: readFileSync(p, "utf8") }));
}

describe("readTopology: real repositories", () => {
  it("reads GoogleCloudPlatform/microservices-demo's kustomize tree", () => {
    const t = readTopology(filesUnder("microservices-demo/"));
    expect(keys(t)).toEqual(["default/Deployment/frontend"]);
    expect(t.input.workloads[0]).toEqual({
      namespace: "default",
      kind: "Deployment",
      name: "frontend",
      labels: { app: "frontend" },
      ports: [{ containerPort: 8080, protocol: "TCP" }],
    });
    expect(t.workloadSources).toEqual([{ file: "microservices-demo/kustomize/base/frontend.yaml", line: 15 }]);
    // The policies name the placeholder namespace YOUR_NAMESPACE, or none.
    expect(t.input.policies.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`)).toEqual([
      "YOUR_NAMESPACE/cartservice",
      "YOUR_NAMESPACE/checkoutservice",
      "default/deny-all",
      "YOUR_NAMESPACE/frontend",
      "default/loadgenerator",
    ]);
    expect(t.input.namespaces).toEqual([{ name: "YOUR_NAMESPACE" }, { name: "default" }]);
    expect(t.services.map((s) => [s.name, s.type, s.source.line])).toEqual([
      ["frontend", "ClusterIP", 108],
      ["frontend-external", "LoadBalancer", 123],
    ]);
    expect(t.ingresses.map((i) => i.ingress.metadata?.name)).toEqual(["frontend-ingress"]);
    expect(t.ignored).toEqual([
      { apiVersion: "kustomize.config.k8s.io/v1alpha1", kind: "Component", count: 1 },
      { apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", count: 1 },
      { apiVersion: "v1", kind: "ServiceAccount", count: 1 },
    ]);
    expect(t.skippedFiles.map((f) => f.file)).toEqual([
      "microservices-demo/.github/workflows/kustomize-build-ci.yaml",
      "microservices-demo/src/paymentservice/package.json",
    ]);
    expect(t.problems).toEqual([]);
    expect(t.templates).toEqual([]);
  });

  it("reads ingress-nginx's cloud deploy.yaml and istio's bookinfo", () => {
    const t = readTopology([
      ...filesUnder("ingress-nginx/deploy/static/provider/cloud/"),
      ...filesUnder("istio/samples/bookinfo/platform/kube/"),
    ]);
    expect(keys(t)).toEqual([
      "ingress-nginx/Deployment/ingress-nginx-controller",
      "ingress-nginx/Job/ingress-nginx-admission-create",
      "ingress-nginx/Job/ingress-nginx-admission-patch",
      "default/Deployment/details-v1",
      "default/Deployment/ratings-v1",
      "default/Deployment/reviews-v1",
      "default/Deployment/reviews-v2",
      "default/Deployment/reviews-v3",
      "default/Deployment/productpage-v1",
    ]);
    expect(t.input.workloads[0]?.ports).toEqual([
      { name: "http", containerPort: 80, protocol: "TCP" },
      { name: "https", containerPort: 443, protocol: "TCP" },
      { name: "webhook", containerPort: 8443, protocol: "TCP" },
    ]);
    expect(t.input.namespaces).toEqual([
      { name: "default" },
      {
        name: "ingress-nginx",
        labels: { "app.kubernetes.io/instance": "ingress-nginx", "app.kubernetes.io/name": "ingress-nginx" },
      },
    ]);
    expect(t.services.map((s) => `${s.namespace}/${s.name}`)).toEqual([
      "ingress-nginx/ingress-nginx-controller",
      "ingress-nginx/ingress-nginx-controller-admission",
      "default/details",
      "default/ratings",
      "default/reviews",
      "default/productpage",
    ]);
    // ingress-nginx: 13 RBAC, ConfigMap, IngressClass, ServiceAccount and webhook objects; bookinfo: 4 ServiceAccounts.
    expect(t.ignored.reduce((n, k) => n + k.count, 0)).toBe(17);
    expect(t.ignored).toContainEqual({ apiVersion: "v1", kind: "ServiceAccount", count: 6 });
    expect(t.ingresses.map((i) => `${i.ingress.metadata?.namespace}/${i.ingress.metadata?.name}`)).toEqual([
      "default/gateway",
    ]);
    expect(t.problems).toEqual([]);
  });

  it("reads kubernetes' JSON test data: a stream, and the same objects as a List", () => {
    const t = readTopology([
      ...filesUnder("kubernetes/hack/testdata/multi-resource-json.json"),
      ...filesUnder("kubernetes/hack/testdata/multi-resource-list.json"),
    ]);
    expect(keys(t)).toEqual(["default/ReplicationController/mock"]);
    expect(t.services.map((s) => [s.name, s.ports])).toEqual([
      ["mock", [{ protocol: "TCP", port: 99, targetPort: 9949 }]],
    ]);
    expect(t.problems.map((p) => [p.file, p.line])).toEqual([
      ["kubernetes/hack/testdata/multi-resource-list.json", 5],
      ["kubernetes/hack/testdata/multi-resource-list.json", 25],
    ]);
  });
});
