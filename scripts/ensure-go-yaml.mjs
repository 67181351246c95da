#!/usr/bin/env node
// .ci/run's step before the YAML oracle: makes sure Go and the two Go YAML
// libraries the oracle (scripts/yaml-oracle) is built against are on this
// machine. `npm test` does not need them (it reads the oracle's answers from
// test/support/golden); `npm run yaml-golden` and `npm run yaml-oracle` do.
// Built offline against Debian's packaged sources, as scripts/ensure-chromium.mjs
// finds Chromium:
//
// - `go` on PATH, and gopkg.in/yaml.v2 and sigs.k8s.io/yaml under
//   $CLUSTERWIRE_GOPATH/src (default /usr/share/gocode, where Debian's
//   golang-gopkg-yaml.v2-dev and golang-k8s-sigs-yaml-dev put them);
// - if any is missing, it installs Debian's golang-go, golang-gopkg-yaml.v2-dev
//   and golang-k8s-sigs-yaml-dev with apt-get when it can (as root, or through
//   sudo without a password) and otherwise fails saying what to do.
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The Debian packages the oracle is built from. */
export const DEBIAN_GO_PACKAGES = ["golang-go", "golang-gopkg-yaml.v2-dev", "golang-k8s-sigs-yaml-dev"];
/** The Go import paths the oracle uses, under GOPATH/src. */
export const GO_YAML_IMPORTS = ["gopkg.in/yaml.v2", "sigs.k8s.io/yaml"];

const APT_HINT = `apt-get update && apt-get install -y ${DEBIAN_GO_PACKAGES.join(" ")}`;

/** Runs a command quietly; whether it ran and succeeded, and what it printed. */
function run(argv, env = process.env) {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", env, maxBuffer: 256 << 20 });
  if (r.error !== undefined) return { ok: false, output: r.error.message };
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/**
 * What is there: the `go version` line (undefined without Go), the GOPATH the
 * oracle builds against, and the Go YAML import paths missing from it.
 */
export function findGoYaml(env = process.env) {
  const gopath =
    env.CLUSTERWIRE_GOPATH !== undefined && env.CLUSTERWIRE_GOPATH !== ""
      ? env.CLUSTERWIRE_GOPATH
      : "/usr/share/gocode";
  const go = run(["go", "version"], env);
  const missing = GO_YAML_IMPORTS.filter((p) => !existsSync(join(gopath, "src", p)));
  return { go: go.ok ? go.output.trim() : undefined, gopath, missing, explicit: gopath !== "/usr/share/gocode" };
}

function fail(lines) {
  console.error(["ensure-go-yaml: " + lines[0], ...lines.slice(1).map((l) => "  " + l)].join("\n"));
  process.exit(1);
}

function whatIsMissing(found) {
  return [
    ...(found.go === undefined ? ["Go (`go version` fails)"] : []),
    ...found.missing.map((p) => `${p} under ${found.gopath}/src`),
  ].join(", ");
}

function main() {
  const found = findGoYaml();
  if (found.go !== undefined && found.missing.length === 0) {
    console.log(`ensure-go-yaml: ${found.go}; ${GO_YAML_IMPORTS.join(" and ")} in ${found.gopath}`);
    return;
  }
  const cannot = (reason, details = []) =>
    fail([
      `the YAML oracle (npm run yaml-golden, npm run yaml-oracle) needs ${whatIsMissing(found)}: ${reason}.`,
      ...details.map((l) => "| " + l),
      `Install Debian's packages as root:  ${APT_HINT}`,
      "or set CLUSTERWIRE_GOPATH to a GOPATH holding both libraries (npm test needs none of this).",
    ]);
  // Debian's packages install into /usr/share/gocode only: another GOPATH is the user's to fill.
  if (found.explicit && found.missing.length > 0) cannot(`CLUSTERWIRE_GOPATH=${found.gopath} lacks them`);
  if (!run(["apt-get", "--version"]).ok) cannot("apt-get is not available to install them");
  let asRoot;
  if (process.getuid?.() === 0) asRoot = [];
  else if (run(["sudo", "-n", "true"]).ok) asRoot = ["sudo", "-n"];
  else cannot("installing them needs root (or sudo without a password), and this is not root");

  console.log(
    `ensure-go-yaml: missing ${whatIsMissing(found)}: installing ${DEBIAN_GO_PACKAGES.join(" ")} with apt-get`,
  );
  // Wait for a dpkg lock another install holds rather than fail at once.
  const apt = [...asRoot, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o", "DPkg::Lock::Timeout=300"];
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", ...DEBIAN_GO_PACKAGES]]) {
    const r = run([...apt, ...args]);
    if (!r.ok) cannot(`\`apt-get ${args.join(" ")}\` failed`, r.output.trimEnd().split("\n").slice(-15));
  }
  const after = findGoYaml();
  if (after.go === undefined || after.missing.length > 0)
    fail([`apt-get installed ${DEBIAN_GO_PACKAGES.join(" ")}, but ${whatIsMissing(after)} is still missing.`]);
  console.log(`ensure-go-yaml: installed; ${after.go}`);
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main();
