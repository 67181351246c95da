#!/usr/bin/env node
// npm's pretest (so part of `npm ci && npm test`): makes sure the browser
// tests (the heatmap, the browser bundle, the playground) have a Chromium to drive. Playwright's own
// browser download cannot run here, so it is Debian's `chromium` package:
//
// - CLUSTERWIRE_SKIP_BROWSER=1: nothing to do, the browser tests are skipped.
// - CLUSTERWIRE_CHROMIUM=/path: that binary, which must exist.
// - otherwise /usr/bin/chromium (or /usr/bin/chromium-browser); if neither is
//   there, it installs Debian's chromium with apt-get when it can (as root, or
//   through sudo without a password) and otherwise fails saying what to do.
//
// test/support/chromium.ts finds the binary the same way (findChromium).
import { spawnSync } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where Debian's chromium package puts the binary (the first), and older names. */
export const DEBIAN_CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

const APT_HINT = "apt-get update && apt-get install -y chromium";

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium the browser tests use: `{ skip: true }` when
 * CLUSTERWIRE_SKIP_BROWSER=1, else its path (the expected one when it is
 * missing), whether it is there, and whether CLUSTERWIRE_CHROMIUM chose it.
 */
export function findChromium(env = process.env) {
  if (env.CLUSTERWIRE_SKIP_BROWSER === "1") return { skip: true };
  const explicit = env.CLUSTERWIRE_CHROMIUM;
  if (explicit !== undefined && explicit !== "")
    return { skip: false, path: explicit, found: isExecutable(explicit), explicit: true };
  const path = DEBIAN_CHROMIUM.find(isExecutable);
  return { skip: false, path: path ?? DEBIAN_CHROMIUM[0], found: path !== undefined, explicit: false };
}

function fail(lines) {
  console.error(["ensure-chromium: " + lines[0], ...lines.slice(1).map((l) => "  " + l)].join("\n"));
  process.exit(1);
}

function missing(path, reason, details = []) {
  fail([
    `the browser tests (the heatmap, the browser bundle and the playground) need Chromium, and ${path} is missing: ${reason}.`,
    ...details.map((l) => "| " + l),
    `Install Debian's chromium as root:  ${APT_HINT}`,
    "or point CLUSTERWIRE_CHROMIUM at a Chromium binary,",
    "or skip the browser tests:  CLUSTERWIRE_SKIP_BROWSER=1 npm test",
  ]);
}

/** Runs a command quietly; returns its output, or undefined when it could not run or failed. */
function run(argv, env = process.env) {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", env, maxBuffer: 256 << 20 });
  if (r.error !== undefined) return { ok: false, output: r.error.message };
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

function main() {
  const found = findChromium();
  if (found.skip) {
    console.log(
      "ensure-chromium: CLUSTERWIRE_SKIP_BROWSER=1, so the browser tests (the heatmap, the browser bundle and the playground) will be skipped",
    );
    return;
  }
  if (found.found) return;
  if (found.explicit) {
    fail([
      `CLUSTERWIRE_CHROMIUM=${found.path} is not an executable file.`,
      "Point it at a Chromium binary, or unset it to use Debian's chromium (/usr/bin/chromium),",
      "or skip the browser tests:  CLUSTERWIRE_SKIP_BROWSER=1 npm test",
    ]);
  }

  // Can we install it? apt-get as root, or through sudo without a password.
  if (!run(["apt-get", "--version"]).ok) missing(found.path, "apt-get is not available to install it");
  let asRoot;
  if (process.getuid?.() === 0) asRoot = [];
  else if (run(["sudo", "-n", "true"]).ok) asRoot = ["sudo", "-n"];
  else missing(found.path, "installing it needs root (or sudo without a password), and this is not root");

  console.log(
    `ensure-chromium: ${found.path} is missing and the browser tests (the heatmap, the browser bundle and the playground) need it: installing Debian's chromium with apt-get (CLUSTERWIRE_SKIP_BROWSER=1 skips those tests instead)`,
  );
  // Wait for a dpkg lock another install holds rather than fail at once.
  const apt = [...asRoot, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o", "DPkg::Lock::Timeout=300"];
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "chromium"]]) {
    const r = run([...apt, ...args]);
    if (!r.ok) {
      missing(found.path, `\`apt-get ${args.join(" ")}\` failed`, r.output.trimEnd().split("\n").slice(-15));
    }
  }
  const after = findChromium();
  if (after.skip || !after.found)
    missing(found.path, "apt-get installed chromium, but no binary is at " + DEBIAN_CHROMIUM.join(" or "));
  console.log(`ensure-chromium: installed ${after.path}`);
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main();
