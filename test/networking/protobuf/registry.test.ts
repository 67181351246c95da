import type { DescMessage } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  IngressClassSchema,
  IngressSchema,
  IPBlockSchema,
  NetworkPolicySchema,
} from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { TimeSchema, WatchEventSchema } from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { KINDS } from "../../../src/networking/model/kinds.js";
import { createRegistry, networkingRegistry } from "../../../src/networking/protobuf/registry.js";

/** A plain reference: every message type reachable from `roots` through message fields. */
function reachable(roots: readonly DescMessage[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
    if (seen.has(d.typeName)) continue;
    seen.add(d.typeName);
    for (const f of d.fields) if (f.message !== undefined) queue.push(f.message);
  }
  return seen;
}

describe("createRegistry", () => {
  it("holds the given types and every type their fields reach, each once", () => {
    const r = createRegistry(IngressSchema);
    expect(new Set(r.typeNames())).toEqual(reachable([IngressSchema]));
    expect(r.typeNames()).toHaveLength(new Set(r.typeNames()).size);
    expect(r.getMessage(IngressSchema.typeName)).toBe(IngressSchema);
    expect(r.getMessage(TimeSchema.typeName)).toBe(TimeSchema);
    // NetworkPolicy's parts are not reachable from an Ingress.
    expect(r.getMessage(IPBlockSchema.typeName)).toBeUndefined();
    expect(r.getMessage("no.such.Type")).toBeUndefined();
  });

  it("lists names in registration order: each given type before what it reaches, then the next", () => {
    const names = createRegistry(IngressClassSchema, NetworkPolicySchema).typeNames();
    expect(names[0]).toBe(IngressClassSchema.typeName);
    expect(names.indexOf(NetworkPolicySchema.typeName)).toBeGreaterThan(
      names.indexOf("k8s.io.api.networking.v1.IngressClassSpec"),
    );
    // A type both reach is listed where it was first met.
    expect(names.filter((n) => n === "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta")).toHaveLength(1);
  });

  it("registries are independent values, never filled by another", () => {
    const a = createRegistry(IPBlockSchema);
    const b = createRegistry(IngressSchema);
    expect(a.typeNames()).toEqual([IPBlockSchema.typeName]);
    expect(b.getMessage(IPBlockSchema.typeName)).toBeUndefined();
    expect(createRegistry().typeNames()).toEqual([]);
  });

  it("typeNames returns a fresh array each time", () => {
    const r = createRegistry(IPBlockSchema);
    (r.typeNames() as string[]).push("x");
    expect(r.typeNames()).toEqual([IPBlockSchema.typeName]);
  });
});

describe("networkingRegistry", () => {
  it("is every served kind and WatchEvent, with all they reach", () => {
    const r = networkingRegistry();
    expect(new Set(r.typeNames())).toEqual(reachable([...KINDS.map((k) => k.desc), WatchEventSchema]));
    for (const k of KINDS) expect(r.getMessage(k.desc.typeName)).toBe(k.desc);
    expect(r.getMessage(WatchEventSchema.typeName)).toBe(WatchEventSchema);
  });

  it("is created once", () => {
    expect(networkingRegistry()).toBe(networkingRegistry());
  });
});
