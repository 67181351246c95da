import type { BinCodec } from "../../../gen/clusterwire/bin_runtime.js";
import { binCodecs as core } from "../../../gen/k8s/io/api/core/v1/core_bin.js";
import { binCodecs as networking } from "../../../gen/k8s/io/api/networking/v1/networking_bin.js";
import { binCodecs as meta } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_bin.js";
import { binCodecs as runtime } from "../../../gen/k8s/io/apimachinery/pkg/runtime/runtime_bin.js";
import { binCodecs as intstr } from "../../../gen/k8s/io/apimachinery/pkg/util/intstr/intstr_bin.js";

/*
 * The binary codecs our buf plugin (plugin/emit-bin.ts) generated into gen/,
 * by message type name: built once, at build time, so nothing is compiled
 * at run time (a strict Content Security Policy allows them) and bundlers
 * and debuggers see them as ordinary code.
 */

let byName: Map<string, BinCodec> | undefined;

/** The generated codec of a message type, or undefined if none was generated. */
export function generatedCodec(typeName: string): BinCodec | undefined {
  byName ??= new Map([runtime, intstr, core, meta, networking].flatMap((table) => Object.entries(table)));
  return byName.get(typeName);
}
