// From inputs to requests: the body format, the field validation and the Accept of each, the
// namespace it goes to, and the updates of stored objects. Every choice comes from the seeded
// Rng, so a seed names a campaign.
import { stringify } from "yaml";
import { encode, fromJson, type JsonObject } from "../../src/networking/index.js";
import type { ValidatedKind } from "../../src/testing/index.js";
import type { CampaignInput } from "./inputs.js";
import {
  ACCEPTS,
  BODY_FORMATS,
  FIELD_VALIDATIONS,
  type BodyFormat,
  type CampaignRequest,
  type Operation,
} from "./request.js";
import type { Rng } from "./rng.js";

/** The namespaces every campaign creates first; objects without one go to one of these. */
export const BASE_NAMESPACES = ["default", "web"] as const;
/** Where the stored objects of updates live. */
export const STORED_NAMESPACE = "cw-stored";

const NAMESPACED = new Set<ValidatedKind>(["Ingress", "NetworkPolicy"]);
const WITH_STATUS = new Set<ValidatedKind>(["Ingress", "ServiceCIDR"]);
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function isNamespaced(kind: ValidatedKind): boolean {
  return NAMESPACED.has(kind);
}

function ownNamespace(json: JsonObject): string | undefined {
  const meta = json.metadata;
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return undefined;
  const ns = (meta as JsonObject).namespace;
  return typeof ns === "string" && ns !== "" ? ns : undefined;
}

/** A body of `format` for `json`; undefined when protobuf cannot carry it (it does not decode as its kind). */
export function bodyOf(format: BodyFormat, json: JsonObject, yamlText: string | undefined): string | undefined {
  if (format === "json") return JSON.stringify(json);
  if (format === "yaml") return yamlText ?? stringify(json, { lineWidth: 0 });
  try {
    return Buffer.from(encode(fromJson(json))).toString("base64");
  } catch {
    return undefined;
  }
}

/** The namespaces the requests go to (each must exist before they are sent). */
export function namespacesOf(requests: readonly CampaignRequest[]): Set<string> {
  const out = new Set<string>(BASE_NAMESPACES);
  for (const r of requests) if (r.namespace !== undefined) out.add(r.namespace);
  return out;
}

/**
 * The create requests for `inputs`: one body format picked at random, or all three for inputs
 * marked everyFormat; field validation and Accept picked at random for each.
 */
export function planCreates(inputs: readonly CampaignInput[], rng: Rng): CampaignRequest[] {
  const out: CampaignRequest[] = [];
  for (const input of inputs) {
    const variants: JsonObject[] = [input.json];
    const own = ownNamespace(input.json);
    // A fixture's namespace is random text: also send it without one, so validation is reached.
    if (isNamespaced(input.kind) && own !== undefined && !DNS1123_LABEL.test(own) && input.everyFormat) {
      const copy = structuredClone(input.json);
      delete (copy.metadata as JsonObject).namespace;
      variants.push(copy);
    }
    for (const json of variants) {
      const formats = input.everyFormat ? BODY_FORMATS : [rng.pick(BODY_FORMATS)];
      for (const picked of formats) {
        let format: BodyFormat = picked;
        let body = bodyOf(format, json, json === input.json ? input.yaml : undefined);
        if (body === undefined) {
          // An object protobuf cannot carry (it does not decode as its kind) goes as JSON.
          format = "json";
          body = JSON.stringify(json);
        }
        const ns = ownNamespace(json);
        out.push({
          source: input.source,
          kind: input.kind,
          operation: "create",
          format,
          accept: rng.pick(ACCEPTS),
          fieldValidation: rng.pick(FIELD_VALIDATIONS),
          ...(isNamespaced(input.kind)
            ? { namespace: ns !== undefined && DNS1123_LABEL.test(ns) ? ns : rng.pick(BASE_NAMESPACES) }
            : {}),
          body,
        });
      }
    }
  }
  return out;
}

/** An object to store for real before its updates are sent, and the updates' new contents. */
export interface UpdatePlan {
  readonly kind: ValidatedKind;
  /** The object created for real (JSON), with its name and namespace set. */
  readonly stored: JsonObject;
  /** The updates, each made of the stored object and another input's spec, labels and annotations. */
  readonly updates: readonly { source: string; operation: Operation; from: JsonObject }[];
}

const IS_DEFAULT_CLASS = "ingressclass.kubernetes.io/is-default-class";

/**
 * `count` updates over stored objects made from valid inputs: each stored object gets a few
 * updates whose spec, labels and annotations (and status, for /status) come from other inputs
 * of its kind, valid or not.
 */
export function planUpdates(inputs: readonly CampaignInput[], count: number, rng: Rng): UpdatePlan[] {
  const byKind = new Map<ValidatedKind, CampaignInput[]>();
  for (const i of inputs) byKind.set(i.kind, [...(byKind.get(i.kind) ?? []), i]);
  const valid = inputs.filter((i) => i.source === "valid");
  const plans: UpdatePlan[] = [];
  let made = 0;
  for (let n = 0; made < count && valid.length > 0; n++) {
    const base = valid[rng.int(valid.length)]!;
    const stored = structuredClone(base.json);
    const meta = (stored.metadata ?? {}) as JsonObject;
    stored.metadata = meta;
    for (const k of [
      "resourceVersion",
      "uid",
      "generateName",
      "creationTimestamp",
      "managedFields",
      "deletionTimestamp",
      "deletionGracePeriodSeconds",
      "generation",
    ])
      delete meta[k];
    meta.name = base.kind === "IPAddress" ? `198.18.${(n >> 8) & 255}.${n & 255}` : `cw-stored-${n}`;
    if (isNamespaced(base.kind)) meta.namespace = STORED_NAMESPACE;
    else delete meta.namespace;
    if (meta.annotations !== undefined) delete (meta.annotations as JsonObject)[IS_DEFAULT_CLASS];
    const pool = byKind.get(base.kind) ?? [];
    const updates: UpdatePlan["updates"][number][] = [];
    const per = Math.min(count - made, 1 + rng.int(4));
    for (let u = 0; u < per; u++) {
      const from = pool[rng.int(pool.length)]!;
      const operation: Operation = WITH_STATUS.has(base.kind) && rng.next() < 0.4 ? "status" : "update";
      updates.push({ source: `${operation} with ${from.source}`, operation, from: from.json });
    }
    made += updates.length;
    plans.push({ kind: base.kind, stored, updates });
  }
  return plans;
}

/** The metadata fields only a server fills, which a body sent again must not carry: removed in place. */
export function withoutServerFields(meta: JsonObject): void {
  for (const k of ["uid", "resourceVersion", "creationTimestamp", "managedFields", "generation"]) delete meta[k];
}

/**
 * The body of an update: the stored object as the server returned it, without what the server
 * fills (so the same body can be replayed), with `from`'s labels, annotations and spec (and
 * status, for /status).
 */
export function updateBody(storedAnswer: JsonObject, from: JsonObject, operation: Operation): JsonObject {
  const next = structuredClone(storedAnswer);
  const meta = next.metadata as JsonObject;
  withoutServerFields(meta);
  const fromMeta = (from.metadata ?? {}) as JsonObject;
  for (const k of ["labels", "annotations"]) {
    if (fromMeta[k] !== undefined) meta[k] = structuredClone(fromMeta[k]!);
    else delete meta[k];
  }
  // Another input's annotations may be of another JSON type (a type-change mutation): null, a list.
  const annotations = meta.annotations;
  if (annotations !== null && typeof annotations === "object" && !Array.isArray(annotations))
    delete annotations[IS_DEFAULT_CLASS];
  for (const k of operation === "status" ? ["spec", "status"] : ["spec"]) {
    if (from[k] !== undefined) next[k] = structuredClone(from[k]!);
    else delete next[k];
  }
  return next;
}
