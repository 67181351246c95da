// generated.ts looks up the JSON readers and writers plugin/emit-json.ts generated into gen/.
// Every message type a kind can reach has one, except the three whose Go types marshal
// themselves (marshallers.ts writes them: meta.v1.Time, FieldsV1, IntOrString), and each
// makes messages exactly as protobuf-es does.

import { create, type DescMessage } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { IngressSchema } from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { FIELDS_V1_TYPE, INT_OR_STRING_TYPE, TIME_TYPE } from "../../../../src/networking/model/shapes.js";
import { networkingRegistry } from "../../../../src/networking/protobuf/registry.js";
import { jsonCodecOf } from "../../../../src/networking/text/json/generated.js";
import { nonEmpty } from "../../../support/non-empty.js";

const registry = networkingRegistry();
const descs: DescMessage[] = nonEmpty(
  registry.typeNames().map((n) => registry.getMessage(n)!),
  "registered message types",
  40,
);
const SELF_MARSHALLING = [TIME_TYPE, FIELDS_V1_TYPE, INT_OR_STRING_TYPE];

describe("jsonCodecOf", () => {
  it("has a codec for every message type a kind reaches, but the three that marshal themselves", () => {
    const without = descs.filter((d) => jsonCodecOf(d.typeName) === undefined).map((d) => d.typeName);
    expect(without.sort()).toEqual([...SELF_MARSHALLING].sort());
  });

  it("has none for other names, and gives the same codec every time", () => {
    expect(jsonCodecOf("no.such.Type")).toBeUndefined();
    expect(jsonCodecOf("")).toBeUndefined();
    expect(jsonCodecOf("constructor")).toBeUndefined();
    expect(jsonCodecOf(IngressSchema.typeName)).toBe(jsonCodecOf(IngressSchema.typeName));
  });

  it.each(descs.filter((d) => !SELF_MARSHALLING.includes(d.typeName)).map((d) => [d.typeName, d] as const))(
    "%s: create() is protobuf-es create(), with reader and writer functions",
    (_n, desc) => {
      const codec = jsonCodecOf(desc.typeName)!;
      const made = codec.create();
      expect(made).toEqual(create(desc));
      expect(Object.getPrototypeOf(made)).toBe(Object.getPrototypeOf(create(desc)));
      expect([typeof codec.read, typeof codec.readValue, typeof codec.write]).toEqual([
        "function",
        "function",
        "function",
      ]);
    },
  );
});
