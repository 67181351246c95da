import {
  DecodeError,
  decode,
  decodeJsonWatchStream,
  decodeWatchStream,
  notManifestReason,
  readManifests,
  type FieldValidation,
  type ManifestError,
  type ManifestObject,
  type ManifestSkipped,
  type WatchEvent,
} from "../../networking/index.js";
import { CliError, asText, hasMagic, type Input } from "./io.js";
import { manifestFormat } from "./manifest-format.js";

// Reading one manifest file document by document: text through the
// library's readManifests (and its not-a-manifest rule), protobuf objects
// and watch streams here, into the same entries.

export type { FieldValidation };

export const FIELD_VALIDATIONS: readonly FieldValidation[] = ["Strict", "Warn", "Ignore"];

/** A networking object, decoded; for protobuf input, with the bytes it (or its whole watch frame) came from. */
export type ObjectDocument = ManifestObject & { readonly original?: Uint8Array };

export type ReadDocument = ObjectDocument | ManifestSkipped | ManifestError;

export interface ReadFile {
  readonly documents: readonly ReadDocument[];
  /**
   * Set when the file is not a Kubernetes manifest at all: JSON or YAML
   * with no kind anywhere (package.json, a Helm Chart.yaml or values file),
   * or an unrendered template. Its documents are then empty.
   */
  readonly notManifest?: string;
}

export interface ReadOptions {
  readonly fieldValidation: FieldValidation;
  /** Kinds to decode; others are skipped. Default: every networking kind. */
  readonly select?: (apiVersion: string, kind: string) => boolean;
}

/** Why a networking kind is skipped when --kinds or --skip-kinds leaves it out. */
const NOT_SELECTED = "not selected by --kinds or --skip-kinds";

/**
 * Reads one file. Never throws for bad content: every problem becomes an
 * error entry (or the file's notManifest note). Text that is not UTF-8 is
 * one error entry.
 */
export async function readManifestFile(input: Input, options: ReadOptions): Promise<ReadFile> {
  const format = manifestFormat(input.name, input.bytes);
  if (format === "pb") return { documents: await readProtobuf(input.bytes) };
  // The watch decoder reads the bytes itself, and gives a byte offset where UTF-8 breaks.
  if (format === "jsonl") return { documents: await readJsonWatch(input.bytes, options) };
  let text: string;
  try {
    text = asText(input, format);
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    const error = new DecodeError(format, e.message.slice(input.name.length + 2));
    return { documents: [{ type: "error", error }] };
  }
  const documents = readManifests(text, {
    format,
    fieldValidation: options.fieldValidation,
    ...(options.select !== undefined ? { select: options.select, notSelected: NOT_SELECTED } : {}),
  });
  const notManifest = notManifestReason(documents);
  return notManifest === undefined ? { documents } : { documents: [], notManifest };
}

async function readProtobuf(bytes: Uint8Array): Promise<ReadDocument[]> {
  const locate = (): undefined => undefined;
  if (hasMagic(bytes)) {
    try {
      return [{ type: "object", object: decode(bytes), warnings: [], locate, original: bytes }];
    } catch (e) {
      return [{ type: "error", error: decodeError(e) }];
    }
  }
  const out: ReadDocument[] = [];
  let at = 0;
  try {
    for await (const ev of decodeWatchStream([bytes])) {
      // The decoder checked the framing, so the length prefix can be trusted here.
      const len = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
      out.push(watchDocument(out.length + 1, ev, bytes.subarray(at, at + 4 + len)));
      at += 4 + len;
    }
  } catch (e) {
    out.push({ type: "error", document: out.length + 1, error: decodeError(e) });
  }
  return out;
}

/** An object read from a watch stream: stored by the server, with no lines to point at. */
function watchDocument(document: number, ev: WatchEvent, original?: Uint8Array): ObjectDocument {
  return {
    type: "object",
    document,
    event: ev.type,
    object: ev.object,
    warnings: [],
    locate: () => undefined,
    ...(original !== undefined ? { original } : {}),
  };
}

async function readJsonWatch(bytes: Uint8Array, options: ReadOptions): Promise<ReadDocument[]> {
  const out: ReadDocument[] = [];
  try {
    const strict = options.fieldValidation === "Strict";
    for await (const ev of decodeJsonWatchStream([bytes], { strict })) {
      out.push(watchDocument(out.length + 1, ev));
    }
  } catch (e) {
    out.push({ type: "error", document: out.length + 1, error: decodeError(e) });
  }
  return out;
}

/** The decoders throw only DecodeError for bad content; anything else is a bug, and is rethrown. */
function decodeError(e: unknown): DecodeError {
  if (e instanceof DecodeError) return e;
  throw e;
}
