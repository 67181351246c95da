// The layering, as LAYERS in scripts/check-layers.mjs states it and `npm run lint` enforces it:
//   networking: model <- protobuf, text, validation <- evaluate, manifests <- index.ts <- cli, testing,
//               playground, admission; internal.ts (not public) <- cli only
//   storage:    codecs <- client; the reference server imports neither
//   admission:  the core (no I/O) <- server/ -> client (clusterwire/client's entry point)
//   client:     the public networking entry point only <- admission/server, cli
//   cli:        shared <- one folder per command (never importing another) <- main.ts
//   playground: the public networking entry point only
//   heatmap page (cli/reach/heatmap-page/): its own folder and reach/heatmap-data.ts only, no Node built-in
// Each case below plants one import in a file of the tree and runs the checker on it, expecting
// the import to be refused with its layer's message (or, for the controls, allowed): the rules are
// shown to bite, not only to pass. The bundle test shows what a bundler keeps of the result.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { LAYERS, ROOTS, checkLayers, checkText, formatViolation, layerOf } from "../../scripts/check-layers.mjs";
import { resolveSpecifier, tsFiles } from "../../scripts/import-graph.mjs";

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
  // The CLI reads networking internals through networking/internal.js only: no file has a door of its own.
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
  ["src/playground/planted.ts", "node:fs", true],
  ["src/cli/reach/planted.ts", "node:zlib", false],
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
  ["src/cli/shared/planted.ts", "../../networking/internal.js", false],
  ["src/cli/demo/planted.ts", "../../networking/internal.js", false],
  ["src/cli/storage/inventory.ts", "../../networking/internal.js", false],
  ["src/cli/storage/inventory.ts", "../../networking/text/json/parse.js", true],
  ["src/cli/route/command.ts", "../../networking/evaluate/router/router.js", true],
  ["src/cli/shared/cluster-file.ts", "../../networking/text/json/from-json.js", true],
  ["src/cli/demo/expectations.ts", "../../networking/text/yaml/compose.js", true],
  ["src/cli/reach/command.ts", "../../networking/evaluate/policy/types.js", true],
  // networking/internal.js is the CLI's alone.
  ["src/playground/planted.ts", "../networking/internal.js", true],
  ["src/testing/planted.ts", "../networking/internal.js", true],
  ["src/testing/storage/planted.ts", "../../networking/internal.js", true],
  ["src/admission/planted.ts", "../networking/internal.js", true],
  ["src/admission/guards/planted.ts", "../../networking/internal.js", true],
  ["src/admission/server/cluster/planted.ts", "../../../networking/internal.js", true],
  ["src/admission/guards/planted.ts", "../../networking/index.js", false],
  // The one internal entry admission may import: the router's precedence rules, shared with the capture guard.
  ["src/admission/guards/planted.ts", "../../networking/evaluate/router/precedence.js", false],
  ["src/admission/guards/planted.ts", "../../networking/evaluate/types.js", true],
  ["src/admission/server/cluster/planted.ts", "../../../networking/index.js", false],
  ["src/admission/server/cluster/planted.ts", "../../guards/ingress-capture.js", false],
  ["src/playground/planted.ts", "../networking/index.js", false],
  ["src/playground/planted.ts", "./analyze.js", false],
  // Rules the checker holds that Biome's globs did not reach.
  ["src/networking/model/planted.ts", "../internal.js", true],
  ["src/networking/evaluate/policy/planted.ts", "../../../admission/index.js", true],
  ["src/networking/planted.ts", "../storage/index.js", true],
  ["src/networking/planted.ts", "./text/yaml/compose.js", false],
  ["src/storage/planted.ts", "./server/index.js", true],
  ["src/storage/planted.ts", "./client/client.js", false],
  ["src/storage/server/planted.ts", "../index.js", true],
  ["src/admission/planted.ts", "./server/index.js", true],
  ["src/admission/guards/planted.ts", "../server/index.js", true],
  ["src/admission/server/planted.ts", "../admit.js", false],
  ["src/admission/server/planted.ts", "../../networking/evaluate/router/router.js", true],
  ["src/testing/planted.ts", "../networking/model/shapes.js", false],
  ["src/testing/planted.ts", "../admission/index.js", false],
  ["src/testing/planted.ts", "../admission/server/index.js", true],
  ["src/testing/planted.ts", "../cli/main.js", true],
  ["src/cli/planted.ts", "../networking/text/json/parse.js", true],
  ["src/cli/planted.ts", "../testing/index.js", true],
  ["src/cli/planted.ts", "./route/command.js", false],
  ["src/cli/planted.ts", "../networking/internal.js", false],
  ["src/cli/validate/planted.ts", "../../testing/index.js", true],
  ["src/cli/webhook/planted.ts", "../../admission/server/index.js", false],
  ["src/index.ts", "./networking/index.js", true],
  // clusterwire/client: the public networking entry point and packages only; admission's server and the CLI may use it.
  ["src/client/planted.ts", "../networking/index.js", false],
  ["src/client/config/planted.ts", "../../networking/index.js", false],
  ["src/client/informer/planted.ts", "../types.js", false],
  ["src/client/transport/planted.ts", "node:https", false],
  ["src/client/planted.ts", "../networking/protobuf/decode.js", true],
  ["src/client/planted.ts", "../networking/internal.js", true],
  ["src/client/transport/planted.ts", "../../networking/text/json/from-json.js", true],
  ["src/client/planted.ts", "../admission/index.js", true],
  ["src/client/planted.ts", "../storage/index.js", true],
  ["src/client/planted.ts", "../cli/main.js", true],
  ["src/client/informer/planted.ts", "../../networking/protobuf/watch.js", true],
  ["src/client/informer/planted.ts", "../../networking/index.js", false],
  ["src/admission/server/cluster/planted.ts", "../../../client/index.js", false],
  ["src/admission/server/cluster/planted.ts", "../../../client/config/credentials.js", true],
  ["src/admission/server/planted.ts", "../../client/transport/request.js", true],
  ["src/admission/planted.ts", "../client/index.js", true],
  ["src/admission/guards/planted.ts", "../../client/index.js", true],
  ["src/cli/webhook/planted.ts", "../../client/index.js", false],
  ["src/cli/shared/planted.ts", "../../client/index.js", false],
  ["src/cli/planted.ts", "../client/index.js", false],
  ["src/cli/webhook/planted.ts", "../../client/resource-client.js", true],
  ["src/testing/planted.ts", "../client/index.js", true],
  ["src/playground/planted.ts", "../client/index.js", true],
  ["src/networking/planted.ts", "../client/index.js", true],
  ["plugin/planted.ts", "../src/networking/model/go-shapes.js", false],
  ["plugin/planted.ts", "../src/networking/model/kind-names.js", false],
  ["plugin/planted.ts", "../src/networking/model/kinds.js", true],
  ["plugin/planted.ts", "./emitter.js", false],
  ["plugin/planted.mjs", "../src/networking/model/kinds.js", true],
  ["gen/k8s/io/api/networking/v1/planted.ts", "../../../../../../src/networking/model/kinds.js", true],
  ["gen/k8s/io/api/networking/v1/planted.ts", "../../core/v1/core_pb.js", false],
  ["src/cli/reach/heatmap-page/planted.ts", "./cells.js", false],
  ["src/cli/reach/heatmap-page/planted.ts", "../heatmap-data.js", false],
  ["src/cli/reach/planted.ts", "./heatmap-page-bundle.js", false],
];

const PLANTED = (specifier: string): string =>
  `import { planted } from "${specifier}";\nexport const used = planted;\n`;

describe("layer boundaries (LAYERS in scripts/check-layers.mjs)", () => {
  it.each(CASES.map((c, i) => [i, ...c] as const))(
    "case %i: %s importing %s is refused: %s",
    (_, file, specifier, refused) => {
      // The import names a real file (or a Node built-in), so an allowed case allows something that is there.
      if (!specifier.startsWith("node:"))
        expect(resolveSpecifier(join(root, file), specifier), specifier).toBeDefined();
      const found = checkText(root, file, PLANTED(specifier));
      expect(found.map((v) => v.message)).toEqual(refused ? [layerOf(file)?.message] : []);
    },
  );

  it("judges type-only imports, re-exports and import() too, at their lines", () => {
    const text = [
      `import { fine } from "../networking/index.js";`,
      `import type { A } from "../networking/validation/validate.js";`,
      `export type { B } from "../storage/index.js";`,
      `type C = import("../cli/main.js").C;`,
      `import {`,
      `  type D,`,
      `} from "../admission/index.js";`,
      `// import { E } from "../storage/index.js"; (a comment is no import)`,
    ].join("\n");
    const found = checkText(root, "src/playground/planted.ts", text);
    expect(found.map((v) => [v.line, v.target])).toEqual([
      [2, "src/networking/validation/validate.ts"],
      [3, "src/storage/index.ts"],
      [4, "src/cli/main.ts"],
      [5, "src/admission/index.ts"],
    ]);
    expect(formatViolation(found[0]!)).toBe(
      'src/playground/planted.ts:2: import "../networking/validation/validate.js" (src/networking/validation/validate.ts): the playground uses the public entry points of networking and connectivity only, and no Node built-in: it runs in the browser',
    );
  });

  it("an import of a file that does not exist is judged by the path it names", () => {
    const found = checkText(root, "src/playground/planted.ts", PLANTED("../networking/gone/away.js"));
    expect(found.map((v) => v.target)).toEqual(["src/networking/gone/away.ts"]);
  });

  it("a file in no layer is refused, whatever it imports", () => {
    const found = checkText(root, "src/elsewhere/planted.ts", "export const nothing = 1;\n");
    expect(found).toHaveLength(1);
    expect(formatViolation(found[0]!)).toBe(
      "src/elsewhere/planted.ts: the file is in no layer: add a row for its folder to LAYERS (scripts/check-layers.mjs)",
    );
  });

  it("a command folder is a layer of its own; main.ts and shared/ are not commands", () => {
    expect(layerOf("src/cli/route/command.ts")).toMatchObject({ row: "src/cli/*", layer: "src/cli/route" });
    expect(layerOf("src/cli/shared/io.ts")).toMatchObject({ row: "src/cli/shared", layer: "src/cli/shared" });
    expect(layerOf("src/cli/main.ts")).toMatchObject({ row: "src/cli", layer: "src/cli" });
  });

  it("every row holds a file of the tree, and everything a row allows exists", () => {
    const { violations, files } = checkLayers(root);
    // The walk read the tree: a wrong root would read nothing, and find nothing wrong.
    expect(files).toBeGreaterThan(200);
    expect(violations.map(formatViolation)).toEqual([]);
    const held = new Set(
      ROOTS.flatMap((r) => tsFiles(join(root, r), true)).map((f) => layerOf(relative(root, f))?.row),
    );
    for (const [layer, may] of LAYERS) {
      expect(held, layer).toContain(layer);
      for (const m of may) expect(existsSync(join(root, m)), `${layer} may import ${m}`).toBe(true);
    }
  });

  it("an import cycle is refused by Biome, inside a layer too", () => {
    const dir = join(work, "cycle");
    const files = {
      "src/networking/model/a.ts": 'import { b } from "./b.js";\nexport const a = (): number => b() + 1;\n',
      "src/networking/model/b.ts": 'import { a } from "./a.js";\nexport const b = (): number => a() - 1;\n',
    };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "biome.jsonc"), readFileSync(join(root, "biome.jsonc")));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    let out: string;
    try {
      out = execFileSync(process.execPath, [biome, "lint", "--vcs-enabled=false", "--reporter=json", "."], {
        cwd: dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (e) {
      // Biome exits 1 when it reports an error; the JSON report is still on stdout.
      out = (e as { stdout?: string }).stdout ?? "";
    }
    const { diagnostics } = JSON.parse(out) as {
      diagnostics: { category: string; location: { path: string } }[];
    };
    expect(diagnostics.filter((d) => d.location.path === "src/networking/model/a.ts").map((d) => d.category)).toContain(
      "lint/suspicious/noImportCycles",
    );
  });
});

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

  it("every module sits in a layer folder; only index.ts and internal.ts are at the top", () => {
    const layers = ["model", "protobuf", "text", "validation", "evaluate", "manifests"];
    const top = all.map((f) => relative(ROOT, f)).filter((f) => !f.includes("/"));
    expect(top.sort()).toEqual(["index.ts", "internal.ts"]);
    for (const f of all.map((f) => relative(ROOT, f)).filter((f) => f.includes("/"))) {
      expect(layers, f).toContain(f.split("/")[0]);
    }
  });

  it("index.ts and internal.ts only re-export", () => {
    expect(beyondReExports(join(ROOT, "index.ts"))).toBe("");
    expect(beyondReExports(join(ROOT, "internal.ts"))).toBe("");
  });

  it("internal.ts is no entry point of the package", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> };
    expect(JSON.stringify(pkg.exports)).not.toMatch(/internal/);
    expect(Object.keys(pkg.exports)).toContain("./networking");
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
