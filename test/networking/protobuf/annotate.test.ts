// annotateWire against independent oracles: the spans tile the input, every
// scalar equals what decode() returns at the span's path, field numbers, wire
// types and names equal protobufjs reading the same bytes from the .proto
// files, and bad input fails exactly as decode() does.

import type { DescMessage } from "@bufbuild/protobuf";
import fc from "fast-check";
import protobuf from "protobufjs";
import type { Type } from "protobufjs";
import { describe, expect, it } from "vitest";
import {
  DecodeError,
  IngressListSchema,
  IngressSchema,
  annotateWire,
  create,
  decode,
  encode,
  lookupKind,
  readEnvelope,
  renderWirePath,
  type WireAnnotation,
  type WireSpan,
} from "../../../src/networking/index.js";
import { arbMutation, allFixtures, envelope, headIngress, mutate, str, utf8 } from "../../support/bad-input.js";
import { decodeOutcome } from "../../support/errors.js";
import { loadFixtures } from "../../support/fixtures.js";
import { ld, tag, varint } from "../../support/protobuf-wire.js";
import { loadOracle } from "../../support/protobufjs.js";
import { propertyRuns } from "../../support/property-runs.js";

/** The bytes a span covers itself: tag, prefix, and the value unless nested spans cover it. */
const ownEnd = (s: WireSpan): number => (s.nested ? s.valueOffset : s.valueOffset + s.valueLength);

/** Every byte covered once, in order; nested values exactly covered by the deeper spans after them. */
function expectTiling(a: WireAnnotation, bytes: Uint8Array): void {
  // Plain comparisons: a call to expect() per span made 50,000 spans take seconds.
  const fail = (s: WireSpan, why: string): never => {
    throw new Error(`span at byte ${s.offset} (${s.kind} ${s.path}): ${why}`);
  };
  expect(a.length).toBe(bytes.length);
  let pos = 0;
  const open: WireSpan[] = [];
  for (const s of a.spans) {
    if (s.offset !== pos) fail(s, `starts at ${s.offset}, the previous span ended at ${pos}`);
    if (s.offset + s.tagLength + s.lengthPrefixLength !== s.valueOffset)
      fail(s, "tag and prefix do not reach the value");
    if (s.kind !== "magic" && s.tagLength === 0) fail(s, "no tag");
    // Nested spans this one is not inside must have ended exactly here.
    while (open.length > 0 && (open[open.length - 1] as WireSpan).depth >= s.depth) {
      const done = open.pop() as WireSpan;
      if (done.valueOffset + done.valueLength !== s.offset) fail(done, `its value does not end at ${s.offset}`);
    }
    const parent = open[open.length - 1];
    if (s.depth !== (parent === undefined ? 0 : parent.depth + 1)) fail(s, `depth ${s.depth} under ${parent?.path}`);
    if (parent !== undefined && ownEnd(s) > parent.valueOffset + parent.valueLength) fail(s, "runs past its parent");
    if (s.nested) open.push(s);
    pos = ownEnd(s);
  }
  for (const done of open) if (done.valueOffset + done.valueLength !== bytes.length) fail(done, "not ended");
  expect(pos).toBe(bytes.length);
}

type Frame = { readonly msg: Record<string, unknown>; readonly desc: DescMessage } | { readonly map: unknown };

/**
 * Walks the decoded object along the spans (by field number in the
 * generated descriptors, list index and map key from the path) and checks
 * each scalar span against the decoded value there. Returns the count checked.
 */
function expectScalarsMatchDecode(a: WireAnnotation, bytes: Uint8Array): number {
  const decoded = decode(bytes) as unknown as Record<string, unknown>;
  const env = readEnvelope(bytes);
  const info = lookupKind(env.apiVersion, env.kind);
  if (info === undefined) throw new Error("fixture of an unknown kind");
  const frames: Frame[] = [];
  let checked = 0;
  // A field that occurs twice keeps its last value (a message, merged): check the last occurrence.
  const leafKey = (s: WireSpan) => `${s.path} ${s.fieldNumber} ${s.name}`;
  const last = new Map<string, WireSpan>();
  for (const s of a.spans) if (s.kind === "field" && !s.nested) last.set(leafKey(s), s);
  for (const s of a.spans) {
    if (s.kind === "envelope") {
      if (s.name === "raw" && s.nested) frames[1] = { msg: decoded, desc: info.desc };
      if (s.path === "typeMeta.apiVersion") expect(s.scalar).toBe(env.apiVersion);
      if (s.path === "typeMeta.kind") expect(s.scalar).toBe(env.kind);
      continue;
    }
    if (s.kind !== "field" || (!s.nested && last.get(leafKey(s)) !== s)) continue;
    const frame = frames[s.depth];
    if (frame === undefined) throw new Error(`no parent for ${s.path}`);
    const step = s.segments[s.segments.length - 1];
    if ("map" in frame) {
      if (typeof step !== "object") throw new Error(`map entry part without a key: ${s.path}`);
      const map = frame.map as Record<string, string>;
      expect(s.scalar, s.path).toBe(s.name === "key" ? step.key : map[step.key]);
      checked++;
      continue;
    }
    const field = frame.desc.fields.find((f) => f.number === s.fieldNumber);
    if (field === undefined) throw new Error(`no field ${s.fieldNumber} in ${frame.desc.typeName}`);
    expect(s.name).toBe(field.name);
    let value = frame.msg[field.localName];
    if (field.fieldKind === "list") {
      if (typeof step !== "number") throw new Error(`list element without an index: ${s.path}`);
      value = (value as unknown[])[step];
    }
    if (field.fieldKind === "map") {
      frames[s.depth + 1] = { map: value };
    } else if (s.nested) {
      expect(s.typeName).toBe(field.message?.typeName);
      frames[s.depth + 1] = { msg: value as Record<string, unknown>, desc: field.message as DescMessage };
    } else {
      expect(s.scalar, s.path).toEqual(value);
      expect(s.value, s.path).toBeDefined();
      checked++;
    }
  }
  return checked;
}

/** protobufjs's reading of the body: field number, wire type, name, depth and offset of every field. */
function oracleFields(bytes: Uint8Array): string[] {
  const root = loadOracle();
  const env = readEnvelope(bytes);
  const info = lookupKind(env.apiVersion, env.kind);
  if (info === undefined) throw new Error("fixture of an unknown kind");
  const objectType = root.lookupType(info.desc.typeName);
  const reader = protobuf.Reader.create(new Uint8Array(bytes));
  reader.pos = 4;
  const out: string[] = [];
  const walk = (type: Type | "mapEntry", end: number, depth: number): void => {
    while (reader.pos < end) {
      const offset = reader.pos;
      const t = reader.uint32();
      const no = t >>> 3;
      const wt = t & 7;
      if (type === "mapEntry") {
        out.push(`${offset} ${depth} ${no}/${wt} ${no === 1 ? "key" : no === 2 ? "value" : ""}`);
        reader.skipType(wt);
        continue;
      }
      const field = type.fieldsById[no];
      out.push(`${offset} ${depth} ${no}/${wt} ${field?.name ?? ""}`);
      const sub =
        field === undefined || wt !== 2
          ? undefined
          : field.map
            ? "mapEntry"
            : field.resolvedType instanceof protobuf.Type
              ? field.resolvedType
              : type.fullName === ".k8s.io.apimachinery.pkg.runtime.Unknown" && field.name === "raw"
                ? objectType
                : undefined;
      if (sub === undefined) {
        reader.skipType(wt);
        continue;
      }
      const len = reader.uint32();
      walk(sub, reader.pos + len, depth + 1);
    }
  };
  walk(root.lookupType("k8s.io.apimachinery.pkg.runtime.Unknown"), bytes.length, 0);
  return out;
}

function ourFields(a: WireAnnotation): string[] {
  return a.spans
    .filter((s) => s.kind !== "magic")
    .map((s) => `${s.offset} ${s.depth} ${s.fieldNumber}/${s.wireType} ${s.name}`);
}

describe("annotateWire: the upstream fixtures", () => {
  it.each(allFixtures.map((f) => [f.name, f] as const))("%s", (_name, fx) => {
    const a = annotateWire(fx.pb);
    const env = readEnvelope(fx.pb);
    expect(a.apiVersion).toBe(env.apiVersion);
    expect(a.kind).toBe(env.kind);
    expect(a.typeName).toBe(lookupKind(env.apiVersion, env.kind)?.desc.typeName);
    expectTiling(a, fx.pb);
    expect(expectScalarsMatchDecode(a, fx.pb)).toBeGreaterThan(0);
    expect(ourFields(a)).toEqual(oracleFields(fx.pb));
    for (const s of a.spans) if (renderWirePath(s.segments) !== s.path) throw new Error(`path ${s.path}`);
  });

  it("covers every kind with the protobufjs check", () => {
    const kinds = new Set(allFixtures.map((f) => readEnvelope(f.pb).kind));
    for (const k of ["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"])
      expect(kinds).toContain(k);
  });

  it("paths name fields as Kubernetes does, with list indexes and map keys", () => {
    const a = annotateWire(headIngress.pb);
    const paths = new Set(a.spans.map((s) => s.path));
    for (const p of [
      "metadata.name",
      'metadata.labels["labelsKey"]',
      "metadata.creationTimestamp.seconds",
      "spec.rules[0].host",
      // ingressRuleValue is inlined in JSON, so http sits right under the rule.
      "spec.rules[0].http.paths[0].backend.service.port.number",
      "spec.tls[0].hosts[0]",
    ]) {
      expect(paths).toContain(p);
    }
    const number = a.spans.find((s) => s.path === "spec.rules[0].http.paths[0].backend.service.port.number");
    expect(number).toMatchObject({ fieldNumber: 2, wireTypeName: "varint", name: "number", value: "2", scalar: 2 });
    const label = a.spans.find((s) => s.path === 'metadata.labels["labelsKey"]' && s.nested);
    expect(label?.segments).toEqual(["metadata", "labels", { key: "labelsKey" }]);
    expect(label?.value).toBe('"labelsKey": "labelsValue"');
  });

  it("renders values: strings quoted and cut, bytes as hex, int64 in decimal, times as RFC 3339", () => {
    const long = "x".repeat(300);
    const ing = create(IngressSchema, {
      metadata: {
        name: long,
        generation: 9007199254740993n,
        creationTimestamp: { seconds: 1199149261n },
        managedFields: [{ fieldsV1: { Raw: utf8.encode(`{"f:metadata":{"f:labels":{}}}`) } }],
      },
    });
    const bytes = encode(ing);
    const a = annotateWire(bytes);
    const at = (p: string) => a.spans.find((s) => s.path === p);
    expect(at("metadata.name")?.value).toBe(`"${"x".repeat(48)}"… (300 chars)`);
    expect(at("metadata.name")?.scalar).toBe(long);
    expect(at("metadata.generation")?.value).toBe("9007199254740993");
    expect(at("metadata.creationTimestamp")?.value).toBe("2008-01-01T01:01:01Z");
    expect(at("metadata.managedFields[0].fieldsV1.Raw")?.value).toBe(
      `0x${Buffer.from(`{"f:metadata":{"`).toString("hex")}… (${`{"f:metadata":{"f:labels":{}}}`.length} bytes)`,
    );
    expectTiling(a, bytes);
  });
});

describe("annotateWire: unknown fields", () => {
  const entry = [...str(1, "k"), ...str(2, "v"), ...tag(3, 5), 1, 2, 3, 4];
  const meta = [...str(1, "a"), ...tag(99, 0), ...varint(300), ...ld(11, entry)];
  const raw = [
    ...ld(1, meta),
    ...ld(50, utf8.encode("xyz")),
    ...tag(51, 3),
    ...tag(1, 0),
    1,
    ...tag(51, 4),
    ...tag(52, 1),
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
  ];
  const bytes = Uint8Array.from([...envelope("Ingress", raw), ...tag(7, 0), ...varint(2n ** 64n - 1n)]);

  it("are spans of kind unknown, with number, wire type and value, where the decoder keeps them", () => {
    const a = annotateWire(bytes);
    expectTiling(a, bytes);
    const unknown = a.spans.filter((s) => s.kind === "unknown");
    expect(unknown.map((s) => [s.path, s.depth, s.fieldNumber, s.wireTypeName, s.value])).toEqual([
      ["metadata", 2, 99, "varint", "300"],
      ['metadata.labels["k"]', 3, 3, "32-bit", "0x04030201"],
      ["", 1, 50, "length-delimited", "0x78797a"],
      ["", 1, 51, "start-group", "group (4 bytes)"],
      ["", 1, 52, "64-bit", "0x0807060504030201"],
      ["", 0, 7, "varint", "18446744073709551615"],
    ]);
    // The decoder keeps the object's unknown fields with the same bytes after the tag.
    const decoded = decode(bytes) as unknown as {
      $unknown?: { no: number; wireType: number; data: Uint8Array }[];
      metadata: { $unknown?: { no: number; wireType: number; data: Uint8Array }[] };
    };
    const kept = [...(decoded.metadata.$unknown ?? []), ...(decoded.$unknown ?? [])];
    const inObject = unknown.filter((s) => s.depth === 1 || s.path === "metadata");
    expect(inObject.map((s) => ({ no: s.fieldNumber, wireType: s.wireType }))).toEqual(
      kept.map((u) => ({ no: u.no, wireType: u.wireType })),
    );
    inObject.forEach((s, i) => {
      expect(bytes.subarray(s.offset + s.tagLength, s.valueOffset + s.valueLength)).toEqual(kept[i]?.data);
    });
    expect(expectScalarsMatchDecode(a, bytes)).toBeGreaterThan(0);
  });
});

describe("annotateWire: fields that occur twice", () => {
  it("a repeated singular message is merged: its lists continue, its last scalars win", () => {
    const raw = [
      ...ld(1, [...str(1, "first"), ...str(14, "f0"), ...str(14, "f1")]),
      ...ld(1, [...str(1, "second"), ...str(14, "f2")]),
    ];
    const bytes = envelope("Ingress", raw);
    const a = annotateWire(bytes);
    expectTiling(a, bytes);
    expect(a.spans.filter((s) => s.name === "finalizers").map((s) => [s.path, s.scalar])).toEqual([
      ["metadata.finalizers[0]", "f0"],
      ["metadata.finalizers[1]", "f1"],
      ["metadata.finalizers[2]", "f2"],
    ]);
    expect(a.spans.filter((s) => s.path === "metadata.name").map((s) => s.scalar)).toEqual(["first", "second"]);
    expect(expectScalarsMatchDecode(a, bytes)).toBe(4);
  });
});

describe("annotateWire: bad input fails as decode() does", () => {
  const outcome = (f: () => unknown) => {
    const o = decodeOutcome(f);
    return "error" in o ? o.error : "ok";
  };
  const pbs = loadFixtures("HEAD").map((f) => f.pb);

  it("every truncation of the HEAD Ingress", () => {
    const pb = headIngress.pb;
    for (let n = 0; n < pb.length; n++) {
      const cut = pb.subarray(0, n);
      const want = outcome(() => decode(cut));
      expect(
        outcome(() => annotateWire(cut)),
        `first ${n} bytes`,
      ).toEqual(want);
      if (want === "ok") expectTiling(annotateWire(cut), cut);
    }
  });

  it("random mutations: the decoder's DecodeError with its offset, or spans that tile the bytes", () => {
    fc.assert(
      fc.property(fc.constantFrom(...pbs), fc.array(arbMutation, { minLength: 1, maxLength: 6 }), (pb, muts) => {
        const bytes = mutate(pb, muts);
        let a: WireAnnotation | undefined;
        try {
          a = annotateWire(bytes);
        } catch (e) {
          if (!(e instanceof DecodeError)) throw e;
          expect(e.offset).toBeGreaterThanOrEqual(0);
          expect(e.offset).toBeLessThanOrEqual(bytes.length);
          expect(outcome(() => decode(bytes))).toEqual(outcome(() => annotateWire(bytes)));
          return;
        }
        expectTiling(a, bytes);
        expectScalarsMatchDecode(a, bytes);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it("groups nested past maxDepth in an unknown field", () => {
    const deep = [
      ...Array.from({ length: 10 }, () => tag(60, 3)).flat(),
      ...Array.from({ length: 10 }, () => tag(60, 4)).flat(),
    ];
    const bytes = envelope("Ingress", deep);
    expect(annotateWire(bytes).spans.some((s) => s.fieldNumber === 60)).toBe(true);
    const e = outcome(() => annotateWire(bytes, { maxDepth: 3 }));
    expect(e).toEqual(outcome(() => decode(bytes, { maxDepth: 3 })));
    expect(e).not.toBe("ok");
  });
});

describe("annotateWire: big input", () => {
  it("an IngressList of 3,000 items", () => {
    const items = Array.from({ length: 3000 }, (_, i) =>
      create(IngressSchema, {
        metadata: { name: `ing-${i}`, labels: { app: `a${i}` } },
        spec: { rules: [{ host: `h${i}.example.com` }] },
      }),
    );
    const bytes = encode(create(IngressListSchema, { items }));
    const a = annotateWire(bytes);
    expectTiling(a, bytes);
    const hosts = a.spans.filter((s) => s.name === "host");
    expect(hosts).toHaveLength(3000);
    expect(hosts[2999]?.path).toBe("items[2999].spec.rules[0].host");
    expect(hosts[2999]?.scalar).toBe("h2999.example.com");
  });
});
