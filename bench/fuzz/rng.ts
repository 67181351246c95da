/*
 * A small seeded PRNG (sfc32, seeded through splitmix32). Every fuzz input is
 * derived from (seed, index) alone, so any input can be regenerated on its
 * own: by the main thread for a worker that hung, or by a test.
 */

function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...words: number[]) {
    let h = 0x2545f491;
    for (const w of words) h = splitmix32(h ^ (w >>> 0));
    this.a = splitmix32(h ^ 0x1);
    this.b = splitmix32(h ^ 0x2);
    this.c = splitmix32(h ^ 0x3);
    this.d = 1;
    // sfc32 needs a few rounds to forget a similar seed.
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, n); n >= 1 and below 2^32. */
  int(n: number): number {
    return Math.floor((this.u32() / 0x100000000) * n);
  }

  /** Uniform in [lo, hi], inclusive. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  float(): number {
    return this.u32() / 0x100000000;
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error("pick from an empty list");
    return xs[this.int(xs.length)] as T;
  }

  /** Picks by weight: `choices` are [weight, value] pairs. */
  weighted<T>(choices: readonly (readonly [number, T])[]): T {
    let total = 0;
    for (const [w] of choices) total += w;
    let x = this.float() * total;
    for (const [w, v] of choices) {
      if (x < w) return v;
      x -= w;
    }
    return (choices[choices.length - 1] as readonly [number, T])[1];
  }

  /** A size in [0, max], most often small: fuzzing finds more with short inputs. */
  size(max: number): number {
    const r = this.float();
    if (r < 0.5) return this.int(Math.min(max, 16) + 1);
    if (r < 0.85) return this.int(Math.min(max, 128) + 1);
    return this.int(max + 1);
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const x = this.u32();
      out[i] = x & 0xff;
      if (i + 1 < n) out[i + 1] = (x >>> 8) & 0xff;
      if (i + 2 < n) out[i + 2] = (x >>> 16) & 0xff;
      if (i + 3 < n) out[i + 3] = x >>> 24;
    }
    return out;
  }
}

/** The generator for input `index` of a campaign with `seed`. */
export function inputRng(seed: number, index: number): Rng {
  return new Rng(seed, index % 0x100000000, Math.floor(index / 0x100000000));
}
