/** Types for scripts/check-layers.mjs, which test/suites/layers.test.ts imports. */

/** An import a layer refuses, or (without `specifier`) a file in no layer. */
export interface Violation {
  /** Repository-relative, `/`-separated. */
  readonly file: string;
  /** 1-based line of the import statement; 0 for a file in no layer. */
  readonly line: number;
  readonly specifier?: string;
  /** The file the specifier names, repository-relative. */
  readonly target?: string;
  /** The rule's message. */
  readonly message: string;
}

/** [layer folder or file, what it may import beyond its own layer, message]. */
export declare const LAYERS: readonly (readonly [string, readonly string[], string])[];
/** The layers that run in a browser, which may not import Node's built-ins. */
export declare const BROWSER: readonly string[];
export declare const ROOTS: readonly string[];
/** The row holding a repository-relative path (its first column), and the layer it is in (`*` filled in). */
export declare function layerOf(
  path: string,
): { row: string; layer: string; may: readonly string[]; message: string } | undefined;
export declare function refusal(file: string, target: string): string | undefined;
export declare function checkText(root: string, file: string, text: string): Violation[];
export declare function checkLayers(root: string): { violations: Violation[]; files: number };
export declare function formatViolation(v: Violation): string;
