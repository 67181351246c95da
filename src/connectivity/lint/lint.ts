// Policy lint over one connectivity analysis: policies that
// select nothing, rules that others shadow, policies whose removal changes nothing, namespaces
// without the default deny others have, and workloads open to every namespace or to the internet.
// Everything is judged from the analysed rules (which peers and ports each admits), never by
// analysing again without a policy.

import {
  ALL_CONNECTIONS,
  type ConnectionSet,
  type ConnectivityAnalysis,
  type ConnectivityInput,
  formatConnectionSet,
  type LabelSelector,
  NO_CONNECTIONS,
  unionConnectionSets,
} from "../../networking/index.js";
import { type Bits, emptyBits, fullBits, intersects, isSubset, setBit } from "./bitset.js";
import { type Admission, coveredFor, ingressPortsOn, portsOpenToAll } from "./coverage.js";
import { buildModel, DIRECTIONS, type LintModel, type PolicyView, type RuleView } from "./model.js";
import { hasPorts } from "./ports.js";
import { LINT_RULES, type LintId, type LintOptions, type LintWarning, silencer } from "./rules.js";

/**
 * Lints the NetworkPolicies of one analysis: a warning for each policy that selects no workload
 * (CW1001), rule shadowed by another (CW1002), policy whose removal changes no connection
 * (CW1003), namespace without the default deny that other namespaces have (CW1004), and workload
 * that any pod of any namespace (CW1005) or every address of 0.0.0.0/0 or ::/0 (CW1006) may
 * connect to. `input` is what the analysis was made from: the lint reads named ports' container
 * ports, `hostNetwork`, and the policies' own selectors from it. Warnings come in id order, then
 * in input order. Silenced ones (`options.ignore`) are left out.
 *
 * @example
 * ```ts
 * import { formatLintWarnings, lintPolicies } from "clusterwire/connectivity";
 * import { analyzeConnectivity, fromYaml, type ConnectivityInput, type NetworkPolicy } from "clusterwire/networking";
 *
 * const policies = fromYaml(`
 * apiVersion: networking.k8s.io/v1
 * kind: NetworkPolicy
 * metadata: { name: old-api, namespace: shop }
 * spec: { podSelector: { matchLabels: { app: old-api } } }
 * `) as NetworkPolicy[];
 * const input: ConnectivityInput = {
 *   namespaces: [{ name: "shop" }],
 *   workloads: [{ namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } }],
 *   policies,
 * };
 * const warnings = lintPolicies(analyzeConnectivity(input), input, { ignore: { ids: ["CW1005"] } });
 * process.stdout.write(formatLintWarnings(warnings)); // warning CW1001 policy-selects-nothing: NetworkPolicy shop/old-api selects no workload: ...
 * ```
 */
export function lintPolicies(
  analysis: ConnectivityAnalysis,
  input: ConnectivityInput,
  options?: LintOptions,
): LintWarning[] {
  const silenced = silencer(options);
  const model = buildModel(analysis, input);
  const out: LintWarning[] = [];
  const add = (id: LintId, key: string, fields: Omit<LintWarning, "id" | "name" | "severity">): void => {
    if (silenced(id, key)) return;
    out.push({ id, name: LINT_RULES.find((r) => r.id === id)!.name, severity: "warning", ...fields });
  };

  for (const p of model.policies) {
    if (p.selects.length > 0) continue;
    add("CW1001", p.key, {
      message: `NetworkPolicy ${p.key} selects no workload: ${selectorText(p.object.spec?.podSelector)} matches none in namespace ${p.namespace}${
        model.workloadNamespaces.includes(p.namespace) ? "" : ", which has no workload at all"
      }`,
      policy: p.key,
      namespace: p.namespace,
    });
  }
  for (const w of shadowedRules(model)) add("CW1002", w.policy!, w);
  for (const w of redundantPolicies(model)) add("CW1003", w.policy!, w);
  for (const w of namespacesWithoutDefaultDeny(model)) add("CW1004", w.namespace!, w);
  for (const w of exposedWorkloads(model)) add(w.id, w.workload!, w.fields);
  return out;
}

type Fields = Omit<LintWarning, "id" | "name" | "severity">;

const ruleText = (r: RuleView): string => `${r.direction} rule ${r.index}`;

// CW1002. A rule R of policy P is shadowed by a rule S when, for every workload P selects, S
// admits every peer and port R admits. S is another rule of P in the same direction, or a rule of
// a policy Q that isolates every workload P selects in that direction. When S shadows R and R
// shadows S too, only the later of the two is reported.
function shadowedRules(model: LintModel): Fields[] {
  const out: Fields[] = [];
  const selectBits = model.policies.map((p) => bitsOf(model.size, p.selects));
  for (const p of model.policies) {
    if (p.selects.length === 0) continue;
    for (const direction of DIRECTIONS) {
      const rules = p[direction];
      if (rules === null || rules.length === 0) continue;
      // Policies that isolate every workload p selects, in input order.
      const others = model.isolating[direction][p.selects[0]!]!.filter(
        (q) => q !== p.position && isSubset(selectBits[p.position]!, selectBits[q]!),
      );
      for (const r of rules) {
        // A rule that admits nothing is no rule's shadow.
        if (coveredFor(model, [r], [], direction, p.selects)) continue;
        let found: { s: RuleView; sp: PolicyView; equal: boolean } | undefined;
        for (const candidate of [p, ...others.map((q) => model.policies[q]!)]) {
          for (const s of candidate[direction]!) {
            if (s === r || !coveredFor(model, [r], [s], direction, p.selects)) continue;
            // r shadows s back (in s's policy's terms)? Then the later one is reported.
            const back =
              (candidate === p || isSubset(selectBits[candidate.position]!, selectBits[p.position]!)) &&
              coveredFor(model, [s], [r], direction, candidate.selects);
            const later = s.policy > r.policy || (s.policy === r.policy && s.index > r.index);
            if (back && later) continue;
            found = { s, sp: candidate, equal: back };
            break;
          }
          if (found !== undefined) break;
        }
        if (found === undefined) continue;
        const by = found.sp === p ? ruleText(found.s) : `${ruleText(found.s)} of ${found.sp.key}`;
        out.push({
          message: `${ruleText(r)} of NetworkPolicy ${p.key} is shadowed by ${by}: ${
            found.equal
              ? "the two admit the same peers and ports"
              : "every peer and port it admits, that rule admits too"
          }${found.sp === p ? "" : `, for every workload ${p.key} selects`}`,
          policy: p.key,
          namespace: p.namespace,
          rule: { direction, index: r.index },
          shadowedBy: { policy: found.sp.key, rule: { direction, index: found.s.index } },
        });
      }
    }
  }
  return out;
}

// CW1003. A policy P is redundant when, for every workload s it selects and each direction it
// isolates, the connections that direction allows s stay the same without P:
// - other policies isolate s too, and their rules together admit everything P's rules admit; or
// - no other policy isolates s, and P's rules admit everything (every peer, every port).
// Policies are judged from the last to the first, each without the later ones already found
// redundant, so that of two equal policies only the later is reported, and all reported ones can
// go together.
function redundantPolicies(model: LintModel): Fields[] {
  const reported = new Set<number>();
  const out: Fields[] = [];
  const signature = {
    ingress: model.isolating.ingress.map((list) => list.join(",")),
    egress: model.isolating.egress.map((list) => list.join(",")),
  };
  const everything: Admission = { peers: fullBits(model.size), ports: ALL_CONNECTIONS, named: [] };
  for (let i = model.policies.length - 1; i >= 0; i--) {
    const p = model.policies[i]!;
    if (p.selects.length === 0) continue;
    const helpers = new Set<string>();
    let redundant = true;
    let isolates = false;
    for (const direction of DIRECTIONS) {
      const rules = p[direction];
      if (rules === null) continue;
      isolates = true;
      const groups = new Map<string, number[]>();
      for (const s of p.selects) {
        const key = signature[direction][s]!;
        const g = groups.get(key);
        if (g === undefined) groups.set(key, [s]);
        else g.push(s);
      }
      for (const subjects of groups.values()) {
        const all = model.isolating[direction][subjects[0]!]!.filter((q) => q !== p.position);
        const others = all.filter((q) => !reported.has(q));
        let ok: boolean;
        if (all.length === 0) ok = coveredFor(model, [everything], rules, direction, subjects);
        else if (others.length === 0) ok = false;
        else {
          const family = others.flatMap((q) => model.policies[q]![direction]!);
          ok = coveredFor(model, rules, family, direction, subjects);
          if (ok) for (const q of others) helpers.add(model.policies[q]!.key);
        }
        if (!ok) {
          redundant = false;
          break;
        }
      }
      if (!redundant) break;
    }
    if (!redundant || !isolates) continue;
    reported.add(p.position);
    const directions = DIRECTIONS.filter((d) => p[d] !== null).join(" and ");
    const why =
      helpers.size === 0
        ? `it admits every peer on every port, and no other policy isolates the workloads it selects for ${directions}`
        : `for every workload it selects, ${listText([...helpers], 4)} isolate${helpers.size === 1 ? "s" : ""} it for ${directions} too, and already admit${helpers.size === 1 ? "s" : ""} everything it admits`;
    out.push({
      message: `removing NetworkPolicy ${p.key} would change no connection: ${why}`,
      policy: p.key,
      namespace: p.namespace,
    });
  }
  return out.reverse();
}

// CW1004. A default deny for a direction is a policy with an empty podSelector that isolates
// that direction and has no rule for it. When some namespace has one, each namespace with
// workloads (hostNetwork ones aside, which no policy isolates) should have a policy with an empty
// podSelector isolating that direction: a default deny, or one that allows some traffic.
function namespacesWithoutDefaultDeny(model: LintModel): Fields[] {
  const out: Fields[] = [];
  const namespaces = [...new Set(model.workloadNamespaces.filter((_, i) => !model.hostNetwork[i]))].sort();
  for (const direction of DIRECTIONS) {
    const denying = new Set<string>();
    const covering = new Set<string>();
    for (const p of model.policies) {
      if (p[direction] === null || !selectsEverything(p.object.spec?.podSelector)) continue;
      covering.add(p.namespace);
      if (p[direction]!.length === 0) denying.add(p.namespace);
    }
    if (denying.size === 0) continue;
    for (const ns of namespaces) {
      if (covering.has(ns)) continue;
      const examples = [...denying].sort();
      out.push({
        message: `namespace ${ns} has no default-deny policy for ${direction} (podSelector: {} with no ${direction} rules), while ${listText(examples, 3)} ${
          examples.length === 1 ? "has one" : "have one"
        }`,
        namespace: ns,
        direction,
      });
    }
  }
  return out;
}

// CW1005 and CW1006, per workload: what its ingress lets in from every pod of every namespace,
// and from every address of a family.
function exposedWorkloads(model: LintModel): { id: LintId; workload: string; fields: Fields }[] {
  const out: { id: LintId; workload: string; fields: Fields }[] = [];
  const isolated = model.isolating.ingress.filter((list) => list.length > 0).length;
  const cw1006: { workload: string; fields: Fields }[] = [];
  for (let w = 0; w < model.workloadCount; w++) {
    if (model.hostNetwork[w]) continue;
    const key = model.workloadKeys[w]!;
    const namespace = model.workloadNamespaces[w]!;
    const isolators = model.isolating.ingress[w]!;
    if (isolators.length === 0) {
      if (isolated === 0) continue;
      const others = `while ${isolated} other workload${isolated === 1 ? " is" : "s are"} isolated`;
      out.push({
        id: "CW1005",
        workload: key,
        fields: {
          message: `any pod in any namespace may connect to ${key}, on every port, as far as its ingress goes: no NetworkPolicy isolates it for ingress, ${others}`,
          workload: key,
          namespace,
          connections: ALL_CONNECTIONS,
        },
      });
      cw1006.push({
        workload: key,
        fields: {
          message: `every address outside the cluster (0.0.0.0/0 and ::/0) may connect to ${key}, on every port: no NetworkPolicy isolates it for ingress, ${others}`,
          workload: key,
          namespace,
          connections: ALL_CONNECTIONS,
        },
      });
      continue;
    }
    const rules = isolators.flatMap((q) => model.policies[q]!.ingress!);

    // CW1005: rules that admit every pod of every namespace.
    let open: ConnectionSet = NO_CONNECTIONS;
    let first: { rule: RuleView; how: string } | undefined;
    for (const r of rules) {
      const how = allNamespacesPeer(model, r);
      if (how === undefined) continue;
      const ports = ingressPortsOn(model, r, w);
      if (!hasPorts(ports)) continue;
      open = unionConnectionSets(open, ports);
      first ??= { rule: r, how };
    }
    if (first !== undefined) {
      const policy = model.policies[first.rule.policy]!.key;
      out.push({
        id: "CW1005",
        workload: key,
        fields: {
          message: `any pod in any namespace may connect to ${key} on ${formatConnectionSet(open)}, as far as its ingress goes: ingress rule ${first.rule.index} of NetworkPolicy ${policy} admits every pod of every namespace (${first.how})`,
          policy,
          rule: { direction: "ingress", index: first.rule.index },
          workload: key,
          namespace,
          connections: open,
        },
      });
    }

    // CW1006: ports on which every segment of a family may connect.
    const parts: string[] = [];
    let all: ConnectionSet = NO_CONNECTIONS;
    for (const [family, peers, cidr] of [
      [4, model.ipv4, "0.0.0.0/0"],
      [6, model.ipv6, "::/0"],
    ] as const) {
      const ports = portsOpenToAll(model, peers, rules, w);
      if (!hasPorts(ports)) continue;
      all = unionConnectionSets(all, ports);
      const by = isolators
        .filter((q) =>
          model.policies[q]!.ingress!.some(
            (r) => r.anyPeer || intersects(r.peers, family === 4 ? model.ipv4 : model.ipv6),
          ),
        )
        .map((q) => model.policies[q]!.key);
      parts.push(`every address of ${cidr} on ${formatConnectionSet(ports)} (through ${listText(by, 3)})`);
    }
    if (parts.length > 0) {
      cw1006.push({
        workload: key,
        fields: {
          message: `${parts.join(", and ")} may connect to ${key}`,
          workload: key,
          namespace,
          connections: all,
        },
      });
    }
  }
  return [...out, ...cw1006.map((w) => ({ id: "CW1006" as const, ...w }))];
}

/** How a rule admits every pod of every namespace, or undefined when it does not. */
function allNamespacesPeer(model: LintModel, r: RuleView): string | undefined {
  if (r.anyPeer) return "it lists no peers";
  const rule = model.policies[r.policy]!.object.spec?.ingress[r.index];
  for (const peer of rule?.from ?? []) {
    if (peer.ipBlock !== undefined || peer.namespaceSelector === undefined) continue;
    if (!selectsEverything(peer.namespaceSelector)) continue;
    if (peer.podSelector === undefined) return "namespaceSelector: {}";
    if (selectsEverything(peer.podSelector)) return "namespaceSelector: {} and podSelector: {}";
  }
  return undefined;
}

function selectsEverything(selector: LabelSelector | undefined): boolean {
  return (
    selector === undefined || (Object.keys(selector.matchLabels).length === 0 && selector.matchExpressions.length === 0)
  );
}

/** A label selector as kubectl writes one: `app=web,tier in (a,b)`; `{}` when it is empty. */
function selectorText(selector: LabelSelector | undefined): string {
  if (selector === undefined || selectsEverything(selector)) return "podSelector {}";
  const parts = Object.entries(selector.matchLabels)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  for (const e of selector.matchExpressions) {
    const op = e.operator;
    if (op === "Exists") parts.push(e.key);
    else if (op === "DoesNotExist") parts.push(`!${e.key}`);
    else parts.push(`${e.key} ${op === "In" ? "in" : op === "NotIn" ? "notin" : op} (${e.values.join(",")})`);
  }
  return `podSelector ${parts.join(",")}`;
}

function bitsOf(size: number, list: readonly number[]): Bits {
  const bits = emptyBits(size);
  for (const i of list) setBit(bits, i);
  return bits;
}

/** `a, b and c`, or the first `max` and how many more. */
function listText(items: readonly string[], max: number): string {
  if (items.length > max) return `${items.slice(0, max).join(", ")} and ${items.length - max} more`;
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
