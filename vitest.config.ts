import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The examples import the package by name, as users do; in this repo that is the source.
  resolve: {
    alias: [
      {
        find: /^clusterwire\/(networking|storage|storage\/server|admission|admission\/server|testing|client)$/,
        replacement: fileURLToPath(new URL("./src/$1/index.ts", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    // Builds dist/ once, before any test file, when it is older than src/ (the pack, help and
    // .d.ts tests read it); no test builds it, so none rewrites it under another.
    globalSetup: ["test/support/global-build.ts"],
    testTimeout: 60_000,
    // Vitest's default is one worker fewer than the CPUs, which on the 2-core machines this
    // suite must fit (about 5 minutes) leaves one core idle: the main process mostly waits.
    maxWorkers: availableParallelism(),
    // Each worker keeps its modules from one test file to the next instead of importing src/ and
    // the packages afresh for every file: over the suite's hundreds of files that import was most of
    // the CPU time (the 4,542 tests of networking, storage, cli and admission took 241 s of CPU
    // and 130 s of wall time isolated, 114 s and 64 s not, on an idle 2-core machine). Tests may therefore not leave global state behind: no test stubs globals or
    // mocks modules, and the few spies restore themselves.
    isolate: false,
  },
});
