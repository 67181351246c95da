// Fixed-size bit sets over pod indexes, packed 32 to a Uint32Array word. The
// policy engine keeps every selected-pod set and every truth-table row in
// this form, so a union or an intersection costs N/32 word operations.

export type Bits = Uint32Array;

export function wordCount(n: number): number {
  return (n + 31) >>> 5;
}

/** A set holding 0..n-1, in `words` words. */
export function fullBits(n: number, words: number = wordCount(n)): Bits {
  const b = new Uint32Array(words);
  b.fill(0xffffffff, 0, n >>> 5);
  if ((n & 31) !== 0) b[n >>> 5] = (1 << (n & 31)) - 1;
  return b;
}

export function setBit(b: Bits, i: number): void {
  b[i >>> 5]! |= 1 << (i & 31);
}

export function hasBit(b: Bits, i: number): boolean {
  return ((b[i >>> 5]! >>> (i & 31)) & 1) !== 0;
}

/** dst |= src */
export function orInto(dst: Bits, src: Bits): void {
  for (let w = 0; w < dst.length; w++) dst[w]! |= src[w]!;
}

/** dst |= a & b */
export function orAndInto(dst: Bits, a: Bits, b: Bits): void {
  for (let w = 0; w < dst.length; w++) dst[w]! |= a[w]! & b[w]!;
}

export function isEmpty(b: Bits): boolean {
  for (let w = 0; w < b.length; w++) if (b[w] !== 0) return false;
  return true;
}

export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Calls `f` for every member, in increasing order. */
export function forEachBit(b: Bits, f: (i: number) => void): void {
  for (let w = 0; w < b.length; w++) {
    let x = b[w]!;
    while (x !== 0) {
      const low = x & -x;
      f((w << 5) + 31 - Math.clz32(low));
      x ^= low;
    }
  }
}
