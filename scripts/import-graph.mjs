// The imports of a TypeScript tree, type-only ones included: what the layer check
// (scripts/check-layers.mjs) judges, and the graph whose cycles test/suites/import-cycles.test.ts looks for.
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
// parsing mistake can only report a cycle or a layer violation that is not there, never hide one
// that is.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

// `import type? <clause> from "x"` where the clause is a default name, `* as ns`, `{ ... }` or a
// default name followed by one of the other two. `[^}]*` spans lines, so multi-line braces match.
const CLAUSE = String.raw`(?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+)`;
const STATIC_IMPORT = new RegExp(String.raw`^[ \t]*import\s+(type\s+)?(${CLAUSE})\s*from\s*(["'])([^"'\n]+)\3`, "gm");
const STATIC_EXPORT = /^[ \t]*export\s+(type\s+)?(\{[^}]*\}|\*(?:\s*as\s+[\w$]+)?)\s*from\s*(["'])([^"'\n]+)\3/gm;
const SIDE_EFFECT_IMPORT = /^[ \t]*import\s*(["'])([^"'\n]+)\1/gm;
const IMPORT_CALL = /\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;

/** @param {string} clause */
function allNamesAreTypes(clause) {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (braces === null) return false;
  const names = braces[1]
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  return names.length > 0 && names.every((n) => /^type\s/.test(n));
}

/**
 * The imports and re-exports of one source text: static (`import`, `import type`, `export ... from`,
 * `export type ... from`, side-effect `import "x"`) and `import("x")`, in the order they appear.
 * @param {string} text
 * @returns {import("./import-graph.d.mts").ImportEdge[]}
 */
export function importsOf(text) {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  /** The 1-based line of an offset. */
  const lineOf = (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  /** @type {{ at: number; specifier: string; typeOnly: boolean }[]} */
  const found = [];
  for (const re of [STATIC_IMPORT, STATIC_EXPORT]) {
    for (const m of text.matchAll(re)) {
      // The statement's own line: the match may start with the indentation before `import`.
      const at = m.index + m[0].search(/\S/);
      found.push({ at, specifier: m[4], typeOnly: m[1] !== undefined || allNamesAreTypes(m[2]) });
    }
  }
  for (const m of text.matchAll(SIDE_EFFECT_IMPORT)) {
    found.push({ at: m.index + m[0].search(/\S/), specifier: m[2], typeOnly: false });
  }
  for (const m of text.matchAll(IMPORT_CALL)) found.push({ at: m.index, specifier: m[2], typeOnly: false });
  return found
    .sort((a, b) => a.at - b.at)
    .map(({ at, specifier, typeOnly }) => ({ specifier, typeOnly, line: lineOf(at) }));
}

/**
 * Every `.ts` file under `dir` (declaration files excluded), as absolute paths, sorted; with
 * `withJs`, every `.js`, `.mjs` and `.cjs` file too.
 * @param {string} dir
 * @param {boolean} [withJs]
 */
export function tsFiles(dir, withJs = false) {
  const code = withJs ? /\.(?:ts|mts|cts|tsx|js|mjs|cjs)$/ : /\.(?:ts|mts|cts|tsx)$/;
  /** @type {string[]} */
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (code.test(name) && !/\.d\.[mc]?ts$/.test(name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * The file a relative specifier names (`./x.js` is `./x.ts`, a folder is its `index.ts`), if it exists.
 * @param {string} fromFile
 * @param {string} specifier
 */
export function resolveSpecifier(fromFile, specifier) {
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

/**
 * The import graph of every `.ts` file under `dir`: edges to files outside `dir` are left out.
 * @param {string} dir
 * @returns {Map<string, string[]>}
 */
export function importGraph(dir) {
  const files = tsFiles(dir);
  const inTree = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const edge of importsOf(readFileSync(file, "utf8"))) {
      const target = resolveSpecifier(file, edge.specifier);
      if (target !== undefined && inTree.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * Every strongly connected component with more than one file, or one file importing itself, with
 * one cycle through each (so a failure shows a path to cut). Empty when the graph has no cycle.
 * @param {ReadonlyMap<string, readonly string[]>} graph
 */
export function findCycles(graph) {
  // Tarjan's algorithm, iterative so a deep tree cannot overflow the stack.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let n;
        do {
          n = stack.pop();
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

/**
 * A shortest cycle from the component's first file (sorted) back to itself, staying inside it.
 * @param {ReadonlyMap<string, readonly string[]>} graph
 * @param {ReadonlySet<string>} component
 */
function cycleThrough(graph, component) {
  const first = [...component].sort()[0];
  const previous = new Map();
  const queue = [first];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    for (const to of graph.get(node) ?? []) {
      if (!component.has(to)) continue;
      if (to === first) {
        const path = [node];
        while (path[0] !== first) path.unshift(previous.get(path[0]));
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

/**
 * A path relative to `root`, with `/` separators.
 * @param {string} root
 * @param {string} file
 */
export function repoPath(root, file) {
  return relative(root, file).split(sep).join("/");
}

/**
 * A cycle as `a.ts -> b.ts -> a.ts`, paths relative to `root`, with `/` separators.
 * @param {string} root
 * @param {readonly string[]} cycle
 */
export function formatCycle(root, cycle) {
  return cycle.map((f) => repoPath(root, f)).join(" -> ");
}
