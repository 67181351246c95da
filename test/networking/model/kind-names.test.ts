import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { file_k8s_io_api_networking_v1_networking } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { ObjectMetaSchema, StatusSchema } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { EncodeError } from "../../../src/networking/model/errors.js";
import {
  describeType,
  KIND_NAMES,
  kindNameByTypeName,
  kindNameOf,
  NETWORKING_API_VERSION,
  notAKind,
  supportedKinds,
} from "../../../src/networking/model/kind-names.js";

// The API's own facts: which networking.k8s.io/v1 resources are namespaced.
const NAMESPACED = new Set(["Ingress", "NetworkPolicy"]);
const CLUSTER_SCOPED = new Set(["IngressClass", "IPAddress", "ServiceCIDR", "Status"]);

describe("KIND_NAMES", () => {
  it("names each top-level networking.k8s.io/v1 message of the generated file, and v1 Status", () => {
    const topLevel = file_k8s_io_api_networking_v1_networking.messages
      .map((m) => m.typeName)
      .filter((t) => KIND_NAMES.some((k) => k.typeName === t));
    expect(topLevel.sort()).toEqual(
      KIND_NAMES.filter((k) => k.kind !== "Status")
        .map((k) => k.typeName)
        .sort(),
    );
    for (const k of KIND_NAMES) {
      if (k.kind === "Status") {
        expect(k).toEqual({
          apiVersion: "v1",
          kind: "Status",
          typeName: StatusSchema.typeName,
          list: false,
          namespaced: false,
        });
        continue;
      }
      expect(k.apiVersion).toBe(NETWORKING_API_VERSION);
      expect(k.typeName).toBe(`k8s.io.api.networking.v1.${k.kind}`);
    }
  });

  it("every kind has its List, with the same scope; lists are marked", () => {
    for (const k of KIND_NAMES.filter((x) => !x.list && x.kind !== "Status")) {
      const list = KIND_NAMES.find((x) => x.kind === `${k.kind}List`);
      expect(list, `${k.kind}List`).toBeDefined();
      expect(list?.list).toBe(true);
      expect(list?.namespaced).toBe(k.namespaced);
    }
    expect(KIND_NAMES.filter((k) => k.list).every((k) => k.kind.endsWith("List"))).toBe(true);
  });

  it("scope: Ingress and NetworkPolicy are namespaced, the rest cluster-scoped", () => {
    for (const k of KIND_NAMES) {
      const base = k.list ? k.kind.slice(0, -"List".length) : k.kind;
      expect(NAMESPACED.has(base) || CLUSTER_SCOPED.has(base), base).toBe(true);
      expect(k.namespaced, k.kind).toBe(NAMESPACED.has(base));
    }
  });

  it("the group/version is networking.k8s.io/v1", () => {
    expect(NETWORKING_API_VERSION).toBe("networking.k8s.io/v1");
  });
});

describe("kindNameOf", () => {
  it("finds each kind by its $typeName, whatever else the object holds", () => {
    for (const k of KIND_NAMES) expect(kindNameOf({ $typeName: k.typeName })).toBe(k);
    expect(kindNameOf(create(StatusSchema)).kind).toBe("Status");
  });

  it("the switch agrees with KIND_NAMES, for computed (not interned) names and near misses", () => {
    for (const k of KIND_NAMES) {
      // A name built at run time is a different string object with the same text.
      const built = [...k.typeName].join("");
      expect(kindNameByTypeName(built)).toBe(k);
      for (const miss of [
        k.typeName.toLowerCase(),
        k.typeName.slice(0, -1),
        `${k.typeName} `,
        k.typeName.replace("v1", "v1beta1"),
      ])
        if (miss !== k.typeName) expect(kindNameByTypeName(miss), miss).toBeUndefined();
    }
    for (const other of ["", "toString", "constructor", "__proto__", "Ingress", ObjectMetaSchema.typeName])
      expect(kindNameByTypeName(other), other).toBeUndefined();
  });

  it("throws an EncodeError, at no path, for anything else", () => {
    for (const v of [
      null,
      undefined,
      {},
      [],
      "Ingress",
      5,
      { $typeName: 5 },
      create(ObjectMetaSchema),
      { $typeName: "Ingress" },
    ]) {
      const thrown = (() => {
        try {
          kindNameOf(v);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(thrown, JSON.stringify(v)).toBeInstanceOf(EncodeError);
      expect((thrown as EncodeError).path).toBe("");
      expect((thrown as EncodeError).message).toBe(notAKind(v).message);
    }
  });
});

describe("notAKind, supportedKinds, describeType", () => {
  it("the message names what it got and lists every kind", () => {
    expect(notAKind(create(ObjectMetaSchema)).reason).toBe(
      `not a top-level object of a supported kind (got k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta); supported: ${supportedKinds()}`,
    );
    expect(notAKind(null).reason).toContain("(got null)");
    expect(notAKind([1]).reason).toContain("(got an array)");
    expect(notAKind("x").reason).toContain("(got string)");
    expect(notAKind(new Map()).reason).toContain("(got Map)");
  });

  it("supportedKinds is apiVersion/kind of each, in order, comma-separated", () => {
    expect(supportedKinds()).toBe(KIND_NAMES.map((k) => `${k.apiVersion}/${k.kind}`).join(", "));
    expect(supportedKinds()).toMatch(/^networking\.k8s\.io\/v1\/Ingress, networking\.k8s\.io\/v1\/IngressList, /);
    expect(supportedKinds()).toMatch(/, v1\/Status$/);
  });

  it("describeType: null, arrays, class names, a prototype-less object, primitives", () => {
    expect(describeType(null)).toBe("null");
    expect(describeType([])).toBe("an array");
    expect(describeType({})).toBe("Object");
    expect(describeType(new Uint8Array())).toBe("Uint8Array");
    expect(describeType(new (class Custom {})())).toBe("Custom");
    expect(describeType(Object.create(null))).toBe("an object");
    expect(describeType(undefined)).toBe("undefined");
    expect(describeType(1n)).toBe("bigint");
    expect(describeType("s")).toBe("string");
    expect(describeType(() => 0)).toBe("function");
  });
});
