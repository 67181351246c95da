import type { Message } from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { decodeMessageAt, toDecodeError, writeMessageBody, type BinaryDecodeOptions, type BinaryEncodeOptions } from "./binary.js";
import { DecodeError } from "./errors.js";
import { kindOfTypeName, lookupKind, supportedKinds, type KindInfo, type NetworkingObject } from "./kinds.js";

/** The 4 bytes that start every Kubernetes protobuf object: "k8s" and the encoding style 0. */
export const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** Media type of the enveloped protobuf encoding. */
export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

export type DecodeOptions = BinaryDecodeOptions;
export type EncodeOptions = BinaryEncodeOptions;

/** The envelope's parts, as found in a `runtime.Unknown`. */
export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  /** Offsets of the raw object bytes within the input. */
  readonly rawStart: number;
  readonly rawEnd: number;
}

/**
 * Decodes an API server protobuf body: the `k8s\0` magic, a `runtime.Unknown`,
 * and the object it carries, typed by apiVersion and kind. Lists decode to
 * their List message. Throws {@link DecodeError} only.
 */
export function decode(bytes: Uint8Array, options: DecodeOptions = {}): NetworkingObject {
  const env = readEnvelope(bytes);
  const info = lookupKind(env.apiVersion, env.kind);
  if (info === undefined) {
    throw new DecodeError(
      "protobuf",
      `unsupported apiVersion/kind ${JSON.stringify(`${env.apiVersion}/${env.kind}`)}; supported: ${supportedKinds()}`,
      { offset: MAGIC.length },
    );
  }
  return decodeMessageAt(info.desc, bytes, env.rawStart, env.rawEnd, options) as NetworkingObject;
}

/** Reads the magic and the `runtime.Unknown` without decoding the object. */
export function readEnvelope(bytes: Uint8Array): Envelope {
  if (!(bytes instanceof Uint8Array)) {
    throw new DecodeError("protobuf", `expected a Uint8Array, got ${describeType(bytes)}`, { offset: 0 });
  }
  if (bytes.length === 0) throw new DecodeError("protobuf", "empty data", { offset: 0 });
  for (let i = 0; i < MAGIC.length; i++) {
    if (i >= bytes.length) throw new DecodeError("protobuf", "truncated k8s\\0 prefix", { offset: i });
    if (bytes[i] !== MAGIC[i]) {
      throw new DecodeError("protobuf", `missing k8s\\0 prefix: byte ${i} is 0x${hex(bytes[i] as number)}, want 0x${hex(MAGIC[i] as number)}`, { offset: i });
    }
  }
  if (bytes.length === MAGIC.length) throw new DecodeError("protobuf", "empty body after the k8s\\0 prefix", { offset: MAGIC.length });

  const r = new BinaryReader(bytes);
  r.pos = MAGIC.length;
  const state = { fieldStart: r.pos };
  let apiVersion = "";
  let kind = "";
  let rawStart = -1;
  let rawEnd = -1;
  let contentEncoding = "";
  let contentType = "";
  try {
    while (r.pos < r.len) {
      const at = r.pos;
      state.fieldStart = at;
      const [no, wt] = r.tag();
      if (no >= 1 && no <= 4 && wt !== WireType.LengthDelimited) {
        throw new DecodeError("protobuf", `wrong wire type ${wt} for runtime.Unknown field ${no}`, { offset: at });
      }
      switch (no) {
        case 1: {
          const end = lengthEnd(r, r.len);
          r.uint32();
          while (r.pos < end) {
            const tat = r.pos;
            state.fieldStart = tat;
            const [tno, twt] = r.tag();
            if ((tno === 1 || tno === 2) && twt === WireType.LengthDelimited) {
              lengthEnd(r, end);
              const s = utf8(r, tat);
              if (tno === 1) apiVersion = s;
              else kind = s;
            } else {
              r.skip(twt, tno);
              if (r.pos > end) throw new DecodeError("protobuf", "typeMeta field runs past its message", { offset: tat });
            }
          }
          break;
        }
        case 2: {
          rawEnd = lengthEnd(r, r.len);
          r.uint32();
          rawStart = r.pos;
          r.pos = rawEnd;
          break;
        }
        case 3:
          lengthEnd(r, r.len);
          contentEncoding = utf8(r, at);
          break;
        case 4:
          lengthEnd(r, r.len);
          contentType = utf8(r, at);
          break;
        default:
          r.skip(wt, no);
      }
    }
  } catch (e) {
    throw toDecodeError(e, state);
  }
  if (contentEncoding !== "") {
    throw new DecodeError("protobuf", `unsupported contentEncoding ${JSON.stringify(contentEncoding)}`, { offset: MAGIC.length });
  }
  if (contentType !== "" && contentType !== PROTOBUF_MEDIA_TYPE) {
    throw new DecodeError("protobuf", `unsupported contentType ${JSON.stringify(contentType)}`, { offset: MAGIC.length });
  }
  if (kind === "" || apiVersion === "") {
    throw new DecodeError("protobuf", "runtime.Unknown has no apiVersion/kind", { offset: MAGIC.length });
  }
  // A missing raw field is an empty object, as in Go.
  if (rawStart < 0) {
    rawStart = bytes.length;
    rawEnd = bytes.length;
  }
  return { apiVersion, kind, rawStart, rawEnd };
}

/** Checks a length prefix against `end` and returns where the value ends; pos stays at the prefix. */
function lengthEnd(r: BinaryReader, end: number): number {
  const at = r.pos;
  const len = r.uint32();
  const stop = r.pos + len;
  if (stop > end) throw new DecodeError("protobuf", `length ${len} runs past the end of the input`, { offset: at });
  r.pos = at;
  return stop;
}

function utf8(r: BinaryReader, at: number): string {
  try {
    return r.string(true);
  } catch {
    throw new DecodeError("protobuf", "string field is not valid UTF-8", { offset: at });
  }
}

/**
 * Encodes an object the way the API server does: `k8s\0`, then a
 * `runtime.Unknown` with apiVersion/kind, the object bytes and the two empty
 * content strings. The object is written with Go's field rules, so bytes
 * decoded from Go re-encode to the same bytes.
 */
export function encode(obj: NetworkingObject | Message, options: EncodeOptions = {}): Uint8Array {
  const info = kindOf(obj);
  const w = new BinaryWriter();
  w.raw(MAGIC);
  w.tag(1, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(info.apiVersion);
  w.tag(2, WireType.LengthDelimited).string(info.kind);
  w.join();
  w.tag(2, WireType.LengthDelimited).fork();
  writeMessageBody(w, obj, options);
  w.join();
  w.tag(3, WireType.LengthDelimited).string("");
  w.tag(4, WireType.LengthDelimited).string("");
  return w.finish();
}

/** The kind of a message, or a TypeError naming what it is instead. */
export function kindOf(obj: Message): KindInfo {
  const typeName = (obj as { $typeName?: unknown } | null)?.$typeName;
  const info = typeof typeName === "string" ? kindOfTypeName(typeName) : undefined;
  if (info === undefined) {
    throw new TypeError(`not a top-level networking.k8s.io/v1 object (got ${typeof typeName === "string" ? typeName : describeType(obj)}); supported: ${supportedKinds()}`);
  }
  return info;
}

function hex(n: number): string {
  return n.toString(16).padStart(2, "0");
}

function describeType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return (v as object).constructor?.name ?? "an object";
  return typeof v;
}
