import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BodyError, readBody } from "../../../src/admission/server/body.js";
import { propertyRuns } from "../../support/property-runs.js";

/** A request stream with the given headers that yields `chunks` (then ends, unless `hang`). */
function request(chunks: readonly Buffer[], headers: Record<string, string> = {}, hang = false): IncomingMessage {
  const stream = new Readable({ read() {} });
  for (const c of chunks) stream.push(c);
  if (!hang) stream.push(null);
  return Object.assign(stream, { headers }) as unknown as IncomingMessage;
}

async function refusal(p: Promise<Buffer>): Promise<BodyError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(BodyError);
  return e as BodyError;
}

describe("readBody", () => {
  it("returns the bytes as sent, whatever the chunking, up to and including the limit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }),
        fc.nat({ max: 600 }),
        async (parts, limit) => {
          const chunks = parts.map((p) => Buffer.from(p));
          const whole = Buffer.concat(chunks);
          const p = readBody(request(chunks), limit);
          if (whole.length <= limit) expect(Buffer.compare(await p, whole)).toBe(0);
          else expect((await refusal(p)).status).toBe(413);
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });

  it("reads an empty body as an empty buffer", async () => {
    expect((await readBody(request([]), 10)).length).toBe(0);
  });

  it("refuses a declared Content-Length over the limit before reading any of the body", async () => {
    const req = request([Buffer.alloc(5)], { "content-length": "11" }, true);
    const e = await refusal(readBody(req, 10));
    expect(e.status).toBe(413);
    expect(e.message).toBe("the body is 11 bytes; the limit is 10");
    // Nothing was read: the stream was never put into flowing mode.
    expect(req.readableFlowing).toBe(null);
    expect(req.readableLength).toBe(5);
  });

  it("refuses a body that passes the limit as soon as it does, and stops reading it", async () => {
    // The stream never ends: the refusal cannot wait for the end.
    const req = request([Buffer.alloc(6), Buffer.alloc(6)], {}, true);
    const e = await refusal(readBody(req, 10));
    expect(e.status).toBe(413);
    expect(e.message).toBe("the body is over the limit of 10 bytes");
    expect(req.isPaused()).toBe(true);
    expect(req.listenerCount("data")).toBe(0);
  });

  it("answers 400 when the client goes away or the stream fails before the end", async () => {
    const aborted = request([Buffer.from("{")], {}, true);
    const p = readBody(aborted, 10);
    aborted.emit("aborted");
    expect((await refusal(p)).status).toBe(400);
    const failed = request([Buffer.from("{")], {}, true);
    const q = readBody(failed, 10);
    failed.destroy(new Error("ECONNRESET"));
    const e = await refusal(q);
    expect(e.status).toBe(400);
    expect(e.message).toBe("the client closed the connection before the body was read");
  });

  it("leaves no listener behind once done", async () => {
    const req = request([Buffer.from("abc")]);
    await readBody(req, 10);
    for (const event of ["data", "end", "error", "aborted"]) expect(req.listenerCount(event)).toBe(0);
  });
});
