#!/usr/bin/env node
// The launcher of clusterwire's buf plugin (buf.gen.yaml runs it; see plugin/main.ts).
//
// Node 20 cannot run TypeScript, so this bundles plugin/main.ts and the pure
// modules of src/ it imports with esbuild, in memory, and runs the bundle from
// a data: URL: nothing is written to disk. Packages stay external and are
// imported from node_modules by absolute file URL (a data: module cannot
// resolve bare names), so the plugin uses the very same @bufbuild packages
// as the rest of the build.
import { build } from "esbuild";
import { runNodeJs } from "@bufbuild/protoplugin";

const entry = new URL("./main.ts", import.meta.url);

/** Keeps packages out of the bundle, as absolute file URLs that a data: module can import. */
const externalPackages = {
  name: "external-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:")) return { path: args.path, external: true };
      return { path: import.meta.resolve(args.path), external: true };
    });
  },
};

const result = await build({
  entryPoints: [entry.pathname],
  bundle: true,
  write: false,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "error",
  plugins: [externalPackages],
});
const code = result.outputFiles[0].text;
const { plugin } = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
runNodeJs(plugin);
