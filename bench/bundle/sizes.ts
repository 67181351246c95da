/**
 * The size a browser user pays for each part of clusterwire/networking:
 * esbuild bundles a one-line entry for the browser platform, minified (the
 * bundler users are most likely to meet; Vite builds on it), and the output
 * is gzipped at level 9 with node:zlib. Sizes are deterministic for a given
 * source tree and lockfile.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildSync, type Metafile } from "esbuild";

/** One measured bundle: what it imports from clusterwire/networking. */
export interface SizeEntry {
  readonly name: string;
  /** Named exports, or "*" for `export * from` the whole surface. */
  readonly imports: readonly string[] | "*";
  /** Gzipped bytes the bundle may not exceed, and why a user pays that much. */
  readonly budget: number;
  readonly why: string;
}

// Budgets are gzipped bytes, about 10% above the sizes measured when they were
// set (README, "In the browser"): room for a few fixes and messages, not for a
// new dependency or for one export dragging in another's code.
const KIB = 1024;

export const SIZE_ENTRIES: readonly SizeEntry[] = [
  {
    name: "validate",
    imports: ["validate"],
    budget: 14 * KIB, // measured 12928 B (esbuild 0.28.2, 2026-11-26)
    why: "every rule of the API server's validation for the five kinds, with its messages; no codec",
  },
  {
    name: "fromJson + toJson",
    imports: ["fromJson", "toJson"],
    budget: 50 * KIB, // measured 45798 B (esbuild 0.28.2, 2026-11-26)
    why: "the JSON codec: the readers and writers generated at build time, the message schemas and @bufbuild/protobuf",
  },
  {
    name: "decode + encode",
    imports: ["decode", "encode"],
    budget: 44 * KIB, // measured 40170 B (esbuild 0.28.2, 2026-11-26)
    why: "the protobuf wire codec: the codecs generated at build time, the message schemas and @bufbuild/protobuf",
  },
  {
    name: "fromYaml",
    imports: ["fromYaml"],
    budget: 45 * KIB, // measured 41464 B (esbuild 0.28.2, 2026-11-26, the go-yaml v2 reader)
    why: "the JSON codec plus clusterwire's go-yaml v2 reader (scanner, parser, composer)",
  },
  {
    name: "createRouter",
    imports: ["createRouter"],
    budget: 17 * KIB, // measured 15366 B (esbuild 0.28.2, 2026-11-26)
    why: "Ingress routing with the ingress class rules; no codec",
  },
  {
    name: "createPolicyEngine",
    imports: ["createPolicyEngine"],
    budget: 21 * KIB, // measured 18756 B (esbuild 0.28.2, 2026-11-26)
    why: "NetworkPolicy evaluation and the truth table; no codec",
  },
  {
    name: "full networking surface",
    imports: "*",
    budget: 130 * KIB, // measured 122234 B (esbuild 0.28.2, 2026-11-28, with the connectivity analysis)
    why: "everything above, the connectivity analysis, the watch codecs and the generated schemas of every message",
  },
];

/** The repository root: the nearest folder up from this file with a package.json (works from bench/ and dist/bench/). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("no package.json above bench/bundle");
    dir = up;
  }
  return dir;
}

/** The entry module's text: named imports re-exported, or the whole surface. */
export function entrySource(imports: readonly string[] | "*"): string {
  return imports === "*"
    ? `export * from "./src/networking/index.ts";`
    : `export { ${imports.join(", ")} } from "./src/networking/index.ts";`;
}

export interface BrowserBundle {
  readonly text: string;
  readonly metafile: Metafile;
}

/** Bundles `imports` of clusterwire/networking for the browser, minified, as one ES module. */
export function bundleNetworking(imports: readonly string[] | "*"): BrowserBundle {
  const root = repoRoot();
  const result = buildSync({
    stdin: { contents: entrySource(imports), resolveDir: root, loader: "ts", sourcefile: "entry.ts" },
    absWorkingDir: root,
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    minify: true,
    metafile: true,
    logLevel: "silent",
  });
  const text = result.outputFiles[0]?.text;
  if (text === undefined) throw new Error("esbuild wrote no output");
  return { text, metafile: result.metafile };
}

export interface MeasuredSize {
  readonly entry: SizeEntry;
  readonly minified: number;
  readonly gzipped: number;
}

/** Minified and gzipped (level 9) bytes of one entry's bundle. */
export function measure(entry: SizeEntry): MeasuredSize {
  const bytes = new TextEncoder().encode(bundleNetworking(entry.imports).text);
  return { entry, minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
}
