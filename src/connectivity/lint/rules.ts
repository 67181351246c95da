// The lint's warnings: their ids, names and meanings, the shape of one warning, and how a user
// silences them (an annotation on the object, or a list of ids for the whole run).

import { type ConnectionSet, EvaluatorInputError } from "../../networking/index.js";

/**
 * The id of a lint warning: stable, so that it can be silenced and searched for.
 *
 * @example
 * ```ts
 * import type { LintId } from "clusterwire/connectivity";
 *
 * const shadowed: LintId = "CW1002";
 * ```
 */
export type LintId = "CW1001" | "CW1002" | "CW1003" | "CW1004" | "CW1005" | "CW1006";

/**
 * One kind of lint warning: its id, its name, what it means, and how to silence it.
 *
 * @example
 * ```ts
 * import { LINT_RULES } from "clusterwire/connectivity";
 *
 * for (const rule of LINT_RULES) console.log(rule.id, rule.name, rule.summary);
 * ```
 */
export interface LintRule {
  /** `CW1001`...; never reused for another meaning. */
  readonly id: LintId;
  /** A short kebab-case name, accepted wherever the id is. */
  readonly name: string;
  /** What the warning means, in one sentence. */
  readonly summary: string;
  /** The object whose annotation silences the warning for that object. */
  readonly silencedOn: "NetworkPolicy" | "Namespace" | "workload";
  /** How to silence it, in one sentence. */
  readonly silence: string;
}

/**
 * The annotation that silences lint warnings for one object: a list of ids (or names) separated by
 * commas, e.g. `clusterwire.io/lint-ignore: "CW1002,CW1003"`.
 *
 * @example
 * ```ts
 * import { LINT_IGNORE_ANNOTATION, parseLintIgnore } from "clusterwire/connectivity";
 *
 * const annotations: Record<string, string> = { [LINT_IGNORE_ANNOTATION]: "CW1002, CW1003" };
 * console.log(parseLintIgnore(annotations[LINT_IGNORE_ANNOTATION] ?? "")); // ["CW1002", "CW1003"]
 * ```
 */
export const LINT_IGNORE_ANNOTATION = "clusterwire.io/lint-ignore";

const silence = (id: LintId, on: string): string =>
  `annotate the ${on} with ${LINT_IGNORE_ANNOTATION}: "${id}", or pass --lint-ignore ${id} to silence it everywhere`;

/**
 * Every lint warning, in id order.
 *
 * @example
 * ```ts
 * import { LINT_RULES } from "clusterwire/connectivity";
 *
 * const redundant = LINT_RULES.find((r) => r.id === "CW1003");
 * console.log(redundant?.name, "-", redundant?.silence);
 * ```
 */
export const LINT_RULES: readonly LintRule[] = Object.freeze(
  [
    {
      id: "CW1001",
      name: "policy-selects-nothing",
      summary: "A NetworkPolicy whose podSelector selects no workload: it has no effect on any of them.",
      silencedOn: "NetworkPolicy",
    },
    {
      id: "CW1002",
      name: "rule-shadowed",
      summary:
        "A rule every peer and port of which another rule admits too, in the same policy and direction, or in another policy that isolates every workload this one selects in that direction.",
      silencedOn: "NetworkPolicy",
    },
    {
      id: "CW1003",
      name: "policy-redundant",
      summary:
        "A NetworkPolicy whose removal would change no connection: in each direction it isolates, what it admits for each workload it selects is admitted anyway.",
      silencedOn: "NetworkPolicy",
    },
    {
      id: "CW1004",
      name: "namespace-without-default-deny",
      summary:
        "A namespace with workloads and no default-deny policy for a direction, while another namespace has one (podSelector: {} with no rules for that direction).",
      silencedOn: "Namespace",
    },
    {
      id: "CW1005",
      name: "exposed-to-all-namespaces",
      summary:
        "A workload whose ingress policies let any pod of any namespace connect to it: a rule with namespaceSelector: {} and no pod selector, or no policy isolating it while others are isolated.",
      silencedOn: "workload",
    },
    {
      id: "CW1006",
      name: "exposed-to-internet",
      summary: "A workload that every address of 0.0.0.0/0 or of ::/0 may connect to, with the ports.",
      silencedOn: "workload",
    },
  ].map((r) =>
    Object.freeze({
      ...r,
      silence: silence(r.id as LintId, r.silencedOn === "workload" ? "workload's object" : r.silencedOn),
    }),
  ) as LintRule[],
);

/**
 * The lint rule an id or a name stands for (any case), or undefined.
 *
 * @example
 * ```ts
 * import { lintRule } from "clusterwire/connectivity";
 *
 * console.log(lintRule("rule-shadowed")?.id); // "CW1002"
 * ```
 */
export function lintRule(idOrName: string): LintRule | undefined {
  const wanted = idOrName.trim().toLowerCase();
  return LINT_RULES.find((r) => r.id.toLowerCase() === wanted || r.name === wanted);
}

/**
 * The ids and names an annotation value lists, split at commas and white space.
 *
 * @example
 * ```ts
 * import { parseLintIgnore } from "clusterwire/connectivity";
 *
 * console.log(parseLintIgnore("CW1002, policy-redundant")); // ["CW1002", "policy-redundant"]
 * ```
 */
export function parseLintIgnore(value: string): string[] {
  return value.split(/[\s,]+/).filter((part) => part !== "");
}

/**
 * Where a warning points in a rule: the direction and the rule's index in `spec.ingress` or
 * `spec.egress`.
 *
 * @example
 * ```ts
 * import type { LintRuleRef } from "clusterwire/connectivity";
 *
 * const second: LintRuleRef = { direction: "ingress", index: 1 };
 * ```
 */
export interface LintRuleRef {
  /** Whether the rule is in `spec.ingress` or `spec.egress`. */
  readonly direction: "ingress" | "egress";
  /** Its index in that list, from 0. */
  readonly index: number;
}

/**
 * One lint warning.
 *
 * @example
 * ```ts
 * import type { LintWarning } from "clusterwire/connectivity";
 *
 * const line = (w: LintWarning) => `${w.id} ${w.name}: ${w.message}`;
 * ```
 */
export interface LintWarning {
  /** The warning's id, e.g. `CW1002`. */
  readonly id: LintId;
  /** The rule's name, e.g. `rule-shadowed`. */
  readonly name: string;
  /** Always `"warning"`: lint never fails a run. */
  readonly severity: "warning";
  /** A sentence that names the objects it is about. */
  readonly message: string;
  /** `namespace/name` of the policy it is about (CW1001, CW1002, CW1003; CW1005 for a rule). */
  readonly policy?: string;
  /** The rule it is about (CW1002; CW1005 for a rule). */
  readonly rule?: LintRuleRef;
  /** CW1002: the rule that admits everything this one does. */
  readonly shadowedBy?: { readonly policy: string; readonly rule: LintRuleRef };
  /** `namespace/kind/name` of the workload it is about (CW1005, CW1006). */
  readonly workload?: string;
  /** The namespace of the object it is about. */
  readonly namespace?: string;
  /** CW1004: the direction without a default deny. */
  readonly direction?: "ingress" | "egress";
  /** CW1005, CW1006: the connections that are open. */
  readonly connections?: ConnectionSet;
}

/**
 * What to leave out of a lint.
 *
 * @example
 * ```ts
 * import type { LintOptions } from "clusterwire/connectivity";
 *
 * const options: LintOptions = {
 *   ignore: { ids: ["CW1004"], perObject: new Map([["shop/allow-web", ["CW1002"]]]) },
 * };
 * ```
 */
export interface LintOptions {
  /** Warnings to leave out: by id everywhere, or by id for one object. */
  readonly ignore?: {
    /** Ids or names silenced everywhere (`--lint-ignore`); an unknown one is an EvaluatorInputError. */
    readonly ids?: readonly string[];
    /**
     * Ids or names silenced per object, as its `clusterwire.io/lint-ignore` annotation lists
     * them. Keys: a policy's `namespace/name`, a workload's `namespace/kind/name`, a namespace's
     * name. Unknown ids here are passed over.
     */
    readonly perObject?: ReadonlyMap<string, readonly string[]>;
  };
}

/** Whether `warning`, about the object `key`, is silenced by `options`. */
export function silencer(options: LintOptions | undefined): (id: LintId, key: string) => boolean {
  const everywhere = new Set<LintId>();
  (options?.ignore?.ids ?? []).forEach((text, i) => {
    const rule = lintRule(text);
    if (rule === undefined) {
      throw new EvaluatorInputError(
        `ignore.ids[${i}]`,
        `${JSON.stringify(text)} is no lint id or name (${LINT_RULES.map((r) => r.id).join(", ")})`,
      );
    }
    everywhere.add(rule.id);
  });
  const perObject = options?.ignore?.perObject;
  return (id, key) => {
    if (everywhere.has(id)) return true;
    const list = perObject?.get(key);
    return list?.some((text) => lintRule(text)?.id === id) === true;
  };
}
