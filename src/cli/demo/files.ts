import { access } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { CliIO } from "../shared/io.js";

// The routes and reach sections run only when the demo directory holds their files.

/** The files that exist under `dir`, or undefined when none does. */
export async function present(io: CliIO, dir: string, files: readonly string[]): Promise<string[] | undefined> {
  const root = resolve(io.cwd ?? process.cwd(), dir);
  const found: string[] = [];
  for (const f of files) {
    try {
      await access(join(root, f));
      found.push(f);
    } catch {
      // Missing: checked below.
    }
  }
  return found.length === 0 ? undefined : found;
}
