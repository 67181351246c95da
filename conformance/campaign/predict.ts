// clusterwire's answer to a campaign request, made from the package's public API (readManifests,
// checkManifests, decode, applyDefaults, warnings; and the words of the decoder's kind error, to
// wrap as the server does): the status code, the warnings,
// and either the Status of a refusal or the object the server would return, short of the fields
// only the server can fill (uid, creationTimestamp, resourceVersion, managedFields, a generated
// name), which compare.ts checks by rule.
import { create } from "@bufbuild/protobuf";
import {
  applyDefaults,
  checkManifests,
  decode,
  fromJson,
  kindOf,
  ListMetaSchema,
  ObjectMetaSchema,
  readManifests,
  toJson,
  StatusSchema,
  warnings,
  type ManifestEntry,
  type NetworkingObject,
  type ObjectMeta,
  type Status,
} from "../../src/networking/index.js";
import { FIND_KIND_ERROR } from "../../src/networking/text/find-kind.js";
import type { KubernetesVersion } from "../../src/networking/index.js";
import { StatusDetailsSchema } from "../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { bodyBytes, pluralOf, type CampaignRequest } from "./request.js";

/** What clusterwire says the server answers. */
export interface Expected {
  readonly status: number;
  readonly warnings: readonly string[];
  /** A refusal: the Status body. */
  readonly failure?: Status;
  /** An accepted request: the object returned, before the server-filled fields. */
  readonly object?: NetworkingObject;
  /** Set when clusterwire cannot make a prediction for this request (never expected). */
  readonly unpredictable?: string;
  /** For an update: the stored object, decoded once for the prediction and the comparison. */
  readonly old?: NetworkingObject;
}

type WithMeta = NetworkingObject & { metadata?: ObjectMeta; spec?: unknown; status?: unknown };

// The strategies whose PrepareForCreate sets metadata.generation to 1, and bump it on a spec change.
const TRACKS_GENERATION = new Set(["Ingress", "IngressClass", "NetworkPolicy"]);
// The kinds with a status the main resource's create and update do not take from the request.
const HAS_STATUS = new Set(["Ingress", "ServiceCIDR"]);
// The status strategy that also keeps the stored labels, annotations and the rest of metadata.
const RESETS_META_FOR_STATUS = new Set(["ServiceCIDR"]);

/** The stored object of an update, decoded. */
export function storedObject(r: CampaignRequest): NetworkingObject | undefined {
  return r.old === undefined ? undefined : fromJson(r.old);
}

export function predict(r: CampaignRequest, version: KubernetesVersion): Expected {
  const old = storedObject(r);
  const subresource = r.operation === "status" ? ({ subresource: "status" } as const) : {};
  const entries = readEntries(r);
  if (entries.length !== 1) return unpredictable(`the body reads as ${entries.length} documents`);
  const entry = entries[0]!;
  const [verdict] = checkManifests(entries, {
    fieldValidation: r.fieldValidation,
    version,
    ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
    ...(old !== undefined ? { old } : {}),
    ...subresource,
  });
  if (verdict === undefined) return unpredictable("no verdict");
  const decodeWarnings = verdict.warnings.map((w) => w.message);
  switch (verdict.status) {
    case "error": {
      const kind = r.kind;
      const reason = verdict.failure?.message ?? "";
      // A body whose kind cannot even be read is not of a kind: the server says what it began with.
      const message = reason.startsWith(FIND_KIND_ERROR)
        ? `the object provided is unrecognized (must be of type ${kind}): ${reason} (${summary(r.body)})`
        : `${kind} in version "v1" cannot be handled as a ${kind}: ${reason}`;
      return { status: 400, warnings: [], failure: status(400, "BadRequest", message) };
    }
    case "invalid": {
      if (verdict.errors.length === 0 && verdict.refusals.every((x) => x.field === "metadata.resourceVersion")) {
        // A dry run never reaches the storage layer that refuses a create with a resourceVersion:
        // the object is accepted, and returned with the resourceVersion it was sent with.
        return accepted(r, entry, old, decodeWarnings, subresource);
      }
      const failure = fromJson(JSON.stringify(verdict.response)) as Status;
      return { status: failure.code, warnings: decodeWarnings, failure };
    }
    case "valid":
      return accepted(r, entry, old, decodeWarnings, subresource);
    case "skipped":
      return unpredictable(`skipped: ${verdict.reason ?? ""}`);
  }
}

/** An accepted request: the object returned, or the 409 of a name the server already holds. */
function accepted(
  r: CampaignRequest,
  entry: ManifestEntry,
  old: NetworkingObject | undefined,
  decodeWarnings: readonly string[],
  subresource: { subresource?: "status" },
): Expected {
  if (entry.type !== "object") return unpredictable("a valid verdict without an object");
  const object = prepared(entry.object, old, r);
  const more = warnings(entry.object, { ...(old !== undefined ? { old } : {}), ...subresource });
  if (r.exists === true && old === undefined) {
    // Validation passed; the storage layer then finds the name taken.
    const meta = (object as WithMeta).metadata;
    const name = meta?.name ?? "";
    const plural = pluralOf(r.kind);
    const failure = create(StatusSchema, {
      metadata: create(ListMetaSchema),
      status: "Failure",
      message: `${plural}.networking.k8s.io "${name}" already exists`,
      reason: "AlreadyExists",
      details: create(StatusDetailsSchema, { name, group: "networking.k8s.io", kind: plural }),
      code: 409,
    });
    return { status: 409, warnings: [...decodeWarnings, ...more], failure };
  }
  const status = r.operation === "create" ? 201 : 200;
  return { status, warnings: [...decodeWarnings, ...more], object, ...(old !== undefined ? { old } : {}) };
}

/**
 * The apiserver's summary of a body it cannot tell the kind of: its first 30 bytes, as text
 * when it starts with `{`, else in hex, with " ..." when there is more. The bytes are Go's
 * string: a UTF-8 sequence cut short at the end is one U+FFFD per byte in the Status's JSON.
 */
export function summary(body: string): string {
  const bytes = Buffer.from(body, "utf8");
  if (bytes.length === 0) return "<empty>";
  const head = bytes.subarray(0, 30);
  const more = bytes.length > 30 ? " ..." : "";
  if (bytes[0] !== 0x7b) return head.toString("hex") + more;
  // Where the last sequence starts, and whether all of it is there.
  let start = head.length;
  while (start > 0 && start > head.length - 4 && ((head[start - 1] as number) & 0xc0) === 0x80) start--;
  const lead = start > 0 ? (head[start - 1] as number) : 0;
  const want = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  const cut = lead >= 0xc0 && head.length - (start - 1) < want ? start - 1 : head.length;
  return head.subarray(0, cut).toString("utf8") + "\ufffd".repeat(head.length - cut) + more;
}

function unpredictable(why: string): Expected {
  return { status: 0, warnings: [], unpredictable: why };
}

function status(code: number, reason: string, message: string): Status {
  return create(StatusSchema, { metadata: create(ListMetaSchema), status: "Failure", message, reason, code });
}

/** The body as readManifests reads it; a protobuf body is decoded and taken as one object. */
function readEntries(r: CampaignRequest): ManifestEntry[] {
  if (r.format === "protobuf") {
    const object = decode(bodyBytes(r) as Uint8Array);
    return [{ type: "object", document: 1, line: 1, object, warnings: [], locate: () => undefined }];
  }
  // One request body, as the API server reads it: a repeated key is its strict decoding error, not kubectl's to settle.
  return readManifests(r.body, { format: r.format, fieldValidation: r.fieldValidation, reading: "server" });
}

/**
 * The object as the registry stores it: the request's namespace filled in (or dropped for a
 * cluster-scoped kind), the deletion fields cleared, status wiped on create and kept from the
 * stored object on update, spec kept on a status update, generation set, then the v1 defaults.
 */
export function prepared(
  input: NetworkingObject,
  old: NetworkingObject | undefined,
  r: CampaignRequest,
): NetworkingObject {
  const info = kindOf(input);
  // applyDefaults returns a copy: the decoded input is not changed.
  const o = applyDefaults(input) as WithMeta;
  o.metadata ??= create(ObjectMetaSchema);
  const meta = o.metadata;
  if (info.namespaced) {
    if (meta.namespace === "") meta.namespace = r.namespace ?? "";
  } else {
    meta.namespace = "";
  }
  delete (meta as Partial<ObjectMeta>).deletionTimestamp;
  delete (meta as Partial<ObjectMeta>).deletionGracePeriodSeconds;
  if (old === undefined) {
    if (HAS_STATUS.has(info.kind)) delete o.status;
    if (TRACKS_GENERATION.has(info.kind)) meta.generation = 1n;
    return o;
  }
  const stored = old as WithMeta;
  const storedMeta = stored.metadata ?? create(ObjectMetaSchema);
  meta.creationTimestamp = storedMeta.creationTimestamp;
  if (r.operation === "status") {
    // Shared with the stored object, which nothing changes after this.
    if (stored.spec === undefined) delete o.spec;
    else o.spec = stored.spec;
    if (RESETS_META_FOR_STATUS.has(info.kind)) {
      meta.labels = { ...storedMeta.labels };
      meta.annotations = { ...storedMeta.annotations };
      meta.finalizers = [...storedMeta.finalizers];
      meta.ownerReferences = [...storedMeta.ownerReferences];
    }
    if (TRACKS_GENERATION.has(info.kind)) meta.generation = storedMeta.generation;
    return o;
  }
  if (HAS_STATUS.has(info.kind)) {
    if (stored.status === undefined) delete o.status;
    else o.status = stored.status;
  }
  if (TRACKS_GENERATION.has(info.kind)) {
    const same = specText(o) === specText(stored);
    meta.generation = same ? storedMeta.generation : storedMeta.generation + 1n;
  }
  return o;
}

/** The spec as JSON text, for the generation rule (a spec that changes bumps it). */
function specText(o: WithMeta): string {
  const json = toJson(o) as { spec?: unknown };
  return JSON.stringify(json.spec ?? null, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}
