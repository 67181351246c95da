// Helpers for the webhook server's tests: certificates in files, a server on
// loopback, requests over TLS (through an agent or a raw socket), and the
// AdmissionReview bodies they send.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tls from "node:tls";
import {
  createWebhookServer,
  type WebhookServer,
  type WebhookServerOptions,
} from "../../../src/admission/server/index.js";
import type { TlsFiles } from "../../../src/admission/server/tls-files.js";
import type { JsonObject } from "../../../src/networking/index.js";
import { makeCert } from "../storage/cert.js";

export interface Pem {
  readonly key: string;
  readonly cert: string;
}

/** A new self-signed certificate for 127.0.0.1 (openssl). */
export function pem(): Pem {
  const made = makeCert();
  if (made === undefined) throw new Error("openssl is needed to make a test certificate");
  made.dispose();
  return { key: made.key, cert: made.cert };
}

/** A folder holding tls.crt and tls.key; `swap` replaces them by rename, as a Secret volume's update does. */
export interface TlsDir extends TlsFiles {
  swap(next: Pem): void;
  dispose(): void;
}

export function tlsDir(first: Pem): TlsDir {
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-webhook-"));
  const certFile = join(dir, "tls.crt");
  const keyFile = join(dir, "tls.key");
  writeFileSync(certFile, first.cert);
  writeFileSync(keyFile, first.key);
  let n = 0;
  return {
    certFile,
    keyFile,
    swap(next) {
      n++;
      writeFileSync(join(dir, `tls.crt.${n}`), next.cert);
      writeFileSync(join(dir, `tls.key.${n}`), next.key);
      renameSync(join(dir, `tls.crt.${n}`), certFile);
      renameSync(join(dir, `tls.key.${n}`), keyFile);
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Starts a server on 127.0.0.1 (a free port), runs `run`, and closes it. */
export async function withServer(
  tlsFiles: TlsFiles,
  options: Partial<WebhookServerOptions>,
  run: (server: WebhookServer, logs: string[]) => Promise<void>,
): Promise<void> {
  const logs: string[] = [];
  const server = await createWebhookServer({
    tls: tlsFiles,
    port: 0,
    host: "127.0.0.1",
    log: (l) => logs.push(l),
    ...options,
  });
  try {
    await run(server, logs);
  } finally {
    await server.close();
  }
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly reused: boolean;
}

/** A request to the server at `server.url` (a WebhookServer, or any URL), trusting `ca`, with a 20 s bound. */
export function send(
  server: Pick<WebhookServer, "url">,
  agent: https.Agent | false,
  ca: string | readonly string[],
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${server.url}${path}`,
      { method, agent, ca: ca as string | string[], headers, timeout: 20_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            reused: req.reusedSocket,
          }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer to ${method} ${path} within 20 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * A raw TLS socket to the server: the first whole response it reads (`reply`,
 * by the response's Content-Length), and everything it reads until the server
 * closes it (`closed`).
 */
export function rawSocket(server: WebhookServer): {
  socket: tls.TLSSocket;
  ready: Promise<void>;
  /** The first response, once its headers and Content-Length bytes of body are in (or all there is at close). */
  reply: Promise<string>;
  /** Everything read, once the connection closes. */
  closed: Promise<string>;
} {
  const socket = tls.connect({ host: "127.0.0.1", port: server.port, rejectUnauthorized: false });
  const ready = new Promise<void>((resolve, reject) => {
    socket.once("secureConnect", () => resolve());
    socket.once("error", reject);
  });
  let text = "";
  let answered: (text: string) => void = () => {};
  const reply = new Promise<string>((resolve) => (answered = resolve));
  const closed = new Promise<string>((resolve) => {
    socket.on("data", (c: Buffer) => {
      // latin1: one character a byte, so the text's length counts the bytes Content-Length counts.
      text += c.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(text);
      if (end >= 0 && length !== null && text.length >= end + 4 + Number(length[1])) answered(text);
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      answered(text);
      resolve(text);
    });
  });
  return { socket, ready, reply, closed };
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function ingressJson(name: string, extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name, namespace: "default" },
    spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } } },
    ...extra,
  };
}

/** An AdmissionReview CREATE of `object` (an Ingress unless the request kind says otherwise), in namespace default unless told. */
export function reviewBody(object: unknown, uid: string, kind = "Ingress", namespace = "default"): string {
  return JSON.stringify({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid,
      kind: { group: "networking.k8s.io", version: "v1", kind },
      resource: { group: "networking.k8s.io", version: "v1", resource: "ingresses" },
      operation: "CREATE",
      namespace,
      name: "web",
      object,
    },
  });
}
