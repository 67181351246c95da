/**
 * The validating admission webhook over HTTPS (Node only): `/validate`, probes and metrics,
 * certificates for it, and the Ingress watch behind the ingress-capture guard.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { createWebhookServer, makeWebhookCerts, writeWebhookCertFiles } from "clusterwire/admission/server";
 *
 * const files = await writeWebhookCertFiles(await mkdtemp(join(tmpdir(), "webhook-")), await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" }));
 * const server = await createWebhookServer({ tls: { certFile: files.cert, keyFile: files.key }, host: "127.0.0.1", port: 0 });
 * console.log(`${server.url}/validate`);
 * await server.close();
 * ```
 *
 * @packageDocumentation
 */
// The validating admission webhook over HTTPS (HTTP/1.1, keep-alive): POST
// /validate answers AdmissionReviews with the core (../admit.ts); /healthz and
// /readyz answer probes, /metrics Prometheus scrapes. Bad requests get 400, bodies over the limit 413, and
// reviews past the in-flight limit 429; none of them stops the server.

import type { IncomingMessage, ServerResponse } from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { admit, type AdmitOptions } from "../admit.js";
import { IngressCaptureIndex } from "../guards/ingress-capture.js";
import { startIngressWatch, type IngressWatch, type IngressWatchOptions } from "./cluster/ingress-watch.js";
import { AdmissionReviewError, readAdmissionReview, ADMISSION_API_VERSION } from "../review.js";
import { BodyError, readBody } from "./body.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.js";
import { reviewLogFields, reviewLogLine } from "./log-line.js";
import { createWebhookMetrics, type RefusalReason } from "./metrics.js";
import { loadTlsPair, watchTlsFiles, type TlsFiles } from "./tls-files.js";

// A CA and serving certificate for clusters without cert-manager (clusterwire webhook certs).
export { CERT_FILE_NAMES, CertFileExistsError, writeWebhookCertFiles, type WrittenCertFiles } from "./cert-files.js";
export {
  CERT_KEY_TYPES,
  DEFAULT_CERT_DAYS,
  MAX_CERT_DAYS,
  WebhookCertsError,
  makeWebhookCerts,
  serviceDnsNames,
  type CertKeyType,
  type WebhookCerts,
  type WebhookCertsOptions,
} from "./certs.js";

/**
 * The API server's own limit on a request body; an object and its old object fit well inside it.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { createWebhookServer, DEFAULT_MAX_BODY_BYTES, makeWebhookCerts, writeWebhookCertFiles } from "clusterwire/admission/server";
 *
 * const dir = await mkdtemp(join(tmpdir(), "webhook-"));
 * const files = await writeWebhookCertFiles(dir, await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" }));
 * const server = await createWebhookServer({ tls: { certFile: files.cert, keyFile: files.key }, host: "127.0.0.1", port: 0, maxBodyBytes: DEFAULT_MAX_BODY_BYTES / 3 });
 * await server.close();
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 3 * 1024 * 1024;
/**
 * How many reviews the webhook reads or answers at once by default; more are shed with 429.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { createWebhookServer, DEFAULT_MAX_IN_FLIGHT, makeWebhookCerts, writeWebhookCertFiles } from "clusterwire/admission/server";
 *
 * const dir = await mkdtemp(join(tmpdir(), "webhook-"));
 * const files = await writeWebhookCertFiles(dir, await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" }));
 * const server = await createWebhookServer({ tls: { certFile: files.cert, keyFile: files.key }, host: "127.0.0.1", port: 0, maxInFlight: DEFAULT_MAX_IN_FLIGHT * 2 });
 * await server.close();
 * ```
 */
export const DEFAULT_MAX_IN_FLIGHT = 256;
/**
 * The port the webhook listens on by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_PORT } from "clusterwire/admission/server";
 *
 * // The Service in front of the webhook: port 443 to the pod's DEFAULT_PORT.
 * const service = { ports: [{ port: 443, targetPort: DEFAULT_PORT }] };
 * ```
 */
export const DEFAULT_PORT = 8443;
const DEFAULT_TLS_POLL_MS = 1_000;
/**
 * How long `close()` waits for reviews in flight by default, in ms: within a pod's 30 s grace period.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { createWebhookServer, DEFAULT_DRAIN_MS, makeWebhookCerts, writeWebhookCertFiles } from "clusterwire/admission/server";
 *
 * const dir = await mkdtemp(join(tmpdir(), "webhook-"));
 * const files = await writeWebhookCertFiles(dir, await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" }));
 * const server = await createWebhookServer({ tls: { certFile: files.cert, keyFile: files.key }, host: "127.0.0.1", port: 0, drainMs: DEFAULT_DRAIN_MS / 5 });
 * await server.close();
 * ```
 */
export const DEFAULT_DRAIN_MS = 25_000;

/**
 * How long a connection may take over each stage before the server cuts it, in ms.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { createWebhookServer, makeWebhookCerts, writeWebhookCertFiles } from "clusterwire/admission/server";
 *
 * const dir = await mkdtemp(join(tmpdir(), "webhook-"));
 * const files = await writeWebhookCertFiles(dir, await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" }));
 * const server = await createWebhookServer({ tls: { certFile: files.cert, keyFile: files.key }, host: "127.0.0.1", port: 0, timeouts: { headersMs: 5_000 } });
 * await server.close();
 * ```
 */
export interface WebhookTimeouts {
  /** The TLS handshake (Node's default is 120 s: a client that connects and says nothing would hold a socket that long). */
  readonly handshakeMs: number;
  /** From a request's first byte (or a new connection) to the end of its headers: cuts slowloris clients. */
  readonly headersMs: number;
  /** From a request's first byte to the end of its body. */
  readonly requestMs: number;
  /** How long an idle keep-alive connection is kept after an answer. */
  readonly keepAliveMs: number;
}

/**
 * The API server calls a webhook with a timeout of at most 30 s (default 10 s), so a request that
 * takes longer has been given up. Idle connections are kept longer than the 90 s after which Go's
 * HTTP client (the API server's) drops its own, so the client closes first and never sends a review
 * on a connection the server is closing at that moment.
 *
 * @example
 * ```ts
 * import { DEFAULT_TIMEOUTS } from "clusterwire/admission/server";
 *
 * console.log(DEFAULT_TIMEOUTS.requestMs); // 30000
 * ```
 */
export const DEFAULT_TIMEOUTS: WebhookTimeouts = {
  handshakeMs: 10_000,
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 120_000,
};

/**
 * Options of {@link createWebhookServer}: the certificate files, where to listen, limits, guards and logs.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { createWebhookServer, makeWebhookCerts, writeWebhookCertFiles } from "clusterwire/admission/server";
 *
 * const dir = await mkdtemp(join(tmpdir(), "webhook-"));
 * const files = await writeWebhookCertFiles(dir, await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" }));
 * const server = await createWebhookServer({
 *   tls: { certFile: files.cert, keyFile: files.key },
 *   host: "127.0.0.1",
 *   port: 0,
 *   admit: { guards: { strict: true } },
 *   log: (line) => console.log(line),
 * });
 * await server.close();
 * ```
 */
export interface WebhookServerOptions {
  /** PEM files of the serving certificate (chain) and its key, read again when they change. */
  readonly tls: TlsFiles;
  /** Default 8443; 0 picks a free port. */
  readonly port?: number;
  /** Default: every interface, as a webhook in a pod must listen on the pod's address. */
  readonly host?: string;
  /** Default 3 MiB. */
  readonly maxBodyBytes?: number;
  /** Reviews being read or answered at once before more are shed with 429; default 256. */
  readonly maxInFlight?: number;
  /** How often the certificate files are checked for changes, in ms; default 1000. */
  readonly tlsPollMs?: number;
  /** How long close() waits for in-flight reviews before cutting connections, in ms; default 25 s. */
  readonly drainMs?: number;
  /** Each replaces its default in {@link DEFAULT_TIMEOUTS}. */
  readonly timeouts?: Partial<WebhookTimeouts>;
  /** How reviews are decided: feature gates and guards, as {@link admit} takes them. */
  readonly admit?: AdmitOptions;
  /**
   * Turns on the Ingress capture guard, fed by a list and watch of the API
   * server's Ingresses; /readyz answers 503 until the first list is in.
   */
  readonly ingressCapture?: IngressCaptureServerOptions;
  /** Receives one JSON object per line (no newline), never with object contents unless `logObjects`. Default: no logs. */
  readonly log?: (line: string) => void;
  /**
   * Put the request's object and old object, as received, in each review's
   * log line (`object`, `oldObject`). Default false. They may hold whatever
   * users put in annotations, so only for debugging.
   */
  readonly logObjects?: boolean;
}

/**
 * The watch's options, and how Ingresses are scoped (see IngressCaptureIndex):
 * by the controllers of the cluster's IngressClasses, also watched (default),
 * or with `byController: false` by class name, `defaultClass` for none.
 *
 * @example
 * ```ts
 * import { type IngressCaptureServerOptions, kubeconfigCredentials } from "clusterwire/admission/server";
 *
 * const ingressCapture: IngressCaptureServerOptions = {
 *   credentials: await kubeconfigCredentials(`${process.env["HOME"]}/.kube/config`),
 *   byController: true,
 * };
 * // createWebhookServer({ tls, ingressCapture }) then guards against Ingresses taking others' requests.
 * ```
 */
export type IngressCaptureServerOptions = Omit<IngressWatchOptions, "log"> & {
  readonly byController?: boolean;
  readonly defaultClass?: string;
};

/**
 * A running webhook, from {@link createWebhookServer}.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { createWebhookServer, makeWebhookCerts, writeWebhookCertFiles } from "clusterwire/admission/server";
 *
 * const dir = await mkdtemp(join(tmpdir(), "webhook-"));
 * const files = await writeWebhookCertFiles(dir, await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" }));
 * const server = await createWebhookServer({ tls: { certFile: files.cert, keyFile: files.key }, host: "127.0.0.1", port: 0 });
 * console.log(server.url, server.port);
 * await server.close();
 * ```
 */
export interface WebhookServer {
  /** The base URL, e.g. `https://127.0.0.1:8443`; reviews go to `/validate`. */
  readonly url: string;
  /** The port it listens on (the one picked when `port` was 0). */
  readonly port: number;
  /**
   * Graceful shutdown: /readyz turns 503, no new connections are taken,
   * reviews in flight are answered (each with `Connection: close`), then the
   * server closes. Connections still busy after `drainMs` are cut.
   */
  close(): Promise<void>;
}

type Fields = Record<string, unknown>;

/**
 * Starts the webhook; resolves once it listens. Rejects when the certificate cannot be loaded or the port is taken.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { createWebhookServer, makeWebhookCerts, writeWebhookCertFiles } from "clusterwire/admission/server";
 *
 * const dir = await mkdtemp(join(tmpdir(), "webhook-"));
 * const files = await writeWebhookCertFiles(dir, await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" }));
 * const server = await createWebhookServer({ tls: { certFile: files.cert, keyFile: files.key }, host: "127.0.0.1", port: 0 });
 * const response = await fetch(`${server.url}/healthz`).catch(() => undefined); // needs the CA trusted
 * await server.close();
 * ```
 */
export async function createWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
  const sink = options.log;
  const logObjects = options.logObjects === true;
  // The time of a log line, made once per millisecond: at thousands of reviews a second, lines share it.
  let lastMs = Number.NaN;
  let lastTime = "";
  const now = (): string => {
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastTime = new Date(ms).toISOString();
    }
    return lastTime;
  };
  const log = (level: "info" | "warn" | "error", msg: string, fields: Fields = {}): void => {
    if (sink === undefined) return;
    const head = { time: now(), level, msg };
    let line: string;
    try {
      line = JSON.stringify({ ...head, ...fields });
    } catch (e) {
      // A logged object nested too deep for JSON.stringify: the line goes out without it.
      const { object: _o, oldObject: _p, ...rest } = fields;
      line = JSON.stringify({ ...head, ...rest, objectsNotLogged: e instanceof Error ? e.message : String(e) });
    }
    sink(line);
  };

  const { pair } = await loadTlsPair(options.tls);
  const capture = options.ingressCapture;
  const captureIndex =
    capture === undefined
      ? undefined
      : new IngressCaptureIndex({
          byController: capture.byController !== false,
          ...(capture.defaultClass === undefined ? {} : { defaultClass: capture.defaultClass }),
        });
  const admitOptions: AdmitOptions =
    captureIndex === undefined
      ? (options.admit ?? {})
      : { ...options.admit, guards: { ...options.admit?.guards, ingressCapture: captureIndex } };
  const metrics = createWebhookMetrics();
  const refuse = (res: ServerResponse, status: number, reason: RefusalReason, message: string): void => {
    text(res, status, message);
    metrics.refused(reason);
    log("warn", "refused", { status, reason, message });
  };
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;

  const finish = (res: ServerResponse, status: number, type: string, body: string): void => {
    if (closing) res.setHeader("connection", "close");
    res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
    res.end(body);
  };
  const text = (res: ServerResponse, status: number, body: string): void =>
    finish(res, status, "text/plain; charset=utf-8", `${body}\n`);

  const validateRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    let body: Buffer;
    try {
      body = await readBody(req, maxBody);
    } catch (e) {
      if (!(e instanceof BodyError)) throw e;
      // The rest of the body is not read: this connection cannot carry another request.
      res.setHeader("connection", "close");
      refuse(res, e.status, e.status === 413 ? "too_large" : "unreadable_body", e.message);
      return;
    }
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
      refuse(
        res,
        400,
        "malformed_json",
        `the body is not JSON the API server reads: nested deeper than ${MAX_JSON_DEPTH}`,
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch (e) {
      refuse(res, 400, "malformed_json", `the body is not JSON: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    let request: ReturnType<typeof readAdmissionReview>;
    try {
      request = readAdmissionReview(parsed);
    } catch (e) {
      if (!(e instanceof AdmissionReviewError)) throw e;
      refuse(res, 400, "not_admission_review", e.message);
      return;
    }
    const outcome = admit(request, admitOptions);
    const answer = JSON.stringify({
      apiVersion: ADMISSION_API_VERSION,
      kind: "AdmissionReview",
      response: outcome.response,
    });
    finish(res, 200, "application/json", answer);
    const seconds = (performance.now() - started) / 1000;
    metrics.review(request.operation, outcome, seconds);
    if (sink !== undefined) {
      const ms = Math.round(seconds * 1e6) / 1000;
      if (logObjects) log("info", "review", reviewLogFields(request, outcome, ms, true));
      else sink(reviewLogLine(now(), request, outcome, ms));
    }
  };

  // A bug, not bad input: answer 500 when still possible, and keep serving.
  const internalError = (res: ServerResponse, e: unknown): void => {
    log("error", "internal error", { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    if (!res.headersSent) text(res, 500, "internal error");
    else res.destroy();
  };

  // One async function per request, which catches what it throws itself (no .catch() closure): a bug, answered with 500.
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = req.url ?? "";
      const query = url.indexOf("?");
      const path = query === -1 ? url : url.slice(0, query);
      switch (path) {
        case "/validate":
          if (req.method !== "POST") {
            res.setHeader("allow", "POST");
            return text(res, 405, "POST an AdmissionReview to /validate");
          }
          if (inFlight >= maxInFlight) {
            // Shed without reading the body, so the connection is closed after the answer.
            res.setHeader("connection", "close");
            res.setHeader("retry-after", "1");
            refuse(res, 429, "overloaded", `more than ${maxInFlight} reviews in flight`);
            return;
          }
          metrics.setInFlight(++inFlight);
          try {
            await validateRequest(req, res);
          } finally {
            metrics.setInFlight(--inFlight);
            if (closing && inFlight === 0) drained?.();
          }
          return;
        case "/healthz":
          return text(res, 200, "ok");
        case "/readyz":
          if (closing) return text(res, 503, "shutting down");
          if (captureIndex?.synced === false)
            return text(res, 503, "the ingress-capture guard has not yet listed Ingresses");
          return text(res, 200, "ok");
        case "/metrics":
          if (req.method !== "GET") {
            res.setHeader("allow", "GET");
            return text(res, 405, "GET /metrics");
          }
          return finish(res, 200, metrics.registry.contentType, await metrics.registry.metrics());
        default:
          return text(res, 404, "not found: the webhook serves /validate, /healthz, /readyz and /metrics");
      }
    } catch (e) {
      internalError(res, e);
    }
  };

  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const server = https.createServer(
    {
      cert: pair.cert,
      key: pair.key,
      handshakeTimeout: timeouts.handshakeMs,
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAlive: true,
      // Node checks the headers and request timeouts every 30 s by default, which would let a
      // slowloris hold its socket up to 30 s past them; check at a quarter of the shorter one.
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(1_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)),
      ),
    },
    // handle() catches what it throws itself (no closure per request for it).
    (req, res) => void handle(req, res),
  );
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.on("tlsClientError", (e: Error) => log("warn", "TLS handshake failed", { error: e.message }));

  const stopWatching = watchTlsFiles(
    options.tls,
    options.tlsPollMs ?? DEFAULT_TLS_POLL_MS,
    ({ pair: next }) => {
      server.setSecureContext({ cert: next.cert, key: next.key });
      log("info", "reloaded the serving certificate", { certFile: options.tls.certFile });
    },
    (e) =>
      log("warn", "kept the serving certificate: the new files do not load yet", {
        error: e instanceof Error ? e.message : String(e),
      }),
    pair,
  );

  const host = options.host;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? DEFAULT_PORT, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (e) {
    stopWatching();
    throw e;
  }
  let ingressWatch: IngressWatch | undefined;
  if (capture !== undefined && captureIndex !== undefined) {
    log("info", "watching Ingresses for the ingress-capture guard", { source: capture.credentials.source });
    try {
      ingressWatch = startIngressWatch(captureIndex, {
        ...capture,
        log: (level, msg, fields) => log(level, msg, { component: "ingress-watch", ...fields }),
      });
    } catch (e) {
      // Options the watch refuses (out of range): nothing is left listening.
      stopWatching();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw e;
    }
  }
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  log("info", "serving", { url: `https://${urlHost}:${address.port}` });

  let closed: Promise<void> | undefined;
  return {
    url: `https://${urlHost}:${address.port}`,
    port: address.port,
    close() {
      closed ??= (async () => {
        closing = true;
        stopWatching();
        const watchStopped = ingressWatch?.stop();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Idle keep-alive connections would hold close() open; busy ones finish their review first.
        server.closeIdleConnections();
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            drained = resolve;
            const cut = setTimeout(resolve, drainMs);
            cut.unref();
          });
        }
        server.closeAllConnections();
        await stopped;
        await watchStopped;
        log("info", "stopped");
      })();
      return closed;
    },
  };
}

export {
  CredentialsError,
  inClusterCredentials,
  kubeconfigCredentials,
  type ClusterCredentials,
} from "../../client/index.js";
export { DEFAULT_RESYNC_MS, type IngressWatchOptions } from "./cluster/ingress-watch.js";
