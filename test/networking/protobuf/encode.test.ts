// Malformed input for encode(): every bad input raises a DecodeError saying
// where (byte offset, path, line/column) and why, and nothing else is thrown.

import { describe, expect, it } from "vitest";
import {
  IngressSchema,
  ObjectMetaSchema,
  create,
  encode,
  encodeWatchEvent,
  fromJson,
} from "../../../src/networking/index.js";
import type { NetworkingObject } from "../../../src/networking/index.js";
import { NP } from "../../support/bad-input.js";
import { encodeError } from "../../support/errors.js";

describe("protobuf: encode refuses what is not a well-typed object, with the path", () => {
  it("a value that is not a top-level object of a supported kind", () => {
    for (const v of [{}, null, undefined, "Ingress", create(ObjectMetaSchema, { name: "a" })]) {
      const e = encodeError(() => encode(v as never));
      expect(e.path).toBe("");
      expect(e.reason).toMatch(/not a top-level object of a supported kind/);
    }
    expect(encodeError(() => encode(create(ObjectMetaSchema) as never)).reason).toContain("ObjectMeta");
  });

  it("a string field holding a number: metadata.name = 5", () => {
    const e = encodeError(() => encode(create(IngressSchema, { metadata: { name: 5 as never } })));
    expect(e.path).toBe("metadata.name");
    expect(e.reason).toMatch(/expected a string, got number/);
    // The watch encoder goes through encode too.
    expect(
      encodeError(() =>
        encodeWatchEvent({ type: "ADDED", object: create(IngressSchema, { metadata: { name: 5 as never } }) }),
      ).path,
    ).toBe("metadata.name");
  });

  it("an int32 that is not an integer, or out of range, names the list indexes", () => {
    const np = (endPort: unknown): NetworkingObject => {
      const o = fromJson(
        `{${NP},"spec":{"ingress":[{"ports":[{"endPort":1}]},{"ports":[{"port":80},{"endPort":2}]}]}}`,
      );
      (o as unknown as { spec: { ingress: { ports: { endPort?: unknown }[] }[] } }).spec.ingress[1]!.ports[1]!.endPort =
        endPort;
      return o;
    };
    for (const bad of [1.5, 2 ** 31, -(2 ** 31) - 1, Number.NaN, "80", 80n]) {
      const e = encodeError(() => encode(np(bad)));
      expect(e.path, String(bad)).toBe("spec.ingress[1].ports[1].endPort");
      expect(e.reason).toMatch(/expected an int32/);
    }
    // The limits themselves are fine.
    expect(() => encode(np(2 ** 31 - 1))).not.toThrow();
    expect(() => encode(np(-(2 ** 31)))).not.toThrow();
  });

  it("an int64 given as a number, or out of range", () => {
    const e = encodeError(() => encode(create(IngressSchema, { metadata: { generation: 5 as never } })));
    expect(e.path).toBe("metadata.generation");
    expect(e.reason).toMatch(/expected an int64 bigint, got number/);
    for (const bad of [2n ** 63n, -(2n ** 63n) - 1n]) {
      const o = create(IngressSchema, { metadata: {} });
      (o.metadata as unknown as { generation: bigint }).generation = bad;
      expect(encodeError(() => encode(o)).path).toBe("metadata.generation");
    }
    const ok = create(IngressSchema, { metadata: { generation: -(2n ** 63n) } });
    expect(() => encode(ok)).not.toThrow();
  });

  it("Time seconds as a number, a bool as a string, bytes as a string, a label value as a number", () => {
    expect(
      encodeError(() => encode(create(IngressSchema, { metadata: { creationTimestamp: { seconds: 5 as never } } })))
        .path,
    ).toBe("metadata.creationTimestamp.seconds");
    const owner = fromJson({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      metadata: { ownerReferences: [{ name: "a" }, { name: "b", controller: true }] },
    });
    (owner as unknown as { metadata: { ownerReferences: { controller: unknown }[] } }).metadata
      .ownerReferences[1]!.controller = "yes";
    const b = encodeError(() => encode(owner));
    expect(b.path).toBe("metadata.ownerReferences[1].controller");
    expect(b.reason).toMatch(/expected a boolean, got a string$/);
    const mf = fromJson({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
      metadata: { managedFields: [{ manager: "m", fieldsV1: {} }] },
    });
    (mf as unknown as { metadata: { managedFields: { fieldsV1: { Raw: unknown } }[] } }).metadata
      .managedFields[0]!.fieldsV1.Raw = "{}";
    expect(encodeError(() => encode(mf)).path).toBe("metadata.managedFields[0].fieldsV1.Raw");
    const l = encodeError(() =>
      encode(create(IngressSchema, { metadata: { labels: { "app.kubernetes.io/name": 5 as never } } })),
    );
    expect(l.path).toBe("metadata.labels.app.kubernetes.io/name");
    expect(l.reason).toMatch(/expected a string map value, got number/);
  });

  // BUG: a repeated string field holding a string is written one character
  // per element (finalizers "abc" encodes as 72 01 61 72 01 62 72 01 63)
  // instead of being refused.
  it("a repeated string field holding a plain string is refused", () => {
    const o = create(IngressSchema, { metadata: {} });
    (o.metadata as unknown as { finalizers: unknown }).finalizers = "abc";
    expect(encodeError(() => encode(o)).path).toBe("metadata.finalizers");
  });
});
