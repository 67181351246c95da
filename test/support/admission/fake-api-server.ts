// A fake Kubernetes API server for the capture guard's watch and for clusterwire/client: HTTPS
// on loopback with a self-signed certificate and a bearer token it checks, serving the five
// networking.k8s.io/v1 kinds under /apis/networking.k8s.io/v1[/namespaces/NS]/PLURAL[/NAME][/status]
// in protobuf or JSON (by Accept), encoded with clusterwire's own codecs:
//   GET    a paginated list, or (watch=1) a watch stream; an object
//   POST   create (201), PUT update and .../status (Ingress and ServiceCIDR only), DELETE
//          (a Status, as the API server answers for these kinds), PATCH server-side apply
//          (application/apply-patch+yaml; fieldManager required)
// with dryRun=All honoured and errors as Status bodies in the negotiated format. Every request is
// recorded (method, path, query, headers, body). Tests push events, expire resourceVersions
// (HTTP 410 or an ERROR event), drop watch connections, add Warning headers, and answer the next
// request with a canned answer (any status, headers and body; or headers then nothing).

import type { IncomingMessage, ServerResponse } from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import {
  IngressClassListSchema,
  IngressListSchema,
  IPAddressListSchema,
  NetworkPolicyListSchema,
  PROTOBUF_MEDIA_TYPE,
  ServiceCIDRListSchema,
  StatusSchema,
  create,
  decode,
  encode,
  encodeJsonWatchEvent,
  encodeWatchEvent,
  fromJson,
  toJsonString,
  type Ingress,
  type IngressClass,
  type IPAddress,
  type JsonObject,
  type NetworkingObject,
  type NetworkPolicy,
  type ServiceCIDR,
  type Status,
  type WatchEventType,
} from "../../../src/networking/index.js";
import { makeCert } from "../storage/cert.js";

const PLURALS = {
  Ingress: "ingresses",
  IngressClass: "ingressclasses",
  NetworkPolicy: "networkpolicies",
  IPAddress: "ipaddresses",
  ServiceCIDR: "servicecidrs",
} as const;
export type Kind = keyof typeof PLURALS;
const KINDS = Object.keys(PLURALS) as Kind[];
const NAMESPACED: ReadonlySet<Kind> = new Set(["Ingress", "NetworkPolicy"]);
const WITH_STATUS: ReadonlySet<Kind> = new Set(["Ingress", "ServiceCIDR"]);
const LIST_SCHEMAS = {
  Ingress: IngressListSchema,
  IngressClass: IngressClassListSchema,
  NetworkPolicy: NetworkPolicyListSchema,
  IPAddress: IPAddressListSchema,
  ServiceCIDR: ServiceCIDRListSchema,
} as const;
type Stored = Ingress | IngressClass | NetworkPolicy | IPAddress | ServiceCIDR;
type Format = "protobuf" | "json";

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly authorized: boolean;
  readonly accept: string;
  readonly contentType: string;
  readonly userAgent: string;
  readonly body: Buffer;
}

/** A canned answer to one request. */
export interface FakeAnswer {
  readonly status: number;
  readonly headers?: Record<string, string | string[]>;
  readonly body?: Uint8Array | string;
  /** Send the body without a Content-Length (chunked). */
  readonly chunked?: boolean;
  /** Send the headers and the body so far, then nothing more, never ending the answer. */
  readonly hang?: boolean;
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
  /** Texts sent as Warning headers (`299 - "text"`, one header each) with every answer. */
  warnings: string[];
  /** Stores an object (JSON, any of the five kinds) and sends ADDED or MODIFIED. */
  apply(json: JsonObject): void;
  /** Deletes one and sends DELETED. */
  remove(namespace: string, name: string, kind?: Kind): void;
  /** The stored object, if any. */
  stored(kind: Kind, namespace: string, name: string): Stored | undefined;
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
  /** Ends every open watch normally (the stream's end, as after the server's timeoutSeconds). */
  endWatches(): void;
  /** Sends a raw frame (protobuf) or line (JSON) to every open watch. */
  sendToWatches(protobuf: Uint8Array, json: string): void;
  /** Answers the next request (for which `match` holds, if given) with `answer` instead. */
  answerNext(answer: FakeAnswer, match?: (r: RecordedRequest) => boolean): void;
  /** While true, requests are recorded but never answered (a hung API server). */
  stalled: boolean;
  /** The TLS connections open now (keep-alive ones included). */
  readonly connections: number;
  /** Waits (bounded) until `ok()` holds, polling. */
  until(ok: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A Status body in `format`, as the API server writes errors and delete answers. */
export function statusBody(
  format: Format,
  fields: {
    status?: string;
    code: number;
    reason?: string;
    message?: string;
    details?: {
      name?: string;
      group?: string;
      kind?: string;
      uid?: string;
      causes?: { reason?: string; message?: string; field?: string }[];
    };
  },
): Uint8Array {
  const status = create(StatusSchema, { status: "Failure", ...fields });
  return format === "protobuf" ? encode(status) : Buffer.from(toJsonString(status));
}

/** The content type of `format`. */
export function mediaTypeOf(format: Format): string {
  return format === "protobuf" ? PROTOBUF_MEDIA_TYPE : "application/json";
}

/** Starts the fake on 127.0.0.1; undefined when openssl is missing. */
export async function startFakeApiServer(
  options: {
    token?: string;
    pageSize?: number;
    /** End each watch after its timeoutSeconds, as the API server does; default: keep it open. */
    honourTimeoutSeconds?: boolean;
  } = {},
): Promise<FakeApiServer | undefined> {
  const cert = makeCert();
  if (cert === undefined) return undefined;
  const stores = Object.fromEntries(KINDS.map((k) => [k, new Map<string, Stored>()])) as Record<
    Kind,
    Map<string, Stored>
  >;
  const history: { rv: number; kind: Kind; type: WatchEventType; object: Stored }[] = [];
  const watchers = new Map<ServerResponse, { kind: Kind; namespace: string | undefined; format: Format }>();
  const canned: { answer: FakeAnswer; match: ((r: RecordedRequest) => boolean) | undefined }[] = [];
  let rv = 100;
  let expiredThrough = 0;
  const requests: RecordedRequest[] = [];
  const watches = { opened: 0, open: 0 };

  const kindOfObject = (o: { $typeName: string }): Kind => {
    const kind = KINDS.find((k) => o.$typeName === `k8s.io.api.networking.v1.${k}`);
    if (kind === undefined) throw new Error(`the fake stores no ${o.$typeName}`);
    return kind;
  };
  const key = (o: Stored): string => `${o.metadata?.namespace ?? ""}/${o.metadata?.name}`;
  const frameOf = (format: Format, type: WatchEventType, object: NetworkingObject): Uint8Array | string =>
    format === "protobuf" ? encodeWatchEvent({ type, object }) : encodeJsonWatchEvent({ type, object });
  const inScope = (w: { kind: Kind; namespace: string | undefined }, kind: Kind, o: Stored): boolean =>
    w.kind === kind && (w.namespace === undefined || o.metadata?.namespace === w.namespace);

  const emit = (type: WatchEventType, kind: Kind, object: Stored): void => {
    history.push({ rv, kind, type, object });
    for (const [res, w] of watchers) if (inScope(w, kind, object)) res.write(frameOf(w.format, type, object));
  };

  const send = (res: ServerResponse, status: number, format: Format, body: Uint8Array): void => {
    res.writeHead(status, { "content-type": mediaTypeOf(format), "content-length": body.length });
    res.end(body);
  };
  const fail = (
    res: ServerResponse,
    format: Format,
    code: number,
    reason: string,
    message: string,
    details?: object,
  ): void =>
    send(
      res,
      code,
      format,
      statusBody(format, { code, reason, message, ...(details === undefined ? {} : { details }) }),
    );

  const decodeStored = (json: JsonObject): { kind: Kind; object: Stored } => {
    const object = fromJson(json) as Stored;
    object.metadata!.resourceVersion = String(++rv);
    return { kind: kindOfObject(object), object };
  };

  const list = (kind: Kind, namespace: string | undefined, url: URL, res: ServerResponse, format: Format): void => {
    const store = stores[kind];
    const limit = Number(url.searchParams.get("limit") ?? "0") || options.pageSize || Number.MAX_SAFE_INTEGER;
    const token = url.searchParams.get("continue") ?? "";
    let listRv = rv;
    let offset = 0;
    if (token !== "") {
      const [at, from] = Buffer.from(token, "base64url").toString().split(":");
      listRv = Number(at);
      offset = Number(from);
      if (listRv <= expiredThrough) {
        fail(
          res,
          format,
          410,
          "Expired",
          "The provided continue parameter is too old to display a consistent list result.",
        );
        return;
      }
    }
    const all = [...store.values()]
      .filter((o) => namespace === undefined || o.metadata?.namespace === namespace)
      .sort((a, b) => (key(a) < key(b) ? -1 : 1));
    const items = all.slice(offset, offset + limit);
    const left = all.length - offset - items.length;
    const next = left > 0 ? Buffer.from(`${listRv}:${offset + limit}`).toString("base64url") : "";
    const metadata = {
      resourceVersion: String(listRv),
      continue: next,
      ...(left > 0 ? { remainingItemCount: BigInt(left) } : {}),
    };
    const page = create(LIST_SCHEMAS[kind] as typeof IngressListSchema, { metadata, items: items as Ingress[] });
    send(res, 200, format, format === "protobuf" ? encode(page) : Buffer.from(toJsonString(page)));
  };

  const watch = (kind: Kind, namespace: string | undefined, url: URL, res: ServerResponse, format: Format): void => {
    const asked = url.searchParams.get("resourceVersion") ?? "";
    // No resourceVersion (or "0"): the current state as ADDED events, then what changes.
    const current = asked === "" || asked === "0";
    const from = current ? rv : Number(asked);
    if (!current && from <= expiredThrough) {
      fail(res, format, 410, "Expired", `too old resource version: ${from} (${rv})`);
      return;
    }
    res.writeHead(200, {
      "content-type": format === "protobuf" ? "application/vnd.kubernetes.protobuf;stream=watch" : "application/json",
    });
    // As the API server does: the headers go out at once, before any event.
    res.flushHeaders();
    if (kind === "Ingress") {
      watches.opened++;
      watches.open++;
    }
    const w = { kind, namespace, format };
    if (current) {
      for (const o of stores[kind].values()) if (inScope(w, kind, o)) res.write(frameOf(format, "ADDED", o));
    }
    for (const h of history)
      if (h.rv > from && inScope(w, h.kind, h.object)) res.write(frameOf(format, h.type, h.object));
    watchers.set(res, w);
    // With honourTimeoutSeconds, as the API server does: the watch ends after its timeoutSeconds.
    const seconds = options.honourTimeoutSeconds === true ? Number(url.searchParams.get("timeoutSeconds") ?? "0") : 0;
    const end =
      seconds > 0
        ? setTimeout(() => {
            watchers.delete(res);
            res.end();
          }, seconds * 1000)
        : undefined;
    res.on("close", () => {
      clearTimeout(end);
      watchers.delete(res);
      if (kind === "Ingress") watches.open--;
    });
  };

  /** The object in a request body, by its Content-Type; undefined (and an answer sent) when it cannot be read. */
  const readObject = (r: RecordedRequest, kind: Kind, res: ServerResponse, format: Format): Stored | undefined => {
    let object: NetworkingObject;
    try {
      const type = r.contentType.split(";")[0]!.trim();
      if (type === PROTOBUF_MEDIA_TYPE) object = decode(r.body);
      else if (type === "application/json" || type === "application/apply-patch+yaml")
        object = fromJson(r.body.toString("utf8"));
      else {
        fail(res, format, 415, "UnsupportedMediaType", `the body's media type "${type}" is not supported`);
        return undefined;
      }
    } catch (e) {
      fail(res, format, 400, "BadRequest", `the body cannot be decoded: ${(e as Error).message}`);
      return undefined;
    }
    if (object.$typeName !== `k8s.io.api.networking.v1.${kind}`) {
      fail(res, format, 400, "BadRequest", `the body is a ${object.$typeName}, not a ${kind}`);
      return undefined;
    }
    return object as Stored;
  };

  const item = (
    method: string,
    kind: Kind,
    namespace: string | undefined,
    name: string | undefined,
    subresource: string | undefined,
    r: RecordedRequest,
    res: ServerResponse,
    format: Format,
  ): void => {
    const store = stores[kind];
    const notFound = (): void =>
      fail(res, format, 404, "NotFound", `${PLURALS[kind]}.networking.k8s.io "${name}" not found`, {
        name,
        group: "networking.k8s.io",
        kind: PLURALS[kind],
      });
    const dryRun = r.query.get("dryRun") === "All";
    const k = `${namespace ?? ""}/${name}`;
    const encodeObject = (o: Stored): Uint8Array => (format === "protobuf" ? encode(o) : Buffer.from(toJsonString(o)));
    const store1 = (o: Stored, type: WatchEventType): void => {
      if (dryRun) return;
      o.metadata!.resourceVersion = String(++rv);
      store.set(k, o);
      emit(type, kind, o);
    };
    const placed = (o: Stored): boolean => {
      o.metadata ??= {} as never;
      if (namespace !== undefined) {
        if ((o.metadata!.namespace ?? "") !== "" && o.metadata!.namespace !== namespace) {
          fail(
            res,
            format,
            400,
            "BadRequest",
            "the namespace of the provided object does not match the namespace sent on the request",
          );
          return false;
        }
        o.metadata!.namespace = namespace;
      } else {
        o.metadata!.namespace = "";
      }
      return true;
    };
    if (method === "POST" && name === undefined) {
      const o = readObject(r, kind, res, format);
      if (o === undefined || !placed(o)) return;
      const at = `${namespace ?? ""}/${o.metadata?.name ?? ""}`;
      if (store.has(at)) {
        fail(
          res,
          format,
          409,
          "AlreadyExists",
          `${PLURALS[kind]}.networking.k8s.io "${o.metadata?.name}" already exists`,
        );
        return;
      }
      o.metadata!.uid = `uid-${rv + 1}`;
      if (!dryRun) {
        o.metadata!.resourceVersion = String(++rv);
        store.set(at, o);
        emit("ADDED", kind, o);
      }
      send(res, 201, format, encodeObject(o));
      return;
    }
    if (name === undefined) {
      fail(res, format, 405, "MethodNotAllowed", `${method} is not supported on a collection`);
      return;
    }
    const current = store.get(k);
    if (method === "GET" && subresource === undefined) {
      if (current === undefined) {
        notFound();
        return;
      }
      send(res, 200, format, encodeObject(current));
      return;
    }
    if (method === "PUT") {
      if (subresource === "status" && !WITH_STATUS.has(kind)) {
        fail(res, format, 404, "NotFound", "the server could not find the requested resource");
        return;
      }
      const o = readObject(r, kind, res, format);
      if (o === undefined || !placed(o)) return;
      if (current === undefined) {
        notFound();
        return;
      }
      const want = o.metadata?.resourceVersion ?? "";
      if (want !== "" && want !== current.metadata?.resourceVersion) {
        fail(
          res,
          format,
          409,
          "Conflict",
          `Operation cannot be fulfilled on ${PLURALS[kind]}.networking.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
        return;
      }
      o.metadata!.uid = current.metadata?.uid ?? "";
      store1(o, "MODIFIED");
      send(res, 200, format, encodeObject(o));
      return;
    }
    if (method === "DELETE" && subresource === undefined) {
      if (current === undefined) {
        notFound();
        return;
      }
      let options: { dryRun?: string[]; preconditions?: { uid?: string } } = {};
      try {
        options = r.body.length === 0 ? {} : JSON.parse(r.body.toString("utf8"));
      } catch {
        fail(res, format, 400, "BadRequest", "the DeleteOptions body is not JSON");
        return;
      }
      const uid = options.preconditions?.uid;
      if (uid !== undefined && uid !== current.metadata?.uid) {
        fail(
          res,
          format,
          409,
          "Conflict",
          `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata?.uid}`,
        );
        return;
      }
      if (!options.dryRun?.includes("All")) {
        store.delete(k);
        current.metadata!.resourceVersion = String(++rv);
        emit("DELETED", kind, current);
      }
      send(
        res,
        200,
        format,
        statusBody(format, {
          status: "Success",
          code: 0,
          details: { name, group: "networking.k8s.io", kind: PLURALS[kind], uid: current.metadata?.uid ?? "" },
        }),
      );
      return;
    }
    if (method === "PATCH" && subresource === undefined) {
      if (!r.contentType.startsWith("application/apply-patch+yaml")) {
        fail(res, format, 415, "UnsupportedMediaType", "the fake serves only server-side apply patches");
        return;
      }
      if ((r.query.get("fieldManager") ?? "") === "") {
        fail(
          res,
          format,
          422,
          "Invalid",
          'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
        );
        return;
      }
      const o = readObject(r, kind, res, format);
      if (o === undefined || !placed(o)) return;
      o.metadata!.uid = current?.metadata?.uid ?? `uid-${rv + 1}`;
      store1(o, current === undefined ? "ADDED" : "MODIFIED");
      send(res, current === undefined ? 201 : 200, format, encodeObject(o));
      return;
    }
    fail(res, format, 405, "MethodNotAllowed", `${method} is not supported here`);
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const url = new URL(req.url ?? "/", "https://fake");
    const authorized = req.headers.authorization === `Bearer ${server.token}`;
    const accept = req.headers.accept ?? "";
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      authorized,
      accept,
      contentType: req.headers["content-type"] ?? "",
      userAgent: req.headers["user-agent"] ?? "",
      body,
    };
    requests.push(recorded);
    if (server.stalled) return;
    for (const w of server.warnings) res.appendHeader("warning", `299 - ${JSON.stringify(w)}`);
    const at = canned.findIndex((c) => c.match === undefined || c.match(recorded));
    if (at >= 0) {
      const { answer } = canned.splice(at, 1)[0]!;
      const data = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body);
      res.writeHead(answer.status, {
        ...answer.headers,
        ...(answer.chunked || answer.hang ? {} : { "content-length": data.length }),
      });
      if (answer.hang) {
        res.flushHeaders();
        if (data.length > 0) res.write(data);
        return;
      }
      if (answer.chunked && data.length > 1) {
        res.write(data.subarray(0, data.length >> 1));
        res.end(data.subarray(data.length >> 1));
      } else {
        res.end(data);
      }
      return;
    }
    const format: Format | undefined = accept.startsWith(PROTOBUF_MEDIA_TYPE)
      ? "protobuf"
      : accept.includes("application/json")
        ? "json"
        : undefined;
    if (!authorized) {
      fail(res, format ?? "json", 401, "Unauthorized", "Unauthorized");
      return;
    }
    if (format === undefined) {
      fail(res, "json", 406, "NotAcceptable", "only protobuf and JSON are served");
      return;
    }
    const m = /^\/apis\/networking\.k8s\.io\/v1(?:\/namespaces\/([^/]+))?\/([a-z]+)(?:\/([^/]+))?(?:\/(status))?$/.exec(
      url.pathname,
    );
    const kind = KINDS.find((k) => PLURALS[k] === m?.[2]);
    const namespace = m?.[1] === undefined ? undefined : decodeURIComponent(m[1]);
    const name = m?.[3] === undefined ? undefined : decodeURIComponent(m[3]);
    if (m === null || kind === undefined || (namespace !== undefined && !NAMESPACED.has(kind))) {
      fail(res, format, 404, "NotFound", "the server could not find the requested resource");
      return;
    }
    if (req.method === "GET" && name === undefined) {
      const watching = url.searchParams.get("watch") === "1" || url.searchParams.get("watch") === "true";
      if (watching) watch(kind, namespace, url, res, format);
      else list(kind, namespace, url, res, format);
      return;
    }
    if (NAMESPACED.has(kind) && namespace === undefined && name !== undefined) {
      fail(res, format, 404, "NotFound", "the server could not find the requested resource");
      return;
    }
    item(req.method ?? "", kind, namespace, name, m[4], recorded, res, format);
  };

  const http = https.createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks)));
  });
  let connections = 0;
  http.on("secureConnection", (socket) => {
    connections++;
    socket.on("close", () => connections--);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  const server: FakeApiServer = {
    url: `https://127.0.0.1:${port}`,
    ca: cert.cert,
    token: options.token ?? "fake-token-0",
    stalled: false,
    warnings: [],
    requests,
    watches,
    get resourceVersion() {
      return rv;
    },
    get connections() {
      return connections;
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
    stored(kind, namespace, name) {
      return stores[kind].get(`${namespace}/${name}`);
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
      const status: Status = create(StatusSchema, {
        status: "Failure",
        code: 410,
        reason: "Expired",
        message: `too old resource version: ${rv} (${rv + 1})`,
      });
      for (const [w, { format }] of [...watchers]) {
        if (how === "event") w.end(frameOf(format, "ERROR", status));
        else w.destroy();
      }
    },
    dropWatches() {
      for (const w of [...watchers.keys()]) w.destroy();
    },
    endWatches() {
      for (const w of [...watchers.keys()]) w.end();
    },
    sendToWatches(protobuf, json) {
      for (const [w, { format }] of watchers) w.write(format === "protobuf" ? protobuf : json);
    },
    answerNext(answer, match) {
      canned.push({ answer, match });
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
