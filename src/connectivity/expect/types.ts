// The shapes of an expectations file (docs/connectivity.md, "Expectations that fail CI") once
// read, and of its judgement against a connectivity analysis.

import type {
  AddressRange,
  ConnectionExplanation,
  ConnectionSet,
  ConnectivityInput,
  ConnectivityPeer,
  Protocol,
} from "../../networking/index.js";

/**
 * Where something is in an expectations file: 1-based line and column, found when first read
 * (finding them reads the file again, so only the places that are shown are looked up).
 *
 * @example
 * ```ts
 * import type { ExpectationPosition } from "clusterwire/connectivity";
 *
 * const at = (p: ExpectationPosition) => `${p.file}:${p.line}:${p.column}: ${p.path}`;
 * ```
 */
export interface ExpectationPosition {
  /** The file name given to {@link parseExpectations}. */
  readonly file: string;
  /** The field, e.g. `expectations[1].deny.to[0]`. */
  readonly path: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/**
 * The peers one end of an expectation names: workloads, or addresses outside the cluster.
 *
 * `workloads`: every workload whose namespace, kind and name match the globs (`*` matches any
 * run of characters; the kind ignores case) and that carries every label listed.
 * `addresses`: every address of one IP or CIDR, outside the cluster.
 *
 * @example
 * ```ts
 * import type { PeerPattern } from "clusterwire/connectivity";
 *
 * const db: PeerPattern = {
 *   type: "workloads",
 *   text: "shop/db",
 *   namespace: "shop",
 *   kind: "*",
 *   name: "db",
 *   labels: {},
 *   at: { file: "expect.yaml", path: "expectations[0].deny.to", line: 3, column: 22 },
 * };
 * ```
 */
export type PeerPattern =
  | {
      readonly type: "workloads";
      /** As written (a label pattern as a YAML flow map). */
      readonly text: string;
      /** A glob on the namespace. */
      readonly namespace: string;
      /** A glob on the kind, ignoring case. */
      readonly kind: string;
      /** A glob on the name. */
      readonly name: string;
      /** Labels the pod template must carry, with these values. */
      readonly labels: Readonly<Record<string, string>>;
      readonly at: ExpectationPosition;
    }
  | {
      readonly type: "addresses";
      /** As written. */
      readonly text: string;
      /** The addresses (host bits of a CIDR dropped). */
      readonly range: AddressRange;
      readonly at: ExpectationPosition;
    };

/**
 * The connections an allow or deny expectation is about.
 *
 * `any`: no port given: `allow` wants some connection (of `protocol`, when given), `deny` wants
 * none. `range`: every port of the range (one port: `from` = `to`). `named`: the container port of
 * that name on each destination workload (of `protocol`, when given; else of the port's own).
 *
 * @example
 * ```ts
 * import type { ExpectedPort } from "clusterwire/connectivity";
 *
 * const ssh: ExpectedPort = { type: "range", protocol: "TCP", from: 22, to: 22 };
 * ```
 */
export type ExpectedPort =
  | { readonly type: "any"; readonly protocol?: Protocol }
  | { readonly type: "range"; readonly protocol: Protocol; readonly from: number; readonly to: number }
  | { readonly type: "named"; readonly name: string; readonly protocol?: Protocol };

/**
 * `allow`: every matched pair (source, destination) may connect on the port(s); `deny`: no
 * matched pair may. Peers that `except` matches are left out at either end; a workload paired
 * with itself is left out.
 *
 * @example
 * ```ts
 * import { parseExpectations, type ReachExpectation } from "clusterwire/connectivity";
 *
 * const [first] = parseExpectations("expectations:\n  - deny: {from: '*', to: shop/db, port: 5432, except: [shop/api]}\n");
 * const deny = first as ReachExpectation;
 * console.log(deny.kind, deny.except.map((p) => p.text)); // "deny" ["shop/api"]
 * ```
 */
export interface ReachExpectation {
  /** Which of the two: every pair connects, or none does. */
  readonly kind: "allow" | "deny";
  /** The `name` field, or else {@link ReachExpectation.text}. */
  readonly name: string;
  /** The expectation in words, e.g. `deny * => shop/db on TCP 5432 except shop/api`. */
  readonly text: string;
  /** Where the list item starts. */
  readonly at: ExpectationPosition;
  /** The sources: one pattern, or several (their matches together). */
  readonly from: readonly PeerPattern[];
  /** The destinations, likewise. */
  readonly to: readonly PeerPattern[];
  /** Peers left out at either end; empty when none. */
  readonly except: readonly PeerPattern[];
  /** The connections judged. */
  readonly port: ExpectedPort;
  /** Where the port is written (the expectation's own place when there is none). */
  readonly portAt: ExpectationPosition;
}

/**
 * A namespace named in an `isolated` expectation.
 *
 * @example
 * ```ts
 * import type { NamespaceReference } from "clusterwire/connectivity";
 *
 * const dev: NamespaceReference = {
 *   name: "dev",
 *   at: { file: "expect.yaml", path: "expectations[2].isolated.from", line: 5, column: 38 },
 * };
 * ```
 */
export interface NamespaceReference {
  /** The namespace's name. */
  readonly name: string;
  /** Where the name is written. */
  readonly at: ExpectationPosition;
}

/**
 * `isolated`: no workload of `namespace` may connect to a workload of any `from` namespace, nor
 * the other way, on any port; an empty `from` means every other namespace.
 *
 * @example
 * ```ts
 * import { parseExpectations, type IsolationExpectation } from "clusterwire/connectivity";
 *
 * const [first] = parseExpectations("expectations:\n  - isolated: {namespace: payments, from: dev}\n");
 * console.log((first as IsolationExpectation).text); // "isolated payments <=> dev"
 * ```
 */
export interface IsolationExpectation {
  /** Always `isolated`. */
  readonly kind: "isolated";
  /** The `name` field, or else {@link IsolationExpectation.text}. */
  readonly name: string;
  /** The expectation in words, e.g. `isolated payments <=> dev`. */
  readonly text: string;
  /** Where the list item starts. */
  readonly at: ExpectationPosition;
  /** The namespace isolated. */
  readonly namespace: NamespaceReference;
  /** The namespaces it is isolated from; empty for every other namespace. */
  readonly from: readonly NamespaceReference[];
}

/**
 * One expectation of an expectations file, from {@link parseExpectations}.
 *
 * @example
 * ```ts
 * import type { Expectation } from "clusterwire/connectivity";
 *
 * const where = (e: Expectation) => `${e.at.file}:${e.at.line}: ${e.name}`;
 * ```
 */
export type Expectation = ReachExpectation | IsolationExpectation;

/**
 * One pair of peers that broke an expectation, and why.
 *
 * @example
 * ```ts
 * import { formatConnectionSet } from "clusterwire/networking";
 * import type { ExpectationFailure } from "clusterwire/connectivity";
 *
 * const line = (f: ExpectationFailure) => `${f.from.key} => ${f.to.key}: ${formatConnectionSet(f.offending)}`;
 * ```
 */
export interface ExpectationFailure {
  /** The source: a workload, or the addresses of the expectation that the analysis treats alike. */
  readonly from: ConnectivityPeer;
  /** The destination, likewise. */
  readonly to: ConnectivityPeer;
  /** What `from` may open to `to`. */
  readonly allowed: ConnectionSet;
  /** For `allow`: the wanted connections that are not allowed; for `deny` and `isolated`: the allowed ones that are not wanted. */
  readonly offending: ConnectionSet;
  /** The deciding policies, from the analysis's `explain`. */
  readonly explanation: ConnectionExplanation;
}

/**
 * The judgement of one expectation, from {@link checkExpectations}.
 *
 * @example
 * ```ts
 * import type { ExpectationResult } from "clusterwire/connectivity";
 *
 * const failed = (results: readonly ExpectationResult[]) => results.some((r) => !r.passed);
 * ```
 */
export interface ExpectationResult {
  /** The expectation judged. */
  readonly expectation: Expectation;
  /** True when no pair broke it. */
  readonly passed: boolean;
  /** How many pairs were judged. */
  readonly checked: number;
  /** How many pairs broke it. */
  readonly failed: number;
  /** The first pairs that broke it, at most `maxFailures` of them (in the order of the analysis's workloads). */
  readonly failures: readonly ExpectationFailure[];
}

/**
 * Options of {@link checkExpectations}.
 *
 * @example
 * ```ts
 * import type { ConnectivityInput } from "clusterwire/networking";
 * import type { CheckExpectationsOptions } from "clusterwire/connectivity";
 *
 * declare const input: ConnectivityInput;
 * const options: CheckExpectationsOptions = { input, maxFailures: 5 };
 * ```
 */
export interface CheckExpectationsOptions {
  /**
   * The input the analysis was made from: label patterns read its workloads' labels, and named
   * ports its workloads' container ports (the analysis itself carries neither).
   */
  readonly input: ConnectivityInput;
  /** How many failing pairs each result lists (with their explanations); the rest are only counted. Default 10. */
  readonly maxFailures?: number;
}

/**
 * One mistake in an expectations file.
 *
 * @example
 * ```ts
 * import type { ExpectationProblem } from "clusterwire/connectivity";
 *
 * const text = (p: ExpectationProblem) => `${p.file}:${p.line}:${p.column}: ${p.message}`;
 * ```
 */
export interface ExpectationProblem {
  /** The file name given to {@link parseExpectations}. */
  readonly file: string;
  /** 1-based (1 when the place is not known). */
  readonly line: number;
  /** 1-based (1 when the place is not known). */
  readonly column: number;
  /** The field, e.g. `expectations[2].deny.to`; empty for the whole file. */
  readonly path: string;
  /** What is wrong, without the place. */
  readonly message: string;
}
