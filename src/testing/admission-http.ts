// HTTPS for checkAdmission: POSTs to a webhook (as kube-apiserver calls it) and to an API server
// (dry-run creates). node:https is loaded on first use, so importing the kit loads no network code.
import type { Agent } from "node:https";
import { AdmissionCheckError } from "./recorded-admission.js";

/** An answer: its status, the Warning headers' texts, and the body as text. */
export interface HttpAnswer {
  readonly status: number;
  readonly warnings: readonly string[];
  readonly body: string;
}

/** A client for one HTTPS origin: keeps connections open, trusts `caPem` (or the system's CAs). */
export interface HttpClient {
  post(
    path: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<HttpAnswer>;
  close(): void;
}

/** The base URL, checked: https only (a webhook is always called over TLS). */
export function httpsBase(url: unknown, what: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw new AdmissionCheckError("bad-option", `${what}: not a URL: ${JSON.stringify(url)}`);
  }
  if (typeof url !== "string" || parsed.protocol !== "https:") {
    throw new AdmissionCheckError("bad-option", `${what}: must be an https:// URL, not ${JSON.stringify(url)}`);
  }
  return parsed;
}

/**
 * The texts of Warning headers (RFC 7234: `299 - "text"`), as the API server writes them: one
 * header each, or several joined by commas.
 */
export function warningTexts(header: string | readonly string[] | undefined): string[] {
  if (header === undefined) return [];
  const out: string[] = [];
  for (const line of typeof header === "string" ? [header] : header) {
    const re = /\s*\d{3}\s+\S+\s+"((?:[^"\\]|\\.)*)"(?:\s+"[^"]*")?\s*(?:,|$)/gy;
    for (let m = re.exec(line); m !== null; m = re.exec(line)) out.push(m[1]!.replace(/\\(.)/g, "$1"));
  }
  return out;
}

export async function httpClient(
  base: URL,
  caPem: string | undefined,
  concurrency: number,
  timeoutMs: number,
): Promise<HttpClient> {
  const https = await import("node:https");
  const agent: Agent = new https.Agent({
    keepAlive: true,
    maxSockets: concurrency,
    ...(caPem !== undefined ? { ca: caPem } : {}),
  });
  return {
    post: (path, body, headers, signal) =>
      new Promise<HttpAnswer>((resolve, reject) => {
        const target = new URL(path, base);
        const req = https.request(
          target,
          {
            method: "POST",
            agent,
            headers: { "content-type": "application/json", accept: "application/json", ...headers },
            timeout: timeoutMs,
            ...(signal !== undefined ? { signal } : {}),
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("error", reject);
            res.on("end", () =>
              resolve({
                status: res.statusCode ?? 0,
                warnings: warningTexts(
                  res.rawHeaders.filter((_, i) => i % 2 === 1 && res.rawHeaders[i - 1]!.toLowerCase() === "warning"),
                ),
                body: Buffer.concat(chunks).toString("utf8"),
              }),
            );
          },
        );
        req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        req.on("error", (e) => {
          if (signal?.aborted === true) reject(signal.reason);
          else
            reject(
              new AdmissionCheckError("unreachable", `POST ${target.origin}${target.pathname}: ${e.message}`, {
                cause: e,
              }),
            );
        });
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}
