import { X509Certificate } from "node:crypto";
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { loadTlsPair, watchTlsFiles, type TlsPair } from "../../../src/admission/server/tls-files.js";
import { pem, tlsDir, waitFor } from "../../support/admission/server.js";

const first = pem();
const second = pem();
const dirs: { dispose(): void }[] = [];
afterAll(() => {
  for (const d of dirs) d.dispose();
});
function dir(): ReturnType<typeof tlsDir> {
  const d = tlsDir(first);
  dirs.push(d);
  return d;
}

const fingerprint = (pair: TlsPair): string => new X509Certificate(pair.cert).fingerprint256;

/** Watches `files` every 10 ms from the pair in use, collecting the fingerprints of the pairs it reports. */
function watchFingerprints(files: ReturnType<typeof tlsDir>, inUse: TlsPair): { changes: string[]; stop(): void } {
  const changes: string[] = [];
  const stop = watchTlsFiles(
    files,
    10,
    ({ pair }) => changes.push(fingerprint(pair)),
    () => {},
    inUse,
  );
  return { changes, stop };
}

describe("loadTlsPair", () => {
  it("reads the certificate and key as they are in the files", async () => {
    const files = dir();
    const { pair, context } = await loadTlsPair(files);
    expect(pair.cert.toString()).toBe(first.cert);
    expect(pair.key.toString()).toBe(first.key);
    expect(context.context).toBeDefined();
  });

  it("refuses a key that does not match the certificate, naming neither key nor contents", async () => {
    const files = dir();
    writeFileSync(files.keyFile, second.key);
    const e = await loadTlsPair(files).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect(String((e as Error).message)).not.toContain("PRIVATE KEY");
    expect(String((e as Error).message)).toMatch(/key values mismatch/i);
  });

  it("refuses missing and non-PEM files", async () => {
    const files = dir();
    await expect(loadTlsPair({ ...files, certFile: `${files.certFile}.missing` })).rejects.toMatchObject({
      code: "ENOENT",
    });
    writeFileSync(files.certFile, "not a certificate");
    await expect(loadTlsPair(files)).rejects.toThrow();
  });
});

describe("watchTlsFiles", () => {
  it("reports the new pair once both files change, and a half-rotated pair as an error", async () => {
    const files = dir();
    const changes: string[] = [];
    const errors: unknown[] = [];
    const stop = watchTlsFiles(
      files,
      10,
      ({ pair }) => changes.push(fingerprint(pair)),
      (e) => errors.push(e),
    );
    try {
      // Half way: the new certificate with the old key. The watcher's first look at the files is
      // asynchronous and may already see a write made right after it starts, so write until it reports.
      await waitFor(() => {
        writeFileSync(files.certFile, second.cert);
        return errors.length > 0;
      });
      expect(changes).toEqual([]);
      await waitFor(() => {
        writeFileSync(files.keyFile, second.key);
        return changes.length > 0;
      });
      expect(changes.at(-1)).toBe(new X509Certificate(second.cert).fingerprint256);
    } finally {
      stop();
    }
  });

  it("picks up a rotation made between reading the pair in use and starting to watch", async () => {
    const files = dir();
    const { pair } = await loadTlsPair(files);
    // The rotation lands before the watcher's first look: no file changes after that look.
    files.swap(second);
    const { changes, stop } = watchFingerprints(files, pair);
    try {
      await waitFor(() => changes.length > 0);
      expect(changes).toEqual([new X509Certificate(second.cert).fingerprint256]);
    } finally {
      stop();
    }
  });

  it("does not report a pair with the same bytes as the one in use", async () => {
    const files = dir();
    const { pair } = await loadTlsPair(files);
    const { changes, stop } = watchFingerprints(files, pair);
    try {
      // Rewritten with the same bytes until the watcher has surely looked, then really changed.
      for (let i = 0; i < 5; i++) {
        files.swap(first);
        await new Promise((r) => setTimeout(r, 30));
      }
      await waitFor(() => {
        files.swap(second);
        return changes.length > 0;
      });
      expect(changes).toEqual([new X509Certificate(second.cert).fingerprint256]);
    } finally {
      stop();
    }
  });

  it("reports nothing after stop()", async () => {
    const files = dir();
    let calls = 0;
    const stop = watchTlsFiles(
      files,
      10,
      () => calls++,
      () => calls++,
    );
    stop();
    files.swap(second);
    // Another watcher, still running, sees the swap: by then the stopped one would have too.
    let seen = false;
    const witness = watchTlsFiles(
      files,
      10,
      () => {
        seen = true;
      },
      () => {},
    );
    try {
      let n = 0;
      await waitFor(() => {
        files.swap(n++ % 2 === 0 ? first : second);
        return seen;
      });
      expect(calls).toBe(0);
    } finally {
      witness();
    }
  });

  it("keeps no handle that would hold the process open", async () => {
    const files = dir();
    const before = process.getActiveResourcesInfo().length;
    const stop = watchTlsFiles(
      files,
      10,
      () => {},
      () => {},
    );
    expect(process.getActiveResourcesInfo().length).toBe(before);
    stop();
  });
});
