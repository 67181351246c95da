// validate()'s own part: the API server's request pipeline in front of the per-kind rules
// (which ingress.test.ts, network-policy.test.ts and the others test): options and their
// refusals, the release and its feature gates, namespace handling, name generation,
// generation on create, update and status requests, lists, and leaving its input alone.

import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  IngressClassListSchema,
  IngressSchema,
  IPAddressSchema,
  NetworkPolicySchema,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { StatusSchema } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import type { NetworkingObject } from "../../../src/networking/model/kinds.js";
import { KUBERNETES_VERSIONS } from "../../../src/networking/model/kubernetes-version.js";
import { fromJson } from "../../../src/networking/text/json/from-json.js";
import { toJson } from "../../../src/networking/text/json/to-json.js";
import { formatFieldError } from "../../../src/networking/validation/field-error.js";
import {
  DEFAULT_FEATURE_GATES,
  defaultFeatureGates,
  validate,
  type ValidateOptions,
} from "../../../src/networking/validation/validate.js";

const messages = (o: NetworkingObject, options?: ValidateOptions): string[] =>
  validate(o, options).map(formatFieldError);
const fields = (o: NetworkingObject, options?: ValidateOptions): string[] => validate(o, options).map((e) => e.field);

const ingress = (spec: object, meta: object = { name: "shop", namespace: "web" }) =>
  fromJson({ apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata: meta, spec } as never);
const backend = (name: string) => ({ defaultBackend: { service: { name, port: { number: 80 } } } });
const ingressClass = (spec: object, meta: object = { name: "nginx" }) =>
  fromJson({ apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: meta, spec } as never);
const policy = (cidr: string) =>
  fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "p", namespace: "web" },
    spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr } }] }] },
  });

describe("validate: options", () => {
  it("refuses inconsistent options with a TypeError, never the object itself", () => {
    const ic = ingressClass({ controller: "example.com/lb" });
    const cases: [NetworkingObject, ValidateOptions, string][] = [
      [ic, { old: ingress(backend("a")) }, "validate: options.old is a Ingress, not a IngressClass"],
      [ic, { subresource: "scale" as never }, 'validate: unknown subresource "scale"'],
      [ic, { old: ic, subresource: "status" }, "validate: IngressClass has no status subresource"],
      [
        policy("10.0.0.0/8"),
        { old: policy("10.0.0.0/8"), subresource: "status" },
        "validate: NetworkPolicy has no status subresource",
      ],
      [ingress(backend("a")), { subresource: "status" }, "validate: a status update needs options.old"],
      [
        ic,
        { version: "1.36" as never },
        `validate: unknown Kubernetes version "1.36"; known: ${KUBERNETES_VERSIONS.join(", ")}`,
      ],
      [
        create(IngressClassListSchema, { items: [{}] }),
        { old: create(IngressClassListSchema) },
        "validate: update validation takes single objects, not a IngressClassList",
      ],
    ];
    for (const [o, options, message] of cases)
      expect(() => validate(o, options), message).toThrow(new TypeError(message));
  });

  it("no options, empty options and the default release's name give the same errors", () => {
    for (const o of [
      ingress({ rules: [{ host: "*" }] }),
      ingressClass({ controller: "" }, { name: "Bad_Name" }),
      policy("010.0.0.0/8"),
      create(IngressSchema),
    ]) {
      expect(validate(o, {})).toEqual(validate(o));
      expect(validate(o, { version: "1.35" })).toEqual(validate(o));
    }
  });

  it("an object that is not of a served kind is not validated but refused as such", () => {
    expect(() => validate({ $typeName: "x" } as never)).toThrow(/not a top-level object of a supported kind/);
  });
});

describe("validate: releases and feature gates", () => {
  it("1.35 has both gates off; 1.37 has both on", () => {
    expect(defaultFeatureGates()).toBe(DEFAULT_FEATURE_GATES);
    expect(defaultFeatureGates("1.35")).toEqual({ StrictIPCIDRValidation: false, RelaxedServiceNameValidation: false });
    expect(defaultFeatureGates("1.37")).toEqual({ StrictIPCIDRValidation: true, RelaxedServiceNameValidation: true });
    expect(Object.isFrozen(DEFAULT_FEATURE_GATES)).toBe(true);
    expect(Object.isFrozen(defaultFeatureGates("1.37"))).toBe(true);
  });

  it("RelaxedServiceNameValidation: a DNS-1123 (not DNS-1035) Service name passes from 1.37, or when turned on", () => {
    const o = ingress(backend("1abc"));
    expect(fields(o)).toEqual(["spec.defaultBackend.service.name"]);
    expect(fields(o, { version: "1.37" })).toEqual([]);
    expect(fields(o, { featureGates: { RelaxedServiceNameValidation: true } })).toEqual([]);
    // A gate given explicitly wins over the release's default.
    expect(fields(o, { version: "1.37", featureGates: { RelaxedServiceNameValidation: false } })).toEqual([
      "spec.defaultBackend.service.name",
    ]);
  });

  it("StrictIPCIDRValidation: a legacy CIDR spelling is refused from 1.37, or when turned on", () => {
    const o = policy("010.0.0.0/8");
    const strict = [
      'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "010.0.0.0/8": must not have leading 0s in IP or prefix length',
    ];
    expect(messages(o)).toEqual([]);
    expect(messages(o, { featureGates: { StrictIPCIDRValidation: true } })).toEqual(strict);
    expect(messages(o, { version: "1.37" })).toEqual(strict);
    expect(messages(o, { version: "1.37", featureGates: { StrictIPCIDRValidation: false } })).toEqual([]);
  });

  it("from 1.36 on, declarative validation's errors come after the others", () => {
    const o = ingressClass(
      { controller: "", parameters: { kind: "", name: "", scope: "Namespace" } },
      { name: "Bad_Name" },
    );
    expect(fields(o)).toEqual([
      "metadata.name",
      "spec.controller",
      "spec.parameters.kind",
      "spec.parameters.name",
      "spec.parameters.namespace",
    ]);
    expect(fields(o, { version: "1.37" })).toEqual([
      "metadata.name",
      "spec.controller",
      "spec.parameters.namespace",
      "spec.parameters.kind",
      "spec.parameters.name",
    ]);
  });
});

describe("validate: the registry's preparation on create", () => {
  it("an empty namespace is the request's (default: default); a cluster-scoped kind's namespace is dropped", () => {
    expect(fields(ingress(backend("a"), { name: "a" }))).toEqual([]);
    expect(fields(ingress(backend("a"), { name: "a" }), { namespace: "Bad_NS" })).toEqual(["metadata.namespace"]);
    // The object's own namespace is the one checked.
    expect(fields(ingress(backend("a"), { name: "a", namespace: "web" }), { namespace: "Bad_NS" })).toEqual([]);
    expect(fields(ingressClass({ controller: "example.com/lb" }, { name: "a", namespace: "Bad_NS" }))).toEqual([]);
  });

  it("a generateName stands for the name the server would make", () => {
    expect(fields(ingress(backend("a"), { generateName: "web-" }))).toEqual([]);
    expect(fields(ingress(backend("a"), { generateName: "Web_" }))).toEqual(["metadata.generateName", "metadata.name"]);
    expect(messages(ingress(backend("a"), {}))).toEqual([
      "metadata.name: Required value: name or generateName is required",
    ]);
  });

  it("generation is set to 1 for the kinds whose create strategy sets it, and checked for the others", () => {
    expect(fields(create(IngressSchema, { metadata: { name: "a", generation: -5n }, spec: backend("a") }))).toEqual([]);
    expect(
      messages(
        create(IPAddressSchema, {
          metadata: { name: "10.0.0.1", generation: -5n },
          spec: { parentRef: { resource: "services", name: "a" } },
        }),
      ),
    ).toEqual(["metadata.generation: Invalid value: -5: must be greater than or equal to 0"]);
  });
});

describe("validate: updates", () => {
  const stored = (controller: string) =>
    ingressClass({ controller }, { name: "nginx", resourceVersion: "1", uid: "11111111-2222-3333-4444-555555555555" });

  it("compares with the stored object: immutable fields, and the common metadata", () => {
    expect(fields(stored("example.com/a"), { old: stored("example.com/a") })).toEqual([]);
    expect(fields(stored("example.com/b"), { old: stored("example.com/a") })).toEqual(["spec.controller"]);
    const renamed = ingressClass({ controller: "example.com/a" }, { name: "other", resourceVersion: "1" });
    expect(fields(renamed, { old: stored("example.com/a") })).toContain("metadata.name");
  });

  it("a status update does not look at the spec", () => {
    const old = ingress(backend("a"), { name: "shop", namespace: "web", resourceVersion: "1" });
    const next = ingress({ rules: [{ host: "*" }] }, { name: "shop", namespace: "web", resourceVersion: "1" });
    expect(fields(next, { old })).toContain("spec.rules[0].host");
    expect(fields(next, { old, subresource: "status" })).toEqual([]);
  });
});

describe("validate: lists and Status", () => {
  it("validates each item, with its errors under items[i], keeping the Go rendering of values", () => {
    const list = create(IngressClassListSchema, {
      items: [
        { metadata: { name: "ok" }, spec: { controller: "example.com/a" } },
        { metadata: { name: "Bad_Name" }, spec: { controller: "" } },
      ],
    });
    const errors = validate(list);
    expect(errors.map((e) => e.field)).toEqual(["items[1].metadata.name", "items[1].spec.controller"]);
    expect(errors[0]?.path).toEqual(["items", 1, "metadata", "name"]);
    const item = validate(list.items[1]!);
    expect(errors.map(formatFieldError)).toEqual(item.map((e) => `items[1].${formatFieldError(e)}`));
  });

  it("a Status has no rules", () => {
    expect(validate(create(StatusSchema, { code: -1, status: "whatever" }))).toEqual([]);
    expect(validate(create(StatusSchema), { version: "1.37" })).toEqual([]);
  });
});

describe("validate: the input", () => {
  it("is never changed, on create, update or status update", () => {
    const objects = [
      ingress({ rules: [{ host: "*" }] }, { generateName: "web-", generation: -3 }),
      create(NetworkPolicySchema, {
        metadata: { name: "p" },
        spec: { ingress: [{ ports: [{ port: { intVal: 80 } }] }] },
      }),
      ingressClass({ controller: "" }, { name: "x", namespace: "dropped" }),
    ];
    for (const o of objects) {
      const before = JSON.stringify(toJson(o), (_k, v) => (typeof v === "bigint" ? String(v) : v));
      validate(o);
      validate(o, { version: "1.37", namespace: "other" });
      validate(o, { old: o });
      expect(JSON.stringify(toJson(o), (_k, v) => (typeof v === "bigint" ? String(v) : v))).toBe(before);
    }
  });
});
