// The inputs of a command that reads manifests: -, files as given, the manifest files of each
// directory, and what cannot be read, in the order given.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandInputs, type InputEntry } from "../../../src/cli/shared/inputs.js";
import type { WalkOptions } from "../../../src/cli/shared/walk.js";
import { memorySink, tempTrees } from "../../support/cli/validate.js";

const tree = tempTrees("inputs");

async function expand(cwd: string, paths: string[], walk: WalkOptions = {}) {
  const entries: InputEntry[] = [];
  const notes: string[] = [];
  const io = { stdout: memorySink(false), stderr: memorySink(false), cwd };
  for await (const e of expandInputs(io, paths, walk, (n) => notes.push(n))) entries.push(e);
  return { entries, notes };
}

describe("expandInputs", () => {
  it("yields stdin, files as given (whatever their extension) and each directory's manifests, in order", async () => {
    const dir = tree({ "one.txt": "x", "d/b.yaml": "", "d/a.json": "", "d/notes.md": "", "d/e/c.pb": "" });
    const { entries, notes } = await expand(dir, ["d", "-", "one.txt"]);
    expect(entries).toEqual([
      { type: "file", path: join(dir, "d/a.json"), display: "d/a.json" },
      { type: "file", path: join(dir, "d/b.yaml"), display: "d/b.yaml" },
      { type: "file", path: join(dir, "d/e/c.pb"), display: "d/e/c.pb" },
      { type: "stdin" },
      { type: "file", path: join(dir, "one.txt"), display: "one.txt" },
    ]);
    expect(notes).toEqual([]);
  });

  it("an unreadable path is a missing entry, and the rest are still read", async () => {
    const dir = tree({ "a.yaml": "" });
    const { entries } = await expand(dir, ["nope.yaml", "a.yaml"]);
    expect(entries).toEqual([
      { type: "missing", display: "nope.yaml", message: "cannot read: no such file or directory" },
      { type: "file", path: join(dir, "a.yaml"), display: "a.yaml" },
    ]);
  });

  it("a directory with nothing to read is missing, saying when --include or --exclude emptied it", async () => {
    const dir = tree({ "empty/readme.txt": "", "full/x.yaml": "" });
    expect((await expand(dir, ["empty"])).entries).toEqual([
      { type: "missing", display: "empty", message: "no .yaml, .yml, .json, .jsonl or .pb files found" },
    ]);
    for (const walk of [{ include: ["y/**"] }, { exclude: ["*.yaml"] }])
      expect((await expand(dir, ["full"], walk)).entries).toEqual([
        {
          type: "missing",
          display: "full",
          message: "no .yaml, .yml, .json, .jsonl or .pb files found (after --include and --exclude)",
        },
      ]);
    expect((await expand(dir, ["full"], { include: ["*.yaml"] })).entries).toEqual([
      { type: "file", path: join(dir, "full/x.yaml"), display: "full/x.yaml" },
    ]);
  });

  it("takes relative paths from io.cwd, and absolute paths as they are", async () => {
    const dir = tree({ "sub/a.yaml": "" });
    const { entries } = await expand(join(dir, "sub"), ["a.yaml", join(dir, "sub")]);
    expect(entries).toEqual([
      { type: "file", path: join(dir, "sub/a.yaml"), display: "a.yaml" },
      { type: "file", path: join(dir, "sub/a.yaml"), display: join(dir, "sub/a.yaml") },
    ]);
  });
});
