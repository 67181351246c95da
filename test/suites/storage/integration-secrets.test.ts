// The password never leaks: with distinctive credentials, errors of every kind raised by the
// StorageClient against the reference server (over real HTTP on loopback) are searched for the
// password and its Basic form, as are the client's serialized forms, its request log and every
// line the server logged.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  StorageApiError,
  StorageClient,
  StorageCodecError,
  StorageJobError,
  StorageJobTimeoutError,
  StorageNetworkError,
  type StorageRequestEvent,
} from "../../../src/storage/index.js";
import {
  createManualClock,
  createReferenceServer,
  seedUuid,
  type ReferenceServer,
} from "../../../src/storage/server/index.js";

const USER = "admin";
const PASSWORD = "Zq7-cluster-PW-9xK";
const WRONG_PASSWORD = "Wr0ng-guess-PW-4hT";
const DOWNLOAD_PASSWORD = "Remote-dl-PW-8mV";
const basic = (user: string, pass: string): string => Buffer.from(`${user}:${pass}`, "utf8").toString("base64");
const SECRETS = [PASSWORD, WRONG_PASSWORD, DOWNLOAD_PASSWORD, basic(USER, PASSWORD), basic(USER, WRONG_PASSWORD)];

let server: ReferenceServer;
let slow: ReferenceServer;
const serverLogs: string[] = [];
const clientEvents: StorageRequestEvent[] = [];
let client: StorageClient;
let raw: StorageClient;
let wrong: StorageClient;
let closedPortUrl: string;

const options = (baseUrl: string, password = PASSWORD) =>
  ({
    baseUrl,
    username: USER,
    password,
    allowInsecureHttp: true,
    jobs: { initialIntervalMs: 1, maxIntervalMs: 5, timeoutMs: 5_000 },
    logger: (e: StorageRequestEvent) => void clientEvents.push(e),
  }) as const;

beforeAll(async () => {
  server = await createReferenceServer({
    username: USER,
    password: PASSWORD,
    clock: createManualClock(),
    jobDurationMs: 0,
    log: (l) => serverLogs.push(l),
  });
  // Jobs on this one take an hour of a clock that never moves: waiting for them times out.
  slow = await createReferenceServer({
    username: USER,
    password: PASSWORD,
    clock: createManualClock(),
    jobDurationMs: 3_600_000,
    log: (l) => serverLogs.push(l),
  });
  client = new StorageClient(options(server.url));
  raw = new StorageClient({ ...options(server.url), codecs: {} });
  wrong = new StorageClient(options(server.url, WRONG_PASSWORD));
  // A port nobody listens on.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  closedPortUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.close();
  await slow.close();
});

/** Every textual view of an error (and of its cause chain). */
function views(err: unknown): string[] {
  const out: string[] = [
    String(err),
    inspect(err, { depth: 10, showHidden: true }),
    inspect(err, { depth: 10, customInspect: false }),
  ];
  try {
    out.push(JSON.stringify(err) ?? "");
  } catch {
    // cyclic: inspect covers it
  }
  if (err instanceof Error) {
    out.push(err.message, err.stack ?? "", JSON.stringify(Object.entries(err)));
    if (err.cause !== undefined) out.push(...views(err.cause));
  }
  return out;
}

function expectClean(texts: readonly string[]): void {
  for (const text of texts) {
    for (const secret of SECRETS)
      expect(text.includes(secret), `leaked ${secret} in: ${text.slice(0, 300)}`).toBe(false);
  }
}

async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    expectClean(views(err));
    return err;
  }
  throw new Error("expected a rejection");
}

describe("the password never leaks", () => {
  it("(the check itself finds a secret when there is one)", () => {
    expect(() => expectClean([`x${PASSWORD}x`])).toThrow();
    expect(() => expectClean([inspect(new Error("e", { cause: new Error(basic(USER, PASSWORD)) }))])).toThrow();
  });

  it("not from a 401 with a wrong password", async () => {
    const err = await caught(() => wrong.nvmeNamespaces.all());
    expect(err).toBeInstanceOf(StorageApiError);
    expect((err as StorageApiError).status).toBe(401);
    expect((err as StorageApiError).code).toBe("6");
    // Every verb and path answers 401 the same way.
    expect(
      await caught(() => wrong.cloneTokens.create({ node: { uuid: seedUuid("a", 1) }, reserve_size: "1M" })),
    ).toBeInstanceOf(StorageApiError);
    expect(
      await caught(() =>
        wrong.software.download({ url: "http://x.example/image_9.20.1.tgz", password: DOWNLOAD_PASSWORD }),
      ),
    ).toBeInstanceOf(StorageApiError);
  });

  it("not from API errors whose message or target would echo it", async () => {
    // A field named after the password: the server's "unexpected argument" names it.
    const body = await caught(() =>
      raw.mutate("POST", "/api/storage/file/clone/tokens", {
        body: { [PASSWORD]: 1, [DOWNLOAD_PASSWORD]: 2 },
        secrets: [DOWNLOAD_PASSWORD],
      }),
    );
    expect(body).toBeInstanceOf(StorageApiError);
    expect((body as StorageApiError).status).toBe(400);
    // The server did name the field, with the secret scrubbed out.
    expect((body as StorageApiError).target).toContain("<redacted>");
    const query = await caught(() => client.request("GET", "/api/storage/namespaces", { query: { [PASSWORD]: "x" } }));
    expect(query).toBeInstanceOf(StorageApiError);
    expect((query as StorageApiError).status).toBe(400);
    const value = await caught(() => client.request("GET", "/api/storage/namespaces", { query: { fields: PASSWORD } }));
    expect(value).toBeInstanceOf(StorageApiError);
  });

  it("not from failed jobs, including a download with a remote password", async () => {
    const cache = await caught(() =>
      client.caches.create({
        name: "c1",
        svm: { name: "svm1" },
        origins: [{ svm: { name: "svm1" }, volume: { name: "vol_offline" } }],
      }),
    );
    expect(cache).toBeInstanceOf(StorageJobError);
    const dl = await caught(() =>
      client.software.download({
        url: "http://packages.example/readme.txt",
        username: "dl",
        password: DOWNLOAD_PASSWORD,
      }),
    );
    expect(dl).toBeInstanceOf(StorageJobError);
    expect((dl as StorageJobError).code).toBe(2228331);
    // The progress and the profile never carry it either.
    expectClean([
      JSON.stringify(await client.software.downloadProgress()),
      JSON.stringify(await client.software.get({ fields: "**" })),
    ]);
  });

  it("not from a job that outlives the wait", async () => {
    const c = new StorageClient({
      ...options(slow.url),
      jobs: { initialIntervalMs: 1, maxIntervalMs: 2, timeoutMs: 30 },
    });
    const err = await caught(() =>
      c.caches.create({
        name: "c2",
        svm: { name: "svm1" },
        origins: [{ svm: { name: "svm1" }, volume: { name: "vol1" } }],
      }),
    );
    expect(err).toBeInstanceOf(StorageJobTimeoutError);
    const dl = await caught(() =>
      c.software.download({ url: "http://packages.example/image_9.20.1.tgz", password: DOWNLOAD_PASSWORD }),
    );
    expect(dl).toBeInstanceOf(StorageJobTimeoutError);
  });

  it("not from codec errors on the download password", async () => {
    const bad = [
      { url: "not a url", password: DOWNLOAD_PASSWORD },
      { url: `gopher://dl:${DOWNLOAD_PASSWORD}@packages.example/image.tgz`, password: DOWNLOAD_PASSWORD },
      { url: "http://packages.example/image.tgz", password: DOWNLOAD_PASSWORD, extra: DOWNLOAD_PASSWORD },
      { url: "http://packages.example/image.tgz", password: [DOWNLOAD_PASSWORD] },
      { url: "http://packages.example/image.tgz", password: { value: DOWNLOAD_PASSWORD } },
      { url: "http://packages.example/image.tgz", username: DOWNLOAD_PASSWORD, password: 42 },
    ];
    for (const request of bad) {
      expect(await caught(() => client.software.download(request as never))).toBeInstanceOf(StorageCodecError);
    }
  });

  it("not from a network error to a closed port", async () => {
    const c = new StorageClient(options(closedPortUrl));
    const err = await caught(() => c.software.get());
    expect(err).toBeInstanceOf(StorageNetworkError);
    const dl = await caught(() =>
      c.software.download({ url: "http://packages.example/image_9.20.1.tgz", password: DOWNLOAD_PASSWORD }),
    );
    expect(dl).toBeInstanceOf(StorageNetworkError);
  });

  it("not from the client's serialized forms or its request log", () => {
    for (const c of [client, raw, wrong]) {
      expectClean([
        JSON.stringify(c),
        String(c),
        inspect(c, { depth: 10, showHidden: true }),
        inspect(c, { depth: 10, showHidden: true, customInspect: false }),
        JSON.stringify(Object.entries(c)),
        inspect(c.cloneTokens, { depth: 10, showHidden: true }),
        inspect(c.software, { depth: 10, showHidden: true }),
      ]);
      expect(JSON.parse(JSON.stringify(c))).toEqual({ baseUrl: server.url, username: USER });
    }
    expect(clientEvents.length).toBeGreaterThan(10);
    expectClean(clientEvents.map((e) => JSON.stringify(e)));
  });

  it("not in any line the server logged", () => {
    expect(serverLogs.length).toBeGreaterThan(10);
    expect(serverLogs.some((l) => / 401$/.test(l))).toBe(true);
    expectClean(serverLogs);
  });
});
