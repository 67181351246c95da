// The layering of src/networking, checked on the import statements:
// model <- protobuf, text, validation <- evaluate <- index.ts, no cycles,
// and validate() loads no protobuf code (so a bundle of it stays small).

import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../src/networking");

/** What each layer may import from src/networking (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  model: [],
  protobuf: ["model"],
  text: ["model"],
  validation: ["model"],
  evaluate: ["model", "validation"],
  "index.ts": ["model", "protobuf", "text", "validation", "evaluate"],
};

interface Edge {
  readonly from: string;
  readonly to: string;
  /** False for `import type` (erased at runtime). */
  readonly runtime: boolean;
  readonly external: boolean;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

const IMPORT = /^(?:import|export)\s+(type\s+)?(?:(\{[^}]*\})|[^"';]*?)\s*from\s+"([^"]+)"/gm;

function edgesOf(file: string): Edge[] {
  const out: Edge[] = [];
  for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const spec = m[3] as string;
    const named = m[2];
    const typeOnly = m[1] !== undefined || (named !== undefined && named.slice(1, -1).split(",").map((s) => s.trim()).filter((s) => s !== "").every((s) => s.startsWith("type ")));
    if (!spec.startsWith(".")) {
      out.push({ from: file, to: spec, runtime: !typeOnly, external: true });
      continue;
    }
    out.push({ from: file, to: normalize(join(dirname(file), spec)).replace(/\.js$/, ".ts"), runtime: !typeOnly, external: false });
  }
  return out;
}

const layerOf = (file: string): string => relative(ROOT, file).split("/")[0] as string;
const all = files(ROOT);
const graph = new Map(all.map((f) => [f, edgesOf(f)]));

describe("src/networking layers", () => {
  it("every module sits in a layer folder; only index.ts is at the top", () => {
    const top = all.filter((f) => !relative(ROOT, f).includes("/")).map((f) => relative(ROOT, f));
    expect(top).toEqual(["index.ts"]);
    for (const f of all) expect(Object.keys(ALLOWED), relative(ROOT, f)).toContain(layerOf(f));
  });

  it("imports point down only", () => {
    const bad: string[] = [];
    for (const [file, edges] of graph) {
      for (const e of edges) {
        if (e.external || !e.to.startsWith(ROOT)) continue;
        const a = layerOf(file);
        const b = layerOf(e.to);
        if (a !== b && !(ALLOWED[a] ?? []).includes(b)) bad.push(`${relative(ROOT, file)} -> ${relative(ROOT, e.to)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("index.ts only re-exports, and nothing inside imports it", () => {
    const index = join(ROOT, "index.ts");
    const code = readFileSync(index, "utf8")
      .replace(/\/\/.*$/gm, "")
      .replace(/export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+"[^"]+";/g, "")
      .trim();
    expect(code).toBe("");
    for (const [file, edges] of graph) for (const e of edges) expect(e.to, relative(ROOT, file)).not.toBe(index);
  });

  it("has no import cycles", () => {
    const state = new Map<string, 1 | 2>();
    const cycles: string[] = [];
    const visit = (f: string, stack: string[]): void => {
      state.set(f, 1);
      stack.push(f);
      for (const e of graph.get(f) ?? []) {
        if (e.external || !graph.has(e.to)) continue;
        if (state.get(e.to) === 1) cycles.push([...stack.slice(stack.indexOf(e.to)), e.to].map((x) => relative(ROOT, x)).join(" -> "));
        else if (!state.has(e.to)) visit(e.to, stack);
      }
      stack.pop();
      state.set(f, 2);
    };
    for (const f of graph.keys()) if (!state.has(f)) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it("validate() loads no protobuf code: its runtime imports reach neither protobuf/ nor @bufbuild/protobuf", () => {
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (f: string): void => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const e of graph.get(f) ?? []) {
        if (!e.runtime) continue;
        if (e.external) external.add(e.to);
        else if (graph.has(e.to)) visit(e.to);
      }
    };
    visit(join(ROOT, "validation/validate.ts"));
    expect([...seen].map((f) => layerOf(f)).filter((l) => l !== "validation" && l !== "model")).toEqual([]);
    expect([...external]).toEqual([]);
  });

  it("exactly one module reads varints: protobuf/wire.ts", () => {
    // Varint reads: BinaryReader's varint methods, or a loop over 7-bit groups.
    const readers = all.filter((f) => /\.(u?int32|u?int64|sint32|sint64|bool)\(\)|& 0x7f\)|\b(?:b|x) < 0x80\b/.test(readFileSync(f, "utf8")));
    expect(readers.map((f) => relative(ROOT, f))).toEqual(["protobuf/wire.ts"]);
  });
});
