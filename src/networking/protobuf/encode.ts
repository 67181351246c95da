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

/**
 * Writes exactly the bytes {@link encode} gives into `buffer` from `offset`
 * (default 0) and returns how many it wrote, so a caller can put several
 * objects, or a frame header and an object, into one buffer it owns without
 * an intermediate array. Bytes past the written range are not touched. If
 * the object does not fit, it throws `EncodeError` and the buffer is left as
 * it was; so does an object Go would refuse to write, as `encode` does, and
 * a `buffer` that is not a Uint8Array or an `offset` that is not an integer
 * from 0 to `buffer.length`. {@link encodedSize} says beforehand how many
 * bytes an object needs.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, encodeInto, encodedSize } from "clusterwire/networking";
 *
 * const a = create(IngressSchema, { metadata: { name: "a", namespace: "web" } });
 * const b = create(IngressSchema, { metadata: { name: "b", namespace: "web" } });
 * const buffer = new Uint8Array(encodedSize(a) + encodedSize(b));
 * const first = encodeInto(a, buffer);
 * const second = encodeInto(b, buffer, first);
 * console.log(first + second === buffer.length); // true
 * ```
 */
export function encodeInto(
  obj: NetworkingObject | Message,
  buffer: Uint8Array,
  offset = 0,
  options: EncodeOptions = {},
): number {
  return defaultCodec().encodeInto(obj, buffer, offset, options);
}

/**
 * The exact number of bytes {@link encode} gives for `obj` with the same
 * options, measured without writing them (as Go's `Size()`), after the same
 * checks: an object `encode` refuses throws the same `EncodeError` here.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, encode, encodedSize } from "clusterwire/networking";
 *
 * const ingress = create(IngressSchema, { metadata: { name: "shop", namespace: "web" } });
 * console.log(encodedSize(ingress) === encode(ingress).length); // true
 * ```
 */
export function encodedSize(obj: NetworkingObject | Message, options: EncodeOptions = {}): number {
  return defaultCodec().encodedSize(obj, options);
}
