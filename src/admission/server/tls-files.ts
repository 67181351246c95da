// The serving certificate and key, read from files and read again when they
// change (cert-manager rotates them by swapping the Secret volume's symlink).

import { unwatchFile, watchFile } from "node:fs";
import { readFile } from "node:fs/promises";
import { createSecureContext, type SecureContext } from "node:tls";

export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

export interface TlsPair {
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** Reads the pair and checks it makes a secure context (a key that matches the certificate). */
export async function loadTlsPair(files: TlsFiles): Promise<{ pair: TlsPair; context: SecureContext }> {
  const [cert, key] = await Promise.all([readFile(files.certFile), readFile(files.keyFile)]);
  const pair = { cert, key };
  return { pair, context: createSecureContext(pair) };
}

/**
 * Polls both files (by path, so a swapped symlink counts as a change) and
 * calls `onChange` with the new pair once it loads; a pair caught half way
 * through a rotation (a key that does not match yet) goes to `onError`, and
 * the next change is tried again. A pair with the same bytes as the one in
 * use (`current`, then the last one reported) is not reported. The files are
 * also read once, one interval after the start: the watcher's first look at
 * them is asynchronous, so a rotation between reading `current` and that look
 * would otherwise go unseen until the next one. Returns the function that
 * stops watching.
 */
export function watchTlsFiles(
  files: TlsFiles,
  intervalMs: number,
  onChange: (loaded: { pair: TlsPair; context: SecureContext }) => void,
  onError: (e: unknown) => void,
  current?: TlsPair,
): () => void {
  let stopped = false;
  let served = current;
  let loading: Promise<void> = Promise.resolve();
  const changed = (): void => {
    // One load at a time, in order, so an older pair never replaces a newer one.
    loading = loading.then(async () => {
      if (stopped) return;
      try {
        const loaded = await loadTlsPair(files);
        if (stopped || (served !== undefined && samePair(served, loaded.pair))) return;
        served = loaded.pair;
        onChange(loaded);
      } catch (e) {
        if (!stopped) onError(e);
      }
    });
  };
  const options = { interval: intervalMs, persistent: false };
  watchFile(files.certFile, options, changed);
  watchFile(files.keyFile, options, changed);
  const recheck = setTimeout(changed, intervalMs);
  recheck.unref();
  return () => {
    stopped = true;
    clearTimeout(recheck);
    unwatchFile(files.certFile, changed);
    unwatchFile(files.keyFile, changed);
  };
}

const samePair = (a: TlsPair, b: TlsPair): boolean => a.cert.equals(b.cert) && a.key.equals(b.key);
