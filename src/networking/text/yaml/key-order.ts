import { codePoints } from "./chars.js";

// go-yaml v2 key order (sorter.go): not byte order. Letters sort after other
// characters and digit runs compare by numeric value, so `a9` < `a10` and
// `_x` < `Zed`.

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;
function isLetterCp(c: number): boolean {
  return LETTER.test(String.fromCodePoint(c));
}
function isDigitCp(c: number): boolean {
  return DIGIT.test(String.fromCodePoint(c));
}

function goKeyLess(ar: readonly number[], br: readonly number[]): boolean {
  const n = Math.min(ar.length, br.length);
  for (let i = 0; i < n; i++) {
    const a = ar[i] ?? 0;
    const b = br[i] ?? 0;
    if (a === b) continue;
    const al = isLetterCp(a);
    const bl = isLetterCp(b);
    if (al && bl) return a < b;
    if (al || bl) return bl;
    // Digit runs compare numerically (Go int64 arithmetic, so wrap like it).
    let an = 0n;
    let bn = 0n;
    if (a === 0x30 || b === 0x30) {
      for (let j = i - 1; j >= 0 && isDigitCp(ar[j] ?? 0); j--) {
        if (ar[j] !== 0x30) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigitCp(ar[ai] ?? 0); ai++) {
      an = BigInt.asIntN(64, an * 10n + BigInt((ar[ai] ?? 0) - 0x30));
    }
    let bi = i;
    for (; bi < br.length && isDigitCp(br[bi] ?? 0); bi++) {
      bn = BigInt.asIntN(64, bn * 10n + BigInt((br[bi] ?? 0) - 0x30));
    }
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return a < b;
  }
  return ar.length < br.length;
}

export function sortKeysLikeGo(keys: string[]): string[] {
  const decorated = keys.map((k) => ({ k, cps: codePoints(k) }));
  decorated.sort((x, y) => (goKeyLess(x.cps, y.cps) ? -1 : goKeyLess(y.cps, x.cps) ? 1 : 0));
  return decorated.map((d) => d.k);
}
