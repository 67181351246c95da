// Truth matrices: which pod may reach which at one protocol and port, as
// bit rows, and the port sets a query needs (the engine builds them).

import { hasBit, orInto, popcount32, setBit, type Bits } from "../bitset.js";
import type { SkippedObject } from "../types.js";
import type { Cell, Protocol, TruthMatrix, TruthTable, TruthTableResult } from "./types.js";
import type { Pod, Rule } from "./compiled.js";

// ------------------------------------------------------------------ matrices

/** A table as packed rows: bit `to` of `row(from)` is set when the pair is allowed. */
export interface PackedRows {
  readonly pods: readonly string[];
  row(from: number): Uint32Array;
}

export class Matrix implements TruthMatrix, PackedRows {
  readonly pods: readonly string[];
  readonly protocol: Protocol;
  readonly port: number;
  readonly skipped: readonly SkippedObject[];
  readonly #words: number;
  readonly #egress: Uint32Array;
  readonly #ingress: Uint32Array;

  constructor(
    pods: readonly string[],
    protocol: Protocol,
    port: number,
    words: number,
    egress: Uint32Array,
    ingress: Uint32Array,
    skipped: readonly SkippedObject[],
  ) {
    this.pods = pods;
    this.protocol = protocol;
    this.port = port;
    this.skipped = skipped;
    this.#words = words;
    this.#egress = egress;
    this.#ingress = ingress;
  }

  #check(from: number, to: number): number {
    const n = this.pods.length;
    if (!Number.isInteger(from) || from < 0 || from >= n)
      throw new RangeError(`from: ${from} is not a pod index below ${n}`);
    if (!Number.isInteger(to) || to < 0 || to >= n) throw new RangeError(`to: ${to} is not a pod index below ${n}`);
    return from * this.#words + (to >>> 5);
  }

  allowed(from: number, to: number): boolean {
    const w = this.#check(from, to);
    return (((this.#egress[w]! & this.#ingress[w]!) >>> (to & 31)) & 1) !== 0;
  }

  egressAllowed(from: number, to: number): boolean {
    return ((this.#egress[this.#check(from, to)]! >>> (to & 31)) & 1) !== 0;
  }

  ingressAllowed(from: number, to: number): boolean {
    return ((this.#ingress[this.#check(from, to)]! >>> (to & 31)) & 1) !== 0;
  }

  countAllowed(): number {
    let c = 0;
    const e = this.#egress;
    const i = this.#ingress;
    for (let w = 0; w < e.length; w++) c += popcount32(e[w]! & i[w]!);
    return c;
  }

  /** Row `from` as packed words (bit `to`), for renderers. */
  row(from: number): Uint32Array {
    const words = this.#words;
    const out = new Uint32Array(words);
    for (let w = 0; w < words; w++) out[w] = this.#egress[from * words + w]! & this.#ingress[from * words + w]!;
    return out;
  }

  /** Adds the allowed pairs whose destination is in `columns` to `out`, rows laid out as in this matrix. */
  allowedInto(out: Uint32Array, columns: Bits): void {
    const words = this.#words;
    for (let i = 0; i < out.length; i++) out[i]! |= this.#egress[i]! & this.#ingress[i]! & columns[i % words]!;
  }
}

/** What a table says besides its cells; not enumerable on the table, so its keys stay its pods. */
export interface TableFacts {
  readonly skipped: readonly SkippedObject[];
  readonly unresolved: readonly string[];
}

/**
 * The string-keyed table: the cells of `columns` (every pod when undefined)
 * in every row. Every decision is already made in the packed rows; a row
 * object is built the first time it is read, because building millions of
 * string-keyed properties costs far more than deciding them.
 */
export function lazyTable(m: PackedRows, facts: TableFacts, columns?: Bits): TruthTableResult {
  const table: TruthTable = {};
  const pods = m.pods;
  const shown = (key: "skipped" | "unresolved"): void => {
    Object.defineProperty(table, key, { value: facts[key], enumerable: false });
  };
  shown("skipped");
  shown("unresolved");
  // Node's inspector would print unread rows as [Getter/Setter]; show the values, and what the table left out.
  Object.defineProperty(table, Symbol.for("nodejs.util.inspect.custom"), {
    enumerable: false,
    value: (_depth: number, options: object, inspect: (v: unknown, o: object) => string) =>
      inspect(
        {
          ...table,
          ...(facts.skipped.length > 0 ? { skipped: facts.skipped } : {}),
          ...(facts.unresolved.length > 0 ? { unresolved: facts.unresolved } : {}),
        },
        options,
      ),
  });
  pods.forEach((from, i) => {
    Object.defineProperty(table, from, {
      enumerable: true,
      configurable: true,
      get() {
        const row: Record<string, Cell> = {};
        const bits = m.row(i);
        for (let j = 0; j < pods.length; j++) {
          if (columns !== undefined && !hasBit(columns, j)) continue;
          row[pods[j]!] = ((bits[j >>> 5]! >>> (j & 31)) & 1) !== 0 ? "allow" : "deny";
        }
        Object.defineProperty(table, from, { value: row, enumerable: true, configurable: true, writable: true });
        return row;
      },
      set(value: Record<string, Cell>) {
        Object.defineProperty(table, from, { value, enumerable: true, configurable: true, writable: true });
      },
    });
  });
  return table as TruthTableResult;
}

// ------------------------------------------------------------------ per-query port sets

export const ALL: unique symbol = Symbol("all");
export const NONE: unique symbol = Symbol("none");

/** For one (protocol, port): which destinations each rule's ports admit (a named port by the destination pod's own port of that name). */
export class PortSets {
  readonly #pods: readonly Pod[];
  readonly #words: number;
  readonly #protocol: Protocol;
  readonly #port: number;
  readonly #named = new Map<string, Bits>();
  readonly #rules = new Map<Rule, Bits | typeof ALL | typeof NONE>();

  constructor(pods: readonly Pod[], words: number, protocol: Protocol, port: number) {
    this.#pods = pods;
    this.#words = words;
    this.#protocol = protocol;
    this.#port = port;
  }

  destinations(r: Rule): Bits | typeof ALL | typeof NONE {
    if (r.anyPort) return ALL;
    let got = this.#rules.get(r);
    if (got !== undefined) return got;
    let named: Bits | undefined;
    got = NONE;
    for (const e of r.ports) {
      if (e.protocol !== this.#protocol) continue;
      if (e.kind === "all" || (e.kind === "range" && this.#port >= e.lo && this.#port <= e.hi)) {
        got = ALL;
        break;
      }
      if (e.kind === "named") {
        named ??= new Uint32Array(this.#words);
        orInto(named, this.#namedSet(e.name));
      }
    }
    if (got !== ALL && named !== undefined) got = named;
    this.#rules.set(r, got);
    return got;
  }

  /** Pods declaring `name` for this protocol on this port; hostNetwork pods too (they are pods). */
  #namedSet(name: string): Bits {
    let b = this.#named.get(name);
    if (b !== undefined) return b;
    b = new Uint32Array(this.#words);
    this.#pods.forEach((p, i) => {
      if (declares(p, name, this.#protocol, this.#port)) setBit(b!, i);
    });
    this.#named.set(name, b);
    return b;
  }
}

export function declares(pod: Pod, name: string, protocol: Protocol, port: number): boolean {
  for (const p of pod.ports) if (p.name === name && p.protocol === protocol && p.containerPort === port) return true;
  return false;
}

/** The pod's port of that name and protocol (the first one declared), or undefined. */
export function namedPort(pod: Pod, name: string, protocol: Protocol): number | undefined {
  for (const p of pod.ports) if (p.name === name && p.protocol === protocol) return p.containerPort;
  return undefined;
}
