// The shared names and values, each against what it names: the Kubernetes constant it is (as
// the API and client-go spell it), or the generated schema it stands for.

import { describe, expect, it } from "vitest";
import {
  IngressClassSchema,
  IngressSchema,
  NetworkPolicySchema,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import * as constants from "../../../src/networking/model/constants.js";

describe("constants", () => {
  it("annotation and label names are the well-known Kubernetes keys", () => {
    expect(constants.INGRESS_CLASS_ANNOTATION).toBe("kubernetes.io/ingress.class");
    expect(constants.DEFAULT_CLASS_ANNOTATION).toBe("ingressclass.kubernetes.io/is-default-class");
    expect(constants.NAMESPACE_NAME_LABEL).toBe("kubernetes.io/metadata.name");
    expect(constants.DEFAULT_NAMESPACE).toBe("default");
  });

  it("each is a qualified name with a DNS prefix (prefix/name), as labels and annotations need", () => {
    for (const key of [
      constants.INGRESS_CLASS_ANNOTATION,
      constants.DEFAULT_CLASS_ANNOTATION,
      constants.NAMESPACE_NAME_LABEL,
    ]) {
      expect(key).toMatch(
        /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9][-A-Za-z0-9_.]*$/,
      );
    }
  });

  it("the evaluators' type names are those of the generated schemas", () => {
    expect(constants.INGRESS_TYPE).toBe(IngressSchema.typeName);
    expect(constants.INGRESS_CLASS_TYPE).toBe(IngressClassSchema.typeName);
    expect(constants.NETWORK_POLICY_TYPE).toBe(NetworkPolicySchema.typeName);
  });

  it("media types are the API server's: protobuf, and the watch streams (the protobuf one a parameter of it)", () => {
    expect(constants.PROTOBUF_MEDIA_TYPE).toBe("application/vnd.kubernetes.protobuf");
    expect(constants.PROTOBUF_WATCH_MEDIA_TYPE).toBe(`${constants.PROTOBUF_MEDIA_TYPE};stream=watch`);
    expect(constants.JSON_WATCH_MEDIA_TYPE).toBe("application/json;stream=watch");
  });

  it("exports exactly these names, all strings", () => {
    expect(Object.keys(constants).sort()).toEqual([
      "DEFAULT_CLASS_ANNOTATION",
      "DEFAULT_NAMESPACE",
      "INGRESS_CLASS_ANNOTATION",
      "INGRESS_CLASS_TYPE",
      "INGRESS_TYPE",
      "JSON_WATCH_MEDIA_TYPE",
      "NAMESPACE_NAME_LABEL",
      "NETWORK_POLICY_TYPE",
      "PROTOBUF_MEDIA_TYPE",
      "PROTOBUF_WATCH_MEDIA_TYPE",
    ]);
    for (const v of Object.values(constants)) expect(typeof v).toBe("string");
  });
});
