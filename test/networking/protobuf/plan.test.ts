// planOf against a second reading of the same .proto files: protobufjs (test/support/protobufjs.ts)
// says what each field is on the wire; the Go facts (pointers, structs) come from shapes.ts.

import type { DescMessage } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import type { Type } from "protobufjs";
import { describe, expect, it } from "vitest";
import { IngressSchema, IngressSpecSchema } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { FieldsV1Schema, TimeSchema } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { shapeOf } from "../../../src/networking/model/shapes.js";
import { structFields } from "../../../src/networking/model/zero.js";
import { planOf } from "../../../src/networking/protobuf/plan.js";
import { networkingRegistry } from "../../../src/networking/protobuf/registry.js";
import { nonEmpty } from "../../support/non-empty.js";
import { loadOracle } from "../../support/protobufjs.js";

const descs: DescMessage[] = nonEmpty(
  networkingRegistry()
    .typeNames()
    .map((n) => networkingRegistry().getMessage(n)!),
  "registered message types",
  40,
);

const SCALAR_WIRE: Record<string, WireType> = {
  string: WireType.LengthDelimited,
  bytes: WireType.LengthDelimited,
  int32: WireType.Varint,
  int64: WireType.Varint,
  bool: WireType.Varint,
};

describe("planOf", () => {
  it.each(descs.map((d) => [d.typeName, d] as const))("%s: every field, as protobufjs reads the .proto", (_n, desc) => {
    const plan = planOf(desc);
    const oracle: Type = loadOracle().lookupType(desc.typeName);
    const numbers = Object.values(oracle.fields)
      .map((f) => f.id)
      .sort((a, b) => a - b);
    // Go writes fields in ascending number order.
    expect(plan.fields.map((f) => f.no)).toEqual(numbers);
    for (const fp of plan.fields) {
      const of = oracle.fieldsById[fp.no]!;
      expect(fp.name).toBe(of.name);
      expect(plan.byNumber[fp.no]).toBe(fp);
      of.resolve();
      const isMap = of.map;
      const isMessage = of.resolvedType !== null && !isMap;
      const kind = isMap
        ? "map"
        : of.repeated
          ? isMessage
            ? "messageList"
            : "scalarList"
          : isMessage
            ? "message"
            : "scalar";
      expect(fp.kind, `${desc.typeName}.${fp.name}`).toBe(kind);
      expect(fp.wireType, `${desc.typeName}.${fp.name}`).toBe(
        isMap || isMessage ? WireType.LengthDelimited : SCALAR_WIRE[of.type],
      );
      if (isMessage) expect(fp.child).toBe(planOf(fp.fs.field.message as DescMessage));
      else expect(fp.child).toBeUndefined();
    }
    expect(plan.byNumber.filter((f) => f !== undefined)).toHaveLength(plan.fields.length);
  });

  it("carries the Go shape: pointers, non-empty bytes, structs, JSON names as error segments", () => {
    for (const desc of descs) {
      const plan = planOf(desc);
      const shape = shapeOf(desc);
      expect(plan.shape).toBe(shape);
      expect(plan.desc).toBe(desc);
      expect(plan.structs.map((f) => f.localName)).toEqual(structFields(desc).map((f) => f.localName));
      for (const fp of plan.fields) {
        const fs = shape.byNumber.get(fp.no)!;
        expect(fp.fs).toBe(fs);
        expect([fp.pointer, fp.nonEmpty, fp.localName, fp.segment]).toEqual([
          fs.pointer,
          fs.nonEmpty,
          fs.localName,
          fs.jsonKey ?? "",
        ]);
      }
    }
    expect(planOf(FieldsV1Schema).fields.map((f) => [f.name, f.nonEmpty])).toEqual([["Raw", true]]);
    const spec = planOf(IngressSpecSchema);
    expect(spec.fields.find((f) => f.name === "ingressClassName")?.pointer).toBe(true);
    expect(spec.fields.find((f) => f.name === "rules")?.segment).toBe("rules");
    // An inlined struct has no segment of its own.
    const rule = planOf(spec.fields.find((f) => f.name === "rules")!.child!.desc);
    expect(rule.fields.find((f) => f.name === "ingressRuleValue")?.segment).toBe("");
  });

  it("only meta.v1.Time is a time", () => {
    expect(descs.filter((d) => planOf(d).isTime).map((d) => d.typeName)).toEqual([TimeSchema.typeName]);
  });

  it("builds each plan once", () => {
    expect(planOf(IngressSchema)).toBe(planOf(IngressSchema));
    expect(planOf(IngressSchema).fields[0]?.child).toBe(planOf(IngressSchema.fields[0]!.message!));
  });
});
