import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { setSpecialisedDecoding } from "../../src/networking/binary.js";
import { DecodeError, decode, encode } from "../../src/networking/index.js";
import { canSpecialise } from "../../src/networking/specialize.js";
import { fixtureFolders, loadFixtures } from "../fixtures.js";

// The specialised decoders must accept and reject exactly what the generic
// decoder does, with the same values and the same errors.

type Outcome = { ok: true; bytes: string; json: string } | { ok: false; error: string; offset: number | undefined; path: string | undefined };

function run(bytes: Uint8Array, specialised: boolean): Outcome {
  const was = setSpecialisedDecoding(specialised);
  try {
    const obj = decode(bytes);
    return { ok: true, bytes: Buffer.from(encode(obj)).toString("hex"), json: JSON.stringify(obj, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v)) };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { ok: false, error: e.message, offset: e.offset, path: e.path };
  } finally {
    setSpecialisedDecoding(was);
  }
}

const fixtures = fixtureFolders().flatMap((f) => loadFixtures(f));

describe("specialised vs generic decoder", () => {
  it("specialisation is available on Node", () => {
    expect(canSpecialise).toBe(true);
  });

  it.each(fixtures.map((f) => [`${f.folder} ${f.kind}`, f.pb] as const))("%s decodes identically", (_name, pb) => {
    expect(run(pb, true)).toEqual(run(pb, false));
  });

  it("decoded messages look exactly like protobuf-es create() output", () => {
    const f = fixtures.find((x) => x.folder === "HEAD" && x.kind === "Ingress");
    const a = run((f as { pb: Uint8Array }).pb, true);
    expect(a.ok).toBe(true);
    const was = setSpecialisedDecoding(true);
    const obj = decode((f as { pb: Uint8Array }).pb) as unknown as Record<string, unknown>;
    setSpecialisedDecoding(false);
    const gen = decode((f as { pb: Uint8Array }).pb) as unknown as Record<string, unknown>;
    setSpecialisedDecoding(was);
    expect(Object.getPrototypeOf(obj)).toBe(Object.getPrototypeOf(gen));
    expect(Object.keys(obj)).toEqual(Object.keys(gen));
    const meta = obj["metadata"] as Record<string, unknown>;
    const genMeta = gen["metadata"] as Record<string, unknown>;
    expect(Object.getPrototypeOf(meta)).toBe(Object.getPrototypeOf(genMeta));
    expect(Object.keys(meta)).toEqual(Object.keys(genMeta));
  });

  it("mutated fixtures: same value or same error (3000 runs)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtures.map((f) => f.pb)),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("set", "insert", "delete")), { minLength: 1, maxLength: 6 }),
        (pb, edits) => {
          const bytes = Array.from(pb);
          for (const [pos, value, op] of edits) {
            const i = pos % (bytes.length + 1);
            if (op === "set" && i < bytes.length) bytes[i] = value;
            else if (op === "insert") bytes.splice(i, 0, value);
            else if (op === "delete" && i < bytes.length) bytes.splice(i, 1);
          }
          const input = Uint8Array.from(bytes);
          expect(run(input, true)).toEqual(run(input, false));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
