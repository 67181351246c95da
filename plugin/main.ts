import { createEcmaScriptPlugin } from "@bufbuild/protoplugin";
import { binEmitter } from "./emit-bin.js";
import { jsonEmitter } from "./emit-json.js";
import { PLUGIN_NAME, PLUGIN_VERSION, type Emitter } from "./emitter.js";

/*
 * clusterwire's buf plugin: code generated at build time from the same
 * descriptors protoc-gen-es reads, plus the Go facts of
 * src/networking/model/go-shapes.ts. protoc-gen-clusterwire.mjs runs it.
 */

/** Every emitter, in the order they run. */
const EMITTERS: readonly Emitter[] = [binEmitter, jsonEmitter];

export const plugin = createEcmaScriptPlugin({
  name: PLUGIN_NAME,
  version: PLUGIN_VERSION,
  generateTs(schema) {
    for (const emitter of EMITTERS) {
      try {
        emitter.shared?.(schema);
        for (const file of schema.files) emitter.file(schema, file);
      } catch (e) {
        throw new Error(`${PLUGIN_NAME}: ${emitter.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  },
});
