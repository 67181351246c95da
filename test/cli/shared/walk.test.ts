import { symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { MANIFEST_EXTENSIONS, walkTree, type WalkOptions } from "../../../src/cli/shared/walk.js";
import { tempTrees } from "../../support/cli/validate.js";

const tree = tempTrees("walk");

/** The display paths a walk of `root` (shown as "d") yields. */
async function walked(root: string, options: WalkOptions = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const f of walkTree(root, "d", options)) {
    expect(f.path).toBe(join(root, f.display.slice(2)));
    out.push(f.display);
  }
  return out;
}

const LAYOUT = {
  "b.yaml": "",
  "a.json": "",
  "c/z.yml": "",
  "c/a/deep.pb": "",
  "c/events.jsonl": "",
  "UPPER.YAML": "",
  "notes.txt": "",
  Makefile: "",
  ".hidden.yaml": "",
  ".github/workflows/ci.yaml": "",
  "node_modules/pkg/x.yaml": "",
  "deploy/app.yaml": "",
  "deploy/templates/t.yaml": "",
  "charts/x/templates/t.yaml": "",
  "charts/x/values.yaml": "",
};

/** What a walk of LAYOUT yields, in order. */
const WALKED = [
  "d/UPPER.YAML",
  "d/a.json",
  "d/b.yaml",
  "d/c/a/deep.pb",
  "d/c/events.jsonl",
  "d/c/z.yml",
  "d/charts/x/templates/t.yaml",
  "d/charts/x/values.yaml",
  "d/deploy/app.yaml",
  "d/deploy/templates/t.yaml",
];

describe("walkTree", () => {
  it("yields manifest files depth first in name order, skipping dot-entries, node_modules and other extensions", async () => {
    expect(await walked(tree(LAYOUT))).toEqual(WALKED);
    expect([...MANIFEST_EXTENSIONS].sort()).toEqual([".json", ".jsonl", ".pb", ".yaml", ".yml"]);
  });

  it("--exclude drops files and whole directories by their path under the root", async () => {
    const root = tree(LAYOUT);
    expect(await walked(root, { exclude: ["**/templates/**"] })).toEqual(
      WALKED.filter((f) => !f.includes("/templates/")),
    );
    // A bare directory name matches that directory at the top only, and prunes all below it.
    expect(await walked(root, { exclude: ["charts", "c"] })).toEqual([
      "d/UPPER.YAML",
      "d/a.json",
      "d/b.yaml",
      "d/deploy/app.yaml",
      "d/deploy/templates/t.yaml",
    ]);
    expect(await walked(root, { exclude: ["*.json", "**/*.yml"] })).not.toContain("d/a.json");
  });

  it("--include keeps only the files it matches; --exclude wins over it", async () => {
    const root = tree(LAYOUT);
    expect(await walked(root, { include: ["deploy/**"] })).toEqual(["d/deploy/app.yaml", "d/deploy/templates/t.yaml"]);
    expect(await walked(root, { include: ["deploy/**"], exclude: ["**/templates/**"] })).toEqual(["d/deploy/app.yaml"]);
    expect(await walked(root, { include: ["*.yaml", "c/**/*.pb"] })).toEqual(["d/b.yaml", "d/c/a/deep.pb"]);
    expect(await walked(root, { include: ["nothing/**"] })).toEqual([]);
  });

  it("never enters a dot-directory, even when --include names it", async () => {
    expect(await walked(tree(LAYOUT), { include: [".github/**"] })).toEqual([]);
  });

  it("follows symbolic links to files, as kubectl reads them, but not to directories, so it cannot loop", async () => {
    const root = tree({ "real/a.yaml": "" });
    symlinkSync(join(root, "real"), join(root, "linked"));
    symlinkSync(join(root, "real/a.yaml"), join(root, "link.yaml"));
    symlinkSync(join(root, "nowhere.yaml"), join(root, "dangling.yaml"));
    symlinkSync(root, join(root, "real/loop"));
    expect(await walked(root)).toEqual(["d/link.yaml", "d/real/a.yaml"]);
  });

  it("builds paths as path.join would, whatever form the root and its display name are given in", async () => {
    const root = tree(LAYOUT);
    const roots = [root, `${root}/`, `${root}/./c/..`, relative(process.cwd(), root) || "."];
    for (const r of roots) {
      for (const display of ["d", "./d/", ".", "", "/", "../up", "a/./b/"]) {
        const got: { path: string; display: string }[] = [];
        for await (const f of walkTree(r, display)) got.push(f);
        expect(got.map((f) => f.display)).toEqual(WALKED.map((w) => join(display, w.slice(2))));
        expect(got.map((f) => f.path)).toEqual(WALKED.map((w) => join(r, w.slice(2))));
      }
    }
  });

  it("throws when the root cannot be listed", async () => {
    const root = tree({ "file.yaml": "" });
    await expect(walked(join(root, "missing"))).rejects.toMatchObject({ code: "ENOENT" });
    await expect(walked(join(root, "file.yaml"))).rejects.toMatchObject({ code: "ENOTDIR" });
  });

  it("lists a directory only when the walk reaches it (a file added to b/ while a/ is walked is seen)", async () => {
    const root = tree({ "a/1.yaml": "", "b/2.yaml": "" });
    const out: string[] = [];
    for await (const f of walkTree(root, "d")) {
      if (out.length === 0) writeFileSync(join(root, "b/0.yaml"), "");
      out.push(f.display);
    }
    expect(out).toEqual(["d/a/1.yaml", "d/b/0.yaml", "d/b/2.yaml"]);
  });
});
