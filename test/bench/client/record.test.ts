// EventBoundaries: where each event of a watch stream ends, however the stream is cut into
// chunks, checked against the encoders' own framing.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  EventBoundaries,
  readRecording,
  recordingFile,
  recordingOf,
  saveRecording,
} from "../../../bench/client/record.js";
import {
  create,
  encodeJsonWatchEvent,
  encodeWatchEvent,
  IngressSchema,
  NetworkPolicySchema,
} from "../../../src/networking/index.js";
import { propertyRuns } from "../../support/property-runs.js";

/** The ends of every event in `stream` fed as the chunks cut at `cuts`, as stream offsets. */
function endsOf(format: "json" | "protobuf", stream: Uint8Array, cuts: readonly number[]): number[] {
  const b = new EventBoundaries(format);
  const points = [...new Set([0, ...cuts.map((c) => c % (stream.length + 1)), stream.length])].sort((x, y) => x - y);
  const out: number[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!;
    for (const end of b.push(stream.subarray(start, points[i + 1]!))) out.push(start + end);
  }
  expect(b.events).toBe(out.length);
  return out;
}

const arbEvents = fc.array(
  fc.record({
    type: fc.constantFrom("ADDED" as const, "MODIFIED" as const, "DELETED" as const),
    name: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
    ingress: fc.boolean(),
    // A newline inside a JSON string is escaped, so it must never end an event.
    note: fc.string(),
  }),
  { minLength: 1, maxLength: 8 },
);

describe("EventBoundaries", () => {
  test.prop([arbEvents, fc.array(fc.nat(), { maxLength: 12 })], { numRuns: propertyRuns(200) })(
    "finds the end of each protobuf frame and JSON line, whatever the chunks",
    (events, cuts) => {
      const encoded = events.map((e) => {
        const metadata = { name: e.name, annotations: { note: e.note } };
        const object = e.ingress ? create(IngressSchema, { metadata }) : create(NetworkPolicySchema, { metadata });
        return {
          protobuf: encodeWatchEvent({ type: e.type, object }),
          json: Buffer.from(encodeJsonWatchEvent({ type: e.type, object }), "utf8"),
        };
      });
      for (const format of ["protobuf", "json"] as const) {
        const parts = encoded.map((x) => x[format]);
        const ends: number[] = [];
        let at = 0;
        for (const p of parts) {
          at += p.length;
          ends.push(at);
        }
        expect(endsOf(format, Buffer.concat(parts), cuts)).toEqual(ends);
      }
    },
  );

  it("counts an empty protobuf frame, and a length prefix split byte by byte", () => {
    const stream = Uint8Array.from([0, 0, 0, 0, 0, 0, 1, 2, 0xaa, 0xbb]);
    const b = new EventBoundaries("protobuf");
    const ends = [...stream].flatMap((byte) => b.push(Uint8Array.of(byte)));
    // Each single-byte chunk ends at offset 1 of itself when a frame completes in it.
    expect(ends).toEqual([1]);
    expect(b.events).toBe(1);
    // The 258-byte frame that follows is not complete.
    expect(new EventBoundaries("protobuf").push(stream)).toEqual([4]);
  });
});

describe("saved recordings", () => {
  const events = [0, 1, 2].map((i) => ({
    type: "ADDED" as const,
    object: create(IngressSchema, { metadata: { namespace: "web", name: `shop-${i}` } }),
  }));
  const stream = {
    protobuf: Buffer.concat(events.map((e) => encodeWatchEvent(e))),
    json: Buffer.from(events.map((e) => encodeJsonWatchEvent(e)).join(""), "utf8"),
  };

  it("reads back the bytes in chunks of the size asked, and counts the events", () => {
    for (const format of ["protobuf", "json"] as const) {
      const r = recordingOf(stream[format], format, 3, 7);
      expect(r).toMatchObject({ format, bytes: stream[format].length, events: 3 });
      expect(r.chunks.length).toBe(Math.ceil(stream[format].length / 7));
      expect(r.chunks.slice(0, -1).every((c) => c.length === 7)).toBe(true);
      expect(Buffer.concat(r.chunks)).toEqual(stream[format]);
    }
  });

  it("refuses bytes that hold another number of events, or end inside one", () => {
    expect(() => recordingOf(stream.protobuf, "protobuf", 4)).toThrow(/of 3 events, not 4/);
    expect(() => recordingOf(stream.json.subarray(0, -1), "json", 3)).toThrow(
      /of 2 events and \d+ bytes of an unfinished one, not 3/,
    );
    expect(() => recordingOf(stream.protobuf.subarray(0, -2), "protobuf", 2)).toThrow(/unfinished/);
  });

  it("saves each stream as KIND-EVENT.json or .pb, and reads it back", () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-recordings-"));
    try {
      for (const format of ["protobuf", "json"] as const) {
        const file = recordingFile(join(dir, "streams"), "Ingress", "ADDED", format);
        expect(file).toBe(join(dir, "streams", format === "json" ? "Ingress-ADDED.json" : "Ingress-ADDED.pb"));
        saveRecording(file, recordingOf(stream[format], format, 3, 5));
        const back = readRecording(file, format, 3);
        expect(Buffer.concat(back.chunks)).toEqual(stream[format]);
        expect(() => readRecording(file, format, 1)).toThrow(file);
      }
      expect(() => readRecording(join(dir, "none.pb"), "protobuf", 1)).toThrow(/none\.pb/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
