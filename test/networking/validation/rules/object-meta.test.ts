import { create } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IngressClassSchema, IngressSchema, ObjectMetaSchema, validate } from "../../../../src/networking/index.js";
import { FieldPath } from "../../../../src/networking/model/path.js";
import { type FieldError, forbidden, invalid, required } from "../../../../src/networking/validation/field-error.js";
import { isDns1123Label, nameIsDnsSubdomain } from "../../../../src/networking/validation/rules/names.js";
import { emptyObjectMeta, validateObjectMeta } from "../../../../src/networking/validation/rules/object-meta.js";
import { propertyRuns } from "../../../support/property-runs.js";

// validate() builds an empty ObjectMeta without the generated schema (so that
// bundling validate does not load the descriptors); it must be what create()
// gives, down to which fields are own properties.
describe("emptyObjectMeta", () => {
  it("matches create(ObjectMetaSchema): values, own keys and unset scalars", () => {
    const a = emptyObjectMeta() as unknown as Record<string, unknown>;
    const b = create(ObjectMetaSchema) as unknown as Record<string, unknown>;
    expect(Object.keys(a)).toEqual(Object.keys(b));
    for (const f of ObjectMetaSchema.fields) {
      expect(a[f.localName], f.localName).toEqual(b[f.localName]);
      expect(Object.hasOwn(a, f.localName), f.localName).toBe(Object.hasOwn(b, f.localName));
    }
    expect(a["$typeName"]).toBe(b["$typeName"]);
  });

  it("is fresh each time", () => {
    const a = emptyObjectMeta();
    a.labels["x"] = "y";
    a.name = "n";
    expect(emptyObjectMeta().labels).toEqual({});
    expect(emptyObjectMeta().name).toBe("");
  });

  it("validate() gives an object without metadata the same errors as one with an empty ObjectMeta", () => {
    for (const schema of [IngressSchema, IngressClassSchema]) {
      const bare = create(schema as typeof IngressSchema);
      const withMeta = create(schema as typeof IngressSchema, { metadata: create(ObjectMetaSchema) });
      expect(validate(bare)).toEqual(validate(withMeta));
      expect(validate(bare, { old: withMeta })).toEqual(validate(withMeta, { old: withMeta }));
    }
  });
});

// validateObjectMeta checks the usual create (a valid name, a valid namespace
// or none, no generateName) with boolean forms before its reporting path. The
// name, namespace and generation rules written out from the message lists,
// in upstream's order, hold both to the same answers.
describe("validateObjectMeta: name, namespace and generation", () => {
  const at = FieldPath.root("metadata");
  const reference = (name: string, generateName: string, ns: string, generation: bigint, namespaced: boolean) => {
    const out: FieldError[] = [];
    if (generateName.length > 0)
      for (const m of nameIsDnsSubdomain(generateName, true))
        out.push(invalid(at.child("generateName"), generateName, m));
    if (name.length === 0) out.push(required(at.child("name"), "name or generateName is required"));
    else for (const m of nameIsDnsSubdomain(name, false)) out.push(invalid(at.child("name"), name, m));
    if (namespaced) {
      if (ns.length === 0) out.push(required(at.child("namespace")));
      else for (const m of isDns1123Label(ns)) out.push(invalid(at.child("namespace"), ns, m));
    } else if (ns.length > 0) out.push(forbidden(at.child("namespace"), "not allowed on this type"));
    if (generation < 0n) out.push(invalid(at.child("generation"), generation, "must be greater than or equal to 0"));
    return out;
  };
  const long = fc.integer({ min: 60, max: 256 }).map((n) => "ab.c-".repeat(60).slice(0, n).replace(/[.-]$/, "z"));
  const name = fc.oneof(
    fc.constantFrom("", "a", "nginx", "a.b", "-a", "a-", "a..b", "A", "\u00e9", "a/b", "a%b"),
    fc.string({ unit: fc.constantFrom(..."ab9Z-._/%\u00e9".split("")), maxLength: 14 }),
    long,
  );
  it("agrees with the rules written out, and a nameFn of the same rule gives the same errors", () => {
    fc.assert(
      fc.property(
        name,
        fc.oneof(fc.constant(""), name),
        name,
        fc.constantFrom(0n, 1n, -1n),
        fc.boolean(),
        (n, g, ns, generation, namespaced) => {
          const meta = emptyObjectMeta();
          meta.name = n;
          meta.generateName = g;
          meta.generation = generation;
          const fast: FieldError[] = [];
          validateObjectMeta(meta, namespaced, nameIsDnsSubdomain, at, fast, true, ns);
          const generic: FieldError[] = [];
          validateObjectMeta(meta, namespaced, (s, p) => nameIsDnsSubdomain(s, p), at, generic, true, ns);
          const want = reference(n, g, ns, generation, namespaced);
          expect(fast).toEqual(want);
          expect(generic).toEqual(want);
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });
});
