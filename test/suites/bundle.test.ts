// Tree-shaking: package.json says "sideEffects": false and no module under src/ runs anything
// with effects when imported, so a browser bundle of one export holds only what that export
// reaches. esbuild is the bundler users are most likely to meet (Vite builds on it).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSync, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";

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
