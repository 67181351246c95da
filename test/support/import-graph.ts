// The import graph of a TypeScript tree, type-only imports included, and its cycles.
//
// Biome's noImportCycles ignores `import type`, so a cycle made of type-only edges passes the lint
// while the files still cannot be read one after the other. This reads the edges itself.
//
// Parsing: regular expressions over the source text, no compiler (TypeScript 7 ships its AST API
// only as "unstable"). A static import or export-from is recognised where it starts a line (after
// indentation), so `import ... from` written inside a doc comment (` * import ...`) or after `//`
// is not an edge; `import("./x.js")` (a dynamic import or an `import("./x.js").T` type) counts
// anywhere. Only relative specifiers that resolve to a file of the tree are edges. The reading errs
// toward extra edges (a line starting with `import` inside a template string would count), so a
// parsing mistake can only report a cycle that is not there, never hide one that is.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** One import found in a file. */
export interface ImportEdge {
  readonly specifier: string;
  /** `import type`, `export type`, or every name of the braces marked `type`; `import("...")` types are not told apart. */
  readonly typeOnly: boolean;
}

// `import type? <clause> from "x"` where the clause is a default name, `* as ns`, `{ ... }` or a
// default name followed by one of the other two. `[^}]*` spans lines, so multi-line braces match.
const CLAUSE = String.raw`(?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+)`;
const STATIC_IMPORT = new RegExp(String.raw`^[ \t]*import\s+(type\s+)?(${CLAUSE})\s*from\s*(["'])([^"'\n]+)\3`, "gm");
const STATIC_EXPORT = /^[ \t]*export\s+(type\s+)?(\{[^}]*\}|\*(?:\s*as\s+[\w$]+)?)\s*from\s*(["'])([^"'\n]+)\3/gm;
const SIDE_EFFECT_IMPORT = /^[ \t]*import\s*(["'])([^"'\n]+)\1/gm;
const IMPORT_CALL = /\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;

function allNamesAreTypes(clause: string): boolean {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (braces === null) return false;
  const names = braces[1]!
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  return names.length > 0 && names.every((n) => /^type\s/.test(n));
}

/**
 * The imports and re-exports of one source text: static (`import`, `import type`, `export ... from`,
 * `export type ... from`, side-effect `import "x"`) and `import("x")`.
 */
export function importsOf(text: string): ImportEdge[] {
  const out: ImportEdge[] = [];
  for (const re of [STATIC_IMPORT, STATIC_EXPORT]) {
    for (const m of text.matchAll(re)) {
      out.push({ specifier: m[4]!, typeOnly: m[1] !== undefined || allNamesAreTypes(m[2]!) });
    }
  }
  for (const m of text.matchAll(SIDE_EFFECT_IMPORT)) out.push({ specifier: m[2]!, typeOnly: false });
  for (const m of text.matchAll(IMPORT_CALL)) out.push({ specifier: m[2]!, typeOnly: false });
  return out;
}

/** Every `.ts` file under `dir` (declaration files excluded), as absolute paths, sorted. */
export function tsFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(?:ts|mts|cts|tsx)$/.test(name) && !/\.d\.[mc]?ts$/.test(name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** The file a relative specifier names (`./x.js` is `./x.ts`, a folder is its `index.ts`), if it exists. */
export function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(?:[mc]?js|jsx)$/, "");
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    join(base, "index.ts"),
    join(stem, "index.ts"),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** file -> the files of the tree it imports (absolute paths). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The import graph of every `.ts` file under `dir`: edges to files outside `dir` are left out. */
export function importGraph(dir: string): ImportGraph {
  const files = tsFiles(dir);
  const inTree = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const edge of importsOf(readFileSync(file, "utf8"))) {
      const target = resolveSpecifier(file, edge.specifier);
      if (target !== undefined && inTree.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** A set of files that import each other round, and one cycle through them. */
export interface ImportCycle {
  /** Every file of the strongly connected component, sorted. */
  readonly files: readonly string[];
  /** A shortest cycle from its first file back to it: `[a, b, a]`. */
  readonly cycle: readonly string[];
}

/**
 * Every strongly connected component with more than one file, or one file importing itself, with
 * one cycle through each (so a failure shows a path to cut). Empty when the graph has no cycle.
 */
export function findCycles(graph: ImportGraph): ImportCycle[] {
  // Tarjan's algorithm, iterative so a deep tree cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== frame.node);
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) components.push(component);
      }
    }
  }
  return components.map((component) => ({
    files: [...component].sort(),
    cycle: cycleThrough(graph, new Set(component)),
  }));
}

/** A shortest cycle from the component's first file (sorted) back to itself, staying inside it. */
function cycleThrough(graph: ImportGraph, component: ReadonlySet<string>): string[] {
  const first = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [first];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const to of graph.get(node) ?? []) {
      if (!component.has(to)) continue;
      if (to === first) {
        const path = [node];
        while (path[0] !== first) path.unshift(previous.get(path[0]!)!);
        return [...path, first];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [first, first];
}

/** A cycle as `a.ts -> b.ts -> a.ts`, paths relative to `root`, with `/` separators. */
export function formatCycle(root: string, cycle: readonly string[]): string {
  return cycle.map((f) => relative(root, f).split(sep).join("/")).join(" -> ");
}
