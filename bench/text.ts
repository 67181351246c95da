// Number formats and the plain-text table every bench report prints.

export const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
export const fix = (n: number, digits: number): string => n.toFixed(digits);
export const ratioText = (r: number): string => `${r.toFixed(2)}×`;

/** Columns padded to their widest cell, a dashed rule under the header. */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: readonly boolean[],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (rightAligned[i] === true ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
