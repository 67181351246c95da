import { describe, expect, it } from "vitest";
import { IngressCaptureIndex } from "../../../src/admission/guards/ingress-capture.js";
import { captureDenial } from "../../../src/admission/guards/ingress-capture-status.js";
import { fromJson, type Ingress, type JsonObject } from "../../../src/networking/index.js";

const ing = (ns: string, name: string, host: string, path: string, pathType = "Prefix"): Ingress =>
  fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name, namespace: ns },
    spec: {
      rules: [
        { host, http: { paths: [{ path, pathType, backend: { service: { name: "s", port: { number: 80 } } } }] } },
      ],
    },
  } as JsonObject) as Ingress;

describe("captureDenial", () => {
  it("answers 503 ServiceUnavailable until the index has a full list", () => {
    const status = captureDenial(new IngressCaptureIndex(), ing("a", "x", "h.example.com", "/"), "a", "x");
    expect(status).toMatchObject({ code: 503, reason: "ServiceUnavailable", status: "Failure" });
    expect(status?.message).toMatch(/^ingress-capture: /);
  });

  it("is a 403 Forbidden naming the guard, the victim, both rules and a request taken", () => {
    const index = new IngressCaptureIndex();
    index.replaceAll([ing("shop", "web", "shop.example.com", "/api")]);
    expect(captureDenial(index, ing("evil", "x", "other.example.com", "/api"), "evil", "x")).toBeUndefined();
    const status = captureDenial(index, ing("evil", "x", "shop.example.com", "/api/v1", "Exact"), "evil", "x");
    expect(status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'ingress-capture: this Ingress would take requests that an Ingress in other namespaces serve: spec.rules[0].http.paths[0] (host "shop.example.com", path "/api/v1", Exact) would take the request (Host "shop.example.com", path "/api/v1") that Ingress shop/web serves with its spec.rules[0].http.paths[0] (host "shop.example.com", path "/api", Prefix)',
      reason: "Forbidden",
      details: {
        name: "x",
        group: "networking.k8s.io",
        kind: "ingresses",
        causes: [
          {
            reason: "FieldValueForbidden",
            field: "spec.rules[0].http.paths[0]",
            message:
              'spec.rules[0].http.paths[0] (host "shop.example.com", path "/api/v1", Exact) would take the request (Host "shop.example.com", path "/api/v1") that Ingress shop/web serves with its spec.rules[0].http.paths[0] (host "shop.example.com", path "/api", Prefix)',
          },
        ],
      },
      code: 403,
    });
  });

  it("names three victims and counts the rest", () => {
    const index = new IngressCaptureIndex();
    index.replaceAll(["a", "b", "c", "d", "e"].map((ns) => ing(ns, "web", `${ns}.example.com`, "/")));
    const cand = fromJson({
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name: "x", namespace: "evil" },
      spec: {
        rules: ["a", "b", "c", "d", "e"].map((ns) => ({
          host: `${ns}.example.com`,
          http: {
            paths: [{ path: "/", pathType: "Exact", backend: { service: { name: "s", port: { number: 80 } } } }],
          },
        })),
      },
    } as JsonObject) as Ingress;
    const status = captureDenial(index, cand, "evil", "x");
    expect(status?.details?.causes).toHaveLength(5);
    expect(status?.message).toMatch(/that 5 Ingresses in other namespaces serve: .*; and 2 more$/);
  });
});
