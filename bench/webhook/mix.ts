// The request mix of the webhook bench: AdmissionReviews as the API server
// sends them, built from the real Ingresses and NetworkPolicies of
// bench/corpus/, CREATE and UPDATE (with a plausible stored version as
// oldObject), valid and mutated into objects the API server refuses. Each
// carries the exact answer admit() gives in-process, so every served answer
// can be checked against it.

import { createHash } from "node:crypto";
import { admit } from "../../src/admission/admit.js";
import { ADMISSION_API_VERSION, readAdmissionReview } from "../../src/admission/review.js";
import type { JsonObject } from "../../src/networking/index.js";
import type { CorpusObject } from "../corpus.js";
import { prng } from "../evaluator-inputs.js";

export const MIX_KINDS = ["Ingress", "NetworkPolicy"] as const;
type MixKind = (typeof MIX_KINDS)[number];

const RESOURCES: Record<MixKind, string> = { Ingress: "ingresses", NetworkPolicy: "networkpolicies" };

/** One review of the mix. */
export interface MixReview {
  readonly uid: string;
  readonly kind: MixKind;
  readonly operation: "CREATE" | "UPDATE";
  /** How the object was made invalid, or undefined for the corpus object as published. */
  readonly mutation: string | undefined;
  readonly dryRun: boolean;
  /** The request body (compact JSON). */
  readonly body: string;
  /** The response body the webhook must send: admit() in-process, serialized as the server does. */
  readonly expected: string;
  /** admit()'s verdict: allowed, or denied with 422 (or 400). */
  readonly allowed: boolean;
  readonly status: number | undefined;
}

export interface MixOptions {
  /** Share of reviews whose object is mutated into an invalid one (default 0.2). */
  readonly invalidShare?: number;
  /** Share of reviews that are UPDATEs (default 0.5). */
  readonly updateShare?: number;
  /** Share of reviews sent with dryRun (default 0.05). */
  readonly dryRunShare?: number;
  /** Seed of the deterministic choices and order (default 1). */
  readonly seed?: number;
}

// Requesters as a cluster has them: a GitOps controller, a person with kubectl, CI with a token.
const USERS = [
  {
    username: "system:serviceaccount:argocd:argocd-application-controller",
    uid: "6f1c6a0e-8d3b-4c1e-9d52-1f0f2b7d9a11",
    groups: ["system:serviceaccounts", "system:serviceaccounts:argocd", "system:authenticated"],
  },
  { username: "alice@example.com", uid: "", groups: ["platform-team", "system:authenticated"] },
  {
    username: "system:serviceaccount:ci:deployer",
    uid: "0b5e2f3c-7a41-4d8e-a1b2-93c4d5e6f708",
    groups: ["system:serviceaccounts", "system:serviceaccounts:ci", "system:authenticated"],
  },
] as const;
const FIELD_MANAGERS = ["argocd-controller", "kubectl-client-side-apply", "helm"] as const;

/** A uid shaped like the API server's (a v4 UUID), derived from the mix's seed and index. */
function uuid(seed: number, i: number): string {
  const h = createHash("sha256").update(`clusterwire-bench-${seed}-${i}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type Mutation = { readonly name: string; readonly apply: (o: JsonObject) => boolean };

const spec = (o: JsonObject): JsonObject => {
  o["spec"] ??= {};
  return o["spec"] as JsonObject;
};
const meta = (o: JsonObject): JsonObject => o["metadata"] as JsonObject;

// Ways the API server refuses an object, each a mistake people make; `apply` says whether it applied.
const MUTATIONS: Record<MixKind, readonly Mutation[]> = {
  Ingress: [
    {
      name: "metadata.labels: value with a space",
      apply: (o) => {
        meta(o)["labels"] = { ...((meta(o)["labels"] as JsonObject | undefined) ?? {}), tier: "front end" };
        return true;
      },
    },
    {
      name: "spec.rules[0].host: wildcard not leftmost",
      apply: (o) => {
        const rules = spec(o)["rules"] as JsonObject[] | undefined;
        if (rules?.[0] === undefined) return false;
        rules[0]["host"] = "shop.*.example.com";
        return true;
      },
    },
    {
      name: "spec.defaultBackend: service port 0",
      apply: (o) => {
        spec(o)["defaultBackend"] = { service: { name: "web", port: { number: 0 } } };
        return true;
      },
    },
  ],
  NetworkPolicy: [
    {
      name: "metadata.labels: value with a space",
      apply: (o) => {
        meta(o)["labels"] = { ...((meta(o)["labels"] as JsonObject | undefined) ?? {}), tier: "front end" };
        return true;
      },
    },
    {
      name: "spec.ingress[].from[].ipBlock.cidr: /33",
      apply: (o) => {
        const s = spec(o);
        s["ingress"] = [
          ...((s["ingress"] as JsonObject[] | undefined) ?? []),
          { from: [{ ipBlock: { cidr: "10.0.0.0/33" } }] },
        ];
        return true;
      },
    },
    {
      name: "spec.policyTypes: unknown type",
      apply: (o) => {
        spec(o)["policyTypes"] = ["Ingress", "Sideways"];
        return true;
      },
    },
  ],
};

/** Builds the mix from corpus objects (only Ingress and NetworkPolicy are taken), in a deterministic shuffled order. */
export function buildMix(objects: readonly CorpusObject[], options: MixOptions = {}): MixReview[] {
  const seed = options.seed ?? 1;
  const invalidShare = options.invalidShare ?? 0.2;
  const updateShare = options.updateShare ?? 0.5;
  const dryRunShare = options.dryRunShare ?? 0.05;
  // prng is seeded (mulberry32), so a mix is the same on every run.
  const random = prng(seed);
  const picked = objects.filter((o): o is CorpusObject & { kind: MixKind } =>
    (MIX_KINDS as readonly string[]).includes(o.kind),
  );
  const out: MixReview[] = [];
  picked.forEach((source, i) => {
    const kind = source.kind;
    const operation = random() < updateShare ? "UPDATE" : "CREATE";
    const dryRun = random() < dryRunShare;
    const object = JSON.parse(source.json) as JsonObject;
    const namespace = (meta(object)["namespace"] as string | undefined) || "default";
    const name = meta(object)["name"] as string;
    // The API server fills the namespace, and for UPDATE sends the object as stored plus the change.
    meta(object)["namespace"] = namespace;
    let oldObject: JsonObject | null = null;
    if (operation === "UPDATE") {
      const stored = meta(object);
      stored["uid"] = uuid(seed, 1_000_000 + i);
      stored["resourceVersion"] = String(100_000 + i);
      stored["generation"] = 1;
      stored["creationTimestamp"] = "2026-01-15T10:00:00Z";
      oldObject = JSON.parse(JSON.stringify(object)) as JsonObject;
      // The change: a new revision annotation, as a GitOps sync or `kubectl apply` makes.
      stored["annotations"] = {
        ...((stored["annotations"] as JsonObject | undefined) ?? {}),
        "deploy.example.com/revision": String(2 + (i % 7)),
      };
    }
    let mutation: string | undefined;
    if (random() < invalidShare) {
      const candidates = MUTATIONS[kind];
      const start = Math.floor(random() * candidates.length);
      for (let k = 0; k < candidates.length && mutation === undefined; k++) {
        const m = candidates[(start + k) % candidates.length]!;
        if (m.apply(object)) mutation = m.name;
      }
    }
    const user = USERS[i % USERS.length]!;
    const gvk = { group: "networking.k8s.io", version: "v1", kind };
    const gvr = { group: "networking.k8s.io", version: "v1", resource: RESOURCES[kind] };
    const uid = uuid(seed, i);
    const request = {
      uid,
      kind: gvk,
      resource: gvr,
      requestKind: gvk,
      requestResource: gvr,
      name,
      namespace,
      operation,
      userInfo: user,
      object,
      oldObject,
      dryRun,
      options: {
        apiVersion: "meta.k8s.io/v1",
        kind: operation === "CREATE" ? "CreateOptions" : "UpdateOptions",
        fieldManager: FIELD_MANAGERS[i % FIELD_MANAGERS.length]!,
      },
    };
    const body = JSON.stringify({ apiVersion: ADMISSION_API_VERSION, kind: "AdmissionReview", request });
    const outcome = admit(readAdmissionReview(JSON.parse(body)));
    const expected = JSON.stringify({
      apiVersion: ADMISSION_API_VERSION,
      kind: "AdmissionReview",
      response: outcome.response,
    });
    out.push({
      uid,
      kind,
      operation,
      mutation,
      dryRun,
      body,
      expected,
      allowed: outcome.response.allowed,
      status: outcome.response.status?.code,
    });
  });
  // Deterministic shuffle (Fisher-Yates), so neighbours differ in kind, size and verdict.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The mix in numbers: reviews by kind, operation and verdict, body sizes, mutations used. */
export function describeMix(mix: readonly MixReview[]): string {
  const count = (f: (r: MixReview) => boolean): number => mix.filter(f).length;
  const sizes = mix.map((r) => Buffer.byteLength(r.body)).sort((a, b) => a - b);
  const lines = [`${mix.length} AdmissionReviews from bench/corpus/ (each sent in turn on every connection):`];
  for (const kind of MIX_KINDS) {
    for (const op of ["CREATE", "UPDATE"] as const) {
      const of = (r: MixReview): boolean => r.kind === kind && r.operation === op;
      lines.push(
        `  ${kind.padEnd(13)} ${op.padEnd(6)} ${String(count(of)).padStart(4)}: ` +
          `${count((r) => of(r) && r.allowed)} allowed, ${count((r) => of(r) && r.status === 422)} denied 422, ` +
          `${count((r) => of(r) && r.status === 400)} 400`,
      );
    }
  }
  const mutations = new Map<string, number>();
  for (const r of mix) if (r.mutation !== undefined) mutations.set(r.mutation, (mutations.get(r.mutation) ?? 0) + 1);
  lines.push(
    `  mutated into invalid objects: ${count((r) => r.mutation !== undefined)} ` +
      `(${[...mutations].map(([m, n]) => `${n}× ${m}`).join("; ")})`,
  );
  lines.push(`  dryRun: ${count((r) => r.dryRun)}`);
  const at = (q: number): number => sizes[Math.min(sizes.length - 1, Math.floor(q * sizes.length))] ?? 0;
  lines.push(`  body bytes: median ${at(0.5)}, p90 ${at(0.9)}, max ${sizes.at(-1) ?? 0}`);
  return lines.join("\n");
}
