// The layers of src/storage import one way: codecs/ imports nothing above it; client/ imports
// codecs/; server/ imports neither (it is a second, independent implementation of the spec,
// so that tests of the codecs and client against it check each side with the other); index.ts
// re-exports only and never the server (that is `clusterwire/storage/server`).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../../src/storage");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Every relative import of `file`, resolved to a path under src/storage ("codecs/cache.ts"). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)].map((m) => m[1]!);
  return specs.map((s) => relative(SRC, resolve(join(file, ".."), s.replace(/\.js$/, ".ts"))).split(sep).join("/"));
}

const layerOf = (path: string): string => (path.includes("/") ? path.slice(0, path.indexOf("/")) : path);
const all = files(SRC).map((f) => ({ file: relative(SRC, f).split(sep).join("/"), imports: importsOf(f) }));

describe("src/storage layers", () => {
  it("finds the three layers", () => {
    expect(new Set(all.map((f) => layerOf(f.file)))).toEqual(new Set(["codecs", "client", "server", "index.ts"]));
  });

  it.each([
    ["codecs", ["codecs"]],
    ["client", ["client", "codecs"]],
    ["server", ["server"]],
  ])("%s/ imports only %j", (layer, allowed) => {
    const edges = all
      .filter((f) => layerOf(f.file) === layer)
      .flatMap((f) => f.imports.map((to) => `${f.file} -> ${to}`))
      .filter((edge) => !allowed.includes(layerOf(edge.split(" -> ")[1]!)));
    expect(edges).toEqual([]);
  });

  it("index.ts re-exports codecs/ and client/, never the server", () => {
    const index = all.find((f) => f.file === "index.ts")!;
    expect(index.imports.filter((to) => layerOf(to) === "server")).toEqual([]);
    const text = readFileSync(join(SRC, "index.ts"), "utf8");
    // Re-exports only: no declarations of its own.
    expect(text.split("\n").filter((l) => /^(?:export )?(?:const|let|function|class|interface|type\s+\w)/.test(l))).toEqual([]);
  });
});
