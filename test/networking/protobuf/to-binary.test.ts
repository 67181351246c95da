// The binary encoder's Go rules (gogo's marshaller), held to two oracles: the upstream
// round-trip fixtures (bytes Go wrote: re-encoding what they decode to must give them back),
// and protobufjs reading the same .proto files (which fields are on the wire, with what value).
// Each rule is checked on the generic encoder (encodeGeneric) and on EncodeState, the writer
// the generated encoders write through, which must write and refuse exactly the same.

import { create, type DescMessage, type Message } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { describe, expect, it } from "vitest";
import {
  IngressSchema,
  IngressSpecSchema,
  NetworkPolicySchema,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import {
  FieldsV1Schema,
  ObjectMetaSchema,
  TimeSchema,
} from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { EncodeError } from "../../../src/networking/model/errors.js";
import { GO_ZERO_TIME_SECONDS } from "../../../src/networking/model/shapes.js";
import { decode } from "../../../src/networking/protobuf/decode.js";
import { generatedCodec } from "../../../src/networking/protobuf/generated.js";
import { planOf } from "../../../src/networking/protobuf/plan.js";
import { EncodeState, encodeGeneric } from "../../../src/networking/protobuf/to-binary.js";
import { currentFolders, loadFixtures } from "../../support/fixtures.js";
import { nonEmpty } from "../../support/non-empty.js";
import { readVarint } from "../../support/protobuf-wire.js";
import { oracleDecode, oracleDecodeEnvelope } from "../../support/protobufjs.js";

type Encoder = (desc: DescMessage, msg: Message, keepUnknown?: boolean) => Uint8Array;

const generic: Encoder = (desc, msg, keepUnknown = true) => {
  const w = new BinaryWriter();
  encodeGeneric(w, planOf(desc), msg, keepUnknown);
  return w.finish();
};

const viaState: Encoder = (desc, msg, keepUnknown = true) => {
  const st = new EncodeState();
  st.keep = keepUnknown;
  generatedCodec(desc.typeName)!.encode(st, msg);
  return st.finish();
};

const ENCODERS = [
  ["encodeGeneric", generic],
  ["EncodeState", viaState],
] as const;

/** The top-level fields of a message body: [number, wire type, payload or varint value]. */
function fields(bytes: Uint8Array): [number, number, Uint8Array | bigint][] {
  const out: [number, number, Uint8Array | bigint][] = [];
  let at = 0;
  while (at < bytes.length) {
    const t = readVarint(bytes, at);
    const no = Number(t.value >> 3n);
    const wt = Number(t.value & 7n);
    if (wt === WireType.Varint) {
      const v = readVarint(bytes, t.next);
      out.push([no, wt, v.value]);
      at = v.next;
    } else if (wt === WireType.LengthDelimited) {
      const n = readVarint(bytes, t.next);
      const end = n.next + Number(n.value);
      out.push([no, wt, bytes.subarray(n.next, end)]);
      at = end;
    } else {
      throw new Error(`unexpected wire type ${wt}`);
    }
  }
  return out;
}

const text = (b: unknown): string => new TextDecoder().decode(b as Uint8Array);

function encodeError(f: () => unknown): EncodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof EncodeError) return e;
    throw e;
  }
  throw new Error("no EncodeError");
}

const fixtures = currentFolders().flatMap((folder) => loadFixtures(folder));

describe("the upstream fixtures: what Go wrote comes back byte for byte", () => {
  it.each(nonEmpty(fixtures, "current fixtures", 10).map((f) => [`${f.folder} ${f.kind}`, f] as const))(
    "%s",
    (_n, f) => {
      const raw = oracleDecodeEnvelope(f.pb)["raw"] as Uint8Array;
      const obj = decode(f.pb);
      const desc = IngressSchema.file.messages.find((m) => m.typeName === obj.$typeName)!;
      for (const [name, encode] of ENCODERS) expect(encode(desc, obj), name).toEqual(raw);
    },
  );
});

describe.each(ENCODERS)("%s", (_name, encode) => {
  it("writes a non-pointer struct even when absent, as Go's zero struct; a nil pointer not at all", () => {
    const bytes = encode(IngressSchema, create(IngressSchema));
    const o = oracleDecode(IngressSchema.typeName, bytes) as {
      metadata: Record<string, unknown>;
      spec: Record<string, unknown>;
      status: { loadBalancer?: unknown };
    };
    // ObjectMeta's plain strings and int64 are always written; its creationTimestamp is a
    // struct (the zero time: an empty message); deletionTimestamp is a pointer.
    expect(o.metadata["name"]).toBe("");
    expect(o.metadata["generation"]).toBe(0n);
    expect(o.metadata["creationTimestamp"]).toEqual({});
    expect("deletionTimestamp" in o.metadata).toBe(false);
    expect(o.spec).toEqual({});
    expect(o.status.loadBalancer).toEqual({});
  });

  it("a pointer scalar is written when set, even to its zero value", () => {
    const unset = oracleDecode(IngressSpecSchema.typeName, encode(IngressSpecSchema, create(IngressSpecSchema)));
    expect("ingressClassName" in unset).toBe(false);
    const empty = oracleDecode(
      IngressSpecSchema.typeName,
      encode(IngressSpecSchema, create(IngressSpecSchema, { ingressClassName: "" })),
    );
    expect(empty["ingressClassName"]).toBe("");
  });

  it("fields in ascending number order; lists as repeated fields, in order", () => {
    const meta = create(ObjectMetaSchema, { name: "a", namespace: "b", finalizers: ["x", "y"], generation: 3n });
    const numbers = fields(encode(ObjectMetaSchema, meta)).map(([no]) => no);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    const finalizers = fields(encode(ObjectMetaSchema, meta)).filter(([no]) => no === 14);
    expect(finalizers.map(([, , v]) => text(v))).toEqual(["x", "y"]);
  });

  it("a map: one entry per key, in UTF-8 byte order, key and value always written", () => {
    const labels = { b: "1", a: "", "\uffff": "x", "\u{1F600}": "y", é: "z", "10": "t", "9": "n" };
    const entries = fields(encode(ObjectMetaSchema, create(ObjectMetaSchema, { labels })))
      .filter(([no]) => no === 11)
      .map(([, , v]) => fields(v as Uint8Array).map(([no, , x]) => [no, text(x)]));
    expect(entries).toEqual(
      ["10", "9", "a", "b", "é", "\uffff", "\u{1F600}"].map((k) => [
        [1, k],
        [2, labels[k as keyof typeof labels]],
      ]),
    );
  });

  it("a time: whole seconds and nanos 0; the zero time as an empty message", () => {
    const t = (init: { seconds?: bigint; nanos?: number }): [number, number, Uint8Array | bigint][] =>
      fields(encode(TimeSchema, create(TimeSchema, init)));
    expect(t({ seconds: 1714557600n, nanos: 5 })).toEqual([
      [1, WireType.Varint, 1714557600n],
      [2, WireType.Varint, 0n],
    ]);
    expect(t({ seconds: 0n })).toEqual([
      [1, WireType.Varint, 0n],
      [2, WireType.Varint, 0n],
    ]);
    expect(t({ seconds: -1n })).toEqual([
      [1, WireType.Varint, 2n ** 64n - 1n],
      [2, WireType.Varint, 0n],
    ]);
    expect(t({})).toEqual([]);
    expect(t({ seconds: GO_ZERO_TIME_SECONDS })).toEqual([]);
    // nanos alone is time.Unix(0, n): not the zero time.
    expect(t({ nanos: 7 })).toEqual([
      [1, WireType.Varint, 0n],
      [2, WireType.Varint, 0n],
    ]);
  });

  it("FieldsV1's bytes only when non-empty", () => {
    expect(encode(FieldsV1Schema, create(FieldsV1Schema, { Raw: new Uint8Array() }))).toEqual(new Uint8Array());
    expect(encode(FieldsV1Schema, create(FieldsV1Schema, { Raw: new Uint8Array([0x7b, 0x7d]) }))).toEqual(
      Uint8Array.of(0x0a, 0x02, 0x7b, 0x7d),
    );
  });

  it("unknown fields: kept after the known ones, or dropped, as asked", () => {
    const meta = create(ObjectMetaSchema, { name: "a" });
    meta.$unknown = [
      { no: 99, wireType: WireType.Varint, data: Uint8Array.of(5) },
      { no: 100, wireType: WireType.LengthDelimited, data: Uint8Array.of(1, 0x41) },
    ];
    const kept = fields(encode(ObjectMetaSchema, meta, true));
    expect(kept.slice(-2)).toEqual([
      [99, WireType.Varint, 5n],
      [100, WireType.LengthDelimited, Uint8Array.of(0x41)],
    ]);
    const dropped = encode(ObjectMetaSchema, meta, false);
    expect(dropped).toEqual(encode(ObjectMetaSchema, create(ObjectMetaSchema, { name: "a" })));
  });

  it("long and non-ASCII strings and map entries", () => {
    for (const s of ["a".repeat(127), "a".repeat(128), "é".repeat(70), "\u{1F600}", "a".repeat(300)]) {
      const meta = create(ObjectMetaSchema, { name: s, labels: { [s]: s } });
      const got = oracleDecode(ObjectMetaSchema.typeName, encode(ObjectMetaSchema, meta));
      expect(got["name"]).toBe(s);
      expect(got["labels"]).toEqual({ [s]: s });
    }
  });

  it("refuses values of the wrong type, naming the field by its JSON path", () => {
    // [what, where to put the bad value (local names and indexes), the value, the error's path and reason]
    const cases: [string, (string | number)[], unknown, string, string][] = [
      ["a string field", ["metadata", "name"], 5, "metadata.name", "expected a string, got number 5"],
      ["a map value", ["metadata", "labels"], { k: 1 }, "metadata.labels.k", "expected a string map value, got number"],
      ["a map", ["metadata", "labels"], [1], "metadata.labels", "expected a map object, got an array"],
      [
        "a list item",
        ["spec", "policyTypes"],
        ["Ingress", 2],
        "spec.policyTypes[1]",
        "expected a string, got number 2",
      ],
      ["a list", ["spec", "policyTypes"], "Ingress", "spec.policyTypes", "expected an array, got a string"],
      ["a message in a list", ["spec", "ingress", 0], "x", "spec.ingress[0]", "expected a message, got a string"],
      ["an int64", ["metadata", "generation"], 1, "metadata.generation", "expected an int64 bigint, got number 1"],
      [
        "an int32 deep down",
        ["spec", "ingress", 0, "ports", 0, "port", "intVal"],
        1.5,
        "spec.ingress[0].ports[0].port.intVal",
        "expected an int32, got number 1.5",
      ],
      [
        "a time's seconds",
        ["metadata", "creationTimestamp"],
        create(TimeSchema, { seconds: 5 as never }),
        "metadata.creationTimestamp.seconds",
        "expected an int64 bigint, got number 5",
      ],
    ];
    for (const [what, at, bad, path, reason] of cases) {
      const o = create(NetworkPolicySchema, {
        metadata: { name: "a", labels: { k: "v" } },
        spec: { ingress: [{ ports: [{ port: { intVal: 80 } }] }], policyTypes: ["Ingress"] },
      });
      let parent = o as unknown as Record<string | number, unknown>;
      for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      parent[at[at.length - 1]!] = bad;
      const e = encodeError(() => encode(NetworkPolicySchema, o));
      expect([e.path, e.reason], what).toEqual([path, reason]);
    }
  });
});

describe("EncodeState", () => {
  it("after reset() writes from the start again (a failed write leaves nothing behind)", () => {
    const st = new EncodeState();
    const codec = generatedCodec(ObjectMetaSchema.typeName)!;
    expect(() => codec.encode(st, create(ObjectMetaSchema, { name: 5 as never }))).toThrow(EncodeError);
    st.reset();
    codec.encode(st, create(ObjectMetaSchema, { name: "a" }));
    expect(st.finish()).toEqual(generic(ObjectMetaSchema, create(ObjectMetaSchema, { name: "a" })));
  });

  it("its scalar writers refuse as scalarMismatch words it, and write what BinaryWriter writes", () => {
    const st = new EncodeState();
    st.str(0x0a, "é");
    st.i32(0x10, -1);
    st.i64(0x18, -(2n ** 63n));
    st.bool(0x20, true);
    st.bytesField(0x2a, Uint8Array.of(1, 2));
    st.nonEmptyBytes(0x32, new Uint8Array());
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).string("é");
    w.tag(2, WireType.Varint).int32(-1);
    w.tag(3, WireType.Varint).int64(-(2n ** 63n));
    w.tag(4, WireType.Varint).bool(true);
    w.tag(5, WireType.LengthDelimited).bytes(Uint8Array.of(1, 2));
    expect(st.finish()).toEqual(w.finish());
    expect(() => st.i32(0x10, 2 ** 31)).toThrow("expected an int32, got number 2147483648");
    expect(() => st.i64(0x18, 2n ** 63n)).toThrow("expected an int64 bigint, got bigint 9223372036854775808");
    expect(() => st.bool(0x20, 1)).toThrow("expected a boolean, got number 1");
    expect(() => st.str(0x0a, null)).toThrow("expected a string, got null");
    expect(() => st.bytesField(0x2a, [1])).toThrow("expected a Uint8Array, got an array");
    expect(() => st.message([])).toThrow("expected a message, got an array");
    expect(() => st.list({})).toThrow("expected an array, got object");
  });
});
