// src/ has no import cycle, type-only imports included. Biome's noImportCycles (biome.jsonc) does
// not follow `import type`, so a cycle of type-only edges passes the lint; this reads every import
// and re-export itself (scripts/import-graph.mjs) and fails with the cycle it finds. The
// planted trees show the check can fail: a type-only cycle, a re-export cycle, a self-import.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findCycles, formatCycle, importGraph, importsOf } from "../../scripts/import-graph.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "clusterwire-cycles-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Writes a tree of files under a fresh folder and returns the folder. */
function plant(name: string, files: Record<string, string>): string {
  const dir = join(work, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function cyclesOf(dir: string): string[] {
  return findCycles(importGraph(dir)).map((c) => formatCycle(dir, c.cycle));
}

describe("reading imports", () => {
  it("finds static, type-only, re-exported, side-effect and dynamic imports, each at its statement's line", () => {
    const text = [
      `import { a } from "./a.js";`,
      `import type { B } from "./b.js";`,
      `import { type C, type D } from "./c.js";`,
      `import { type E, e } from "./e.js";`,
      `import f, * as g from "./fg.js";`,
      `import {`,
      `  h,`,
      `  type H,`,
      `} from '../h.js';`,
      `export { i } from "./i.js";`,
      `export type { J } from "./j.js";`,
      `export * from "./k.js";`,
      `export * as l from "./l.js";`,
      `import "./m.js";`,
      `const n = await import("./n.js");`,
      `type O = import("./o.js").O;`,
      `  import { p } from "./p.js"; // indented`,
    ].join("\n");
    expect(importsOf(text).sort((x, y) => x.specifier.localeCompare(y.specifier))).toEqual([
      { specifier: "../h.js", typeOnly: false, line: 6 },
      { specifier: "./a.js", typeOnly: false, line: 1 },
      { specifier: "./b.js", typeOnly: true, line: 2 },
      { specifier: "./c.js", typeOnly: true, line: 3 },
      { specifier: "./e.js", typeOnly: false, line: 4 },
      { specifier: "./fg.js", typeOnly: false, line: 5 },
      { specifier: "./i.js", typeOnly: false, line: 10 },
      { specifier: "./j.js", typeOnly: true, line: 11 },
      { specifier: "./k.js", typeOnly: false, line: 12 },
      { specifier: "./l.js", typeOnly: false, line: 13 },
      { specifier: "./m.js", typeOnly: false, line: 14 },
      { specifier: "./n.js", typeOnly: false, line: 15 },
      { specifier: "./o.js", typeOnly: false, line: 16 },
      { specifier: "./p.js", typeOnly: false, line: 17 },
    ]);
  });

  it("ignores imports written in comments and doc examples", () => {
    const text = [
      `/**`,
      ` * @example`,
      ` * import { StorageClient } from "./client.js";`,
      ` */`,
      `// import { x } from "./x.js";`,
      `const s = "import { y } from './y.js'";`,
    ].join("\n");
    expect(importsOf(text)).toEqual([]);
  });
});

describe("finding cycles", () => {
  it("finds a cycle made only of type-only imports", () => {
    const dir = plant("type-only", {
      "client.ts": `import type { Resource } from "./resource.js";\nexport class Client {}\n`,
      "resource.ts": `import type { Client } from "./client.js";\nexport class Resource {}\n`,
      "user.ts": `import { Client } from "./client.js";\n`,
    });
    expect(cyclesOf(dir)).toEqual(["client.ts -> resource.ts -> client.ts"]);
  });

  it("finds a longer cycle through a re-export and a folder's index", () => {
    const dir = plant("re-export", {
      "a.ts": `export { b } from "./b.js";\n`,
      "b.ts": `import { c } from "./lib/index.js";\nexport const b = c;\n`,
      "lib/index.ts": `export * from "./c.js";\n`,
      "lib/c.ts": `import type { B } from "../a.js";\nexport const c = 1;\n`,
    });
    const cycles = findCycles(importGraph(dir));
    expect(cycles.map((c) => formatCycle(dir, c.cycle))).toEqual(["a.ts -> b.ts -> lib/index.ts -> lib/c.ts -> a.ts"]);
    expect(cycles[0]!.files).toHaveLength(4);
  });

  it("finds a file that imports itself", () => {
    const dir = plant("self", { "a.ts": `import type { A } from "./a.js";\nexport type { A };\n` });
    expect(cyclesOf(dir)).toEqual(["a.ts -> a.ts"]);
  });

  it("finds none in a tree whose imports point one way", () => {
    const dir = plant("acyclic", {
      "client.ts": `import type { Transport } from "./transport.js";\nimport { Resource } from "./resource.js";\n`,
      "resource.ts": `import type { Transport } from "./transport.js";\n`,
      "transport.ts": `export interface Transport {}\n`,
    });
    const graph = importGraph(dir);
    expect([...graph.values()].flat()).toHaveLength(3);
    expect(cyclesOf(dir)).toEqual([]);
  });
});

describe("src/", () => {
  it("has no import cycle, type-only imports included", () => {
    const graph = importGraph(join(root, "src"));
    // The walk read the tree: a wrong root would give an empty graph, and no cycles.
    expect(graph.size).toBeGreaterThan(100);
    expect([...graph.values()].flat().length).toBeGreaterThan(300);
    const cycles = findCycles(graph).map(
      (c) =>
        `${formatCycle(root, c.cycle)}; the files that import each other round: ${c.files.map((f) => formatCycle(root, [f])).join(", ")}`,
    );
    expect(cycles).toEqual([]);
  });
});
