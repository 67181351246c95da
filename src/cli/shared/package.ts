import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The clusterwire package this CLI runs from: its version (clusterwire --version)
// and its root, where the demo finds its bundled examples/ (examples/demo/expected.yaml
// and the manifests clusterwire demo walks when given no directory).

interface Found {
  readonly root: string;
  readonly version: string;
}

let found: Found | null | undefined;

/** Walks up from this file (src/cli/shared or dist/src/cli/shared) to the package.json named clusterwire. */
function findPackage(): Found | null {
  if (found !== undefined) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "clusterwire" && typeof pkg.version === "string") {
        found = { root: dir, version: pkg.version };
        return found;
      }
    } catch {
      // No package.json at this level; keep walking up.
    }
    dir = dirname(dir);
  }
  found = null;
  return found;
}

/** The version from package.json, or "unknown". */
export function version(): string {
  return findPackage()?.version ?? "unknown";
}

/** The directory that holds clusterwire's package.json, or undefined when it cannot be found. */
export function packageRoot(): string | undefined {
  return findPackage()?.root;
}
