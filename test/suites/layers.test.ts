// The layering, as biome.jsonc states it and `npm run lint` enforces it over the tree:
//   networking: model <- protobuf, text, validation <- evaluate <- index.ts <- cli, testing
//   storage:    codecs <- client; the reference server imports neither
//   cli:        shared <- one folder per command (never importing another) <- main.ts
//   playground: the public networking entry point only
//   heatmap page (cli/reach/heatmap-page/): its own folder and reach/heatmap-data.ts only
// Each case below plants one file in an empty tree, lints it with the project's own
// configuration, and expects the import to be refused (or, for the controls, allowed): the rules
// are shown to bite, not only to pass. The bundle test shows what a bundler keeps of the result.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const biome = join(root, "node_modules", "@biomejs", "biome", "bin", "biome");
const work = mkdtempSync(join(tmpdir(), "clusterwire-layers-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** [file planted, the specifier it imports, refused?] */
const CASES: readonly (readonly [string, string, boolean])[] = [
  ["src/networking/model/planted.ts", "../protobuf/from-binary.js", true],
  ["src/networking/model/planted.ts", "../validation/validate.js", true],
  ["src/networking/model/planted.ts", "../index.js", true],
  ["src/networking/protobuf/planted.ts", "../text/json/from-json.js", true],
  ["src/networking/protobuf/planted.ts", "../validation/validate.js", true],
  ["src/networking/protobuf/planted.ts", "../evaluate/router/router.js", true],
  ["src/networking/text/planted.ts", "../protobuf/from-binary.js", true],
  ["src/networking/text/planted.ts", "../evaluate/policy/engine.js", true],
  ["src/networking/text/json/planted.ts", "../../protobuf/from-binary.js", true],
  ["src/networking/text/yaml/planted.ts", "../../evaluate/policy/engine.js", true],
  ["src/networking/validation/planted.ts", "../protobuf/envelope.js", true],
  ["src/networking/validation/planted.ts", "../text/json/to-json.js", true],
  ["src/networking/validation/rules/planted.ts", "../../evaluate/router/router.js", true],
  ["src/networking/evaluate/router/planted.ts", "../../protobuf/from-binary.js", true],
  ["src/networking/evaluate/router/planted.ts", "../../index.js", true],
  ["src/networking/model/planted.ts", "../../cli/shared/io.js", true],
  ["src/networking/validation/planted.ts", "../../storage/index.js", true],
  ["src/storage/codecs/planted.ts", "../client/client.js", true],
  ["src/storage/codecs/planted.ts", "../server/index.js", true],
  ["src/storage/client/planted.ts", "../server/index.js", true],
  ["src/storage/server/planted.ts", "../codecs/cache.js", true],
  ["src/storage/server/planted.ts", "../client/client.js", true],
  ["src/storage/server/planted.ts", "../../networking/index.js", true],
  ["src/testing/planted.ts", "../networking/protobuf/from-binary.js", true],
  ["src/testing/planted.ts", "../storage/codecs/cache.js", true],
  ["src/testing/storage/planted.ts", "../../networking/protobuf/from-binary.js", true],
  ["src/testing/storage/planted.ts", "../../storage/codecs/cache.js", true],
  ["src/testing/targeted-invalid/planted.ts", "../../networking/validation/validate.js", true],
  ["src/cli/validate/planted.ts", "../route/command.js", true],
  ["src/cli/demo/planted.ts", "../reach/heatmap.js", true],
  ["src/cli/reach/planted.ts", "../main.js", true],
  ["src/cli/validate/planted.ts", "../../networking/validation/validate.js", true],
  ["src/cli/shared/planted.ts", "../route/command.js", true],
  ["src/cli/shared/planted.ts", "../validate/run.js", true],
  ["src/cli/shared/planted.ts", "../../networking/validation/validate.js", true],
  // The CLI's back doors into networking internals are each open to one named file only.
  ["src/cli/validate/planted.ts", "../../networking/text/json/parse.js", true],
  ["src/cli/route/planted.ts", "../../networking/evaluate/router/router.js", true],
  ["src/cli/shared/planted.ts", "../../networking/text/json/from-json.js", true],
  ["src/cli/storage/inventory.ts", "../validate/run.js", true],
  ["src/cli/route/command.ts", "../../networking/text/yaml/parse.js", true],
  ["src/admission/guards/planted.ts", "../../networking/evaluate/router/router.js", true],
  ["src/admission/server/cluster/planted.ts", "../../../storage/index.js", true],
  ["src/admission/server/cluster/planted.ts", "../../../networking/protobuf/watch.js", true],
  ["src/playground/planted.ts", "../networking/validation/validate.js", true],
  ["src/playground/planted.ts", "../cli/reach/heatmap.js", true],
  ["src/playground/planted.ts", "../storage/index.js", true],
  // The heatmap page's script is bundled alone for the browser: its folder and the data it reads, no more.
  ["src/cli/reach/heatmap-page/planted.ts", "../heatmap.js", true],
  ["src/cli/reach/heatmap-page/planted.ts", "../heatmap-palette.js", true],
  ["src/cli/reach/heatmap-page/planted.ts", "../../shared/io.js", true],
  ["src/cli/reach/heatmap-page/planted.ts", "../../../networking/index.js", true],
  ["src/cli/reach/heatmap-page/planted.ts", "node:zlib", true],
  ["src/networking/manifests/planted.ts", "../protobuf/from-binary.js", true],
  ["src/networking/manifests/planted.ts", "../evaluate/router/router.js", true],
  ["src/networking/manifests/planted.ts", "../index.js", true],
  ["src/networking/validation/planted.ts", "../manifests/read-manifests.js", true],
  ["src/networking/text/planted.ts", "../manifests/read-manifests.js", true],
  ["src/networking/text/yaml/planted.ts", "../../manifests/read-manifests.js", true],
  // controls: imports that point down are allowed
  ["src/networking/manifests/planted.ts", "../text/yaml/yaml.js", false],
  ["src/networking/manifests/planted.ts", "../validation/validate.js", false],
  ["src/networking/protobuf/planted.ts", "../model/kinds.js", false],
  ["src/networking/text/planted.ts", "../model/zero.js", false],
  ["src/networking/text/json/planted.ts", "../../model/zero.js", false],
  ["src/networking/text/yaml/planted.ts", "../json/from-json.js", false],
  ["src/networking/evaluate/router/planted.ts", "../../validation/validate.js", false],
  ["src/networking/evaluate/router/planted.ts", "../policy/engine.js", false],
  ["src/storage/client/planted.ts", "../codecs/cache.js", false],
  ["src/testing/planted.ts", "../networking/index.js", false],
  ["src/testing/planted.ts", "../storage/index.js", false],
  ["src/testing/storage/planted.ts", "../../storage/index.js", false],
  ["src/testing/storage/planted.ts", "../../storage/server/index.js", false],
  ["src/cli/validate/planted.ts", "../shared/io.js", false],
  ["src/cli/validate/planted.ts", "./run.js", false],
  ["src/cli/validate/planted.ts", "../../networking/index.js", false],
  ["src/cli/storage/planted.ts", "../../storage/server/index.js", false],
  ["src/cli/shared/planted.ts", "./io.js", false],
  ["src/cli/storage/inventory.ts", "../../networking/text/json/parse.js", false],
  ["src/cli/route/command.ts", "../../networking/evaluate/router/router.js", false],
  ["src/cli/shared/cluster-file.ts", "../../networking/text/json/from-json.js", false],
  ["src/admission/guards/planted.ts", "../../networking/index.js", false],
  // The one internal entry admission may import: the router's precedence rules, shared with the capture guard.
  ["src/admission/guards/planted.ts", "../../networking/evaluate/router/precedence.js", false],
  ["src/admission/guards/planted.ts", "../../networking/evaluate/types.js", true],
  ["src/admission/server/cluster/planted.ts", "../../../networking/index.js", false],
  ["src/admission/server/cluster/planted.ts", "../../guards/ingress-capture.js", false],
  ["src/playground/planted.ts", "../networking/index.js", false],
  ["src/playground/planted.ts", "./analyze.js", false],
  ["src/cli/reach/heatmap-page/planted.ts", "./cells.js", false],
  ["src/cli/reach/heatmap-page/planted.ts", "../heatmap-data.js", false],
  ["src/cli/reach/planted.ts", "./heatmap-page-bundle.js", false],
];

interface Diagnostic {
  readonly category: string;
  readonly location: { readonly path: string };
}

/** Lints a tree of `files` (path -> text) with the project's biome.jsonc; the categories per file. */
function lint(name: string, files: Readonly<Record<string, string>>): Map<string, string[]> {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(root, "biome.jsonc"), join(dir, "biome.jsonc"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  let out: string;
  try {
    out = execFileSync(
      process.execPath,
      [biome, "lint", "--vcs-enabled=false", "--reporter=json", "--max-diagnostics=none", "."],
      {
        cwd: dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  } catch (e) {
    // Biome exits 1 when it reports an error; the JSON report is still on stdout.
    out = (e as { stdout?: string }).stdout ?? "";
  }
  const found = new Map<string, string[]>();
  for (const d of (JSON.parse(out) as { diagnostics: Diagnostic[] }).diagnostics) {
    const list = found.get(d.location.path) ?? [];
    list.push(d.category);
    found.set(d.location.path, list);
  }
  return found;
}

describe("layer boundaries (biome.jsonc)", () => {
  it.each(CASES.map((c, i) => [i, ...c] as const))(
    "case %i: %s importing %s is refused: %s",
    (i, file, specifier, refused) => {
      const found = lint(`case${i}`, {
        [file]: `import { planted } from "${specifier}";\nexport const used = planted;\n`,
      });
      expect((found.get(file) ?? []).includes("lint/style/noRestrictedImports")).toBe(refused);
    },
  );

  it("an import cycle is refused, inside a layer too", () => {
    const found = lint("cycle", {
      "src/networking/model/a.ts": 'import { b } from "./b.js";\nexport const a = (): number => b() + 1;\n',
      "src/networking/model/b.ts": 'import { a } from "./a.js";\nexport const b = (): number => a() - 1;\n',
    });
    expect(found.get("src/networking/model/a.ts")).toContain("lint/suspicious/noImportCycles");
  });
});

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );

/** The text of an entry point without its comments (line and block) and `export ... from` statements. */
const beyondReExports = (file: string): string =>
  readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "")
    .replace(/export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+"[^"]+";/g, "")
    .trim();

describe("src/networking's shape", () => {
  const ROOT = join(root, "src", "networking");
  const all = tsFiles(ROOT);

  it("every module sits in a layer folder; only index.ts is at the top", () => {
    const layers = ["model", "protobuf", "text", "validation", "evaluate", "manifests"];
    const top = all.map((f) => relative(ROOT, f)).filter((f) => !f.includes("/"));
    expect(top).toEqual(["index.ts"]);
    for (const f of all.map((f) => relative(ROOT, f)).filter((f) => f.includes("/"))) {
      expect(layers, f).toContain(f.split("/")[0]);
    }
  });

  it("index.ts only re-exports", () => {
    expect(beyondReExports(join(ROOT, "index.ts"))).toBe("");
  });

  it("exactly one module reads varints: protobuf/wire.ts", () => {
    // BinaryReader's varint methods, or a loop over 7-bit groups.
    const readers = all.filter((f) =>
      /\.(u?int32|u?int64|sint32|sint64|bool)\(\)|& 0x7f\)|\b(?:b|x) < 0x80\b/.test(readFileSync(f, "utf8")),
    );
    expect(readers.map((f) => relative(ROOT, f))).toEqual(["protobuf/wire.ts"]);
  });
});

describe("src/storage's shape", () => {
  const ROOT = join(root, "src", "storage");

  it("has the three layers and an entry point", () => {
    const top = readdirSync(ROOT).sort();
    expect(top).toEqual(["client", "codecs", "index.ts", "server"]);
  });

  it("index.ts only re-exports, and never the server (that is clusterwire/storage/server)", () => {
    const index = join(ROOT, "index.ts");
    expect(beyondReExports(index)).toBe("");
    expect(readFileSync(index, "utf8")).not.toMatch(/from\s+"\.\/server\//);
  });
});
