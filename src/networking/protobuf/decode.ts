import type { NetworkingObject } from "../model/kinds.js";
import { defaultCodec } from "./codec.js";
import type { BinaryDecodeOptions } from "./from-binary.js";

/**
 * Options of {@link decode}: protobuf-es's binary read options.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, decode, encode } from "clusterwire/networking";
 *
 * const ingress = decode(encode(create(IngressSchema)), { maxDepth: 16 });
 * ```
 */
export type DecodeOptions = BinaryDecodeOptions;

/**
 * Decodes an API server protobuf body: the `k8s\0` magic, a `runtime.Unknown`,
 * and the object it carries, typed by apiVersion and kind. Lists decode to
 * their List message. Throws `DecodeError` only.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, decode, encode } from "clusterwire/networking";
 *
 * const bytes = encode(create(IngressSchema, { metadata: { name: "shop", namespace: "web" } }));
 * const object = decode(bytes);
 * if (object.$typeName === "k8s.io.api.networking.v1.Ingress") console.log(object.metadata?.name); // "shop"
 * ```
 */
export function decode(bytes: Uint8Array, options: DecodeOptions = {}): NetworkingObject {
  return defaultCodec().decode(bytes, options);
}
