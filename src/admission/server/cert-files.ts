// Writes what makeWebhookCerts made as a kubernetes.io/tls Secret's files:
// ca.crt, tls.crt and tls.key, the key readable by its owner only.

import { lstat, mkdir, open, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { WebhookCerts } from "./certs.js";

/**
 * The file names of a kubernetes.io/tls Secret (with cert-manager's ca.crt).
 *
 * @example
 * ```ts
 * import { CERT_FILE_NAMES } from "clusterwire/admission/server";
 *
 * // The files of the Secret mounted at /tls: /tls/tls.crt and /tls/tls.key.
 * const tls = { certFile: `/tls/${CERT_FILE_NAMES.cert}`, keyFile: `/tls/${CERT_FILE_NAMES.key}` };
 * ```
 */
export const CERT_FILE_NAMES = { caCert: "ca.crt", cert: "tls.crt", key: "tls.key" } as const;

/**
 * A file that exists already and was not to be overwritten; `path` names it.
 *
 * @example
 * ```ts
 * import { CertFileExistsError, makeWebhookCerts, writeWebhookCertFiles } from "clusterwire/admission/server";
 *
 * const certs = await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" });
 * try {
 *   await writeWebhookCertFiles("certs", certs);
 * } catch (e) {
 *   if (!(e instanceof CertFileExistsError)) throw e;
 *   console.log(`keeping ${e.path}`);
 * }
 * ```
 */
export class CertFileExistsError extends Error {
  /** Always `"CertFileExistsError"`. */
  override readonly name = "CertFileExistsError";
  /** @param path The file that exists. */
  constructor(readonly path: string) {
    super(`${path} exists already; remove it or overwrite it with --force`);
  }
}

/**
 * The paths {@link writeWebhookCertFiles} wrote.
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
 * console.log(files.caCert, files.cert, files.key); // .../ca.crt .../tls.crt .../tls.key
 * ```
 */
export interface WrittenCertFiles {
  /** Path of `ca.crt`, the CA certificate. */
  readonly caCert: string;
  /** Path of `tls.crt`, the serving certificate. */
  readonly cert: string;
  /** Path of `tls.key`, the serving key (mode 0600). */
  readonly key: string;
}

/**
 * Writes the three files into `dir` (made if missing, mode 0700). Without
 * `force`, nothing is written when any of them exists (CertFileExistsError).
 * tls.key is mode 0600, the certificates 0644, whatever the umask or the mode
 * of a file overwritten. Returns the paths written.
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
 * // Overwrite them later, e.g. to renew: the server reloads changed files.
 * await writeWebhookCertFiles(dir, await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" }), { force: true });
 * ```
 */
export async function writeWebhookCertFiles(
  dir: string,
  certs: WebhookCerts,
  options: { readonly force?: boolean } = {},
): Promise<WrittenCertFiles> {
  const paths: WrittenCertFiles = {
    caCert: join(dir, CERT_FILE_NAMES.caCert),
    cert: join(dir, CERT_FILE_NAMES.cert),
    key: join(dir, CERT_FILE_NAMES.key),
  };
  await makeDirectory(dir, 0);
  if (options.force !== true) {
    // All three are checked before any is written, so a refusal leaves nothing half done.
    for (const path of Object.values(paths)) if (await exists(path)) throw new CertFileExistsError(path);
  }
  await writeNew(paths.caCert, certs.caCert, 0o644, options.force === true);
  await writeNew(paths.cert, certs.cert, 0o644, options.force === true);
  await writeNew(paths.key, certs.key, 0o600, options.force === true);
  return paths;
}

/**
 * mkdir -p, one level at a time. Not `mkdir(dir, { recursive: true })`: on
 * Node 20 that never returns where the file system answers ENOENT to a path
 * whose parent exists (under /proc, for one), and here each level is tried
 * once, so it ends.
 */
async function makeDirectory(dir: string, depth: number): Promise<void> {
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      if ((await lstat(dir).catch(() => undefined))?.isDirectory() === true) return;
      throw Object.assign(new Error(`${dir} exists and is not a directory`), { code: "ENOTDIR", path: dir });
    }
    const parent = dirname(dir);
    if (code !== "ENOENT" || parent === dir || depth > 255) throw e;
    await makeDirectory(parent, depth + 1);
    await mkdir(dir, { mode: 0o700 }).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== "EEXIST") throw again;
    });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw e;
  }
}

/**
 * Creates the file exclusively (never through a symlink an attacker left),
 * removing an old one first when forced, and sets its mode explicitly.
 */
async function writeNew(path: string, text: string, mode: number, force: boolean): Promise<void> {
  if (force) await rm(path, { force: true });
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, "wx", mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") throw new CertFileExistsError(path);
    throw e;
  }
  try {
    await file.chmod(mode);
    await file.writeFile(text, "utf8");
  } finally {
    await file.close();
  }
}
