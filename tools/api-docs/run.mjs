#!/usr/bin/env node
// `npm run docs`: builds clusterwire's API reference into dist/api/ with TypeDoc, from the
// entry points in package.json's "exports". It fails (exit 1), listing each problem, when:
// - an export has no doc comment or no `@example`, or a member of one has no doc comment
//   (the rule and its two exceptions are in check.mjs);
// - a {@link} resolves to nothing, or the public surface uses a type that no entry point
//   exports and typedoc.json's intentionallyNotExported does not list (TypeDoc's validation);
// - an example does not type-check against the sources (examples.mjs, with the project's tsc).
//
// TypeDoc needs the TypeScript 5 compiler API, which the project's TypeScript 7 package
// (the native port) does not have, so TypeDoc and TypeScript 5.9 are pinned in this folder's
// own package.json and lockfile, and installed here on the first run. TypeDoc only reads the
// sources: `tsc` (TypeScript 7) is what type-checks them.
//
// Options: --no-html checks only (writes no reference); --json also writes dist/api/api.json.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkDocumentation } from "./check.mjs";
import { typecheckExamples } from "./examples.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const args = new Set(process.argv.slice(2));
for (const arg of args) {
  if (!["--no-html", "--json"].includes(arg)) {
    console.error(`docs: unknown option ${arg} (options: --no-html, --json)`);
    process.exit(2);
  }
}

if (!existsSync(join(here, "node_modules", "typedoc", "package.json"))) {
  console.log("docs: installing TypeDoc and TypeScript 5.9 into tools/api-docs/node_modules (npm ci)");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const ci = spawnSync(npm, ["ci", "--prefix", here, "--no-audit", "--no-fund"], { stdio: "inherit" });
  if (ci.status !== 0) process.exit(ci.status ?? 1);
}

const td = await import("typedoc");
const app = await td.Application.bootstrapWithPlugins(
  {
    options: join(here, "typedoc.json"),
    // protoc-gen-es marks each generated declaration with `@generated from message ...`.
    blockTags: [...td.OptionDefaults.blockTags, "@generated"],
  },
  [new td.TypeDocReader()],
);
if (app.logger.hasErrors() || app.logger.hasWarnings()) process.exit(1);

const project = await app.convert();
if (project === undefined || app.logger.hasErrors() || app.logger.hasWarnings()) {
  console.error("docs: TypeDoc could not read the sources (see above)");
  process.exit(1);
}
app.validate(project);
const validationFailed = app.logger.hasErrors() || app.logger.hasWarnings() || app.logger.validationWarningCount > 0;

const { exports, problems } = checkDocumentation(td, project, root);
for (const p of problems) {
  const what = p.rule === "doc" ? "has no doc comment" : "has no @example in its doc comment";
  console.error(`${p.file}:${p.line} - [error] ${p.entry}: ${p.kind} ${p.name} ${what}`);
}
console.log(
  `docs: ${exports} exports in ${project.children?.length ?? 0} entry points; ` +
    `${problems.filter((p) => p.rule === "doc").length} declarations without a doc comment, ` +
    `${problems.filter((p) => p.rule === "example").length} exports without an @example`,
);
if (validationFailed || problems.length > 0) {
  console.error("docs: the API reference has problems (listed above); nothing was written");
  process.exit(1);
}

const examples = typecheckExamples(project, root, join(root, "dist", "api-examples"));
console.log(
  `docs: type-checked ${examples.checked} examples (${examples.fragments} without a \`\`\`ts fence left out)`,
);
if (!examples.ok) {
  console.error("docs: examples do not type-check against the sources (listed above; files in dist/api-examples)");
  process.exit(1);
}

if (!args.has("--no-html")) {
  const out = join(root, "dist", "api");
  await app.generateDocs(project, out);
  if (args.has("--json")) await app.generateJson(project, join(out, "api.json"));
  if (app.logger.hasErrors() || app.logger.hasWarnings()) process.exit(1);
  console.log(`docs: wrote ${out}`);
}
