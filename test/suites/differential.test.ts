// Item 7 of issue 2: protobufjs, loading the very same proto/ files at run
// time, is a second implementation. On every fixture and on generated objects
// both must read the same values, and round trips through clusterwire's own
// formats must give back Go's bytes.

import fc from "fast-check";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { equals, fromBinary, isFieldSet, type DescMessage, type Message } from "@bufbuild/protobuf";
import {
  DecodeError,
  KINDS,
  MAGIC,
  create,
  decode,
  kindOf,
  readEnvelope,
  encode,
  fromJson,
  fromYaml,
  toJsonString,
  toYaml,
  IngressBackendSchema,
  IngressClassSchema,
  IngressListSchema,
  IngressSchema,
  IngressServiceBackendSchema,
  IngressSpecSchema,
  IngressStatusSchema,
  FieldsV1Schema,
  ManagedFieldsEntrySchema,
  ObjectMetaSchema,
  TimeSchema,
  type NetworkingObject,
} from "../../src/networking/index.js";
import { currentFolders, fixtureFolders, loadFixtures } from "../support/fixtures.js";
import { loadOracle, oracleDecode, oracleDecodeEnvelope } from "../support/protobufjs.js";
import { arbObject, arbObjectOf, NETWORKING_KINDS } from "../../src/testing/index.js";
import { GO_ZERO_SECONDS, goZero } from "../../src/testing/any-shape.js";
import { hex } from "../support/bytes.js";
import { propertyRuns } from "../support/property-runs.js";

const NET = "k8s.io.api.networking.v1";

function descOf(msg: Message): DescMessage {
  const info = KINDS.find((k) => k.desc.typeName === msg.$typeName);
  if (info === undefined) throw new Error(`not a kind: ${msg.$typeName}`);
  return info.desc;
}

/**
 * A protobuf-es message projected onto the fields that are set (proto2
 * presence), keyed by proto field name: the shape oracleDecode returns.
 */
function presenceObject(desc: DescMessage, message: Message): Record<string, unknown> {
  const msg = message as unknown as Record<string, unknown> & {
    $unknown?: { no: number; wireType: number; data: Uint8Array }[];
  };
  const out: Record<string, unknown> = {};
  for (const field of desc.fields) {
    if (!isFieldSet(message as never, field)) continue;
    const value = msg[field.localName];
    let v: unknown;
    switch (field.fieldKind) {
      case "message":
        v = presenceObject(field.message, value as Message);
        break;
      case "list":
        v =
          field.listKind === "message"
            ? (value as Message[]).map((m) => presenceObject(field.message, m))
            : [...(value as unknown[])];
        break;
      case "map": {
        const m: Record<string, unknown> = {};
        for (const k of Object.keys(value as object)) {
          Object.defineProperty(m, k, {
            value: (value as Record<string, unknown>)[k],
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        v = m;
        break;
      }
      default:
        v = value instanceof Uint8Array ? new Uint8Array(value) : value;
    }
    out[field.name] = v;
  }
  if (msg.$unknown !== undefined && msg.$unknown.length > 0) {
    out["$unknown"] = msg.$unknown.map(({ no, wireType, data }) => ({ no, wireType, data: new Uint8Array(data) }));
  }
  return out;
}

/** protobufjs's reading of an enveloped body: the envelope and the object. */
function oracleRead(bytes: Uint8Array): { typeMeta: unknown; object: Record<string, unknown> } {
  const env = oracleDecodeEnvelope(bytes);
  const typeMeta = env["typeMeta"] as { kind: string };
  const raw = env["raw"] instanceof Uint8Array ? env["raw"] : new Uint8Array(0);
  return { typeMeta, object: oracleDecode(`${NET}.${typeMeta.kind}`, raw) };
}

/** clusterwire and protobufjs read `bytes` to the same values. */
function expectSameReading(bytes: Uint8Array): void {
  const ours = decode(bytes);
  const desc = descOf(ours);
  const theirs = oracleRead(bytes);
  expect(theirs.typeMeta).toEqual({ apiVersion: "networking.k8s.io/v1", kind: desc.name });
  expect(presenceObject(desc, ours)).toStrictEqual(theirs.object);
}

/**
 * protobufjs decodes the envelope and the object, then encodes both again.
 * protobufjs writes known fields sorted by field number (encoder.js sorts
 * `fieldsArray` with compareFieldsById), then the unknown fields it kept.
 * Maps are written in JS key order, so integer-like keys ("9" before "10")
 * come first, unlike Go's byte order; callers must avoid such keys.
 */
function oracleReencode(bytes: Uint8Array): Uint8Array {
  const root = loadOracle();
  const unknownType = root.lookupType("k8s.io.apimachinery.pkg.runtime.Unknown");
  const envReader = protobuf.Reader.create(new Uint8Array(bytes.subarray(4)));
  envReader.discardUnknown = false;
  const env = unknownType.decode(envReader) as protobuf.Message & {
    typeMeta: { kind: string };
    raw?: Uint8Array;
  };
  const objType = root.lookupType(`${NET}.${env.typeMeta.kind}`);
  const objReader = protobuf.Reader.create(new Uint8Array(env.raw ?? new Uint8Array(0)));
  objReader.discardUnknown = false;
  const obj = objType.decode(objReader);
  env.raw = objType.encode(obj).finish();
  const body = unknownType.encode(env).finish();
  const out = new Uint8Array(MAGIC.length + body.length);
  out.set(MAGIC, 0);
  out.set(body, MAGIC.length);
  return out;
}

function hasIntegerLikeMapKey(o: unknown): boolean {
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== "object" || v instanceof Uint8Array) return false;
    if (Array.isArray(v)) return v.some(walk);
    for (const [k, x] of Object.entries(v)) {
      if ((k === "labels" || k === "annotations" || k === "matchLabels") && x !== null && typeof x === "object") {
        if (Object.keys(x).some((key) => /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1)) return true;
      }
      if (walk(x)) return true;
    }
    return false;
  };
  return walk(o);
}

const GENERATED_RUNS = propertyRuns(320);

describe("differential: fixtures", () => {
  const all = fixtureFolders().flatMap((folder) =>
    loadFixtures(folder).flatMap((fx) => {
      const out: [string, Uint8Array][] = [[`${folder}/${fx.kind}`, fx.pb]];
      if (fx.after?.pb !== undefined) out.push([`${folder}/${fx.kind} (after_roundtrip)`, fx.after.pb]);
      return out;
    }),
  );

  it("finds fixtures in every folder", () => {
    expect(fixtureFolders().length).toBeGreaterThanOrEqual(10);
    for (const folder of fixtureFolders()) expect(loadFixtures(folder).length, folder).toBeGreaterThanOrEqual(3);
  });

  it.each(all)("%s: clusterwire and protobufjs decode the same values", (_name, pb) => {
    expectSameReading(pb);
  });

  const current = currentFolders().flatMap((folder) =>
    loadFixtures(folder).map((fx) => [`${folder}/${fx.kind}`, fx.pb] as const),
  );
  it.each(current)("%s: protobufjs re-encodes to the fixture bytes, as clusterwire does", (_name, pb) => {
    expect(hex(oracleReencode(pb))).toBe(hex(pb));
    expect(hex(encode(decode(pb)))).toBe(hex(pb));
  });

  it("protobufjs writes fields in field-number order, whatever the declaration order", () => {
    // Our .proto files happen to declare fields in number order, so check
    // protobufjs itself with a type declared out of order (as upstream's
    // HTTPIngressPath is: path = 1, pathType = 3, backend = 2).
    const t = protobuf.Type.fromJSON("OutOfOrder", {
      fields: {
        path: { type: "string", id: 1 },
        pathType: { type: "string", id: 3 },
        backend: { type: "string", id: 2 },
      },
    });
    new protobuf.Root().add(t);
    expect(t.fieldsArray.map((f) => f.id)).toEqual([1, 3, 2]);
    const bytes = t.encode(t.fromObject({ pathType: "Exact", backend: "b", path: "/" })).finish();
    expect(hex(bytes)).toBe("0a012f" + "120162" + "1a054578616374");
  });
});

describe("differential: generated objects", () => {
  it(`clusterwire and protobufjs decode encode(o) to the same values (${GENERATED_RUNS} objects)`, () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(arbObject(), (o) => {
        seen.add(o.$typeName);
        expectSameReading(encode(o));
      }),
      { numRuns: GENERATED_RUNS },
    );
    expect(seen.size).toBeGreaterThanOrEqual(8);
  });

  it.each(NETWORKING_KINDS.map((k) => [k]))("%s: same values, and protobufjs re-encodes to the same bytes", (kind) => {
    fc.assert(
      fc.property(arbObjectOf(kind), (o) => {
        const bytes = encode(o);
        expectSameReading(bytes);
        // protobufjs orders map keys as JS does (see oracleReencode).
        if (!hasIntegerLikeMapKey(o)) expect(hex(oracleReencode(bytes))).toBe(hex(bytes));
      }),
      { numRuns: 30 },
    );
  });

  it("encode(decode(encode(o))) equals encode(o)", () => {
    fc.assert(
      fc.property(arbObject(), (o) => {
        const bytes = encode(o);
        expect(hex(encode(decode(bytes)))).toBe(hex(bytes));
      }),
      { numRuns: GENERATED_RUNS },
    );
  });

  // arbObject({ json: true }) leaves out what Go's JSON cannot carry; see the
  // header of test/arbitraries.ts and the "JSON losses" tests below.
  it("encode(fromJson(toJsonString(o))) equals encode(o)", () => {
    fc.assert(
      fc.property(arbObject({ json: true }), (o) => {
        const bytes = encode(o);
        const text = toJsonString(o);
        expect(hex(encode(fromJson(text))), text).toBe(hex(bytes));
        // Printing is stable: the decoded object prints the same text.
        expect(toJsonString(fromJson(text))).toBe(text);
      }),
      { numRuns: GENERATED_RUNS },
    );
  });

  // Indented input is not byte-preserving when a fieldsV1 is present: Go keeps
  // the raw slice of the input, whitespace included (see json.test.ts).
  it("indented JSON decodes to the same object as compact JSON", () => {
    fc.assert(
      fc.property(arbObject({ json: true }), fc.constantFrom(2, 4, "\t"), (o, indent) => {
        const text = toJsonString(o, indent);
        const back = fromJson(text);
        expect(toJsonString(back), text).toBe(toJsonString(o));
        expect(toJsonString(back, indent)).toBe(text);
      }),
      { numRuns: 100 },
    );
  });

  it("a `<<` map key has no YAML round trip, as in Go: written plain, read back as a merge key", () => {
    const o = create(IngressSchema, { metadata: create(ObjectMetaSchema, { name: "a", labels: { "<<": "x" } }) });
    const text = toYaml(o);
    expect(text).toContain("\n    <<: x\n");
    expect(() => fromYaml(text)).toThrow(/map merge requires map/);
  });

  it("encode(fromYaml(toYaml(o))[0]) equals encode(o)", () => {
    fc.assert(
      fc.property(arbObject({ json: true }), (o) => {
        const bytes = encode(o);
        const text = toYaml(o);
        const docs = fromYaml(text);
        expect(docs.length, text).toBe(1);
        expect(hex(encode(docs[0] as NetworkingObject)), text).toBe(hex(bytes));
        expect(toYaml(docs[0] as NetworkingObject)).toBe(text);
      }),
      { numRuns: GENERATED_RUNS },
    );
  });
});

/** An Ingress as Go holds it: spec and status exist (zero) unless given. */
function ingress(meta: Record<string, unknown>): NetworkingObject {
  return create(IngressSchema, {
    metadata: create(ObjectMetaSchema, meta),
    spec: goZero(IngressSpecSchema) as never,
    status: goZero(IngressStatusSchema) as never,
  });
}

describe("differential: @bufbuild/protobuf as a second implementation", () => {
  /** protobuf-es's reading of the object inside an envelope, or its error. */
  function esReading(bytes: Uint8Array, desc: DescMessage): Message | Error {
    try {
      const { rawStart, rawEnd } = readEnvelope(bytes);
      return fromBinary(desc, bytes.subarray(rawStart, rawEnd));
    } catch (e) {
      return e as Error;
    }
  }

  it(`decode(bytes) equals protobuf-es fromBinary of the raw object (${GENERATED_RUNS} objects)`, () => {
    fc.assert(
      fc.property(arbObject(), (o) => {
        const bytes = encode(o);
        const desc = kindOf(o).desc;
        const es = esReading(bytes, desc);
        if (es instanceof Error) throw es;
        expect(equals(desc, decode(bytes) as Message, es)).toBe(true);
      }),
      { numRuns: GENERATED_RUNS },
    );
  });

  it("on mutated bytes, whatever clusterwire decodes, protobuf-es decodes to an equal message", () => {
    let decoded = 0;
    fc.assert(
      fc.property(
        arbObject(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 2 }),
        (o, flips) => {
          const bytes = encode(o);
          const desc = kindOf(o).desc;
          // Mutate only the raw object, so the envelope still names the same kind.
          const { rawStart, rawEnd } = readEnvelope(bytes);
          if (rawEnd === rawStart) return;
          for (const [at, value] of flips) bytes[rawStart + (at % (rawEnd - rawStart))] = value;
          let ours: NetworkingObject;
          try {
            ours = decode(bytes);
          } catch (e) {
            expect(e).toBeInstanceOf(DecodeError);
            return;
          }
          decoded++;
          const es = esReading(bytes, desc);
          if (es instanceof Error) throw new Error(`clusterwire decoded what protobuf-es refuses: ${es.message}`);
          // clusterwire fills a missing Go non-pointer struct (metadata) with its
          // zero value where protobuf-es leaves it unset; the bytes Go would
          // write for each reading are the same.
          expect(hex(encode(ours))).toBe(hex(encode(es as NetworkingObject)));
        },
      ),
      { numRuns: GENERATED_RUNS },
    );
    // The property means something only if some mutated inputs still decode.
    expect(decoded).toBeGreaterThan(GENERATED_RUNS / 20);
  });
});

describe("JSON losses the json arbitrary avoids (documented Go behaviour)", () => {
  it("a pointer Time holding the zero time: protobuf keeps it, JSON writes null and drops it", () => {
    const withZero = ingress({ name: "a", deletionTimestamp: create(TimeSchema, { seconds: GO_ZERO_SECONDS }) });
    const without = ingress({ name: "a" });
    // metadata field 9 written empty (4a 00) vs not at all.
    expect(hex(encode(withZero))).toContain("4a00");
    expect(hex(encode(withZero))).not.toBe(hex(encode(without)));
    expect(toJsonString(withZero)).toContain('"deletionTimestamp":null');
    expect(toJsonString(without)).not.toContain("deletionTimestamp");
    expect(hex(encode(fromJson(toJsonString(withZero))))).toBe(hex(encode(without)));
  });

  it("a FieldsV1 without Raw: protobuf writes 3a 00, JSON writes null and drops it", () => {
    const mk = (fieldsV1: boolean) =>
      ingress({
        name: "a",
        managedFields: [
          create(ManagedFieldsEntrySchema, { manager: "m", ...(fieldsV1 ? { fieldsV1: create(FieldsV1Schema) } : {}) }),
        ],
      });
    expect(hex(encode(mk(true)))).toContain("3a00");
    expect(toJsonString(mk(true))).toContain('"fieldsV1":null');
    expect(hex(encode(fromJson(toJsonString(mk(true)))))).toBe(hex(encode(mk(false))));
  });

  it("Time nanos are never written (Go writes 10 00), so they are not a loss", () => {
    const t = ingress({ creationTimestamp: create(TimeSchema, { seconds: 1n, nanos: 5 }) });
    const t0 = ingress({ creationTimestamp: create(TimeSchema, { seconds: 1n }) });
    expect(hex(encode(t))).toBe(hex(encode(t0)));
    expect(hex(encode(fromJson(toJsonString(t))))).toBe(hex(encode(t0)));
  });

  it("pointers set to empty values survive JSON (omitempty only omits nil pointers)", () => {
    const o = fromJson({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      metadata: { deletionGracePeriodSeconds: 0 },
      spec: { ingressClassName: "" },
    });
    const text = toJsonString(o);
    expect(text).toContain('"ingressClassName":""');
    expect(text).toContain('"deletionGracePeriodSeconds":0');
    expect(hex(encode(fromJson(text)))).toBe(hex(encode(o)));
  });
});

describe("encoder: Go's zero structs", () => {
  // ../shared/docs/wire-format.md §3.2, derived from the generated marshal code:
  // Ingress{metadata:{name:"a"}} is raw bytes
  //   0a 11 [0a 01 61 12 00 1a 00 22 00 2a 00 32 00 38 00 42 00] 12 00 1a 02 0a 00
  // Go's IngressStatus always holds a LoadBalancer struct, which it always
  // writes (1a 02 0a 00), however the object was built.
  const GO_RAW = "0a110a016112001a0022002a0032003800420012001a020a00";
  const rawOf = (bytes: Uint8Array): string => {
    const env = oracleDecodeEnvelope(bytes);
    return hex(env["raw"] as Uint8Array);
  };

  it("an Ingress built with every Go struct present encodes as Go does", () => {
    expect(rawOf(encode(ingress({ name: "a" })))).toBe(GO_RAW);
    expect(
      rawOf(encode(fromJson({ kind: "Ingress", apiVersion: "networking.k8s.io/v1", metadata: { name: "a" } }))),
    ).toBe(GO_RAW);
  });

  // A message field that is a Go non-pointer struct, left unset in a
  // create()-built object, is written as Go's zero struct with its own
  // always-written fields, not as an empty message (tag 00).
  it("create(IngressSchema, {metadata:{name:'a'}}) encodes status as Go does (1a 02 0a 00)", () => {
    const o = create(IngressSchema, { metadata: create(ObjectMetaSchema, { name: "a" }) });
    expect(rawOf(encode(o))).toBe(GO_RAW);
  });

  it("an unset metadata encodes as Go's zero ObjectMeta", () => {
    const o = create(IngressSchema, {
      spec: goZero(IngressSpecSchema) as never,
      status: goZero(IngressStatusSchema) as never,
    });
    expect(rawOf(encode(o))).toBe("0a10" + "0a0012001a0022002a0032003800" + "4200" + "1200" + "1a020a00");
  });

  it("an unset IngressClass spec, IngressServiceBackend.port and list metadata encode as Go's zero structs", () => {
    // IngressClassSpec{} is controller "" (0a 00); parameters is a pointer.
    const ic = create(IngressClassSchema, { metadata: goZero(ObjectMetaSchema) as never });
    expect(rawOf(encode(ic))).toBe("0a10" + "0a0012001a0022002a0032003800" + "4200" + "12020a00");
    // ServiceBackendPort{} is name "" (0a 00) and number 0 (10 00).
    const backend = create(IngressSchema, {
      metadata: goZero(ObjectMetaSchema) as never,
      spec: create(IngressSpecSchema, {
        defaultBackend: create(IngressBackendSchema, { service: create(IngressServiceBackendSchema, { name: "s" }) }),
      }),
      status: goZero(IngressStatusSchema) as never,
    });
    expect(rawOf(encode(backend))).toContain("120d" + "0a0b" + "2209" + "0a0173" + "1204" + "0a001000"); // spec { defaultBackend { service(4) { name "s", port } } }
    // ListMeta{} is selfLink, resourceVersion and continue "" (0a 00 12 00 1a 00).
    expect(rawOf(encode(create(IngressListSchema)))).toBe("0a06" + "0a0012001a00");
  });

  it.each(KINDS.map((k) => [k.kind, k.desc] as const))(
    "%s: create() with nothing set encodes as Go's zero value",
    (_kind, desc) => {
      expect(hex(encode(create(desc) as NetworkingObject))).toBe(hex(encode(goZero(desc) as NetworkingObject)));
    },
  );
});
