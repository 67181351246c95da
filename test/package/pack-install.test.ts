// The package as a user gets it: npm pack, installed into a new project beside
// fast-check, then every documented command and snippet run there as written:
// the fenced blocks of README.md and docs/**/*.md (by the convention in
// test/support/package/doc-blocks.ts) and the examples of every --help text.
// CONTRIBUTING.md is for a clone of the repository, so it is not run here.
import { buildIsStale } from "../support/global-build.js";
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractBlocks, helpExamples, listedCommands } from "../support/package/doc-blocks.js";
import {
  cleanEnv,
  type Failure,
  formatFailure,
  type Place,
  runDocBlocks,
  runHelpExamples,
} from "../support/package/doc-runner.js";
import { nonEmpty } from "../support/non-empty.js";
import { type FakeApiServer, startFakeApiServer } from "../support/admission/fake-api-server.js";
import { hostIngress } from "../support/admission/ingresses.js";
import { certProblem } from "../support/storage/cert.js";
import { spawn } from "node:child_process";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const PKG = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};

/** README.md and the manual, in the order the test runs them. */
const DOC_FILES = ["README.md", ...markdownUnder("docs")];

function markdownUnder(dir: string): string[] {
  const abs = join(REPO, dir);
  return nonEmpty(
    readdirSync(abs, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md")),
    `Markdown files under ${dir}/`,
  )
    .map((f) => join(dir, f).split("\\").join("/"))
    .sort();
}

/**
 * npx, as the docs write it, for a bin the project has: runs node_modules/.bin/NAME
 * directly, which is what npx does for a local bin, without starting npm first
 * (that halves the time of each command). Anything else goes to npm's own npx.
 */
function npxShim(dir: string): string {
  const realNpx = (process.env.PATH ?? "")
    .split(delimiter)
    .map((d) => join(d, "npx"))
    .find((f) => existsSync(f));
  const bin = join(dir, "npx-shim");
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, "npx"),
    [
      "#!/usr/bin/env bash",
      'if [ $# -gt 0 ] && [ -x "node_modules/.bin/$1" ]; then',
      '  name="$1"; shift; exec "node_modules/.bin/$name" "$@"',
      "fi",
      `exec ${JSON.stringify(realNpx ?? "npx")} "$@"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return bin;
}

let env = cleanEnv();

/** Runs a command to completion (no shell), failing with its output. */
function exec(command: string, args: readonly string[], cwd: string, timeoutMs = 180_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`${command} ${args.join(" ")} (in ${cwd}) failed: ${error.message}\n${stdout}\n${stderr}`));
    });
  });
}

interface Packed {
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly { readonly path: string }[];
}

let work = "";
let project = "";
let packed: Packed;
/**
 * The API server the client's docs and example talk to: a stand-in on loopback (the real one
 * needs Go; .ci/run runs the client against it), named by a kubeconfig in $KUBECONFIG.
 */
let apiServer: FakeApiServer;
let kubeconfig = "";

/** A kubeconfig naming `server`, trusting its certificate, with its token. */
function kubeconfigFor(server: FakeApiServer): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "current-context: docs",
    "clusters:",
    `- name: docs\n  cluster:\n    server: ${server.url}\n    certificate-authority-data: ${Buffer.from(server.ca).toString("base64")}`,
    "users:",
    `- name: docs\n  user:\n    token: ${server.token}`,
    "contexts:",
    "- name: docs\n  context: {cluster: docs, user: docs}",
    "",
  ].join("\n");
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "clusterwire-pack-"));
  const fake = await startFakeApiServer({ honourTimeoutSeconds: true });
  if (fake === undefined) throw new Error(`the stand-in API server needs openssl: ${certProblem()}`);
  apiServer = fake;
  apiServer.apply(hostIngress("shop", "storefront", "shop.example.com"));
  apiServer.apply(hostIngress("shop", "api", "api.shop.example.com"));
  kubeconfig = join(work, "kubeconfig");
  writeFileSync(kubeconfig, kubeconfigFor(apiServer), { mode: 0o600 });
  env = cleanEnv(process.env, { PATH: `${npxShim(work)}${delimiter}${cleanEnv().PATH}`, KUBECONFIG: kubeconfig });
  // dist/ is brought up to date by vitest's global setup (test/support/global-build.ts).
  if (buildIsStale()) throw new Error("dist/ is older than src/: run npm run build");
  // --ignore-scripts: no lifecycle script may rebuild dist/ under the other tests' feet.
  const json = await exec("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], REPO);
  const [first] = JSON.parse(json) as Packed[];
  if (first === undefined) throw new Error(`npm pack printed no package: ${json}`);
  packed = first;
  project = join(work, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "clusterwire-user", private: true, type: "module" }, null, 2)}\n`,
  );
  await exec(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      join(work, packed.filename),
      `fast-check@${PKG.devDependencies["fast-check"]}`,
    ],
    project,
  );
}, 300_000);

afterAll(async () => {
  await apiServer?.close();
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

/** A fresh directory that is the project as a user has it (its package.json and node_modules), so files one doc writes do not meet another's. */
function freshProject(name: string): Place {
  const cwd = join(work, `run-${name.replace(/[^A-Za-z0-9]+/g, "-")}`);
  mkdirSync(cwd);
  writeFileSync(join(cwd, "package.json"), readFileSync(join(project, "package.json")));
  symlinkSync(join(project, "node_modules"), join(cwd, "node_modules"), "dir");
  const scratch = mkdtempSync(join(work, "scratch-"));
  return { cwd, env, scratch, timeoutMs: 30_000 };
}

function fail(failures: readonly Failure[], what: string): void {
  if (failures.length === 0) return;
  throw new Error(
    `${failures.length} ${what} failed from the installed package:\n\n${failures.map(formatFailure).join("\n\n")}`,
  );
}

describe("the packed tarball", () => {
  it("holds the built entry points, the CLI, the examples, the manual and the license, and none of the repository's own files", () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "LICENSE",
        "bin/clusterwire.js",
        "dist/src/index.js",
        "dist/src/index.d.ts",
        "dist/src/networking/index.js",
        "dist/src/networking/index.d.ts",
        "dist/src/cli/main.js",
        "examples/demo/expected.yaml",
        "examples/ingress-shop.yaml",
        "examples/ingress.pb",
        "examples/ingress-watch.pb",
        "examples/clusters/shop.yaml",
        "examples/storage/inventory.yaml",
        "examples/client/ingress-hosts.mjs",
        "dist/src/client/index.js",
      ]),
    );
    // The manual ships whole, and the changelog once the repository has one.
    const docs = [...DOC_FILES, ...(existsSync(join(REPO, "CHANGELOG.md")) ? ["CHANGELOG.md"] : [])];
    expect(docs.filter((f) => !files.includes(f))).toEqual([]);
    const unwanted = files.filter(
      (f) =>
        f.endsWith(".map") ||
        f.endsWith(".tsbuildinfo") ||
        /^(src|test|bench|scripts|plugin|deploy|\.ci)\//.test(f) ||
        /^dist\/(test|bench)\//.test(f) ||
        (/\.test\.[cm]?[jt]s$/.test(f) && !f.startsWith("examples/")),
    );
    expect(unwanted).toEqual([]);
    // For the report: `npx vitest run test/package` prints it.
    console.log(
      `npm pack: ${packed.filename}, ${files.length} files, ${(packed.size / 1024).toFixed(1)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked`,
    );
  });

  it('import "clusterwire" throws an error naming the entry points; each entry point imports', async () => {
    const place = freshProject("imports");
    const script = `
      const entries = ["networking", "client", "storage", "storage/server", "admission", "admission/server", "testing"];
      for (const e of entries) {
        const m = await import("clusterwire/" + e);
        if (Object.keys(m).length === 0) throw new Error("clusterwire/" + e + " exports nothing");
      }
      try {
        await import("clusterwire");
        throw new Error("import of clusterwire did not throw");
      } catch (e) {
        for (const n of entries) if (!e.message.includes("clusterwire/" + n)) throw new Error("the message does not name clusterwire/" + n + ": " + e.message);
      }
      console.log("ok");
    `;
    writeFileSync(join(place.cwd, "imports.mjs"), script);
    expect((await exec(process.execPath, ["imports.mjs"], place.cwd, 60_000)).trim()).toBe("ok");
  });

  it("TypeScript: the browser-safe entry points type-check without Node's types; importing the root is a type error", async () => {
    const place = freshProject("types");
    const tsc = join(REPO, "node_modules", "typescript", "bin", "tsc");
    const options = {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022"],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    };
    const check = async (name: string, code: string): Promise<string> => {
      writeFileSync(join(place.cwd, `${name}.ts`), code);
      writeFileSync(
        join(place.cwd, `tsconfig.${name}.json`),
        JSON.stringify({ compilerOptions: options, files: [`${name}.ts`] }),
      );
      return exec(process.execPath, [tsc, "-p", `tsconfig.${name}.json`], place.cwd, 120_000).then(
        () => "",
        (e: Error) => e.message,
      );
    };
    const browser = await check(
      "browser",
      'import { decode, validate } from "clusterwire/networking";\nimport { admit } from "clusterwire/admission";\nexport const used = [decode, validate, admit];\n',
    );
    expect(browser).toBe("");
    const root = await check("root", 'import { decode } from "clusterwire";\nexport const used = decode;\n');
    expect(root).toMatch(/error TS2305: Module '"clusterwire"' has no exported member 'decode'/);
  }, 180_000);

  it("clusterwire demo with no directory runs the bundled examples", async () => {
    const place = freshProject("demo");
    const out = await exec("npx", ["clusterwire", "demo", "--no-storage"], place.cwd, 60_000);
    // Shown relative to the working directory in a user's project; here node_modules is a symlink, so absolute.
    expect(out).toMatch(/manifest files in \S*node_modules\/clusterwire\/examples /);
    expect(out).toMatch(/^ok: reach /m);
  });
});

describe("examples/client/ingress-hosts.mjs, the client's complete example, run from the installed package", () => {
  it("syncs, prints the index by host, prints a change as it comes, and stops cleanly on SIGTERM", async () => {
    const place = freshProject("ingress-hosts");
    const script = join(place.cwd, "node_modules", "clusterwire", "examples", "client", "ingress-hosts.mjs");
    const child = spawn(process.execPath, [script, "--kubeconfig", kubeconfig], { cwd: place.cwd, env });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const until = async (what: RegExp): Promise<void> => {
      const end = Date.now() + 30_000;
      while (!what.test(out)) {
        if (Date.now() > end || child.exitCode !== null) {
          child.kill("SIGKILL");
          throw new Error(`the example did not print ${what}:\n${out}\n${err}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until(/^synced: /m);
    expect(out).toMatch(/^synced: \d+ Ingresses, \d+ hosts \(resourceVersion \d+\)$/m);
    expect(out).toMatch(/^ {2}shop\.example\.com -> shop\/storefront$/m);
    expect(out).toMatch(/^ {2}api\.shop\.example\.com -> shop\/api$/m);
    apiServer.apply(hostIngress("shop", "checkout", "checkout.shop.example.com"));
    await until(/^ {2}checkout\.shop\.example\.com -> shop\/checkout$/m);
    expect(out).toMatch(/^added shop\/checkout$/m);
    apiServer.remove("shop", "checkout");
    await until(/^deleted shop\/checkout$/m);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(out).toMatch(/^stopped$/m);
    // Its log goes to stderr: the list, and no warning.
    expect(err).toMatch(/^\[info\] listed /m);
    expect(err).not.toMatch(/\[warn\]/);
  }, 120_000);
});

describe("documented commands and snippets, run from the installed package", () => {
  for (const file of DOC_FILES) {
    it(`${file}`, async () => {
      const blocks = extractBlocks(readFileSync(join(REPO, file), "utf8"), file);
      fail(await runDocBlocks(blocks, freshProject(file)), `commands or snippets of ${file}`);
    }, 300_000);
  }

  it("the examples of clusterwire --help and of every command's and subcommand's --help", async () => {
    const bin = join(project, "node_modules", "clusterwire", "bin", "clusterwire.js");
    const help = (args: readonly string[]) => exec(process.execPath, [bin, ...args, "--help"], project, 30_000);
    const texts: { source: string; text: string }[] = [];
    const visit = async (args: readonly string[]) => {
      const text = await help(args);
      texts.push({ source: ["clusterwire", ...args, "--help"].join(" "), text });
      for (const sub of listedCommands(text)) await visit([...args, sub]);
    };
    await visit([]);
    // The CLI lists its commands, and the groups (storage, webhook) their subcommands.
    expect(texts.length).toBeGreaterThan(8);
    const failures: Failure[] = [];
    for (const { source, text } of texts) {
      const examples = helpExamples(text);
      if (examples.length === 0) continue;
      failures.push(...(await runHelpExamples(examples, source, freshProject(source))));
    }
    fail(failures, "help examples");
  }, 300_000);
});
