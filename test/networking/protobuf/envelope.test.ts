// Malformed input for the k8s\0 envelope: every bad input raises a DecodeError saying
// where (byte offset, path, line/column) and why, and nothing else is thrown.

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MAGIC, decode, lookupKind, readEnvelope } from "../../../src/networking/index.js";
import { canonicalEnvelope } from "../../../src/networking/protobuf/envelope.js";
import { fixtureFolders, loadFixtures } from "../../support/fixtures.js";
import { ld } from "../../support/protobuf-wire.js";
import {
  utf8,
  str,
  envelopeHead,
  envelope,
  pbError,
  headIngress,
  arbMutation,
  mutate,
} from "../../support/bad-input.js";
import { decodeError } from "../../support/errors.js";

describe("protobuf: the k8s\\0 prefix", () => {
  it("empty input", () => {
    const e = pbError(new Uint8Array(0));
    expect(e.offset).toBe(0);
    expect(e.reason).toMatch(/empty/);
  });

  it.each([0, 1, 2, 3])("wrong magic byte %i", (i) => {
    const bytes = new Uint8Array(headIngress.pb);
    bytes[i] = (bytes[i] as number) ^ 0x20;
    const e = pbError(bytes);
    expect(e.offset).toBe(i);
    expect(e.reason).toMatch(/prefix/);
    expect(e.message).toMatch(new RegExp(`byte ${i}`));
  });

  it("encoding style byte other than 0 (a future format)", () => {
    const e = pbError([0x6b, 0x38, 0x73, 0x01, 0x0a, 0x00]);
    expect(e.offset).toBe(3);
  });

  it("a JSON body is not protobuf", () => {
    const e = pbError(utf8.encode('{"kind":"Ingress"}'));
    expect(e.offset).toBe(0);
  });

  it.each([1, 2, 3])("a %i-byte prefix of the magic", (n) => {
    const e = pbError(MAGIC.subarray(0, n));
    expect(e.offset).toBeLessThanOrEqual(n);
  });

  it("magic only", () => {
    const e = pbError(MAGIC);
    expect(e.offset).toBe(4);
    expect(e.reason).toMatch(/empty body/);
  });

  it("not a Uint8Array", () => {
    for (const v of [null, undefined, "k8s\0", [0x6b, 0x38, 0x73, 0], 42, {}]) {
      const e = decodeError(() => decode(v as unknown as Uint8Array));
      expect(e.offset).toBe(0);
    }
  });
});

describe("protobuf: envelope contents", () => {
  it.each([
    ["v1", "Pod"],
    ["networking.k8s.io/v1beta1", "Ingress"],
    ["networking.k8s.io/v1", "Ingres"],
    ["networking.k8s.io/v1", "ingress"],
    ["extensions/v1beta1", "Ingress"],
  ])("unknown apiVersion/kind %s %s", (apiVersion, kind) => {
    const e = pbError(envelope(kind, [], apiVersion));
    expect(e.offset).toBe(4);
    expect(e.reason).toContain(`${apiVersion}/${kind}`);
    expect(e.reason).toMatch(/unsupported apiVersion\/kind/);
  });

  it("missing kind or apiVersion", () => {
    expect(pbError([...MAGIC, ...ld(1, str(1, "networking.k8s.io/v1"))]).reason).toMatch(/apiVersion\/kind/);
    expect(pbError([...MAGIC, ...ld(1, str(2, "Ingress"))]).reason).toMatch(/apiVersion\/kind/);
    expect(pbError([...MAGIC, ...str(3, "")]).reason).toMatch(/apiVersion\/kind/);
  });

  it('contentEncoding "gzip"', () => {
    const e = pbError([...envelopeHead("Ingress"), ...ld(2, []), ...str(3, "gzip"), ...str(4, "")]);
    expect(e.offset).toBe(4);
    expect(e.reason).toMatch(/contentEncoding "gzip"/);
  });

  it('contentType "application/json"', () => {
    const e = pbError([...envelopeHead("Ingress"), ...ld(2, []), ...str(3, ""), ...str(4, "application/json")]);
    expect(e.reason).toMatch(/contentType/);
  });

  it("invalid UTF-8 in the envelope's kind", () => {
    const e = pbError([...MAGIC, ...ld(1, [...str(1, "networking.k8s.io/v1"), ...ld(2, [0xff, 0xfe])])]);
    expect(e.reason).toMatch(/UTF-8/);
  });
});

// decode() recognises the API server's envelope by its bytes (canonicalEnvelope)
// and skips readEnvelope; readEnvelope and lookupKind stay the oracle.
describe("canonicalEnvelope", () => {
  const oracle = (bytes: Uint8Array) => {
    try {
      const env = readEnvelope(bytes);
      const info = lookupKind(env.apiVersion, env.kind);
      return info === undefined ? undefined : { info, rawStart: env.rawStart, rawEnd: env.rawEnd };
    } catch {
      return undefined;
    }
  };
  const pbs = fixtureFolders().flatMap((f) => loadFixtures(f).map((x) => x.pb));

  it("recognises every fixture, with readEnvelope's answer", () => {
    expect(pbs.length).toBeGreaterThan(20);
    for (const pb of pbs) {
      const fast = canonicalEnvelope(pb);
      expect(fast).toBeDefined();
      expect(fast).toEqual(oracle(pb));
    }
  });

  it("on mutated envelopes, answers only where readEnvelope gives the same answer (3000 runs)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...pbs), fc.array(arbMutation, { minLength: 1, maxLength: 4 }), (pb, muts) => {
        const bytes = mutate(pb, muts);
        const fast = canonicalEnvelope(bytes);
        if (fast !== undefined) expect(fast).toEqual(oracle(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  it("leaves other envelopes to readEnvelope: no contentType, a repeated typeMeta, a foreign kind", () => {
    const raw = ld(1, str(1, "x"));
    const head = envelopeHead("Ingress");
    expect(canonicalEnvelope(envelope("Ingress", raw))).toBeDefined();
    expect(canonicalEnvelope(Uint8Array.from([...head, ...ld(2, raw)]))).toBeUndefined();
    const twice = Uint8Array.from([...head, ...ld(2, raw), ...head.slice(4), ...str(3, ""), ...str(4, "")]);
    expect(canonicalEnvelope(twice)).toBeUndefined();
    expect(canonicalEnvelope(envelope("Pod", raw, "v1"))).toBeUndefined();
  });
});
