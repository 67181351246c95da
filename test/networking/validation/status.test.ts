// toStatus: the 422 Status body the API server returns for validation errors.

import { describe, expect, it } from "vitest";
import { fromJson, toJsonString, toStatus, validate } from "../../../src/networking/index.js";
import {
  svcBackend,
  ing,
  path0,
  lines,
  SUBDOMAIN,
  LABEL_KEY_NAME,
  PORT_RANGE,
  NOT_FINALIZER,
  P0,
  B0,
} from "../../support/ingress-validation.js";

describe("toStatus: the 422 response body", () => {
  const statusJson = (
    name: string,
    causes: { reason: string; message: string; field: string }[],
    message: string,
  ): string =>
    JSON.stringify({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason: "Invalid",
      details: { name, group: "networking.k8s.io", kind: "Ingress", causes },
      code: 422,
    });

  it("the name is quoted as Go's %q quotes it: control characters, NBSP and BOM escaped", () => {
    // Seen from a real kube-apiserver 1.35.4: Ingress.networking.k8s.io "tab\there" is invalid: ...
    const ingress = ing((o) => {
      (o.metadata as { name: string }).name = "tab\there\u00a0\ufeff";
    });
    const message = toStatus(ingress, validate(ingress)).message;
    expect(message.startsWith('Ingress.networking.k8s.io "tab\\there\\u00a0\\ufeff" is invalid: ')).toBe(true);
    // details.name is the name itself, in JSON.
    expect(toStatus(ingress, validate(ingress)).details?.name).toBe("tab\there\u00a0\ufeff");
  });

  it("a List has no name: the message quotes an empty one", () => {
    const list = fromJson(
      '{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicyList","metadata":{},"items":[{"metadata":{"name":"a","namespace":"b"},"spec":{"policyTypes":["A"]}}]}',
    );
    expect(toStatus(list, validate(list)).message).toMatch(
      /^NetworkPolicyList\.networking\.k8s\.io "" is invalid: items\[0\]/,
    );
  });

  it("several errors: bracketed, comma-separated message; one cause per error", () => {
    const obj = ing((o) => {
      o.metadata.name = "shop";
      o.spec.rules[0].host = "Shop.example.com";
      path0(o).backend = svcBackend("svc", { number: 70000 });
    });
    const errs = validate(obj);
    const hostBody = `Invalid value: "Shop.example.com": ${SUBDOMAIN}`;
    const portBody = `Invalid value: 70000: ${PORT_RANGE}`;
    const expected = statusJson(
      "shop",
      [
        { reason: "FieldValueInvalid", message: hostBody, field: "spec.rules[0].host" },
        { reason: "FieldValueInvalid", message: portBody, field: `${B0}.service.port.number` },
      ],
      `Ingress.networking.k8s.io "shop" is invalid: [spec.rules[0].host: ${hostBody}, ${B0}.service.port.number: ${portBody}]`,
    );
    expect(toJsonString(toStatus(obj, errs))).toBe(expected);
  });

  it("the name in the message as Go's %q writes it; in details as it is", () => {
    const obj = ing((o) => {
      o.metadata.name = '\ufeffa"b\r\n';
      o.spec = {};
    });
    const status = toStatus(obj, validate(obj));
    expect(status.message.startsWith('Ingress.networking.k8s.io "\\ufeffa\\"b\\r\\n" is invalid: ')).toBe(true);
    expect(status.details?.name).toBe('\ufeffa"b\r\n');
  });

  it("a single error: no brackets", () => {
    const obj = ing((o) => {
      o.metadata.name = "shop";
      o.spec = {};
    });
    const errs = validate(obj);
    const body = "Invalid value: null: either `defaultBackend` or `rules` must be specified";
    expect(toJsonString(toStatus(obj, errs))).toBe(
      statusJson(
        "shop",
        [{ reason: "FieldValueInvalid", message: body, field: "spec" }],
        `Ingress.networking.k8s.io "shop" is invalid: spec: ${body}`,
      ),
    );
  });

  it("duplicate messages are dropped from the message but kept in the causes", () => {
    const obj = ing((o) => {
      o.metadata.name = "shop";
      o.metadata.finalizers = ["a b", "a b"];
    });
    const errs = validate(obj);
    const qn = `Invalid value: "a b": ${LABEL_KEY_NAME}`;
    const nf = `Invalid value: "a b": ${NOT_FINALIZER}`;
    expect(lines(errs)).toEqual([
      `metadata.finalizers: ${qn}`,
      `metadata.finalizers: ${qn}`,
      `metadata.finalizers[0]: ${nf}`,
      `metadata.finalizers[1]: ${nf}`,
    ]);
    expect(toJsonString(toStatus(obj, errs))).toBe(
      statusJson(
        "shop",
        [
          { reason: "FieldValueInvalid", message: qn, field: "metadata.finalizers" },
          { reason: "FieldValueInvalid", message: qn, field: "metadata.finalizers" },
          { reason: "FieldValueInvalid", message: nf, field: "metadata.finalizers[0]" },
          { reason: "FieldValueInvalid", message: nf, field: "metadata.finalizers[1]" },
        ],
        `Ingress.networking.k8s.io "shop" is invalid: [metadata.finalizers: ${qn}, metadata.finalizers[0]: ${nf}, metadata.finalizers[1]: ${nf}]`,
      ),
    );
  });

  it("Required causes render without a value", () => {
    const obj = ing((o) => delete path0(o).pathType);
    const status = JSON.parse(toJsonString(toStatus(obj, validate(obj))));
    expect(status.details.causes).toEqual([
      { reason: "FieldValueRequired", message: "Required value: pathType must be specified", field: `${P0}.pathType` },
    ]);
    expect(status.message).toBe(
      `Ingress.networking.k8s.io "web" is invalid: ${P0}.pathType: Required value: pathType must be specified`,
    );
  });
});

// ======================================================================
// §6 IngressClass
// ======================================================================
