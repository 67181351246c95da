#!/usr/bin/env node
// Runs the buf CLI. The npm registry this project installs from serves only
// the Linux builds of buf 1.75.0, so the wrapper package @bufbuild/buf (which
// lists every platform as an optional dependency) leaves a lockfile `npm ci`
// rejects. We depend on the platform package directly and find its binary
// here; elsewhere a `buf` on PATH is used.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arch = { x64: "x64", arm64: "aarch64", arm: "armv7" }[process.arch] ?? process.arch;
const os = process.platform === "win32" ? "win32" : process.platform;
const exe = process.platform === "win32" ? "buf.exe" : "buf";

/** The buf binary to run: the installed platform package, else `buf` on PATH. */
export function bufBinary() {
  const local = join(root, "node_modules", "@bufbuild", `buf-${os}-${arch}`, "bin", exe);
  return existsSync(local) ? local : "buf";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bin = bufBinary();
  const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", cwd: process.cwd() });
  if (r.error !== undefined) {
    console.error(
      `buf: cannot run ${bin} (${r.error.message}); install buf 1.75.0 for ${os}-${arch} or put it on PATH`,
    );
    process.exit(2);
  }
  process.exit(r.status ?? 1);
}
