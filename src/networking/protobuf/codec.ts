import type { DescMessage, Message } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { DecodeError } from "../model/errors.js";
import { supportedKinds } from "../model/kind-names.js";
import { kindOf, lookupKind, type NetworkingObject } from "../model/kinds.js";
import { MAGIC, readEnvelope } from "./envelope.js";
import { decodeGeneric, decodeState, toDecodeError, type BinaryDecodeOptions } from "./from-binary.js";
import { generatedCodec } from "./generated.js";
import { planOf } from "./plan.js";
import { networkingRegistry, type Registry } from "./registry.js";
import { EncodeState, encodeGeneric, type BinaryEncodeOptions } from "./to-binary.js";

/**
 * A binary codec is a value: the registry it encodes from and whether it uses
 * the per-message functions generated at build time are chosen when it is
 * created, not by a process-wide switch. The public `decode`/`encode` use {@link defaultCodec}.
 */
export interface CodecOptions {
  /** The message types the codec encodes from `$typeName`. Default: {@link networkingRegistry}. */
  readonly registry?: Registry;
  /**
   * Use the per-message decoders and encoders generated at build time
   * (default true); false uses the generic interpreter. Both accept, reject
   * and write exactly the same bytes.
   */
  readonly specialised?: boolean;
}

export interface Codec {
  readonly registry: Registry;
  /** Whether this codec uses the generated per-message functions. */
  readonly specialised: boolean;
  /** Decodes an enveloped API server body; see `decode`. */
  decode(bytes: Uint8Array, options?: BinaryDecodeOptions): NetworkingObject;
  /** Encodes an object with the `k8s\0` envelope; see `encode`. */
  encode(obj: NetworkingObject | Message, options?: BinaryEncodeOptions): Uint8Array;
  /** Decodes `bytes[start, end)` as a bare message of type `desc`; errors carry absolute offsets. */
  decodeMessage(
    desc: DescMessage,
    bytes: Uint8Array,
    start: number,
    end: number,
    options?: BinaryDecodeOptions,
  ): Message;
  /** Writes a message body (no tag, no length) to `w`. */
  writeMessageBody(w: BinaryWriter, msg: Message, options?: BinaryEncodeOptions): void;
}

/** Do not keep a large buffer alive after an unusually large object. */
const RETAINED_WRITER_BYTES = 1 << 20;

/** Creates a codec. */
export function createCodec(options: CodecOptions = {}): Codec {
  const registry = options.registry ?? networkingRegistry();
  const useGenerated = options.specialised ?? true;
  // One writer is reused: growing a fresh 128-byte buffer for every object
  // was a fifth of the encoding time. finish() copies out the bytes written.
  let writer: BinaryWriter | undefined;

  const decodeMessage = (
    desc: DescMessage,
    bytes: Uint8Array,
    start: number,
    end: number,
    opts: BinaryDecodeOptions = {},
  ): Message => {
    const state = decodeState(bytes, start, opts);
    try {
      const gen = useGenerated ? generatedCodec(desc.typeName) : undefined;
      if (gen !== undefined) return gen.decode(state, gen.create(), end);
      return decodeGeneric(state, planOf(desc), end);
    } catch (e) {
      throw toDecodeError(e, state);
    }
  };

  const writeMessageBody = (w: BinaryWriter, msg: Message, opts: BinaryEncodeOptions = {}): void => {
    const desc = registry.getMessage(msg.$typeName);
    if (desc === undefined) throw new TypeError(`clusterwire does not know the message type ${msg.$typeName}`);
    const keep = opts.unknownFields !== "drop";
    const gen = useGenerated ? generatedCodec(desc.typeName) : undefined;
    if (gen !== undefined) gen.encode(new EncodeState(w, keep), msg);
    else encodeGeneric(w, planOf(desc), msg, keep);
  };

  return {
    registry,
    specialised: useGenerated,
    decodeMessage,
    writeMessageBody,
    decode(bytes, opts = {}) {
      const env = readEnvelope(bytes, opts);
      const info = lookupKind(env.apiVersion, env.kind);
      if (info === undefined) {
        throw new DecodeError(
          "protobuf",
          `unsupported apiVersion/kind ${JSON.stringify(`${env.apiVersion}/${env.kind}`)}; supported: ${supportedKinds()}`,
          { offset: MAGIC.length },
        );
      }
      return decodeMessage(info.desc, bytes, env.rawStart, env.rawEnd, opts) as NetworkingObject;
    },
    encode(obj, opts = {}) {
      const info = kindOf(obj);
      writer ??= new BinaryWriter();
      const w = writer;
      try {
        w.raw(MAGIC);
        w.tag(1, WireType.LengthDelimited).fork();
        w.tag(1, WireType.LengthDelimited).string(info.apiVersion);
        w.tag(2, WireType.LengthDelimited).string(info.kind);
        w.join();
        w.tag(2, WireType.LengthDelimited).fork();
        writeMessageBody(w, obj, opts);
        w.join();
        w.tag(3, WireType.LengthDelimited).string("");
        w.tag(4, WireType.LengthDelimited).string("");
      } catch (e) {
        writer = undefined; // a failed write leaves the writer mid-message
        throw e;
      }
      const out = w.finish();
      if (out.length > RETAINED_WRITER_BYTES) writer = undefined;
      return out;
    },
  };
}

let shared: Codec | undefined;

/** The codec behind the public `decode`/`encode`, created on first use. */
export function defaultCodec(): Codec {
  shared ??= createCodec();
  return shared;
}
