// The Reach grid's kinds of cell: the class that colours each (style.css, in
// the colours of `clusterwire reach --output html`), the glyph it shows, so
// colour is never the only signal, and its words for screen readers and the
// legend. No DOM here: the tests run it in Node.

export type CellKind = "allow" | "deny-egress" | "deny-ingress" | "deny-both";

export interface CellLook {
  /** The text in the cell. */
  readonly glyph: string;
  /** What the cell means, in words. */
  readonly words: string;
}

export const CELL_KINDS: Readonly<Record<CellKind, CellLook>> = Object.freeze({
  allow: { glyph: "\u2713", words: "allowed" },
  "deny-egress": { glyph: "E", words: "denied leaving the source (egress)" },
  "deny-ingress": { glyph: "I", words: "denied entering the destination (ingress)" },
  "deny-both": { glyph: "\u2717", words: "denied both ways (egress and ingress)" },
});

/** The kind of a cell from its two directions' verdicts (a connection is allowed when both allow it). */
export function cellKind(egressAllowed: boolean, ingressAllowed: boolean): CellKind {
  if (egressAllowed) return ingressAllowed ? "allow" : "deny-ingress";
  return ingressAllowed ? "deny-egress" : "deny-both";
}
