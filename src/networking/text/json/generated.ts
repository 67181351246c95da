import type { JsonCodec } from "../../../../gen/clusterwire/json_runtime.js";
import { jsonCodecs as core } from "../../../../gen/k8s/io/api/core/v1/core_json.js";
import { jsonCodecs as networking } from "../../../../gen/k8s/io/api/networking/v1/networking_json.js";
import { jsonCodecs as meta } from "../../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_json.js";
import { jsonCodecs as runtime } from "../../../../gen/k8s/io/apimachinery/pkg/runtime/runtime_json.js";

/*
 * The JSON readers and writers our buf plugin (plugin/emit-json.ts) generated
 * into gen/, by message type name: built at build time, so nothing is
 * compiled at run time.
 */

let byName: Map<string, JsonCodec> | undefined;

/** The generated JSON codec of a message type, or undefined if none was generated. */
export function jsonCodecOf(typeName: string): JsonCodec | undefined {
  byName ??= new Map([runtime, core, meta, networking].flatMap((table) => Object.entries(table)));
  return byName.get(typeName);
}
