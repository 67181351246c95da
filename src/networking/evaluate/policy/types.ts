// The public shapes of the NetworkPolicy engine (docs/network-policy.md), and
// the protocol list (model/protocols.ts, which validation shares). Kept apart from the implementation so the CLI, the HTML
// report and the tests depend on the contract, not on the index structures.

import type { Protocol } from "../../model/protocols.js";
import type { SkippedObject } from "../types.js";

export { PROTOCOLS, type Protocol } from "../../model/protocols.js";

/**
 * A namespace of the cluster snapshot, with its labels.
 *
 * @example
 * ```ts
 * import type { ClusterNamespace } from "clusterwire/networking";
 *
 * const web: ClusterNamespace = { name: "web", labels: { team: "shop" } };
 * ```
 */
export interface ClusterNamespace {
  /** The namespace's name. */
  readonly name: string;
  /** Its labels; the engine adds `kubernetes.io/metadata.name` itself. */
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * A container port of a pod, which named ports in policies resolve to.
 *
 * @example
 * ```ts
 * import type { ClusterPodPort } from "clusterwire/networking";
 *
 * const http: ClusterPodPort = { name: "http", containerPort: 8080, protocol: "TCP" };
 * ```
 */
export interface ClusterPodPort {
  /** The port name named-port rules refer to; ports without one can't be named. */
  readonly name?: string;
  /** The port number the container listens on. */
  readonly containerPort: number;
  /** Defaults to TCP, as in a Pod spec. */
  readonly protocol?: Protocol;
}

/**
 * A pod of the cluster snapshot: where it runs, its labels, address and ports.
 *
 * @example
 * ```ts
 * import type { ClusterPod } from "clusterwire/networking";
 *
 * const pod: ClusterPod = { namespace: "web", name: "shop-1", labels: { app: "shop" }, ip: "10.0.0.5", ports: [{ containerPort: 8080 }] };
 * ```
 */
export interface ClusterPod {
  /** The pod's namespace, which must be listed in the input's namespaces. */
  readonly namespace: string;
  /** The pod's name; `namespace/name` is its key in answers. */
  readonly name: string;
  /** The pod's labels, which pod selectors match. */
  readonly labels?: Readonly<Record<string, string>>;
  /** The pod IP. For a hostNetwork pod it is the node IP (E12). */
  readonly ip: string;
  /** The pod's container ports, for named ports. */
  readonly ports?: readonly ClusterPodPort[];
  /** The node's IP, for node-local traffic (E11). A hostNetwork pod's hostIP defaults to its ip. */
  readonly hostIP?: string;
  /** Whether the pod uses the node's network (policies do not isolate it). */
  readonly hostNetwork?: boolean;
}

/**
 * One end of a connection: a pod by `namespace/name`, or an IP address outside the pods.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const decision = engine.evaluate({ from: { ip: "192.0.2.10" }, to: { pod: "web/b" }, port: 8080 });
 * ```
 */
export type Endpoint = { readonly pod: string } | { readonly ip: string };

/**
 * A connection to judge: source, destination, protocol and destination port.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const byName = engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, port: "http" });
 * console.log(byName.port); // 8080
 * ```
 */
export interface Connection {
  /** The source. */
  readonly from: Endpoint;
  /** The destination. */
  readonly to: Endpoint;
  /** Defaults to TCP. */
  readonly protocol?: Protocol;
  /** The destination port: a number, or a port name of the destination pod (E9). */
  readonly port: number | string;
}

/**
 * The per-direction reasons (docs/network-policy.md#reasons-per-direction).
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const { egress, ingress } = engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, port: 8080 });
 * console.log(egress.verdict, ingress.verdict); // "not-isolated" "denied"
 * ```
 */
export type Verdict = "not-applicable" | "not-isolated" | "allowed-by-rule" | "denied" | "node-local" | "self";

/**
 * A policy that took part in a decision, and the rules of it that matched.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const { ingress } = engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, port: 8080 });
 * for (const match of ingress.policies) console.log(match.policy, match.rules); // "web/deny-in" []
 * ```
 */
export interface PolicyRuleMatch {
  /** `namespace/name` of the NetworkPolicy. */
  readonly policy: string;
  /**
   * Indexes into its `spec.ingress` or `spec.egress` that match the connection:
   * non-empty for `allowed-by-rule`, empty for the isolating policies of `denied`.
   */
  readonly rules: readonly number[];
}

/**
 * The judgement of one direction of a connection: egress at the source or ingress at the destination.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const { ingress } = engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, port: 8080 });
 * console.log(ingress.verdict, ingress.policies.map((p) => p.policy));
 * ```
 */
export interface DirectionDecision {
  /** Why this direction is allowed or denied. */
  readonly verdict: Verdict;
  /**
   * The policies that decided: for `allowed-by-rule` the ones with matching rules,
   * for `denied` every policy isolating the pod in this direction; otherwise empty.
   */
  readonly policies: readonly PolicyRuleMatch[];
}

/**
 * What {@link PolicyEngine.evaluate} answers for one connection.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const decision = engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, port: 8080 });
 * console.log(decision.allowed, decision.egress.verdict, decision.ingress.verdict);
 * ```
 */
export interface Decision {
  /** Whether the connection is allowed: both directions allow it. */
  readonly allowed: boolean;
  /** The protocol judged (TCP when the connection named none). */
  readonly protocol: Protocol;
  /** The destination port as a number, after a port name was resolved (E9). */
  readonly port: number;
  /** Judged on the source. */
  readonly egress: DirectionDecision;
  /** Judged on the destination. */
  readonly ingress: DirectionDecision;
  /** The policies the engine left out (its `skipped`): the decision is made without them. */
  readonly skipped: readonly SkippedObject[];
}

/**
 * One cell of a truth table: whether the connection is allowed.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const table = engine.truthTable({ port: 8080 });
 * const cell = table["web/a"]?.["web/b"]; // "deny"
 * ```
 */
export type Cell = "allow" | "deny";

/**
 * `table[from][to]` over all pods, keyed by `namespace/name`, diagonal included.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const table = engine.truthTable({ port: 8080 });
 * for (const [from, row] of Object.entries(table)) console.log(from, row);
 * ```
 */
export type TruthTable = Record<string, Record<string, Cell>>;

/**
 * What `truthTable` returns: the table, and what it was computed without.
 * `skipped` and `unresolved` are not enumerable, so the table's keys are
 * still exactly its pods (and JSON.stringify prints only the cells).
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const table = engine.truthTable({ protocol: "TCP", port: "http" });
 * console.log(table.unresolved, table.skipped.length); // [ "web/a" ] 0
 * ```
 */
export type TruthTableResult = TruthTable & {
  /** The policies the engine left out (its `skipped`): the table is computed without them. */
  readonly skipped: readonly SkippedObject[];
  /**
   * For a port name: the pods that declare no port of that name and protocol,
   * so no connection to them is defined (E9). Their columns are left out of
   * every row; they still have rows as sources. Empty for a port number.
   */
  readonly unresolved: readonly string[];
};

/**
 * The question of a {@link TruthMatrix}: a protocol and a port number.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const matrix = engine.matrix({ protocol: "TCP", port: 8080 });
 * ```
 */
export interface PortQuery {
  /** Defaults to TCP. */
  readonly protocol?: Protocol;
  /** The destination port number. */
  readonly port: number;
}

/**
 * The question of a truth table: a protocol and a destination port, by number or by name.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const table = engine.truthTable({ protocol: "TCP", port: "http" });
 * ```
 */
export interface TableQuery {
  /** Defaults to TCP. */
  readonly protocol?: Protocol;
  /**
   * A port number, or a port name resolved on each destination pod by name
   * and protocol, as NetworkPolicy resolves named ports (E8, E9): the cell
   * `[from][to]` is the connection to `to`'s own port of that name.
   */
  readonly port: number | string;
}

/**
 * A truth table in packed form, for large clusters: row `from`, column `to`,
 * indexes into `pods`. This is what `truthTable` is built from.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const matrix = engine.matrix({ port: 8080 });
 * console.log(matrix.pods, matrix.allowed(0, 1), matrix.countAllowed());
 * ```
 */
export interface TruthMatrix {
  /** The pods, as `namespace/name`: row and column indexes point here. */
  readonly pods: readonly string[];
  /** The protocol of every cell. */
  readonly protocol: Protocol;
  /** The destination port of every cell. */
  readonly port: number;
  /** The verdict for one ordered pair. */
  allowed(from: number, to: number): boolean;
  /** Whether the source's egress check lets the connection out (true when not checked). */
  egressAllowed(from: number, to: number): boolean;
  /** Whether the destination's ingress check lets it in (true when not checked or skipped). */
  ingressAllowed(from: number, to: number): boolean;
  /** How many ordered pairs are allowed. */
  countAllowed(): number;
  /** The policies the engine left out (its `skipped`): the matrix is computed without them. */
  readonly skipped: readonly SkippedObject[];
}

/**
 * What {@link PolicyEngine.diff} compares.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const diff = engine.diff(engine, { protocols: ["TCP"], ports: [80, 443] });
 * ```
 */
export interface DiffOptions {
  /** Compare only these protocols (default: all three). */
  readonly protocols?: readonly Protocol[];
  /** Compare only these port numbers (default: every port range either side can tell apart). */
  readonly ports?: readonly number[];
}

/**
 * A connection whose verdict differs between two engines, over a range of ports.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * // The same pods without the policy: everything is allowed after.
 * const after = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1" },
 *     { namespace: "web", name: "b", ip: "10.0.0.2" },
 *   ],
 *   policies: [],
 * });
 * for (const c of engine.diff(after).changes) console.log(c.from, c.to, c.protocol, c.ports, c.before, c.after);
 * // web/a web/b TCP { from: 1, to: 65535 } deny allow, and so on
 * ```
 */
export interface ConnectionChange {
  /** The source pod, `namespace/name`. */
  readonly from: string;
  /** The destination pod, `namespace/name`. */
  readonly to: string;
  /** The protocol over which the change holds. */
  readonly protocol: Protocol;
  /** The inclusive port range over which the change holds. */
  readonly ports: { readonly from: number; readonly to: number };
  /** The verdict in this engine. */
  readonly before: Cell;
  /** The verdict in the other engine. */
  readonly after: Cell;
}

/**
 * What changes between two cluster snapshots' policies: {@link PolicyEngine.diff}'s answer.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const diff = engine.diff(engine);
 * console.log(diff.changes.length, diff.addedPods, diff.removedPods); // 0 [] []
 * ```
 */
export interface PolicyDiff {
  /** Pod pairs present in both engines whose verdict differs, sorted by source and destination (in this engine's pod order), then protocol (TCP, UDP, SCTP, or the order of `options.protocols`), then port. */
  readonly changes: readonly ConnectionChange[];
  /** Pods only this engine has (not compared). */
  readonly removedPods: readonly string[];
  /** Pods only the other engine has (not compared). */
  readonly addedPods: readonly string[];
  /** The policies each engine left out (their `skipped`): the diff compares the engines without them. */
  readonly skipped: { readonly before: readonly SkippedObject[]; readonly after: readonly SkippedObject[] };
}

/**
 * NetworkPolicy semantics over one cluster snapshot, built by {@link createPolicyEngine}.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * console.log(engine.pods, engine.evaluate({ from: { pod: "web/b" }, to: { pod: "web/a" }, port: 80 }).allowed);
 * ```
 */
export interface PolicyEngine {
  /** One connection, with the reason for each direction. Throws EvaluatorInputError for unknown pods or ports. */
  evaluate(connection: Connection): Decision;
  /**
   * Every ordered pod pair for one protocol and port. A port name is resolved
   * on each destination pod (E9); pods without it get no column. A name no
   * pod declares for the protocol throws EvaluatorInputError, as `evaluate` does.
   */
  truthTable(query: TableQuery): TruthTableResult;
  /** The same table, packed, for a port number (a port name gives each column its own port: use `truthTable`). */
  matrix(query: PortQuery): TruthMatrix;
  /** Connections whose verdict differs in `other`: this engine is "before", `other` is "after". */
  diff(other: PolicyEngine, options?: DiffOptions): PolicyDiff;
  /** Pod keys (`namespace/name`) in input order, the order of `matrix().pods`. */
  readonly pods: readonly string[];
  /**
   * Policies left out because the API server would reject them, or because
   * an earlier policy has the same `namespace/name`, in input order. Every
   * decision, table, matrix and diff carries this list too.
   */
  readonly skipped: readonly SkippedObject[];
}
