// `npm run docs` also type-checks the examples: every fenced ```ts block of an `@example` is
// written out as a module of its own and type-checked with the project's `tsc`, against the
// sources (the root tsconfig maps `clusterwire/*` to `src/*/index.ts`), so an example that
// no longer matches the API fails. An example is a whole module: it imports what it uses from
// `clusterwire/...`, `fast-check` or `node:*` (`declare const` stands in for a value it
// assumes, such as a client). TypeDoc gives an example without a fence a ```ts fence.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes the examples into `dir` and type-checks them; returns the number checked, the
 * number left out, and whether tsc passed.
 *
 * @param {import("typedoc").ProjectReflection} project
 * @param {string} root the repository root
 * @param {string} dir where to write the example modules (emptied first)
 */
export function typecheckExamples(project, root, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const seen = new Set();
  const where = new Map();
  let checked = 0;
  let fragments = 0;
  for (const reflection of Object.values(project.reflections)) {
    const comments = [reflection.comment, ...(reflection.signatures ?? []).map((s) => s.comment)];
    for (const comment of comments) {
      if (comment === undefined || seen.has(comment)) continue;
      seen.add(comment);
      for (const tag of comment.getTags("@example")) {
        const text = tag.content.map((part) => part.text).join("");
        const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
        if (blocks.length === 0) fragments++;
        for (const code of blocks) {
          const file = `${String(++checked).padStart(4, "0")}-${reflection.getFullName().replace(/[^A-Za-z0-9]+/g, "_")}.ts`;
          writeFileSync(join(dir, file), `${code}\nexport {};\n`);
          where.set(file, reflection.getFriendlyFullName());
        }
      }
    }
  }
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: join(root, "tsconfig.json"),
      compilerOptions: { noEmit: true, noUnusedLocals: false, rootDir: root },
      include: ["*.ts"],
    }),
  );
  writeFileSync(join(dir, "index.json"), JSON.stringify(Object.fromEntries(where), null, 2));
  const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir], {
    cwd: root,
    encoding: "utf8",
  });
  let output = `${tsc.stdout}${tsc.stderr}`;
  for (const [file, name] of where) output = output.replaceAll(`${file}(`, `${file} [${name}](`);
  if (output.trim() !== "") console.error(output.trim());
  return { checked, fragments, ok: tsc.status === 0 };
}
