// The recorded admission cases clusterwire/testing ships: from the golden answers, the requests
// an admission webhook could be asked about (a JSON body the API server decoded, with no unknown
// or repeated field), each as the AdmissionRequest's object (and oldObject) and the server's own
// verdict on it: admitted with its warnings, or refused by its validation with a 422 Status.
// `npm run conformance -- --admission-cases write` writes src/testing/recorded/; the test
// test/conformance/campaign/admission-cases.test.ts checks the committed files are what this
// makes from the committed golden answers.
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { join } from "node:path";
import {
  decode,
  fromJson,
  type JsonObject,
  readManifests,
  toJson,
  type KubernetesVersion,
} from "../../src/networking/index.js";
import type { GoldenFile } from "./golden.js";
import { isNamespaced } from "./plan.js";
import { prepared, storedObject } from "./predict.js";
import type { CampaignRequest, ServerAnswer } from "./request.js";
import type { StoredCase } from "../../src/testing/recorded-admission.js";

export type { StoredCase };

export interface StoredCases {
  readonly server: string;
  readonly kubernetesVersion: KubernetesVersion;
  readonly cases: readonly StoredCase[];
}

/** The module that holds the cases of `server` (e.g. v1.35.4), relative to the repository. */
export function recordedModulePath(root: string, server: string): string {
  return join(root, "src", "testing", "recorded", `${server.replaceAll(".", "-")}.ts`);
}

// The decoder's own warnings: a webhook is called after decoding and never draws them.
const DECODE_WARNING = /^unknown field |^duplicate field /;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The answer's body as JSON (a protobuf body decoded); undefined when it does not read. */
function answerJson(answer: ServerAnswer): Json | undefined {
  try {
    const value = answer.contentType.startsWith("application/vnd.kubernetes.protobuf")
      ? toJson(decode(Buffer.from(answer.body, "base64")))
      : (JSON.parse(answer.body) as unknown);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Why a record is no admission case, or undefined when it is one. */
function excluded(r: CampaignRequest, answer: ServerAnswer): string | undefined {
  if (r.format !== "json") return "not a JSON body";
  if (answer.status !== 200 && answer.status !== 201 && answer.status !== 422) return `answered ${answer.status}`;
  if (answer.warnings.some((w) => DECODE_WARNING.test(w))) return "unknown or repeated fields";
  // Under fieldValidation=Ignore the server says nothing of unknown fields: read the body for them.
  const [entry, more] = readManifests(r.body, { format: "json", fieldValidation: "Warn" });
  if (entry === undefined || more !== undefined || entry.type !== "object") return "not one object";
  if (entry.warnings.length > 0) return "unknown or repeated fields";
  return undefined;
}

/** The case of one record, or undefined when a webhook would not be asked about it. */
export function admissionCase(r: CampaignRequest, answer: ServerAnswer): StoredCase | undefined {
  if (excluded(r, answer) !== undefined) return undefined;
  const object = JSON.parse(r.body) as Json;
  const body = answerJson(answer);
  if (body === undefined) return undefined;
  const meta: Json = isObject(object.metadata) ? object.metadata : {};
  object.metadata = meta;
  // As the API server's handler does before admission: the request's namespace on a namespaced
  // object that has none, none on a cluster-scoped one.
  if (isNamespaced(r.kind)) meta.namespace = r.namespace ?? "";
  else delete meta.namespace;
  // A generated name is made before validation: the one the server made, from its answer.
  if ((meta.name === undefined || meta.name === "") && typeof meta.generateName === "string") {
    const made = answer.status === 422 ? (body.details as Json | undefined)?.name : (body.metadata as Json)?.name;
    if (typeof made !== "string" || made === "") return undefined;
    meta.name = made;
  }
  // What a webhook is sent: the object as the registry prepared it before admission (status
  // wiped on create, generation set, the v1 defaults), the campaign's prediction that the
  // returned objects confirm; without uid, creationTimestamp and managedFields, which the
  // server fills anew for every request.
  const seen = toJson(prepared(fromJson(object as JsonObject), storedObject(r), r)) as JsonObject;
  const warnings = answer.warnings.filter((w) => !DECODE_WARNING.test(w));
  const head = {
    kind: r.kind,
    operation: r.operation === "create" ? ("CREATE" as const) : ("UPDATE" as const),
    ...(r.operation === "status" ? { subResource: "status" as const } : {}),
    ...(isNamespaced(r.kind) ? { namespace: r.namespace ?? "" } : {}),
    name: typeof meta.name === "string" ? meta.name : "",
    source: r.source,
    object: seen,
    ...(r.old !== undefined ? { oldObject: JSON.parse(r.old) as JsonObject } : {}),
  };
  if (answer.status !== 422) return { ...head, allowed: true, ...(warnings.length > 0 ? { warnings } : {}) };
  const details = isObject(body.details) ? body.details : {};
  const causes = Array.isArray(details.causes) ? (details.causes as Json[]) : [];
  return {
    ...head,
    allowed: false,
    status: {
      code: 422,
      reason: String(body.reason ?? ""),
      message: String(body.message ?? ""),
      causes: causes.map((c) => ({
        reason: String(c.reason ?? ""),
        message: String(c.message ?? ""),
        field: String(c.field ?? ""),
      })),
    },
  };
}

/** The distinct cases of a golden file, in the order of their first record. */
export function admissionCases(golden: GoldenFile): StoredCases {
  const seen = new Map<string, StoredCase>();
  for (const { request, answer } of golden.records) {
    const c = admissionCase(request, answer);
    if (c === undefined) continue;
    const key = JSON.stringify([c.kind, c.operation, c.subResource, c.namespace, c.object, c.oldObject]);
    const before = seen.get(key);
    if (before === undefined) {
      seen.set(key, c);
      continue;
    }
    // The same object sent twice (under another fieldValidation or Accept) must be answered alike.
    const verdict = (x: StoredCase): string => JSON.stringify([x.allowed, x.warnings, x.status?.causes.length]);
    if (verdict(before) !== verdict(c)) {
      throw new Error(
        `the server answered the same ${c.kind} ${c.name} in two ways: ${verdict(before)} and ${verdict(c)}`,
      );
    }
  }
  return { server: golden.server, kubernetesVersion: golden.kubernetesVersion, cases: [...seen.values()] };
}

/**
 * The TypeScript module that ships `cases`: their JSON, brotli-compressed (a window as large as
 * the text: the cases repeat each other's objects far apart; gzip's 32 KB window made a third
 * more), in base64, decoded on first use. A module, not a data file, so that tsc builds it into
 * dist/ and every bundler and test runner finds it without a loader.
 */
export function recordedModule(cases: StoredCases): string {
  const text = JSON.stringify(cases);
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
  };
  const data = brotliCompressSync(text, { params }).toString("base64");
  return [
    `// Generated by \`npm run conformance -- --admission-cases write\` from the answers of a real`,
    `// kube-apiserver ${cases.server}: ${cases.cases.length} admission cases, as brotli-compressed JSON in base64. Do not edit.`,
    "",
    "/** The cases: their JSON, brotli-compressed, in base64 (read by ../recorded-admission.ts). */",
    // As biome formats it; the marker keeps npm run docs:check from reading rule ids in base64.
    "export const RECORDED: string =",
    `  ${JSON.stringify(data)}; // check-docs-ignore: base64, not prose`,
    "",
  ].join("\n");
}

/** The cases a module made by recordedModule holds (its text read back). */
export function readRecordedModule(text: string): StoredCases {
  const data = /export const RECORDED: string =\s*"([^"]*)";/.exec(text)?.[1];
  if (data === undefined) throw new Error("not a recorded-cases module");
  return JSON.parse(brotliDecompressSync(Buffer.from(data, "base64")).toString("utf8")) as StoredCases;
}
