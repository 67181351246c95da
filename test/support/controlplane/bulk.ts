// Many requests to a control plane fast, for suites and benches that need thousands of objects
// (10,000 Ingresses take seconds, not minutes): a fixed number in flight (default 32) over
// keep-alive connections of an agent of its own, each answer checked, the resourceVersion of each
// written object kept. A 429 (the API server's max-in-flight limit) is retried after its
// Retry-After; any other unexpected answer stops the batch and throws.
//
// Only `import type` from start.ts: the bench imports this file from dist/, where start.ts's
// scripts/ import would not resolve.
import { Agent, request } from "node:https";
import type { ControlPlane } from "./start.js";

/** The part of a control plane this needs. */
export type BulkPlane = Pick<ControlPlane, "url" | "token" | "caPem">;

/** One request: a path under the plane's URL and a body (sent as JSON when not a string). */
export interface BulkRequest {
  /** Default "POST". */
  readonly method?: string;
  readonly path: string;
  readonly body?: unknown;
  /** Default application/json; e.g. application/merge-patch+json for a PATCH. */
  readonly contentType?: string;
}

export interface BulkOptions {
  /** Requests in flight at once; default 32. */
  readonly concurrency?: number;
  /** The statuses that count as success; default [201] for POST, [200] otherwise. */
  readonly expect?: readonly number[];
  /** Called after each answer with how many are done, of how many. */
  readonly onProgress?: (done: number, total: number) => void;
  /** How many times a 429 is retried for one request; default 5. */
  readonly retries?: number;
}

export interface BulkResult {
  readonly seconds: number;
  /** metadata.resourceVersion of each answer, in the order of the requests ("" when it had none). */
  readonly resourceVersions: readonly string[];
  /** The highest of them (resourceVersions are etcd revisions: decimal integers). */
  readonly maxResourceVersion: string;
  /** How many 429 answers were retried. */
  readonly retried: number;
}

/** A request of the batch that got an answer it did not expect. */
export class BulkRequestError extends Error {
  override readonly name = "BulkRequestError";
  constructor(
    readonly index: number,
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`request #${index} ${method} ${path}: HTTP ${status}: ${body.slice(0, 1000)}`);
  }
}

/** The larger of two resourceVersions ("" is the smallest). */
export function laterResourceVersion(a: string, b: string): string {
  if (a === "") return b;
  if (b === "") return a;
  return BigInt(b) > BigInt(a) ? b : a;
}

function resourceVersionOf(body: string): string {
  try {
    const rv = (JSON.parse(body) as { metadata?: { resourceVersion?: unknown } }).metadata?.resourceVersion;
    return typeof rv === "string" ? rv : "";
  } catch {
    return "";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends `requests` with at most `concurrency` in flight; resolves once all have been answered as
 * expected, or rejects with the first BulkRequestError (the ones in flight are waited for, none
 * more are sent).
 */
export async function requestMany(
  plane: BulkPlane,
  requests: readonly BulkRequest[],
  options: BulkOptions = {},
): Promise<BulkResult> {
  const concurrency = options.concurrency ?? 32;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency ${concurrency}`);
  const retries = options.retries ?? 5;
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, ca: plane.caPem });
  const resourceVersions: string[] = new Array<string>(requests.length).fill("");
  let next = 0;
  let done = 0;
  let retried = 0;
  let failure: BulkRequestError | Error | undefined;

  const send = (r: BulkRequest): Promise<{ status: number; body: string; retryAfter: string | undefined }> =>
    new Promise((resolve, reject) => {
      const payload = r.body === undefined ? undefined : typeof r.body === "string" ? r.body : JSON.stringify(r.body);
      const req = request(
        new URL(r.path, plane.url),
        {
          method: r.method ?? "POST",
          agent,
          headers: {
            Authorization: `Bearer ${plane.token}`,
            Accept: "application/json",
            ...(payload === undefined ? {} : { "Content-Type": r.contentType ?? "application/json" }),
          },
          timeout: 60_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString("utf8"),
              retryAfter: res.headers["retry-after"],
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`${r.method ?? "POST"} ${r.path} timed out`)));
      req.on("error", reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });

  const worker = async (): Promise<void> => {
    while (failure === undefined && next < requests.length) {
      const index = next++;
      const r = requests[index]!;
      const method = r.method ?? "POST";
      const want = options.expect ?? (method === "POST" ? [201] : [200]);
      try {
        let answer = await send(r);
        for (let attempt = 0; answer.status === 429 && attempt < retries; attempt++) {
          retried++;
          const seconds = Number(answer.retryAfter ?? "1");
          await sleep(Math.min(Number.isFinite(seconds) ? seconds : 1, 10) * 1000);
          answer = await send(r);
        }
        if (!want.includes(answer.status)) {
          throw new BulkRequestError(index, method, r.path, answer.status, answer.body);
        }
        resourceVersions[index] = resourceVersionOf(answer.body);
      } catch (e) {
        failure ??= e instanceof Error ? e : new Error(String(e));
        return;
      }
      done++;
      options.onProgress?.(done, requests.length);
    }
  };

  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
  } finally {
    agent.destroy();
  }
  if (failure !== undefined) throw failure;
  return {
    seconds: (performance.now() - started) / 1000,
    resourceVersions,
    maxResourceVersion: resourceVersions.reduce(laterResourceVersion, ""),
    retried,
  };
}

/**
 * POSTs every object to its path (a collection: .../namespaces/NS/ingresses), at most
 * `concurrency` (default 32) at once, each expected to answer 201 Created.
 */
export function createMany(
  plane: BulkPlane,
  objects: readonly { readonly path: string; readonly body: unknown }[],
  options: Omit<BulkOptions, "expect"> = {},
): Promise<BulkResult> {
  return requestMany(
    plane,
    objects.map((o) => ({ path: o.path, body: o.body })),
    options,
  );
}
