// Judging expectations against a connectivity analysis (docs/connectivity.md, "Expectations that
// fail CI").
//
// Each end of an allow or deny expectation becomes a list of peers: workloads (matched by their
// key, and by their labels from the input), and, for addresses, the analysis's segments that
// overlap the expectation's block (less its `except` blocks). Every rule treats all addresses of
// a segment alike, so one address of each overlap stands for it. Each pair (source, destination)
// is then judged with the analysis's `between`, and each failing pair listed (up to a limit) is
// explained with its `explain`.

import {
  ALL_CONNECTIONS,
  type AddressRange,
  type ClusterPodPort,
  type ConnectionSet,
  type ConnectivityAnalysis,
  type ConnectivityPeer,
  NO_CONNECTIONS,
  PROTOCOLS,
  type PortRange,
  type Protocol,
  intersectConnectionSets,
  subtractConnectionSets,
  unionConnectionSets,
} from "../../networking/index.js";
import { type AddressSpan, cidrsOf, formatIp, mergeSpans, overlap, parseIp, subtractSpans } from "./addresses.js";
import { ExpectationFileError } from "./errors.js";
import type {
  CheckExpectationsOptions,
  Expectation,
  ExpectationFailure,
  ExpectationPosition,
  ExpectationProblem,
  ExpectationResult,
  ExpectedPort,
  IsolationExpectation,
  PeerPattern,
  ReachExpectation,
} from "./types.js";

/** How many failing pairs a result lists by default. */
export const DEFAULT_MAX_FAILURES = 10;

type WorkloadPeer = Extract<ConnectivityPeer, { type: "workload" }>;

/** One end of a pair: a workload, or the addresses of one segment that an expectation names. */
interface End {
  /** What the analysis's `between` and `explain` take: a workload key, or one address of the segment. */
  readonly key: string;
  readonly peer: ConnectivityPeer;
  /** Container ports, for named ports (none for addresses). */
  readonly ports: readonly ClusterPodPort[];
}

interface Workload extends End {
  readonly peer: WorkloadPeer;
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * Judges each expectation against an analysis, in order. A failing result lists the pairs that
 * broke it (at most `maxFailures`, default 10; `failed` counts them all), each with what is
 * allowed, what offends, and the deciding policies from `analysis.explain`.
 *
 * Throws {@link ExpectationFileError} (with every place at once) when a pattern matches no
 * workload, an `isolated` namespace has no workload, a named port is on no destination, or an
 * expectation leaves no pair to judge: a typo never passes silently.
 *
 * @example
 * ```ts
 * import { analyzeConnectivity, type ConnectivityInput } from "clusterwire/networking";
 * import { checkExpectations, formatExpectationResults, parseExpectations } from "clusterwire/connectivity";
 *
 * const input: ConnectivityInput = {
 *   namespaces: [{ name: "shop" }],
 *   workloads: [
 *     { namespace: "shop", kind: "Deployment", name: "web", labels: { app: "web" } },
 *     { namespace: "shop", kind: "Deployment", name: "api", labels: { app: "api" } },
 *   ],
 *   policies: [],
 * };
 * const expectations = parseExpectations("expectations:\n  - deny: {from: shop/web, to: shop/api, port: 8080}\n");
 * const results = checkExpectations(analyzeConnectivity(input), expectations, { input });
 * console.log(results[0]?.passed); // false: no policy isolates the api
 * console.log(formatExpectationResults(results));
 * ```
 */
export function checkExpectations(
  analysis: ConnectivityAnalysis,
  expectations: readonly Expectation[],
  options: CheckExpectationsOptions,
): ExpectationResult[] {
  const judge = new Judge(analysis, options);
  const results = expectations.map((e) => judge.check(e));
  if (judge.problems.length > 0) {
    const file = judge.problems[0]?.file ?? expectations[0]?.at.file ?? "expectations.yaml";
    throw new ExpectationFileError(file, judge.problems);
  }
  return results;
}

class Judge {
  readonly problems: ExpectationProblem[] = [];
  readonly #analysis: ConnectivityAnalysis;
  readonly #workloads: readonly Workload[];
  /** The analysis's segments, as numbers. */
  readonly #segments: readonly AddressSpan[];
  readonly #maxFailures: number;

  constructor(analysis: ConnectivityAnalysis, options: CheckExpectationsOptions) {
    this.#analysis = analysis;
    this.#maxFailures = Math.max(0, options.maxFailures ?? DEFAULT_MAX_FAILURES);
    const byKey = new Map(options.input.workloads.map((w) => [`${w.namespace}/${w.kind}/${w.name}`, w]));
    this.#workloads = analysis.workloads.map((peer) => {
      const w = byKey.get(peer.key);
      return { key: peer.key, peer, labels: w?.labels ?? {}, ports: w?.ports ?? [] };
    });
    this.#segments = analysis.segments.map(spanOf);
  }

  problem(at: ExpectationPosition, message: string): void {
    this.problems.push({ file: at.file, line: at.line, column: at.column, path: at.path, message });
  }

  check(e: Expectation): ExpectationResult {
    const result = new Tally(e, this.#maxFailures);
    const pairs = e.kind === "isolated" ? this.isolatedPairs(e) : this.reachPairs(e);
    if (pairs === undefined) return result.done();
    let judged = 0;
    // What is wanted depends on the destination only through a named port: worked out once per
    // expectation, or once per destination.
    const fixed =
      e.kind === "isolated" ? ALL_CONNECTIONS : e.port.type === "named" ? undefined : wantedConnections(e.port, []);
    const perDestination = new Map<string, ConnectionSet | undefined>();
    const wantedFor = (to: End): ConnectionSet | undefined => {
      if (fixed !== undefined) return fixed;
      if (!perDestination.has(to.key)) perDestination.set(to.key, this.wanted(e, to));
      return perDestination.get(to.key);
    };
    // allow with a port: every wanted port allowed; allow without one: some; deny and isolated: none.
    const every = e.kind === "allow" && e.port.type !== "any";
    pairs((from, to) => {
      const wanted = wantedFor(to);
      if (wanted === undefined) return;
      judged++;
      const allowed = this.#analysis.between(from.key, to.key);
      const holds = every ? covers(allowed, wanted) : meets(allowed, wanted) === (e.kind === "allow");
      if (holds) {
        result.pass();
        return;
      }
      result.fail(() => ({
        from: from.peer,
        to: to.peer,
        allowed,
        offending:
          e.kind !== "allow"
            ? intersectConnectionSets(allowed, wanted)
            : every
              ? subtractConnectionSets(wanted, allowed)
              : wanted,
        explanation: this.#analysis.explain(from.key, to.key),
      }));
    });
    if (judged === 0) {
      if (e.kind !== "isolated" && e.port.type === "named" && hasPairs(pairs)) {
        this.problem(e.portAt, `no destination workload has a port named ${JSON.stringify(e.port.name)}`);
      } else {
        this.problem(e.at, "no pair is left to judge (a workload paired with itself, or all left out by except)");
      }
    }
    return result.done();
  }

  /** The connections judged for a pair; undefined when a named port is not on the destination. */
  wanted(e: Expectation, to: End): ConnectionSet | undefined {
    if (e.kind === "isolated") return ALL_CONNECTIONS;
    return wantedConnections(e.port, to.ports);
  }

  /** The pairs an allow or deny expectation judges; undefined (with problems) when a pattern matches nothing. */
  reachPairs(e: ReachExpectation): Pairs | undefined {
    const from = this.resolve(e.from);
    const to = this.resolve(e.to);
    const except = this.resolve(e.except);
    if (from === undefined || to === undefined || except === undefined) return undefined;
    const leftOut = new Set(except.workloads.map((w) => w.peer.key));
    const fromWorkloads = from.workloads.filter((w) => !leftOut.has(w.peer.key));
    const toWorkloads = to.workloads.filter((w) => !leftOut.has(w.peer.key));
    const fromExternal = this.externalEnds(subtractSpans(from.spans, except.spans));
    const toExternal = this.externalEnds(subtractSpans(to.spans, except.spans));
    return (visit) => {
      for (const f of fromWorkloads) {
        for (const t of toWorkloads) if (t !== f && visit(f, t) === false) return;
        for (const t of toExternal) if (visit(f, t) === false) return;
      }
      for (const f of fromExternal) for (const t of toWorkloads) if (visit(f, t) === false) return;
    };
  }

  /** The pairs an isolated expectation judges, both ways; undefined (with problems) when a namespace has no workload. */
  isolatedPairs(e: IsolationExpectation): Pairs | undefined {
    const inNamespace = (name: string) => this.#workloads.filter((w) => w.peer.namespace === name);
    const own = inNamespace(e.namespace.name);
    if (own.length === 0) this.problem(e.namespace.at, `no workload is in namespace ${e.namespace.name}`);
    let others: Workload[];
    if (e.from.length === 0) {
      others = this.#workloads.filter((w) => w.peer.namespace !== e.namespace.name);
      if (others.length === 0) this.problem(e.at, `no workload is outside namespace ${e.namespace.name}`);
    } else {
      const names = new Set<string>();
      for (const ref of e.from) {
        if (inNamespace(ref.name).length === 0) this.problem(ref.at, `no workload is in namespace ${ref.name}`);
        names.add(ref.name);
      }
      others = this.#workloads.filter((w) => names.has(w.peer.namespace));
    }
    if (own.length === 0 || others.length === 0) return undefined;
    return (visit) => {
      for (const a of own) for (const b of others) if (visit(a, b) === false) return;
      for (const b of others) for (const a of own) if (visit(b, a) === false) return;
    };
  }

  /** The workloads and address spans a list of patterns names; undefined when one matches nothing. */
  resolve(
    patterns: readonly PeerPattern[],
  ): { readonly workloads: Workload[]; readonly spans: AddressSpan[] } | undefined {
    const keys = new Set<string>();
    const spans: AddressSpan[] = [];
    let ok = true;
    for (const p of patterns) {
      if (p.type === "addresses") {
        spans.push(spanOf(p.range));
        continue;
      }
      const matches = this.#workloads.filter((w) => matchesWorkload(p, w));
      if (matches.length === 0) {
        this.problem(p.at, `${p.text} matches no workload`);
        ok = false;
      }
      for (const w of matches) keys.add(w.peer.key);
    }
    if (!ok) return undefined;
    return { workloads: this.#workloads.filter((w) => keys.has(w.peer.key)), spans: mergeSpans(spans) };
  }

  /** For each segment that overlaps `spans`, one end: the overlapping addresses. */
  externalEnds(spans: readonly AddressSpan[]): End[] {
    if (spans.length === 0) return [];
    const out: End[] = [];
    for (const segment of this.#segments) {
      const pieces = spans.flatMap((s) => overlap(s, segment) ?? []);
      const first = pieces[0];
      if (first === undefined) continue;
      const ranges: AddressRange[] = pieces.map((p) => ({
        family: p.family,
        first: formatIp(p.family, p.first),
        last: formatIp(p.family, p.last),
        cidrs: cidrsOf(p),
      }));
      const peer: ConnectivityPeer = { type: "external", ranges, key: ranges.flatMap((r) => r.cidrs).join(",") };
      out.push({ key: formatIp(first.family, first.first), peer, ports: [] });
    }
    return out;
  }
}

/** Visits an expectation's pairs in order, each time it is called, until the visitor returns false. */
type Pairs = (visit: (from: End, to: End) => boolean | undefined) => void;

/** Counts passing and failing pairs, keeping the first failures. */
class Tally {
  readonly #expectation: Expectation;
  readonly #max: number;
  readonly #failures: ExpectationFailure[] = [];
  #checked = 0;
  #failed = 0;

  constructor(expectation: Expectation, max: number) {
    this.#expectation = expectation;
    this.#max = max;
  }

  pass(): void {
    this.#checked++;
  }

  fail(describe: () => ExpectationFailure): void {
    this.#checked++;
    this.#failed++;
    if (this.#failures.length < this.#max) this.#failures.push(describe());
  }

  done(): ExpectationResult {
    return {
      expectation: this.#expectation,
      passed: this.#failed === 0,
      checked: this.#checked,
      failed: this.#failed,
      failures: this.#failures,
    };
  }
}

/** Whether there is any pair. */
function hasPairs(pairs: Pairs): boolean {
  let any = false;
  pairs(() => {
    any = true;
    return false;
  });
  return any;
}

/** Whether two connection sets share a connection (their ranges are sorted and disjoint). */
export function meets(a: ConnectionSet, b: ConnectionSet): boolean {
  for (const p of PROTOCOLS) {
    const x = a[p];
    const y = b[p];
    let i = 0;
    let j = 0;
    while (i < x.length && j < y.length) {
      const r = x[i] as PortRange;
      const s = y[j] as PortRange;
      if (r.to < s.from) i++;
      else if (s.to < r.from) j++;
      else return true;
    }
  }
  return false;
}

/** Whether `a` holds every connection of `wanted` (merged ranges: each wanted range lies in one of a's). */
export function covers(a: ConnectionSet, wanted: ConnectionSet): boolean {
  for (const p of PROTOCOLS) {
    const x = a[p];
    let i = 0;
    for (const w of wanted[p]) {
      while (i < x.length && (x[i] as PortRange).to < w.from) i++;
      const r = x[i];
      if (r === undefined || r.from > w.from || r.to < w.to) return false;
    }
  }
  return true;
}

/** The connections an expected port stands for, towards a destination with these container ports. */
export function wantedConnections(port: ExpectedPort, ports: readonly ClusterPodPort[]): ConnectionSet | undefined {
  if (port.type === "any") return port.protocol === undefined ? ALL_CONNECTIONS : only(port.protocol, 1, 65535);
  if (port.type === "range") return only(port.protocol, port.from, port.to);
  const named = ports.filter(
    (p) => p.name === port.name && (port.protocol === undefined || (p.protocol ?? "TCP") === port.protocol),
  );
  if (named.length === 0) return undefined;
  let out: ConnectionSet = NO_CONNECTIONS;
  for (const p of named) out = unionConnectionSets(out, only(p.protocol ?? "TCP", p.containerPort, p.containerPort));
  return out;
}

function only(protocol: Protocol, from: number, to: number): ConnectionSet {
  return { TCP: [], UDP: [], SCTP: [], [protocol]: [{ from, to }] };
}

function matchesWorkload(p: Extract<PeerPattern, { type: "workloads" }>, w: Workload): boolean {
  if (!glob(p.namespace).test(w.peer.namespace)) return false;
  if (!glob(p.kind, true).test(w.peer.kind)) return false;
  if (!glob(p.name).test(w.peer.name)) return false;
  for (const [k, v] of Object.entries(p.labels)) if (w.labels[k] !== v) return false;
  return true;
}

const globs = new Map<string, RegExp>();

/** `*` matches any run of characters; everything else itself. */
function glob(pattern: string, ignoreCase = false): RegExp {
  const key = `${ignoreCase ? "i" : "s"}${pattern}`;
  let re = globs.get(key);
  if (re === undefined) {
    const body = pattern
      .split("*")
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    re = new RegExp(`^${body}$`, ignoreCase ? "is" : "s");
    globs.set(key, re);
  }
  return re;
}

function spanOf(range: AddressRange): AddressSpan {
  const first = parseIp(range.first);
  const last = parseIp(range.last);
  if (typeof first === "string" || typeof last === "string") {
    throw new TypeError(`the analysis has an address range that is not one: ${range.first}-${range.last}`);
  }
  return { family: range.family, first: first.value, last: last.value };
}
