import { execFile } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

// The clusterwire CLI as an installed package runs it: bin/clusterwire.js over the
// compiled dist/. The hook and action tests put it on PATH as `clusterwire`.

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const run = promisify(execFile);

const temporary: string[] = [];

/** A new temporary directory, removed by removeTemporary(). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

/** Removes the directories tempDir() made (for afterAll). */
export function removeTemporary(): void {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The newest modification time of the .ts files under dir. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(".ts")) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

function isFresh(mainJs: string): boolean {
  let built: number;
  try {
    built = statSync(mainJs).mtimeMs;
  } catch {
    return false;
  }
  return built >= Math.max(newestSource(join(ROOT, "src")), newestSource(join(ROOT, "gen")));
}

/**
 * A package root holding bin/clusterwire.js and a dist/ compiled from the current
 * sources: the repository itself when its dist/ is up to date (after `npm run build`),
 * else a private build in a temporary directory (CI runs the tests on a fresh clone,
 * and building into the shared dist/ could race other test files).
 */
export async function packageRoot(): Promise<string> {
  if (isFresh(join(ROOT, "dist/src/cli/main.js"))) return ROOT;
  const root = tempDir("clusterwire-build-");
  await run(
    process.execPath,
    [
      join(ROOT, "node_modules/typescript/bin/tsc"),
      "-p",
      join(ROOT, "tsconfig.build.json"),
      "--outDir",
      join(root, "dist"),
    ],
    { cwd: ROOT },
  );
  mkdirSync(join(root, "bin"));
  copyFileSync(join(ROOT, "bin/clusterwire.js"), join(root, "bin/clusterwire.js"));
  copyFileSync(join(ROOT, "package.json"), join(root, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"));
  return root;
}

/** A directory holding a `clusterwire` command that runs the CLI of the package at root. */
export function shimDir(root: string): string {
  const dir = tempDir("clusterwire-shim-");
  const cli = join(root, "bin/clusterwire.js");
  writeFileSync(join(dir, "clusterwire"), `#!/bin/sh\nexec '${process.execPath}' '${cli}' "$@"\n`, { mode: 0o755 });
  return dir;
}

/** A minimal valid manifest of mixed kinds, an invalid one, and files that are not manifests. */
export const FILES = {
  // A Deployment (skipped) beside an Ingress (valid).
  "manifests/valid.yaml": [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata: {name: web, namespace: shop}",
    "spec:",
    "  selector: {matchLabels: {app: web}}",
    "  template:",
    "    metadata: {labels: {app: web}}",
    "    spec: {containers: [{name: web, image: nginx}]}",
    "---",
    "apiVersion: networking.k8s.io/v1",
    "kind: Ingress",
    "metadata: {name: web, namespace: shop}",
    "spec:",
    "  rules:",
    "  - host: shop.example.com",
    "    http:",
    "      paths:",
    "      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}",
    "",
  ].join("\n"),
  // Line 5, column 13: a path that is not absolute.
  "manifests/invalid.yml": [
    "apiVersion: networking.k8s.io/v1",
    "kind: Ingress",
    "metadata: {name: broken, namespace: shop}",
    "spec:",
    "  rules: [{http: {paths: [{path: deals, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}}]",
    "",
  ].join("\n"),
  "manifests/policy.json": JSON.stringify({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "deny", namespace: "shop" },
    spec: { podSelector: {}, policyTypes: ["Ingress"] },
  }),
  "package.json": JSON.stringify({ name: "app", version: "1.0.0" }),
  "README.md": "# app\n\nkind: Ingress\n",
} as const;

export const INVALID_LINE = "manifests/invalid.yml:5:";

export function writeFiles(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}
