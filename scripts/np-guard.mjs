#!/usr/bin/env node
// np-guard's netpol-analyzer (its command is k8snetpolicy: list, diff, eval), a peer and oracle
// for clusterwire's connectivity analysis, built from the Go module proxy outside the package:
//
//   npm run np-guard                 builds it when missing, prints the binary's path
//   npm run np-guard -- --force      builds it again
//
// - The Go module conformance/np-guard/ pins the version (its go.mod's require line) and every
//   dependency; go.sum pins the analyzer's own hash too, which the Go checksum database does not
//   list, so a build with the committed go.sum never asks the database (no GONOSUMDB needed).
// - `go build` writes .cache/np-guard/<version>/k8snetpolicy (git ignores .cache/); Go's module
//   and build caches make a second build quick.
// - Without Go, it says so and exits 0 (nothing needs it: npm test's np-guard tests skip, and the
//   comparison in bench/connectivity/np-guard-compare.ts says it cannot run).
//
// test/support/np-guard/run.ts runs the binary; types: scripts/np-guard.d.mts.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The Go module that builds np-guard, from the repository root. */
export const MODULE_DIR = join("conformance", "np-guard");
/** The analyzer's module path. */
export const ANALYZER_MODULE = "github.com/np-guard/netpol-analyzer";
/** The binary's name: upstream's own (its Makefile's EXE). */
export const BINARY_NAME = "k8snetpolicy";

/** The analyzer version conformance/np-guard/go.mod requires (`v1.4.2`). */
export function npGuardVersion(root = ROOT) {
  const goMod = readFileSync(join(root, MODULE_DIR, "go.mod"), "utf8");
  const m = /^require\s+github\.com\/np-guard\/netpol-analyzer\s+(v\S+)/m.exec(goMod);
  if (m === null) throw new Error(`${MODULE_DIR}/go.mod does not require ${ANALYZER_MODULE}`);
  return m[1];
}

/** Where the binary of the pinned version is (or will be) built. */
export function binaryPath(root = ROOT) {
  return join(root, ".cache", "np-guard", npGuardVersion(root), BINARY_NAME);
}

/** Whether the binary of the pinned version is built. */
export function isBuilt(root = ROOT) {
  return existsSync(binaryPath(root));
}

function goEnv() {
  // A static binary; -mod=readonly so a build never rewrites go.mod or go.sum (they are the pins).
  return { ...process.env, CGO_ENABLED: "0", GO111MODULE: "on", GOFLAGS: "-mod=readonly -buildvcs=false" };
}

/** The `go` line of conformance/np-guard/go.mod (`1.23.0`): the oldest Go that builds it. */
export function moduleGoVersion(root = ROOT) {
  const m = /^go (\S+)$/m.exec(readFileSync(join(root, MODULE_DIR, "go.mod"), "utf8"));
  if (m === null) throw new Error(`${MODULE_DIR}/go.mod has no go line`);
  return m[1];
}

/**
 * Why Go cannot build np-guard here, or undefined when it can: `go` runs and is at least the
 * module's go line, or (from Go 1.21) may fetch that toolchain itself (GOTOOLCHAIN is not `local`).
 */
export function missingGo(root = ROOT) {
  const hint = "Install Go from https://go.dev/dl/ and put it on PATH; npm test does not need it.";
  const required = moduleGoVersion(root);
  let version;
  try {
    version = execFileSync("go", ["version"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: goEnv(),
      encoding: "utf8",
    }).trim();
  } catch (e) {
    return `building np-guard's netpol-analyzer needs Go ${required} or newer, and \`go version\` failed: ${e instanceof Error ? e.message : String(e)}. ${hint}`;
  }
  const have = parseGoVersion(version);
  const need = parseGoVersion(`go${required}`);
  if (have === undefined || need === undefined) return `cannot read a Go version from \`${version}\`. ${hint}`;
  if (!older(have, need)) return undefined;
  if (older(have, [1, 21, 0]))
    return `building np-guard's netpol-analyzer needs Go ${required} or newer, and PATH has ${version}. ${hint}`;
  const toolchain = execFileSync("go", ["env", "GOTOOLCHAIN"], { env: goEnv(), encoding: "utf8" }).trim();
  if (toolchain === "local")
    return `building np-guard's netpol-analyzer needs Go ${required} or newer: PATH has ${version}, and GOTOOLCHAIN=local keeps it from fetching go${required}. ${hint}`;
  return undefined;
}

/** `go version go1.26.8 linux/amd64` as [1, 26, 8]; undefined for anything else. */
function parseGoVersion(text) {
  const m = /\bgo(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

/** Whether version a is older than version b. */
function older(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/**
 * Builds the binary when it is missing (or always, with `force`); returns its path. Throws when Go
 * is missing or the build fails.
 */
export function buildNpGuard({ root = ROOT, log = console.error, force = false } = {}) {
  const out = binaryPath(root);
  if (!force && existsSync(out)) return out;
  const why = missingGo(root);
  if (why !== undefined) throw new Error(why);
  mkdirSync(join(out, ".."), { recursive: true });
  const args = ["build", "-trimpath", "-ldflags", "-s -w", "-o", `${out}.partial`, "."];
  const cwd = join(root, MODULE_DIR);
  log(`go ${args.join(" ")}   (in ${cwd})`);
  const started = Date.now();
  execFileSync("go", args, { cwd, stdio: ["ignore", "inherit", "inherit"], env: goEnv() });
  // Renamed only once complete, so an interrupted build is never taken for a built one.
  renameSync(`${out}.partial`, out);
  log(`built ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out;
}

function main() {
  const { values } = parseArgs({
    options: { force: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } },
  });
  if (values.help) {
    console.log(
      `usage: npm run np-guard [-- --force]\nbuilds ${ANALYZER_MODULE} ${npGuardVersion()} (${MODULE_DIR}/) into ${binaryPath()}`,
    );
    return;
  }
  if (!values.force && isBuilt()) {
    console.log(`np-guard ${npGuardVersion()}: ${binaryPath()}`);
    return;
  }
  const why = missingGo();
  if (why !== undefined) {
    console.error(`np-guard: skipped, not built. ${why}`);
    return;
  }
  try {
    const path = buildNpGuard({ force: values.force });
    console.log(`np-guard ${npGuardVersion()}: ${path}`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main();
