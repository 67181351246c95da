import type { Message } from "@bufbuild/protobuf";
import type { NetworkingObject } from "../model/kinds.js";
import { defaultCodec } from "./codec.js";
import type { BinaryEncodeOptions } from "./to-binary.js";

export type EncodeOptions = BinaryEncodeOptions;

/**
 * Encodes an object the way the API server does: `k8s\0`, then a
 * `runtime.Unknown` with apiVersion/kind, the object bytes and the two empty
 * content strings. The object is written with Go's field rules, so bytes
 * decoded from Go re-encode to the same bytes.
 */
export function encode(obj: NetworkingObject | Message, options: EncodeOptions = {}): Uint8Array {
  return defaultCodec().encode(obj, options);
}
