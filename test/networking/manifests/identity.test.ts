// What a document is, read without decoding it (src/networking/manifests/identity.ts): from a
// parsed value (a repeated key's last value, strings only), or from the text of a document that
// does not parse (top-level `kind:` and `apiVersion:` lines, or JSON string members).

import { describe, expect, it } from "vitest";
import {
  identityFromJsonText,
  identityFromText,
  identityOf,
  isObject,
  nameOf,
  unwrapDuplicate,
} from "../../../src/networking/manifests/identity.js";
import { DuplicateKey, parseJsonText } from "../../../src/networking/text/json/parse.js";
import type { JsonValue } from "../../../src/networking/index.js";

describe("identityOf", () => {
  it("apiVersion, kind, and metadata's namespace and name, each only when a string", () => {
    expect(
      identityOf({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", namespace: "shop" } }),
    ).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: "web", namespace: "shop" });
    expect(identityOf({ apiVersion: 1, kind: ["Ingress"], metadata: "web" })).toEqual({});
    for (const value of [null, "Ingress", [{ kind: "Ingress" }], 5]) expect(identityOf(value)).toEqual({});
  });

  it("a key written twice in JSON text counts with its last value, as the decoder reads it", () => {
    const parsed = parseJsonText('{"kind":"Service","kind":"Ingress","metadata":{"name":"a","name":"b"}}');
    expect(identityOf(parsed.value as JsonValue)).toEqual({ kind: "Ingress", name: "b" });
    expect(unwrapDuplicate(new DuplicateKey(["x", "y"]) as unknown as JsonValue)).toBe("y");
    expect(unwrapDuplicate("x")).toBe("x");
  });

  it("nameOf drops an empty name or namespace; isObject is a plain object only", () => {
    expect(nameOf({ name: "", namespace: "shop" })).toEqual({ namespace: "shop" });
    expect(nameOf({ kind: "Ingress", name: "web", namespace: "" })).toEqual({ name: "web" });
    expect([{}, [], null, "x"].map(isObject)).toEqual([true, false, false, false]);
  });
});

describe("identity from text that does not parse", () => {
  it("YAML: top-level kind and apiVersion lines, quoted or not, a comment after; indented ones are not", () => {
    expect(identityFromText('apiVersion: "networking.k8s.io/v1" # v1\nkind: Ingress\nspec: [\n')).toEqual({
      kind: "Ingress",
      apiVersion: "networking.k8s.io/v1",
    });
    expect(identityFromText("metadata:\n  kind: Ingress\n  apiVersion: v1\n")).toEqual({});
    expect(identityFromText("kind: 'Ingress'\n")).toEqual({ kind: "Ingress" });
  });

  it("JSON: the first kind and apiVersion string members, escapes read", () => {
    expect(identityFromJsonText('{"kind": "Ingr\\u0065ss", "apiVersion":"v1", "spec": {')).toEqual({
      kind: "Ingress",
      apiVersion: "v1",
    });
    expect(identityFromJsonText('{"kind": 5, "spec": [')).toEqual({});
  });
});
