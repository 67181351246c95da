#!/usr/bin/env node
// Checks that the committed generated code matches what `buf generate` produces now.
//
// buf.gen.yaml sets `clean: true`, so running `buf generate` in place would first
// delete gen/. Instead we pass `--output <tmpdir>`: buf prepends that directory to
// every plugin `out`, and `clean` then only removes <tmpdir>/<out>. The working tree
// is never written to. Every file under each plugin's `out` is then compared byte
// for byte with the fresh copy; missing, extra and differing files are listed and
// the script exits 1 if there is any difference (2 if generation itself failed).

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { bufBinary } from "./buf.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const templatePath = join(root, "buf.gen.yaml");

/** The distinct plugin output directories named in buf.gen.yaml (relative to root). */
function pluginOutDirs() {
  const template = parse(readFileSync(templatePath, "utf8"));
  const plugins = Array.isArray(template?.plugins) ? template.plugins : [];
  const outs = new Set();
  for (const plugin of plugins) {
    const out = plugin?.out;
    if (typeof out !== "string" || out === "") {
      throw new Error(`buf.gen.yaml: every plugin needs a string "out" (got ${JSON.stringify(out)})`);
    }
    const norm = normalize(out);
    if (isAbsolute(norm) || norm === ".." || norm.startsWith(`..${sep}`) || norm === ".") {
      // An absolute or escaping out dir would not land under --output, and "." would
      // compare the whole repository; refuse rather than risk touching the tree.
      throw new Error(`buf.gen.yaml: plugin out "${out}" must be a subdirectory of the repository`);
    }
    if (/\.(zip|jar)$/i.test(norm)) {
      throw new Error(`buf.gen.yaml: archive output "${out}" is not supported by this check`);
    }
    outs.add(norm);
  }
  if (outs.size === 0) throw new Error("buf.gen.yaml: no plugins found");
  return [...outs].sort();
}

/** Relative paths of all regular files below dir (sorted); empty if dir is missing. */
function listFiles(dir) {
  if (!existsSync(dir)) return [];
  const files = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() || entry.isSymbolicLink()) files.push(relative(dir, full).split(sep).join("/"));
    }
  };
  walk(dir);
  return files.sort();
}

/** Path of the buf CLI installed as a devDependency. */
function bufCommand() {
  return bufBinary();
}

function main() {
  const outs = pluginOutDirs();
  const tmp = mkdtempSync(join(tmpdir(), "clusterwire-gen-check-"));
  try {
    const result = spawnSync(bufCommand(), ["generate", "--output", tmp], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (result.error) {
      console.error(`generate:check: could not run buf: ${result.error.message}`);
      return 2;
    }
    if (result.status !== 0) {
      console.error(`generate:check: buf generate failed (exit ${result.status ?? result.signal})`);
      return 2;
    }

    const problems = [];
    let compared = 0;
    for (const out of outs) {
      const committedDir = join(root, out);
      const freshDir = join(tmp, out);
      const committed = new Set(listFiles(committedDir));
      const fresh = new Set(listFiles(freshDir));
      for (const file of [...new Set([...committed, ...fresh])].sort()) {
        const shown = `${out.split(sep).join("/")}/${file}`;
        if (!committed.has(file)) {
          problems.push(`missing   ${shown} (buf would generate it)`);
        } else if (!fresh.has(file)) {
          problems.push(`extra     ${shown} (buf does not generate it; clean: true would delete it)`);
        } else {
          compared++;
          const a = readFileSync(join(committedDir, file));
          const b = readFileSync(join(freshDir, file));
          if (!a.equals(b)) problems.push(`differs   ${shown} (${describeDifference(a, b)})`);
        }
      }
    }

    if (problems.length > 0) {
      console.error(`generate:check: generated code is out of date (${problems.length} file(s)):`);
      for (const p of problems) console.error(`  ${p}`);
      console.error("Run `npm run generate` and commit the result.");
      return 1;
    }
    console.log(`generate:check: ${compared} generated file(s) in ${outs.join(", ")} match buf generate.`);
    return 0;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** First differing byte offset and line, for a helpful message. */
function describeDifference(committed, fresh) {
  const n = Math.min(committed.length, fresh.length);
  let i = 0;
  while (i < n && committed[i] === fresh[i]) i++;
  let line = 1;
  for (let j = 0; j < i; j++) if (committed[j] === 0x0a) line++;
  return `first difference at byte ${i}, line ${line}; committed ${committed.length} bytes, fresh ${fresh.length} bytes`;
}

try {
  process.exitCode = main();
} catch (err) {
  console.error(`generate:check: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 2;
}
