// Whether some rules admit everything another rule admits, judged for one selected workload (the
// subject): for each peer, the connections the rule admits to or from it must lie within those
// the other rules admit together. Ingress ports are the subject's (a named port resolves on the
// subject itself, for every peer, addresses included); egress ports are the peer's (a named port
// resolves on each destination workload, and towards addresses matches nothing).

import {
  ALL_CONNECTIONS,
  type ConnectionSet,
  isEmptyConnectionSet,
  subtractConnectionSets,
  unionConnectionSets,
} from "../../networking/index.js";
import { type Bits, andNot, emptyBits, hasBit, isEmptyBits, isSubset, members, orInto, setBit } from "./bitset.js";
import type { Direction, LintModel } from "./model.js";
import { atomsToSet, hasPorts, holdsAtom, holdsPort, type NamedPort, portAtoms, resolveNamedPorts } from "./ports.js";

/** What a rule admits: peers, numbered ports, named ports. */
export interface Admission {
  readonly peers: Bits;
  readonly ports: ConnectionSet;
  readonly named: readonly NamedPort[];
}

/** The ports a rule admits for every one of its peers, with `subject` selected. */
function uniformPorts(model: LintModel, rule: Admission, direction: Direction, subject: number): ConnectionSet {
  if (direction === "egress" || rule.named.length === 0) return rule.ports;
  const named = resolveNamedPorts(rule.named, model.workloadPorts[subject]);
  return hasPorts(named) ? unionConnectionSets(rule.ports, named) : rule.ports;
}

/** The ports an egress rule's named ports admit towards workload `peer`. */
function namedTowards(model: LintModel, rule: Admission, peer: number): ConnectionSet | null {
  if (rule.named.length === 0 || peer >= model.workloadCount) return null;
  const set = resolveNamedPorts(rule.named, model.workloadPorts[peer]);
  return hasPorts(set) ? set : null;
}

/**
 * The peers for which `target` admits a connection that none of `family` admits, with `subject`
 * the selected workload whose traffic it is (the subject itself is not left out: see
 * {@link coveredFor}).
 */
export function uncovered(
  model: LintModel,
  target: Admission,
  family: readonly Admission[],
  direction: Direction,
  subject: number,
): Bits {
  const out = emptyBits(model.size);
  if (isEmptyBits(target.peers)) return out;
  const targetPorts = uniformPorts(model, target, direction, subject);
  const familyPorts = family.map((f) => uniformPorts(model, f, direction, subject));
  const familyNamed = direction === "egress" && family.some((f) => f.named.length > 0);

  if (hasPorts(targetPorts)) {
    for (const atom of portAtoms(targetPorts, familyPorts)) {
      const covered = emptyBits(model.size);
      familyPorts.forEach((ports, i) => {
        if (holdsPort(ports, atom.protocol, atom.from)) orInto(covered, family[i]!.peers);
      });
      const rest = andNot(target.peers, covered);
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
  return out;
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
  const named =
    direction === "ingress" && (targets.some((t) => t.named.length > 0) || family.some((f) => f.named.length > 0));
  for (const group of groupByPorts(model, subjects, named)) {
    const missing = emptyBits(model.size);
    for (const t of targets) orInto(missing, uncovered(model, t, family, direction, group[0]!));
    if (isEmptyBits(missing)) continue;
    // Only a subject's own traffic may be missing, so the group must be that one subject.
    if (group.length !== 1 || !isSubset(missing, single(model.size, group[0]!))) return false;
  }
  return true;
}

function single(size: number, i: number): Bits {
  const bits = emptyBits(size);
  setBit(bits, i);
  return bits;
}

/** The subjects, in groups whose container ports are alike (one group when ports don't matter). */
function groupByPorts(model: LintModel, subjects: readonly number[], byPorts: boolean): number[][] {
  if (!byPorts) return subjects.length === 0 ? [] : [[...subjects]];
  const groups = new Map<string, number[]>();
  for (const s of subjects) {
    const key = JSON.stringify(model.workloadPorts[s] ?? []);
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
  const familyPorts = family.map((f) => uniformPorts(model, f, "ingress", subject));
  const open = portAtoms(ALL_CONNECTIONS, familyPorts).filter((atom) => {
    const covered = emptyBits(model.size);
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
