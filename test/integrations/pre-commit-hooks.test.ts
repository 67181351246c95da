import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { FILES, INVALID_LINE, packageRoot, ROOT, removeTemporary, tempDir, shimDir, writeFiles } from "./cli.js";

// .pre-commit-hooks.yaml: each hook's entry and args run as pre-commit runs them
// (the entry split into words, then the args, then the changed files that its
// `files` pattern selects), with the CLI built from this repository as the
// `clusterwire` on PATH.

interface Hook {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly entry: string;
  readonly args?: readonly string[];
  readonly language: string;
  readonly files?: string;
  readonly exclude?: string;
  readonly pass_filenames?: boolean;
  readonly require_serial?: boolean;
}

const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as Hook[];
const run = promisify(execFile);

let shims: string;
beforeAll(async () => {
  shims = shimDir(await packageRoot());
}, 180_000);
afterAll(removeTemporary);

/** What pre-commit passes a hook: the changed files its patterns select (pre-commit's regexes are Python's; these are plain). */
function selected(hook: Hook, changed: readonly string[]): string[] {
  const files = new RegExp(hook.files ?? "");
  const exclude = hook.exclude === undefined ? null : new RegExp(hook.exclude);
  return changed.filter((f) => files.test(f) && !exclude?.test(f));
}

async function runHook(hook: Hook, cwd: string, changed: readonly string[]) {
  const [command, ...words] = hook.entry.split(/\s+/);
  const argv = [...words, ...(hook.args ?? []), ...(hook.pass_filenames === false ? [] : selected(hook, changed))];
  try {
    const { stdout, stderr } = await run(command!, argv, {
      cwd,
      env: { ...process.env, PATH: `${shims}${delimiter}${process.env["PATH"]}` },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe(".pre-commit-hooks.yaml", () => {
  it("offers the node hook and the system hook, alike but for how clusterwire is installed", () => {
    expect(hooks.map((h) => [h.id, h.language])).toEqual([
      ["clusterwire-validate", "node"],
      ["clusterwire-validate-system", "system"],
    ]);
    for (const hook of hooks) {
      expect(hook.name).not.toBe("");
      expect(hook.entry).toBe("clusterwire validate");
      expect(hook.args).toEqual(["--quiet"]);
      expect(hook.files).toBe(hooks[0]!.files);
      expect(hook.require_serial).toBe(true);
    }
  });

  it("selects .yaml, .yml and .json files, and nothing else", () => {
    const changed = ["a.yaml", "deploy/b.yml", "c.json", "README.md", "notes.yaml.md", "values.yaml.bak", "d.jsonc"];
    for (const hook of hooks) expect(selected(hook, changed)).toEqual(["a.yaml", "deploy/b.yml", "c.json"]);
  });

  describe.each(hooks.map((h) => [h.id, h] as const))("%s runs as written", (_id, hook) => {
    const dir = tempDir("clusterwire-hook-");
    writeFiles(dir, FILES);
    const all = Object.keys(FILES);

    it("passes valid manifests, skipping other kinds and files that are not manifests", async () => {
      const result = await runHook(
        hook,
        dir,
        all.filter((f) => f !== "manifests/invalid.yml"),
      );
      expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    });

    it("fails on an invalid manifest, with the API server's error at its line and column", async () => {
      const result = await runHook(hook, dir, all);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `${INVALID_LINE}34 Ingress shop/broken: spec.rules[0].http.paths[0].path: Invalid value: "deals": must be an absolute path`,
      );
      // --quiet: the valid objects are not listed.
      expect(result.stdout).not.toContain("valid.yaml");
      expect(result.stdout).toMatch(/^Summary: .* 1 invalid/m);
    });
  });
});

// pre-commit itself, when it is installed (Debian: apt-get install pre-commit),
// on the system hook: try-repo reads this checkout's .pre-commit-hooks.yaml,
// uncommitted changes included. The node hook is not run here: pre-commit would
// npm-install this repository with its development dependencies, minutes of download.
const preCommit = (() => {
  try {
    return execFileSync("pre-commit", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
})();

describe.skipIf(preCommit === null)(
  `pre-commit try-repo (${preCommit ?? "pre-commit is not installed: skipped"})`,
  () => {
    async function tryRepo(files: readonly string[]) {
      const dir = tempDir("clusterwire-pre-commit-");
      writeFiles(dir, FILES);
      const env = {
        ...process.env,
        PATH: `${shims}${delimiter}${process.env["PATH"]}`,
        PRE_COMMIT_HOME: join(dir, ".pre-commit-home"),
        GIT_AUTHOR_NAME: "test",
        GIT_AUTHOR_EMAIL: "test@example.com",
        GIT_COMMITTER_NAME: "test",
        GIT_COMMITTER_EMAIL: "test@example.com",
      };
      await run("git", ["init", "-q"], { cwd: dir, env });
      await run("git", ["add", "--", ...Object.keys(FILES)], { cwd: dir, env });
      try {
        const { stdout } = await run(
          "pre-commit",
          ["try-repo", ROOT, "clusterwire-validate-system", "--color", "never", "--files", ...files],
          { cwd: dir, env, timeout: 60_000 },
        );
        return { code: 0, stdout };
      } catch (error) {
        const e = error as { code?: unknown; stdout?: string };
        if (typeof e.code !== "number") throw error;
        return { code: e.code, stdout: e.stdout ?? "" };
      }
    }

    it("passes the valid files and fails the invalid one", async () => {
      const pass = await tryRepo(["manifests/valid.yaml", "manifests/policy.json", "README.md"]);
      expect(pass.stdout).toMatch(/^clusterwire validate \(installed clusterwire\)\.+Passed$/m);
      expect(pass.code).toBe(0);

      const fail = await tryRepo(Object.keys(FILES));
      expect(fail.stdout).toMatch(/^clusterwire validate \(installed clusterwire\)\.+Failed$/m);
      expect(fail.stdout).toContain(`${INVALID_LINE}34 Ingress shop/broken: spec.rules[0].http.paths[0].path`);
      expect(fail.code).toBe(1);
    });
  },
);
