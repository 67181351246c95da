// checkAdmission: puts each recorded admission case (or, live, each case's object sent to a real
// API server as a dry-run create) to the caller's admission function or running webhook, and
// reports where its verdict differs from the API server's.
import type { AdmissionRequest, AdmissionResponse } from "../admission/index.js";
import type { JsonObject, KubernetesVersion } from "../networking/index.js";
import { httpClient, httpsBase, type HttpClient } from "./admission-http.js";
import {
  AdmissionCheckError,
  RECORDED_SERVERS,
  recordedAdmissionCases,
  recordedVersion,
  type ExpectedAdmission,
  type RecordedAdmissionCase,
  type RecordedStatus,
} from "./recorded-admission.js";

/**
 * An admission function: given the request as `readAdmissionReview` reads it, the response a
 * webhook would send (what `admit(request).response` is).
 *
 * @example
 * ```ts
 * import { admit } from "clusterwire/admission";
 * import type { AdmissionFunction } from "clusterwire/testing";
 *
 * const mine: AdmissionFunction = (request) => admit(request).response;
 * ```
 */
export type AdmissionFunction = (request: AdmissionRequest) => AdmissionResponse | Promise<AdmissionResponse>;

/**
 * A running validating webhook: the URL kube-apiserver would call (https), the PEM of the CA
 * that signed its certificate (the caBundle; default: the system's CAs), and how long to wait
 * for each answer.
 *
 * @example
 * ```ts
 * import type { WebhookTarget } from "clusterwire/testing";
 *
 * const target: WebhookTarget = { url: "https://127.0.0.1:8443/validate", caPem: "-----BEGIN CERTIFICATE-----\n..." };
 * ```
 */
export interface WebhookTarget {
  /** The webhook's URL, e.g. `https://127.0.0.1:8443/validate`. */
  readonly url: string;
  /** The PEM of the CA to trust for it. */
  readonly caPem?: string;
  /** How long to wait for each answer; default 10,000 ms (kube-apiserver's default timeout). */
  readonly timeoutMs?: number;
}

/**
 * A running kube-apiserver whose answers to take as the expected ones: its URL, a bearer token
 * allowed to create networking.k8s.io/v1 objects (dry run only: nothing is stored), the PEM of
 * its CA, and the namespace the namespaced objects are sent to (it must exist; default `default`).
 *
 * @example
 * ```ts
 * import type { LiveApiServer } from "clusterwire/testing";
 *
 * const apiServer: LiveApiServer = { url: "https://127.0.0.1:6443", token: process.env.TOKEN ?? "", caPem: "..." };
 * ```
 */
export interface LiveApiServer {
  /** The API server's base URL, e.g. `https://127.0.0.1:6443`. */
  readonly url: string;
  /** A bearer token; none: the client is anonymous. */
  readonly token?: string;
  /** The PEM of its CA; default: the system's CAs. */
  readonly caPem?: string;
  /** Where namespaced objects are sent (it must exist); default `default`. */
  readonly namespace?: string;
}

/**
 * Options of {@link checkAdmission}.
 *
 * @example
 * ```ts
 * import type { CheckAdmissionOptions } from "clusterwire/testing";
 *
 * const options: CheckAdmissionOptions = { version: "1.37", compare: "status", limit: 200 };
 * ```
 */
export interface CheckAdmissionOptions {
  /** Whose answers: the recorded kube-apiserver of this Kubernetes version; default 1.35. */
  readonly version?: KubernetesVersion;
  /**
   * `verdict` (the default): the target must allow what the API server admits and deny what it
   * refuses. `status`: also, for a refusal, the same Status (code, reason, the same causes, and
   * the same message, its errors in any order: the API server lists a map's errors in random
   * order), and the same warnings (in any order).
   */
  readonly compare?: "verdict" | "status";
  /**
   * Ask this API server instead of the recording: each CREATE case's object is sent to it as a
   * dry-run create (`fieldValidation=Strict`), and its answer is the expected one. UPDATE cases
   * are left out (they need the stored object), and so are objects it answers other than with
   * 201 or 422 (a name it already holds, a type error): they count as skipped.
   */
  readonly apiServer?: LiveApiServer;
  /** Check at most this many cases, spread evenly over all of them (every kind); default all. */
  readonly limit?: number;
  /** Requests in flight at once; default 8. */
  readonly concurrency?: number;
  /** Stops the check; it then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * What the target answered, in the terms of {@link ExpectedAdmission}.
 *
 * @example
 * ```ts
 * import { admit } from "clusterwire/admission";
 * import { checkAdmission } from "clusterwire/testing";
 *
 * const report = await checkAdmission(() => ({ uid: "", allowed: true }), { limit: 50 });
 * console.log(report.disagreements[0]?.got?.allowed); // true
 * ```
 */
export interface GotAdmission {
  /** Whether the target allowed the request. */
  readonly allowed: boolean;
  /** The Status it answered with, if any. */
  readonly status?: RecordedStatus;
  /** Its warnings. */
  readonly warnings: readonly string[];
}

/**
 * One case where the target and the API server differ.
 *
 * @example
 * ```ts
 * import { checkAdmission } from "clusterwire/testing";
 *
 * const report = await checkAdmission((request) => ({ uid: request.uid, allowed: true }), { limit: 50 });
 * for (const d of report.disagreements) console.log(d.case.id, d.why);
 * ```
 */
export interface AdmissionDisagreement {
  /** The case (for a live check, with the live answer as its `expected`). */
  readonly case: RecordedAdmissionCase;
  /** What the API server answered. */
  readonly expected: ExpectedAdmission;
  /** What the target answered; absent when it answered nothing usable (it threw, an HTTP error). */
  readonly got?: GotAdmission;
  /** Why they differ, in a sentence. */
  readonly why: string;
}

/**
 * The outcome of {@link checkAdmission}: how many cases were put to the target, how many it
 * agreed on, each disagreement, and all of it as text to print.
 *
 * @example
 * ```ts
 * import { admit } from "clusterwire/admission";
 * import { checkAdmission } from "clusterwire/testing";
 *
 * const report = await checkAdmission((request) => admit(request).response, { limit: 100 });
 * console.log(report.summary);
 * if (report.disagreements.length > 0) process.exitCode = 1;
 * ```
 */
export interface AdmissionCheckReport {
  /** Whose answers were expected: the recorded server (e.g. `v1.35.4`), or the live API server's URL. */
  readonly server: string;
  /** Whether the expected answers came from a live API server. */
  readonly live: boolean;
  /** How the answers were compared. */
  readonly compare: "verdict" | "status";
  /** Cases put to the target. */
  readonly checked: number;
  /** Cases on which the target agreed with the API server. */
  readonly agreed: number;
  /** Live only: cases left out because the API server's answer was not an admission verdict. */
  readonly skipped: number;
  /** The cases on which they differ. */
  readonly disagreements: readonly AdmissionDisagreement[];
  /** The report as text: one line of counts, then a line per disagreement (the first 20). */
  readonly summary: string;
}

const GROUP = "networking.k8s.io";
const VERSION = "v1";
const NAMESPACED = new Set(["Ingress", "NetworkPolicy"]);
const SHOWN = 20;

type Ask = (c: RecordedAdmissionCase, uid: string, signal: AbortSignal | undefined) => Promise<GotAdmission | string>;

/**
 * Checks an admission function, or a running webhook, against the real API server's answers:
 * each recorded case (see {@link recordedAdmissionCases}; or, with `apiServer`, each case's object
 * answered by a live API server) is put to the target as an AdmissionReview v1 request (a
 * function is called with the request; a webhook URL is POSTed the AdmissionReview over HTTPS, as
 * kube-apiserver calls it), and its answer compared with the API server's.
 *
 * It never throws on a disagreement: the report lists them, for the caller to assert on. It
 * rejects with an {@link AdmissionCheckError} on a bad argument, and when the webhook or the API
 * server cannot be reached. A function that throws, or a webhook that answers with an HTTP error
 * or something other than an AdmissionReview with the request's uid, disagrees on that case.
 *
 * @example
 * ```ts
 * import { admit } from "clusterwire/admission";
 * import { checkAdmission } from "clusterwire/testing";
 *
 * const report = await checkAdmission((request) => admit(request).response, { compare: "status", limit: 100 });
 * console.log(report.checked, report.agreed); // 100 100
 * ```
 */
export async function checkAdmission(
  target: AdmissionFunction | WebhookTarget,
  options: CheckAdmissionOptions = {},
): Promise<AdmissionCheckReport> {
  const opts = checkedOptions(options);
  const signal = options.signal;
  signal?.throwIfAborted();
  let cases = await recordedAdmissionCases({ version: opts.version });
  const closers: (() => void)[] = [];
  try {
    let expectedOf: (c: RecordedAdmissionCase) => Promise<RecordedAdmissionCase | undefined> = async (c) => c;
    let server = RECORDED_SERVERS[opts.version];
    if (options.apiServer !== undefined) {
      const live = await liveExpectations(options.apiServer, opts.concurrency);
      closers.push(live.close);
      expectedOf = (c) => live.expected(c, signal);
      server = live.url;
      cases = cases.filter((c) => c.operation === "CREATE").map((c) => live.moved(c));
    }
    cases = spread(cases, opts.limit);
    const ask = await asker(target, opts.concurrency, closers);
    let agreed = 0;
    let skipped = 0;
    const disagreements: AdmissionDisagreement[] = [];
    const found = await pool(cases, opts.concurrency, async (recorded) => {
      signal?.throwIfAborted();
      const c = await expectedOf(recorded);
      if (c === undefined) {
        skipped++;
        return undefined;
      }
      const got = await ask(c, globalThis.crypto.randomUUID(), signal);
      const why = typeof got === "string" ? got : differs(c.expected, got, opts.compare);
      if (why === undefined) {
        agreed++;
        return undefined;
      }
      return { case: c, expected: c.expected, ...(typeof got === "string" ? {} : { got }), why };
    });
    for (const d of found) if (d !== undefined) disagreements.push(d);
    const checked = cases.length - skipped;
    return {
      server,
      live: options.apiServer !== undefined,
      compare: opts.compare,
      checked,
      agreed,
      skipped,
      disagreements,
      summary: summarise(server, options.apiServer !== undefined, opts.compare, checked, skipped, disagreements),
    };
  } finally {
    for (const close of closers) close();
  }
}

interface Checked {
  readonly version: KubernetesVersion;
  readonly compare: "verdict" | "status";
  readonly limit: number;
  readonly concurrency: number;
}

function checkedOptions(options: CheckAdmissionOptions): Checked {
  if (typeof options !== "object" || options === null) {
    throw new AdmissionCheckError("bad-option", "options: must be an object");
  }
  const compare = options.compare ?? "verdict";
  if (compare !== "verdict" && compare !== "status") {
    throw new AdmissionCheckError(
      "bad-option",
      `compare: must be "verdict" or "status", not ${JSON.stringify(compare)}`,
    );
  }
  const count = (value: unknown, name: string, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
      throw new AdmissionCheckError(
        "bad-option",
        `${name}: must be a whole number of at least 1, not ${String(value)}`,
      );
    }
    return value;
  };
  return {
    version: recordedVersion(options.version),
    compare,
    limit: count(options.limit, "limit", Number.MAX_SAFE_INTEGER),
    concurrency: count(options.concurrency, "concurrency", 8),
  };
}

/** At most `limit` of `cases`, evenly spaced, in order. */
function spread<T>(cases: readonly T[], limit: number): readonly T[] {
  if (cases.length <= limit) return cases;
  return Array.from({ length: limit }, (_, i) => cases[Math.floor((i * cases.length) / limit)]!);
}

/** The request a webhook is sent for a case, as kube-apiserver writes it (admission.k8s.io/v1). */
function reviewRequest(c: RecordedAdmissionCase, uid: string): JsonObject {
  const kind = { group: GROUP, version: VERSION, kind: c.kind };
  const resource = { group: GROUP, version: VERSION, resource: c.resource };
  const sub = c.subResource !== "" ? { subResource: c.subResource, requestSubResource: c.subResource } : {};
  return {
    uid,
    kind,
    resource,
    ...sub,
    requestKind: kind,
    requestResource: resource,
    name: c.name,
    ...(c.namespace !== "" ? { namespace: c.namespace } : {}),
    operation: c.operation,
    userInfo: { username: "clusterwire-testing" },
    object: structuredClone(c.object),
    oldObject: c.oldObject !== undefined ? structuredClone(c.oldObject) : null,
    dryRun: true,
    options: {
      apiVersion: "meta.k8s.io/v1",
      kind: c.operation === "CREATE" ? "CreateOptions" : "UpdateOptions",
      dryRun: ["All"],
    },
  };
}

async function asker(
  target: AdmissionFunction | WebhookTarget,
  concurrency: number,
  closers: (() => void)[],
): Promise<Ask> {
  if (typeof target === "function") {
    return async (c, uid) => {
      const request: AdmissionRequest = {
        uid,
        kind: { group: GROUP, version: VERSION, kind: c.kind },
        subResource: c.subResource,
        name: c.name,
        namespace: c.namespace,
        operation: c.operation,
        object: structuredClone(c.object),
        oldObject: c.oldObject !== undefined ? structuredClone(c.oldObject) : null,
        dryRun: true,
      };
      let response: unknown;
      try {
        response = await target(request);
      } catch (e) {
        return `the function threw: ${e instanceof Error ? e.message : String(e)}`;
      }
      return answered(response, uid, "the function");
    };
  }
  if (typeof target !== "object" || target === null) {
    throw new AdmissionCheckError("bad-option", "target: must be an admission function or { url, caPem? }");
  }
  const base = httpsBase(target.url, "target.url");
  if (target.caPem !== undefined && typeof target.caPem !== "string") {
    throw new AdmissionCheckError("bad-option", "target.caPem: must be a PEM string");
  }
  const timeoutMs = target.timeoutMs ?? 10_000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
    throw new AdmissionCheckError(
      "bad-option",
      `target.timeoutMs: must be a whole number of at least 1, not ${String(timeoutMs)}`,
    );
  }
  const client = await httpClient(base, target.caPem, concurrency, timeoutMs);
  closers.push(() => client.close());
  return async (c, uid, signal) => {
    const body = JSON.stringify({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: reviewRequest(c, uid),
    });
    const answer = await client.post(base.href, body, {}, signal);
    if (answer.status !== 200) return `the webhook answered HTTP ${answer.status}: ${answer.body.slice(0, 200)}`;
    let review: unknown;
    try {
      review = JSON.parse(answer.body);
    } catch {
      return `the webhook's answer is not JSON: ${answer.body.slice(0, 200)}`;
    }
    const r = review as { apiVersion?: unknown; kind?: unknown; response?: unknown } | null;
    if (r === null || typeof r !== "object" || r.apiVersion !== "admission.k8s.io/v1" || r.kind !== "AdmissionReview") {
      return `the webhook's answer is not an AdmissionReview admission.k8s.io/v1: ${answer.body.slice(0, 200)}`;
    }
    return answered(r.response, uid, "the webhook");
  };
}

/** The target's response read, or why kube-apiserver would not take it. */
function answered(response: unknown, uid: string, who: string): GotAdmission | string {
  if (typeof response !== "object" || response === null) return `${who} returned no response object`;
  const r = response as { uid?: unknown; allowed?: unknown; status?: unknown; warnings?: unknown };
  if (r.uid !== uid) return `${who} answered uid ${JSON.stringify(r.uid)}, not the request's ${JSON.stringify(uid)}`;
  if (typeof r.allowed !== "boolean") return `${who} answered without a boolean "allowed"`;
  const warnings = Array.isArray(r.warnings) ? r.warnings.map(String) : [];
  const status = statusOf(r.status);
  return { allowed: r.allowed, ...(status !== undefined ? { status } : {}), warnings };
}

function statusOf(value: unknown): RecordedStatus | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const s = value as { code?: unknown; reason?: unknown; message?: unknown; details?: { causes?: unknown } };
  const causes = Array.isArray(s.details?.causes) ? (s.details.causes as Record<string, unknown>[]) : [];
  return {
    code: typeof s.code === "number" ? s.code : 0,
    reason: typeof s.reason === "string" ? s.reason : "",
    message: typeof s.message === "string" ? s.message : "",
    causes: causes.map((c) => ({
      reason: typeof c["reason"] === "string" ? c["reason"] : "",
      message: typeof c["message"] === "string" ? c["message"] : "",
      field: typeof c["field"] === "string" ? c["field"] : "",
    })),
  };
}

/** Why `got` differs from `expected`, or undefined when it agrees. */
function differs(expected: ExpectedAdmission, got: GotAdmission, compare: "verdict" | "status"): string | undefined {
  if (got.allowed !== expected.allowed) {
    return expected.allowed
      ? `denied what the API server admits${got.status !== undefined ? `: ${got.status.message}` : ""}`
      : `admitted what the API server refuses: ${expected.status?.message ?? ""}`;
  }
  if (compare === "verdict") return undefined;
  const want = expected.status;
  if (want !== undefined) {
    const have = got.status;
    if (have === undefined) return "denied without a Status; the API server's refusal has one";
    if (have.code !== want.code || have.reason !== want.reason) {
      return `denied with ${have.code} ${have.reason}; the API server with ${want.code} ${want.reason}`;
    }
    const causes = sameList(
      want.causes.map((c) => JSON.stringify([c.field, c.reason, c.message])),
      have.causes.map((c) => JSON.stringify([c.field, c.reason, c.message])),
    );
    if (causes !== undefined) return `other causes: ${causes}`;
    if (have.message !== want.message && sorted([...have.message]) !== sorted([...want.message])) {
      return `another message: ${JSON.stringify(have.message)}; the API server's: ${JSON.stringify(want.message)}`;
    }
  }
  const warnings = sameList(expected.warnings, got.warnings);
  return warnings === undefined ? undefined : `other warnings: ${warnings}`;
}

function sorted(items: readonly string[]): string {
  return JSON.stringify([...items].sort());
}

/** How two lists differ as multisets (what is missing, what is extra), or undefined when they do not. */
function sameList(want: readonly string[], have: readonly string[]): string | undefined {
  if (sorted(want) === sorted(have)) return undefined;
  const left = [...have];
  const missing: string[] = [];
  for (const w of want) {
    const i = left.indexOf(w);
    if (i >= 0) left.splice(i, 1);
    else missing.push(w);
  }
  const parts = [];
  if (missing.length > 0) parts.push(`missing ${missing.join(" | ")}`);
  if (left.length > 0) parts.push(`extra ${left.join(" | ")}`);
  return parts.join("; ");
}

function summarise(
  server: string,
  live: boolean,
  compare: string,
  checked: number,
  skipped: number,
  disagreements: readonly AdmissionDisagreement[],
): string {
  const whose = live ? `the API server at ${server}` : `kube-apiserver ${server} (recorded)`;
  const left = skipped > 0 ? ` (${skipped} left out: not an admission verdict)` : "";
  const head = `checkAdmission: ${checked} cases of ${whose}${left}, compared by ${compare}: ${checked - disagreements.length} agree, ${disagreements.length} disagree`;
  const lines = disagreements.slice(0, SHOWN).map((d) => {
    const c = d.case;
    const where = c.namespace !== "" ? `${c.namespace}/${c.name}` : c.name;
    const sub = c.subResource !== "" ? `/${c.subResource}` : "";
    const why = d.why.length > 300 ? `${d.why.slice(0, 300)}...` : d.why;
    return `  ${c.id} ${c.operation}${sub} ${c.kind} ${where} (${c.source}): ${why}`;
  });
  if (disagreements.length > SHOWN) lines.push(`  ... and ${disagreements.length - SHOWN} more`);
  return [head, ...lines].join("\n");
}

/** The live API server: where it is, and its answer to a case's object as a dry-run create. */
async function liveExpectations(
  apiServer: LiveApiServer,
  concurrency: number,
): Promise<{
  url: string;
  moved: (c: RecordedAdmissionCase) => RecordedAdmissionCase;
  expected: (c: RecordedAdmissionCase, signal: AbortSignal | undefined) => Promise<RecordedAdmissionCase | undefined>;
  close: () => void;
}> {
  if (typeof apiServer !== "object" || apiServer === null) {
    throw new AdmissionCheckError("bad-option", "apiServer: must be { url, token?, caPem?, namespace? }");
  }
  const base = httpsBase(apiServer.url, "apiServer.url");
  for (const key of ["token", "caPem", "namespace"] as const) {
    if (apiServer[key] !== undefined && typeof apiServer[key] !== "string") {
      throw new AdmissionCheckError("bad-option", `apiServer.${key}: must be a string`);
    }
  }
  const namespace = apiServer.namespace ?? "default";
  const client: HttpClient = await httpClient(base, apiServer.caPem, concurrency, 30_000);
  const headers: Record<string, string> =
    apiServer.token !== undefined ? { authorization: `Bearer ${apiServer.token}` } : {};
  const prefix = base.pathname.replace(/\/$/, "");
  return {
    url: base.origin,
    // Namespaced objects go to the one namespace the caller names.
    moved: (c) => {
      if (!NAMESPACED.has(c.kind)) return c;
      const object = structuredClone(c.object);
      const meta = (
        typeof object["metadata"] === "object" && object["metadata"] !== null ? object["metadata"] : {}
      ) as JsonObject;
      meta["namespace"] = namespace;
      object["metadata"] = meta;
      return { ...c, namespace, object };
    },
    expected: async (c, signal) => {
      const ns = c.namespace !== "" ? `/namespaces/${encodeURIComponent(c.namespace)}` : "";
      const path = `${prefix}/apis/${GROUP}/${VERSION}${ns}/${c.resource}?dryRun=All&fieldValidation=Strict`;
      const answer = await client.post(path, JSON.stringify(c.object), headers, signal);
      if (answer.status === 401 || answer.status === 403) {
        throw new AdmissionCheckError(
          "api-server",
          `the API server refused the checker (${answer.status}): ${answer.body.slice(0, 300)}`,
        );
      }
      if (answer.status === 404 && c.namespace !== "" && answer.body.includes("namespaces")) {
        throw new AdmissionCheckError(
          "api-server",
          `namespace ${JSON.stringify(c.namespace)} not found on the API server: create it, or name another in apiServer.namespace`,
        );
      }
      let expected: ExpectedAdmission;
      if (answer.status === 201 || answer.status === 200) {
        expected = { allowed: true, warnings: answer.warnings };
      } else if (answer.status === 422) {
        let status: RecordedStatus | undefined;
        try {
          status = statusOf(JSON.parse(answer.body));
        } catch {
          status = undefined;
        }
        if (status === undefined) return undefined;
        expected = { allowed: false, status, warnings: answer.warnings };
      } else {
        return undefined;
      }
      return { ...c, expected };
    },
    close: () => client.close(),
  };
}

/** Runs `fn` over `items` with at most `limit` at once; results in input order. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
