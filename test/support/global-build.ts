import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// Vitest's global setup: brings dist/ up to date once, in the main process, before any test
// file starts. Tests that read dist/ (the help texts, the .d.ts files, the packed tarball)
// then never build it themselves, so no test rewrites dist/ while another reads it.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** True when some source under src/ or gen/ is newer than its build in dist/ (or has none). */
export function buildIsStale(root = ROOT): boolean {
  const stale = (dir: string): boolean =>
    readdirSync(join(root, dir), { recursive: true, encoding: "utf8" }).some((f) => {
      if (!f.endsWith(".ts") || f.endsWith(".d.ts") || f.startsWith("playground")) return false;
      const built = join(root, "dist", dir, f.replace(/\.ts$/, ".js"));
      return !existsSync(built) || statSync(built).mtimeMs < statSync(join(root, dir, f)).mtimeMs;
    });
  return stale("src") || stale("gen");
}

export default function setup(): void {
  if (!buildIsStale()) return;
  const r = spawnSync("npm", ["run", "--silent", "build"], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}${r.stderr}`);
}
