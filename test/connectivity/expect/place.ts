/** 1-based line and column of the `nth` occurrence of `needle` in `text`, by plain search (not by the YAML locator under test). */
export function placeOf(text: string, needle: string, nth = 1): { line: number; column: number } {
  let at = -1;
  for (let i = 0; i < nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${needle} is not in the text ${nth} times`);
  }
  const before = text.slice(0, at).split("\n");
  return { line: before.length, column: (before[before.length - 1] ?? "").length + 1 };
}
