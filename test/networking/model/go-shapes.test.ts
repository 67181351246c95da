// The Go types go-shapes.ts states or derives, as reflect prints them (checked against the
// k8s.io/api structs: encoding/json names them in its type errors).
import { describe, expect, it } from "vitest";
import { buildShape, goTypeName } from "../../../src/networking/model/go-shapes.js";
import { shapeOf } from "../../../src/networking/model/shapes.js";
import {
  HTTPIngressPathSchema,
  IngressRuleSchema,
  IngressSpecSchema,
  NetworkPolicyPortSchema,
  NetworkPolicySpecSchema,
} from "../../../src/networking/index.js";
import { ObjectMetaSchema } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";

const goTypes = (desc: Parameters<typeof shapeOf>[0]) =>
  Object.fromEntries(shapeOf(desc).goOrder.map((f) => [f.jsonKey ?? f.field.name, [f.goType, f.goElement]]));

describe("Go types", () => {
  it("a message's: the package's name and the message's", () => {
    expect(goTypeName(IngressSpecSchema)).toBe("v1.IngressSpec");
    expect(goTypeName(ObjectMetaSchema)).toBe("v1.ObjectMeta");
    const port = shapeOf(NetworkPolicyPortSchema).goOrder.find((f) => f.jsonKey === "port");
    expect(port?.goType).toBe("intstr.IntOrString");
  });

  it("of fields: scalars, messages, lists and maps, and the named types stated with go=", () => {
    expect(goTypes(IngressSpecSchema)).toMatchObject({
      ingressClassName: ["string", "string"],
      defaultBackend: ["v1.IngressBackend", "v1.IngressBackend"],
      rules: ["[]v1.IngressRule", "v1.IngressRule"],
    });
    expect(goTypes(IngressRuleSchema)).toMatchObject({
      ingressRuleValue: ["v1.IngressRuleValue", "v1.IngressRuleValue"],
    });
    expect(goTypes(HTTPIngressPathSchema)).toMatchObject({ pathType: ["v1.PathType", "v1.PathType"] });
    expect(goTypes(NetworkPolicySpecSchema)).toMatchObject({ policyTypes: ["[]v1.PolicyType", "v1.PolicyType"] });
    expect(goTypes(NetworkPolicyPortSchema)).toMatchObject({
      protocol: ["v1.Protocol", "v1.Protocol"],
      endPort: ["int32", "int32"],
    });
    expect(goTypes(ObjectMetaSchema)).toMatchObject({
      uid: ["types.UID", "types.UID"],
      generation: ["int64", "int64"],
      labels: ["map[string]string", "string"],
      finalizers: ["[]string", "string"],
      creationTimestamp: ["v1.Time", "v1.Time"],
    });
  });

  it("refuses a go= flag without a type, as any unknown flag", () => {
    expect(() => buildShape(IngressSpecSchema, "ingressClassName:go= defaultBackend tls rules")).toThrow(
      /unknown flag go=/,
    );
  });
});
