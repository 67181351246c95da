// Checks one file's targeted mutations (src/testing/targeted-invalid/) on their own: each names
// its kind and rule, and each draw carries its mutation's name, reads back from its JSON, and
// expects its error where the mutation wrote: the field present, or, for a Required error, absent,
// empty, or the object that lacks a member (a backend without a port). Every draw of each mutation, on objects valid for 1.37, is refused
// by validate() under 1.37 with exactly that error (the 1.35 draws are validate's own property
// test, test/networking/validation/validate.properties.test.ts).
import fc from "fast-check";
import { expect } from "vitest";
import { fromJson, toJsonString, validate } from "../../src/networking/index.js";
import type { ValidatedKind } from "../../src/testing/index.js";
import { ON_VALID_FOR, type Mutation, type TargetedInvalid } from "../../src/testing/targeted-invalid/mutation.js";
import { propertyRuns } from "./property-runs.js";

/** `spec.rules[0].http` as segments: names and indexes. */
export function fieldPath(field: string): (string | number)[] {
  return [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) =>
    m[2] !== undefined ? Number(m[2]) : (m[1] as string),
  );
}

/** The value at `path` in `json`, and whether its parent is an object or list. */
function at(json: unknown, path: readonly (string | number)[]): { value: unknown; parent: boolean } {
  let cur: unknown = json;
  let parent = false;
  for (const [i, seg] of path.entries()) {
    if (cur === null || typeof cur !== "object") return { value: undefined, parent: false };
    if (i === path.length - 1) parent = true;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return { value: cur, parent };
}

const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === "" ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && v !== null && Object.keys(v).length === 0);

/**
 * Where the error's field is in the JSON. The class annotation's path is upstream's
 * `annotations.KEY`, without metadata and with a key that holds dots: it is read as such.
 */
function located(json: unknown, field: string): { value: unknown; parent: boolean } {
  const annotation = /^annotations\.(.+)$/.exec(field);
  if (annotation !== null) return at(json, ["metadata", "annotations", annotation[1] as string]);
  return at(json, fieldPath(field));
}

/** What is wrong with one draw of `m`, if anything: its identity, its JSON, where its error is. */
export function drawProblems(m: Mutation, t: TargetedInvalid): string[] {
  const out: string[] = [];
  if (t.kind !== m.kind) out.push(`kind ${t.kind}, not ${m.kind}`);
  if (t.mutation !== m.name) out.push(`mutation ${t.mutation}`);
  if (toJsonString(fromJson(t.json)) !== toJsonString(t.object)) out.push("object is not its JSON read back");
  const { value, parent } = located(t.json, t.expected.field);
  if (t.expected.type === "FieldValueRequired") {
    if (!isEmpty(value) && typeof value !== "object")
      out.push(`Required at ${t.expected.field}, where the JSON has ${JSON.stringify(value)}`);
  } else if (!parent || value === undefined)
    out.push(`${t.expected.type} at ${t.expected.field}, absent from the JSON`);
  return out;
}

/** The checks of the header on `mutations`, every one of `kind` and named `prefix.*`. */
export function checkMutations(kind: ValidatedKind, prefix: string, mutations: readonly Mutation[], runs = 5): void {
  expect(mutations.length).toBeGreaterThan(0);
  const names = mutations.map((m) => m.name);
  expect(new Set(names).size).toBe(names.length);
  for (const m of mutations) {
    expect(m.kind, m.name).toBe(kind);
    expect(m.name.startsWith(`${prefix}.`), m.name).toBe(true);
    expect(m.rule.trim(), m.name).not.toBe("");
  }
  const wrong: string[] = [];
  for (const m of mutations) {
    const for137 = ON_VALID_FOR.get(m);
    if (for137 === undefined) {
      wrong.push(`${m.name}: no arbitrary for other releases`);
      continue;
    }
    for (const [arb, version] of [
      [m.arbitrary, "1.35"],
      [for137("1.37"), "1.37"],
    ] as const) {
      for (const t of fc.sample(arb, { seed: 11, numRuns: propertyRuns(runs) })) {
        for (const p of drawProblems(m, t)) wrong.push(`${m.name} (${version}): ${p}`);
        if (version === "1.37") {
          const got = validate(t.object, { version }).map((e) => `${e.type} ${e.field}`);
          const want = [`${t.expected.type} ${t.expected.field}`];
          if (JSON.stringify(got) !== JSON.stringify(want))
            wrong.push(`${m.name} (1.37): validate gave ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
        }
      }
    }
  }
  expect(wrong).toEqual([]);
}
