// generated.ts looks up the binary codecs plugin/emit-bin.ts generated into gen/. Each must be
// there for every message type a codec can meet, make messages exactly as protobuf-es does, and
// read and write exactly what the generic decoder and encoder (from-binary.ts, to-binary.ts) do.

import { create, type DescMessage, type Message } from "@bufbuild/protobuf";
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { describe, expect, it } from "vitest";
import { IngressSchema } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { decodeGeneric, decodeState } from "../../../src/networking/protobuf/from-binary.js";
import { generatedCodec } from "../../../src/networking/protobuf/generated.js";
import { planOf } from "../../../src/networking/protobuf/plan.js";
import { networkingRegistry } from "../../../src/networking/protobuf/registry.js";
import { EncodeState, encodeGeneric } from "../../../src/networking/protobuf/to-binary.js";
import { nonEmpty } from "../../support/non-empty.js";

const registry = networkingRegistry();
const descs: DescMessage[] = nonEmpty(
  registry.typeNames().map((n) => registry.getMessage(n)!),
  "registered message types",
  40,
);

function encodeBoth(desc: DescMessage, msg: Message): [Uint8Array, Uint8Array] {
  const w = new BinaryWriter();
  encodeGeneric(w, planOf(desc), msg, true);
  const st = new EncodeState();
  generatedCodec(desc.typeName)!.encode(st, msg);
  return [w.finish(), st.finish()];
}

function decodeBoth(desc: DescMessage, bytes: Uint8Array): [Message, Message] {
  const gen = generatedCodec(desc.typeName)!;
  return [
    decodeGeneric(decodeState(bytes, 0, {}), planOf(desc), bytes.length),
    gen.decode(decodeState(bytes, 0, {}), gen.create(), bytes.length),
  ];
}

describe("generatedCodec", () => {
  it("has a codec for every message type the networking registry holds", () => {
    expect(descs.filter((d) => generatedCodec(d.typeName) === undefined).map((d) => d.typeName)).toEqual([]);
  });

  it("has none for other names, and gives the same codec every time", () => {
    expect(generatedCodec("google.protobuf.Timestamp")).toBeUndefined();
    expect(generatedCodec("")).toBeUndefined();
    expect(generatedCodec("__proto__")).toBeUndefined();
    expect(generatedCodec(IngressSchema.typeName)).toBe(generatedCodec(IngressSchema.typeName));
  });

  it.each(descs.map((d) => [d.typeName, d] as const))("%s: create() is protobuf-es create()", (_n, desc) => {
    const made = generatedCodec(desc.typeName)!.create();
    expect(made).toEqual(create(desc));
    expect(made.$typeName).toBe(desc.typeName);
    expect(Object.getPrototypeOf(made)).toBe(Object.getPrototypeOf(create(desc)));
  });

  // codec.test.ts compares the two on the upstream fixtures, mutated fixtures and random
  // objects; here each codec is run once on its own, on the message Go's zero value writes.
  it.each(descs.map((d) => [d.typeName, d] as const))(
    "%s: writes the generic encoder's bytes for an empty message and reads them as the generic decoder does",
    (_n, desc) => {
      const [generic, generated] = encodeBoth(desc, create(desc));
      expect(generated).toEqual(generic);
      const [a, b] = decodeBoth(desc, generic);
      expect(b).toEqual(a);
      expect(encodeBoth(desc, b)[1]).toEqual(generic);
    },
  );
});
