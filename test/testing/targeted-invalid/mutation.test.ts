// mutation(): an edit of a valid object turned into an arbitrary of targeted invalid objects,
// and the small editing helpers the kinds share.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromJson, toJsonString } from "../../../src/networking/index.js";
import {
  INVALID,
  ON_VALID_FOR,
  err,
  ensureArr,
  ensureObj,
  mutation,
  pick,
  stringifyJson,
  type Obj,
} from "../../../src/testing/targeted-invalid/mutation.js";

describe("mutation", () => {
  const m = mutation("ingressclass.test", "IngressClass", "a rule", fc.integer({ min: 1, max: 9 }), (o, p) => {
    ensureObj(o, "spec")["controller"] = `bad ${p}`;
    return err(INVALID, "spec.controller");
  });

  it("names its kind and rule, and draws objects with the edit applied and its expectation", () => {
    expect({ name: m.name, kind: m.kind, rule: m.rule }).toEqual({
      name: "ingressclass.test",
      kind: "IngressClass",
      rule: "a rule",
    });
    const draws = fc.sample(m.arbitrary, { seed: 4, numRuns: 10 });
    for (const t of draws) {
      expect(t.kind).toBe("IngressClass");
      expect(t.mutation).toBe("ingressclass.test");
      expect(t.expected).toEqual({ type: "FieldValueInvalid", field: "spec.controller" });
      expect((t.json["spec"] as Obj)["controller"]).toMatch(/^bad [1-9]$/);
      expect(toJsonString(t.object)).toBe(toJsonString(fromJson(t.json)));
    }
  });

  it("prints a counterexample as its JSON and expectation, not the decoded message", () => {
    const [t] = fc.sample(m.arbitrary, { seed: 1, numRuns: 1 });
    expect(fc.stringify(t)).toBe(`ingressclass.test: ${stringifyJson(t?.json)} -> FieldValueInvalid spec.controller`);
    expect(Object.keys(t ?? {})).toEqual(["kind", "mutation", "json", "object", "expected"]);
  });

  it("has an arbitrary per release, whose parameters may depend on it", () => {
    const seen: unknown[] = [];
    const per = mutation(
      "ingressclass.per-release",
      "IngressClass",
      "r",
      (options) => {
        seen.push(options.version);
        return fc.constant(options.version ?? "default");
      },
      (o, v) => {
        ensureObj(o, "spec")["controller"] = `x/${v}`;
        return err(INVALID, "spec.controller");
      },
    );
    expect(seen).toEqual([undefined]);
    const for137 = ON_VALID_FOR.get(per)?.("1.37");
    expect(seen).toEqual([undefined, "1.37"]);
    const [t] = fc.sample(for137 ?? fc.constant(undefined), { seed: 1, numRuns: 1 });
    expect(t?.json["spec"]).toMatchObject({ controller: "x/1.37" });
  });
});

describe("the editing helpers", () => {
  it("ensureObj and ensureArr keep what is there, and replace anything of another shape", () => {
    const inner = { a: 1 };
    const list = [{ b: 2 }];
    const o: Obj = { inner, list, str: "s", arr: [1], nul: null, obj: {} };
    expect(ensureObj(o, "inner")).toBe(inner);
    expect(ensureArr(o, "list")).toBe(list);
    for (const k of ["str", "arr", "nul", "missing"]) {
      const fresh = ensureObj(o, k);
      expect(fresh).toEqual({});
      expect(o[k]).toBe(fresh);
    }
    for (const k of ["obj", "gone"]) {
      const fresh = ensureArr(o, k);
      expect(fresh).toEqual([]);
      expect(o[k]).toBe(fresh);
    }
  });

  it("pick wraps around, err builds an expectation", () => {
    expect([0, 1, 2, 3, 7].map((n) => pick(["a", "b", "c"], n))).toEqual(["a", "b", "c", "a", "b"]);
    expect(err("FieldValueRequired", "spec")).toEqual({ type: "FieldValueRequired", field: "spec" });
  });

  it("stringifyJson writes bigints as strings and shortens long runs of x", () => {
    expect(stringifyJson({ n: 10n, s: "a" })).toBe('{"n":"10","s":"a"}');
    expect(stringifyJson({ big: "x".repeat(300) })).toBe('{"big":"x...(300)"}');
    expect(stringifyJson({ short: "x".repeat(39) })).toBe(`{"short":"${"x".repeat(39)}"}`);
  });
});
