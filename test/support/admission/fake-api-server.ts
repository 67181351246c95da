// A fake Kubernetes API server for the capture guard's watch: HTTPS on
// loopback with a self-signed certificate, a bearer token it checks, and
// GET /apis/networking.k8s.io/v1/ingresses (and ingressclasses) as a paginated
// protobuf list and a protobuf watch stream, both encoded with clusterwire's encode and
// encodeWatchEvent. Tests push events, expire resourceVersions (HTTP 410 or an
// ERROR event) and drop watch connections.

import type { IncomingMessage, ServerResponse } from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import {
  IngressClassListSchema,
  IngressListSchema,
  PROTOBUF_MEDIA_TYPE,
  StatusSchema,
  create,
  encode,
  encodeWatchEvent,
  fromJson,
  type Ingress,
  type IngressClass,
  type JsonObject,
  type WatchEventType,
} from "../../../src/networking/index.js";
import { makeCert } from "../storage/cert.js";

const PATHS = {
  Ingress: "/apis/networking.k8s.io/v1/ingresses",
  IngressClass: "/apis/networking.k8s.io/v1/ingressclasses",
} as const;
type Kind = keyof typeof PATHS;
type Stored = Ingress | IngressClass;

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
  /** The Ingress watch requests answered with a stream so far, and how many are open now. */
  readonly watches: { opened: number; open: number };
  /** The last resourceVersion handed out. */
  readonly resourceVersion: number;
  /** Stores an Ingress or IngressClass (JSON) and sends ADDED or MODIFIED. */
  apply(json: JsonObject): void;
  /** Deletes one and sends DELETED. */
  remove(namespace: string, name: string, kind?: Kind): void;
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
  const stores = { Ingress: new Map<string, Stored>(), IngressClass: new Map<string, Stored>() };
  const history: { rv: number; kind: Kind; frame: Uint8Array }[] = [];
  const watchers = new Map<ServerResponse, Kind>();
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

  const emit = (type: WatchEventType, kind: Kind, object: Stored): void => {
    const frame = encodeWatchEvent({ type, object });
    history.push({ rv, kind, frame });
    for (const [w, k] of watchers) if (k === kind) w.write(frame);
  };

  const decodeStored = (json: JsonObject): { kind: Kind; object: Stored } => {
    const object = fromJson(json) as Stored;
    object.metadata!.resourceVersion = String(++rv);
    return { kind: json["kind"] === "IngressClass" ? "IngressClass" : "Ingress", object };
  };
  const key = (o: Stored): string => `${o.metadata?.namespace ?? ""}/${o.metadata?.name}`;

  const list = (kind: Kind, req: URL, res: ServerResponse): void => {
    const store = stores[kind];
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
    const metadata = { resourceVersion: String(listRv), continue: next };
    const body = encode(
      kind === "Ingress"
        ? create(IngressListSchema, { metadata, items: items as Ingress[] })
        : create(IngressClassListSchema, { metadata, items: items as IngressClass[] }),
    );
    res.writeHead(200, { "content-type": PROTOBUF_MEDIA_TYPE, "content-length": body.length });
    res.end(body);
  };

  const watch = (kind: Kind, req: URL, res: ServerResponse): void => {
    const from = Number(req.searchParams.get("resourceVersion") ?? "0");
    if (from <= expiredThrough) {
      fail(res, 410, "Expired", `too old resource version: ${from} (${rv})`);
      return;
    }
    res.writeHead(200, { "content-type": "application/vnd.kubernetes.protobuf;stream=watch" });
    // As the API server does: the headers go out at once, before any event.
    res.flushHeaders();
    if (kind === "Ingress") {
      watches.opened++;
      watches.open++;
    }
    for (const h of history) if (h.rv > from && h.kind === kind) res.write(h.frame);
    watchers.set(res, kind);
    res.on("close", () => {
      watchers.delete(res);
      if (kind === "Ingress") watches.open--;
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "https://fake");
    const authorized = req.headers.authorization === `Bearer ${server.token}`;
    const accept = req.headers.accept ?? "";
    requests.push({ path: url.pathname, query: url.searchParams, authorized, accept });
    if (server.stalled) return;
    const kind = (Object.keys(PATHS) as Kind[]).find((k) => PATHS[k] === url.pathname);
    if (!authorized) fail(res, 401, "Unauthorized", "Unauthorized");
    else if (req.method !== "GET" || kind === undefined) fail(res, 404, "NotFound", "not found");
    else if (!accept.startsWith(PROTOBUF_MEDIA_TYPE)) fail(res, 406, "NotAcceptable", "only protobuf is served");
    else if (url.searchParams.get("watch") === "1" || url.searchParams.get("watch") === "true") watch(kind, url, res);
    else list(kind, url, res);
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
      const { kind, object } = decodeStored(json);
      const existed = stores[kind].has(key(object));
      stores[kind].set(key(object), object);
      emit(existed ? "MODIFIED" : "ADDED", kind, object);
    },
    applySilently(json) {
      const { kind, object } = decodeStored(json);
      stores[kind].set(key(object), object);
    },
    remove(namespace, name, kind = "Ingress") {
      const object = stores[kind].get(`${namespace}/${name}`);
      if (object === undefined) return;
      stores[kind].delete(`${namespace}/${name}`);
      // The stored object leaves the store: it can carry the deletion's resourceVersion.
      object.metadata!.resourceVersion = String(++rv);
      emit("DELETED", kind, object);
    },
    bookmark() {
      const mark = fromJson({
        apiVersion: "networking.k8s.io/v1",
        kind: "Ingress",
        metadata: { resourceVersion: String(++rv) },
      } as JsonObject) as Ingress;
      emit("BOOKMARK", "Ingress", mark);
    },
    expire(how) {
      expiredThrough = rv;
      // The store moves on (compaction): a list from now on has a resourceVersion that is not expired.
      rv++;
      history.length = 0;
      for (const w of [...watchers.keys()]) {
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
      for (const w of [...watchers.keys()]) w.destroy();
    },
    async until(ok, what, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      for (const w of [...watchers.keys()]) w.destroy();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      cert.dispose();
    },
  };
  return server;
}
