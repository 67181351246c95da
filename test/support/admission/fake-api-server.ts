// A fake Kubernetes API server for the capture guard's watch: HTTPS on
// loopback with a self-signed certificate, a bearer token it checks, and
// GET /apis/networking.k8s.io/v1/ingresses as a paginated protobuf list and a
// protobuf watch stream, both encoded with clusterwire's encode and
// encodeWatchEvent. Tests push events, expire resourceVersions (HTTP 410 or an
// ERROR event) and drop watch connections.

import type { IncomingMessage, ServerResponse } from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import {
  IngressListSchema,
  PROTOBUF_MEDIA_TYPE,
  StatusSchema,
  create,
  encode,
  encodeWatchEvent,
  fromJson,
  type Ingress,
  type JsonObject,
  type WatchEventType,
} from "../../../src/networking/index.js";
import { makeCert } from "../storage/cert.js";

const PATH = "/apis/networking.k8s.io/v1/ingresses";

export interface RecordedRequest {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly authorized: boolean;
  readonly accept: string;
}

export interface FakeApiServer {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  /** The server certificate (PEM), to trust as the CA. */
  readonly ca: string;
  /** The bearer token it accepts; change it to test rotation. */
  token: string;
  readonly requests: RecordedRequest[];
  /** The watch requests answered with a stream so far, and how many are open now. */
  readonly watches: { opened: number; open: number };
  /** The last resourceVersion handed out. */
  readonly resourceVersion: number;
  /** Stores an Ingress (JSON) and sends ADDED or MODIFIED. */
  apply(json: JsonObject): void;
  /** Deletes one and sends DELETED. */
  remove(namespace: string, name: string): void;
  /** Sends a BOOKMARK at a new resourceVersion. */
  bookmark(): void;
  /** Changes the store without any event, as if the watch had missed it (the next list shows it). */
  applySilently(json: JsonObject): void;
  /**
   * Makes every resourceVersion up to now too old: watches from them (and
   * continue tokens) get 410. With "event", open watches get an ERROR event
   * with a 410 Status and are closed; with "http", they are just dropped.
   */
  expire(how: "event" | "http"): void;
  /** Cuts every open watch connection. */
  dropWatches(): void;
  /** While true, requests are recorded but never answered (a hung API server). */
  stalled: boolean;
  /** Waits (bounded) until `ok()` holds, polling. */
  until(ok: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1; undefined when openssl is missing. */
export async function startFakeApiServer(
  options: { token?: string; pageSize?: number } = {},
): Promise<FakeApiServer | undefined> {
  const cert = makeCert();
  if (cert === undefined) return undefined;
  const store = new Map<string, Ingress>();
  const history: { rv: number; frame: Uint8Array }[] = [];
  const watchers = new Set<ServerResponse>();
  let rv = 100;
  let expiredThrough = 0;
  const requests: RecordedRequest[] = [];
  const watches = { opened: 0, open: 0 };

  const status = (code: number, reason: string, message: string): Uint8Array =>
    encode(create(StatusSchema, { status: "Failure", code, reason, message }));

  const fail = (res: ServerResponse, code: number, reason: string, message: string): void => {
    const body = status(code, reason, message);
    res.writeHead(code, { "content-type": PROTOBUF_MEDIA_TYPE, "content-length": body.length });
    res.end(body);
  };

  const emit = (type: WatchEventType, ing: Ingress): void => {
    const frame = encodeWatchEvent({ type, object: ing });
    history.push({ rv, frame });
    for (const w of watchers) w.write(frame);
  };

  const decodeIngress = (json: JsonObject): Ingress => {
    const ing = fromJson(json) as Ingress;
    ing.metadata!.resourceVersion = String(++rv);
    return ing;
  };
  const key = (ing: Ingress): string => `${ing.metadata?.namespace}/${ing.metadata?.name}`;

  const list = (req: URL, res: ServerResponse): void => {
    const limit = Number(req.searchParams.get("limit") ?? "0") || options.pageSize || Number.MAX_SAFE_INTEGER;
    const token = req.searchParams.get("continue") ?? "";
    let listRv = rv;
    let offset = 0;
    if (token !== "") {
      const [at, from] = Buffer.from(token, "base64url").toString().split(":");
      listRv = Number(at);
      offset = Number(from);
      if (listRv <= expiredThrough) {
        fail(res, 410, "Expired", "The provided continue parameter is too old to display a consistent list result.");
        return;
      }
    }
    const all = [...store.values()].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    const items = all.slice(offset, offset + limit);
    const next = offset + limit < all.length ? Buffer.from(`${listRv}:${offset + limit}`).toString("base64url") : "";
    const body = encode(
      create(IngressListSchema, { metadata: { resourceVersion: String(listRv), continue: next }, items }),
    );
    res.writeHead(200, { "content-type": PROTOBUF_MEDIA_TYPE, "content-length": body.length });
    res.end(body);
  };

  const watch = (req: URL, res: ServerResponse): void => {
    const from = Number(req.searchParams.get("resourceVersion") ?? "0");
    if (from <= expiredThrough) {
      fail(res, 410, "Expired", `too old resource version: ${from} (${rv})`);
      return;
    }
    res.writeHead(200, { "content-type": "application/vnd.kubernetes.protobuf;stream=watch" });
    // As the API server does: the headers go out at once, before any event.
    res.flushHeaders();
    watches.opened++;
    watches.open++;
    for (const h of history) if (h.rv > from) res.write(h.frame);
    watchers.add(res);
    res.on("close", () => {
      watchers.delete(res);
      watches.open--;
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "https://fake");
    const authorized = req.headers.authorization === `Bearer ${server.token}`;
    const accept = req.headers.accept ?? "";
    requests.push({ path: url.pathname, query: url.searchParams, authorized, accept });
    if (server.stalled) return;
    if (!authorized) fail(res, 401, "Unauthorized", "Unauthorized");
    else if (req.method !== "GET" || url.pathname !== PATH) fail(res, 404, "NotFound", "not found");
    else if (!accept.startsWith(PROTOBUF_MEDIA_TYPE)) fail(res, 406, "NotAcceptable", "only protobuf is served");
    else if (url.searchParams.get("watch") === "1" || url.searchParams.get("watch") === "true") watch(url, res);
    else list(url, res);
  };

  const http = https.createServer({ key: cert.key, cert: cert.cert }, handle);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  const server: FakeApiServer = {
    url: `https://127.0.0.1:${port}`,
    ca: cert.cert,
    token: options.token ?? "fake-token-0",
    stalled: false,
    requests,
    watches,
    get resourceVersion() {
      return rv;
    },
    apply(json) {
      const ing = decodeIngress(json);
      const existed = store.has(key(ing));
      store.set(key(ing), ing);
      emit(existed ? "MODIFIED" : "ADDED", ing);
    },
    applySilently(json) {
      const ing = decodeIngress(json);
      store.set(key(ing), ing);
    },
    remove(namespace, name) {
      const ing = store.get(`${namespace}/${name}`);
      if (ing === undefined) return;
      store.delete(`${namespace}/${name}`);
      // The stored object leaves the store: it can carry the deletion's resourceVersion.
      ing.metadata!.resourceVersion = String(++rv);
      emit("DELETED", ing);
    },
    bookmark() {
      const mark = fromJson({
        apiVersion: "networking.k8s.io/v1",
        kind: "Ingress",
        metadata: { resourceVersion: String(++rv) },
      } as JsonObject) as Ingress;
      emit("BOOKMARK", mark);
    },
    expire(how) {
      expiredThrough = rv;
      // The store moves on (compaction): a list from now on has a resourceVersion that is not expired.
      rv++;
      history.length = 0;
      for (const w of [...watchers]) {
        if (how === "event") {
          w.end(
            encodeWatchEvent({
              type: "ERROR",
              object: create(StatusSchema, {
                status: "Failure",
                code: 410,
                reason: "Expired",
                message: `too old resource version: ${rv} (${rv + 1})`,
              }),
            }),
          );
        } else {
          w.destroy();
        }
      }
    },
    dropWatches() {
      for (const w of [...watchers]) w.destroy();
    },
    async until(ok, what, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      for (const w of [...watchers]) w.destroy();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      cert.dispose();
    },
  };
  return server;
}
