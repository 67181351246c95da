import type { DescMessage } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  file_k8s_io_api_networking_v1_networking,
  IngressSchema,
  IngressSpecSchema,
  NetworkPolicySpecSchema,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import {
  file_k8s_io_apimachinery_pkg_apis_meta_v1_meta,
  TimeSchema,
} from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { file_k8s_io_apimachinery_pkg_runtime_runtime } from "../../../gen/k8s/io/apimachinery/pkg/runtime/runtime_pb.js";
import * as goShapes from "../../../src/networking/model/go-shapes.js";
import * as shapes from "../../../src/networking/model/shapes.js";
import { nonEmpty } from "../../support/non-empty.js";

/** Every message of the three generated files shapes.ts joins, nested ones included. */
function allMessages(): DescMessage[] {
  const out: DescMessage[] = [];
  const add = (m: DescMessage): void => {
    out.push(m);
    for (const n of m.nestedMessages) add(n);
  };
  for (const file of [
    file_k8s_io_apimachinery_pkg_runtime_runtime,
    file_k8s_io_apimachinery_pkg_apis_meta_v1_meta,
    file_k8s_io_api_networking_v1_networking,
  ]) {
    for (const m of file.messages) add(m);
  }
  return nonEmpty(out, "generated messages", 40);
}

describe("shapeOf", () => {
  it("gives every message of the served files, and each message a field reaches, a shape", () => {
    const seen = new Set<string>();
    const visit = (d: DescMessage): void => {
      if (seen.has(d.typeName)) return;
      seen.add(d.typeName);
      const s = shapes.shapeOf(d);
      expect(s.desc.typeName).toBe(d.typeName);
      for (const f of d.fields) if (f.message !== undefined) visit(f.message);
    };
    for (const d of allMessages()) visit(d);
    // The fields reach beyond the three files: IntOrString, the core/v1 reference.
    expect(seen.has(goShapes.INT_OR_STRING_TYPE)).toBe(true);
    expect(seen.has("k8s.io.api.core.v1.TypedLocalObjectReference")).toBe(true);
  });

  it("each shape covers the descriptor's fields: wire order by number, Go order a permutation, both maps complete", () => {
    for (const d of allMessages()) {
      const s = shapes.shapeOf(d);
      const numbers = d.fields.map((f) => f.number).sort((a, b) => a - b);
      expect(
        s.wireOrder.map((f) => f.field.number),
        d.typeName,
      ).toEqual(numbers);
      expect(s.goOrder.map((f) => f.field.number).sort((a, b) => a - b)).toEqual(numbers);
      for (const fs of s.wireOrder) {
        expect(s.byNumber.get(fs.field.number)).toBe(fs);
        if (fs.jsonKey !== undefined && !fs.inline) expect(s.byJsonKey.get(fs.jsonKey)).toBe(fs);
      }
    }
  });

  it("builds each shape once: the same object every time", () => {
    expect(shapes.shapeOf(IngressSchema)).toBe(shapes.shapeOf(IngressSchema));
    expect(shapes.shapeOf(NetworkPolicySpecSchema).desc).toBe(NetworkPolicySpecSchema);
  });

  it("states Go facts the descriptor cannot: pointers and omitempty", () => {
    const spec = shapes.shapeOf(IngressSchema).byJsonKey.get("spec");
    expect(spec?.pointer).toBe(false);
    expect(spec?.omitEmpty).toBe(true);
    const ingressClassName = shapes.shapeOf(IngressSpecSchema).byJsonKey.get("ingressClassName");
    expect(ingressClassName?.pointer).toBe(true);
  });

  it("throws, naming the type, for a message it has no Go shape for", () => {
    expect(() => shapes.shapeOf(TimestampSchema)).toThrow("shapes: no Go shape for google.protobuf.Timestamp");
  });

  it("re-exports go-shapes.ts's constants unchanged", () => {
    expect(shapes.TIME_TYPE).toBe(goShapes.TIME_TYPE);
    expect(shapes.TIME_TYPE).toBe(TimeSchema.typeName);
    expect(shapes.FIELDS_V1_TYPE).toBe(goShapes.FIELDS_V1_TYPE);
    expect(shapes.INT_OR_STRING_TYPE).toBe(goShapes.INT_OR_STRING_TYPE);
    expect(shapes.GO_ZERO_TIME_SECONDS).toBe(goShapes.GO_ZERO_TIME_SECONDS);
    // Go's zero time, 0001-01-01T00:00:00Z, in Unix seconds.
    expect(shapes.GO_ZERO_TIME_SECONDS).toBe(BigInt(Date.parse("0001-01-01T00:00:00Z") / 1000));
  });
});
