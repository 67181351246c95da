// Server answer against clusterwire's prediction, for one request: the status code, the Warning
// headers in order, and the body byte for byte (the Status of a refusal, or the object returned,
// in JSON or protobuf as the request accepted). The fields only the server fills are checked by
// rule and then taken from its answer, so that the bytes can be compared whole.
import { clone, create } from "@bufbuild/protobuf";
import {
  decode,
  encode,
  fromJson,
  kindOf,
  ObjectMetaSchema,
  toJsonString,
  type NetworkingObject,
  type ObjectMeta,
} from "../../src/networking/index.js";
import { FIELD_MANAGER } from "./http.js";
import { explain } from "./known.js";
import type { Expected } from "./predict.js";
import type { CampaignRequest, ServerAnswer } from "./request.js";

/** One way the answers differ. */
export interface Difference {
  /** What differs: the status code, the warnings, the body, a server-filled field's rule, or no prediction. */
  readonly what: "status" | "warnings" | "body" | "server-field" | "unpredictable";
  readonly detail: string;
  /** A short form for grouping alike differences: where the two texts part, a few characters of each. */
  readonly key?: string;
  /** Set when this is a documented difference (see known.ts): its id. */
  readonly known?: string;
}

/** What a difference is, with numbers blanked, to group alike ones. */
export function signatureOf(differences: readonly Difference[]): string {
  return differences.map((d) => `${d.what}: ${(d.key ?? d.detail).replace(/\d+/g, "N").slice(0, 200)}`).join(" | ");
}

/** Whether every difference is a documented one. */
export function allKnown(differences: readonly Difference[]): boolean {
  return differences.length > 0 && differences.every((d) => d.known !== undefined);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// names.SimpleNameGenerator: the prefix (cut to 58 characters) and five of these.
const GENERATED_SUFFIX = "[bcdfghjklmnpqrstvwxz2456789]{5}";
const MAX_GENERATED_PREFIX = 58;

export function compare(r: CampaignRequest, expected: Expected, answer: ServerAnswer): Difference[] {
  if (expected.unpredictable !== undefined) return [{ what: "unpredictable", detail: expected.unpredictable }];
  const out: Difference[] = [];
  if (answer.status !== expected.status) {
    out.push({ what: "status", detail: `server ${answer.status}, clusterwire ${expected.status}` });
  }
  if (JSON.stringify(answer.warnings) !== JSON.stringify(expected.warnings)) {
    out.push({
      what: "warnings",
      detail: `server ${JSON.stringify(answer.warnings)}, clusterwire ${JSON.stringify(expected.warnings)}`,
      key: `server ${answer.warnings.length}, clusterwire ${expected.warnings.length}: ${[...answer.warnings, "|", ...expected.warnings].map((w) => w.replace(/"[^"]*"/g, "…").slice(0, 60)).join("; ")}`,
    });
  }
  if (out.some((d) => d.what === "status")) {
    const text = shown(r, answer.body);
    const message = /"message":"((?:[^"\\]|\\.)*)"/.exec(text)?.[1] ?? "";
    out.push({
      what: "body",
      detail: `server ${text}`,
      key: message.replace(/\\"(?:[^\\]|\\[^"])*\\"/g, "…").slice(0, 120),
    });
    return out;
  }
  if (expected.failure !== undefined) {
    const want = r.accept === "json" ? `${toJsonString(expected.failure)}\n` : b64(encode(expected.failure));
    if (want !== answer.body) out.push(bodyDifference(r, answer.body, want));
    return out;
  }
  if (expected.object !== undefined) {
    let server: NetworkingObject;
    try {
      server = r.accept === "json" ? fromJson(answer.body) : decode(Buffer.from(answer.body, "base64"));
    } catch (e) {
      return [...out, { what: "body", detail: `the server's object does not decode: ${(e as Error).message}` }];
    }
    const { object, problems } = withServerFields(r, expected.object, expected.old, server);
    out.push(...problems.map((detail) => ({ what: "server-field" as const, detail })));
    const want = r.accept === "json" ? `${toJsonString(object)}\n` : b64(encode(object));
    if (want !== answer.body) out.push(bodyDifference(r, answer.body, want));
  }
  return out;
}

type WithMeta = NetworkingObject & { metadata?: ObjectMeta };

/**
 * The predicted object with uid, creationTimestamp, resourceVersion, managedFields and a
 * generated name taken from the server's, each after checking it by rule.
 */
function withServerFields(
  r: CampaignRequest,
  predicted: NetworkingObject,
  stored: NetworkingObject | undefined,
  server: NetworkingObject,
): { object: NetworkingObject; problems: string[] } {
  const problems: string[] = [];
  const object = clone(kindOf(predicted).desc, predicted) as WithMeta;
  if (object.metadata === undefined) object.metadata = create(ObjectMetaSchema);
  const meta = object.metadata;
  const got = (server as WithMeta).metadata ?? create(ObjectMetaSchema);
  const oldMeta = (stored as WithMeta | undefined)?.metadata;
  if (oldMeta === undefined) {
    if (!UUID.test(got.uid)) problems.push(`metadata.uid ${JSON.stringify(got.uid)} is not a random UUID`);
    if (got.creationTimestamp === undefined) problems.push("metadata.creationTimestamp is missing");
    else meta.creationTimestamp = got.creationTimestamp;
    // A dry-run create is never stored: it keeps the resourceVersion it was sent with (usually none).
    if (got.resourceVersion !== meta.resourceVersion)
      problems.push(
        `a dry-run create has resourceVersion ${JSON.stringify(got.resourceVersion)}, not ${JSON.stringify(meta.resourceVersion)}`,
      );
    if (meta.name === "" && meta.generateName !== "") {
      const prefix = meta.generateName.slice(0, MAX_GENERATED_PREFIX).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (!new RegExp(`^${prefix}${GENERATED_SUFFIX}$`).test(got.name))
        problems.push(
          `metadata.name ${JSON.stringify(got.name)} is not generated from ${JSON.stringify(meta.generateName)}`,
        );
      meta.name = got.name;
    }
  } else {
    if (got.uid !== oldMeta.uid) problems.push(`metadata.uid ${got.uid} is not the stored object's ${oldMeta.uid}`);
    if (!/^[0-9]+$/.test(got.resourceVersion))
      problems.push(`metadata.resourceVersion ${JSON.stringify(got.resourceVersion)}`);
  }
  meta.uid = got.uid;
  meta.resourceVersion = got.resourceVersion;
  // One entry per manager and subresource: a create makes ours; a /status update that changes
  // nothing in status adds none (a dry run merges into what is stored).
  const ours = got.managedFields.filter((m) => m.manager === FIELD_MANAGER);
  // A /status update answers with the managedFields its strategy keeps, which may not be ours.
  if (ours.length === 0 && r.operation !== "status") problems.push(`managedFields has no entry of ${FIELD_MANAGER}`);
  for (const m of ours) {
    const bad = [
      m.operation !== "Update" && `operation ${m.operation}`,
      m.apiVersion !== "networking.k8s.io/v1" && `apiVersion ${m.apiVersion}`,
      m.fieldsType !== "FieldsV1" && `fieldsType ${m.fieldsType}`,
      m.subresource !== "" &&
        !(r.operation === "status" && m.subresource === "status") &&
        `subresource ${JSON.stringify(m.subresource)}`,
      m.time === undefined && "no time",
    ].filter((x) => x !== false);
    if (bad.length > 0) problems.push(`managedFields entry of ${FIELD_MANAGER}: ${bad.join(", ")}`);
  }
  meta.managedFields = got.managedFields;
  return { object, problems };
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** A body for a message, cut: as text (see asText), protobuf marked as such. */
function shown(r: CampaignRequest, body: string): string {
  return r.accept === "json" ? cut(body.trimEnd(), 600) : `(protobuf) ${cut(asText(r, body), 600)}`;
}

function cut(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n)}...`;
}

/** The bodies as text: JSON as sent, protobuf as the JSON clusterwire decodes it to. */
function asText(r: CampaignRequest, body: string): string {
  if (r.accept === "json") return body;
  try {
    return toJsonString(decode(Buffer.from(body, "base64")));
  } catch {
    return `(protobuf that does not decode) ${body}`;
  }
}

/** Where two bodies part, with some text around it. */
function bodyDifference(r: CampaignRequest, serverBody: string, oursBody: string): Difference {
  const server = asText(r, serverBody);
  const ours = asText(r, oursBody);
  let i = 0;
  while (i < server.length && i < ours.length && server[i] === ours[i]) i++;
  const from = Math.max(0, i - 80);
  const same = server === ours ? " (the same JSON: the protobuf bytes differ)" : "";
  const start = Math.max(0, i - 12);
  const known = explain(server, ours, r.format === "protobuf" ? "" : r.body);
  return {
    ...(known !== undefined ? { known: known.id } : {}),
    what: "body",
    detail: `${r.accept} bodies part at character ${i}${same}: server ${JSON.stringify(server.slice(from, i + 160))} ; clusterwire ${JSON.stringify(ours.slice(from, i + 160))}`,
    key:
      same !== ""
        ? "protobuf bytes"
        : `${JSON.stringify(server.slice(start, i + 24))} vs ${JSON.stringify(ours.slice(start, i + 24))}`,
  };
}
