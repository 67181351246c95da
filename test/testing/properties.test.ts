// The kit's ready-made properties: each holds for the right implementation
// (clusterwire's own, or the plainly written references of this suite), and
// each fails, with a message saying what disagreed, for a planted bug.

import { clone } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  IngressSchema,
  NetworkPolicySchema,
  createRouter,
  validate,
  type Ingress,
  type NetworkingObject,
  type RouteRequest,
  type RouterInput,
} from "../../src/networking/index.js";
import {
  arbObjectOf,
  propAdmissionAgreesWithValidate,
  propNeverThrows,
  propPolicyEngineAgrees,
  propRoundTrip,
  propRouterAgrees,
  propValidateNeverThrows,
  type AdmissionVerdict,
} from "../../src/testing/index.js";
import { referenceEvaluate } from "../support/policy-reference.js";
import { referenceRoute } from "../support/router-reference.js";
import { propertyRuns } from "../support/property-runs.js";

/** Runs a property that should fail, and returns the error it failed with. */
async function failure(
  property: fc.IAsyncProperty<never> | fc.IAsyncPropertyWithHooks<never>,
  numRuns = 200,
): Promise<string> {
  const details = await fc.check(property as fc.IAsyncProperty<unknown[]>, { numRuns, seed: 4242 });
  expect(details.failed, "the planted bug went unnoticed").toBe(true);
  return details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
}

describe("propRoundTrip", () => {
  it("wire -> JSON -> YAML -> wire is the identity", async () => {
    await fc.assert(propRoundTrip(), { numRuns: propertyRuns(100) });
  });

  it("passes through the caller's stages", async () => {
    let seen = 0;
    await fc.assert(
      propRoundTrip({
        wire: (bytes) => {
          seen++;
          return Uint8Array.from(bytes);
        },
        // Not JSON.parse: it would round int64 values past 2^53.
        json: (text) => ` ${text}\n`,
        yaml: (text) => `# stored by the cache\n${text}`,
      }),
      { numRuns: propertyRuns(60) },
    );
    expect(seen).toBeGreaterThan(0);
  });

  it("fails when a stage loses data: a JSON store that drops annotations", async () => {
    const message = await failure(
      propRoundTrip({
        arbitrary: arbObjectOf("Ingress", { json: true }).filter(
          (o) => Object.keys((o as Ingress).metadata?.annotations ?? {}).length > 0,
        ),
        json: (text) => {
          const v = JSON.parse(text) as { metadata?: { annotations?: unknown } };
          delete v.metadata?.annotations;
          return JSON.stringify(v);
        },
      }) as never,
      50,
    );
    expect(message).toMatch(/the round trip changed the object/);
  });
});

describe("propNeverThrows", () => {
  it("holds for a handler that reads defensively", async () => {
    await fc.assert(
      propNeverThrows((o: NetworkingObject) => {
        if (o.$typeName !== "k8s.io.api.networking.v1.Ingress") return [];
        return (o as Ingress).spec?.rules.map((r) => r.host.toLowerCase()) ?? [];
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it("fails for a handler that assumes every Ingress has a rule", async () => {
    const message = await failure(
      propNeverThrows((o: NetworkingObject) => {
        if (o.$typeName !== "k8s.io.api.networking.v1.Ingress") return;
        return (o as Ingress).spec!.rules[0]!.host;
      }) as never,
    );
    expect(message).toMatch(/the handler threw TypeError/);
  });

  it("lets the handler refuse with the errors it declares", async () => {
    class Refused extends Error {}
    await fc.assert(
      propNeverThrows(
        (o: NetworkingObject) => {
          if (validate(o).length > 0) throw new Refused("invalid");
        },
        { expected: (e) => e instanceof Refused },
      ),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe("propValidateNeverThrows", () => {
  it("holds for validate on any-shape objects", async () => {
    await fc.assert(propValidateNeverThrows(), { numRuns: propertyRuns(200) });
  });
});

describe("propAdmissionAgreesWithValidate", () => {
  const viaValidate = (o: NetworkingObject): AdmissionVerdict => {
    const errors = validate(o);
    return { allowed: errors.length === 0, errors };
  };

  it("holds for an admission function built on validate", async () => {
    await fc.assert(propAdmissionAgreesWithValidate(viaValidate), { numRuns: propertyRuns(300) });
  });

  it("holds for a bare verdict, async", async () => {
    await fc.assert(
      propAdmissionAgreesWithValidate(async (o) => validate(o).length === 0, { kinds: ["NetworkPolicy"] }),
      { numRuns: propertyRuns(100) },
    );
  });

  it("fails when a rule is missing: wildcard hosts are not checked", async () => {
    // Planted bug: drops every error about a rule host.
    const message = await failure(
      propAdmissionAgreesWithValidate(
        (o) => {
          const errors = validate(o).filter((e) => !/^spec\.rules\[\d+\]\.host$/.test(e.field));
          return { allowed: errors.length === 0, errors };
        },
        { kinds: ["Ingress"], invalidShare: 1 },
      ) as never,
      500,
    );
    expect(message).toMatch(/admitted an invalid object \(ingress\.host/);
  });

  it("fails when a denial names the wrong field", async () => {
    const message = await failure(
      propAdmissionAgreesWithValidate(
        (o) => {
          const errors = validate(o);
          return { allowed: errors.length === 0, errors: errors.map((e) => ({ ...e, field: "spec" })) };
        },
        { kinds: ["IngressClass"] },
      ) as never,
    );
    expect(message).toMatch(/denied for other reasons/);
  });

  it("fails for functions that always admit or always deny", async () => {
    expect(await failure(propAdmissionAgreesWithValidate(() => true) as never)).toMatch(/admitted an invalid object/);
    expect(await failure(propAdmissionAgreesWithValidate(() => false) as never)).toMatch(/denied a valid object/);
  });

  it("refuses options that generate nothing", () => {
    expect(() => propAdmissionAgreesWithValidate(() => true, { kinds: [] })).toThrow(TypeError);
    expect(() => propAdmissionAgreesWithValidate(() => true, { invalidShare: 2 })).toThrow(TypeError);
  });
});

describe("propRouterAgrees", () => {
  it("holds for the brute-force reference router of this suite", async () => {
    await fc.assert(
      propRouterAgrees((input, request) => {
        const r = referenceRoute(input, request);
        return r === null ? null : { backend: r.backend, ingress: r.ingress };
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it("accepts backends given as Kubernetes JSON", async () => {
    await fc.assert(
      propRouterAgrees((input, request) => {
        const r = createRouter(input).route(request);
        if (r === null) return null;
        const b = r.backend;
        const backend =
          b.service !== undefined
            ? {
                service: {
                  name: b.service.name,
                  port: b.service.port?.name ? { name: b.service.port.name } : { number: b.service.port?.number ?? 0 },
                },
              }
            : {
                resource: {
                  apiGroup: b.resource?.apiGroup ?? "",
                  kind: b.resource?.kind ?? "",
                  name: b.resource?.name ?? "",
                },
              };
        return { backend, ingress: r.ingress };
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it("fails for a router that treats Exact paths as Prefix", async () => {
    // Planted bug: a controller with no exact-match support.
    const noExact = (input: RouterInput, request: RouteRequest) => {
      const ingresses = input.ingresses.map((ing) => {
        const copy = clone(IngressSchema, ing);
        for (const rule of copy.spec?.rules ?? [])
          for (const p of rule.ingressRuleValue?.http?.paths ?? []) if (p.pathType === "Exact") p.pathType = "Prefix";
        return copy;
      });
      const r = createRouter({ ...input, ingresses }).route(request);
      return r === null ? null : { backend: r.backend, ingress: r.ingress };
    };
    const message = await failure(propRouterAgrees(noExact) as never, 500);
    expect(message).toMatch(/: got .* want /);
  });
});

describe("propPolicyEngineAgrees", () => {
  it("holds for the plainly written reference evaluator of this suite", async () => {
    await fc.assert(
      propPolicyEngineAgrees((cluster, connection) => referenceEvaluate(cluster, connection).allowed),
      { numRuns: propertyRuns(150) },
    );
  });

  it("fails for an engine that forgets except blocks", async () => {
    // Planted bug: every ipBlock loses its except list before evaluation.
    const message = await failure(
      propPolicyEngineAgrees((cluster, connection) => {
        const policies = cluster.policies.map((p) => {
          const q = clone(NetworkPolicySchema, p);
          for (const r of q.spec?.ingress ?? []) for (const peer of r.from) if (peer.ipBlock) peer.ipBlock.except = [];
          for (const r of q.spec?.egress ?? []) for (const peer of r.to) if (peer.ipBlock) peer.ipBlock.except = [];
          return q;
        });
        return referenceEvaluate({ ...cluster, policies }, connection).allowed;
      }) as never,
      500,
    );
    expect(message).toMatch(/got allow, want deny/);
  });
});
