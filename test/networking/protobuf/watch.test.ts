// Protobuf watch streams (../shared/docs/wire-format.md §3.4): 4-byte big-endian length
// frames, each a bare meta.v1.WatchEvent whose object.raw is an enveloped
// k8s\0 object. Frames may be split across chunks in any way.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_FRAME_SIZE,
  DecodeError,
  ListMetaSchema,
  MAGIC,
  StatusSchema,
  create,
  decode,
  decodeWatchEvent,
  decodeWatchStream,
  encode,
  encodeWatchEvent,
  fromJson,
  toJsonString,
  type NetworkingObject,
  type WatchDecodeOptions,
  type WatchEvent,
} from "../../../src/networking/index.js";
import { loadFixtures } from "../../support/fixtures.js";
import { oracleDecode } from "../../support/protobufjs.js";
import { hex } from "../../support/bytes.js";

const utf8 = new TextEncoder();

const head = loadFixtures("HEAD");
function fixture(kind: string): Uint8Array {
  const fx = head.find((f) => f.kind === kind);
  if (fx === undefined) throw new Error(`HEAD ${kind} fixture missing`);
  return fx.pb;
}

const status = create(StatusSchema, {
  metadata: create(ListMetaSchema),
  status: "Failure",
  message: "too old resource version: 1 (2)",
  reason: "Expired",
  code: 410,
  details: { name: "x", causes: [{ reason: "FieldValueInvalid", message: "m", field: "metadata.resourceVersion" }] },
});

const bookmark = fromJson({
  kind: "Ingress",
  apiVersion: "networking.k8s.io/v1",
  metadata: { resourceVersion: "12345", annotations: { "k8s.io/initial-events-end": "true" } },
});

const EVENTS: readonly WatchEvent[] = [
  { type: "ADDED", object: decode(fixture("Ingress")) },
  { type: "MODIFIED", object: decode(fixture("NetworkPolicy")) },
  { type: "DELETED", object: decode(fixture("IngressClass")) },
  { type: "BOOKMARK", object: bookmark },
  { type: "ADDED", object: decode(fixture("ServiceCIDR")) },
  { type: "ERROR", object: status },
];

const FRAMES = EVENTS.map((e) => encodeWatchEvent(e));
const STREAM = concat(FRAMES);
/** Stream offset of each frame's length prefix. */
const FRAME_STARTS = FRAMES.map((_, i) => FRAMES.slice(0, i).reduce((at, f) => at + f.length, 0));

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Splits at the given (sorted, unique) cut points. */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of cuts) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  out.push(bytes.subarray(from));
  return out;
}

function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function* asAsync(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) {
    await Promise.resolve();
    yield c;
  }
}

async function collect(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options?: WatchDecodeOptions,
): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const e of decodeWatchStream(chunks, options)) out.push(e);
  return out;
}

/** Events until the stream fails, and the error. */
async function collectUntilError(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options?: WatchDecodeOptions,
): Promise<{ events: WatchEvent[]; error: DecodeError }> {
  const events: WatchEvent[] = [];
  try {
    for await (const e of decodeWatchStream(chunks, options)) events.push(e);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { events, error: e };
  }
  throw new Error("expected the watch stream to fail with a DecodeError");
}

/** What every correct decoding yields: the events, each object as decode reads it. */
const EXPECTED = EVENTS.map((e) => ({ type: e.type, object: decode(encode(e.object)) }));

function expectAllEvents(actual: readonly WatchEvent[], deepEqual = true): void {
  expect(actual.map((e) => e.type)).toEqual(EVENTS.map((e) => e.type));
  if (deepEqual) expect(actual).toEqual(EXPECTED);
  actual.forEach((e, i) => {
    expect(toJsonString(e.object), `event ${i}`).toBe(toJsonString((EVENTS[i] as WatchEvent).object));
  });
  // Go-shaped originals: the objects re-encode to the bytes that were sent.
  actual.forEach((e, i) => {
    expect(hex(encode(e.object)), `event ${i}`).toBe(hex(encode((EVENTS[i] as WatchEvent).object)));
  });
}

describe("encodeWatchEvent", () => {
  it("frames an event as the API server does", () => {
    const pb = fixture("Ingress");
    const frame = encodeWatchEvent({ type: "ADDED", object: decode(pb) });
    const len = new DataView(frame.buffer, frame.byteOffset).getUint32(0, false);
    expect(len).toBe(frame.length - 4);
    const body = frame.subarray(4);
    // 0a 05 "ADDED" 12 <len> [0a <len> <enveloped object>]
    expect(hex(body.subarray(0, 7))).toBe("0a05" + hex(utf8.encode("ADDED")));
    expect(body[7]).toBe(0x12);
    // The object is the embedded (enveloped) encoding, byte-identical to Go's.
    const ev = oracleDecode("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent", body);
    expect(ev["type"]).toBe("ADDED");
    const raw = (ev["object"] as { raw: Uint8Array }).raw;
    expect(hex(raw.subarray(0, 4))).toBe(hex(MAGIC));
    expect(hex(raw)).toBe(hex(pb));
  });

  it("decodeWatchEvent reads one frame body", () => {
    const ev = decodeWatchEvent((FRAMES[5] as Uint8Array).subarray(4));
    expect(ev.type).toBe("ERROR");
    expect(ev.object.$typeName).toBe("k8s.io.apimachinery.pkg.apis.meta.v1.Status");
    expect(toJsonString(ev.object)).toBe(toJsonString(status));
    expect(toJsonString(ev.object)).toContain('"kind":"Status","apiVersion":"v1"');
  });

  it("refuses an unknown event type", () => {
    expect(() => encodeWatchEvent({ type: "UPDATED" as never, object: bookmark })).toThrow(TypeError);
  });
});

describe("decodeWatchStream: every way of splitting the bytes", () => {
  it("the stream holds ADDED, MODIFIED, DELETED, BOOKMARK and ERROR events", () => {
    expect(new Set(EVENTS.map((e) => e.type))).toEqual(new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]));
  });

  it("a single chunk, sync and async", async () => {
    expectAllEvents(await collect([STREAM]));
    expectAllEvents(await collect(asAsync([STREAM])));
  });

  it("one chunk per frame, and an empty stream", async () => {
    expectAllEvents(await collect(FRAMES));
    expect(await collect([])).toEqual([]);
    expect(await collect([new Uint8Array(0)])).toEqual([]);
  });

  it("all 1-byte chunks, sync and async", async () => {
    const ones = chunksOf(STREAM, 1);
    expectAllEvents(await collect(ones));
    expectAllEvents(await collect(asAsync(ones)));
  });

  it("every single split point", async () => {
    for (let c = 1; c < STREAM.length; c++) expectAllEvents(await collect(split(STREAM, [c])));
  });

  it("random chunk boundaries (with empty chunks), sync and async", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: STREAM.length }), { maxLength: 40 }),
        fc.boolean(),
        fc.boolean(),
        async (cuts, async, buffers) => {
          let chunks = split(
            STREAM,
            [...cuts].sort((a, b) => a - b),
          );
          // Node Buffers are Uint8Arrays too, and chunks may share memory.
          // Bytes fields decoded from them are plain Uint8Arrays all the same.
          if (buffers) chunks = chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.length));
          expectAllEvents(await collect(async ? asAsync(chunks) : chunks));
        },
      ),
      { numRuns: 200 },
    );
  });

  // Bytes fields (FieldsV1.Raw, unknown fields' data) are private copies:
  // for a Node Buffer (what http responses and sockets yield), slice() would
  // return a view sharing the input's memory, so the decoded object would
  // change when the input buffer is reused, and keep the whole chunk alive.
  it("objects decoded from Node Buffers do not share the input's memory", async () => {
    const input = Buffer.from(STREAM);
    const events = await collect([input]);
    const raw = (
      events[0]?.object as unknown as { metadata: { managedFields: { fieldsV1: { Raw: Uint8Array } }[] } } | undefined
    )?.metadata.managedFields[0]?.fieldsV1.Raw;
    expect(raw).toBeDefined();
    expect(Buffer.from(raw ?? []).toString()).toBe("{}");
    input.fill(0x5b);
    expect(Buffer.from(raw ?? []).toString()).toBe("{}");
  });

  it("decode(Buffer) returns plain, unshared Uint8Arrays for bytes fields", () => {
    const pb = Buffer.from(fixture("Ingress"));
    const o = decode(pb) as unknown as { metadata: { managedFields: { fieldsV1: { Raw: Uint8Array } }[] } };
    const raw = o.metadata.managedFields[0]?.fieldsV1.Raw as Uint8Array;
    expect(raw).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(raw)).toBe(false);
    expect(Object.getPrototypeOf(raw)).toBe(Uint8Array.prototype);
    expect(raw.buffer).not.toBe(pb.buffer);
    expect(raw.byteOffset).toBe(0);
    expect(raw.buffer.byteLength).toBe(raw.length);
  });

  it("decode(Buffer) keeps unknown fields' data as plain, unshared Uint8Arrays", () => {
    // The fixture's Ingress with an unknown field 9 (length-delimited "\n\x01a") added.
    const withUnknown = decode(fixture("Ingress")) as unknown as {
      $unknown?: { no: number; wireType: number; data: Uint8Array }[];
    };
    withUnknown.$unknown ??= [];
    withUnknown.$unknown.push({ no: 9, wireType: 2, data: Uint8Array.of(0x03, 0x0a, 0x01, 0x61) });
    const input = Buffer.from(encode(withUnknown as unknown as NetworkingObject));
    expect(hex(input)).toContain("4a030a0161");
    const o = decode(input) as unknown as typeof withUnknown;
    const data = o.$unknown?.find((f) => f.no === 9)?.data as Uint8Array;
    expect(hex(data)).toBe("030a0161"); // the value after the tag: length prefix and payload
    expect(Buffer.isBuffer(data)).toBe(false);
    expect(Object.getPrototypeOf(data)).toBe(Uint8Array.prototype);
    expect(data.buffer).not.toBe(input.buffer);
    input.fill(0);
    expect(hex(data)).toBe("030a0161");
  });

  it("the consumer may stop early", async () => {
    for await (const e of decodeWatchStream(asAsync(chunksOf(STREAM, 7)))) {
      expect(e.type).toBe("ADDED");
      break;
    }
  });
});

describe("decodeWatchStream: bad streams", () => {
  it("a truncated stream fails with the offset of the incomplete frame", async () => {
    for (let cut = 1; cut < STREAM.length; cut++) {
      const frame = FRAME_STARTS.filter((s) => s <= cut).length - 1;
      if (FRAME_STARTS[frame] === cut) {
        // A cut between frames is a clean end of stream.
        expect((await collect([STREAM.subarray(0, cut)])).length).toBe(frame);
        continue;
      }
      const { events, error } = await collectUntilError([STREAM.subarray(0, cut)]);
      expect(events.length, `cut at ${cut}`).toBe(frame);
      expect(error.offset, `cut at ${cut}`).toBe(FRAME_STARTS[frame]);
      expect(error.reason).toMatch(/ended inside a frame/);
    }
  });

  it("a truncated stream in random chunks, sync and async", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: STREAM.length - 1 }),
        fc.uniqueArray(fc.nat(), { maxLength: 20 }),
        fc.boolean(),
        async (cut, rawCuts, async) => {
          const frame = FRAME_STARTS.filter((s) => s <= cut).length - 1;
          fc.pre(FRAME_STARTS[frame] !== cut);
          const bytes = STREAM.subarray(0, cut);
          const chunks = split(
            bytes,
            [...new Set(rawCuts.map((c) => c % (cut + 1)))].sort((a, b) => a - b),
          );
          const { events, error } = await collectUntilError(async ? asAsync(chunks) : chunks);
          expect(events.length).toBe(frame);
          expect(error.offset).toBe(FRAME_STARTS[frame]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a frame longer than maxFrameSize fails at its length prefix", async () => {
    const second = FRAME_STARTS[1] as number;
    const secondLen = (FRAMES[1] as Uint8Array).length - 4;
    const firstLen = (FRAMES[0] as Uint8Array).length - 4;
    const max = Math.max(firstLen, secondLen - 1);
    expect(firstLen).toBeLessThanOrEqual(max);
    for (const chunks of [[STREAM], chunksOf(STREAM, 1), chunksOf(STREAM, 100)]) {
      const { events, error } = await collectUntilError(chunks, { maxFrameSize: max });
      expect(events.length).toBe(1);
      expect(error.offset).toBe(second);
      expect(error.reason).toMatch(/exceeds/);
    }
    // A frame of exactly maxFrameSize is fine.
    expect((await collect([FRAMES[0] as Uint8Array], { maxFrameSize: firstLen })).length).toBe(1);
  });

  it("the default limit is client-go's 16 MiB, checked before buffering", async () => {
    expect(DEFAULT_MAX_FRAME_SIZE).toBe(16 * 1024 * 1024);
    const header = new Uint8Array(4);
    new DataView(header.buffer).setUint32(0, DEFAULT_MAX_FRAME_SIZE + 1, false);
    const { error } = await collectUntilError([FRAMES[0] as Uint8Array, header, new Uint8Array(10)]);
    expect(error.offset).toBe((FRAMES[0] as Uint8Array).length);
    new DataView(header.buffer).setUint32(0, 0xffffffff, false);
    expect((await collectUntilError([header])).error.offset).toBe(0);
  });

  function frameOf(body: readonly number[]): Uint8Array {
    const out = new Uint8Array(4 + body.length);
    new DataView(out.buffer).setUint32(0, body.length, false);
    out.set(body, 4);
    return out;
  }
  const ld = (no: number, b: readonly number[] | Uint8Array): number[] => {
    const len: number[] = [];
    let n = b.length;
    while (n > 127) {
      len.push((n & 127) | 128);
      n >>>= 7;
    }
    len.push(n);
    return [(no << 3) | 2, ...len, ...b];
  };
  const objectField = ld(2, ld(1, fixture("Ingress")));

  it("an unknown event type fails at its frame", async () => {
    const bad = frameOf([...ld(1, utf8.encode("UPDATED")), ...objectField]);
    const { events, error } = await collectUntilError([FRAMES[0] as Uint8Array, bad, FRAMES[1] as Uint8Array]);
    expect(events.length).toBe(1);
    expect(error.reason).toMatch(/unknown watch event type "UPDATED"/);
    expect(error.offset).toBeGreaterThanOrEqual((FRAMES[0] as Uint8Array).length);
    expect(error.offset).toBeLessThanOrEqual((FRAMES[0] as Uint8Array).length + 4);
    for (const body of [[...objectField], [...ld(1, utf8.encode("added")), ...objectField], [...ld(1, [])]]) {
      await expect(collect([frameOf(body)])).rejects.toBeInstanceOf(DecodeError);
    }
  });

  it("an event without an object, or with a broken one, fails", async () => {
    expect((await collectUntilError([frameOf(ld(1, utf8.encode("ADDED")))])).error.reason).toMatch(/no object/);
    // The type field's tag is at stream offset 4 and its length prefix (5,
    // past the end of the 2-byte frame) at 5: the error points at the prefix.
    const short = (await collectUntilError([frameOf([0x0a, 0x05])])).error;
    expect(short.offset).toBe(5);
    expect(short.reason).toMatch(/length 5 runs past the end of the frame/);
    expect((await collectUntilError([frameOf([...ld(1, utf8.encode("ADDED")), 0x12, 0x7f])])).error.reason).toMatch(
      /runs past|truncated/,
    );
  });

  it("an error inside an event's object points into the stream", async () => {
    // Corrupt the magic of the object in the third frame.
    const bytes = new Uint8Array(STREAM);
    const frame = FRAME_STARTS[2] as number;
    const objectStart = bytes.findIndex(
      (b, i) => i > frame && b === 0x6b && bytes[i + 1] === 0x38 && bytes[i + 2] === 0x73 && bytes[i + 3] === 0,
    );
    bytes[objectStart + 1] = 0x39;
    const { events, error } = await collectUntilError(chunksOf(bytes, 13));
    expect(events.length).toBe(2);
    expect(error.offset).toBe(objectStart + 1);
    expect(error.reason).toMatch(/DELETED event object/);
  });

  it("a chunk that is not a Uint8Array fails with DecodeError", async () => {
    await expect(collect(["abc" as unknown as Uint8Array])).rejects.toBeInstanceOf(DecodeError);
    await expect(collect([FRAMES[0] as Uint8Array, [1, 2, 3] as unknown as Uint8Array])).rejects.toBeInstanceOf(
      DecodeError,
    );
  });

  it("random corruptions only ever produce events or a DecodeError", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 64 }),
        async (edits, size) => {
          const bytes = new Uint8Array(STREAM);
          for (const [at, v] of edits) bytes[at % bytes.length] = v;
          try {
            await collect(chunksOf(bytes, size), { maxFrameSize: 1 << 20 });
          } catch (e) {
            if (!(e instanceof DecodeError)) throw e;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("decodeWatchStream: large frames", () => {
  it("a 2 MiB frame split into 1 KiB chunks decodes (linear buffering)", async () => {
    const annotations: Record<string, string> = {};
    const value = "v".repeat(1000);
    for (let i = 0; i < 2100; i++) annotations[`example.com/key-${String(i).padStart(5, "0")}`] = value;
    const big: NetworkingObject = fromJson({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      metadata: { name: "big", annotations },
    });
    const frame = encodeWatchEvent({ type: "MODIFIED", object: big });
    expect(frame.length).toBeGreaterThan(2 * 1024 * 1024);
    const stream = concat([FRAMES[0] as Uint8Array, frame, FRAMES[3] as Uint8Array]);
    const events = await collect(asAsync(chunksOf(stream, 1024)));
    expect(events.map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "BOOKMARK"]);
    expect(hex(encode((events[1] as WatchEvent).object))).toBe(hex(encode(big)));
    // And in 1-byte-at-a-time header splits around it.
    const events2 = await collect(chunksOf(frame, 4093));
    expect(events2.length).toBe(1);
  });
});
