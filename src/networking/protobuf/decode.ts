import type { NetworkingObject } from "../model/kinds.js";
import { defaultCodec } from "./codec.js";
import type { BinaryDecodeOptions } from "./from-binary.js";

export type DecodeOptions = BinaryDecodeOptions;

/**
 * Decodes an API server protobuf body: the `k8s\0` magic, a `runtime.Unknown`,
 * and the object it carries, typed by apiVersion and kind. Lists decode to
 * their List message. Throws `DecodeError` only.
 */
export function decode(bytes: Uint8Array, options: DecodeOptions = {}): NetworkingObject {
  return defaultCodec().decode(bytes, options);
}
