import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The examples import the package by name, as users do; in this repo that is the source.
  resolve: {
    alias: [
      {
        find: /^clusterwire\/(networking|storage|storage\/server|testing)$/,
        replacement: fileURLToPath(new URL("./src/$1/index.ts", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    testTimeout: 60_000,
  },
});
