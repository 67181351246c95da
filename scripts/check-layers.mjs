#!/usr/bin/env node
// The layer check, run by `npm run lint` after Biome: reads every import of the code of src/,
// plugin/ and gen/ (TypeScript and JavaScript; type-only imports and import() included, through
// scripts/import-graph.mjs) and prints FILE:LINE: import "SPECIFIER" (TARGET): MESSAGE for each
// one LAYERS does not allow; exits 1 when there is any, 0 when there is none. test/suites/layers.test.ts plants imports to show each rule
// refuses what it should and allows what it should.
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { importsOf, repoPath, resolveSpecifier, tsFiles } from "./import-graph.mjs";

// The layers, the one place they are written. Each row is [layer, what it may import, message]:
//   layer    a folder (a .ts name: that one file). `*` makes each folder under it a layer of its
//            own (src/cli/*: one per command). A file belongs to the first row that holds it, so
//            the narrow rows come first; a file of src/, plugin/ or gen/ that no row holds fails.
//   may      beyond its own layer's files, the folders (with everything under them) and files it
//            may import. Every relative import is judged; packages are allowed, but not Node's
//            built-ins in the layers that run in a browser (BROWSER).
//   message  printed with each import the row refuses.
const MODEL = "src/networking/model";
const DOWN = "imports point down: model <- protobuf, text, validation <- evaluate, manifests <- index.ts";
const NETWORKING = "src/networking/index.ts"; // clusterwire/networking
const STORAGE = ["src/storage/index.ts", "src/storage/server/index.ts"]; // clusterwire/storage, clusterwire/storage/server
const ADMISSION = "src/admission/index.ts"; // clusterwire/admission
const CLIENT = "src/client/index.ts"; // clusterwire/client
const CONNECTIVITY = "src/connectivity/index.ts"; // clusterwire/connectivity
/** The public entry points, and the networking internals the CLI reads (src/networking/internal.ts says why). */
const CLI_USES = [
  NETWORKING,
  "src/networking/internal.ts",
  ...STORAGE,
  ADMISSION,
  "src/admission/server/index.ts",
  CLIENT,
  CONNECTIVITY,
];
const CLI_RULE =
  "the CLI uses the public entry points of networking, storage, admission, client and connectivity, and networking/internal.ts";

/** @type {readonly (readonly [string, readonly string[], string])[]} */
export const LAYERS = [
  // The buf plugin is build tooling, not shipped; what it reads must import no generated code.
  [
    "plugin",
    ["src/networking/model/go-shapes.ts", "src/networking/model/kind-names.ts"],
    "the plugin reads only the Go shapes and kind names from src/; generated code must not depend on the rest",
  ],
  ["gen", [], "generated code imports nothing from src/"],
  ["src/index.ts", [], "the package root has no exports: it names the entry points"],
  ["src/networking/model", ["gen"], `networking/model may import only gen/ and packages; ${DOWN}`],
  ["src/networking/protobuf", ["gen", MODEL], `networking/protobuf may import only model; ${DOWN}`],
  ["src/networking/text", ["gen", MODEL], `networking/text may import only model; ${DOWN}`],
  ["src/networking/validation", ["gen", MODEL], `networking/validation may import only model; ${DOWN}`],
  [
    "src/networking/evaluate",
    ["gen", MODEL, "src/networking/validation"],
    `networking/evaluate may import only model, validation; ${DOWN}`,
  ],
  // Reading manifest texts of mixed kinds and judging them: builds on text (to read) and validation (to judge).
  [
    "src/networking/manifests",
    ["gen", MODEL, "src/networking/text", "src/networking/validation"],
    `networking/manifests may import only model, text, validation; ${DOWN}`,
  ],
  // index.ts (public) and internal.ts (the CLI's) re-export networking.
  ["src/networking", ["gen", "src/networking"], "networking does not know the CLI, the testing kit or storage"],
  [
    "src/storage/codecs",
    [],
    "storage/codecs is the bottom layer: it imports neither the client nor the server; storage does not know networking, the CLI or the testing kit",
  ],
  [
    "src/storage/client",
    ["src/storage/codecs"],
    "storage/client builds on codecs/ only; the reference server is an independent check of it",
  ],
  [
    "src/storage/server",
    [],
    "the reference server is deliberately independent of codecs/ and client/, so each checks the others",
  ],
  [
    "src/storage",
    ["src/storage/codecs", "src/storage/client"],
    "storage/index.ts re-exports the codecs and the client; the server is clusterwire/storage/server",
  ],
  [
    "src/admission/server",
    ["src/admission", NETWORKING, CLIENT],
    "the admission server builds on the admission core and the public entry points of clusterwire/networking and clusterwire/client only",
  ],
  // The Kubernetes client (Node only): the public networking entry point and packages, nothing else of the tree.
  ["src/client", [NETWORKING], "clusterwire/client builds on clusterwire/networking's public entry point only"],
  // Repositories of manifests: workloads, diffs, expectations, lint and reports, in Node and the browser.
  [
    "src/connectivity",
    [NETWORKING],
    "clusterwire/connectivity builds on clusterwire/networking's public entry point only, and no Node built-in: it runs in the browser",
  ],
  // The core of the webhook, without I/O. The capture guard (guards/) asks the router's own precedence rules.
  [
    "src/admission",
    [NETWORKING, "src/networking/evaluate/router/precedence.ts"],
    "admission builds on clusterwire/networking's public entry point (and the router's precedence rules) only; the core does no I/O: the HTTPS server builds on it, never the other way",
  ],
  // The any-shape arbitraries walk each message's Go field order (model/shapes.ts), which is not public;
  // checkAdmission takes and returns the admission entry point's request and response types.
  [
    "src/testing",
    [NETWORKING, "src/networking/model/shapes.ts", ...STORAGE, ADMISSION],
    "clusterwire/testing builds on the public entry points only",
  ],
  // The heatmap page's script, bundled alone for the browser by scripts/heatmap-page.mjs: from reach/ only the
  // data the writer embeds, never the writer itself. Before src/cli/*, which would hold it in reach/.
  [
    "src/cli/reach/heatmap-page",
    ["src/cli/reach/heatmap-data.ts"],
    "the heatmap page imports its own folder and ../heatmap-data.js only, and no Node built-in: it is bundled alone for the browser",
  ],
  // src/cli/: main.ts lists the commands; one folder per command, never importing another; shared/ what two or more use.
  ["src/cli/shared", CLI_USES, `cli/shared/ imports no command; ${CLI_RULE}`],
  [
    "src/cli/*",
    ["src/cli/shared", ...CLI_USES],
    `a command never imports another command or main.ts: move what two commands use to cli/shared/; ${CLI_RULE}`,
  ],
  ["src/cli", ["src/cli", ...CLI_USES], CLI_RULE],
  // The browser page.
  [
    "src/playground",
    [NETWORKING, CONNECTIVITY],
    "the playground uses the public entry points of networking and connectivity only, and no Node built-in: it runs in the browser",
  ],
];

/** The layers that run in a browser, where no Node built-in exists. */
export const BROWSER = ["src/cli/reach/heatmap-page", "src/playground", "src/connectivity"];
const NODE_BUILTINS = new Set(builtinModules);
/** @param {string} specifier */
const isNodeBuiltin = (specifier) => specifier.startsWith("node:") || NODE_BUILTINS.has(specifier.split("/")[0] ?? "");

/** The folders whose files must each belong to a layer. */
export const ROOTS = ["src", "plugin", "gen"];

const ROWS = LAYERS.map(([layer, may, message]) => ({
  name: layer,
  holds: layer.endsWith(".ts")
    ? new RegExp(`^${layer.replaceAll(".", "\\.")}$`)
    : new RegExp(`^${layer.replaceAll(".", "\\.").replace("*", "[^/]+")}(?=/)`),
  may,
  message,
}));

/**
 * The row holding a repository-relative path (its first column), and the layer it is in (`*` filled in).
 * @param {string} path
 */
export function layerOf(path) {
  for (const row of ROWS) {
    const m = row.holds.exec(path);
    if (m !== null) return { row: row.name, layer: m[0], may: row.may, message: row.message };
  }
  return undefined;
}

const NO_LAYER = "the file is in no layer: add a row for its folder to LAYERS (scripts/check-layers.mjs)";

/**
 * Why `file` may not import `target` (repository-relative paths), or undefined when it may.
 * @param {string} file
 * @param {string} target
 */
export function refusal(file, target) {
  const from = layerOf(file);
  if (from === undefined) return NO_LAYER;
  if (layerOf(target)?.layer === from.layer) return undefined;
  const allowed = from.may.some((m) => (m.endsWith(".ts") ? target === m : target.startsWith(`${m}/`)));
  return allowed ? undefined : from.message;
}

/**
 * The refused imports of one file's text (`file` relative to `root`, which need not exist).
 * @param {string} root
 * @param {string} file
 * @param {string} text
 * @returns {import("./check-layers.d.mts").Violation[]}
 */
export function checkText(root, file, text) {
  const abs = join(root, file);
  const from = layerOf(file);
  if (from === undefined) return [{ file, line: 0, message: NO_LAYER }];
  const browser = BROWSER.includes(from.layer);
  /** @type {import("./check-layers.d.mts").Violation[]} */
  const out = [];
  for (const { specifier, line } of importsOf(text)) {
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) {
      if (browser && isNodeBuiltin(specifier))
        out.push({ file, line, specifier, target: specifier, message: from.message });
      continue;
    }
    // An import of a file that does not exist is judged by the path it names (tsc refuses it anyway).
    const found = resolveSpecifier(abs, specifier);
    const target = repoPath(root, found ?? resolve(dirname(abs), specifier).replace(/\.(?:[mc]?js|jsx)$/, ".ts"));
    const message = refusal(file, target);
    if (message !== undefined) out.push({ file, line, specifier, target, message });
  }
  return out;
}

/**
 * Every refused import of the tree under `root`, and how many files were read.
 * @param {string} root
 */
export function checkLayers(root) {
  const files = ROOTS.flatMap((r) => tsFiles(join(root, r), true));
  const violations = files.flatMap((f) => checkText(root, repoPath(root, f), readFileSync(f, "utf8")));
  return { violations, files: files.length };
}

/**
 * One violation as the command prints it.
 * @param {import("./check-layers.d.mts").Violation} v
 */
export function formatViolation(v) {
  if (v.specifier === undefined) return `${v.file}: ${v.message}`;
  return `${v.file}:${v.line}: import "${v.specifier}" (${v.target}): ${v.message}`;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const { violations, files } = checkLayers(root);
  for (const v of violations) console.error(formatViolation(v));
  if (violations.length > 0) {
    console.error(`check-layers: ${violations.length} problem(s); the layers are LAYERS in scripts/check-layers.mjs`);
    process.exit(1);
  }
  console.log(`check-layers: ${files} files, every import within its layer's rules`);
}
