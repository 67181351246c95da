// Sets of small integers (the peers of a lint: workloads, then address segments) as words of 32
// bits, so that "does this rule admit every peer that one admits" is a few dozen word operations
// rather than a walk over thousands of keys.

/** A set of integers 0..size-1; every set of one lint has the same size. */
export type Bits = Uint32Array;

/** An empty set for `size` members. */
export function emptyBits(size: number): Bits {
  return new Uint32Array((size + 31) >>> 5);
}

/** The set of every integer 0..size-1. */
export function fullBits(size: number): Bits {
  const out = emptyBits(size);
  out.fill(0xffffffff);
  const rest = size & 31;
  if (rest !== 0) out[out.length - 1] = (1 << rest) - 1;
  return out;
}

/** Adds `i`. */
export function setBit(bits: Bits, i: number): void {
  bits[i >>> 5]! |= 1 << (i & 31);
}

/** Whether `i` is a member. */
export function hasBit(bits: Bits, i: number): boolean {
  return ((bits[i >>> 5]! >>> (i & 31)) & 1) === 1;
}

/** Adds every member of `from` to `into`. */
export function orInto(into: Bits, from: Bits): void {
  for (let w = 0; w < into.length; w++) into[w]! |= from[w]!;
}

/** The members of `a` that `b` lacks, as a new set. */
export function andNot(a: Bits, b: Bits): Bits {
  const out = new Uint32Array(a.length);
  for (let w = 0; w < a.length; w++) out[w] = a[w]! & ~b[w]!;
  return out;
}

/** Whether every member of `a` is in `b`. */
export function isSubset(a: Bits, b: Bits): boolean {
  for (let w = 0; w < a.length; w++) if ((a[w]! & ~b[w]!) !== 0) return false;
  return true;
}

/** Whether the set has no member. */
export function isEmptyBits(bits: Bits): boolean {
  for (let w = 0; w < bits.length; w++) if (bits[w] !== 0) return false;
  return true;
}

/** The members, in increasing order. */
export function members(bits: Bits): number[] {
  const out: number[] = [];
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const low = word & -word;
      out.push((w << 5) + (31 - Math.clz32(low)));
      word ^= low;
    }
  }
  return out;
}

/** The set's only member; -1 when it has none, -2 when it has several. */
export function onlyMember(bits: Bits): number {
  let found = -1;
  for (let w = 0; w < bits.length; w++) {
    const word = bits[w]!;
    if (word === 0) continue;
    if (found !== -1 || (word & (word - 1)) !== 0) return -2;
    found = (w << 5) + (31 - Math.clz32(word));
  }
  return found;
}

/** Empties the set. */
export function clearBits(bits: Bits): void {
  bits.fill(0);
}

/** Sets `into` to the members of `a` that `b` lacks. */
export function andNotInto(into: Bits, a: Bits, b: Bits): void {
  for (let w = 0; w < into.length; w++) into[w] = a[w]! & ~b[w]!;
}

/** Whether the two sets share a member. */
export function intersects(a: Bits, b: Bits): boolean {
  for (let w = 0; w < a.length; w++) if ((a[w]! & b[w]!) !== 0) return true;
  return false;
}
