// Malformed input for the wire primitives (varints, wire types, lengths, groups, UTF-8): every bad input raises a DecodeError saying
// where (byte offset, path, line/column) and why, and nothing else is thrown.

import { describe, expect, it } from "vitest";
import { DecodeError, MAGIC, decode, encode, fromJson } from "../../../src/networking/index.js";
import { ld, varint } from "../../support/protobuf-wire.js";
import { envelopeHead, envelope, rawStart, ING, pbError } from "../../support/bad-input.js";
import { hex } from "../../support/bytes.js";
import { decodeError } from "../../support/errors.js";
import fc from "fast-check";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import {
  WireReader,
  plainBytes,
  stringFieldLength,
  utf8Length,
  varintLength32,
  varintLength64,
} from "../../../src/networking/protobuf/wire.js";
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { propertyRuns } from "../../support/property-runs.js";

// WireReader replaced @bufbuild/protobuf's BinaryReader for varint scalars;
// BinaryReader stays the oracle: same value, same position, same error.
describe("WireReader reads varints exactly as BinaryReader does", () => {
  type Read = "uint32" | "int32" | "int64" | "bool";
  function outcome(r: { pos: number } & Record<Read, () => unknown>, read: Read, at: number) {
    r.pos = at;
    try {
      const value = r[read]();
      return { value: typeof value === "bigint" ? `${value}n` : value, pos: r.pos };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }
  // Varint-shaped bytes: runs of continuation bytes, some ending early or running off the end.
  const arbBytes = fc.array(
    fc.oneof(
      fc.integer({ min: 0x80, max: 0xff }),
      fc.integer({ min: 0, max: 0x7f }),
      fc.constantFrom(0xff, 0x80, 0x01, 0x00),
    ),
    { minLength: 0, maxLength: 14 },
  );
  it.each(["uint32", "int32", "int64", "bool"] as const)("%s on random bytes (5000 runs)", (read) => {
    fc.assert(
      fc.property(arbBytes, fc.nat(14), (bytes, offset) => {
        const buf = Uint8Array.from(bytes);
        const at = Math.min(offset, buf.length);
        const oracle = new BinaryReader(buf) as unknown as { pos: number } & Record<Read, () => unknown>;
        expect(outcome(new WireReader(buf), read, at)).toEqual(outcome(oracle, read, at));
      }),
      { numRuns: 5000 },
    );
  });
  it("int64 at the edges: 2^49 - 1, 2^49, 2^63 - 1, -1, -2^63", () => {
    for (const v of [2n ** 49n - 1n, 2n ** 49n, 2n ** 63n - 1n, -1n, -(2n ** 63n)]) {
      const bytes: number[] = [];
      let u = BigInt.asUintN(64, v);
      do {
        const b = Number(u & 0x7fn);
        u >>= 7n;
        bytes.push(u === 0n ? b : b | 0x80);
      } while (u !== 0n);
      expect(new WireReader(Uint8Array.from(bytes)).int64()).toBe(v);
    }
  });
});

describe("protobuf: varints, wire types, lengths", () => {
  it("bad varint (11 bytes of 0xff) as the envelope's first tag", () => {
    const e = pbError([...MAGIC, ...Array<number>(11).fill(0xff)]);
    expect(e.offset).toBe(4);
    expect(e.reason).toMatch(/varint/);
  });

  it("bad varint (11 bytes of 0xff) in a known int64 field", () => {
    // Ingress.metadata(1) { generation(7) = ff x11 00 }
    const e = pbError(envelope("Ingress", ld(1, [0x38, ...Array<number>(11).fill(0xff), 0x00])));
    expect(e.offset).toBe(ING + 2); // the generation field's tag
    expect(e.path).toBe("metadata.generation");
    expect(e.reason).toMatch(/varint/);
  });

  it("bad varint (11 bytes of 0xff) as a length prefix", () => {
    const e = pbError(envelope("Ingress", [0x0a, ...Array<number>(11).fill(0xff), 0x00]));
    expect(e.offset).toBe(ING + 1); // the length prefix, after metadata's tag
    expect(e.path).toBe("metadata");
    expect(e.reason).toMatch(/varint/);
  });

  // Go's skipGenerated reads at most 10 varint bytes (ErrIntOverflowGenerated).
  it("bad varint (11 bytes of 0xff) in an unknown varint field", () => {
    const e = pbError(envelope("Ingress", [0x28, ...Array<number>(11).fill(0xff), 0x00]));
    expect(e.offset).toBe(ING + 1); // the varint, after field 5's tag
    expect(e.reason).toMatch(/varint/);
  });

  it("a 10-byte varint in an unknown field is accepted, as in Go", () => {
    // skipGenerated stops at shift 64: ten bytes are read whatever they hold.
    const bytes = envelope("Ingress", [0x28, ...Array<number>(9).fill(0xff), 0x01]);
    expect(() => decode(bytes)).not.toThrow();
    expect(hex(encode(decode(bytes)))).toContain(hex(Uint8Array.from([0x28, ...Array<number>(9).fill(0xff), 0x01])));
  });

  it("wrong wire type for a known field (Ingress.metadata as a varint)", () => {
    const e = pbError(envelope("Ingress", [0x08, 0x01]));
    expect(e.offset).toBe(ING);
    expect(e.path).toBe("metadata");
    expect(e.reason).toMatch(/wrong wire type.*metadata.*varint.*length-delimited/);
  });

  it("wrong wire type for a nested known field (metadata.name as a varint)", () => {
    const e = pbError(envelope("Ingress", ld(1, [0x08, 0x01])));
    expect(e.offset).toBe(ING + 2);
    expect(e.path).toBe("metadata.name");
    expect(e.reason).toMatch(/wrong wire type/);
  });

  it("wrong wire type inside a list item names the index", () => {
    // NetworkPolicy.spec(2).ingress(2)[0].ports(1)[0].endPort(3) as length-delimited
    const port = ld(3, [0x01]);
    const rule = ld(1, port);
    const spec = ld(2, rule);
    const raw = ld(2, spec);
    const e = pbError(envelope("NetworkPolicy", raw));
    expect(e.path).toBe("spec.ingress[0].ports[0].endPort");
    expect(e.offset).toBe(rawStart("NetworkPolicy") + 6);
  });

  it("wrong wire type in a map entry", () => {
    const e = pbError(envelope("Ingress", ld(1, [0x5a, 0x02, 0x08, 0x01])));
    expect(e.offset).toBe(ING + 4);
    expect(e.path).toBe("metadata.labels");
  });

  it("wrong wire type for a runtime.Unknown field", () => {
    const e = pbError([...MAGIC, 0x08, 0x01]);
    expect(e.offset).toBe(4);
    expect(e.reason).toMatch(/wire type/);
  });

  it("a 5-byte tag with bits past 32 is refused, not read as a smaller field number", () => {
    // 0x2a | bits past 32: truncated to 32 bits it would be field 5 (spec.rules), length-delimited.
    const raw = [0xaa, 0x80, 0x80, 0x80, 0x10, 0x00];
    const bytes = envelope("Ingress", raw);
    expect(() => decode(bytes)).toThrow(DecodeError);
    expect(() => decode(bytes)).toThrow(/varint overflows 32 bits/);
  });

  it("invalid wire types 6 and 7, and field number 0", () => {
    for (const t of [0x2e, 0x2f, 0x00]) {
      const e = pbError(envelope("Ingress", [t]));
      expect(e.offset).toBe(ING);
    }
  });

  it("length past the end: the envelope's typeMeta", () => {
    const e = pbError([...MAGIC, 0x0a, 0x7f, 0x0a]);
    expect(e.offset).toBe(5); // the length prefix
    expect(e.reason).toMatch(/length 127 runs past the end/);
  });

  it("length past the end: the raw object", () => {
    const e = pbError([...envelopeHead("Ingress"), 0x12, 0x7f, 0x00]);
    expect(e.offset).toBe(ING - 1);
    expect(e.reason).toMatch(/length 127 runs past the end/);
  });

  it("length past the end: a nested message inside the object", () => {
    const e = pbError(envelope("Ingress", [0x0a, 0x7f, 0x0a, 0x01, 0x61]));
    expect(e.offset).toBe(ING + 1);
    expect(e.reason).toMatch(/runs past the end/);
  });

  it("length past the end of the enclosing message (a string in metadata)", () => {
    const e = pbError(envelope("Ingress", [0x0a, 0x05, 0x0a, 0x7f, 0x61, 0x61, 0x61]));
    expect(e.offset).toBe(ING + 3);
    expect(e.path).toBe("metadata.name");
    expect(e.reason).toMatch(/runs past the end of the enclosing message/);
  });

  it("length past the end: an unknown length-delimited field", () => {
    const e = pbError(envelope("Ingress", [0x2a, 0x7f, 0x00]));
    expect(e.offset).toBe(ING + 1);
  });

  // A length of 2^32 + 3 is truncated to 3 by a 32-bit varint read. Go reads
  // the length as a 64-bit int and fails (io.ErrUnexpectedEOF /
  // ErrInvalidLengthGenerated).
  it("a length prefix of 2^32 + 3 is not read as 3", () => {
    const e = pbError(envelope("Ingress", [0x0a, ...varint(2n ** 32n + 3n), 0x0a, 0x01, 0x61]));
    expect(e.offset).toBe(ING + 1);
    expect(e.path).toBe("metadata");
    expect(e.reason).toMatch(/length 4294967299 runs past the end/);
  });

  it("a string length prefix of 2^32 + 1 is not read as 1", () => {
    // metadata(1) { name(1): length 2^32 + 1, "a" }: the prefix is at ING + 3.
    const e = pbError(envelope("Ingress", ld(1, [0x0a, ...varint(2n ** 32n + 1n), 0x61])));
    expect(e.offset).toBe(ING + 3);
    expect(e.path).toBe("metadata.name");
    expect(e.reason).toMatch(/length 4294967297 runs past the end/);
  });

  it("an unknown field's length prefix of 2^32 + 1 is not read as 1", () => {
    const e = pbError(envelope("Ingress", [0x2a, ...varint(2n ** 32n + 1n), 0x61]));
    expect(e.offset).toBe(ING + 1);
    expect(e.reason).toMatch(/length 4294967297 runs past the end/);
  });

  it("a fixed32 or fixed64 unknown field cut short", () => {
    // The value, not the tag: field 5's tag is at ING, its value at ING + 1.
    const e = pbError(envelope("Ingress", [0x2d, 0x01, 0x02]));
    expect(e.offset).toBe(ING + 1);
    expect(e.reason).toMatch(/32-bit value runs past the end/);
    const e64 = pbError(envelope("Ingress", [0x29, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07]));
    expect(e64.offset).toBe(ING + 1);
    expect(e64.reason).toMatch(/64-bit value runs past the end/);
  });

  it("an unknown varint field cut short", () => {
    const e = pbError(envelope("Ingress", [0x28, 0xff, 0xff]));
    expect(e.offset).toBe(ING + 1);
    expect(e.reason).toMatch(/truncated.*varint/);
  });

  it("an unknown field cut short inside the envelope's typeMeta", () => {
    // k8s\0, typeMeta(1) length 2 at 5, { field 3 fixed32: tag at 6, value at 7 }
    const e = pbError([...MAGIC, 0x0a, 0x02, 0x1d, 0x01]);
    expect(e.offset).toBe(7);
    expect(e.reason).toMatch(/32-bit value runs past the end/);
  });
});

describe("protobuf: groups and UTF-8", () => {
  it("end-group without start-group in the object", () => {
    const e = pbError(envelope("Ingress", [0x2c])); // field 5, wire type 4
    expect(e.offset).toBe(ING);
    expect(e.reason).toMatch(/end-group/);
  });

  it("end-group without start-group in the envelope", () => {
    const e = pbError([...MAGIC, 0x2c]);
    expect(e.offset).toBe(4);
  });

  it("start-group closed by a different field's end-group", () => {
    const e = pbError(envelope("Ingress", [0x2b, 0x34])); // start 5 at ING, end 6 at ING + 1
    expect(e.offset).toBe(ING + 1); // the stray end-group tag
    expect(e.reason).toMatch(/end-group tag for field 6 closes group 5/);
  });

  it("start-group never closed", () => {
    const e = pbError(envelope("Ingress", [0x2b, 0x08, 0x01]));
    expect(e.offset).toBe(ING); // the group's start tag
    expect(e.reason).toMatch(/group 5 has no end-group tag/);
    // Inside metadata (tag at ING, length at ING + 1), the group tag is at ING + 2.
    const nested = pbError(envelope("Ingress", ld(1, [0xa3, 0x01, 0x08, 0x01])));
    expect(nested.offset).toBe(ING + 2);
    expect(nested.path).toBe("metadata");
    expect(nested.reason).toMatch(/group 20 has no end-group tag/);
  });

  it("a bad length inside an unknown group points at the length prefix", () => {
    // group 5 at ING { field 1 length-delimited: tag at ING + 1, length 127 at ING + 2 } end 5
    const e = pbError(envelope("Ingress", [0x2b, 0x0a, 0x7f, 0x2c]));
    expect(e.offset).toBe(ING + 2);
    expect(e.reason).toMatch(/length 127 runs past the end/);
  });

  it("a shallow group in an unknown field is kept and written back", () => {
    const group = [0x2b, 0x08, 0x01, 0x33, 0x34, 0x2c]; // 5:{1:1, 6:{}}
    const bytes = envelope("Ingress", [...ld(1, []), ...group]);
    const o = decode(bytes);
    expect(hex(encode(o))).toContain(hex(Uint8Array.from(group)));
  });

  const deep = 100_000;
  const starts = (tagBytes: number[], n: number): number[] => Array.from({ length: n }, () => tagBytes).flat();
  it.each([
    ["object, unbalanced", () => envelope("Ingress", Array<number>(deep).fill(0x2b))],
    [
      "object, balanced",
      () =>
        Uint8Array.from([
          ...envelopeHead("Ingress"),
          0x12,
          ...varint(2 * deep),
          ...Array<number>(deep).fill(0x2b),
          ...Array<number>(deep).fill(0x2c),
        ]),
    ],
    ["envelope, unbalanced", () => Uint8Array.from([...MAGIC, ...Array<number>(deep).fill(0x2b)])],
    [
      "envelope, balanced",
      () => Uint8Array.from([...MAGIC, ...Array<number>(deep).fill(0x2b), ...Array<number>(deep).fill(0x2c)]),
    ],
    // ObjectMeta has no field 20: start-group tag a3 01, end-group a4 01.
    [
      "metadata, balanced",
      () =>
        Uint8Array.from([
          ...envelopeHead("Ingress"),
          0x12,
          ...varint(4 * deep + 4),
          0x0a,
          ...varint(4 * deep),
          ...starts([0xa3, 0x01], deep),
          ...starts([0xa4, 0x01], deep),
        ]),
    ],
  ])("100k nested start-group tags (%s) -> DecodeError, not a stack overflow", (_name, make) => {
    const e = pbError(make());
    expect(e.reason).toMatch(/nested|deep/);
  });

  it("group nesting within the limit (default 64, or maxDepth) is accepted", () => {
    const groups = (n: number): number[] => [...starts([0xa3, 0x01], n), ...starts([0xa4, 0x01], n)];
    expect(() => decode(envelope("Ingress", ld(1, groups(60))))).not.toThrow();
    expect(() => decode(envelope("Ingress", ld(1, groups(5))), { maxDepth: 5 })).not.toThrow();
    const e = decodeError(() => decode(envelope("Ingress", ld(1, groups(6))), { maxDepth: 5 }));
    // metadata's tag is at ING, its length at ING + 1; the six 2-byte start
    // tags follow at ING + 2, + 4, ..., + 12. The error points at the sixth,
    // the first one past the limit.
    expect(e.offset).toBe(ING + 12);
    expect(e.path).toBe("metadata");
    expect(e.reason).toMatch(/nested|deep/);
    // The default limit of 64: the 65th start tag. groups(65) is 260 bytes,
    // so raw's and metadata's lengths take 2 bytes each: raw starts at ING + 1,
    // metadata's tag there, its body at ING + 4, the 65th tag 128 bytes on.
    const d = decodeError(() => decode(envelope("Ingress", ld(1, groups(65)))));
    expect(d.offset).toBe(ING + 4 + 128);
    expect(d.reason).toMatch(/nested|deep/);
    expect(() => decode(envelope("Ingress", ld(1, groups(64))))).not.toThrow();
  });

  it("invalid UTF-8 in a string field", () => {
    const e = pbError(envelope("Ingress", ld(1, ld(1, [0x61, 0xff]))));
    expect(e.offset).toBe(ING + 3); // the string's length prefix
    expect(e.path).toBe("metadata.name");
    expect(e.reason).toMatch(/UTF-8/);
  });

  it("invalid UTF-8: a lone surrogate and an overlong encoding", () => {
    for (const bad of [
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
    ]) {
      expect(pbError(envelope("Ingress", ld(1, ld(1, bad)))).reason).toMatch(/UTF-8/);
    }
  });

  it("invalid UTF-8 in a map key and in a repeated string", () => {
    expect(pbError(envelope("Ingress", ld(1, ld(11, [...ld(1, [0xff]), ...ld(2, [])])))).path).toBe("metadata.labels");
    expect(pbError(envelope("Ingress", ld(1, ld(14, [0xff])))).path).toBe("metadata.finalizers");
  });
});

// ------------------------------------------------------------ protobuf encoding

/** Runs `f` and returns the EncodeError it throws (fails on anything else). */

describe("plainBytes", () => {
  it("gives a plain Uint8Array as it is", () => {
    const bytes = Uint8Array.of(1, 2, 3);
    expect(plainBytes(bytes)).toBe(bytes);
  });

  it("gives a Buffer or other subclass as a plain Uint8Array over the same memory", () => {
    class Tagged extends Uint8Array {}
    const backing = new Uint8Array(16);
    for (const input of [Buffer.from(backing.buffer, 3, 5), new Tagged(backing.buffer, 7, 4)]) {
      const plain = plainBytes(input);
      expect(Object.getPrototypeOf(plain)).toBe(Uint8Array.prototype);
      expect([plain.buffer, plain.byteOffset, plain.length]).toEqual([input.buffer, input.byteOffset, input.length]);
      input[0] = 42;
      expect(plain[0]).toBe(42);
    }
  });
});

// The size functions measure with these; BinaryWriter (TextEncoder for strings) is the oracle.
describe("lengths the size functions measure with", () => {
  it("utf8Length and stringFieldLength: what TextEncoder and BinaryWriter write, lone surrogates included", () => {
    const units = fc.string({ unit: "binary", maxLength: 300 });
    const ascii = fc.string({
      unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)),
      maxLength: 300,
    });
    const surrogates = fc.string({
      unit: fc.constantFrom("\ud800", "\udbff", "\udc00", "a", "é", "\u0800"),
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.oneof(units, ascii, surrogates), (s) => {
        expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
        expect(stringFieldLength(s)).toBe(new BinaryWriter().string(s).finish().length);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it("varintLength32 and varintLength64: what BinaryWriter writes", () => {
    const edges = [0, 1, 127, 128, 16383, 16384, 2 ** 21 - 1, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 32 - 1];
    for (const v of edges) expect(varintLength32(v), String(v)).toBe(new BinaryWriter().uint32(v).finish().length);
    const big = [
      0n,
      1n,
      2n ** 32n - 1n,
      2n ** 32n,
      2n ** 35n - 1n,
      2n ** 35n,
      2n ** 56n,
      2n ** 63n - 1n,
      -1n,
      -(2n ** 63n),
    ];
    for (const v of big) expect(varintLength64(v), String(v)).toBe(new BinaryWriter().int64(v).finish().length);
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (v) => {
        expect(varintLength64(v)).toBe(new BinaryWriter().int64(v).finish().length);
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});

// The short-string table samples three bytes of a string to pick its set; strings that share
// them (CIDRs) must still come back exactly, whichever slot of the set they are in.
describe("short strings that share their sampled bytes", () => {
  it("decode exactly, in any order and after evicting each other", () => {
    const variants = ["172.21.0.0/16", "172.30.0.0/16", "172.40.0.0/16", "172.50.0.0/16", "a".repeat(64)];
    const body = (cidr: string) =>
      encode(
        fromJson(
          `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"n"},"spec":{"ingress":[{"from":[{"ipBlock":{"cidr":${JSON.stringify(cidr)}}}]}]}}`,
        ),
      );
    const cidrOf = (bytes: Uint8Array) =>
      (decode(bytes) as unknown as { spec: { ingress: { from: { ipBlock: { cidr: string } }[] }[] } }).spec.ingress[0]!
        .from[0]!.ipBlock.cidr;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...variants), { maxLength: 12 }), (order) => {
        for (const c of order) expect(cidrOf(body(c))).toBe(c);
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});
