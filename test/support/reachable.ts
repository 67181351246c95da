// What importing one source file loads: the files it reaches through relative imports (and
// `clusterwire/<entry>` imports, resolved to src/<entry>/index.ts), and the bare specifiers
// (packages, node: builtins) those files import. Read from the source text (scripts/import-graph.mjs).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { importsOf, resolveSpecifier } from "../../scripts/import-graph.mjs";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

export interface Reach {
  /** Every file loaded, `entry` included: absolute paths, sorted. */
  readonly files: readonly string[];
  /** Every non-relative specifier imported by those files (type-only imports included), sorted. */
  readonly bare: readonly string[];
}

/** The files and bare specifiers reachable from `entry` (an absolute path of a .ts file). */
export function reachableFrom(entry: string): Reach {
  const files = new Set<string>([resolve(entry)]);
  const bare = new Set<string>();
  const queue = [resolve(entry)];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const { specifier } of importsOf(readFileSync(file, "utf8"))) {
      const own = /^clusterwire\/([\w/-]+)$/.exec(specifier);
      const target = own !== null ? join(SRC, own[1]!, "index.ts") : resolveSpecifier(file, specifier);
      if (target === undefined) {
        bare.add(specifier);
        continue;
      }
      if (!files.has(target)) {
        files.add(target);
        queue.push(target);
      }
    }
  }
  return { files: [...files].sort(), bare: [...bare].sort() };
}
