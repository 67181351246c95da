import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WARNING_BUDGET, admit, reviewAdmission } from "../../src/admission/admit.js";
import { AdmissionReviewError, type AdmissionRequest } from "../../src/admission/review.js";
import { IngressCaptureIndex } from "../../src/admission/guards/ingress-capture.js";
import {
  fromJson,
  lookupKind,
  toJsonString,
  toStatus,
  validate,
  warnings,
  type Ingress,
  type JsonObject,
  type JsonValue,
} from "../../src/networking/index.js";
import { arbAnyValidJson, arbNetworkPolicyJson, propAdmissionAgreesWithValidate } from "../../src/testing/index.js";
import { propertyRuns } from "../support/property-runs.js";

const UID = "705ab4f5-6393-11e8-b7cc-42010a800002";
const NETWORKING = "networking.k8s.io";

function request(kind: string, fields: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    uid: UID,
    kind: { group: NETWORKING, version: "v1", kind },
    subResource: "",
    name: "",
    namespace: "",
    operation: "CREATE",
    object: null,
    oldObject: null,
    dryRun: false,
    ...fields,
  };
}

const backend = { service: { name: "web", port: { number: 80 } } };
const ingress = (name: string, extra: JsonObject = {}): JsonObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name },
  spec: { defaultBackend: backend },
  ...extra,
});

const RFC1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe("admit", () => {
  it("agrees with validate on valid objects and on each targeted violation (propAdmissionAgreesWithValidate)", async () => {
    const viaWebhook = (_: unknown, json: JsonObject) => {
      const kind = json["kind"] as string;
      const own = (json["metadata"] as { namespace?: string } | undefined)?.namespace ?? "";
      // The API server sends the request's namespace for namespaced kinds; the object's own equals it.
      const namespace = lookupKind("networking.k8s.io/v1", kind)?.namespaced ? own || "default" : "";
      const out = reviewAdmission({
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        request: {
          uid: UID,
          kind: { group: NETWORKING, version: "v1", kind },
          operation: "CREATE",
          namespace,
          object: json,
        },
      });
      expect(out.response.uid).toBe(UID);
      const causes = out.response.status?.details?.causes ?? [];
      return { allowed: out.response.allowed, errors: causes.map((c) => ({ type: c.reason, field: c.field })) };
    };
    await fc.assert(propAdmissionAgreesWithValidate(viaWebhook), { numRuns: propertyRuns(300) });
  });

  it("denies with the Status the API server returns: 422, Invalid, message, details and causes", () => {
    const out = reviewAdmission({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: { ...request("Ingress", { namespace: "shop", object: ingress("Bad_Name") }) },
    });
    expect(out).toEqual({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: {
        uid: UID,
        allowed: false,
        status: {
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message: `Ingress.networking.k8s.io "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${RFC1123}`,
          reason: "Invalid",
          details: {
            name: "Bad_Name",
            group: NETWORKING,
            kind: "Ingress",
            causes: [
              { reason: "FieldValueInvalid", message: `Invalid value: "Bad_Name": ${RFC1123}`, field: "metadata.name" },
            ],
          },
          code: 422,
        },
      },
    });
  });

  it("writes the denial's Status with the keys and order of clusterwire's Go-exact JSON writer", () => {
    const objects: JsonObject[] = [
      ingress("Bad_Name"),
      ingress("web", { metadata: { name: "web", labels: { "a b": "c d" } } }),
      ingress("web", { spec: { rules: [{ host: "a.*.example.com" }, { host: "-x" }] } }),
      {
        apiVersion: "networking.k8s.io/v1",
        kind: "NetworkPolicy",
        metadata: { name: "np" },
        spec: {
          podSelector: {},
          policyTypes: ["Sideways"],
          ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/33" } }] }],
        },
      },
    ];
    for (const json of objects) {
      const kind = json["kind"] as string;
      const out = admit(request(kind, { namespace: "shop", object: json }));
      const typed = fromJson({ ...json, metadata: { ...(json["metadata"] as JsonObject), namespace: "shop" } });
      const errors = validate(typed, { namespace: "shop" });
      expect(errors.length).toBeGreaterThan(0);
      expect(JSON.stringify(out.response.status)).toBe(toJsonString(toStatus(typed, errors)));
    }
  });

  it("allows a valid object, echoing the uid and nothing else", () => {
    expect(admit(request("Ingress", { namespace: "shop", object: ingress("web") })).response).toEqual({
      uid: UID,
      allowed: true,
    });
  });

  it("fills an empty metadata.namespace from the request before validating", () => {
    const policy = { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: { name: "deny" }, spec: {} };
    expect(admit(request("NetworkPolicy", { namespace: "shop", object: policy })).response.allowed).toBe(true);
    const bad = admit(request("NetworkPolicy", { namespace: "Not_A_Label", object: policy }));
    expect(bad.response.allowed).toBe(false);
    expect(bad.errors.map((e) => e.field)).toEqual(["metadata.namespace"]);
    // The object's own namespace is kept when it has one.
    const own = { ...policy, metadata: { name: "deny", namespace: "shop" } };
    expect(admit(request("NetworkPolicy", { namespace: "Not_A_Label", object: own })).response.allowed).toBe(true);
  });

  it("validates an UPDATE against oldObject: immutable fields", () => {
    const cls = (controller: string) => ({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name: "nginx", resourceVersion: "7" },
      spec: { controller },
    });
    const same = admit(
      request("IngressClass", { operation: "UPDATE", object: cls("a.io/x"), oldObject: cls("a.io/x") }),
    );
    expect(same.response.allowed).toBe(true);
    const changed = admit(
      request("IngressClass", { operation: "UPDATE", object: cls("a.io/y"), oldObject: cls("a.io/x") }),
    );
    expect(changed.response.allowed).toBe(false);
    expect(changed.errors.map((e) => [e.type, e.field])).toEqual([["FieldValueInvalid", "spec.controller"]]);
    expect(changed.response.status?.details?.causes[0]?.message).toBe('Invalid value: "a.io/y": field is immutable');
  });

  it("validates the status subresource with the status strategy, and the main resource without it", () => {
    const withStatus = (ip: string) =>
      ingress("web", {
        metadata: { name: "web", namespace: "shop", resourceVersion: "3" },
        status: { loadBalancer: { ingress: [{ ip }] } },
      });
    const status = (ip: string, subResource: string) =>
      admit(
        request("Ingress", {
          operation: "UPDATE",
          subResource,
          namespace: "shop",
          object: withStatus(ip),
          oldObject: withStatus("192.0.2.1"),
        }),
      );
    expect(status("192.0.2.2", "status").response.allowed).toBe(true);
    const bad = status("not-an-ip", "status");
    expect(bad.response.allowed).toBe(false);
    expect(bad.errors.map((e) => e.field)).toEqual(["status.loadBalancer.ingress[0].ip"]);
    // An update of the main resource keeps the stored status, so the sent one is not checked.
    expect(status("not-an-ip", "").response.allowed).toBe(true);
  });

  it("answers an object that cannot be decoded with 400 BadRequest, still echoing the uid", () => {
    for (const object of [
      ingress("web", { spec: { rules: "x" } }),
      ingress("web", { metadata: { name: 7 } }),
      { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: { name: "web" } },
      "an Ingress",
      null,
    ]) {
      const out = admit(request("Ingress", { namespace: "shop", object }));
      expect(out.verdict).toBe("bad_request");
      expect(out.response).toMatchObject({
        uid: UID,
        allowed: false,
        status: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "BadRequest", code: 400 },
      });
      expect(out.response.status?.message).toMatch(/request\.object/);
    }
    const update = admit(request("Ingress", { operation: "UPDATE", namespace: "shop", object: ingress("web") }));
    expect(update.response.status).toMatchObject({ reason: "BadRequest", code: 400 });
    expect(update.response.status?.message).toMatch(/request\.oldObject/);
  });

  it("answers a networking kind in a version it does not serve with 400 BadRequest", () => {
    const out = admit(request("Ingress", { kind: { group: NETWORKING, version: "v1beta1", kind: "Ingress" } }));
    expect(out.response.status).toMatchObject({ reason: "BadRequest", code: 400 });
  });

  it("decodes an object without apiVersion and kind as the request's kind", () => {
    const { apiVersion: _a, kind: _k, ...bare } = ingress("Bad_Name");
    const out = admit(request("Ingress", { namespace: "shop", object: bare }));
    expect(out.errors.map((e) => e.field)).toEqual(["metadata.name"]);
  });

  it("allows untouched what it does not check: other kinds, DELETE and CONNECT, other subresources", () => {
    const garbage = { spec: { rules: "x" } };
    const cases: AdmissionRequest[] = [
      request("Deployment", { kind: { group: "apps", version: "v1", kind: "Deployment" }, object: garbage }),
      request("Service", { kind: { group: "", version: "v1", kind: "Service" }, object: garbage }),
      request("Gateway", { kind: { group: NETWORKING, version: "v1", kind: "Gateway" }, object: garbage }),
      request("IngressList", { object: garbage }),
      request("Ingress", { operation: "DELETE", oldObject: garbage }),
      request("Ingress", { operation: "CONNECT", object: garbage }),
      request("NetworkPolicy", { operation: "UPDATE", subResource: "status", object: garbage, oldObject: garbage }),
      request("Ingress", { operation: "UPDATE", subResource: "scale", object: garbage, oldObject: garbage }),
    ];
    for (const r of cases) {
      expect(admit(r)).toMatchObject({ response: { uid: UID, allowed: true }, verdict: "ignored" });
    }
  });

  it("gives the same verdict under dryRun", () => {
    for (const object of [ingress("web"), ingress("Bad_Name")]) {
      const wet = admit(request("Ingress", { namespace: "shop", object }));
      const dry = admit(request("Ingress", { namespace: "shop", object, dryRun: true }));
      expect(dry.response).toEqual(wet.response);
    }
  });

  it("leaves prototype keys as data: no pollution, no crash", () => {
    const object = JSON.parse(
      '{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","__proto__":{"polluted":1},"metadata":{"name":"web","__proto__":{"polluted":1},"labels":{"__proto__":"x"}},"spec":{"defaultBackend":{"service":{"name":"web","port":{"number":80}}}}}',
    ) as unknown;
    const out = admit(request("Ingress", { namespace: "shop", object }));
    expect(out.response.uid).toBe(UID);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("answers deeply nested objects without overflowing the stack", () => {
    const deep = JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`) as JsonValue;
    for (const object of [
      { ...ingress("web"), unknownField: deep },
      ingress("web", { spec: { rules: deep } }),
      ingress("web", { metadata: { name: "web", labels: { a: deep } } }),
    ]) {
      const out = admit(request("Ingress", { namespace: "shop", object }));
      expect(out.response.uid).toBe(UID);
    }
    // An unknown field is dropped, as the API server's decoder drops it; a wrong type is a 400.
    expect(
      admit(request("Ingress", { namespace: "shop", object: { ...ingress("web"), x: deep } })).response.allowed,
    ).toBe(true);
    expect(
      admit(request("Ingress", { namespace: "shop", object: ingress("web", { spec: { rules: deep } }) })).verdict,
    ).toBe("bad_request");
  });

  describe("the API server's warnings", () => {
    const policy = (name: string, cidrs: string[]): JsonObject => ({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name, resourceVersion: "1" },
      spec: { podSelector: {}, ingress: [{ from: cidrs.map((cidr) => ({ ipBlock: { cidr } })) }] },
    });
    const AMBIGUOUS =
      'spec.ingress[0].from[0].ipBlock.cidr: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)';
    const ANNOTATION =
      "annotation \"kubernetes.io/ingress.class\" is deprecated, please use 'spec.ingressClassName' instead";

    it("sends them in response.warnings with an allowed request, and keeps them on the outcome", () => {
      const out = admit(request("NetworkPolicy", { namespace: "shop", object: policy("p", ["10.0.0.1/8"]) }));
      expect(out.response).toEqual({ uid: UID, allowed: true, warnings: [AMBIGUOUS] });
      expect(out).toMatchObject({ verdict: "allowed", warnings: [AMBIGUOUS] });
    });

    it("omits the member when there are none, as the API server's JSON does", () => {
      const out = admit(request("NetworkPolicy", { namespace: "shop", object: policy("p", ["10.0.0.0/8"]) }));
      expect(Object.hasOwn(out.response, "warnings")).toBe(false);
      expect(out.warnings).toEqual([]);
    });

    it("sends none with a 422: the API server warns only about objects it accepts", () => {
      const out = admit(request("NetworkPolicy", { namespace: "shop", object: policy("Bad_Name", ["10.0.0.1/8"]) }));
      expect(out.response.allowed).toBe(false);
      expect(out.response.status?.code).toBe(422);
      expect(Object.hasOwn(out.response, "warnings")).toBe(false);
      expect(out.warnings).toEqual([]);
    });

    it("warns per operation as the strategies do: Ingress annotation on CREATE only, status IPs on status UPDATE", () => {
      const annotated = ingress("web", {
        metadata: { name: "web", annotations: { "kubernetes.io/ingress.class": "x" } },
      });
      expect(admit(request("Ingress", { namespace: "shop", object: annotated })).response.warnings).toEqual([
        ANNOTATION,
      ]);
      const stored = {
        ...annotated,
        metadata: { ...(annotated["metadata"] as JsonObject), namespace: "shop", resourceVersion: "2" },
      };
      const update = admit(
        request("Ingress", { operation: "UPDATE", namespace: "shop", object: stored, oldObject: stored }),
      );
      expect(update.response).toEqual({ uid: UID, allowed: true });
      const withIP = { ...stored, status: { loadBalancer: { ingress: [{ ip: "010.0.0.1" }] } } };
      const status = admit(
        request("Ingress", {
          operation: "UPDATE",
          subResource: "status",
          namespace: "shop",
          object: withIP,
          oldObject: stored,
        }),
      );
      expect(status.response.warnings).toEqual([
        'status.loadBalancer.ingress[0]: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"',
      ]);
    });

    it("gives the same answer under dryRun", () => {
      const object = policy("p", ["10.0.0.1/8"]);
      const wet = admit(request("NetworkPolicy", { namespace: "shop", object }));
      const dry = admit(request("NetworkPolicy", { namespace: "shop", object, dryRun: true }));
      expect(dry.response).toEqual(wet.response);
    });

    it("sends whole warnings up to the budget the API server relays, and keeps all on the outcome", () => {
      const cidrs = Array.from({ length: 200 }, (_, i) => `10.0.${i}.1/16`);
      const out = admit(request("NetworkPolicy", { namespace: "shop", object: policy("p", cidrs) }));
      expect(out.warnings).toHaveLength(200);
      const sent = out.response.warnings ?? [];
      expect(sent).toEqual(out.warnings.slice(0, sent.length));
      const length = (ws: readonly string[]) => ws.reduce((n, w) => n + w.length, 0);
      expect(length(sent)).toBeGreaterThanOrEqual(WARNING_BUDGET);
      expect(length(sent.slice(0, -1))).toBeLessThan(WARNING_BUDGET);
    });
  });

  describe('guard "strict"', () => {
    const strict = { guards: { strict: true } };
    const policy: JsonObject = {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "p" },
      spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.1/8", except: ["10.1.0.0/16"] } }] }] },
    };
    const AMBIGUOUS =
      'spec.ingress[0].from[0].ipBlock.cidr: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)';

    it("refuses what the API server would admit with warnings: 403 Forbidden, naming the guard, each warning a cause", () => {
      const out = admit(request("NetworkPolicy", { namespace: "shop", object: policy }), strict);
      expect(out).toMatchObject({ verdict: "guarded", guard: "strict", errors: [], warnings: [AMBIGUOUS] });
      expect(out.response).toEqual({
        uid: UID,
        allowed: false,
        warnings: [AMBIGUOUS],
        status: {
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message: `NetworkPolicy.networking.k8s.io "p" is forbidden: guard "strict" refuses what the API server would admit with warnings: ${AMBIGUOUS}`,
          reason: "Forbidden",
          details: {
            name: "p",
            group: NETWORKING,
            kind: "NetworkPolicy",
            causes: [
              { reason: "FieldValueForbidden", message: AMBIGUOUS, field: "spec.ingress[0].from[0].ipBlock.cidr" },
            ],
          },
          code: 403,
        },
      });
    });

    it("lists several warnings in brackets, and counts those past the budget", () => {
      const two = {
        ...policy,
        metadata: { name: "p", annotations: {} },
        spec: {
          podSelector: {},
          egress: [{ to: [{ ipBlock: { cidr: "010.0.0.0/8" } }, { ipBlock: { cidr: "::FFFF:0:0/96" } }] }],
        },
      };
      const out = admit(request("NetworkPolicy", { namespace: "shop", object: two }), strict);
      expect(out.response.status?.message).toMatch(
        /with warnings: \[spec\.egress\[0\]\.to\[0\].*, spec\.egress\[0\]\.to\[1\].*\]$/,
      );
      expect(out.response.status?.details?.causes.map((c) => c.field)).toEqual([
        "spec.egress[0].to[0].ipBlock.cidr",
        "spec.egress[0].to[1].ipBlock.cidr",
      ]);
      const many = {
        ...policy,
        spec: {
          podSelector: {},
          ingress: [{ from: Array.from({ length: 100 }, (_, i) => ({ ipBlock: { cidr: `10.0.${i}.1/16` } })) }],
        },
      };
      const big = admit(request("NetworkPolicy", { namespace: "shop", object: many }), strict);
      const sent = big.response.warnings?.length ?? 0;
      expect(sent).toBeLessThan(100);
      expect(big.response.status?.details?.causes).toHaveLength(sent);
      expect(big.response.status?.message).toMatch(new RegExp(` \\(and ${100 - sent} more\\)$`));
    });

    it("admits an object without warnings, and leaves the 422 of an invalid one to validation", () => {
      const clean = { ...policy, spec: { podSelector: {} } };
      expect(admit(request("NetworkPolicy", { namespace: "shop", object: clean }), strict).response).toEqual({
        uid: UID,
        allowed: true,
      });
      const invalid = { ...policy, metadata: { name: "Bad_Name" } };
      const out = admit(request("NetworkPolicy", { namespace: "shop", object: invalid }), strict);
      expect(out).toMatchObject({ verdict: "denied", response: { allowed: false, status: { code: 422 } } });
      expect(out.guard).toBeUndefined();
    });

    it("refuses an UPDATE only for warnings the stored object does not draw already", () => {
      const stored = (cidrs: string[], labels: JsonObject = {}): JsonObject => ({
        ...policy,
        metadata: { name: "p", namespace: "shop", resourceVersion: "4", labels },
        spec: { podSelector: {}, ingress: [{ from: cidrs.map((cidr) => ({ ipBlock: { cidr } })) }] },
      });
      const update = (object: JsonObject, oldObject: JsonObject) =>
        admit(request("NetworkPolicy", { operation: "UPDATE", namespace: "shop", object, oldObject }), strict);
      const old = stored(["10.0.0.1/8", "192.168.0.0/16"]);
      // A label added, or the legacy value moved to another index: admitted, still warned about.
      const relabeled = update(stored(["10.0.0.1/8", "192.168.0.0/16"], { team: "a" }), old);
      expect(relabeled.response).toEqual({ uid: UID, allowed: true, warnings: [AMBIGUOUS] });
      expect(relabeled.verdict).toBe("allowed");
      expect(update(stored(["192.168.0.0/16", "10.0.0.1/8"]), old).response.allowed).toBe(true);
      // A new warned-about value: refused for that one only, every warning still sent.
      const added = update(stored(["10.0.0.1/8", "172.16.0.1/12"]), old);
      const NEW =
        'spec.ingress[0].from[1].ipBlock.cidr: CIDR value "172.16.0.1/12" is ambiguous in this context (should be "172.16.0.0/12" or "172.16.0.1/32"?)';
      expect(added).toMatchObject({ verdict: "guarded", guard: "strict", warnings: [AMBIGUOUS, NEW] });
      expect(added.response.warnings).toEqual([AMBIGUOUS, NEW]);
      expect(added.response.status?.details?.causes.map((c) => c.message)).toEqual([NEW]);
      expect(added.response.status?.message).toMatch(
        /with warnings: spec\.ingress\[0\]\.from\[1\]\.ipBlock\.cidr: CIDR value "172\.16\.0\.1\/12"/,
      );
      // The same ratchet for the Ingress status subresource.
      const ing = (ips: string[]): JsonObject =>
        ingress("web", {
          metadata: { name: "web", namespace: "shop", resourceVersion: "3" },
          status: { loadBalancer: { ingress: ips.map((ip) => ({ ip })) } },
        });
      const status = (ips: string[]) =>
        admit(
          request("Ingress", {
            operation: "UPDATE",
            subResource: "status",
            namespace: "shop",
            object: ing(ips),
            oldObject: ing(["010.0.0.1"]),
          }),
          strict,
        );
      expect(status(["010.0.0.1", "10.0.0.2"]).response.allowed).toBe(true);
      expect(status(["010.0.0.1", "::ffff:10.0.0.2"])).toMatchObject({
        verdict: "guarded",
        response: { allowed: false },
      });
    });

    it("admits a valid object exactly when it draws no warning, else refuses it with each (arbitrary valid objects)", () => {
      const valid = fc.oneof(arbAnyValidJson(), arbNetworkPolicyJson());
      fc.assert(
        fc.property(valid, (json) => {
          const kind = json["kind"] as string;
          const own = (json["metadata"] as { namespace?: string } | undefined)?.namespace ?? "";
          const namespace = lookupKind("networking.k8s.io/v1", kind)?.namespaced ? own || "default" : "";
          const expected = warnings(fromJson(json as Parameters<typeof fromJson>[0]));
          const plain = admit(request(kind, { namespace, object: json }));
          expect(plain.response.allowed).toBe(true);
          expect(plain.warnings).toEqual(expected);
          const guarded = admit(request(kind, { namespace, object: json }), strict);
          if (expected.length === 0) {
            expect(guarded.response).toEqual({ uid: UID, allowed: true });
          } else {
            expect(guarded).toMatchObject({ verdict: "guarded", guard: "strict", response: { allowed: false } });
            expect(guarded.response.status?.details?.causes.map((c) => c.message)).toEqual(guarded.response.warnings);
            expect(expected.slice(0, guarded.response.warnings?.length)).toEqual(guarded.response.warnings);
          }
        }),
        { numRuns: propertyRuns(300) },
      );
    });

    it("is off by default", () => {
      expect(admit(request("NetworkPolicy", { namespace: "shop", object: policy })).response.allowed).toBe(true);
      expect(
        admit(request("NetworkPolicy", { namespace: "shop", object: policy }), { guards: {} }).response.allowed,
      ).toBe(true);
    });
  });

  it("refuses a body that is not an AdmissionReview with AdmissionReviewError", () => {
    expect(() => reviewAdmission({ kind: "Ingress" })).toThrow(AdmissionReviewError);
  });
});

describe("admit with the Ingress capture guard", () => {
  const rule = (host: string, path: string) => ({
    host,
    http: { paths: [{ path, pathType: "Prefix", backend }] },
  });
  const owned = (ns: string, name: string, host: string, path: string): JsonObject => ({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name, namespace: ns },
    spec: { rules: [rule(host, path)] },
  });
  const guard = new IngressCaptureIndex();
  guard.replaceAll([fromJson(owned("shop", "web", "shop.example.com", "/")) as Ingress]);

  it("denies a valid capturing Ingress with the guard's 403, and tells it apart from a 422", () => {
    const req = request("Ingress", {
      namespace: "evil",
      name: "grab",
      object: { ...owned("", "grab", "shop.example.com", "/"), metadata: { name: "grab" } },
    });
    const out = admit(req, { guards: { ingressCapture: guard } });
    expect(out.verdict).toBe("guarded");
    expect(out.guard).toBe("ingress-capture");
    expect(out.response).toMatchObject({ uid: UID, allowed: false, status: { code: 403, reason: "Forbidden" } });
    expect(out.response.status?.message).toContain("Ingress shop/web serves");
    // Off by default.
    expect(admit(req).response.allowed).toBe(true);
    // Invalid objects get the 422 first; the guard never sees them.
    const invalid = admit(
      request("Ingress", { namespace: "evil", object: owned("evil", "grab", "shop.example.com", "relative") }),
      { guards: { ingressCapture: guard } },
    );
    expect([invalid.verdict, invalid.response.status?.code]).toEqual(["denied", 422]);
  });

  it("allows a harmless Ingress, its own namespace's, status updates and other kinds", () => {
    const harmless = request("Ingress", { namespace: "app", object: owned("app", "x", "app.example.com", "/") });
    expect(admit(harmless, { guards: { ingressCapture: guard } })).toMatchObject({
      verdict: "allowed",
      response: { allowed: true },
    });
    const sameNs = request("Ingress", { namespace: "shop", object: owned("shop", "x", "shop.example.com", "/") });
    expect(admit(sameNs, { guards: { ingressCapture: guard } }).response.allowed).toBe(true);
    const stored = owned("evil", "grab", "shop.example.com", "/");
    (stored["metadata"] as Record<string, string>)["resourceVersion"] = "3";
    const status = request("Ingress", {
      namespace: "evil",
      operation: "UPDATE",
      subResource: "status",
      object: stored,
      oldObject: stored,
    });
    expect(admit(status, { guards: { ingressCapture: guard } }).response.allowed).toBe(true);
    // The same object on the main resource is a capture.
    const main = request("Ingress", { namespace: "evil", operation: "UPDATE", object: stored, oldObject: stored });
    expect(admit(main, { guards: { ingressCapture: guard } }).verdict).toBe("guarded");
  });
});
