// Sends the planned requests to a running kube-apiserver and compares each answer with
// clusterwire's prediction: namespaces first, then the stored objects of updates (created for
// real), then every request, a bounded number in flight.
import type { JsonObject, KubernetesVersion } from "../../src/networking/index.js";
import { compare, type Difference } from "./compare.js";
import type { ApiClient } from "./http.js";
import { FIELD_MANAGER } from "./http.js";
import { isNamespaced, STORED_NAMESPACE, updateBody, type UpdatePlan } from "./plan.js";
import { predict } from "./predict.js";
import { bodyOf } from "./plan.js";
import { bodyBytes, MEDIA_TYPES, pluralOf, requestLine, type CampaignRequest, type ServerAnswer } from "./request.js";
import type { Rng } from "./rng.js";
import { ACCEPTS, BODY_FORMATS, FIELD_VALIDATIONS } from "./request.js";

/** One request with the server's answer and how clusterwire's prediction differs (empty: agrees). */
export interface Outcome {
  readonly request: CampaignRequest;
  readonly answer: ServerAnswer;
  readonly differences: readonly Difference[];
}

const ACCEPT_TYPES = { json: "application/json", protobuf: "application/vnd.kubernetes.protobuf" } as const;

/** Sends one request; the answer's body as text, or base64 when it is protobuf. */
export async function send(client: ApiClient, r: CampaignRequest): Promise<ServerAnswer> {
  const { method, path } = requestLine(r);
  const a = await client.send(method, path, bodyBytes(r), MEDIA_TYPES[r.format], ACCEPT_TYPES[r.accept]);
  const protobuf = a.contentType.startsWith("application/vnd.kubernetes.protobuf");
  return {
    status: a.status,
    contentType: a.contentType,
    warnings: a.warnings,
    body: protobuf ? Buffer.from(a.body).toString("base64") : Buffer.from(a.body).toString("utf8"),
  };
}

/** Creates each namespace that does not exist yet (for real). */
export async function ensureNamespaces(client: ApiClient, names: Iterable<string>): Promise<void> {
  const todo = [...names];
  await pool(todo, 8, async (name) => {
    const body = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
    const a = await client.send("POST", "/api/v1/namespaces", body, "application/json", "application/json");
    if (a.status !== 201 && a.status !== 409) {
      throw new Error(`creating namespace ${name}: ${a.status} ${Buffer.from(a.body).toString("utf8")}`);
    }
  });
}

/**
 * Creates the stored object of each plan for real, then makes its update requests from the
 * object the server returned. A stored object the server refuses drops its plan (logged).
 */
export async function planUpdateRequests(
  client: ApiClient,
  plans: readonly UpdatePlan[],
  rng: Rng,
  log: (line: string) => void,
): Promise<CampaignRequest[]> {
  await ensureNamespaces(client, [STORED_NAMESPACE]);
  const out: CampaignRequest[] = [];
  const stored = await pool(plans, 8, async (plan) => {
    const ns = isNamespaced(plan.kind) ? `/namespaces/${STORED_NAMESPACE}` : "";
    const path = `/apis/networking.k8s.io/v1${ns}/${pluralOf(plan.kind)}?fieldManager=${FIELD_MANAGER}`;
    const a = await client.send("POST", path, JSON.stringify(plan.stored), "application/json", "application/json");
    const text = Buffer.from(a.body).toString("utf8");
    if (a.status !== 201) {
      log(`stored ${plan.kind} refused (${a.status}), its updates are left out: ${text.slice(0, 300)}`);
      return undefined;
    }
    return JSON.parse(text) as JsonObject;
  });
  plans.forEach((plan, i) => {
    const answer = stored[i];
    if (answer === undefined) return;
    const meta = answer.metadata as JsonObject;
    for (const u of plan.updates) {
      const next = updateBody(answer, u.from, u.operation);
      let format = rng.pick(BODY_FORMATS);
      let body = bodyOf(format, next, undefined);
      if (body === undefined) {
        format = "json";
        body = JSON.stringify(next);
      }
      out.push({
        source: u.source,
        kind: plan.kind,
        operation: u.operation,
        format,
        accept: rng.pick(ACCEPTS),
        fieldValidation: rng.pick(FIELD_VALIDATIONS),
        ...(isNamespaced(plan.kind) ? { namespace: STORED_NAMESPACE } : {}),
        name: String(meta.name),
        body,
        old: JSON.stringify(answer),
      });
    }
  });
  return out;
}

/** Sends every request and compares; `onOutcome` sees each as it completes. */
export async function runRequests(
  client: ApiClient,
  requests: readonly CampaignRequest[],
  concurrency: number,
  version: KubernetesVersion,
  onOutcome: (o: Outcome, index: number) => void,
): Promise<{ serverMs: number; predictMs: number }> {
  let predictMs = 0;
  const started = performance.now();
  await pool(requests, concurrency, async (r, i) => {
    const answer = await send(client, r);
    const t = performance.now();
    const differences = check(r, answer, version);
    predictMs += performance.now() - t;
    onOutcome({ request: r, answer, differences }, i);
  });
  return { serverMs: performance.now() - started - predictMs, predictMs };
}

/** clusterwire's prediction for `r`, compared with `answer`; a prediction that throws is a difference too. */
export function check(r: CampaignRequest, answer: ServerAnswer, version: KubernetesVersion): Difference[] {
  try {
    return compare(r, predict(r, version), answer);
  } catch (e) {
    return [{ what: "unpredictable", detail: `clusterwire threw: ${(e as Error).stack ?? String(e)}` }];
  }
}

/** Runs `fn` over `items` with at most `limit` at once; results in input order. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
