// Where a field path sits in the text of one YAML or JSON document, for the
// editor's inline diagnostics. JSON is read as YAML here (go-yaml reads JSON
// as flow YAML), so clusterwire's YAML reader serves both.
import { locateYamlRange } from "../networking/index.js";

/** A character range of a document's text: `from` inclusive, `to` exclusive. */
export interface TextRange {
  readonly from: number;
  readonly to: number;
}

/** A parsed document whose paths can be looked up. */
export interface Locator {
  /**
   * The range of the field at `path` (its key, so the diagnostic sits on the
   * field's line), or of the nearest parent that exists when the field itself
   * is missing (a required field). The whole document when nothing matches.
   */
  locate(path: readonly (string | number)[]): TextRange;
}

/** Builds a locator over one document's `text` (offsets are relative to it). */
export function locator(text: string): Locator {
  const whole: TextRange = { from: 0, to: text.length };
  return {
    locate(path) {
      return locateYamlRange(text, path) ?? whole;
    },
  };
}
