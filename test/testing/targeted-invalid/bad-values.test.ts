// The bad values several kinds' mutations draw from: each fails its rule with exactly one error,
// at the field the mutations put it in, as their comments say.
import { describe, expect, it } from "vitest";
import { fromJson, validate, type JsonObject } from "../../../src/networking/index.js";
import {
  BAD_LABEL_KEYS,
  BAD_LABEL_VALUES,
  BAD_PORT_NAMES,
  BAD_SEGMENT_NAMES,
  BAD_SUBDOMAINS_INCL_EMPTY,
} from "../../../src/testing/targeted-invalid/bad-values.js";

const errors = (json: object): string[] => validate(fromJson(json as JsonObject)).map((e) => `${e.type} ${e.field}`);

const ingressClass = (meta: object, spec: object = {}) => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "IngressClass",
  metadata: { name: "c", ...meta },
  spec: { controller: "example.com/c", ...spec },
});

describe("the shared bad values", () => {
  it("each list is non-empty and holds each value once", () => {
    for (const list of [
      BAD_LABEL_KEYS,
      BAD_LABEL_VALUES,
      BAD_PORT_NAMES,
      BAD_SEGMENT_NAMES,
      BAD_SUBDOMAINS_INCL_EMPTY,
    ]) {
      expect(list.length).toBeGreaterThan(0);
      expect(new Set(list).size).toBe(list.length);
    }
  });

  it("label keys and values fail with exactly one message", () => {
    for (const k of BAD_LABEL_KEYS)
      expect(errors(ingressClass({ labels: { [k]: "v" } })), k).toEqual(["FieldValueInvalid metadata.labels"]);
    for (const v of BAD_LABEL_VALUES)
      expect(errors(ingressClass({ labels: { k: v } })), v).toEqual(["FieldValueInvalid metadata.labels"]);
  });

  it("port names fail IsValidPortName once, on a NetworkPolicy port and an Ingress backend", () => {
    for (const name of BAD_PORT_NAMES) {
      const policy = {
        apiVersion: "networking.k8s.io/v1",
        kind: "NetworkPolicy",
        metadata: { name: "p", namespace: "ns" },
        spec: { podSelector: {}, ingress: [{ ports: [{ port: name }] }] },
      };
      expect(errors(policy), name).toEqual(["FieldValueInvalid spec.ingress[0].ports[0].port"]);
      const ingress = {
        apiVersion: "networking.k8s.io/v1",
        kind: "Ingress",
        metadata: { name: "i", namespace: "ns" },
        spec: { defaultBackend: { service: { name: "svc", port: { name } } } },
      };
      expect(errors(ingress), name).toEqual(["FieldValueInvalid spec.defaultBackend.service.port.name"]);
    }
  });

  it("path segment names and API groups fail once, as IngressClass parameters", () => {
    for (const name of BAD_SEGMENT_NAMES)
      expect(errors(ingressClass({}, { parameters: { kind: "K", name } })), name).toEqual([
        "FieldValueInvalid spec.parameters.name",
      ]);
    for (const apiGroup of BAD_SUBDOMAINS_INCL_EMPTY)
      expect(errors(ingressClass({}, { parameters: { apiGroup, kind: "K", name: "n" } })), apiGroup).toEqual([
        "FieldValueInvalid spec.parameters.apiGroup",
      ]);
  });
});
