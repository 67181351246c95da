import { readdirSync, statSync, type Dirent } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import picomatch from "picomatch";

// Walking a directory of manifests lazily, one directory listing at a time,
// so a run over a large tree starts at once and holds only the directories
// on the current path in memory.
//
// Hand-written for speed: listings and stats are synchronous, and each path
// is built by appending a name to its directory's, rather than with
// fs/promises and path.join/relative per entry. Measured on 10,000 files in
// 12,897 directories (npm run bench:validate-tree's tree, CPU profile of
// `clusterwire validate --jobs 1`): the walk took about 11% of the run with
// promises and per-entry path calls, about 2% this way.

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
function isFileBehind(path: string): boolean {
  try {
    return statSync(path).isFile();
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
  // `display` joined to a path under root, as join(display, rel) would give it: rel has only
  // plain names (no "." or ".." segments), so normalizing leaves it as it is after this prefix.
  const displayPrefix = join(display, "x").slice(0, -1);
  // What join(root, name) puts before a name, for the same reason.
  const rootPrefix = join(root, "x").slice(0, -1);
  // dir: the directory to list; dirPrefix: what join(dir, name) puts before a name;
  // rel: its path under root with the platform's separator ("" for root).
  function* visit(dir: string, dirPrefix: string, rel: string, top: boolean): Generator<WalkedFile> {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      if (top) throw e;
      onUnreadable(join(display, relative(root, dir)), e);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const relPrefix = rel === "" ? "" : rel + sep;
    for (const e of entries) {
      const name = e.name;
      if (name.startsWith(".")) continue;
      const path = dirPrefix + name;
      const relNative = relPrefix + name;
      if (e.isDirectory()) {
        if (NEVER_ENTERED.has(name)) continue;
        if (exclude !== undefined) {
          const relPosix = posix(relNative);
          if (exclude(relPosix) || exclude(`${relPosix}/`)) continue;
        }
        yield* visit(path, path + sep, relNative, false);
      } else if (
        MANIFEST_EXTENSIONS.has(extname(name).toLowerCase()) &&
        (e.isFile() || (e.isSymbolicLink() && isFileBehind(path)))
      ) {
        if (exclude !== undefined || include !== undefined) {
          const relPosix = posix(relNative);
          if (exclude?.(relPosix) === true) continue;
          if (include !== undefined && !include(relPosix)) continue;
        }
        yield { path, display: displayPrefix + relNative };
      }
    }
  }
  yield* visit(root, rootPrefix, "", true);
}
