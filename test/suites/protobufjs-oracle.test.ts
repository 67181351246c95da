// Sanity checks for the protobufjs oracle (test/support/protobufjs.ts) against the
// upstream Kubernetes compatibility fixtures, plus a cross-check that the oracle
// and the protobuf-es code in gen/ read every fixture identically.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fromBinary, isFieldSet } from "@bufbuild/protobuf";
import type { DescMessage, Message } from "@bufbuild/protobuf";
import { file_k8s_io_api_networking_v1_networking } from "../../gen/k8s/io/api/networking/v1/networking_pb.js";
import { loadOracle, oracleDecode, oracleDecodeEnvelope } from "../support/protobufjs.js";
import { nonEmpty } from "../support/non-empty.js";

const FIXTURES: string =
  process.env["CLUSTERWIRE_K8S_TESTDATA"] ??
  resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/testdata/k8s-api");

const NET = "k8s.io.api.networking.v1";

interface Fixture {
  folder: string;
  file: string;
  kind: string;
  bytes: Uint8Array;
}

function fixtures(folder: string): Fixture[] {
  const dir = join(FIXTURES, folder);
  return nonEmpty(
    readdirSync(dir).filter((f) => f.endsWith(".pb")),
    `.pb fixtures in ${dir}`,
  )
    .sort()
    .map((file) => {
      const m = /^networking\.k8s\.io\.v1\.([A-Za-z]+)(\.after_roundtrip)?\.pb$/.exec(file);
      if (m === null || m[1] === undefined) throw new Error(`unexpected fixture name ${file}`);
      return { folder, file, kind: m[1], bytes: new Uint8Array(readFileSync(join(dir, file))) };
    });
}

function allFolders(): string[] {
  return nonEmpty(
    readdirSync(FIXTURES, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort(),
    `fixture folders in ${FIXTURES}`,
    10,
  );
}

/** Envelope + object, both through the oracle. */
function decodeFixture(fx: Fixture): { envelope: Record<string, unknown>; object: Record<string, unknown> } {
  const envelope = oracleDecodeEnvelope(fx.bytes);
  const raw = envelope["raw"];
  if (!(raw instanceof Uint8Array)) throw new Error(`${fx.file}: envelope has no raw bytes`);
  return { envelope, object: oracleDecode(`${NET}.${fx.kind}`, raw) };
}

/** Follows a path of keys / indexes through a decoded plain object. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const fillTime = (fieldNumber: number) => ({
  seconds: BigInt(Date.UTC(2000 + fieldNumber, 0, 1, 1, 1, 1) / 1000),
  nanos: 0,
});

describe("protobufjs oracle", () => {
  it("loads our proto files and resolves every referenced type", () => {
    const root = loadOracle();
    expect(loadOracle()).toBe(root); // cached
    for (const name of [
      `${NET}.Ingress`,
      `${NET}.IngressClass`,
      `${NET}.NetworkPolicy`,
      `${NET}.IPAddress`,
      `${NET}.ServiceCIDR`,
      "k8s.io.apimachinery.pkg.runtime.Unknown",
      "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent",
      "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
    ]) {
      expect(root.lookupType(name).fullName).toBe(`.${name}`);
    }
    // keepCase: proto field names are kept as written.
    expect(root.lookupType(`${NET}.IngressClassParametersReference`).fields["aPIGroup"]?.id).toBe(1);
    expect(root.lookupType("k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1").fields["Raw"]?.id).toBe(1);
  });

  const head = fixtures("HEAD");

  it("finds the HEAD fixtures", () => {
    expect(head.map((f) => f.kind)).toEqual(["IPAddress", "Ingress", "IngressClass", "NetworkPolicy", "ServiceCIDR"]);
  });

  describe.each(head.map((fx) => [fx.kind, fx] as const))("HEAD %s", (kind, fx) => {
    const { envelope, object } = decodeFixture(fx);
    const json = JSON.parse(readFileSync(join(FIXTURES, "HEAD", fx.file.replace(/\.pb$/, ".json")), "utf8")) as unknown;

    it("has the runtime.Unknown envelope Go writes", () => {
      expect(envelope["typeMeta"]).toEqual({ apiVersion: "networking.k8s.io/v1", kind });
      // Always written by Go, so present (empty) rather than absent.
      expect(envelope["contentEncoding"]).toBe("");
      expect(envelope["contentType"]).toBe("");
      expect(envelope["$unknown"]).toBeUndefined();
    });

    it("decodes the object metadata filled by the upstream generator", () => {
      expect(at(object, "metadata", "name")).toBe("nameValue");
      expect(at(object, "metadata", "generation")).toBe(7n);
      expect(at(object, "metadata", "namespace")).toBe("namespaceValue");
      expect(at(object, "metadata", "deletionGracePeriodSeconds")).toBe(10n);
      expect(at(object, "metadata", "labels")).toEqual({ labelsKey: "labelsValue" });
      expect(at(object, "metadata", "creationTimestamp")).toEqual(fillTime(8));
      expect(at(object, "metadata", "ownerReferences", 0, "apiVersion")).toBe("apiVersionValue");
      expect(at(object, "metadata", "managedFields", 0, "fieldsV1", "Raw")).toEqual(utf8("{}"));
      expect(at(object, "$unknown")).toBeUndefined();
      // Same values as the JSON fixture.
      expect(at(object, "metadata", "name")).toBe(at(json, "metadata", "name"));
      expect(Number(at(object, "metadata", "generation"))).toBe(at(json, "metadata", "generation"));
    });

    it("decodes kind-specific fields", () => {
      switch (kind) {
        case "Ingress":
          expect(at(object, "spec", "ingressClassName")).toBe("ingressClassNameValue");
          expect(at(object, "spec", "defaultBackend", "service", "port", "number")).toBe(2);
          expect(at(object, "spec", "rules", 0, "ingressRuleValue", "http", "paths", 0, "pathType")).toBe(
            "pathTypeValue",
          );
          expect(at(object, "status", "loadBalancer", "ingress", 0, "ports", 0, "port")).toBe(1);
          break;
        case "IngressClass":
          expect(at(object, "spec", "controller")).toBe("controllerValue");
          expect(at(object, "spec", "parameters", "aPIGroup")).toBe(at(json, "spec", "parameters", "apiGroup"));
          break;
        case "NetworkPolicy":
          expect(at(object, "spec", "ingress", 0, "ports", 0, "endPort")).toBe(3);
          // IntOrString: Go writes all three fields; the filler uses the string form.
          expect(at(object, "spec", "ingress", 0, "ports", 0, "port")).toEqual({
            type: 1n,
            intVal: 0,
            strVal: "portValue",
          });
          expect(at(object, "spec", "egress", 0, "to", 0, "ipBlock", "cidr")).toBe("cidrValue");
          break;
        case "IPAddress":
          expect(at(object, "spec", "parentRef", "resource")).toBe("resourceValue");
          break;
        case "ServiceCIDR":
          expect(at(object, "spec", "cidrs")).toEqual(["cidrsValue"]);
          expect(at(object, "status", "conditions", 0, "observedGeneration")).toBe(3n);
          expect(at(object, "status", "conditions", 0, "lastTransitionTime")).toEqual(fillTime(4));
          break;
        default:
          throw new Error(`no expectations for ${kind}`);
      }
    });
  });

  it("keeps unknown fields: NetworkPolicy field 3 (status) in the v1.27.0 fixture", () => {
    const fx = fixtures("v1.27.0").find((f) => f.file === "networking.k8s.io.v1.NetworkPolicy.pb");
    if (fx === undefined) throw new Error("v1.27.0 NetworkPolicy fixture missing");
    const { object } = decodeFixture(fx);
    const unknown = object["$unknown"] as { no: number; wireType: number; data: Uint8Array }[];
    expect(unknown.map((u) => [u.no, u.wireType])).toEqual([[3, 2]]);
    // The after_roundtrip fixture is the same object without the field.
    const after = fixtures("v1.27.0").find((f) => f.file === "networking.k8s.io.v1.NetworkPolicy.after_roundtrip.pb");
    if (after === undefined) throw new Error("v1.27.0 NetworkPolicy after_roundtrip fixture missing");
    const { object: afterObject } = decodeFixture(after);
    const { $unknown: _dropped, ...rest } = object;
    expect(afterObject).toEqual(rest);
  });

  it("keeps unknown fields: ObjectMeta field 15 (clusterName) in the v1.19.0 fixtures", () => {
    for (const fx of fixtures("v1.19.0")) {
      const { object } = decodeFixture(fx);
      const unknown = at(object, "metadata", "$unknown") as { no: number; wireType: number }[] | undefined;
      expect(
        unknown?.map((u) => [u.no, u.wireType]),
        fx.file,
      ).toEqual([[15, 2]]);
    }
  });
});

// protobuf-es materialises every field; project a message onto the fields that were
// set (proto2 presence) using proto names as keys, which is the oracle's shape.
function presenceObject(desc: DescMessage, message: Message): Record<string, unknown> {
  const msg = message as unknown as Record<string, unknown> & {
    $unknown?: { no: number; wireType: number; data: Uint8Array }[];
  };
  const out: Record<string, unknown> = {};
  for (const field of desc.fields) {
    if (!isFieldSet(message as never, field)) continue;
    const value = msg[field.localName];
    switch (field.fieldKind) {
      case "message":
        out[field.name] = presenceObject(field.message, value as Message);
        break;
      case "list":
        out[field.name] =
          field.listKind === "message"
            ? (value as Message[]).map((m) => presenceObject(field.message, m))
            : [...(value as unknown[])];
        break;
      case "map":
        out[field.name] =
          field.mapKind === "message"
            ? Object.fromEntries(
                Object.entries(value as Record<string, Message>).map(([k, m]) => [k, presenceObject(field.message, m)]),
              )
            : { ...(value as Record<string, unknown>) };
        break;
      default:
        out[field.name] = value;
    }
  }
  if (msg.$unknown !== undefined && msg.$unknown.length > 0) {
    out["$unknown"] = msg.$unknown.map(({ no, wireType, data }) => ({ no, wireType, data: new Uint8Array(data) }));
  }
  return out;
}

describe("protobufjs oracle agrees with protobuf-es (gen/)", () => {
  const all = allFolders().flatMap((folder) => fixtures(folder));
  it.each(
    all.map(
      (fx) =>
        [`${fx.folder}/${fx.kind}${fx.file.includes("after_roundtrip") ? " (after_roundtrip)" : ""}`, fx] as const,
    ),
  )("%s", (_name, fx) => {
    const { envelope, object } = decodeFixture(fx);
    const desc = file_k8s_io_api_networking_v1_networking.messages.find((m) => m.name === fx.kind);
    if (desc === undefined) throw new Error(`no protobuf-es schema for ${fx.kind}`);
    const esMessage = fromBinary(desc, envelope["raw"] as Uint8Array);
    expect(object).toStrictEqual(presenceObject(desc, esMessage));
  });
});
