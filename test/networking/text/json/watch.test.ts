import fc from "fast-check";
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  DecodeError,
  StatusSchema,
  decodeJsonWatchStream,
  encode,
  encodeJsonWatchEvent,
  fromJson,
  toJsonString,
  type WatchEvent,
} from "../../../../src/networking/index.js";
import { currentFolders, loadFixtures } from "../../../support/fixtures.js";

const head = loadFixtures("HEAD");
const ingress = fromJson((head.find((f) => f.kind === "Ingress") as { json: string }).json);
const policy = fromJson((head.find((f) => f.kind === "NetworkPolicy") as { json: string }).json);
const status = create(StatusSchema, {
  status: "Failure",
  message: "too old resource version: 1 (5)",
  reason: "Expired",
  code: 410,
});

const events: WatchEvent[] = [
  { type: "ADDED", object: ingress },
  { type: "MODIFIED", object: policy },
  { type: "DELETED", object: ingress },
  { type: "ERROR", object: status },
];
const stream = events.map((e) => encodeJsonWatchEvent(e)).join("");

async function collect(
  chunks: Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string>,
  options = {},
): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const e of decodeJsonWatchStream(chunks, options)) out.push(e);
  return out;
}

async function failure(chunks: Iterable<Uint8Array | string>, options = {}): Promise<DecodeError> {
  try {
    await collect(chunks, options);
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    return e as DecodeError;
  }
  throw new Error("expected a DecodeError");
}

function same(a: WatchEvent[], b: WatchEvent[]): void {
  expect(a.map((e) => e.type)).toEqual(b.map((e) => e.type));
  expect(a.map((e) => Buffer.from(encode(e.object)).toString("hex"))).toEqual(
    b.map((e) => Buffer.from(encode(e.object)).toString("hex")),
  );
}

describe("encodeJsonWatchEvent", () => {
  it("writes what Go's json.Encoder writes for a WatchEvent", () => {
    expect(encodeJsonWatchEvent({ type: "ERROR", object: status })).toBe(
      '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (5)","reason":"Expired","code":410}}\n',
    );
  });
});

describe("decodeJsonWatchStream", () => {
  it("decodes every event, as one chunk, as text and as bytes", async () => {
    same(await collect([stream]), events);
    same(await collect([new TextEncoder().encode(stream)]), events);
  });

  it("splits on JSON structure, not on lines", async () => {
    const noNewlines = events.map((e) => encodeJsonWatchEvent(e).trimEnd()).join("");
    same(await collect([noNewlines]), events);
    const crlf = events.map((e) => encodeJsonWatchEvent(e).trimEnd()).join("\r\n  \t");
    same(await collect([crlf]), events);
  });

  it("is not fooled by braces and quotes inside strings", async () => {
    const tricky = fromJson({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      metadata: { name: "x", annotations: { a: '}{"[', b: '\\"}', c: "日本語 👍" } },
    });
    const text = encodeJsonWatchEvent({ type: "ADDED", object: tricky }).repeat(3);
    const bytes = new TextEncoder().encode(text);
    // Every 1-byte chunk: multi-byte characters are split mid-sequence.
    const got = await collect(Array.from(bytes, (b) => Uint8Array.of(b)));
    same(
      got,
      [0, 1, 2].map(() => ({ type: "ADDED" as const, object: tricky })),
    );
  });

  it("decodes the same for any split of the stream (fast-check)", async () => {
    const bytes = new TextEncoder().encode(stream);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 30 }),
        fc.boolean(),
        async (cuts, asText) => {
          const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
          const chunks = points.slice(1).map((end, i) => bytes.subarray(points[i] as number, end));
          const input = asText
            ? [new TextDecoder().decode(bytes)].flatMap((t) =>
                points.slice(1).map((end, i) => t.slice(points[i] as number, end)),
              )
            : chunks;
          same(await collect(input), events);
        },
      ),
      { numRuns: 150 },
    );
  });

  it.each(
    currentFolders()
      .flatMap((f) => loadFixtures(f))
      .map((f) => [`${f.folder} ${f.kind}`, f] as const),
  )("%s: an event around the pretty fixture JSON decodes to the fixture bytes", async (_name, f) => {
    const text = `{\n  "type": "MODIFIED",\n  "object": ${f.json.replace(/\n/g, "\n  ")}\n}\n`;
    const [event] = await collect([text]);
    expect(event?.type).toBe("MODIFIED");
    expect(Buffer.from(encode((event as WatchEvent).object)).toString("hex")).toBe(Buffer.from(f.pb).toString("hex"));
    expect(toJsonString((event as WatchEvent).object, 2)).toBe(f.json);
  });
});

describe("decodeJsonWatchStream: bad streams", () => {
  it("a stream that ends inside an event names where that event starts", async () => {
    const full = encodeJsonWatchEvent(events[0] as WatchEvent);
    const cut = full + full.slice(0, 40);
    const e = await failure([cut]);
    expect(e.reason).toMatch(/ended inside an event/);
    expect(e.offset).toBe(full.length);
    expect(e.line).toBe(2);
    expect(e.column).toBe(1);
  });

  it("a type error inside the object gives the stream line and column and the path from the event", async () => {
    const first = encodeJsonWatchEvent(events[0] as WatchEvent);
    const bad =
      '{"type":"ADDED","object":{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1","spec":{"ingress":[{"ports":[{"port":1.5}]}]}}}\n';
    const e = await failure([first + bad]);
    expect(e.path).toBe("object.spec.ingress[0].ports[0].port");
    expect(e.segments).toEqual(["object", "spec", "ingress", 0, "ports", 0, "port"]);
    expect(e.line).toBe(2);
    expect(e.column).toBe(bad.indexOf("1.5") + 1);
    expect(e.offset).toBe(first.length + bad.indexOf("1.5"));
  });

  it("unknown event types, missing objects and non-objects fail", async () => {
    expect((await failure(['{"type":"SYNC","object":{}}'])).reason).toMatch(/unknown watch event type "SYNC"/);
    expect((await failure(['{"type":"ADDED"}'])).reason).toMatch(/has no object/);
    expect((await failure(['["ADDED"]'])).reason).toMatch(/expected a watch event object/);
    expect((await failure(['{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}}'])).path).toBe("object.kind");
  });

  it("strict mode rejects unknown and duplicate event fields", async () => {
    const text = encodeJsonWatchEvent(events[0] as WatchEvent).replace('{"type"', '{"extra":1,"type"');
    expect((await collect([text])).length).toBe(1);
    expect((await failure([text], { strict: true })).reason).toMatch(/unknown field "extra"/);
  });

  it("invalid UTF-8 and events over the size limit fail", async () => {
    expect((await failure([Uint8Array.of(0x7b, 0xff, 0x7d)])).reason).toMatch(/UTF-8/);
    expect((await failure([Uint8Array.of(0x7b, 0x22, 0xe6)])).reason).toMatch(/UTF-8|ended inside/);
    expect((await failure([stream], { maxFrameSize: 100 })).reason).toMatch(/longer than the 100-character limit/);
  });

  it("random corruptions only ever give events or a DecodeError", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 2 })), { minLength: 1, maxLength: 5 }),
        async (edits) => {
          let text = stream;
          for (const [pos, ins] of edits) {
            const i = pos % (text.length + 1);
            text = text.slice(0, i) + ins + text.slice(i + 1);
          }
          try {
            await collect([text]);
          } catch (e) {
            expect(e).toBeInstanceOf(DecodeError);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("decodeJsonWatchEvent", () => {
  it("refuses a value that is not an object, whatever its type", async () => {
    const { decodeJsonWatchEvent } = await import("../../../../src/networking/index.js");
    for (const text of ["1.5", "7", '"ADDED"', "null", "[]"]) {
      expect(() => decodeJsonWatchEvent(text), text).toThrow(/a watch event must be a JSON object/);
    }
  });
});
