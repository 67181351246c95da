/** Types for scripts/import-graph.mjs, which test/suites/import-cycles.test.ts imports. */

/** One import found in a file. */
export interface ImportEdge {
  readonly specifier: string;
  /** `import type`, `export type`, or every name of the braces marked `type`; `import("...")` types are not told apart. */
  readonly typeOnly: boolean;
  /** 1-based line of the statement (of `import(` for an import call). */
  readonly line: number;
}

/** file -> the files of the tree it imports (absolute paths). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** A set of files that import each other round, and one cycle through them. */
export interface ImportCycle {
  /** Every file of the strongly connected component, sorted. */
  readonly files: readonly string[];
  /** A shortest cycle from its first file back to it: `[a, b, a]`. */
  readonly cycle: readonly string[];
}

export declare function importsOf(text: string): ImportEdge[];
export declare function tsFiles(dir: string, withJs?: boolean): string[];
export declare function resolveSpecifier(fromFile: string, specifier: string): string | undefined;
export declare function importGraph(dir: string): ImportGraph;
export declare function findCycles(graph: ImportGraph): ImportCycle[];
export declare function repoPath(root: string, file: string): string;
export declare function formatCycle(root: string, cycle: readonly string[]): string;
