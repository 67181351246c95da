// The topology of a set of manifest files: the workloads, namespaces, NetworkPolicies, Services
// and Ingresses the analysis and the exposure need, where each came from, and what was left out.
// docs/connectivity.md ("Reading a repository") says what is read and why.

import {
  type ClusterNamespace,
  type ClusterPodPort,
  type ClusterWorkload,
  create,
  type Ingress,
  type JsonObject,
  type NetworkPolicy,
  type NetworkingObject,
  ObjectMetaSchema,
  kindOf,
} from "../../networking/index.js";
import { type FileDocument, type Locate, readDocuments } from "./documents.js";
import {
  FieldProblem,
  type Segment,
  TemplateText,
  at,
  booleanAt,
  jsonPath,
  labelsAt,
  listAt,
  objectAt,
  portAt,
  portOrNameAt,
  protocolAt,
  renderPath,
  stringAt,
} from "./fields.js";
import type {
  IgnoredKind,
  ManifestFile,
  SkippedFile,
  SourcePlace,
  Topology,
  TopologyIngress,
  TopologyOptions,
  TopologyProblem,
  TopologyService,
  TopologyServicePort,
} from "./types.js";

/** Where the pod template is in each workload kind, and the apiVersions that serve it. */
interface WorkloadKind {
  readonly apiVersions: ReadonlySet<string>;
  /** The path to the pod template (metadata and spec); empty for a Pod, which is its own. */
  readonly template: readonly string[];
}

const APPS = ["apps/v1", "apps/v1beta1", "apps/v1beta2", "extensions/v1beta1"];

/** The workload kinds, under the apiVersions Kubernetes serves or served them; all carry the same pod template. */
const WORKLOAD_KINDS: ReadonlyMap<string, WorkloadKind> = new Map([
  ["Pod", { apiVersions: new Set(["v1"]), template: [] }],
  ["ReplicationController", { apiVersions: new Set(["v1"]), template: ["spec", "template"] }],
  ["Deployment", { apiVersions: new Set(APPS), template: ["spec", "template"] }],
  ["ReplicaSet", { apiVersions: new Set(APPS.filter((v) => v !== "apps/v1beta1")), template: ["spec", "template"] }],
  [
    "StatefulSet",
    { apiVersions: new Set(APPS.filter((v) => v !== "extensions/v1beta1")), template: ["spec", "template"] },
  ],
  ["DaemonSet", { apiVersions: new Set(APPS.filter((v) => v !== "apps/v1beta1")), template: ["spec", "template"] }],
  ["Job", { apiVersions: new Set(["batch/v1"]), template: ["spec", "template"] }],
  [
    "CronJob",
    {
      apiVersions: new Set(["batch/v1", "batch/v1beta1", "batch/v2alpha1"]),
      template: ["spec", "jobTemplate", "spec", "template"],
    },
  ],
]);

/** Whether the reader uses documents of this apiVersion and kind (besides the networking kinds). */
function wanted(apiVersion: string, kind: string): boolean {
  if (apiVersion === "v1" && (kind === "Service" || kind === "Namespace")) return true;
  return WORKLOAD_KINDS.get(kind)?.apiVersions.has(apiVersion) === true;
}

const POLICY = "k8s.io.api.networking.v1.NetworkPolicy";
const POLICY_LIST = "k8s.io.api.networking.v1.NetworkPolicyList";
const INGRESS = "k8s.io.api.networking.v1.Ingress";
const INGRESS_LIST = "k8s.io.api.networking.v1.IngressList";

/**
 * Reads the workloads, namespaces, NetworkPolicies, Services and Ingresses of a set of manifest
 * files (YAML streams or JSON, as `clusterwire validate` reads them; a v1 List read item by
 * item), for {@link exposedWorkloads} and `analyzeConnectivity` of clusterwire/networking.
 *
 * - **Workloads**: Pod, and the pod template of Deployment, ReplicaSet, StatefulSet, DaemonSet,
 *   Job, ReplicationController (`spec.template`) and CronJob (`spec.jobTemplate.spec.template`),
 *   under their current and older apiVersions: the template's labels, its containers' ports
 *   (protocol TCP by default; init containers are left out) and `hostNetwork`. One workload per
 *   object, keyed `namespace/kind/name`.
 * - **Namespaces**: Namespace objects with their labels, and every namespace an object read is
 *   in (without labels), sorted by name.
 * - **NetworkPolicies and Ingresses**: decoded by the networking decoders, so one the API server
 *   would refuse to decode is a problem. Their validity is left to the analysis and the router.
 * - **Services**: type (`ClusterIP` by default), selector and ports (`targetPort` defaults to
 *   `port`, protocol to TCP).
 * - Objects without a namespace are in `options.defaultNamespace` (`"default"`); a
 *   NetworkPolicy's or Ingress's `metadata.namespace` is set to it.
 * - Other kinds are counted in `ignored`, unparsed when their top-level `apiVersion:` and `kind:`
 *   lines name them. Unrendered templates (`{{ }}`) are listed in `templates`, and files no
 *   document of which names a kind (a package.json, a CI workflow) in `skippedFiles`.
 * - A document that does not parse, a field of the wrong type, or a second object with the same
 *   namespace, kind and name is a `problems` entry with its line and column, and is left out.
 *
 * Never throws for bad content; a TypeError for what is not a list of `{ name, text }` files or an
 * empty `defaultNamespace`.
 *
 * @example
 * ```ts
 * import { readTopology } from "clusterwire/connectivity";
 *
 * const text = `apiVersion: apps/v1
 * kind: Deployment
 * metadata: {name: api, namespace: shop}
 * spec:
 *   template:
 *     metadata: {labels: {app: api}}
 *     spec:
 *       containers: [{name: api, ports: [{name: http, containerPort: 8080}]}]
 * ---
 * apiVersion: v1
 * kind: ConfigMap
 * metadata: {name: settings, namespace: shop}
 * `;
 * const topology = readTopology([{ name: "shop.yaml", text }]);
 * console.log(topology.input.workloads[0]); // { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" }, ports: [...] }
 * console.log(topology.input.namespaces, topology.ignored); // [ { name: "shop" } ] [ { apiVersion: "v1", kind: "ConfigMap", count: 1 } ]
 * ```
 */
export function readTopology(files: readonly ManifestFile[], options: TopologyOptions = {}): Topology {
  if (!Array.isArray(files)) throw new TypeError(`readTopology: expected a list of files, got ${typeof files}`);
  const defaultNamespace = options.defaultNamespace ?? "default";
  if (typeof defaultNamespace !== "string" || defaultNamespace === "") {
    throw new TypeError("readTopology: defaultNamespace must be a non-empty string");
  }
  const reader = new TopologyReader(defaultNamespace);
  for (const file of files) {
    if (file === null || typeof file !== "object" || typeof file.name !== "string" || typeof file.text !== "string") {
      throw new TypeError("readTopology: each file must be { name: string, text: string }");
    }
    reader.read(file);
  }
  return reader.topology();
}

class TopologyReader {
  private readonly workloads: ClusterWorkload[] = [];
  private readonly workloadSources: SourcePlace[] = [];
  /** Annotations of the workloads (by key) and Namespaces (by name) that have any. */
  private readonly annotations = new Map<string, Readonly<Record<string, string>>>();
  private readonly workloadKeys = new Map<string, SourcePlace>();
  private readonly policies: NetworkPolicy[] = [];
  private readonly policySources: SourcePlace[] = [];
  private readonly services: TopologyService[] = [];
  private readonly serviceKeys = new Map<string, SourcePlace>();
  private readonly ingresses: TopologyIngress[] = [];
  /** Namespace name to its labels (from a Namespace object) or undefined (only named). */
  private readonly namespaces = new Map<string, { labels?: Record<string, string>; source?: SourcePlace }>();
  private readonly ignored = new Map<string, { apiVersion: string; kind: string; count: number }>();
  private readonly problems: TopologyProblem[] = [];
  private readonly templates: SourcePlace[] = [];
  private readonly skippedFiles: SkippedFile[] = [];
  private file = "";

  constructor(private readonly defaultNamespace: string) {}

  read(file: ManifestFile): void {
    this.file = file.name;
    const docs = readDocuments(file.text, wanted);
    const reason = notManifest(docs);
    if (reason !== undefined) this.skippedFiles.push({ file: file.name, reason });
    else for (const doc of docs) this.document(doc);
  }

  topology(): Topology {
    const namespaces: ClusterNamespace[] = [...this.namespaces.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, { labels }]) => (labels === undefined ? { name } : { name, labels }));
    const ignored: IgnoredKind[] = [...this.ignored.values()].sort((a, b) =>
      a.apiVersion !== b.apiVersion
        ? a.apiVersion < b.apiVersion
          ? -1
          : 1
        : a.kind < b.kind
          ? -1
          : a.kind > b.kind
            ? 1
            : 0,
    );
    return {
      input: { namespaces, workloads: this.workloads, policies: this.policies },
      workloadSources: this.workloadSources,
      annotations: this.annotations,
      policySources: this.policySources,
      services: this.services,
      ingresses: this.ingresses,
      ignored,
      problems: this.problems,
      templates: this.templates,
      skippedFiles: this.skippedFiles,
    };
  }

  private place(line: number): SourcePlace {
    return { file: this.file, line };
  }

  private ignore(apiVersion: string, kind: string): void {
    const key = `${apiVersion}\n${kind}`;
    const entry = this.ignored.get(key);
    if (entry === undefined) this.ignored.set(key, { apiVersion, kind, count: 1 });
    else entry.count++;
  }

  private problem(line: number, column: number, message: string): void {
    this.problems.push({ file: this.file, line, column, message });
  }

  private nameNamespace(name: string): void {
    if (!this.namespaces.has(name)) this.namespaces.set(name, {});
  }

  private document(doc: FileDocument): void {
    switch (doc.type) {
      case "ignored":
        this.ignore(doc.apiVersion, doc.kind);
        return;
      case "error":
        if (doc.template) this.templates.push(this.place(doc.documentLine));
        else this.problem(doc.line, doc.column, doc.message);
        return;
      case "object":
        this.networking(doc.object, doc.line, doc.locate);
        return;
      case "value":
        this.value(doc.value, doc.apiVersion, doc.kind, doc.line, doc.locate);
    }
  }

  private networking(object: NetworkingObject, line: number, locate: Locate): void {
    switch (object.$typeName) {
      case POLICY:
        this.policies.push(this.namespaced(object));
        this.policySources.push(this.place(line));
        return;
      case INGRESS:
        this.ingresses.push({ ingress: this.namespaced(object), source: this.place(line) });
        return;
      case POLICY_LIST:
      case INGRESS_LIST:
        object.items.forEach((item: NetworkPolicy | Ingress, i) => {
          this.networking(item, locate(["items", i]).line, (path) => locate(["items", i, ...path]));
        });
        return;
      default: {
        const info = kindOf(object);
        this.ignore(info.apiVersion, info.kind);
      }
    }
  }

  /** The object, in the default namespace when it names none; its namespace is listed. */
  private namespaced<T extends NetworkPolicy | Ingress>(object: T): T {
    object.metadata ??= create(ObjectMetaSchema, {});
    if (object.metadata.namespace === "") object.metadata.namespace = this.defaultNamespace;
    this.nameNamespace(object.metadata.namespace);
    return object;
  }

  private value(value: JsonObject, apiVersion: string, kind: string, line: number, locate: Locate): void {
    const workload = WORKLOAD_KINDS.get(kind);
    const isWorkload = workload?.apiVersions.has(apiVersion) === true;
    if (!isWorkload && !(apiVersion === "v1" && (kind === "Service" || kind === "Namespace"))) {
      this.ignore(apiVersion, kind);
      return;
    }
    const who = this.identify(value, kind);
    try {
      if (kind === "Namespace") this.namespace(value, line);
      else if (kind === "Service") this.service(value, line);
      else if (workload !== undefined) this.workload(value, kind, workload, line);
    } catch (e) {
      if (e instanceof TemplateText) {
        this.templates.push(this.place(line));
        return;
      }
      if (!(e instanceof FieldProblem)) throw e;
      const at = locate(jsonPath(e.path));
      this.problem(at.line, at.column, `${who}: ${renderPath(e.path)}: ${e.reason}`);
    }
  }

  /** `Deployment shop/api` for messages, as far as the document says. */
  private identify(value: JsonObject, kind: string): string {
    const meta = at(value, "metadata");
    const name = typeof meta === "object" && meta !== null && !Array.isArray(meta) ? at(meta, "name") : undefined;
    const namespace =
      typeof meta === "object" && meta !== null && !Array.isArray(meta) ? at(meta, "namespace") : undefined;
    if (typeof name !== "string" || name === "") return kind;
    if (kind === "Namespace") return `${kind} ${name}`;
    return `${kind} ${typeof namespace === "string" && namespace !== "" ? namespace : this.defaultNamespace}/${name}`;
  }

  /** metadata.name (required) and metadata.namespace (the default when absent). */
  private meta(
    value: JsonObject,
    what: string,
  ): { name: string; namespace: string; labels: Record<string, string>; annotations: Record<string, string> } {
    const meta = objectAt(at(value, "metadata"), ["metadata"]);
    const name = stringAt(at(meta, "name"), ["metadata", "name"]);
    if (name === undefined) throw new FieldProblem(["metadata", "name"], `${what} needs a name`);
    const namespace = stringAt(at(meta, "namespace"), ["metadata", "namespace"]) ?? this.defaultNamespace;
    return {
      name,
      namespace,
      labels: labelsAt(at(meta, "labels"), ["metadata", "labels"]),
      annotations: labelsAt(at(meta, "annotations"), ["metadata", "annotations"]),
    };
  }

  private namespace(value: JsonObject, line: number): void {
    const { name, labels, annotations } = this.meta(value, "a Namespace");
    const known = this.namespaces.get(name);
    if (known?.source !== undefined) {
      this.problem(
        line,
        1,
        `Namespace ${name}: a second Namespace ${name} (the first at ${where(known.source)}); left out`,
      );
      return;
    }
    this.namespaces.set(name, { labels, source: this.place(line) });
    if (Object.keys(annotations).length > 0) this.annotations.set(name, annotations);
  }

  private service(value: JsonObject, line: number): void {
    const { name, namespace } = this.meta(value, "a Service");
    const spec = objectAt(at(value, "spec"), ["spec"]);
    const type = stringAt(at(spec, "type"), ["spec", "type"]) ?? "ClusterIP";
    const rawSelector = at(spec, "selector");
    const selector =
      rawSelector === undefined || rawSelector === null ? undefined : labelsAt(rawSelector, ["spec", "selector"]);
    const ports = listAt(at(spec, "ports"), ["spec", "ports"]).map((p, i) => servicePort(p, ["spec", "ports", i]));
    const externalName = stringAt(at(spec, "externalName"), ["spec", "externalName"]);
    const key = `${namespace}/${name}`;
    const first = this.serviceKeys.get(key);
    if (first !== undefined) {
      this.problem(line, 1, `Service ${key}: a second Service ${key} (the first at ${where(first)}); left out`);
      return;
    }
    const source = this.place(line);
    this.serviceKeys.set(key, source);
    this.nameNamespace(namespace);
    this.services.push({
      namespace,
      name,
      type,
      selector,
      ports,
      ...(externalName !== undefined ? { externalName } : {}),
      source,
    });
  }

  private workload(value: JsonObject, kind: string, shape: WorkloadKind, line: number): void {
    const { name, namespace, labels: objectLabels, annotations } = this.meta(value, `a ${kind}`);
    let podMeta: JsonObject | undefined;
    let podSpec: JsonObject | undefined;
    const base: Segment[] = [...shape.template];
    if (shape.template.length === 0) {
      podMeta = objectAt(at(value, "metadata"), ["metadata"]);
      podSpec = objectAt(at(value, "spec"), ["spec"]);
    } else {
      let template: JsonObject | undefined = value;
      const path: Segment[] = [];
      for (const step of shape.template) {
        path.push(step);
        template = objectAt(at(template, step), path);
      }
      podMeta = objectAt(at(template, "metadata"), [...base, "metadata"]);
      podSpec = objectAt(at(template, "spec"), [...base, "spec"]);
    }
    const labels =
      shape.template.length === 0 ? objectLabels : labelsAt(at(podMeta, "labels"), [...base, "metadata", "labels"]);
    const ports: ClusterPodPort[] = [];
    const containersPath = [...base, "spec", "containers"];
    listAt(at(podSpec, "containers"), containersPath).forEach((c, i) => {
      const container = objectAt(c, [...containersPath, i]);
      const portsPath = [...containersPath, i, "ports"];
      listAt(at(container, "ports"), portsPath).forEach((p, j) => {
        ports.push(containerPort(p, [...portsPath, j]));
      });
    });
    const hostNetwork = booleanAt(at(podSpec, "hostNetwork"), [...base, "spec", "hostNetwork"]);
    const key = `${namespace}/${kind}/${name}`;
    const first = this.workloadKeys.get(key);
    if (first !== undefined) {
      this.problem(line, 1, `${kind} ${namespace}/${name}: a second ${key} (the first at ${where(first)}); left out`);
      return;
    }
    const source = this.place(line);
    this.workloadKeys.set(key, source);
    this.nameNamespace(namespace);
    this.workloads.push({
      namespace,
      kind,
      name,
      labels,
      ports,
      ...(hostNetwork ? { hostNetwork } : {}),
    });
    this.workloadSources.push(source);
    if (Object.keys(annotations).length > 0) this.annotations.set(key, annotations);
  }
}

/**
 * Why a file's documents show it is no Kubernetes manifest, as `clusterwire validate` judges
 * (notManifestReason): no document, or none names a kind. A template is a manifest to render.
 */
function notManifest(docs: readonly FileDocument[]): string | undefined {
  if (docs.length === 0) return "no documents: empty, or comments only";
  if (docs.some((d) => d.type !== "error" || d.template || d.kind !== undefined)) return undefined;
  return "no kind: not a Kubernetes manifest";
}

function where(place: SourcePlace): string {
  return `${place.file}:${place.line}`;
}

function containerPort(p: JsonObject[string], path: readonly Segment[]): ClusterPodPort {
  const port = objectAt(p, path) ?? {};
  const containerPort = portAt(at(port, "containerPort"), [...path, "containerPort"]);
  if (containerPort === undefined)
    throw new FieldProblem([...path, "containerPort"], "a container port needs a number");
  const name = stringAt(at(port, "name"), [...path, "name"]);
  const protocol = protocolAt(at(port, "protocol"), [...path, "protocol"]);
  return { ...(name !== undefined ? { name } : {}), containerPort, protocol };
}

function servicePort(p: JsonObject[string], path: readonly Segment[]): TopologyServicePort {
  const port = objectAt(p, path) ?? {};
  const number = portAt(at(port, "port"), [...path, "port"]);
  if (number === undefined) throw new FieldProblem([...path, "port"], "a Service port needs a number");
  const name = stringAt(at(port, "name"), [...path, "name"]);
  const protocol = protocolAt(at(port, "protocol"), [...path, "protocol"]);
  const targetPort = portOrNameAt(at(port, "targetPort"), [...path, "targetPort"]) ?? number;
  const nodePort = portAt(at(port, "nodePort"), [...path, "nodePort"], true);
  return {
    ...(name !== undefined ? { name } : {}),
    protocol,
    port: number,
    targetPort,
    ...(nodePort !== undefined ? { nodePort } : {}),
  };
}
