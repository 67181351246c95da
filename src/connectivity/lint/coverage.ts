// Whether some rules admit everything another rule admits, judged for one selected workload (the
// subject): for each peer, the connections the rule admits to or from it must lie within those
// the other rules admit together. Ingress ports are the subject's (a named port resolves on the
// subject itself, for every peer, addresses included); egress ports are the peer's (a named port
// resolves on each destination workload, and towards addresses matches nothing).

import {
  ALL_CONNECTIONS,
  type ConnectionSet,
  isEmptyConnectionSet,
  NO_CONNECTIONS,
  subtractConnectionSets,
  unionConnectionSets,
} from "../../networking/index.js";
import {
  andNotInto,
  type Bits,
  clearBits,
  hasBit,
  isEmptyBits,
  isSubset,
  members,
  onlyMember,
  orInto,
  setBit,
} from "./bitset.js";
import type { Direction, LintModel } from "./model.js";
import { atomsToSet, hasPorts, holdsAtom, holdsPort, type NamedPort, portAtoms, resolveNamedPorts } from "./ports.js";

/** What a rule admits: peers, numbered ports, named ports. */
export interface Admission {
  readonly peers: Bits;
  readonly ports: ConnectionSet;
  readonly named: readonly NamedPort[];
}

// Named ports resolved once per rule and workload ports (ingress: on the subject) or per rule and
// destination (egress), as the same pairs come up again and again.
const resolvedIngress = new WeakMap<Admission, Map<string, ConnectionSet>>();
const resolvedEgress = new WeakMap<Admission, Map<number, ConnectionSet | null>>();

/** The ports a rule admits for every one of its peers, with `subject` selected. */
function uniformPorts(model: LintModel, rule: Admission, direction: Direction, subject: number): ConnectionSet {
  if (direction === "egress" || rule.named.length === 0) return rule.ports;
  let memo = resolvedIngress.get(rule);
  if (memo === undefined) {
    memo = new Map();
    resolvedIngress.set(rule, memo);
  }
  const key = model.portKeys[subject]!;
  let set = memo.get(key);
  if (set === undefined) {
    const named = resolveNamedPorts(rule.named, model.workloadPorts[subject]);
    set = hasPorts(named) ? unionConnectionSets(rule.ports, named) : rule.ports;
    memo.set(key, set);
  }
  return set;
}

/** The ports an egress rule's named ports admit towards workload `peer`. */
function namedTowards(model: LintModel, rule: Admission, peer: number): ConnectionSet | null {
  if (rule.named.length === 0 || peer >= model.workloadCount) return null;
  let memo = resolvedEgress.get(rule);
  if (memo === undefined) {
    memo = new Map();
    resolvedEgress.set(rule, memo);
  }
  let set = memo.get(peer);
  if (set === undefined) {
    const resolved = resolveNamedPorts(rule.named, model.workloadPorts[peer]);
    set = hasPorts(resolved) ? resolved : null;
    memo.set(peer, set);
  }
  return set;
}

/**
 * The peers for which `target` admits a connection that none of `family` admits, with `subject`
 * the selected workload whose traffic it is, added to `out` (the subject itself is not left out:
 * see {@link coveredFor}).
 */
export function uncovered(
  model: LintModel,
  target: Admission,
  family: readonly Admission[],
  direction: Direction,
  subject: number,
  out: Bits,
): void {
  if (isEmptyBits(target.peers)) return;
  const targetPorts = uniformPorts(model, target, direction, subject);
  const familyPorts = family.map((f) => uniformPorts(model, f, direction, subject));
  const familyNamed = direction === "egress" && family.some((f) => f.named.length > 0);
  const [covered, rest] = model.scratch;

  if (hasPorts(targetPorts)) {
    for (const atom of portAtoms(targetPorts, familyPorts)) {
      clearBits(covered);
      familyPorts.forEach((ports, i) => {
        if (holdsPort(ports, atom.protocol, atom.from)) orInto(covered, family[i]!.peers);
      });
      andNotInto(rest, target.peers, covered);
      if (isEmptyBits(rest)) continue;
      if (!familyNamed) {
        orInto(out, rest);
        continue;
      }
      // Egress: the family's named ports may still admit the atom towards some workloads.
      for (const peer of members(rest)) {
        let named: ConnectionSet | null = null;
        for (const f of family) {
          if (!hasBit(f.peers, peer)) continue;
          const set = namedTowards(model, f, peer);
          if (set !== null) named = named === null ? set : unionConnectionSets(named, set);
        }
        if (named === null || !holdsAtom(named, atom)) setBit(out, peer);
      }
    }
  }

  if (direction === "egress" && target.named.length > 0) {
    for (const peer of members(target.peers)) {
      if (peer >= model.workloadCount) break;
      const wanted = namedTowards(model, target, peer);
      if (wanted === null) continue;
      let have: ConnectionSet | null = null;
      for (let i = 0; i < family.length; i++) {
        const f = family[i]!;
        if (!hasBit(f.peers, peer)) continue;
        const named = namedTowards(model, f, peer);
        const set = named === null ? familyPorts[i]! : unionConnectionSets(familyPorts[i]!, named);
        have = have === null ? set : unionConnectionSets(have, set);
      }
      if (have === null || !isEmptyConnectionSet(subtractConnectionSets(wanted, have))) setBit(out, peer);
    }
  }
}

/**
 * Whether, for each subject in `subjects`, `family` admits everything each target admits, a
 * subject's own traffic to or from itself aside (it is no connection of the analysis). Subjects
 * whose ports resolve the same named ports are judged once.
 */
export function coveredFor(
  model: LintModel,
  targets: readonly Admission[],
  family: readonly Admission[],
  direction: Direction,
  subjects: readonly number[],
): boolean {
  if (subjects.length === 0) return true;
  // First the peers no rule of the family admits at all: a target that admits one of them on
  // some port is not covered (the subject's own traffic aside), whatever the ports.
  // (Numbered ports admit every peer; named ones only where they resolve, judged below.)
  const [, , union, missing] = model.scratch;
  clearBits(union);
  for (const f of family) orInto(union, f.peers);
  for (const t of targets) {
    if (!hasPorts(t.ports)) continue;
    andNotInto(missing, t.peers, union);
    const lone = onlyMember(missing);
    if (lone === -2 || (lone >= 0 && (subjects.length > 1 || subjects[0] !== lone))) return false;
  }
  const named =
    direction === "ingress" && (targets.some((t) => t.named.length > 0) || family.some((f) => f.named.length > 0));
  for (const group of groupByPorts(model, subjects, named)) {
    clearBits(missing);
    for (const t of targets) uncovered(model, t, family, direction, group[0]!, missing);
    if (isEmptyBits(missing)) continue;
    // Only a subject's own traffic may be missing, so the group must be that one subject.
    if (group.length !== 1 || onlyMember(missing) !== group[0]) return false;
  }
  return true;
}

/** The subjects, in groups whose container ports are alike (one group when ports don't matter). */
function groupByPorts(model: LintModel, subjects: readonly number[], byPorts: boolean): number[][] {
  if (!byPorts) return [[...subjects]];
  const groups = new Map<string, number[]>();
  for (const s of subjects) {
    const key = model.portKeys[s]!;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [s]);
    else g.push(s);
  }
  return [...groups.values()];
}

/**
 * The ingress ports on which `family` (rules isolating `subject`) admits every peer in `peers`:
 * the connections all of them may open to the subject.
 */
export function portsOpenToAll(
  model: LintModel,
  peers: Bits,
  family: readonly Admission[],
  subject: number,
): ConnectionSet {
  const [covered] = model.scratch;
  clearBits(covered);
  for (const f of family) orInto(covered, f.peers);
  if (!isSubset(peers, covered)) return NO_CONNECTIONS;
  const familyPorts = family.map((f) => uniformPorts(model, f, "ingress", subject));
  const open = portAtoms(ALL_CONNECTIONS, familyPorts).filter((atom) => {
    clearBits(covered);
    familyPorts.forEach((ports, i) => {
      if (holdsPort(ports, atom.protocol, atom.from)) orInto(covered, family[i]!.peers);
    });
    return isSubset(peers, covered);
  });
  return atomsToSet(open);
}

/** The ingress ports a rule admits on `subject`. */
export function ingressPortsOn(model: LintModel, rule: Admission, subject: number): ConnectionSet {
  return uniformPorts(model, rule, "ingress", subject);
}
