// The admission webhook as a real kube-apiserver calls it, envtest's way: `clusterwire webhook
// serve` runs as a child process on 127.0.0.1 with a certificate for that address (made by
// `clusterwire webhook certs --ip 127.0.0.1`), and deploy/40-validating-webhook.yaml is
// registered with its service reference rewritten to that URL and the CA as caBundle. Rules,
// matchPolicy, failurePolicy, sideEffects, selectors and timeouts stay as deploy/ has them unless
// a test asks otherwise. No kubelet, scheduler or Docker is involved.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ApiResponse, apiRequest, type ControlPlane } from "../controlplane/start.js";
import type { WebhookCertFiles, webhookConfiguration } from "./configuration.js";

export {
  type ConfigurationOptions,
  makeCerts,
  type WebhookCertFiles,
  webhookConfiguration,
} from "./configuration.js";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CLI = join(ROOT, "bin", "clusterwire.js");
const CONFIGURATIONS_PATH = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";

/** The Node.js process running the CLI, with the same flags every test uses. */
function cli(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
}

/** One review the webhook logged (its JSON log line on stderr). */
export type ReviewLog = Record<string, unknown> & { readonly verdict?: string };

export interface RunningWebhook {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  readonly process: ChildProcess;
  /** Every review line logged so far, oldest first. */
  readonly reviews: ReviewLog[];
  /** Every JSON log line so far, reviews and the rest (the guards' list and watch lines), oldest first. */
  readonly logs: ReviewLog[];
  /** Everything the process wrote to stderr that is not a review line (its other JSON log lines included). */
  readonly otherLines: string[];
  /** SIGTERM, then waits for the exit; resolves with the exit code. Idempotent. */
  stop(): Promise<number | null>;
}

/**
 * Starts `clusterwire webhook serve --port 0` with `certs` and `extraArgs`, and resolves once it
 * prints its URL. A process that exits first rejects with what it wrote.
 */
export function startWebhook(certs: WebhookCertFiles, extraArgs: readonly string[] = []): Promise<RunningWebhook> {
  const child = cli([
    "webhook",
    "serve",
    "--tls-cert",
    certs.cert,
    "--tls-key",
    certs.key,
    "--port",
    "0",
    ...extraArgs,
  ]);
  const reviews: ReviewLog[] = [];
  const logs: ReviewLog[] = [];
  const otherLines: string[] = [];
  let partial = "";
  child.stderr?.on("data", (c: Buffer) => {
    const parts = (partial + c.toString("utf8")).split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      if (line.startsWith("{")) {
        try {
          const parsed = JSON.parse(line) as ReviewLog;
          logs.push(parsed);
          // Other JSON lines (a reloaded certificate, a refused request) are not reviews.
          if (parsed["msg"] === "review") {
            reviews.push(parsed);
            continue;
          }
        } catch {
          // not a review line
        }
      }
      otherLines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let stopped: Promise<number | null> | undefined;
  const stop = (): Promise<number | null> => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    })();
    return stopped;
  };
  return new Promise((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
      const m = /listening on (https:\/\/[^\s]+) /.exec(stdout);
      if (m?.[1] !== undefined) resolve({ url: m[1], process: child, reviews, logs, otherLines, stop });
    });
    void exited.then((code) =>
      reject(new Error(`webhook serve exited ${code} before listening:\n${stdout}\n${otherLines.join("\n")}`)),
    );
  });
}

/** Throws with the answer's body when its status is not `expected`. */
export function expectStatus(res: ApiResponse, expected: number, what: string): ApiResponse {
  if (res.status !== expected) throw new Error(`${what}: HTTP ${res.status}, expected ${expected}: ${res.body}`);
  return res;
}

/** Creates the configuration (or replaces one of the same name). */
export async function registerWebhook(
  plane: ControlPlane,
  configuration: ReturnType<typeof webhookConfiguration>,
): Promise<void> {
  const name = configuration.metadata.name;
  const existing = await apiRequest(plane, "GET", `${CONFIGURATIONS_PATH}/${name}`);
  if (existing.status === 200) {
    const rv = (JSON.parse(existing.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const body = { ...configuration, metadata: { ...configuration.metadata, resourceVersion: rv } };
    expectStatus(await apiRequest(plane, "PUT", `${CONFIGURATIONS_PATH}/${name}`, body), 200, `replace ${name}`);
  } else {
    expectStatus(await apiRequest(plane, "POST", CONFIGURATIONS_PATH, configuration), 201, `create ${name}`);
  }
}

/** Deletes the configuration `name`; a missing one is fine. */
export async function unregisterWebhook(plane: ControlPlane, name = "clusterwire"): Promise<void> {
  const res = await apiRequest(plane, "DELETE", `${CONFIGURATIONS_PATH}/${name}`);
  if (res.status !== 200 && res.status !== 404) throw new Error(`delete ${name}: HTTP ${res.status}: ${res.body}`);
}

/** Creates namespace `name` (an existing one is fine). */
export async function ensureNamespace(plane: ControlPlane, name: string): Promise<void> {
  const res = await apiRequest(plane, "POST", "/api/v1/namespaces", {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name },
  });
  if (res.status !== 201 && res.status !== 409) throw new Error(`namespace ${name}: HTTP ${res.status}: ${res.body}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the API server calls `webhook`: the API server picks up a new or changed
 * configuration from its own watch, a moment after the write. Probes with dry-run creates of a
 * valid NetworkPolicy in `namespace` (which the configuration must not skip), each under its own
 * name, until the webhook logs a review of one. The webhook writes its log lines in batches (up
 * to 50 ms late), so each probe's line is waited for before the next probe is sent.
 */
export async function waitUntilCalled(
  plane: ControlPlane,
  webhook: RunningWebhook,
  namespace: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const name = `clusterwire-probe-${process.pid}-${++probes}`;
    await apiRequest(plane, "POST", `/apis/networking.k8s.io/v1/namespaces/${namespace}/networkpolicies?dryRun=All`, {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name },
      spec: { podSelector: {} },
    });
    // A line the webhook wrote reaches this process within its batching delay, well under PROBE_LINE_WAIT_MS.
    const lineDeadline = Math.min(deadline, Date.now() + PROBE_LINE_WAIT_MS);
    for (;;) {
      if (webhook.reviews.some((r) => r["name"] === name)) return;
      if (Date.now() > lineDeadline) break;
      await sleep(5);
    }
  }
  throw new Error(`the API server did not call the webhook within ${timeoutMs} ms`);
}

/** How long a probe's review line is waited for before the next probe is sent. */
const PROBE_LINE_WAIT_MS = 500;
let probes = 0;

let barriers = 0;

/**
 * Sends a dry-run create of a NetworkPolicy named `barrier-N` in `namespace` (which the
 * configuration must not skip) and resolves with the index of its review in `webhook.reviews`,
 * searched from `from`: every review the webhook answered before it is then in the array.
 */
export async function reviewBarrier(
  plane: ControlPlane,
  webhook: RunningWebhook,
  namespace: string,
  from = 0,
  timeoutMs = 20_000,
): Promise<number> {
  const name = `barrier-${process.pid}-${++barriers}`;
  const res = await apiRequest(
    plane,
    "POST",
    `/apis/networking.k8s.io/v1/namespaces/${namespace}/networkpolicies?dryRun=All`,
    { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: { name }, spec: { podSelector: {} } },
  );
  expectStatus(res, 201, `the barrier ${name}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const at = webhook.reviews.findIndex((r, i) => i >= from && r["name"] === name);
    if (at >= 0) return at;
    if (Date.now() > deadline) throw new Error(`the webhook did not log the barrier ${name} within ${timeoutMs} ms`);
    await sleep(5);
  }
}

/**
 * The reviews `webhook` logged while `action` ran, in order. The API server calls the webhook
 * before it answers, but the webhook's log line reaches this process on another pipe than the
 * answer: so a barrier (see {@link reviewBarrier}) goes before `action`, so that late lines of
 * earlier requests are not counted, and one after it, and the reviews between the two are the
 * action's. The webhook writes its review lines in the order it answers.
 */
export async function reviewsDuring<T>(
  plane: ControlPlane,
  webhook: RunningWebhook,
  namespace: string,
  action: () => Promise<T>,
  timeoutMs = 20_000,
): Promise<{ result: T; reviews: ReviewLog[] }> {
  const start = (await reviewBarrier(plane, webhook, namespace, 0, timeoutMs)) + 1;
  const result = await action();
  const end = await reviewBarrier(plane, webhook, namespace, start, timeoutMs);
  return { result, reviews: webhook.reviews.slice(start, end) };
}
