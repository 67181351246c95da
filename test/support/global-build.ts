import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

// Vitest's global setup: brings dist/ up to date once, in the main process, before any test
// file starts. Tests that read dist/ (the help texts, the .d.ts files, the packed tarball)
// then never build it themselves, so no test rewrites dist/ while another reads it.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * True when some source under src/ or gen/ is newer than its build in dist/ (or has none). The browser
 * code (a folder with its own tsconfig.json: the playground, the heatmap page's script) is not built by
 * tsc; the heatmap page reaches dist/ through its committed bundle, src/cli/reach/heatmap-page-bundle.ts.
 */
export function buildIsStale(root = ROOT): boolean {
  const stale = (dir: string): boolean => {
    const files = readdirSync(join(root, dir), { recursive: true, encoding: "utf8" });
    const browser = files.filter((f) => basename(f) === "tsconfig.json").map((f) => `${dirname(f)}${sep}`);
    return files.some((f) => {
      if (!f.endsWith(".ts") || f.endsWith(".d.ts") || browser.some((b) => f.startsWith(b))) return false;
      const built = join(root, "dist", dir, f.replace(/\.ts$/, ".js"));
      return !existsSync(built) || statSync(built).mtimeMs < statSync(join(root, dir, f)).mtimeMs;
    });
  };
  return stale("src") || stale("gen");
}

export default function setup(): void {
  if (!buildIsStale()) return;
  const r = spawnSync("npm", ["run", "--silent", "build"], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}${r.stderr}`);
}
