// deploy/'s webhook configuration pointed at a URL, and the certificates for a webhook on
// 127.0.0.1: the parts of the real-API-server harness (webhook.ts) that need no control plane, so
// the bench (bench/webhook/apiserver.ts, run from dist/) can use them too.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** The repository, when this runs from test/ (from dist/, give the root). */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface WebhookCertFiles {
  readonly dir: string;
  readonly cert: string;
  readonly key: string;
  /** The CA's PEM (ca.crt). */
  readonly caPem: string;
  dispose(): void;
}

/** `clusterwire webhook certs --ip 127.0.0.1` into a new temporary folder (`root`: the repository). */
export async function makeCerts(root = ROOT): Promise<WebhookCertFiles> {
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-webhook-certs-"));
  const args = ["webhook", "certs", "--service", "clusterwire-webhook", "--namespace", "clusterwire"];
  args.push("--ip", "127.0.0.1", "--days", "2", "--out", dir);
  try {
    execFileSync(process.execPath, [join(root, "bin", "clusterwire.js"), ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (e) {
    const stderr = (e as { stderr?: Buffer }).stderr?.toString("utf8") ?? String(e);
    throw new Error(`webhook certs failed: ${stderr}`);
  }
  return {
    dir,
    cert: join(dir, "tls.crt"),
    key: join(dir, "tls.key"),
    caPem: readFileSync(join(dir, "ca.crt"), "utf8"),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface ConfigurationOptions {
  /** The configuration's name; "clusterwire" (deploy/'s) when absent. */
  readonly name?: string;
  readonly failurePolicy?: "Fail" | "Ignore";
  readonly timeoutSeconds?: number;
}

/**
 * deploy/40-validating-webhook.yaml as a JSON object, each webhook's clientConfig.service turned
 * into `url` + its path, and caBundle set to `caPem` (several CAs may be concatenated, as during
 * a rotation). Everything else is deploy/'s unless `options` say otherwise. The cert-manager
 * annotation is dropped: nothing here injects the CA.
 */
export function webhookConfiguration(url: string, caPem: string, options: ConfigurationOptions = {}, root = ROOT) {
  const config = parse(readFileSync(join(root, "deploy", "40-validating-webhook.yaml"), "utf8")) as {
    metadata: { name: string; annotations?: Record<string, string> };
    webhooks: Array<Record<string, unknown> & { clientConfig: { service?: { path?: string }; url?: string } }>;
  };
  if (options.name !== undefined) config.metadata.name = options.name;
  delete config.metadata.annotations;
  for (const hook of config.webhooks) {
    const path = hook.clientConfig.service?.path ?? "/";
    hook.clientConfig = { url: `${url}${path}`, caBundle: Buffer.from(caPem).toString("base64") } as never;
    if (options.failurePolicy !== undefined) hook["failurePolicy"] = options.failurePolicy;
    if (options.timeoutSeconds !== undefined) hook["timeoutSeconds"] = options.timeoutSeconds;
  }
  return config;
}
