// EventBoundaries: where each event of a watch stream ends, however the stream is cut into
// chunks, checked against the encoders' own framing.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { EventBoundaries } from "../../../bench/client/record.js";
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
