// Go's zero values: a Go struct's non-pointer struct fields always exist, so its zero value
// has them, recursively (the expected values below are the Go structs' zero values, written
// out); pointer fields stay nil.

import { create, isFieldSet, ScalarType } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  IngressListSchema,
  IngressSchema,
  IngressSpecSchema,
  NetworkPolicySchema,
  NetworkPolicyPeerSchema,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { TimeSchema } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { GO_ZERO_TIME_SECONDS } from "../../../src/networking/model/shapes.js";
import { fillStructs, isZeroTime, structFields, zeroMessage, zeroScalar } from "../../../src/networking/model/zero.js";

describe("structFields", () => {
  it("lists the non-pointer message fields, in wire order", () => {
    expect(structFields(IngressSchema).map((f) => f.localName)).toEqual(["metadata", "spec", "status"]);
    expect(structFields(IngressListSchema).map((f) => f.localName)).toEqual(["metadata"]);
    // Every IngressSpec message field is a pointer (or a list).
    expect(structFields(IngressSpecSchema)).toEqual([]);
    expect(structFields(NetworkPolicyPeerSchema)).toEqual([]);
  });

  it("is computed once per type", () => {
    expect(structFields(IngressSchema)).toBe(structFields(IngressSchema));
  });
});

describe("zeroMessage", () => {
  it("an Ingress: metadata (with its creationTimestamp), spec, and status with its loadBalancer", () => {
    expect(zeroMessage(IngressSchema)).toEqual(
      create(IngressSchema, { metadata: { creationTimestamp: {} }, spec: {}, status: { loadBalancer: {} } }),
    );
  });

  it("a NetworkPolicy: its spec's podSelector is a struct, the rules' peers are pointers", () => {
    const np = zeroMessage(NetworkPolicySchema);
    expect(np).toEqual(create(NetworkPolicySchema, { metadata: { creationTimestamp: {} }, spec: { podSelector: {} } }));
  });

  it("pointer fields stay unset", () => {
    const ingress = zeroMessage(IngressSchema) as ReturnType<typeof create<typeof IngressSchema>>;
    expect(ingress.metadata?.deletionTimestamp).toBeUndefined();
    expect(ingress.spec?.defaultBackend).toBeUndefined();
    expect(isFieldSet(ingress.spec!, IngressSpecSchema.field.ingressClassName!)).toBe(false);
  });

  it("every call gives a fresh message, sharing nothing", () => {
    const a = zeroMessage(IngressSchema) as ReturnType<typeof create<typeof IngressSchema>>;
    const b = zeroMessage(IngressSchema) as ReturnType<typeof create<typeof IngressSchema>>;
    expect(a).not.toBe(b);
    expect(a.metadata).not.toBe(b.metadata);
    a.metadata!.name = "changed";
    expect(b.metadata?.name).toBe("");
  });
});

describe("fillStructs", () => {
  it("materialises only the missing structs of the message itself, keeping those it has", () => {
    const msg = create(IngressSchema, { spec: { ingressClassName: "nginx" } });
    const spec = msg.spec;
    fillStructs(msg, IngressSchema);
    expect(msg.spec).toBe(spec);
    expect(msg.spec?.ingressClassName).toBe("nginx");
    expect(msg.metadata).toEqual(create(IngressSchema, { metadata: { creationTimestamp: {} } }).metadata);
    expect(msg.status).toEqual(create(IngressSchema, { status: { loadBalancer: {} } }).status);
  });

  it("leaves the children's own structs to the caller", () => {
    const msg = create(IngressSchema, { metadata: { name: "a" } });
    fillStructs(msg, IngressSchema);
    expect(msg.metadata?.creationTimestamp).toBeUndefined();
  });
});

describe("isZeroTime", () => {
  it("a Time with no seconds and nothing else, or with Go's zero seconds, is zero", () => {
    expect(isZeroTime(create(TimeSchema))).toBe(true);
    expect(isZeroTime(create(TimeSchema, { seconds: GO_ZERO_TIME_SECONDS }))).toBe(true);
  });

  it("anything else is not: the Unix epoch, nanos alone, unknown fields", () => {
    expect(isZeroTime(create(TimeSchema, { seconds: 0n }))).toBe(false);
    expect(isZeroTime(create(TimeSchema, { seconds: GO_ZERO_TIME_SECONDS + 1n }))).toBe(false);
    expect(isZeroTime(create(TimeSchema, { nanos: 0 }))).toBe(false);
    const unknown = create(TimeSchema);
    unknown.$unknown = [{ no: 9, wireType: 0, data: new Uint8Array([1]) }];
    expect(isZeroTime(unknown)).toBe(false);
  });
});

describe("zeroScalar", () => {
  it("is Go's zero of each scalar type these schemas use", () => {
    expect(zeroScalar(ScalarType.STRING)).toBe("");
    expect(zeroScalar(ScalarType.BOOL)).toBe(false);
    expect(zeroScalar(ScalarType.INT64)).toBe(0n);
    expect(zeroScalar(ScalarType.INT32)).toBe(0);
    expect(Object.is(zeroScalar(ScalarType.INT32), 0)).toBe(true);
  });
});
