import type { DescFile } from "@bufbuild/protobuf";
import type { Schema } from "@bufbuild/protoplugin";

/**
 * One kind of generated code. The plugin entry (main.ts) runs every emitter
 * in its list over the request; each writes its own files, so adding one
 * (say JSON readers, `*_json.ts`) touches no other emitter.
 */
export interface Emitter {
  /** Short name, for errors. */
  readonly name: string;
  /** Files shared by every proto file (written once per request), if any. */
  shared?(schema: Schema): void;
  /** This emitter's file for one proto file of the request, if it has anything to say about it. */
  file(schema: Schema, file: DescFile): void;
}

/** The version every generated file names in its header, with the plugin name. */
export const PLUGIN_NAME = "protoc-gen-clusterwire";
export const PLUGIN_VERSION = "v1";
