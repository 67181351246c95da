// Character helpers shared by the YAML emitter and parser.

// Character classes of the go-yaml (libyaml) emitter, on code points.

export const SP = 0x20;
export const LF = 0x0a;

export function isBreak(c: number): boolean {
  return c === LF || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}
export function isBlank(c: number): boolean {
  return c === SP || c === 0x09;
}
/** Blank, break or NUL: what the emitter treats as "whitespace before `#`". */
export function isBlankZ(c: number): boolean {
  return isBlank(c) || isBreak(c) || c === 0;
}
/** libyaml's printable set: no C0/C1 controls, no BOM, nothing above the BMP. */
export function isPrintable(c: number): boolean {
  return (
    c === LF || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff)
  );
}
export function utf8Length(cps: readonly number[]): number {
  let n = 0;
  for (const c of cps) n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  return n;
}
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) ?? 0xfffd);
  return out;
}
/** Go strings cannot hold lone surrogates; its JSON decoder turns them into U+FFFD. */
export function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}
