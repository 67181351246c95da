import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { IngressClassSchema, IngressSchema, ObjectMetaSchema, validate } from "../../../../src/networking/index.js";
import { emptyObjectMeta } from "../../../../src/networking/validation/rules/object-meta.js";

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
