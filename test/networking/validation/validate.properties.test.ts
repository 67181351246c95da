// Property tests for validate(): valid-by-construction objects pass, targeted
// single violations give exactly the one expected error, and any-shape objects
// never make it throw or mutate its input.
//
// CLUSTERWIRE_PROPERTY_RUNS=N sets every property's run count to N (test/support/property-runs.ts; defaults
// keep the file at a few seconds).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fromJson,
  toJson,
  validate,
  type FieldError,
  type JsonObject,
  type NetworkingObject,
} from "../../../src/networking/index.js";
import {
  VALIDATED_KINDS,
  arbLegacyOnlyCidr,
  arbNetworkPolicyJson,
  arbTargetedInvalid,
  arbValidJson,
  expectedOnSelfUpdate,
  targetedMutations,
  type TargetedInvalid,
  arbObjectOf,
  NETWORKING_KINDS,
  type ValidatedKind,
} from "../../../src/testing/index.js";
import { FIELD_ERROR_TYPES } from "../../support/field-error-types.js";
import { propertyRuns } from "../../support/property-runs.js";

const ERROR_TYPES = new Set<string>(FIELD_ERROR_TYPES);

/** field.Path.String(): names joined with ".", indexes as "[i]". */
function render(path: readonly (string | number)[]): string {
  let out = "";
  for (const s of path) out += typeof s === "number" ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}

function expectWellFormed(errors: unknown): void {
  expect(Array.isArray(errors)).toBe(true);
  for (const e of errors as FieldError[]) {
    expect(ERROR_TYPES.has(e.type), `type ${String(e.type)}`).toBe(true);
    expect(Array.isArray(e.path)).toBe(true);
    expect(e.path.length).toBeGreaterThan(0);
    for (const s of e.path)
      expect(typeof s === "string" || (typeof s === "number" && Number.isInteger(s) && s >= 0)).toBe(true);
    expect(e.field).toBe(render(e.path));
    expect(typeof e.detail).toBe("string");
    expect(e.badValue).not.toBeUndefined();
  }
}

/** Short form for failure messages. */
const brief = (errors: readonly FieldError[]): string[] => errors.map((e) => `${e.type} ${e.field}: ${e.detail}`);

function withResourceVersion(json: JsonObject, kind: ValidatedKind): JsonObject {
  const copy = structuredClone(json) as Record<string, JsonObject>;
  const metadata = { ...(copy["metadata"] ?? {}) };
  metadata["resourceVersion"] = "12345";
  // The stored object of a namespaced kind always has its namespace.
  if ((kind === "Ingress" || kind === "NetworkPolicy") && metadata["namespace"] === undefined)
    metadata["namespace"] = "default";
  copy["metadata"] = metadata;
  return copy as JsonObject;
}

describe("valid-by-construction objects", () => {
  for (const kind of VALIDATED_KINDS) {
    it(`${kind}: validate() returns []`, () => {
      fc.assert(
        fc.property(arbValidJson(kind), (json) => {
          const errors = validate(fromJson(json));
          expect(brief(errors)).toEqual([]);
        }),
        { numRuns: propertyRuns(200) },
      );
    });

    it(`${kind}: an update to itself (resourceVersion set) returns []`, () => {
      fc.assert(
        fc.property(arbValidJson(kind), (json) => {
          const j = withResourceVersion(json, kind);
          const errors = validate(fromJson(j), { old: fromJson(j) });
          expect(brief(errors)).toEqual([]);
        }),
        { numRuns: propertyRuns(150) },
      );
    });
  }

  for (const kind of ["Ingress", "ServiceCIDR"] as const) {
    it(`${kind}: a status update to itself returns []`, () => {
      fc.assert(
        fc.property(arbValidJson(kind), (json) => {
          const j = withResourceVersion(json, kind);
          const errors = validate(fromJson(j), { old: fromJson(j), subresource: "status" });
          expect(brief(errors)).toEqual([]);
        }),
        { numRuns: propertyRuns(100) },
      );
    });
  }

  it("a List of valid objects returns []", () => {
    fc.assert(
      fc.property(fc.constantFrom(...VALIDATED_KINDS), fc.nat(), (kind, seed) => {
        const items = fc.sample(arbValidJson(kind), { numRuns: 3, seed });
        const list = fromJson({ apiVersion: "networking.k8s.io/v1", kind: `${kind}List`, metadata: {}, items });
        expect(brief(validate(list))).toEqual([]);
      }),
      { numRuns: propertyRuns(30) },
    );
  });
});

describe("targeted single violations", () => {
  // Each mutation on its own, so every one is exercised and a failure is named.
  for (const m of targetedMutations()) {
    it(`${m.name} -> ${m.rule}`, () => {
      fc.assert(
        fc.property(m.arbitrary, (t) => {
          const errors = validate(t.object);
          expectWellFormed(errors);
          expect(brief(errors)).toHaveLength(1);
          expect({ type: errors[0]!.type, field: errors[0]!.field }).toEqual(t.expected);
        }),
        { numRuns: propertyRuns(20) },
      );
    });
  }

  it("all mutations mixed: exactly one error, as expected", () => {
    fc.assert(
      fc.property(arbTargetedInvalid(), (t) => {
        const errors = validate(t.object);
        expect(errors.map((e) => ({ type: e.type, field: e.field }))).toEqual([t.expected]);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});

// Mutations whose self-update outcome the validator does not match yet; see
// the "known disagreements" block below.
const CIDR_RATCHET = new Set(["networkpolicy.ipBlock.cidr-invalid", "networkpolicy.ipBlock.except-unparseable"]);
const SELF_UPDATE_KINDS = ["Ingress", "IngressClass", "NetworkPolicy", "IPAddress"] as const;

function selfUpdateErrors(t: TargetedInvalid): string[] {
  const j = withResourceVersion(t.json, t.kind);
  const errors = validate(fromJson(j), { old: fromJson(j) });
  expectWellFormed(errors);
  return errors.map(key).sort();
}
const key = (e: { type: string; field: string }): string => `${e.type} ${e.field}`;

describe("targeted violations as an update to themselves", () => {
  for (const kind of SELF_UPDATE_KINDS) {
    it(`${kind}: ratchets drop the error, repeated checks report it again`, () => {
      fc.assert(
        fc.property(
          arbTargetedInvalid(kind).filter((t) => !CIDR_RATCHET.has(t.mutation)),
          (t) => {
            expect(selfUpdateErrors(t)).toEqual(expectedOnSelfUpdate(t).map(key).sort());
          },
        ),
        { numRuns: propertyRuns(100) },
      );
    });
  }
});

// The CIDR ratchet (§7.4) reaches only half of a NetworkPolicy update: the
// registry runs ValidateNetworkPolicy (no ratchet) and then
// ValidateNetworkPolicyUpdate (with the old CIDRs allowed), so a stored CIDR
// that fails the format check is reported once, by the first half. This is
// upstream's behaviour (pkg/registry/networking/networkpolicy/strategy.go),
// not the KEP's intent, and clusterwire reproduces it.
describe("the CIDR ratchet covers only the update half", () => {
  it("an unchanged unparseable ipBlock CIDR is reported exactly once on update", () => {
    const mutations = targetedMutations().filter((m) => CIDR_RATCHET.has(m.name));
    fc.assert(
      fc.property(fc.oneof(...mutations.map((m) => m.arbitrary)), (t) => {
        expect(selfUpdateErrors(t)).toEqual([key(t.expected)]);
      }),
      { numRuns: propertyRuns(50) },
    );
  });

  it("with StrictIPCIDRValidation, a stored legacy CIDR is reported once, and only ipBlock CIDRs are", () => {
    fc.assert(
      fc.property(arbValidJson("NetworkPolicy"), (json) => {
        const j = withResourceVersion(json, "NetworkPolicy");
        const options = { old: fromJson(j), featureGates: { StrictIPCIDRValidation: true } };
        const errors = validate(fromJson(j), options);
        const fields = errors.map((e) => e.field);
        for (const e of errors) {
          expect(e.type).toBe("FieldValueInvalid");
          expect(e.field).toMatch(/\.ipBlock\.(cidr|except\[\d+\])$/);
        }
        expect(new Set(fields).size).toBe(fields.length);
        // The same object validated on create with the gate on reports the same fields.
        const created = validate(fromJson(j), { featureGates: { StrictIPCIDRValidation: true } })
          .filter((e) => /\.ipBlock\./.test(e.field))
          .map((e) => e.field);
        expect(fields.sort()).toEqual(created.sort());
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe("feature gates", () => {
  const STRICT = { featureGates: { StrictIPCIDRValidation: true } };

  it("StrictIPCIDRValidation: a NetworkPolicy with strict-compatible CIDRs passes", () => {
    fc.assert(
      fc.property(arbNetworkPolicyJson({ legacy: false }), (json) => {
        expect(brief(validate(fromJson(json), STRICT))).toEqual([]);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it("a legacy-only CIDR spelling: accepted by default, one Invalid with StrictIPCIDRValidation", () => {
    fc.assert(
      fc.property(arbNetworkPolicyJson({ legacy: false }), arbLegacyOnlyCidr(), fc.boolean(), (json, cidr, egress) => {
        const j = structuredClone(json) as Record<string, Record<string, unknown>>;
        const dir = egress ? "egress" : "ingress";
        const rules = (j["spec"]![dir] as unknown[] | undefined) ?? [];
        rules.push({ [egress ? "to" : "from"]: [{ ipBlock: { cidr } }] });
        j["spec"]![dir] = rules;
        const at = `spec.${dir}[${rules.length - 1}].${egress ? "to" : "from"}[0].ipBlock.cidr`;
        const obj = fromJson(j as JsonObject);
        expect(brief(validate(obj))).toEqual([]);
        expect(validate(obj, STRICT).map(key)).toEqual([`FieldValueInvalid ${at}`]);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it("RelaxedServiceNameValidation: a DNS-1123 (not DNS-1035) Service name passes", () => {
    const serviceName = targetedMutations().find((m) => m.name === "ingress.backend.service-name")!;
    fc.assert(
      fc.property(
        // "1abc" is the one bad name in the list that is a DNS-1123 label.
        serviceName.arbitrary.filter((t) => /^[0-9]/.test(nameAt(t))),
        (t) => {
          expect(brief(validate(t.object, { featureGates: { RelaxedServiceNameValidation: true } }))).toEqual([]);
        },
      ),
      { numRuns: propertyRuns(50) },
    );
  });
});

/** The Service name of the backend a service-name mutation broke. */
function nameAt(t: TargetedInvalid): string {
  const at = t.expected.field.replace(/\.service\.name$/, "");
  let cur: unknown = t.json;
  for (const part of at.split(/\.|(?=\[)/)) {
    const idx = /^\[(\d+)\]$/.exec(part);
    cur = idx === null ? (cur as Record<string, unknown>)[part] : (cur as unknown[])[Number(idx[1])];
  }
  return ((cur as { service?: { name?: string } }).service?.name ?? "") as string;
}

describe("any-shape objects", () => {
  for (const kind of NETWORKING_KINDS) {
    it(`${kind}: validate() never throws and returns well-formed errors`, () => {
      fc.assert(
        fc.property(arbObjectOf(kind), (obj) => {
          expectWellFormed(validate(obj));
        }),
        { numRuns: propertyRuns(kind.endsWith("List") ? 20 : 40) },
      );
    });
  }

  for (const kind of VALIDATED_KINDS) {
    const hasStatus = kind === "Ingress" || kind === "ServiceCIDR";
    it(`${kind}: validate() with random old/options never throws`, () => {
      fc.assert(
        fc.property(
          arbObjectOf(kind),
          arbObjectOf(kind),
          fc.boolean(),
          fc.record(
            { StrictIPCIDRValidation: fc.boolean(), RelaxedServiceNameValidation: fc.boolean() },
            { requiredKeys: [] },
          ),
          fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
          (obj, old, status, featureGates, namespace) => {
            const options = {
              old,
              featureGates,
              ...(status && hasStatus ? { subresource: "status" as const } : {}),
              ...(namespace === undefined ? {} : { namespace }),
            };
            expectWellFormed(validate(obj, options));
          },
        ),
        { numRuns: propertyRuns(40) },
      );
    });
  }
});

describe("the namespace the registry fills in", () => {
  // validate() passes the request namespace to the rules instead of copying
  // the object to write it in: it must be the same as writing it in.
  const withNamespace = (json: JsonObject, namespace: string | undefined): NetworkingObject => {
    const meta = { ...((json["metadata"] ?? {}) as JsonObject) };
    if (namespace === undefined) delete meta["namespace"];
    else meta["namespace"] = namespace;
    return fromJson({ ...json, metadata: meta });
  };

  for (const kind of VALIDATED_KINDS) {
    const namespaced = kind === "Ingress" || kind === "NetworkPolicy";
    it(`${kind}: ${namespaced ? "an absent namespace is the request's" : "a namespace in the body is dropped"}`, () => {
      fc.assert(
        fc.property(
          fc.oneof(
            arbValidJson(kind),
            arbObjectOf(kind, { json: true }).map((o) => toJson(o) as JsonObject),
          ),
          fc.constantFrom("default", "team-a", "Bad_NS", "a".repeat(64), ""),
          (json, namespace) => {
            const absent = withNamespace(json, undefined);
            const written = withNamespace(json, namespaced ? namespace || "default" : "");
            const options = namespace === "" ? {} : { namespace };
            expect(validate(absent, options)).toEqual(validate(written));
            if (!namespaced) expect(validate(withNamespace(json, namespace || "x"))).toEqual(validate(written));
          },
        ),
        { numRuns: propertyRuns(60) },
      );
    });
  }
});

describe("validate() does not modify its input", () => {
  const snapshot = (o: NetworkingObject): string =>
    JSON.stringify(toJson(o), (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));

  for (const kind of NETWORKING_KINDS) {
    it(`${kind}: any-shape object and old unchanged`, () => {
      const single = !kind.endsWith("List");
      fc.assert(
        fc.property(arbObjectOf(kind, { json: true }), arbObjectOf(kind, { json: true }), (obj, old) => {
          const before = snapshot(obj);
          const oldBefore = snapshot(old);
          validate(obj);
          if (single) validate(obj, { old });
          expect(snapshot(obj)).toBe(before);
          expect(snapshot(old)).toBe(oldBefore);
        }),
        { numRuns: propertyRuns(40) },
      );
    });
  }

  it("valid and targeted-invalid objects unchanged (create and update)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...VALIDATED_KINDS).chain((k) => arbValidJson(k)),
          arbTargetedInvalid().map((t) => t.json),
        ),
        (json) => {
          const obj = fromJson(json);
          const old = fromJson(json);
          const before = snapshot(obj);
          validate(obj);
          validate(obj, { old });
          expect(snapshot(obj)).toBe(before);
          expect(snapshot(old)).toBe(before);
        },
      ),
      { numRuns: propertyRuns(150) },
    );
  });
});
