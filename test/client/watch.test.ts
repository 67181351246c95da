// The watch iterator, in protobuf and in JSON, against the fake API server: when the request is
// sent, what it asks, every way it ends (the stream's end, an ERROR event, 410, a cut
// connection, a wrong object, the caller's abort or break, the header timeout and the deadline).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type Client, createClient } from "../../src/client/client.js";
import { ApiError, RequestError } from "../../src/client/errors.js";
import type { ClientWatchEvent } from "../../src/client/types.js";
import { WATCH_MARGIN_MS } from "../../src/client/watch.js";
import {
  create,
  DecodeError,
  encodeJsonWatchEvent,
  encodeWatchEvent,
  type Ingress,
  IngressClassSchema,
  type JsonObject,
} from "../../src/networking/index.js";
import { type FakeApiServer, mediaTypeOf, startFakeApiServer } from "../support/admission/fake-api-server.js";
import { certProblem } from "../support/storage/cert.js";
import { type Skippable, skipWithout } from "../support/tools.js";

const TOKEN = "watch-test-token";
const API = "/apis/networking.k8s.io/v1";
const FORMATS = ["protobuf", "json"] as const;
type Format = (typeof FORMATS)[number];

let fake: FakeApiServer | undefined;
const clients: Client[] = [];
beforeAll(async () => {
  fake = await startFakeApiServer({ token: TOKEN });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await fake?.close();
});
afterEach(async () => {
  vi.useRealTimers();
  if (fake === undefined) return;
  fake.dropWatches();
  await fake.until(() => fake?.watches.open === 0, "every watch closed");
  fake.stalled = false;
  fake.requests.length = 0;
});

function need(t: Skippable): FakeApiServer {
  if (fake === undefined) return skipWithout(t, "openssl", certProblem());
  return fake;
}
function clientOf(f: FakeApiServer, format: Format): Client {
  const c = createClient({
    credentials: { server: f.url, ca: Buffer.from(f.ca), token: TOKEN, source: "test" },
    format,
  });
  clients.push(c);
  return c;
}
let unique = 0;
const ns = (): string => `watch-${++unique}`;
const ingressJson = (namespace: string, name: string, labels: Record<string, string> = {}): JsonObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name, namespace, labels },
  spec: { defaultBackend: { service: { name: "s", port: { number: 80 } } } },
});
const describeEvent = (e: ClientWatchEvent<Ingress>): string =>
  e.type === "ERROR" ? `ERROR ${e.object.code} ${e.object.reason}` : `${e.type} ${e.object.metadata?.name ?? ""}`;
/** Takes the next event, failing if the iteration ends instead. */
async function take(it: AsyncIterator<ClientWatchEvent<Ingress>>): Promise<string> {
  const r = await it.next();
  if (r.done === true) throw new Error("the watch ended");
  return describeEvent(r.value);
}
async function rest(it: AsyncIterator<ClientWatchEvent<Ingress>>): Promise<string[]> {
  const out: string[] = [];
  for (let r = await it.next(); r.done !== true; r = await it.next()) out.push(describeEvent(r.value));
  return out;
}
const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => {
      throw new Error("resolved, expected a failure");
    },
    (e: unknown) => e,
  );

for (const format of FORMATS) {
  describe(`watch in ${format}`, () => {
    it("sends its request on the first next(), with every option exactly in the query", async (t) => {
      const f = need(t);
      const space = ns();
      const from = String(f.resourceVersion);
      const watch = clientOf(f, format).ingresses.watch({
        namespace: space,
        labelSelector: "app=web",
        fieldSelector: "metadata.name=a",
        resourceVersion: from,
        allowWatchBookmarks: true,
        timeoutSeconds: 300,
      });
      const it = watch[Symbol.asyncIterator]();
      expect(f.requests).toHaveLength(0);
      const first = it.next();
      f.apply(ingressJson(space, "a"));
      expect(describeEvent((await first).value as ClientWatchEvent<Ingress>)).toBe("ADDED a");
      expect(f.requests).toHaveLength(1);
      const r = f.requests[0]!;
      expect([r.method, r.path, r.accept]).toEqual([
        "GET",
        `${API}/namespaces/${space}/ingresses`,
        format === "protobuf" ? "application/vnd.kubernetes.protobuf;stream=watch" : "application/json",
      ]);
      expect([...r.query]).toEqual([
        ["watch", "1"],
        ["labelSelector", "app=web"],
        ["fieldSelector", "metadata.name=a"],
        ["resourceVersion", from],
        ["allowWatchBookmarks", "true"],
        ["timeoutSeconds", "300"],
      ]);
      await it.return?.();
      // Without options: all namespaces, nothing but watch=1.
      f.requests.length = 0;
      const all = clientOf(f, format).ingresses.watch()[Symbol.asyncIterator]();
      const next = all.next();
      f.apply(ingressJson(ns(), "b"));
      await next;
      expect([f.requests[0]?.path, [...(f.requests[0]?.query ?? [])]]).toEqual([`${API}/ingresses`, [["watch", "1"]]]);
      await all.return?.();
    });

    it("yields ADDED, MODIFIED, DELETED, BOOKMARK and ERROR events; the stream's end ends the iteration", async (t) => {
      const f = need(t);
      const space = ns();
      const from = String(f.resourceVersion);
      f.apply(ingressJson(space, "a"));
      const it = clientOf(f, format).ingresses.watch({ resourceVersion: from })[Symbol.asyncIterator]();
      expect(await take(it)).toBe("ADDED a");
      f.apply(ingressJson(space, "a", { v: "2" }));
      expect(await take(it)).toBe("MODIFIED a");
      f.remove(space, "a");
      expect(await take(it)).toBe("DELETED a");
      f.bookmark();
      expect(await take(it)).toBe("BOOKMARK ");
      // An expired resourceVersion: an ERROR event with the 410 Status, then the API server ends the stream.
      f.expire("event");
      expect(await rest(it)).toEqual(["ERROR 410 Expired"]);
    });

    it("a stream that ends normally ends the iteration without an error", async (t) => {
      const f = need(t);
      const it = clientOf(f, format)
        .ingresses.watch({ resourceVersion: String(f.resourceVersion) })
        [Symbol.asyncIterator]();
      const next = it.next();
      await f.until(() => f.watches.open === 1, "the watch");
      f.endWatches();
      expect(await next).toEqual({ done: true, value: undefined });
    });

    it("a 410 answer is an ApiError of status 410", async (t) => {
      const f = need(t);
      f.expire("http");
      const e = await failure(
        clientOf(f, format).ingresses.watch({ resourceVersion: "1" })[Symbol.asyncIterator]().next(),
      );
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({ status: 410, reason: "Expired", method: "GET", path: `${API}/ingresses` });
      expect((e as ApiError).statusObject?.message).toMatch(/^too old resource version: 1/);
    });

    it("a cut connection is a RequestError of code network", async (t) => {
      const f = need(t);
      const it = clientOf(f, format)
        .ingresses.watch({ resourceVersion: String(f.resourceVersion) })
        [Symbol.asyncIterator]();
      const next = it.next();
      await f.until(() => f.watches.open === 1, "the watch");
      f.dropWatches();
      const e = await failure(next);
      expect(e).toBeInstanceOf(RequestError);
      expect(e).toMatchObject({ code: "network", method: "GET", path: `${API}/ingresses` });
    });

    it("an object of another kind is a RequestError bad-response; a malformed frame a DecodeError", async (t) => {
      const f = need(t);
      const klass = create(IngressClassSchema, { metadata: { name: "k" } });
      const c = clientOf(f, format);
      for (const [type, what, want] of [
        ["ADDED", "a ADDED event", "k8s.io.api.networking.v1.Ingress"],
        ["ERROR", "an ERROR event", "k8s.io.apimachinery.pkg.apis.meta.v1.Status"],
      ] as const) {
        const it = c.ingresses.watch({ resourceVersion: String(f.resourceVersion) })[Symbol.asyncIterator]();
        const next = it.next();
        await f.until(() => f.watches.open === 1, "the watch");
        f.sendToWatches(encodeWatchEvent({ type, object: klass }), encodeJsonWatchEvent({ type, object: klass }));
        expect(await failure(next)).toMatchObject({
          name: "RequestError",
          code: "bad-response",
          message: `GET ${API}/ingresses: ${what} carries a k8s.io.api.networking.v1.IngressClass, not a ${want}`,
        });
        await f.until(() => f.watches.open === 0, "the watch closed");
      }
      const it = c.ingresses.watch({ resourceVersion: String(f.resourceVersion) })[Symbol.asyncIterator]();
      const next = it.next();
      await f.until(() => f.watches.open === 1, "the watch");
      f.sendToWatches(new Uint8Array([0, 0, 0, 3, 1, 2, 3]), "{]\n");
      expect(await failure(next)).toBeInstanceOf(DecodeError);
      await f.until(() => f.watches.open === 0, "the watch closed");
    });

    it("aborting ends the iteration quietly: before the request, while waiting for headers, while streaming", async (t) => {
      const f = need(t);
      const c = clientOf(f, format);
      expect(await rest(c.ingresses.watch({ signal: AbortSignal.abort() })[Symbol.asyncIterator]())).toEqual([]);
      expect(f.requests).toHaveLength(0);

      f.stalled = true;
      const waiting = new AbortController();
      const stalled = rest(c.ingresses.watch({ signal: waiting.signal })[Symbol.asyncIterator]());
      await f.until(() => f.requests.length === 1, "the stalled watch request");
      waiting.abort();
      expect(await stalled).toEqual([]);
      f.stalled = false;

      const streaming = new AbortController();
      const space = ns();
      const seen: string[] = [];
      const from = String(f.resourceVersion);
      f.apply(ingressJson(space, "a"));
      for await (const event of c.ingresses.watch({
        namespace: space,
        resourceVersion: from,
        signal: streaming.signal,
      })) {
        seen.push(describeEvent(event));
        streaming.abort();
      }
      expect(seen).toEqual(["ADDED a"]);
      await f.until(() => f.watches.open === 0, "the aborted watch closed");
    });

    it("leaving the for-await early closes the response", async (t) => {
      const f = need(t);
      const space = ns();
      const from = String(f.resourceVersion);
      f.apply(ingressJson(space, "a"));
      f.apply(ingressJson(space, "b"));
      const seen: string[] = [];
      for await (const event of clientOf(f, format).ingresses.watch({ namespace: space, resourceVersion: from })) {
        seen.push(describeEvent(event));
        break;
      }
      expect(seen).toEqual(["ADDED a"]);
      await f.until(() => f.watches.open === 0, "the watch closed");
    });

    it("next() and return() called while a next() is under way wait for it, in order", async (t) => {
      const f = need(t);
      const space = ns();
      const from = String(f.resourceVersion);
      const it = clientOf(f, format)
        .ingresses.watch({ namespace: space, resourceVersion: from })
        [Symbol.asyncIterator]();
      // Both asked before the request is even answered.
      const first = it.next();
      const second = it.next();
      f.apply(ingressJson(space, "a"));
      f.apply(ingressJson(space, "b"));
      expect(describeEvent((await first).value as ClientWatchEvent<Ingress>)).toBe("ADDED a");
      expect(describeEvent((await second).value as ClientWatchEvent<Ingress>)).toBe("ADDED b");
      const third = it.next();
      const closed = it.return?.();
      let returned = false;
      void closed?.then(() => {
        returned = true;
      });
      await f.until(() => f.watches.open === 1, "the watch still open");
      expect(returned).toBe(false);
      f.apply(ingressJson(space, "c"));
      expect(describeEvent((await third).value as ClientWatchEvent<Ingress>)).toBe("ADDED c");
      expect(await closed).toEqual({ done: true, value: undefined });
      await f.until(() => f.watches.open === 0, "the watch closed");
      expect(await it.next()).toEqual({ done: true, value: undefined });
      expect(f.requests).toHaveLength(1);
    });

    it("an error answer that is not a Status is an ApiError; another media type a RequestError bad-response", async (t) => {
      const f = need(t);
      const c = clientOf(f, format);
      f.answerNext({ status: 503, headers: { "content-type": "text/html" }, body: "<html>unavailable</html>" });
      expect(await failure(c.ingresses.watch()[Symbol.asyncIterator]().next())).toMatchObject({
        name: "ApiError",
        status: 503,
        reason: "",
      });
      f.answerNext({ status: 200, headers: { "content-type": "text/plain" }, body: "hello" });
      expect(await failure(c.ingresses.watch()[Symbol.asyncIterator]().next())).toMatchObject({
        name: "RequestError",
        code: "bad-response",
        message: `GET ${API}/ingresses: the watch's media type "text/plain" is neither protobuf nor JSON`,
      });
      f.answerNext({ status: 401, headers: { "content-type": mediaTypeOf(format) }, body: "" });
      expect(await failure(c.ingresses.watch()[Symbol.asyncIterator]().next())).toMatchObject({ status: 401 });
    });

    it("no response headers within headerTimeoutMs is a RequestError of code timeout", async (t) => {
      const f = need(t);
      f.stalled = true;
      const e = await failure(
        clientOf(f, format).ingresses.watch({ headerTimeoutMs: 50 })[Symbol.asyncIterator]().next(),
      );
      expect(e).toMatchObject({ code: "timeout", message: `GET ${API}/ingresses: no response headers within 50 ms` });
    });
  });
}

describe("watch: the client's own deadline", () => {
  it("cuts the watch timeoutSeconds and 30 s after it was sent, as a RequestError of code timeout", async (t) => {
    const f = need(t);
    const space = ns();
    const from = String(f.resourceVersion);
    f.apply(ingressJson(space, "a"));
    // Only the client's timers are faked; the sockets run on Node's own.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const it = clientOf(f, "protobuf")
      .ingresses.watch({ namespace: space, resourceVersion: from, timeoutSeconds: 5 })
      [Symbol.asyncIterator]();
    expect(await take(it)).toBe("ADDED a");
    expect(WATCH_MARGIN_MS).toBe(30_000);
    vi.advanceTimersByTime(5_000 + WATCH_MARGIN_MS - 1);
    const next = it.next();
    f.apply(ingressJson(space, "b"));
    expect(describeEvent((await next).value as ClientWatchEvent<Ingress>)).toBe("ADDED b");
    const cut = failure(it.next());
    vi.advanceTimersByTime(1);
    expect(await cut).toMatchObject({
      code: "timeout",
      message: `GET ${API}/namespaces/${space}/ingresses: not finished within 35000 ms`,
    });
  });

  it("without timeoutSeconds, no deadline is set", async (t) => {
    const f = need(t);
    const space = ns();
    const from = String(f.resourceVersion);
    f.apply(ingressJson(space, "a"));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const it = clientOf(f, "json").ingresses.watch({ namespace: space, resourceVersion: from })[Symbol.asyncIterator]();
    expect(await take(it)).toBe("ADDED a");
    vi.advanceTimersByTime(24 * 3600 * 1000);
    const next = it.next();
    f.apply(ingressJson(space, "b"));
    expect(describeEvent((await next).value as ClientWatchEvent<Ingress>)).toBe("ADDED b");
    await it.return?.();
  });
});
