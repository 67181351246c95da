// Malformed input for the binary decoder's group depth limit: every bad input raises a DecodeError saying
// where (byte offset, path, line/column) and why, and nothing else is thrown.

import { describe, expect, it } from "vitest";
import {
  DecodeError,
  IngressSchema,
  MAGIC,
  create,
  decode,
  encode,
  type Ingress,
} from "../../../src/networking/index.js";
import { ld, varint } from "../../support/protobuf-wire.js";
import { utf8, str, envelopeHead, envelope, NP } from "../../support/bad-input.js";
import { hex } from "../../support/bytes.js";
import { decodeError } from "../../support/errors.js";
import { expectSubquadratic } from "../../support/growth.js";

describe("fuzz campaign findings", () => {
  const levels = 100_000;
  /** `n` start-group tags of field `no` (< 16), then `n` end-group tags. */
  const nestedGroups = (no: number, n: number): number[] => [
    ...Array<number>(n).fill((no << 3) | 3),
    ...Array<number>(n).fill((no << 3) | 4),
  ];

  // A caller's maxDepth above what the stack can recurse (100,000, Infinity,
  // NaN) let deep groups overflow it: a RangeError escaped instead of a
  // DecodeError. maxDepth is now capped at 500, as YAML's is.
  it.each([100_000, 1e9, Infinity, NaN])(
    "maxDepth %s: 100,000 nested groups give DecodeError, not a stack overflow",
    async (maxDepth) => {
      const { decodeWatchEvent, decodeWatchStream } = await import("../../../src/networking/index.js");
      const groups = nestedGroups(5, levels);
      const inObject = Uint8Array.from([...envelopeHead("Ingress"), 0x12, ...varint(groups.length), ...groups]);
      const inEnvelope = Uint8Array.from([...MAGIC, ...groups]);
      for (const bytes of [inObject, inEnvelope]) {
        const e = decodeError(() => decode(bytes, { maxDepth }));
        expect(e.reason).toMatch(/nested/);
      }
      const event = Uint8Array.from([...str(1, "ADDED"), ...nestedGroups(3, levels)]);
      expect(decodeError(() => decodeWatchEvent(event, { maxDepth })).reason).toMatch(/nested/);
      const frame = new Uint8Array(4 + event.length);
      new DataView(frame.buffer).setUint32(0, event.length, false);
      frame.set(event, 4);
      let thrown: unknown;
      try {
        for await (const ev of decodeWatchStream([frame], { maxDepth, maxFrameSize: 1 << 30 })) void ev;
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(DecodeError);
    },
  );

  it("the cap is 500 levels: 500 nested groups decode with a larger maxDepth, 501 do not", () => {
    const inMetadata = (n: number): Uint8Array => {
      // ObjectMeta has no field 20: start-group a3 01, end-group a4 01.
      const body = [
        ...Array<number>(n)
          .fill(0)
          .flatMap(() => [0xa3, 0x01]),
        ...Array<number>(n)
          .fill(0)
          .flatMap(() => [0xa4, 0x01]),
      ];
      return envelope("Ingress", ld(1, body));
    };
    expect(() => decode(inMetadata(500), { maxDepth: 1e6 })).not.toThrow();
    expect(decodeError(() => decode(inMetadata(501), { maxDepth: 1e6 })).reason).toMatch(/nested/);
    // Below the cap, maxDepth still decides; a negative one allows no groups.
    expect(decodeError(() => decode(inMetadata(3), { maxDepth: 2 })).reason).toMatch(/nested/);
    expect(decodeError(() => decode(inMetadata(1), { maxDepth: -1 })).reason).toMatch(/nested/);
  });

  // The frame buffer was allocated from the 4-byte header: with maxFrameSize
  // Infinity (or NaN, 2^53) a header claiming 4 GiB allocated 4 GiB at once,
  // or threw "Array buffer allocation failed". It now grows with the data.
  it("maxFrameSize Infinity: a frame header claiming 4 GiB costs only the bytes that arrive", async () => {
    const { decodeWatchStream } = await import("../../../src/networking/index.js");
    const { getHeapStatistics, setFlagsFromString } = await import("node:v8");
    const { runInNewContext } = await import("node:vm");
    // Free earlier tests' buffers first, or a GC during this one hides the allocation.
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
    const before = getHeapStatistics().external_memory;
    let during = 0;
    // Measured while the decoder waits for the body, so its buffer is alive.
    async function* body(): AsyncGenerator<Uint8Array> {
      yield Uint8Array.of(0xff, 0xff, 0xff, 0xff);
      during = getHeapStatistics().external_memory - before;
      yield new Uint8Array(1000);
    }
    for (const maxFrameSize of [Infinity, NaN, 2 ** 53]) {
      let thrown: unknown;
      try {
        for await (const ev of decodeWatchStream(body(), { maxFrameSize })) void ev;
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(DecodeError);
      expect((thrown as DecodeError).reason).toMatch(/ended inside a frame \(1000 of 4294967295 frame bytes\)/);
      // Only the first 4 GiB allocation of a process shows reliably in external_memory.
      if (maxFrameSize === Infinity) expect(during).toBeLessThan(64 << 20);
    }
  });

  it("a frame split into many chunks still decodes, through the growing buffer", async () => {
    const { decodeWatchStream, encodeWatchEvent } = await import("../../../src/networking/index.js");
    const big = create(IngressSchema, { metadata: { name: "a", annotations: { x: "b".repeat(300_000) } } });
    const bytes = encodeWatchEvent({ type: "ADDED", object: big });
    for (const size of [1000, 70_000, 100_000]) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      const events = [];
      for await (const ev of decodeWatchStream(chunks)) events.push(ev);
      expect(events.length).toBe(1);
      expect(hex(encode(events[0]!.object))).toBe(hex(encode(big)));
    }
  });

  // Each chunk was appended to the unconsumed text, which was then read back
  // whole: a 1 MiB event in 16-byte chunks took about 40 s (protobuf: 50 ms).
  it.each(["strings", "bytes"])(
    "a 1 MiB JSON watch event in 16-byte chunks (%s) decodes in linear time",
    async (form) => {
      const { decodeJsonWatchStream } = await import("../../../src/networking/index.js");
      const chunked = (n: number): (string | Uint8Array)[] => {
        const text = `{"type":"ADDED","object":{${NP},"metadata":{"name":"a","annotations":{"x":"${"a".repeat(n)}"}}}}\n`;
        const bytes = utf8.encode(text);
        const chunks: (string | Uint8Array)[] = [];
        for (let i = 0; i < text.length; i += 16)
          chunks.push(form === "strings" ? text.slice(i, i + 16) : bytes.subarray(i, i + 16));
        return chunks;
      };
      const decodeAll = async (chunks: (string | Uint8Array)[]): Promise<number> => {
        let events = 0;
        for await (const ev of decodeJsonWatchStream(chunks)) {
          expect(ev.type).toBe("ADDED");
          events++;
        }
        return events;
      };
      expect(await decodeAll(chunked(1 << 20))).toBe(1);
      // Linear: 16 times the event costs about 16 times as much, not 256 (two sizes compared, no budget).
      const built = new Map<number, (string | Uint8Array)[]>();
      await expectSubquadratic(
        `${form} in 16-byte chunks`,
        (n) => decodeAll(built.get(n) ?? built.set(n, chunked(n)).get(n)!),
        1 << 16,
        { factor: 16 },
      );
    },
  );
});

describe("map entries", () => {
  // Go's generated unmarshaller reads an empty map entry as key "" and value "".
  // The fast path for Go's entry layout used to look at the byte after an empty
  // entry, and refused the next field (a name, 0a 03 "abc") as the entry's key.
  it("an empty entry is key '' with value '', and the field after it is read", async () => {
    const { createCodec } = await import("../../../src/networking/protobuf/codec.js");
    const meta = [0x5a, 0x00, ...str(1, "abc")]; // labels: <empty entry>, name: "abc"
    const bytes = envelope("Ingress", ld(1, meta));
    for (const specialised of [true, false]) {
      const obj = createCodec({ specialised }).decode(bytes) as Ingress;
      expect(obj.metadata?.labels).toEqual({ "": "" });
      expect(obj.metadata?.name).toBe("abc");
    }
  });
});
