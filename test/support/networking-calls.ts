/**
 * One run of the public clusterwire/networking calls a browser page makes,
 * written once and run twice: in Node on the sources, and in Chromium on the
 * browser bundle (test/suites/browser-bundle.test.ts bundles this file alone,
 * so it imports the library's types only and gets the library as `cw`).
 * The result is plain JSON, so the two runs compare with one deep equality.
 */
import type * as Networking from "../../src/networking/index.js";
import type { ClusterNamespace, ClusterPod, Connection, JsonValue, RouteRequest } from "../../src/networking/index.js";

export interface CallsInput {
  /** Upstream round-trip fixtures of one kind: .pb as base64, .json and .yaml as text. */
  readonly fixtures: readonly {
    readonly kind: string;
    readonly pb: string;
    readonly json: string;
    readonly yaml: string;
  }[];
  /** YAML files of objects the API server rejects. */
  readonly invalid: readonly { readonly name: string; readonly yaml: string }[];
  /** YAML text with `!!binary` values, some not UTF-8. */
  readonly binaryYaml: string;
  /** Multi-document YAML with Ingresses (and other kinds) to route over. */
  readonly ingressYaml: string;
  readonly routes: readonly RouteRequest[];
  readonly cluster: {
    readonly namespaces: readonly ClusterNamespace[];
    readonly pods: readonly ClusterPod[];
    readonly policies: readonly JsonValue[];
  };
  readonly connections: readonly Connection[];
  readonly tablePorts: readonly (number | string)[];
}

/** Standard base64 with atob/btoa, which Node 20 and browsers both have. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A value as JSON: bigints as "<n>n", bytes as base64. */
function plain(value: unknown): JsonValue {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? toBase64(v) : v,
  );
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}

/** The call's result as JSON, or the error it threw: its class name and message. */
function attempt(call: () => unknown): JsonValue {
  try {
    return { ok: plain(call()) };
  } catch (e) {
    return e instanceof Error ? { threw: e.name, message: e.message } : { threw: String(e) };
  }
}

export function runNetworkingCalls(cw: typeof Networking, input: CallsInput): JsonValue {
  const errorsOf = (obj: Networking.NetworkingObject) => cw.validate(obj).map((e) => cw.formatFieldError(e));

  const fixtures = input.fixtures.map((f) => {
    const pb = fromBase64(f.pb);
    return {
      kind: f.kind,
      decoded: attempt(() => cw.toJson(cw.decode(pb))),
      reencoded: attempt(() => toBase64(cw.encode(cw.decode(pb)))),
      jsonToPb: attempt(() => toBase64(cw.encode(cw.fromJson(f.json)))),
      pbToJson: attempt(() => cw.toJsonString(cw.decode(pb))),
      pbToYaml: attempt(() => cw.toYaml(cw.decode(pb))),
      yamlToPb: attempt(() => cw.fromYaml(f.yaml).map((o) => toBase64(cw.encode(o)))),
      validate: attempt(() => errorsOf(cw.fromJson(f.json))),
      warnings: attempt(() => cw.apiWarnings(cw.fromJson(f.json))),
      truncated: attempt(() => cw.decode(pb.subarray(0, Math.floor(pb.length / 2)))),
    };
  });

  const invalid = input.invalid.map((f) => ({
    name: f.name,
    errors: attempt(() => cw.fromYaml(f.yaml).map((o) => errorsOf(o))),
    status: attempt(() => cw.fromYaml(f.yaml).map((o) => cw.toStatus(o, cw.validate(o)))),
  }));

  const binary = attempt(() => cw.fromYaml(input.binaryYaml).map((o) => cw.toJsonString(o)));
  const badYaml = attempt(() => cw.fromYaml("kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata: [\n"));

  const ingresses = cw.fromYaml(input.ingressYaml).filter((o) => o.$typeName === "k8s.io.api.networking.v1.Ingress");
  const router = cw.createRouter({ ingresses });
  const routes = input.routes.map((r) => ({ request: plain(r), result: attempt(() => router.resolve(r)) }));

  const engine = cw.createPolicyEngine({
    namespaces: input.cluster.namespaces,
    pods: input.cluster.pods,
    policies: input.cluster.policies.map((p) => cw.fromJson(p) as Networking.NetworkPolicy),
  });
  const decisions = input.connections.map((c) => attempt(() => engine.evaluate(c)));
  const tables = input.tablePorts.map((port) => attempt(() => engine.truthTable({ port })));
  const unknownPod = attempt(() =>
    engine.evaluate({ from: { pod: "nowhere/none" }, to: { pod: "nowhere/none" }, port: 80 }),
  );

  return plain({
    fixtures,
    invalid,
    binary,
    badYaml,
    router: { inScope: router.inScope, outOfScope: router.outOfScope, skipped: router.skipped, routes },
    engine: { pods: engine.pods, skipped: engine.skipped, decisions, tables, unknownPod },
  });
}
