// The validator clusterwire's validate() is measured against: kubernetes-models
// `.validate()`, i.e. ajv running the JSON schema generated from the
// Kubernetes OpenAPI spec (standalone-compiled, with the formats of
// @kubernetes-models/validate). It is what a TypeScript user checks manifests
// with today. Also the untimed coverage check: objects the API server rejects,
// run through both validators once.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fromJson, validate, type FieldError, type NetworkingObject } from "../src/networking/index.js";
import { repoRoot } from "./fixtures.js";

/** A kubernetes-models object: `.validate()` returns nothing or throws a ValidationError. */
export interface KmModel {
  validate(): void;
  toJSON(): unknown;
}

type KmClass = new (data: Record<string, unknown>) => KmModel;

export interface KubernetesModels {
  /** "kubernetes-models 4.5.1". */
  readonly label: string;
  /** Time the three model modules took to import (their ajv code is precompiled). */
  readonly loadMs: number;
  /** Constructs the model class named by `obj.kind`, as `new NetworkPolicy(obj)` would. */
  construct(obj: Record<string, unknown>): KmModel;
}

/**
 * Imports the NetworkPolicy, Ingress and IngressClass models. Never throws:
 * a failure comes back as its message, so the bench can go on without them.
 */
export async function loadKubernetesModels(): Promise<KubernetesModels | { readonly error: string }> {
  try {
    const t0 = performance.now();
    const [np, ing, ic] = await Promise.all([
      import("kubernetes-models/networking.k8s.io/v1/NetworkPolicy"),
      import("kubernetes-models/networking.k8s.io/v1/Ingress"),
      import("kubernetes-models/networking.k8s.io/v1/IngressClass"),
    ]);
    const loadMs = performance.now() - t0;
    const classes = new Map<string, KmClass>([
      ["NetworkPolicy", np.NetworkPolicy as unknown as KmClass],
      ["Ingress", ing.Ingress as unknown as KmClass],
      ["IngressClass", ic.IngressClass as unknown as KmClass],
    ]);
    for (const [kind, cls] of classes) {
      if (typeof cls !== "function" || typeof cls.prototype.validate !== "function")
        throw new Error(`no ${kind} model class with validate()`);
    }
    let version = "?";
    try {
      const pkg = JSON.parse(
        readFileSync(resolve(repoRoot(), "node_modules", "kubernetes-models", "package.json"), "utf8"),
      ) as { version?: unknown };
      if (typeof pkg.version === "string") version = pkg.version;
    } catch {
      // The version is only a label.
    }
    return {
      label: `kubernetes-models ${version}`,
      loadMs,
      construct(obj) {
        const cls = classes.get(String(obj["kind"]));
        if (cls === undefined) throw new Error(`kubernetes-models: no model loaded for kind ${String(obj["kind"])}`);
        return new cls(obj);
      },
    };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** The outcome of one validator on one object. */
export interface Verdict {
  readonly rejected: boolean;
  /** The first error, shortened, when rejected; the exception when the validator threw. */
  readonly why: string;
  readonly errors: number;
  /** The validator threw instead of answering (a bug, not a verdict). */
  readonly threw?: true;
}

const ACCEPTED: Verdict = { rejected: false, why: "", errors: 0 };

function firstField(errors: readonly FieldError[]): string {
  const e = errors[0];
  return e === undefined ? "" : `${e.field}: ${e.type.replace(/^FieldValue/, "")}`;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** clusterwire: fromJson (a decode error counts as a rejection), then validate. */
export function clusterwireVerdict(json: string): Verdict {
  let obj: NetworkingObject;
  try {
    obj = fromJson(json);
  } catch (e) {
    return { rejected: true, why: `decode: ${messageOf(e)}`, errors: 1 };
  }
  let errors: FieldError[];
  try {
    errors = validate(obj);
  } catch (e) {
    return { rejected: false, why: `validate threw: ${messageOf(e)}`, errors: 0, threw: true };
  }
  return errors.length === 0 ? ACCEPTED : { rejected: true, why: firstField(errors), errors: errors.length };
}

/** kubernetes-models: JSON.parse, construct, validate (which throws). */
export function kubernetesModelsVerdict(km: KubernetesModels, json: string): Verdict {
  try {
    km.construct(JSON.parse(json) as Record<string, unknown>).validate();
    return ACCEPTED;
  } catch (e) {
    const ajv = (e as { errors?: unknown } | null)?.errors;
    const message = messageOf(e);
    // ajv-i18n joins its messages with ", "; the first one is enough here.
    return { rejected: true, why: message.split(", ")[0] ?? message, errors: Array.isArray(ajv) ? ajv.length : 1 };
  }
}

/** An object the API server rejects (or accepts), for the coverage table. */
export interface CoverageCase {
  readonly label: string;
  readonly apiserver: "rejects" | "accepts";
  readonly json: string;
}

export interface CoverageRow {
  readonly label: string;
  readonly apiserver: "rejects" | "accepts";
  readonly clusterwire: Verdict;
  /** Absent when kubernetes-models did not load. */
  readonly kubernetesModels?: Verdict;
}

const meta = (name = "example", namespace?: string) => ({ name, ...(namespace !== undefined ? { namespace } : {}) });

function networkPolicy(spec: Record<string, unknown>, name = "example"): string {
  return JSON.stringify({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(name, "default"),
    spec,
  });
}

function npIngress(rule: Record<string, unknown>): string {
  return networkPolicy({ podSelector: {}, ingress: [rule] });
}

function ingress(spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: meta("example", "default"),
    spec,
  });
}

const web = { service: { name: "web", port: { number: 80 } } };

function ingressPath(path: Record<string, unknown>, host = "example.com"): string {
  return ingress({ rules: [{ host, http: { paths: [{ path: "/", pathType: "Prefix", backend: web, ...path }] } }] });
}

/**
 * Objects on both sides of the line: the semantic rules a JSON schema cannot
 * express (../shared/docs/toolchain.md §5.2, ../shared/docs/validation-rules.md §5–§7), three controls the
 * schema does catch, and one object the schema rejects but the API server
 * accepts. The expected API server outcome comes from ../shared/docs/validation-rules.md.
 */
export function coverageCases(): CoverageCase[] {
  return [
    {
      label: "NetworkPolicy: except outside cidr",
      apiserver: "rejects",
      json: npIngress({ from: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["192.168.0.0/16"] } }] }),
    },
    {
      label: "NetworkPolicy: cidr 10.0.0.300/24",
      apiserver: "rejects",
      json: npIngress({ from: [{ ipBlock: { cidr: "10.0.0.300/24" } }] }),
    },
    {
      label: "NetworkPolicy: port 70000 with endPort 10",
      apiserver: "rejects",
      json: npIngress({ ports: [{ protocol: "TCP", port: 70000, endPort: 10 }] }),
    },
    {
      label: "NetworkPolicy: named port with endPort",
      apiserver: "rejects",
      json: npIngress({ ports: [{ protocol: "TCP", port: "https", endPort: 8443 }] }),
    },
    {
      label: "NetworkPolicy: peer with ipBlock and podSelector",
      apiserver: "rejects",
      json: npIngress({ from: [{ ipBlock: { cidr: "10.0.0.0/8" }, podSelector: { matchLabels: { app: "web" } } }] }),
    },
    {
      label: "NetworkPolicy: metadata.name Bad_Name",
      apiserver: "rejects",
      json: networkPolicy({ podSelector: {} }, "Bad_Name"),
    },
    { label: "Ingress: host foo.*.example.com", apiserver: "rejects", json: ingressPath({}, "foo.*.example.com") },
    { label: 'Ingress: Prefix path "relative"', apiserver: "rejects", json: ingressPath({ path: "relative" }) },
    {
      label: "Ingress: service port with name and number",
      apiserver: "rejects",
      json: ingressPath({ backend: { service: { name: "web", port: { name: "http", number: 80 } } } }),
    },
    {
      label: "IngressClass: Cluster scope with namespace",
      apiserver: "rejects",
      json: JSON.stringify({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: meta("example"),
        spec: {
          controller: "example.com/ingress",
          parameters: { kind: "Params", name: "p", scope: "Cluster", namespace: "default" },
        },
      }),
    },
    // Controls: the schema's enums catch these.
    {
      label: 'control: policyTypes ["Ingres"]',
      apiserver: "rejects",
      json: networkPolicy({ podSelector: {}, policyTypes: ["Ingres"] }),
    },
    {
      label: "control: protocol ICMP",
      apiserver: "rejects",
      json: npIngress({ ports: [{ protocol: "ICMP", port: 80 }] }),
    },
    { label: "control: pathType Whatever", apiserver: "rejects", json: ingressPath({ pathType: "Whatever" }) },
    // The schema marks podSelector required; the API server reads a missing one as {} (all pods).
    {
      label: "NetworkPolicy: spec without podSelector",
      apiserver: "accepts",
      json: networkPolicy({ policyTypes: ["Ingress"] }),
    },
  ];
}

/** Runs every case through both validators once (not timed). */
export function runCoverage(km: KubernetesModels | undefined): CoverageRow[] {
  return coverageCases().map((c) => ({
    label: c.label,
    apiserver: c.apiserver,
    clusterwire: clusterwireVerdict(c.json),
    ...(km !== undefined ? { kubernetesModels: kubernetesModelsVerdict(km, c.json) } : {}),
  }));
}
