// Tree-shaking: package.json says "sideEffects": false and no module under src/ runs anything
// with effects when imported, so a browser bundle of one export holds only what that export
// reaches. esbuild is the bundler users are most likely to meet (Vite builds on it).
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { buildSync, type Metafile, transformSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { SIZE_ENTRIES, bundleNetworking } from "../../bench/bundle/sizes.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Bundle {
  /** Input files that contributed bytes to the output, relative to the repo root. */
  readonly files: readonly string[];
  readonly text: string;
}

/** Bundles a one-line entry importing `names` from a package entry point. */
function bundle(
  entry: "networking" | "storage" | "admission",
  names: readonly string[],
  platform: "browser" | "node" = "browser",
): Bundle {
  const result = buildSync({
    stdin: {
      contents: `import { ${names.join(", ")} } from "./src/${entry}/index.ts"; console.log(${names.join(", ")});`,
      resolveDir: root,
      loader: "ts",
      sourcefile: "entry.ts",
    },
    absWorkingDir: root,
    bundle: true,
    write: false,
    format: "esm",
    platform,
    metafile: true,
    logLevel: "silent",
  });
  const meta: Metafile = result.metafile;
  const [output] = Object.values(meta.outputs);
  if (output === undefined) throw new Error("esbuild wrote no output");
  const files = Object.entries(output.inputs)
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([f]) => f);
  return { files, text: result.outputFiles[0]?.text ?? "" };
}

const under = (b: Bundle, prefix: string) => b.files.filter((f) => f.startsWith(prefix));

describe("package.json", () => {
  it('declares "sideEffects": false, so bundlers may drop unused modules', () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      sideEffects?: unknown;
    };
    expect(pkg.sideEffects).toBe(false);
  });

  it("every export names the built form of a source entry point, with its types beside it", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, string | { types: string; default: string }>;
    };
    const entries = Object.entries(pkg.exports).filter(([name]) => name !== "./package.json");
    expect(entries.map(([name]) => name)).toEqual(
      expect.arrayContaining(["./networking", "./admission", "./admission/server", "./testing"]),
    );
    for (const [name, target] of entries) {
      if (typeof target === "string") throw new Error(`${name}: expected { types, default }`);
      expect(target.default).toBe(`./dist/src${name.slice(1)}/index.js`);
      expect(target.types).toBe(`./dist/src${name.slice(1)}/index.d.ts`);
      expect(existsSync(`${root}src${name.slice(1)}/index.ts`), `${name} has no src${name.slice(1)}/index.ts`).toBe(
        true,
      );
    }
  });
});

describe("clusterwire/admission in a bundle", () => {
  it("the admission core pulls in neither the HTTPS server nor a Node built-in", () => {
    const b = bundle("admission", ["admit", "reviewAdmission"]);
    expect(under(b, "src/admission/").length).toBeGreaterThan(0);
    expect(under(b, "src/admission/server/")).toEqual([]);
    expect(b.text).not.toMatch(/from "node:/);
  });
});

describe("clusterwire/networking in a browser bundle", () => {
  it("validate alone pulls in no protobuf codec, text codec or evaluator code", () => {
    const b = bundle("networking", ["validate"]);
    expect(under(b, "src/networking/validation/").length).toBeGreaterThan(0);
    expect(under(b, "src/networking/protobuf/")).toEqual([]);
    expect(under(b, "src/networking/text/")).toEqual([]);
    expect(under(b, "src/networking/evaluate/")).toEqual([]);
    expect(b.files.filter((f) => f.includes("node_modules/"))).toEqual([]);
    expect(b.text).not.toContain("new Function");
  });

  it("decode does pull in the protobuf codec (the check above can fail)", () => {
    const b = bundle("networking", ["decode"]);
    expect(under(b, "src/networking/protobuf/").length).toBeGreaterThan(0);
    expect(under(b, "src/networking/validation/")).toEqual([]);
    expect(under(b, "src/networking/evaluate/")).toEqual([]);
  });

  it("fromJson pulls in no protobuf codec", () => {
    const b = bundle("networking", ["fromJson"]);
    expect(under(b, "src/networking/text/").length).toBeGreaterThan(0);
    expect(under(b, "src/networking/protobuf/")).toEqual([]);
  });

  it("createRouter pulls in no codec", () => {
    const b = bundle("networking", ["createRouter"]);
    expect(under(b, "src/networking/evaluate/").length).toBeGreaterThan(0);
    expect(under(b, "src/networking/protobuf/")).toEqual([]);
    expect(under(b, "src/networking/text/")).toEqual([]);
  });
  it("createPolicyEngine pulls in no codec", () => {
    const b = bundle("networking", ["createPolicyEngine"]);
    expect(under(b, "src/networking/evaluate/policy/").length).toBeGreaterThan(0);
    expect(under(b, "src/networking/protobuf/")).toEqual([]);
    expect(under(b, "src/networking/text/")).toEqual([]);
  });
});

describe("clusterwire/networking is plain browser JavaScript", () => {
  const NODE_BUILTINS = new Set(builtinModules);
  const isNodeImport = (path: string) => path.startsWith("node:") || NODE_BUILTINS.has(path.split("/")[0] ?? path);

  // Names that exist only in Node (or CommonJS): a bundle for browsers must not
  // reach them. Matched as free identifiers, not as property names.
  const NODE_GLOBALS =
    /(?<![.\w$])(Buffer|process|require|module|exports|__dirname|__filename|setImmediate|clearImmediate|global)(?![\w$])/g;
  // Dependency files that name a Node global, each checked by hand:
  // @bufbuild/protobuf reads process.env.BUF_BIGINT_DISABLE only after
  // `typeof process == "object"`. (YAML is read by clusterwire's own
  // go-yaml v2 reader; the yaml package is no longer in any bundle.)
  const GUARDED = ["node_modules/@bufbuild/protobuf/dist/esm/proto-int64.js"];

  // Files repeat across the bundles below: scan each once.
  const scanned = new Map<string, string[]>();

  /** The Node globals each input file names, comments stripped; files with none are left out. */
  function nodeGlobals(meta: Metafile): Map<string, string[]> {
    const found = new Map<string, string[]>();
    for (const file of Object.keys(meta.inputs)) {
      if (file === "entry.ts") continue; // the one-line stdin entry (bench/bundle/sizes.ts)
      let names = scanned.get(file);
      if (names === undefined) {
        const code = transformSync(readFileSync(`${root}${file}`, "utf8"), {
          loader: file.endsWith(".ts") ? "ts" : "js",
          minifyWhitespace: true,
        }).code;
        names = [...code.matchAll(NODE_GLOBALS)].map((m) => m[1] ?? "");
        scanned.set(file, names);
      }
      if (names.length > 0) found.set(file, names);
    }
    return found;
  }

  /** Every way a bundle could need Node or run compiled code, as readable lines. */
  function problems(imports: readonly string[] | "*"): string[] {
    const { text, metafile } = bundleNetworking(imports);
    const out: string[] = [];
    for (const [file, input] of Object.entries(metafile.inputs)) {
      for (const im of input.imports) {
        if (im.external || isNodeImport(im.path)) out.push(`${file} imports ${im.path}`);
      }
      if (isNodeImport(file)) out.push(`bundle holds ${file}`);
    }
    for (const [file, names] of nodeGlobals(metafile)) {
      if (!GUARDED.includes(file)) out.push(`${file} names ${[...new Set(names)].join(", ")}`);
    }
    for (const pattern of [/\beval\(/, /new Function/, /(?<![\w$.])Function\(/, /\bimport\(/]) {
      const at = text.search(pattern);
      if (at >= 0) out.push(`output has ${pattern.source} at ${at}: ${text.slice(at - 40, at + 40)}`);
    }
    return out;
  }

  it("the full surface (export *), minified for the browser platform, needs nothing from Node and compiles no code", () => {
    expect(problems("*")).toEqual([]);
  });

  // Exports a page might import alone, beyond those the size table measures.
  const SINGLE = [
    ...SIZE_ENTRIES.flatMap((e) => (e.imports === "*" ? [] : [e.imports])),
    ["toYaml"],
    ["decodeWatchStream", "encodeWatchEvent"],
    ["decodeJsonWatchStream"],
    ["apiWarnings", "applyDefaults", "toStatus", "formatFieldError"],
    ["create", "IngressSchema"],
    ["annotateWire", "formatWireAnnotation"],
  ];
  for (const names of SINGLE) {
    it(`${names.join(" + ")} alone needs nothing from Node and compiles no code`, () => {
      expect(problems(names)).toEqual([]);
    });
  }

  it("the YAML reader is clusterwire's own (no yaml package file is bundled), and the guarded dependency files are still the ones named", () => {
    const { metafile } = bundleNetworking("*");
    const files = Object.keys(metafile.inputs);
    expect(files.filter((f) => f.startsWith("node_modules/yaml/"))).toEqual([]);
    expect(files).toContain("src/networking/text/yaml/scanner.ts");
    // If a dependency update moves or drops a guarded reference, look at it again.
    expect([...nodeGlobals(metafile).keys()].sort()).toEqual([...GUARDED].sort());
  });

  it("the checks can fail: a source that reads a Node global, imports node: or calls eval is caught", () => {
    const NODE_GLOBALS_ONCE = new RegExp(NODE_GLOBALS.source);
    expect(NODE_GLOBALS_ONCE.test('const b = Buffer.from("aGk=", "base64");')).toBe(true);
    expect(NODE_GLOBALS_ONCE.test("if (typeof process !== 'object') {}")).toBe(true);
    expect(NODE_GLOBALS_ONCE.test("x.process(y); const Buffering = 1;")).toBe(false);
    expect(isNodeImport("node:fs")).toBe(true);
    expect(isNodeImport("zlib")).toBe(true);
    expect(isNodeImport("fs/promises")).toBe(true);
    expect(isNodeImport("yaml")).toBe(false);
    // A Node import stops esbuild's browser build outright.
    expect(() =>
      buildSync({
        stdin: { contents: 'import { gzipSync } from "node:zlib"; console.log(gzipSync);', loader: "ts" },
        bundle: true,
        write: false,
        platform: "browser",
        logLevel: "silent",
      }),
    ).toThrow(/node:zlib/);
  });
});

// The storage client's transport needs node:http and node:https, so this bundle is for Node.
describe("clusterwire/storage in a bundle", () => {
  it("the codecs alone pull in neither the client nor the reference server", () => {
    const b = bundle("storage", ["cache", "parseSize"], "node");
    expect(under(b, "src/storage/codecs/").length).toBeGreaterThan(0);
    expect(under(b, "src/storage/client/")).toEqual([]);
    expect(under(b, "src/storage/server/")).toEqual([]);
  });

  it("the client pulls in the codecs but not the reference server", () => {
    const b = bundle("storage", ["StorageClient"], "node");
    expect(under(b, "src/storage/client/").length).toBeGreaterThan(0);
    expect(under(b, "src/storage/codecs/").length).toBeGreaterThan(0);
    expect(under(b, "src/storage/server/")).toEqual([]);
  });
});
