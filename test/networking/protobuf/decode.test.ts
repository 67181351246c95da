// Malformed input for decode(): truncated and random input: every bad input raises a DecodeError saying
// where (byte offset, path, line/column) and why, and nothing else is thrown.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeError, MAGIC, decode, encode, readEnvelope } from "../../../src/networking/index.js";
import type { NetworkingObject } from "../../../src/networking/index.js";
import {
  envelope,
  pbError,
  allFixtures,
  headIngress,
  envelopeFieldEnds,
  arbMutation,
  mutate,
  decodeOrDecodeError,
} from "../../support/bad-input.js";
import { hex } from "../../support/bytes.js";

describe("protobuf: truncation", () => {
  // Cutting a Go envelope right after one of its top-level fields leaves a
  // valid runtime.Unknown (Go decodes it too: no raw is an empty object; no
  // contentEncoding/contentType is ""). Every other prefix must fail.
  it.each(allFixtures.map((f) => [f.name, f.pb] as const))("every prefix of %s throws DecodeError", (_name, pb) => {
    const full = decode(pb);
    const ends = new Set(envelopeFieldEnds(pb));
    const { rawEnd } = readEnvelope(pb);
    let decoded = 0;
    for (let n = 0; n < pb.length; n++) {
      const prefix = pb.subarray(0, n);
      let result: NetworkingObject | undefined;
      try {
        result = decode(prefix);
      } catch (e) {
        if (!(e instanceof DecodeError)) throw new Error(`prefix ${n}: ${String(e)}`);
        expect(e.offset, `prefix ${n}`).toBeGreaterThanOrEqual(0);
        expect(e.offset, `prefix ${n}`).toBeLessThanOrEqual(n);
        continue;
      }
      decoded++;
      expect(ends.has(n), `prefix of ${n} bytes decoded`).toBe(true);
      if (n >= rawEnd) expect(hex(encode(result))).toBe(hex(encode(full)));
    }
    // After typeMeta (empty object), after raw, after contentEncoding.
    expect(decoded).toBeLessThanOrEqual(3);
  });

  it("a cut inside the object names the field being read", () => {
    const pb = headIngress.pb;
    const { rawStart: start } = readEnvelope(pb);
    const e = pbError(pb.subarray(0, start + 10));
    expect(e.offset).toBeLessThanOrEqual(start + 10);
    expect(e.reason).toMatch(/runs past the end|truncated/);
  });
});

describe("protobuf: random input", () => {
  const pbs = allFixtures.map((f) => f.pb);

  it("mutated fixtures: decode returns or throws DecodeError (2000 runs)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...pbs), fc.array(arbMutation, { minLength: 1, maxLength: 8 }), (pb, muts) => {
        decodeOrDecodeError(mutate(pb, muts));
      }),
      { numRuns: 2000 },
    );
  });

  it("random bytes, bare and after a valid envelope head (2000 runs)", () => {
    const kinds = [
      "Ingress",
      "IngressList",
      "IngressClass",
      "NetworkPolicy",
      "NetworkPolicyList",
      "IPAddress",
      "ServiceCIDR",
      "ServiceCIDRList",
      "Status",
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }),
          fc.uint8Array({ maxLength: 64 }).map((b) => Uint8Array.from([...MAGIC, ...b])),
          fc
            .tuple(fc.constantFrom(...kinds), fc.uint8Array({ maxLength: 200 }))
            .map(([k, raw]) => envelope(k, [...raw], k === "Status" ? "v1" : "networking.k8s.io/v1")),
        ),
        (bytes) => decodeOrDecodeError(bytes),
      ),
      { numRuns: 2000 },
    );
  });
});

// ------------------------------------------------------------ JSON
