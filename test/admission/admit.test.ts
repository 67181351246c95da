import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { admit, reviewAdmission } from "../../src/admission/admit.js";
import { AdmissionReviewError, type AdmissionRequest } from "../../src/admission/review.js";
import {
  fromJson,
  lookupKind,
  toJsonString,
  toStatus,
  validate,
  type JsonObject,
  type JsonValue,
} from "../../src/networking/index.js";
import { propAdmissionAgreesWithValidate } from "../../src/testing/index.js";
import { runs } from "../testing/quality.js";

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
    await fc.assert(propAdmissionAgreesWithValidate(viaWebhook), { numRuns: runs(300) });
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
      expect(out.verdict).toBe("undecodable");
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
    ).toBe("undecodable");
  });

  it("refuses a body that is not an AdmissionReview with AdmissionReviewError", () => {
    expect(() => reviewAdmission({ kind: "Ingress" })).toThrow(AdmissionReviewError);
  });
});
