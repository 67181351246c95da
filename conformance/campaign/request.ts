// One request of the campaign and the server's answer to it, as plain data: what the golden
// files hold and what a reproduction replays.
import { parse } from "yaml";
import { decode, toJson } from "../../src/networking/index.js";
import type { ValidatedKind } from "../../src/testing/index.js";
import { resourceOf } from "../../src/testing/recorded-admission.js";

export const BODY_FORMATS = ["json", "yaml", "protobuf"] as const;
export type BodyFormat = (typeof BODY_FORMATS)[number];
export const FIELD_VALIDATIONS = ["Strict", "Warn", "Ignore"] as const;
export type FieldValidation = (typeof FIELD_VALIDATIONS)[number];
export const ACCEPTS = ["json", "protobuf"] as const;
export type Accept = (typeof ACCEPTS)[number];
/** A create, an update of a stored object, or an update through its /status subresource. */
export type Operation = "create" | "update" | "status";

export interface CampaignRequest {
  /** Where the object came from (see CampaignInput.source). */
  readonly source: string;
  readonly kind: ValidatedKind;
  readonly operation: Operation;
  readonly format: BodyFormat;
  readonly accept: Accept;
  readonly fieldValidation: FieldValidation;
  /** The namespace in the URL, for the namespaced kinds. */
  readonly namespace?: string;
  /** The name in the URL, for updates. */
  readonly name?: string;
  /** The body: text for JSON and YAML, base64 for protobuf. */
  readonly body: string;
  /** For updates: the stored object, as the server returned it on its real create (JSON). */
  readonly old?: string;
  /**
   * A create of a name the server already holds (an object the API server made itself, such as
   * the IPAddress of the kubernetes Service, or a stored object of this campaign): server state
   * that no validation can know, so the campaign says it.
   */
  readonly exists?: true;
}

/** What the server answered: base64 of the body when it is protobuf, the text otherwise. */
export interface ServerAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly warnings: readonly string[];
  readonly body: string;
}

export const MEDIA_TYPES: Readonly<Record<BodyFormat, string>> = {
  json: "application/json",
  yaml: "application/yaml",
  protobuf: "application/vnd.kubernetes.protobuf",
};

/** The resource's plural name, as in URLs and in some Status messages. */
export function pluralOf(kind: ValidatedKind): string {
  return resourceOf(kind);
}

/** The request's method and path, with dryRun=All and the field validation asked for. */
export function requestLine(r: CampaignRequest): { method: string; path: string } {
  const ns = r.namespace !== undefined ? `/namespaces/${encodeURIComponent(r.namespace)}` : "";
  const base = `/apis/networking.k8s.io/v1${ns}/${pluralOf(r.kind)}`;
  const query = `?dryRun=All&fieldValidation=${r.fieldValidation}`;
  if (r.operation === "create") return { method: "POST", path: `${base}${query}` };
  const name = encodeURIComponent(r.name ?? "");
  return { method: "PUT", path: `${base}/${name}${r.operation === "status" ? "/status" : ""}${query}` };
}

/**
 * The body as a JSON value, read by an independent reader where there is one (JSON.parse, the
 * yaml package; protobuf through clusterwire's decode); undefined when it does not read.
 */
export function bodyValue(r: CampaignRequest): unknown {
  try {
    if (r.format === "json") return JSON.parse(r.body) as unknown;
    if (r.format === "yaml") return parse(r.body) as unknown;
    return toJson(decode(Buffer.from(r.body, "base64")));
  } catch {
    return undefined;
  }
}

/** The body's bytes. */
export function bodyBytes(r: CampaignRequest): Uint8Array | string {
  return r.format === "protobuf" ? new Uint8Array(Buffer.from(r.body, "base64")) : r.body;
}
