/**
 * Delta debugging (Zeller's ddmin) over a text's lines and then its
 * characters: the smallest text found for which `keep` still holds. `keep` is
 * asynchronous (it may ask an oracle process) and is called at most `budget`
 * times; the result always satisfies `keep` (the input is assumed to).
 */
export type Keep = (text: string) => Promise<boolean>;

export interface MinimiseOptions {
  /** Most calls to `keep`. Default 2000. */
  readonly budget?: number;
}

async function ddmin(units: string[], keep: Keep, state: { left: number }): Promise<string[]> {
  let current = units;
  let n = 2;
  while (current.length >= 2 && state.left > 0) {
    const size = Math.ceil(current.length / n);
    let reduced = false;
    for (let start = 0; start < current.length && state.left > 0; start += size) {
      const complement = [...current.slice(0, start), ...current.slice(start + size)];
      if (complement.length === 0) continue;
      state.left--;
      if (await keep(complement.join(""))) {
        current = complement;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= current.length) break;
      n = Math.min(current.length, n * 2);
    }
  }
  return current;
}

/** Splits after each line end ("\n", "\r\n" kept with their line). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export async function minimise(text: string, keep: Keep, options: MinimiseOptions = {}): Promise<string> {
  const state = { left: options.budget ?? 2000 };
  const lines = await ddmin(splitLines(text), keep, state);
  const chars = await ddmin([...lines.join("")], keep, state);
  return chars.join("");
}
