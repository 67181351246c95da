import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CertFileExistsError,
  makeWebhookCerts,
  writeWebhookCertFiles,
  type WebhookCerts,
} from "../../../src/admission/server/index.js";

const root = mkdtempSync(join(tmpdir(), "clusterwire-cert-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let certs: WebhookCerts;
let n = 0;
const fresh = (): string => join(root, String(n++));
const mode = (path: string): number => statSync(path).mode & 0o777;

describe("writeWebhookCertFiles", () => {
  it("writes ca.crt, tls.crt and tls.key, the key for its owner only, making the folder", async () => {
    certs = await makeWebhookCerts({ service: "w", namespace: "ns" });
    const dir = join(fresh(), "deep", "er");
    const paths = await writeWebhookCertFiles(dir, certs);
    expect(paths).toEqual({ caCert: join(dir, "ca.crt"), cert: join(dir, "tls.crt"), key: join(dir, "tls.key") });
    expect(readFileSync(paths.caCert, "utf8")).toBe(certs.caCert);
    expect(readFileSync(paths.cert, "utf8")).toBe(certs.cert);
    expect(readFileSync(paths.key, "utf8")).toBe(certs.key);
    expect(mode(paths.key)).toBe(0o600);
    expect(mode(paths.cert)).toBe(0o644);
    expect(mode(paths.caCert)).toBe(0o644);
  });

  it("writes nothing when any file exists, unless forced; forced, the key is 0600 whatever it was", async () => {
    const dir = fresh();
    await writeWebhookCertFiles(dir, certs);
    rmSync(join(dir, "ca.crt"));
    rmSync(join(dir, "tls.key"));
    const e = await writeWebhookCertFiles(dir, certs).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(CertFileExistsError);
    expect((e as CertFileExistsError).path).toBe(join(dir, "tls.crt"));
    expect(existsSync(join(dir, "ca.crt"))).toBe(false);
    expect(existsSync(join(dir, "tls.key"))).toBe(false);

    writeFileSync(join(dir, "tls.key"), "old", { mode: 0o644 });
    const other = await makeWebhookCerts({ service: "w", namespace: "ns" });
    await writeWebhookCertFiles(dir, other, { force: true });
    expect(readFileSync(join(dir, "tls.key"), "utf8")).toBe(other.key);
    expect(readFileSync(join(dir, "tls.crt"), "utf8")).toBe(other.cert);
    expect(mode(join(dir, "tls.key"))).toBe(0o600);
  });

  it("ends with an error naming the path where the folder cannot be made", async () => {
    const file = join(root, "a-file");
    writeFileSync(file, "");
    await expect(writeWebhookCertFiles(file, certs)).rejects.toMatchObject({ code: "ENOTDIR", path: file });
    await expect(writeWebhookCertFiles(join(file, "sub"), certs)).rejects.toMatchObject({ code: "ENOTDIR" });
    // Node 20's recursive mkdir never returns here: /proc answers ENOENT under an existing parent.
    if (existsSync("/proc/self"))
      await expect(writeWebhookCertFiles("/proc/clusterwire-no-such/dir", certs)).rejects.toMatchObject({
        code: "ENOENT",
      });
  });

  it("does not write through a symlink left where the key goes", async () => {
    const dir = fresh();
    await writeWebhookCertFiles(dir, certs);
    const target = join(root, "elsewhere");
    writeFileSync(target, "untouched");
    rmSync(join(dir, "tls.key"));
    symlinkSync(target, join(dir, "tls.key"));
    await expect(writeWebhookCertFiles(dir, certs)).rejects.toBeInstanceOf(CertFileExistsError);
    await writeWebhookCertFiles(dir, certs, { force: true });
    expect(readFileSync(target, "utf8")).toBe("untouched");
    expect(readFileSync(join(dir, "tls.key"), "utf8")).toBe(certs.key);
  });
});
