// Shared setup of the client-against-server tests: a reference server on a
// manual clock with instant jobs, a client with the default codecs and one
// without (so the server's own checks can be seen), and error catchers.
import { expect } from "vitest";
import { StorageApiError, StorageClient, StorageCodecError } from "../../../src/storage/index.js";
import {
  createManualClock,
  createReferenceServer,
  type ManualClock,
  type ReferenceServer,
  type ReferenceServerOptions,
} from "../../../src/storage/server/index.js";
import { USER } from "./server-harness.js";

export { USER };

export interface Loopback {
  readonly server: ReferenceServer;
  readonly clock: ManualClock;
  /** Bodies through the codecs, as users get it. */
  readonly client: StorageClient;
  /** `codecs: {}`: bodies reach the server exactly as written. */
  readonly raw: StorageClient;
  close(): Promise<void>;
}

export async function startLoopback(password: string, options: ReferenceServerOptions = {}): Promise<Loopback> {
  const clock = createManualClock();
  const server = await createReferenceServer({ username: USER, password, clock, jobDurationMs: 0, ...options });
  const common = {
    baseUrl: server.url,
    username: USER,
    password,
    allowInsecureHttp: true,
    jobs: { initialIntervalMs: 1, maxIntervalMs: 5, timeoutMs: 5_000 },
  } as const;
  const client = new StorageClient(common);
  const raw = new StorageClient({ ...common, codecs: {} });
  return {
    server,
    clock,
    client,
    raw,
    async close() {
      client.close();
      raw.close();
      await server.close();
    },
  };
}

/** Runs `fn` and returns what it threw (failing if it did not throw). */
export async function thrown(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

export async function apiError(fn: () => Promise<unknown>): Promise<StorageApiError> {
  const err = await thrown(fn);
  expect(err).toBeInstanceOf(StorageApiError);
  return err as StorageApiError;
}

export async function codecError(fn: () => Promise<unknown>): Promise<StorageCodecError> {
  const err = await thrown(fn);
  expect(err).toBeInstanceOf(StorageCodecError);
  return err as StorageCodecError;
}
