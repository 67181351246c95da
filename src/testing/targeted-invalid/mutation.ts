// A targeted mutation: what it is (the types), the mutation() helper that turns an edit of a valid
// object into an arbitrary of targeted invalid objects, and the small editing helpers the kinds share.

import fc from "fast-check";
import { fromJson, type JsonObject, type KubernetesVersion, type NetworkingObject } from "../../networking/index.js";
import { arbValidJson, type ValidatedKind, type ValidObjectOptions } from "../valid-objects.js";

/**
 * The field error types a targeted mutation can expect.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress"), (t) =>
 *     validate(t.object).some((e) => e.type === t.expected.type && e.field === t.expected.field),
 *   ),
 * );
 * ```
 */
export type ExpectedErrorType =
  | "FieldValueRequired"
  | "FieldValueInvalid"
  | "FieldValueNotSupported"
  | "FieldValueForbidden"
  | "FieldValueTooLong";

/**
 * The one field error the API server reports for a targeted invalid object.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress"), (t) =>
 *     validate(t.object).some((e) => e.type === t.expected.type && e.field === t.expected.field),
 *   ),
 * );
 * ```
 */
export interface ExpectedError {
  /** The error's type. */
  readonly type: ExpectedErrorType;
  /** The rendered path (`field.Path.String()`), e.g. `spec.rules[0].host`. */
  readonly field: string;
}

/**
 * A valid object with exactly one violation, and the error the API server reports for it.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbTargetedInvalid } from "clusterwire/testing";
 *
 * fc.assert(
 *   fc.property(arbTargetedInvalid("Ingress"), (t) =>
 *     validate(t.object).some((e) => e.type === t.expected.type && e.field === t.expected.field),
 *   ),
 * );
 * ```
 */
export interface TargetedInvalid {
  /** The object's kind. */
  readonly kind: ValidatedKind;
  /** The mutation's name, e.g. `ingress.host.wildcard-inside`. */
  readonly mutation: string;
  /** The invalid object as Kubernetes JSON. */
  readonly json: JsonObject;
  /** The invalid object, decoded. */
  readonly object: NetworkingObject;
  /** The single error the API server reports for it. */
  readonly expected: ExpectedError;
}

/**
 * One targeted violation: its name, kind, the rule it breaks, and an arbitrary of objects that break it.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { targetedMutations } from "clusterwire/testing";
 *
 * const hostRules = targetedMutations().filter((m) => m.name.startsWith("ingress.host."));
 * for (const m of hostRules) console.log(m.name, m.rule, fc.sample(m.arbitrary, 1)[0]?.expected);
 * ```
 */
export interface Mutation {
  /** The mutation's name, e.g. `ingress.host.wildcard-inside`. */
  readonly name: string;
  /** The kind it mutates. */
  readonly kind: ValidatedKind;
  /** The validation rule the expectation comes from, in a few words (or the upstream function). */
  readonly rule: string;
  /** Objects with this violation and no other. */
  readonly arbitrary: fc.Arbitrary<TargetedInvalid>;
}

// The mutation functions edit a structuredClone of the generated JSON in place.
// biome-ignore lint/suspicious/noExplicitAny: the mutations walk and edit untyped generated JSON (o["spec"]["rules"][0]...); unknown would need a cast at every step
export type Obj = Record<string, any>;

export const REQUIRED = "FieldValueRequired";
export const INVALID = "FieldValueInvalid";
export const NOT_SUPPORTED = "FieldValueNotSupported";
export const FORBIDDEN = "FieldValueForbidden";
export const TOO_LONG = "FieldValueTooLong";

export function mutation<P>(
  name: string,
  kind: ValidatedKind,
  rule: string,
  params: fc.Arbitrary<P> | ((options: ValidObjectOptions) => fc.Arbitrary<P>),
  apply: (o: Obj, p: P) => ExpectedError,
): Mutation {
  const build = (options: ValidObjectOptions) =>
    fc
      .tuple(arbValidJson(kind, options), typeof params === "function" ? params(options) : params)
      .map(([base, p]): TargetedInvalid => {
        const json = structuredClone(base) as Obj;
        const expected = apply(json, p);
        const t: TargetedInvalid = {
          kind,
          mutation: name,
          json: json as JsonObject,
          object: fromJson(json as JsonObject),
          expected,
        };
        // Counterexamples print as the JSON and the expectation, not the decoded message.
        Object.defineProperty(t, fc.toStringMethod, {
          value: () => `${name}: ${stringifyJson(json)} -> ${expected.type} ${expected.field}`,
          enumerable: false,
        });
        return t;
      });
  const m: Mutation = { name, kind, rule, arbitrary: build({}) };
  ON_VALID_FOR.set(m, (version) => build({ version }));
  return m;
}

/** Each mutation's arbitrary over objects that are valid for a given release before the mutation. */
export const ON_VALID_FOR = new WeakMap<Mutation, (version: KubernetesVersion) => fc.Arbitrary<TargetedInvalid>>();

export function stringifyJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)).replace(
    /"x{40,}"/g,
    (m) => `"x...(${m.length - 2})"`,
  );
}

export const err = (type: ExpectedErrorType, field: string): ExpectedError => ({ type, field });

export function ensureObj(o: Obj, key: string): Obj {
  const v = o[key];
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return v as Obj;
  const fresh: Obj = {};
  o[key] = fresh;
  return fresh;
}

export function ensureArr(o: Obj, key: string): Obj[] {
  const v = o[key];
  if (Array.isArray(v)) return v as Obj[];
  const fresh: Obj[] = [];
  o[key] = fresh;
  return fresh;
}

export function pick<T>(xs: readonly T[], n: number): T {
  return xs[n % xs.length] as T;
}
