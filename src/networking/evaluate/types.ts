// The public shapes of the two evaluators (docs/ingress-routing.md, docs/network-policy.md): the
// Ingress router and the NetworkPolicy engine. Kept apart from the
// implementations so the CLI, the HTML report and the tests depend on the
// contract, not on the index structures.

import type { IngressBackend } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import type { FieldError } from "../validation/field-error.js";

// ------------------------------------------------------------------ router

export interface RouteRequest {
  /** The HTTP Host header, port and all (`Shop.Example.com:8443`, `[2001:db8::1]:443`). */
  readonly host: string;
  /** The request target; everything from the first `?` or `#` is ignored (R5). */
  readonly path: string;
  /** The TLS SNI name. It selects a certificate only and never changes the route (R10). */
  readonly sni?: string;
  /** `http` or `https`. It never changes the route (R10). */
  readonly scheme?: string;
}

/** Which host tier was selected for a request (R4). */
export type HostTier = "precise" | "wildcard" | "host-less";

export interface Route {
  /** The IngressBackend exactly as written in the winning path or defaultBackend (R11). */
  readonly backend: IngressBackend;
  /** `namespace/name` of the Ingress that supplied the backend. */
  readonly ingress: string;
  /** Index into that Ingress's `spec.rules`, or null when the backend is its `defaultBackend`. */
  readonly rule: number | null;
  /** Index into the rule's `http.paths`, or null when the backend is a `defaultBackend`. */
  readonly path: number | null;
  /**
   * How the backend was chosen: `path` (a path of the selected tier matched, R7),
   * `tier-default` (R9.1) or `default` (R9.2).
   */
  readonly via: "path" | "tier-default" | "default";
  /** The selected host tier, or null when no rule of any tier matched the host. */
  readonly tier: HostTier | null;
  /** The request host after R3 normalisation. */
  readonly host: string;
  /** The request path after R5 (query and fragment removed). */
  readonly requestPath: string;
  /**
   * The inputs the router left out (its `skipped`): every route is given
   * without them, so it says so. Empty when every input was taken.
   */
  readonly skipped: readonly SkippedObject[];
}

/**
 * A request's answer whether or not anything serves it: the route, or null
 * for the controller's own 404, with the inputs left out either way.
 */
export interface RouteResult {
  /** What `route` returns for the request. */
  readonly route: Route | null;
  /** The inputs the router left out (its `skipped`). */
  readonly skipped: readonly SkippedObject[];
}

/**
 * An input the router or engine left out because `validate` rejects it, or
 * because an earlier input has the same name. Every answer carries the list.
 */
export interface SkippedObject {
  readonly kind: "Ingress" | "IngressClass" | "NetworkPolicy";
  /** `namespace/name` (or `name` for IngressClass); `[i]` when the object has no name. */
  readonly name: string;
  /** Position in the input list. */
  readonly index: number;
  /** Why it was skipped: the API server's errors, or a duplicate name. */
  readonly errors: readonly FieldError[];
}

/** Why an Ingress is not served by the evaluated controller (R2). */
export interface OutOfScope {
  readonly ingress: string;
  readonly reason: string;
}

export interface Router {
  /** The route for one request, or null when nothing in scope serves it (the controller's 404). */
  route(request: RouteRequest): Route | null;
  /** The same answer with the inputs left out, also when nothing serves the request. */
  resolve(request: RouteRequest): RouteResult;
  /** Valid Ingresses the controller serves, as `namespace/name`, in input order. */
  readonly inScope: readonly string[];
  /** Valid Ingresses it does not serve, and why. */
  readonly outOfScope: readonly OutOfScope[];
  /**
   * Inputs left out because the API server would reject them, or because an
   * earlier input has the same name: IngressClasses first, then Ingresses,
   * each in input order. Every route carries this list too.
   */
  readonly skipped: readonly SkippedObject[];
}

// ------------------------------------------------------------------ policy engine

export type Protocol = "TCP" | "UDP" | "SCTP";
export const PROTOCOLS: readonly Protocol[] = Object.freeze(["TCP", "UDP", "SCTP"]);

export interface ClusterNamespace {
  readonly name: string;
  readonly labels?: Readonly<Record<string, string>>;
}

export interface ClusterPodPort {
  /** The port name named-port rules refer to; ports without one can't be named. */
  readonly name?: string;
  readonly containerPort: number;
  /** Defaults to TCP, as in a Pod spec. */
  readonly protocol?: Protocol;
}

export interface ClusterPod {
  readonly namespace: string;
  readonly name: string;
  readonly labels?: Readonly<Record<string, string>>;
  /** The pod IP. For a hostNetwork pod it is the node IP (E12). */
  readonly ip: string;
  readonly ports?: readonly ClusterPodPort[];
  /** The node's IP, for node-local traffic (E11). A hostNetwork pod's hostIP defaults to its ip. */
  readonly hostIP?: string;
  readonly hostNetwork?: boolean;
}

export type Endpoint = { readonly pod: string } | { readonly ip: string };

export interface Connection {
  readonly from: Endpoint;
  readonly to: Endpoint;
  /** Defaults to TCP. */
  readonly protocol?: Protocol;
  /** The destination port: a number, or a port name of the destination pod (E9). */
  readonly port: number | string;
}

/** The per-direction reasons (docs/network-policy.md#reasons-per-direction). */
export type Verdict = "not-applicable" | "not-isolated" | "allowed-by-rule" | "denied" | "node-local" | "self";

/** A policy that took part in a decision, and the rules of it that matched. */
export interface PolicyRuleMatch {
  /** `namespace/name` of the NetworkPolicy. */
  readonly policy: string;
  /**
   * Indexes into its `spec.ingress` or `spec.egress` that match the connection:
   * non-empty for `allowed-by-rule`, empty for the isolating policies of `denied`.
   */
  readonly rules: readonly number[];
}

export interface DirectionDecision {
  readonly verdict: Verdict;
  /**
   * The policies that decided: for `allowed-by-rule` the ones with matching rules,
   * for `denied` every policy isolating the pod in this direction; otherwise empty.
   */
  readonly policies: readonly PolicyRuleMatch[];
}

export interface Decision {
  readonly allowed: boolean;
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

export type Cell = "allow" | "deny";

/** `table[from][to]` over all pods, keyed by `namespace/name`, diagonal included. */
export type TruthTable = Record<string, Record<string, Cell>>;

/**
 * What `truthTable` returns: the table, and what it was computed without.
 * `skipped` and `unresolved` are not enumerable, so the table's keys are
 * still exactly its pods (and JSON.stringify prints only the cells).
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

export interface PortQuery {
  /** Defaults to TCP. */
  readonly protocol?: Protocol;
  readonly port: number;
}

/** The question of a truth table: a protocol and a destination port, by number or by name. */
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
 */
export interface TruthMatrix {
  readonly pods: readonly string[];
  readonly protocol: Protocol;
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

export interface DiffOptions {
  /** Compare only these protocols (default: all three). */
  readonly protocols?: readonly Protocol[];
  /** Compare only these port numbers (default: every port range either side can tell apart). */
  readonly ports?: readonly number[];
}

export interface ConnectionChange {
  readonly from: string;
  readonly to: string;
  readonly protocol: Protocol;
  /** The inclusive port range over which the change holds. */
  readonly ports: { readonly from: number; readonly to: number };
  /** The verdict in this engine. */
  readonly before: Cell;
  /** The verdict in the other engine. */
  readonly after: Cell;
}

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
