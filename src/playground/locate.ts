// Where a field path sits in the text of one YAML or JSON document, for the
// editor's inline diagnostics. JSON is read as YAML here (it is valid YAML
// 1.2 flow syntax), so one walk over the `yaml` package's AST serves both.
import { isMap, isPair, isScalar, isSeq, parseDocument, type Node } from "yaml";

/** A character range of a document's text: `from` inclusive, `to` exclusive. */
export interface TextRange {
  readonly from: number;
  readonly to: number;
}

/** A parsed document whose paths can be looked up (parse once, locate many). */
export interface Locator {
  /**
   * The range of the field at `path` (its key, so the diagnostic sits on the
   * field's line), or of the nearest parent that exists when the field itself
   * is missing (a required field). The whole document when nothing matches.
   */
  locate(path: readonly (string | number)[]): TextRange;
}

function keyName(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return undefined;
}

/** Builds a locator over one document's `text` (offsets are relative to it). */
export function locator(text: string): Locator {
  const doc = parseDocument(text, { keepSourceTokens: false, uniqueKeys: false, strict: false });
  const whole: TextRange = { from: 0, to: text.length };
  const rangeOf = (
    n: { range?: [number, number, number] | null | undefined } | null | undefined,
  ): TextRange | undefined => (n?.range ? { from: n.range[0], to: Math.max(n.range[1], n.range[0]) } : undefined);
  return {
    locate(path) {
      let node: unknown = doc.contents;
      let best: TextRange = rangeOf(node as Node) ?? whole;
      for (const seg of path) {
        if (typeof seg === "number" && isSeq(node)) {
          const item = node.items[seg];
          if (item === undefined) break;
          node = item;
          best = rangeOf(item as Node) ?? best;
        } else if (isMap(node)) {
          const name = String(seg);
          // The last pair wins, as the decoder keeps a repeated key's last value.
          const pair = [...node.items].reverse().find((p) => isPair(p) && keyName(p.key) === name);
          if (pair === undefined) break;
          best = rangeOf(pair.key as Node) ?? rangeOf(pair.value as Node) ?? best;
          node = pair.value;
        } else {
          break;
        }
      }
      return best;
    },
  };
}
