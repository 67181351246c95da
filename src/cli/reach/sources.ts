import { execFile, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { posix } from "node:path";
import { expandInputs } from "../shared/inputs.js";
import { CliError, EXIT_USAGE, asText, errnoMessage, readInput, usageError, type CliIO } from "../shared/io.js";
import { keepsPath, type WalkOptions } from "../shared/walk.js";

// Where `clusterwire reach` reads a repository from: files and directories on disk (walked as
// `clusterwire validate` walks them), or a revision of a git repository, read with git itself
// (`git ls-tree` and `git cat-file --batch`: no checkout, no working tree touched).

/** A manifest file's path as shown to users, and its text. */
export interface SourceFile {
  readonly name: string;
  readonly text: string;
}

/** The most bytes one git revision's manifests may hold in all, so a huge tree fails clearly. */
const MAX_REVISION_BYTES = 512 * 1024 * 1024;

/** Reads the manifest files under the paths (YAML and JSON text; .pb and .jsonl are left out with a note). */
export async function readPaths(
  io: CliIO,
  paths: readonly string[],
  walk: WalkOptions,
  command: string,
  note: (message: string) => void,
): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  const missing: string[] = [];
  for await (const entry of expandInputs(io, paths, walk, note)) {
    if (entry.type === "missing") {
      missing.push(`${entry.display}: ${entry.message}`);
      continue;
    }
    if (entry.type === "stdin") {
      const input = await readInput(io, "-");
      out.push({ name: input.name, text: asText(input, "yaml", EXIT_USAGE) });
      continue;
    }
    if (/\.(pb|jsonl)$/i.test(entry.path)) {
      note(`${entry.display}: skipped: ${command} reads YAML and JSON manifests, not protobuf or watch streams`);
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(entry.path));
    } catch (e) {
      missing.push(`${entry.display}: cannot read: ${errnoMessage(e)}`);
      continue;
    }
    out.push({ name: entry.display, text: asText({ name: entry.display, bytes }, "yaml", EXIT_USAGE) });
  }
  if (missing.length > 0) throw new CliError(missing.map((m) => `clusterwire ${command}: ${m}`).join("\n"), EXIT_USAGE);
  return out;
}

/** `A..B` (B defaults to HEAD), or `A` alone: A against the working tree. */
export function parseRevisionRange(text: string, command: string): { readonly base: string; readonly head?: string } {
  const m = /^([^.\s][^\s]*?)\.\.(\.?)([^\s]*)$/.exec(text);
  if (m !== null) {
    if (m[2] === ".")
      throw usageError(`--git ${text}: A...B (a merge base) is not supported; give A..B, two revisions`, command);
    return { base: m[1]!, head: m[3] === "" ? "HEAD" : m[3]! };
  }
  if (text === "" || /\s/.test(text) || text.startsWith("-"))
    throw usageError(`--git must be REV1..REV2 or REV, got ${JSON.stringify(text)}`, command);
  return { base: text };
}

function git(io: CliIO, args: readonly string[], command: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      "git",
      args,
      { cwd: io.cwd ?? process.cwd(), maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error === null) return resolvePromise(stdout);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT")
          return reject(new CliError(`clusterwire ${command}: --git needs git on PATH`, EXIT_USAGE));
        const why = stderr.trim().split("\n")[0] ?? error.message;
        reject(new CliError(`clusterwire ${command}: git ${args[0]}: ${why}`, EXIT_USAGE));
      },
    );
  });
}

/**
 * The manifest files of one revision under the paths (relative to the current directory, which
 * must be in a git work tree), as `REV:path` for messages.
 */
export async function readRevision(
  io: CliIO,
  rev: string,
  paths: readonly string[],
  walk: WalkOptions,
  command: string,
): Promise<SourceFile[]> {
  const commit = (
    await git(io, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], command).catch(() => {
      throw new CliError(
        `clusterwire ${command}: --git: ${JSON.stringify(rev)} is not a revision of this repository`,
        EXIT_USAGE,
      );
    })
  ).trim();
  // Paths as given are relative to the current directory; git ls-tree --full-name reports them from the top.
  const prefix = (await git(io, ["rev-parse", "--show-prefix"], command)).trim();
  const listed = await git(
    io,
    ["ls-tree", "-r", "-z", "--full-name", "--name-only", commit, "--", ...(paths.length > 0 ? paths : ["."])],
    command,
  );
  const names = listed.split("\0").filter((n) => n !== "");
  const roots = (paths.length > 0 ? paths : ["."]).map((p) =>
    posix.normalize(posix.join(prefix, p)).replace(/\/$/, ""),
  );
  const keep = names.filter((full) => {
    const root = roots.find((r) => r === "." || full === r || full.startsWith(`${r}/`));
    if (root === undefined) return false;
    const rel =
      root === "." || full === root
        ? full.slice(full === root ? full.lastIndexOf("/") + 1 : 0)
        : full.slice(root.length + 1);
    return keepsPath(rel, walk) && !/\.(pb|jsonl)$/i.test(full);
  });
  if (keep.length === 0) {
    throw new CliError(
      `clusterwire ${command}: --git: no .yaml, .yml or .json files under ${paths.length > 0 ? paths.join(", ") : "the current directory"} at ${rev}`,
      EXIT_USAGE,
    );
  }
  const blobs = await catFiles(io, commit, keep, command);
  return keep.map((full, i) => {
    const name = `${rev}:${full}`;
    return { name, text: asText({ name, bytes: blobs[i]! }, "yaml", EXIT_USAGE) };
  });
}

/** The contents of many paths of one commit, through one `git cat-file --batch` process. */
function catFiles(io: CliIO, commit: string, names: readonly string[], command: string): Promise<Uint8Array[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("git", ["cat-file", "--batch"], {
      cwd: io.cwd ?? process.cwd(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let total = 0;
    let failed = false;
    const fail = (message: string): void => {
      if (failed) return;
      failed = true;
      child.kill();
      reject(new CliError(`clusterwire ${command}: ${message}`, EXIT_USAGE));
    };
    child.on("error", (e) => fail(`git cat-file: ${errnoMessage(e)}`));
    child.stdout.on("data", (c: Buffer) => {
      total += c.length;
      if (total > MAX_REVISION_BYTES)
        fail(`--git: the revision's manifests hold more than ${MAX_REVISION_BYTES} bytes`);
      else chunks.push(c);
    });
    child.stderr.resume();
    child.stdin.on("error", () => {});
    child.on("close", () => {
      if (failed) return;
      const all = Buffer.concat(chunks);
      const out: Uint8Array[] = [];
      let at = 0;
      for (const name of names) {
        const eol = all.indexOf(10, at);
        const header = all.subarray(at, eol < 0 ? all.length : eol).toString("utf8");
        const m = /^[0-9a-f]+ blob (\d+)$/.exec(header);
        if (eol < 0 || m === null) return fail(`git cat-file: cannot read ${name} (${header})`);
        const size = Number(m[1]);
        out.push(new Uint8Array(all.subarray(eol + 1, eol + 1 + size)));
        at = eol + 1 + size + 1;
      }
      resolvePromise(out);
    });
    child.stdin.end(names.map((n) => `${commit}:${n}\n`).join(""));
  });
}
