import { describe, expect, it } from "vitest";
import { AdmissionReviewError, readAdmissionReview } from "../../src/admission/review.js";

const request = {
  uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
  kind: { group: "networking.k8s.io", version: "v1", kind: "Ingress" },
  resource: { group: "networking.k8s.io", version: "v1", resource: "ingresses" },
  requestKind: { group: "networking.k8s.io", version: "v1", kind: "Ingress" },
  name: "web",
  namespace: "shop",
  operation: "CREATE",
  userInfo: { username: "admin" },
  object: { apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata: { name: "web" } },
  oldObject: null,
  dryRun: true,
  options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
};
const review = (r: unknown) => ({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request: r });

function failure(body: unknown): AdmissionReviewError {
  try {
    readAdmissionReview(body);
  } catch (e) {
    expect(e).toBeInstanceOf(AdmissionReviewError);
    return e as AdmissionReviewError;
  }
  throw new Error("readAdmissionReview accepted the body");
}

describe("readAdmissionReview", () => {
  it("reads the parts of a request the webhook uses", () => {
    expect(readAdmissionReview(review(request))).toEqual({
      uid: request.uid,
      kind: request.kind,
      subResource: "",
      name: "web",
      namespace: "shop",
      operation: "CREATE",
      object: request.object,
      oldObject: null,
      dryRun: true,
    });
  });

  it("reads absent and null optional members as empty", () => {
    const { name: _n, namespace: _ns, object: _o, oldObject: _oo, dryRun: _d, ...bare } = request;
    const read = readAdmissionReview(review({ ...bare, subResource: null }));
    expect(read).toMatchObject({
      name: "",
      namespace: "",
      subResource: "",
      object: null,
      oldObject: null,
      dryRun: false,
    });
  });

  it.each([
    ["(body)", null],
    ["(body)", []],
    ["(body)", "AdmissionReview"],
    ["apiVersion", { ...review(request), apiVersion: "admission.k8s.io/v1beta1" }],
    ["apiVersion", { kind: "AdmissionReview", request }],
    ["kind", { ...review(request), kind: "AdmissionReviewList" }],
    ["request", { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview" }],
    ["request", review([request])],
    ["request.uid", review({ ...request, uid: "" })],
    ["request.uid", review({ ...request, uid: 7 })],
    ["request.kind", review({ ...request, kind: "Ingress" })],
    ["request.kind.group", review({ ...request, kind: { ...request.kind, group: 1 } })],
    ["request.kind.kind", review({ ...request, kind: { group: "", version: "v1" } })],
    ["request.operation", review({ ...request, operation: "PATCH" })],
    ["request.operation", review({ ...request, operation: undefined })],
    ["request.dryRun", review({ ...request, dryRun: "true" })],
    ["request.namespace", review({ ...request, namespace: ["shop"] })],
    ["request.subResource", review({ ...request, subResource: {} })],
  ])("refuses a body whose %s is wrong", (field, body) => {
    const e = failure(body);
    expect(e.field).toBe(field);
    expect(e.message).toBe(`not an AdmissionReview: ${field}: ${e.reason}`);
  });

  it("reads only own members: prototype keys neither count nor pollute", () => {
    const body = JSON.parse(
      `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"__proto__":{"uid":"x"},"kind":{"group":"","version":"v1","kind":"Pod"},"operation":"CREATE"}}`,
    ) as unknown;
    expect(failure(body).field).toBe("request.uid");
    expect(({} as Record<string, unknown>)["uid"]).toBeUndefined();
  });
});
