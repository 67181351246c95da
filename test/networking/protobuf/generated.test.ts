// generated.ts looks up the binary codecs plugin/emit-bin.ts generated into gen/. Each must be
// there for every message type a codec can meet, make messages exactly as protobuf-es does, and
// read and write exactly what the generic decoder and encoder (from-binary.ts, to-binary.ts) do.

import { create, type DescMessage, type Message } from "@bufbuild/protobuf";
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { describe, expect, it } from "vitest";
import { IngressRuleSchema, IngressSchema } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
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
    expect(made).toStrictEqual(create(desc));
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

// The generated decoders build lists and maps more compactly than push() and a {} literal
// (plugin/emit-bin.ts says how); that must not show: same entries, in order, including when a
// message repeated on the wire merges into the first and so continues its lists and maps.
describe("generated decoders' lists and maps", () => {
  const ingress = (name: string, labels: Record<string, string>, hosts: string[]) =>
    create(IngressSchema, {
      metadata: { name, labels, finalizers: hosts.map((h) => `f/${h}`) },
      spec: { rules: hosts.map((host) => ({ host })) },
    });
  const body = (msg: Message) => encodeBoth(IngressSchema, msg)[1];
  const concat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };

  it("continue lists and maps across a message repeated on the wire, as the generic decoder does", () => {
    const bytes = concat(
      body(
        ingress(
          "a",
          Object.fromEntries([
            ["one", "1"],
            ["__proto__", "p"],
          ]),
          ["h1"],
        ),
      ),
      body(ingress("b", {}, [])),
      body(ingress("c", { two: "2", one: "x" }, ["h2", "h3", "h4"])),
    );
    const [generic, generated] = decodeBoth(IngressSchema, bytes);
    expect(generated).toEqual(generic);
    const ing = generated as ReturnType<typeof ingress>;
    expect(ing.metadata?.labels).toEqual(
      Object.fromEntries([
        ["one", "x"],
        ["__proto__", "p"],
        ["two", "2"],
      ]),
    );
    expect(Object.getPrototypeOf(ing.metadata?.labels)).toBe(Object.prototype);
    // Go writes map entries sorted by key; they are read back in that order.
    expect(Object.keys(ing.metadata?.labels ?? {})).toEqual(["__proto__", "one", "two"]);
    expect(ing.metadata?.finalizers).toEqual(["f/h1", "f/h2", "f/h3", "f/h4"]);
    expect(ing.spec?.rules.map((r) => r.host)).toEqual(["h1", "h2", "h3", "h4"]);
  });

  it("give every message its own mutable lists and maps, empty ones included", () => {
    const bytes = body(ingress("a", {}, ["h1"]));
    const [, first] = decodeBoth(IngressSchema, bytes) as ReturnType<typeof ingress>[];
    const [, second] = decodeBoth(IngressSchema, bytes) as ReturnType<typeof ingress>[];
    const [m1, m2] = [first?.metadata, second?.metadata];
    expect(m1?.labels).not.toBe(m2?.labels);
    expect(m1?.annotations).not.toBe(m1?.labels);
    expect(Object.getPrototypeOf(m1?.annotations)).toBe(Object.prototype);
    expect(JSON.stringify(m1?.annotations)).toBe("{}");
    m1!.labels["added"] = "yes";
    m1!.finalizers.push("more");
    first!.spec!.rules.push(create(IngressRuleSchema, { host: "h2" }));
    expect(m2?.labels).toStrictEqual({});
    expect(m2?.finalizers).toEqual(["f/h1"]);
    expect(second?.spec?.rules).toHaveLength(1);
    expect(first?.spec?.rules).toHaveLength(2);
    expect(m1?.labels).toEqual({ added: "yes" });
  });
});
