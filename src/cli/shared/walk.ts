import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import picomatch from "picomatch";

// Walking a directory of manifests lazily, one directory listing at a time,
// so a run over a large tree starts at once and holds only the directories
// on the current path in memory.

/** What a walk picks up: YAML, JSON, JSON watch streams and protobuf. */
export const MANIFEST_EXTENSIONS: ReadonlySet<string> = new Set([".yaml", ".yml", ".json", ".pb", ".jsonl"]);

/** The same, for messages. */
export const MANIFEST_KINDS_TEXT = ".yaml, .yml, .json, .jsonl or .pb";

/** Directories never entered: dependencies, not a project's manifests. Dot-directories are skipped too. */
const NEVER_ENTERED: ReadonlySet<string> = new Set(["node_modules"]);

export interface WalkOptions {
  /** Globs a file's path under the walked directory must match (any one); none: every file. */
  readonly include?: readonly string[];
  /** Globs that drop a file, or a whole directory, by its path under the walked directory. */
  readonly exclude?: readonly string[];
}

export interface WalkedFile {
  /** Absolute path, to read. */
  readonly path: string;
  /** The path for messages: the directory as given, then the file's path under it. */
  readonly display: string;
}

type Matcher = (path: string) => boolean;

function matcher(globs: readonly string[] | undefined): Matcher | undefined {
  if (globs === undefined || globs.length === 0) return undefined;
  // dot: a pattern such as **/*.yaml also reaches files under .github/ when the user names them.
  const tests = globs.map((g) => picomatch(g, { dot: true }));
  return (path) => tests.some((t) => t(path));
}

/**
 * Whether a walk keeps a file at this path under the walked directory (forward slashes): no
 * dot-file or dot-directory, no node_modules, a manifest extension, and the include and exclude
 * globs. For listings that come from elsewhere than the file system, such as a git tree.
 */
export function keepsPath(rel: string, options: WalkOptions = {}): boolean {
  const parts = rel.split("/");
  const dirs = parts.slice(0, -1);
  const name = parts.at(-1) ?? "";
  if (parts.some((p) => p.startsWith(".")) || dirs.some((d) => NEVER_ENTERED.has(d))) return false;
  if (!MANIFEST_EXTENSIONS.has(extname(name).toLowerCase())) return false;
  const include = matcher(options.include);
  const exclude = matcher(options.exclude);
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    if (exclude?.(dir) === true || exclude?.(`${dir}/`) === true) return false;
  }
  if (exclude?.(rel) === true) return false;
  return include === undefined || include(rel);
}

/**
 * Whether a symbolic link leads to a file, which is read as kubectl reads it.
 * Links to directories are not followed, so a walk cannot loop.
 */
async function isFileBehind(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Paths under the walked directory, with forward slashes whatever the platform, as globs are written. */
function posix(rel: string): string {
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/**
 * The manifest files under `root` in a stable order (entries sorted by name,
 * depth first), skipping dot-directories, dot-files and node_modules, and
 * following symbolic links to files but not to directories.
 * Throws (errno) only when `root` itself cannot be listed; a subdirectory
 * that cannot be listed is passed to `onUnreadable` and the walk goes on.
 */
export async function* walkTree(
  root: string,
  display: string,
  options: WalkOptions = {},
  onUnreadable: (display: string, error: unknown) => void = () => {},
): AsyncGenerator<WalkedFile> {
  const include = matcher(options.include);
  const exclude = matcher(options.exclude);
  async function* visit(dir: string, top: boolean): AsyncGenerator<WalkedFile> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (top) throw e;
      onUnreadable(join(display, relative(root, dir)), e);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const path = join(dir, e.name);
      const rel = posix(relative(root, path));
      if (e.isDirectory()) {
        if (NEVER_ENTERED.has(e.name)) continue;
        if (exclude?.(rel) === true || exclude?.(`${rel}/`) === true) continue;
        yield* visit(path, false);
      } else if (
        (e.isFile() || (e.isSymbolicLink() && (await isFileBehind(path)))) &&
        MANIFEST_EXTENSIONS.has(extname(e.name).toLowerCase())
      ) {
        if (exclude?.(rel) === true) continue;
        if (include !== undefined && !include(rel)) continue;
        yield { path, display: join(display, relative(root, path)) };
      }
    }
  }
  yield* visit(root, true);
}
