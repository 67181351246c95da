import {
  DecodeError,
  decode,
  decodeJsonWatchEvent,
  decodeJsonWatchStream,
  decodeWatchEvent,
  decodeWatchStream,
  fromJson,
  fromYaml,
  type WatchEvent,
} from "../../src/networking/index.js";

/*
 * The decoders under test and the oracle: for any input a decoder must
 * return a well-formed result or throw a DecodeError that says where.
 * Anything else is a failure.
 */

export const TARGETS = [
  "decode",
  "watch-event",
  "watch-stream",
  "json",
  "json-watch-event",
  "json-watch-stream",
  "yaml",
] as const;
export type TargetName = (typeof TARGETS)[number];

export type InputData = Uint8Array | string | readonly (Uint8Array | string)[];

/** One fuzz input: the bytes/text (or stream chunks) and the decoder options. */
export interface FuzzInput {
  readonly data: InputData;
  readonly options: Readonly<Record<string, number | boolean>>;
}

/** ok: a result; decode-error: a located DecodeError; crash: anything else thrown or returned; bad-error: a DecodeError without a usable location. */
export type Verdict = "ok" | "decode-error" | "crash" | "bad-error";

export interface RunResult {
  readonly verdict: Verdict;
  /** What went wrong (for a DecodeError, its message). */
  readonly detail?: string;
  readonly stack?: string;
}

const FORMAT: Record<TargetName, "protobuf" | "json" | "yaml"> = {
  decode: "protobuf",
  "watch-event": "protobuf",
  "watch-stream": "protobuf",
  json: "json",
  "json-watch-event": "json",
  "json-watch-stream": "json",
  yaml: "yaml",
};

/** Input size in the unit error offsets use (bytes, or UTF-16 code units, never more than bytes for byte chunks). */
export function inputSize(data: InputData): number {
  if (typeof data === "string" || data instanceof Uint8Array) return data.length;
  let n = 0;
  for (const c of data) n += c.length;
  return n;
}

/** Runs `input` through `target`. Synchronous decoders return synchronously. */
export function runTarget(target: TargetName, input: FuzzInput): RunResult | Promise<RunResult> {
  const size = inputSize(input.data);
  try {
    switch (target) {
      case "decode":
        return checkObject(decode(asBytes(input.data), input.options));
      case "watch-event":
        return checkEvent(decodeWatchEvent(asBytes(input.data), input.options));
      case "json":
        return checkObject(fromJson(asText(input.data), input.options));
      case "json-watch-event":
        return checkEvent(decodeJsonWatchEvent(asText(input.data), input.options));
      case "yaml": {
        const docs: unknown = fromYaml(asText(input.data), input.options);
        if (!Array.isArray(docs))
          return { verdict: "crash", detail: `fromYaml returned ${describe(docs)}, not an array` };
        for (const d of docs) {
          const r = checkObject(d);
          if (r.verdict !== "ok") return r;
        }
        return OK;
      }
      case "watch-stream":
        return drain(decodeWatchStream(asChunks(input.data) as Uint8Array[], input.options), target, size);
      case "json-watch-stream":
        return drain(decodeJsonWatchStream(asChunks(input.data), input.options), target, size);
    }
  } catch (e) {
    return classify(e, target, size);
  }
}

const OK: RunResult = { verdict: "ok" };

async function drain(events: AsyncIterable<WatchEvent>, target: TargetName, size: number): Promise<RunResult> {
  try {
    for await (const ev of events) {
      const r = checkEvent(ev);
      if (r.verdict !== "ok") return r;
    }
    return OK;
  } catch (e) {
    return classify(e, target, size);
  }
}

/** Sorts a thrown value into decode-error, bad-error or crash. */
export function classify(e: unknown, target: TargetName, size: number): RunResult {
  if (!(e instanceof DecodeError)) {
    const err = e instanceof Error ? e : undefined;
    return {
      verdict: "crash",
      detail: err !== undefined ? `${err.name}: ${err.message}` : `threw ${describe(e)}`,
      ...(err?.stack !== undefined ? { stack: err.stack } : {}),
    };
  }
  const problem = locationProblem(e, FORMAT[target], size);
  if (problem === undefined) return { verdict: "decode-error", detail: e.message };
  return {
    verdict: "bad-error",
    detail: `${problem}: ${e.message}`,
    ...(e.stack !== undefined ? { stack: e.stack } : {}),
  };
}

/** Why a DecodeError does not locate the problem in an input of `size`, or undefined. */
export function locationProblem(
  e: DecodeError,
  format: "protobuf" | "json" | "yaml",
  size: number,
): string | undefined {
  if (e.format !== format) return `format ${e.format}, want ${format}`;
  if (typeof e.reason !== "string" || e.reason === "") return "no reason";
  const offsetOk = e.offset === undefined || (Number.isInteger(e.offset) && e.offset >= 0 && e.offset <= size);
  if (!offsetOk) return `offset ${String(e.offset)} outside [0, ${size}]`;
  if (format === "protobuf") return e.offset === undefined ? "no byte offset" : undefined;
  const lineOk =
    e.line !== undefined &&
    Number.isInteger(e.line) &&
    e.line >= 1 &&
    (e.column === undefined || (Number.isInteger(e.column) && e.column >= 1));
  if (e.line !== undefined && !lineOk) return `bad line/column ${String(e.line)}:${String(e.column)}`;
  if (e.line === undefined && e.offset === undefined) return "no line/column or offset";
  return undefined;
}

function checkObject(o: unknown): RunResult {
  if (typeof o !== "object" || o === null || typeof (o as { $typeName?: unknown }).$typeName !== "string") {
    return { verdict: "crash", detail: `returned ${describe(o)}, not a decoded message` };
  }
  return OK;
}

const EVENT_TYPES = new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]);

function checkEvent(ev: unknown): RunResult {
  const e = ev as { type?: unknown; object?: unknown } | null;
  if (typeof e !== "object" || e === null || typeof e.type !== "string" || !EVENT_TYPES.has(e.type)) {
    return { verdict: "crash", detail: `returned ${describe(ev)}, not a watch event` };
  }
  return checkObject(e.object);
}

function asBytes(d: InputData): Uint8Array {
  if (!(d instanceof Uint8Array)) throw new TypeError("this target takes bytes");
  return d;
}

function asText(d: InputData): string {
  if (typeof d !== "string") throw new TypeError("this target takes text");
  return d;
}

function asChunks(d: InputData): (Uint8Array | string)[] {
  if (typeof d === "string" || d instanceof Uint8Array) throw new TypeError("this target takes chunks");
  return [...d];
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v;
}
