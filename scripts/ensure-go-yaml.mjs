#!/usr/bin/env node
// .ci/run's step before the YAML oracle: makes sure there is a Go that can
// build conformance/yaml-oracle. `npm test` does not need it (it reads the
// oracle's answers from test/support/golden); `npm run yaml-golden` and
// `npm run yaml-oracle` do.
//
// The oracle is a Go module of its own, pinned to the YAML modules a
// Kubernetes release links; `go build` fetches them through the Go module
// proxy (or finds them in the module cache), so Go itself is all this checks:
//
// - `go` on PATH, 1.22 or newer;
// - at least the `go` line of the oracle's go.mod (which follows Kubernetes'
//   own), or else a GOTOOLCHAIN that lets Go fetch that toolchain through the
//   proxy by itself (anything but `local`);
// - otherwise it fails saying what to install or set. It installs nothing.
import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The oldest Go that can build the oracle, by fetching the toolchain its go.mod names if need be. */
export const MIN_GO = "1.22";
/** The oracle's module folder, from the repository root. */
export const ORACLE_MODULE = "conformance/yaml-oracle";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const INSTALL_HINT =
  "Install Go from https://go.dev/dl/ (tar -C /usr/local -xzf go<version>.linux-amd64.tar.gz) and put /usr/local/go/bin on PATH";

/** `go1.26.8` or `go version go1.26.8 linux/amd64` as [1, 26, 8]; undefined for anything else. */
export function parseGoVersion(text) {
  const m = /\bgo(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

/** Whether version a is older than version b (both as parseGoVersion gives them). */
function older(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** The `go` line of the oracle's go.mod (`1.25.0`): the Go the build asks for. */
export function moduleGoVersion(root = ROOT) {
  const m = /^go (\S+)$/m.exec(readFileSync(join(root, ORACLE_MODULE, "go.mod"), "utf8"));
  if (m === null) throw new Error(`${ORACLE_MODULE}/go.mod has no go line`);
  return m[1];
}

/** Runs a command quietly; whether it ran and succeeded, and what it printed. */
function run(argv, env) {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", env });
  if (r.error !== undefined) return { ok: false, output: r.error.message };
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/**
 * What is there and whether it will do: the `go version` line (undefined
 * without Go), its GOTOOLCHAIN, and `problem` (what is wrong, undefined when
 * the oracle can be built) or `note` (how it will be built, when Go must fetch
 * a newer toolchain first).
 */
export function findGo(env = process.env, required = moduleGoVersion()) {
  const version = run(["go", "version"], env);
  if (!version.ok) return { go: undefined, required, problem: "Go is not installed (`go version` fails)" };
  const go = version.output.trim();
  const have = parseGoVersion(go);
  const need = parseGoVersion(`go${required}`);
  const min = parseGoVersion(`go${MIN_GO}`);
  if (have === undefined || need === undefined || min === undefined)
    return { go, required, problem: `cannot read a Go version from \`${go}\`` };
  if (older(have, min)) return { go, required, problem: `${go} is older than Go ${MIN_GO}` };
  if (!older(have, need)) return { go, required };
  const toolchainEnv = run(["go", "env", "GOTOOLCHAIN"], env);
  const toolchain = toolchainEnv.ok ? toolchainEnv.output.trim() : "";
  if (toolchain === "local" || toolchain === "")
    return {
      go,
      required,
      toolchain,
      problem: `${go} is older than the go ${required} that ${ORACLE_MODULE}/go.mod asks for, and GOTOOLCHAIN=${toolchain || "(unknown)"} keeps Go from fetching it`,
    };
  return {
    go,
    required,
    toolchain,
    note: `Go fetches go${required} through the module proxy to build it (GOTOOLCHAIN=${toolchain})`,
  };
}

function main() {
  const found = findGo();
  if (found.problem === undefined) {
    console.log(
      `ensure-go-yaml: ${found.go}; builds ${ORACLE_MODULE} (go ${found.required})${found.note === undefined ? "" : `: ${found.note}`}`,
    );
    return;
  }
  console.error(
    [
      `ensure-go-yaml: the YAML oracle (npm run yaml-golden, npm run yaml-oracle) needs Go ${found.required} or newer: ${found.problem}.`,
      `  ${INSTALL_HINT},`,
      `  or, with a Go from ${MIN_GO} on, export GOTOOLCHAIN=auto and Go fetches go${found.required} itself through the module proxy.`,
      "  npm test needs none of this.",
    ].join("\n"),
  );
  process.exit(1);
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main();
