// INTERIM (branch i29-expect only): the connection-set helpers the lead is writing on main, so
// the expectations code type-checks and its tests run before they land. Reverted before merging
// main; never shipped.
import type { ConnectionSet, PortRange } from "./types.js";

const PROTOCOLS = ["TCP", "UDP", "SCTP"] as const;

/** Interim. @example ```ts\nconsole.log(1);\n``` */
export const ALL_CONNECTIONS: ConnectionSet = {
  TCP: [{ from: 1, to: 65535 }],
  UDP: [{ from: 1, to: 65535 }],
  SCTP: [{ from: 1, to: 65535 }],
};
/** Interim. @example ```ts\nconsole.log(1);\n``` */
export const NO_CONNECTIONS: ConnectionSet = { TCP: [], UDP: [], SCTP: [] };

function norm(ranges: readonly PortRange[]): PortRange[] {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const out: PortRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && r.from <= last.to + 1)
      out[out.length - 1] = { from: last.from, to: Math.max(last.to, r.to) };
    else out.push(r);
  }
  return out;
}

function inter(a: readonly PortRange[], b: readonly PortRange[]): PortRange[] {
  const out: PortRange[] = [];
  for (const x of a)
    for (const y of b) {
      const from = Math.max(x.from, y.from);
      const to = Math.min(x.to, y.to);
      if (from <= to) out.push({ from, to });
    }
  return norm(out);
}

function sub(a: readonly PortRange[], b: readonly PortRange[]): PortRange[] {
  let out = [...a];
  for (const y of b) {
    const next: PortRange[] = [];
    for (const x of out) {
      if (y.to < x.from || y.from > x.to) next.push(x);
      else {
        if (x.from < y.from) next.push({ from: x.from, to: y.from - 1 });
        if (y.to < x.to) next.push({ from: y.to + 1, to: x.to });
      }
    }
    out = next;
  }
  return norm(out);
}

const each = (f: (p: (typeof PROTOCOLS)[number]) => PortRange[]): ConnectionSet => ({
  TCP: f("TCP"),
  UDP: f("UDP"),
  SCTP: f("SCTP"),
});

/** Interim. @example ```ts\nconsole.log(1);\n``` */
export const unionConnectionSets = (a: ConnectionSet, b: ConnectionSet): ConnectionSet =>
  each((p) => norm([...a[p], ...b[p]]));
/** Interim. @example ```ts\nconsole.log(1);\n``` */
export const intersectConnectionSets = (a: ConnectionSet, b: ConnectionSet): ConnectionSet =>
  each((p) => inter(a[p], b[p]));
/** Interim. @example ```ts\nconsole.log(1);\n``` */
export const subtractConnectionSets = (a: ConnectionSet, b: ConnectionSet): ConnectionSet =>
  each((p) => sub(a[p], b[p]));
/** Interim. @example ```ts\nconsole.log(1);\n``` */
export const isEmptyConnectionSet = (c: ConnectionSet): boolean => PROTOCOLS.every((p) => c[p].length === 0);
/** Interim. @example ```ts\nconsole.log(1);\n``` */
export function formatConnectionSet(c: ConnectionSet): string {
  if (PROTOCOLS.every((p) => c[p].length === 1 && c[p][0]?.from === 1 && c[p][0]?.to === 65535))
    return "All connections";
  const parts = PROTOCOLS.filter((p) => c[p].length > 0).map(
    (p) => `${p} ${c[p].map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(",")}`,
  );
  return parts.length === 0 ? "No connections" : parts.join("; ");
}
