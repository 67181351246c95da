// File clone tokens: /api/storage/file/clone/tokens[/<node_uuid>/<token_uuid>].
// reserve_size is a Size raised to 4 KiB; expiry_time.limit is a string of seconds on input
// (default "60") and a duration on output; expiry_time.left counts down with the clock.
// When a token's lifetime ends it disappears (GET then answers 404). A PATCH of the limit
// starts the new lifetime at the time of the PATCH.

import { randomUUID } from "node:crypto";
import { formatDurationSeconds, obj, size, str, validateBody, sub, text, num } from "./values.js";
import type { Schema } from "./values.js";
import { notFound, required, outOfRange } from "./errors.js";
import type { Node } from "./inventory.js";
import type { FieldPolicy, JsonObject } from "./json.js";
import {
  type Change,
  type Ctx,
  type Reply,
  type Resource,
  type Route,
  UUID_RE,
  bodyOf,
  collectionRoutes,
  param,
  selfLink,
} from "./http.js";
import { type ServerState, nodeRef, resolveRef } from "./state.js";

export const CLONE_TOKEN_MIN_RESERVE = 4096;
const BASE = "/api/storage/file/clone/tokens";

interface Token {
  readonly seq: number;
  readonly node: Node;
  readonly uuid: string;
  readonly reserveSize: number;
  limitSeconds: number;
  startedAt: number;
}

const seconds: Schema = { t: "seconds" };
const POST = obj(
  {
    node: obj({ uuid: str(), name: str() }, ["_links"]),
    reserve_size: size(),
    expiry_time: obj({ limit: seconds }, ["left"]),
  },
  ["uuid", "_links"],
);
const PATCH = obj({ expiry_time: obj({ limit: seconds }, ["left"]) }, ["uuid", "node", "reserve_size", "_links"]);

export const TOKEN_FIELDS: FieldPolicy = {
  known: ["node.uuid", "node.name", "uuid", "reserve_size", "expiry_time.limit", "expiry_time.left"],
  expensive: [],
  collectionDefault: "all",
  instanceIncludesExpensive: true,
  keys: ["node.uuid", "uuid"],
};

export class CloneTokens implements Resource {
  private readonly tokens = new Map<string, Token>();
  constructor(private readonly state: ServerState) {}

  tick(): void {
    const now = this.state.clock.now();
    for (const [k, t] of this.tokens) if (now >= t.startedAt + t.limitSeconds * 1000) this.tokens.delete(k);
  }

  private view(t: Token): JsonObject {
    const leftMs = t.startedAt + t.limitSeconds * 1000 - this.state.clock.now();
    return {
      node: nodeRef(t.node),
      uuid: t.uuid,
      reserve_size: t.reserveSize,
      expiry_time: {
        limit: formatDurationSeconds(t.limitSeconds),
        left: formatDurationSeconds(Math.ceil(leftMs / 1000)),
      },
      _links: selfLink(`${BASE}/${t.node.uuid}/${t.uuid}`),
    };
  }

  private find(ctx: Ctx): Token {
    const t = this.tokens.get(`${param(ctx, 0)}/${param(ctx, 1)}`);
    if (t === undefined) throw notFound("Clone token not found.", "uuid");
    return t;
  }

  private limitOf(body: JsonObject): number | undefined {
    const limit = num(sub(body, "expiry_time"), "limit");
    if (limit !== undefined && limit < 1)
      throw outOfRange("expiry_time.limit", `Field "expiry_time.limit" must be at least 1 second.`);
    return limit;
  }

  private create(ctx: Ctx): Reply {
    const returnRecords = ctx.query.bool("return_records") ?? false;
    ctx.query.returnTimeout(0);
    ctx.query.done();
    const body = validateBody(bodyOf(ctx), POST);
    const node = resolveRef(this.state.inventory.nodes, sub(body, "node"), "node", "Node") as Node;
    if (text(sub(body, "node"), "uuid") === undefined) throw required("node.uuid");
    const reserve = num(body, "reserve_size");
    if (reserve === undefined) throw required("reserve_size");
    const token: Token = {
      seq: this.state.nextSeq(),
      node,
      uuid: randomUUID(),
      reserveSize: Math.max(CLONE_TOKEN_MIN_RESERVE, reserve),
      limitSeconds: this.limitOf(body) ?? 60,
      startedAt: this.state.clock.now(),
    };
    this.tokens.set(`${node.uuid}/${token.uuid}`, token);
    const full = this.view(token);
    const record: JsonObject = returnRecords
      ? full
      : {
          node: full["node"] ?? null,
          uuid: token.uuid,
          reserve_size: token.reserveSize,
          _links: full["_links"] ?? null,
        };
    return {
      status: 201,
      body: { num_records: 1, records: [record] },
      headers: { Location: `${BASE}/${node.uuid}/${token.uuid}` },
    };
  }

  /** A PATCH changes only the lifetime; a new limit starts counting at the time of the PATCH. */
  private patch(t: Token, body: JsonObject): Change {
    const limit = this.limitOf(body);
    return () => {
      if (limit === undefined) return;
      t.limitSeconds = limit;
      t.startedAt = this.state.clock.now();
    };
  }

  private all(): JsonObject[] {
    return [...this.tokens.values()].sort((a, b) => a.seq - b.seq).map((t) => this.view(t));
  }

  routes(): readonly Route[] {
    return collectionRoutes<Token>({
      base: BASE,
      key: `${UUID_RE}/${UUID_RE}`,
      fields: TOKEN_FIELDS,
      records: () => this.all(),
      find: (ctx) => this.find(ctx),
      itemOf: (r) => this.tokens.get(`${String((r["node"] as JsonObject)["uuid"])}/${String(r["uuid"])}`),
      view: (t) => this.view(t),
      create: (ctx) => this.create(ctx),
      patchBody: (ctx) => validateBody(bodyOf(ctx), PATCH),
      patch: (t, body) => this.patch(t, body),
      remove: (t) => () => {
        this.tokens.delete(`${t.node.uuid}/${t.uuid}`);
      },
    });
  }
}
