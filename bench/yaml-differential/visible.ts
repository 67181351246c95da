/**
 * A YAML text as a JSON string with the line breaks JSON leaves raw (NEL,
 * U+2028, U+2029) and the BOM escaped, so that a reproduction printed in a
 * log or a test failure shows them.
 */
export function visible(text: string): string {
  return JSON.stringify(text).replace(
    /[\u0085\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
