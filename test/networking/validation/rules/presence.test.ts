// isSet is Object.hasOwn with a shortcut for non-zero values: held to
// Object.hasOwn on every optional field validation reads, unset, set to the
// zero value and set to another value, on decoded messages and on literals.

import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  HTTPIngressPathSchema,
  IngressClassParametersReferenceSchema,
  IngressSpecSchema,
  NetworkPolicyPortSchema,
} from "../../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { TypedLocalObjectReferenceSchema } from "../../../../gen/k8s/io/api/core/v1/core_pb.js";
import { isSet } from "../../../../src/networking/validation/rules/presence.js";

const FIELDS = [
  { schema: HTTPIngressPathSchema, key: "pathType", zero: "", other: "Prefix" },
  { schema: IngressSpecSchema, key: "ingressClassName", zero: "", other: "nginx" },
  { schema: NetworkPolicyPortSchema, key: "protocol", zero: "", other: "TCP" },
  { schema: NetworkPolicyPortSchema, key: "endPort", zero: 0, other: 8080 },
  { schema: IngressClassParametersReferenceSchema, key: "aPIGroup", zero: "", other: "k8s.example.com" },
  { schema: IngressClassParametersReferenceSchema, key: "namespace", zero: "", other: "ns" },
  { schema: IngressClassParametersReferenceSchema, key: "scope", zero: "", other: "Cluster" },
  { schema: TypedLocalObjectReferenceSchema, key: "apiGroup", zero: "", other: "example.com" },
] as const;

describe("isSet agrees with Object.hasOwn", () => {
  for (const f of FIELDS) {
    it(`${f.schema.name}.${f.key}`, () => {
      const unset = create(f.schema as never) as Record<string, unknown>;
      const zero = create(f.schema as never, { [f.key]: f.zero } as never) as Record<string, unknown>;
      const other = create(f.schema as never, { [f.key]: f.other } as never) as Record<string, unknown>;
      const literal: Record<string, unknown> = { $typeName: f.schema.typeName };
      const literalZero: Record<string, unknown> = { $typeName: f.schema.typeName, [f.key]: f.zero };
      for (const m of [unset, zero, other, literal, literalZero]) {
        expect(isSet(m, f.key, m[f.key], f.zero)).toBe(Object.hasOwn(m, f.key));
      }
      // The shortcut only holds if protobuf-es keeps the zero value off the message itself.
      expect(Object.hasOwn(unset, f.key)).toBe(false);
      expect(Object.hasOwn(zero, f.key)).toBe(true);
    });
  }
});
