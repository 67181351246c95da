import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { errnoMessage, type CliIO } from "./io.js";
import { MANIFEST_KINDS_TEXT, walkTree, type WalkOptions } from "./walk.js";

// The inputs of a command that reads manifests, expanded lazily: `-`, files
// as given, and the manifest files under each directory.

export type InputEntry =
  | { readonly type: "stdin" }
  | { readonly type: "file"; readonly path: string; readonly display: string }
  /** An input path given on the command line that cannot be read or listed. */
  | { readonly type: "missing"; readonly display: string; readonly message: string };

/**
 * Yields the inputs in order. A path that cannot be read, or a directory
 * with no manifest files, is a `missing` entry; a subdirectory that cannot
 * be listed goes to `note`, as `PATH: why`.
 */
export async function* expandInputs(
  io: CliIO,
  paths: readonly string[],
  walk: WalkOptions,
  note: (message: string) => void,
): AsyncGenerator<InputEntry> {
  for (const path of paths) {
    if (path === "-") {
      yield { type: "stdin" };
      continue;
    }
    const abs = resolve(io.cwd ?? process.cwd(), path);
    let isDir: boolean;
    try {
      isDir = (await stat(abs)).isDirectory();
    } catch (e) {
      yield { type: "missing", display: path, message: `cannot read: ${errnoMessage(e)}` };
      continue;
    }
    if (!isDir) {
      yield { type: "file", path: abs, display: path };
      continue;
    }
    let found = 0;
    try {
      for await (const f of walkTree(abs, path, walk, (d, e) =>
        note(`${d}: cannot read directory: ${errnoMessage(e)}`),
      )) {
        found++;
        yield { type: "file", ...f };
      }
    } catch (e) {
      yield { type: "missing", display: path, message: `cannot read directory: ${errnoMessage(e)}` };
      continue;
    }
    if (found === 0) {
      const filtered =
        walk.include !== undefined || walk.exclude !== undefined ? " (after --include and --exclude)" : "";
      // A directory with nothing to read is most likely a wrong path: said as loudly as a missing one.
      yield { type: "missing", display: path, message: `no ${MANIFEST_KINDS_TEXT} files found${filtered}` };
    }
  }
}
