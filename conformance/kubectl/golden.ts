// The golden set: kubectl's answers to a fixed selection of documents, committed under
// test/fixtures/kubectl/<version>.json so that npm test checks clusterwire against them without
// Go. `npm run kubectl-compare -- --golden write` makes it; `--golden check` (for .ci/run) asks
// kubectl again and fails on any difference from the committed file.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Printed } from "./expect.js";

/** In kubectl's output, the file's path is written as this. */
export const FILE = "FILE";

export interface GoldenRecord extends Printed {
  readonly id: string;
  readonly mutation?: string;
  /** The known difference (known.ts) that kubectl's output shows against clusterwire's, if any. */
  readonly known?: string;
  readonly extension: ".yaml" | ".json";
  readonly text: string;
}

export interface GoldenFile {
  /** The server's and kubectl's release, e.g. v1.35.4. */
  readonly version: string;
  readonly seed: number;
  readonly mutants: number;
  readonly records: readonly GoldenRecord[];
}

export function goldenPath(root: string, version: string): string {
  return join(root, "test", "fixtures", "kubectl", `${version}.json`);
}

/** One record a line, so that a diff reads well. */
export function writeGolden(path: string, file: GoldenFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const head = `{"version":${JSON.stringify(file.version)},"seed":${file.seed},"mutants":${file.mutants},"records":[`;
  writeFileSync(path, `${head}\n${file.records.map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`);
}

export function readGolden(path: string): GoldenFile {
  return JSON.parse(readFileSync(path, "utf8")) as GoldenFile;
}

/** kubectl's output with the document's path written as FILE. */
export function withFileLabel(printed: Printed, path: string): Printed {
  const swap = (l: string) => l.split(path).join(FILE);
  return { code: printed.code, stdout: printed.stdout.map(swap), stderr: printed.stderr.map(swap) };
}
