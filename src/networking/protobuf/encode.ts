import type { Message } from "@bufbuild/protobuf";
import type { NetworkingObject } from "../model/kinds.js";
import { defaultCodec } from "./codec.js";
import type { BinaryEncodeOptions } from "./to-binary.js";

/**
 * Options of {@link encode}: protobuf-es's binary write options.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, encode } from "clusterwire/networking";
 *
 * const bytes = encode(create(IngressSchema), { unknownFields: "drop" });
 * ```
 */
export type EncodeOptions = BinaryEncodeOptions;

/**
 * Encodes an object the way the API server does: `k8s\0`, then a
 * `runtime.Unknown` with apiVersion/kind, the object bytes and the two empty
 * content strings. The object is written with Go's field rules, so bytes
 * decoded from Go re-encode to the same bytes.
 *
 * @example
 * ```ts
 * import { IngressSchema, PROTOBUF_MEDIA_TYPE, create, encode } from "clusterwire/networking";
 *
 * const body = encode(create(IngressSchema, { metadata: { name: "shop", namespace: "web" } }));
 * // POST it with content-type PROTOBUF_MEDIA_TYPE; it starts with the k8s\0 magic.
 * console.log(PROTOBUF_MEDIA_TYPE, body.length);
 * ```
 */
export function encode(obj: NetworkingObject | Message, options: EncodeOptions = {}): Uint8Array {
  return defaultCodec().encode(obj, options);
}
