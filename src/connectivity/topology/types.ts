// The public shapes of reading a repository of manifests (docs/connectivity.md, "Reading a
// repository"): what readTopology takes and what it gives. Kept apart from the reader.

import type { ConnectivityInput, Ingress, Protocol } from "../../networking/index.js";

/**
 * One manifest file: its name as users should see it (a path) and its text (YAML or JSON).
 *
 * @example
 * ```ts
 * import type { ManifestFile } from "clusterwire/connectivity";
 *
 * const file: ManifestFile = { name: "deploy/api.yaml", text: "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n" };
 * ```
 */
export interface ManifestFile {
  /** The file's name as shown to users, usually its path in the repository. */
  readonly name: string;
  /** Its text: a YAML stream or JSON values. */
  readonly text: string;
}

/**
 * Where an object was read: the file and the 1-based line where its document (or List item) starts.
 *
 * @example
 * ```ts
 * import type { SourcePlace } from "clusterwire/connectivity";
 *
 * const place: SourcePlace = { file: "deploy/api.yaml", line: 12 };
 * console.log(`${place.file}:${place.line}`);
 * ```
 */
export interface SourcePlace {
  /** The {@link ManifestFile} name. */
  readonly file: string;
  /** The 1-based line where the document or List item starts. */
  readonly line: number;
}

/**
 * One port of a {@link TopologyService}, its defaults filled in.
 *
 * @example
 * ```ts
 * import type { TopologyServicePort } from "clusterwire/connectivity";
 *
 * const http: TopologyServicePort = { name: "http", protocol: "TCP", port: 80, targetPort: "web" };
 * ```
 */
export interface TopologyServicePort {
  /** The port's name, which an Ingress backend may name instead of the number. */
  readonly name?: string;
  /** `TCP` unless the manifest says otherwise. */
  readonly protocol: Protocol;
  /** The port the Service listens on. */
  readonly port: number;
  /** The container port traffic goes to: a number, or a container port's name. Defaults to `port`. */
  readonly targetPort: number | string;
  /** The node port, when the manifest sets one. */
  readonly nodePort?: number;
}

/**
 * A Service read from the manifests.
 *
 * @example
 * ```ts
 * import { readTopology } from "clusterwire/connectivity";
 *
 * const { services } = readTopology([{ name: "svc.yaml", text: "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80, targetPort: 8080}]\n" }]);
 * console.log(services[0]?.type, services[0]?.ports[0]?.targetPort); // "ClusterIP" 8080
 * ```
 */
export interface TopologyService {
  /** Its namespace (the default namespace when the manifest names none). */
  readonly namespace: string;
  /** Its name. */
  readonly name: string;
  /** `spec.type` as written (`ClusterIP`, `NodePort`, `LoadBalancer`, `ExternalName`); `ClusterIP` by default. */
  readonly type: string;
  /** `spec.selector`; undefined when the manifest has none (the Service's endpoints are then not managed from pods). */
  readonly selector: Readonly<Record<string, string>> | undefined;
  /** `spec.ports`, defaults filled in. */
  readonly ports: readonly TopologyServicePort[];
  /** `spec.externalName`, for an ExternalName Service. */
  readonly externalName?: string;
  /** Where it was read. */
  readonly source: SourcePlace;
}

/**
 * An Ingress read from the manifests, decoded as the API server decodes it, and where.
 *
 * @example
 * ```ts
 * import type { TopologyIngress } from "clusterwire/connectivity";
 *
 * const describe = (i: TopologyIngress) => `${i.ingress.metadata?.namespace}/${i.ingress.metadata?.name} at ${i.source.file}:${i.source.line}`;
 * ```
 */
export interface TopologyIngress {
  /** The decoded Ingress; its `metadata.namespace` is set to the default namespace when the manifest names none. */
  readonly ingress: Ingress;
  /** Where it was read. */
  readonly source: SourcePlace;
}

/**
 * Objects of a kind the reader does not use (ConfigMaps, Roles, custom resources), counted.
 *
 * @example
 * ```ts
 * import type { IgnoredKind } from "clusterwire/connectivity";
 *
 * const line = (k: IgnoredKind) => `${k.count} × ${k.apiVersion} ${k.kind}`;
 * ```
 */
export interface IgnoredKind {
  /** The objects' apiVersion, as written. */
  readonly apiVersion: string;
  /** Their kind, as written. */
  readonly kind: string;
  /** How many documents (and List items) had this apiVersion and kind. */
  readonly count: number;
}

/**
 * A document, or an object in it, that could not be read: it does not parse, the API server
 * would refuse it (a NetworkPolicy or Ingress with an unknown field), a field the reader needs
 * has the wrong type, or it repeats another object's name. The object is left out.
 *
 * @example
 * ```ts
 * import { readTopology } from "clusterwire/connectivity";
 *
 * const { problems } = readTopology([{ name: "bad.yaml", text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: [a]\n" }]);
 * for (const p of problems) console.log(`${p.file}:${p.line}:${p.column}: ${p.message}`);
 * // bad.yaml:5:11: Pod default/web: metadata.labels: must be a map of strings
 * ```
 */
export interface TopologyProblem {
  /** The {@link ManifestFile} name. */
  readonly file: string;
  /** The 1-based line of the problem (the bad field when it can be found, else the document's start). */
  readonly line: number;
  /** The 1-based column. */
  readonly column: number;
  /** What is wrong, naming the object and the field path when known. */
  readonly message: string;
}

/**
 * What {@link readTopology} read from a set of manifest files: the analysis input, where each
 * workload and policy came from, the Services and Ingresses, and what was left out and why.
 *
 * @example
 * ```ts
 * import { readTopology } from "clusterwire/connectivity";
 *
 * const topology = readTopology([{ name: "app.yaml", text: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: shop}\nspec:\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: api, ports: [{name: http, containerPort: 8080}]}]}\n" }]);
 * const w = topology.input.workloads[0];
 * console.log(`${w?.namespace}/${w?.kind}/${w?.name}`, topology.workloadSources[0]); // shop/Deployment/api { file: "app.yaml", line: 1 }
 * ```
 */
export interface Topology {
  /** Namespaces (sorted by name), workloads (in file order), NetworkPolicies (in file order). */
  readonly input: ConnectivityInput;
  /** Where each workload was read; parallel to `input.workloads`. */
  readonly workloadSources: readonly SourcePlace[];
  /**
   * The annotations of workloads (by `namespace/kind/name`) and Namespaces (by name) that have
   * any, such as the lint's `clusterwire.io/lint-ignore`. Policies carry theirs in their metadata.
   */
  readonly annotations: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Where each NetworkPolicy was read; parallel to `input.policies`. */
  readonly policySources: readonly SourcePlace[];
  /** The Services, in file order. */
  readonly services: readonly TopologyService[];
  /** The Ingresses, in file order. */
  readonly ingresses: readonly TopologyIngress[];
  /** Kinds the reader does not use, by apiVersion and kind (sorted), with how many of each. */
  readonly ignored: readonly IgnoredKind[];
  /** Documents and objects that could not be read, in file order. */
  readonly problems: readonly TopologyProblem[];
  /** Documents that are unrendered templates (they hold `{{ }}`): not read. */
  readonly templates: readonly SourcePlace[];
  /**
   * Files that are no Kubernetes manifest (no document in them names a kind: a package.json, a
   * CI workflow, a Helm values file; or no document at all), left out as `clusterwire validate`
   * leaves them out, with why.
   */
  readonly skippedFiles: readonly SkippedFile[];
}

/**
 * A file {@link readTopology} left out because it is no Kubernetes manifest.
 *
 * @example
 * ```ts
 * import { readTopology } from "clusterwire/connectivity";
 *
 * const { skippedFiles } = readTopology([{ name: "package.json", text: '{"name": "shop", "version": "1.0.0"}' }]);
 * console.log(skippedFiles); // [ { file: "package.json", reason: "no kind: not a Kubernetes manifest" } ]
 * ```
 */
export interface SkippedFile {
  /** The {@link ManifestFile} name. */
  readonly file: string;
  /** Why: `no kind: not a Kubernetes manifest`, or `no documents: empty, or comments only`. */
  readonly reason: string;
}

/**
 * Options of {@link readTopology}.
 *
 * @example
 * ```ts
 * import type { TopologyOptions } from "clusterwire/connectivity";
 *
 * const options: TopologyOptions = { defaultNamespace: "shop" };
 * ```
 */
export interface TopologyOptions {
  /** The namespace of objects whose manifest names none, as `kubectl apply -n` would give. Default `"default"`. */
  readonly defaultNamespace?: string;
}
