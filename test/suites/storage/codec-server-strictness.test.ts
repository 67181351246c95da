// The storage codecs refuse every body the reference server refuses, at the same field path.
// One table drives both sides: each body goes through the codec (StorageCodecError before
// anything is sent) and, unchecked, through a client without codecs to the reference server
// (a 4xx StorageApiError naming the same field). The server is an independent implementation
// (it imports nothing from codecs/ or client/), so the two checks confirm each other.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  StorageApiError,
  StorageCodecError,
  cache,
  cloneToken,
  nvmeNamespace,
  quotaRule,
  software,
  type JsonObject,
} from "../../../src/storage/index.js";
import { seedUuid } from "../../../src/storage/server/index.js";
import { startLoopback, type Loopback } from "../../support/storage/integration-harness.js";

const NODE1 = seedUuid("a", 1);
const TiB = 1024 ** 4;

type Resource = "cache" | "namespace" | "token" | "software" | "quota";
type Verb = "POST" | "PATCH";

interface Case {
  readonly what: string;
  readonly resource: Resource;
  readonly verb: Verb;
  /** The body as it would go on the wire if the codec let it through. */
  readonly body: Record<string, unknown>;
  /** The field path both the codec and the server name. */
  readonly path: string;
}

const cachePost = (name: string): Record<string, unknown> => ({
  name,
  svm: { name: "svm1" },
  origins: [{ svm: { name: "svm1" }, volume: { name: "vol1" } }],
  path: `/${name}`,
});
const namespacePost = (name: string): Record<string, unknown> => ({
  svm: { name: "svm1" },
  name: `/vol/vol1/${name}`,
  os_type: "linux",
  space: { size: 1024 ** 3 },
});
const tokenPost = (): Record<string, unknown> => ({ node: { uuid: NODE1 }, reserve_size: 4096 });
const quotaUserRule = (): Record<string, unknown> => ({
  svm: { name: "svm1" },
  volume: { name: "vol1" },
  type: "user",
  qtree: { name: "" },
  users: [{ name: "ann" }],
});

const CASES: readonly Case[] = [
  // Caches: ranges of relative_size.percentage and atime_scrub.period, prepopulate without dir_paths, the name's length.
  {
    what: "relative_size.percentage 0",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), relative_size: { percentage: 0 } },
    path: "relative_size.percentage",
  },
  {
    what: "relative_size.percentage 101",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), relative_size: { percentage: 101 } },
    path: "relative_size.percentage",
  },
  {
    what: "atime_scrub.period 0",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), atime_scrub: { period: 0 } },
    path: "atime_scrub.period",
  },
  {
    what: "atime_scrub.period 36501",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), atime_scrub: { period: 36501 } },
    path: "atime_scrub.period",
  },
  {
    what: "prepopulate without dir_paths",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), prepopulate: { recurse: false } },
    path: "prepopulate.dir_paths",
  },
  {
    what: "prepopulate with no directory",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), prepopulate: { dir_paths: [] } },
    path: "prepopulate.dir_paths",
  },
  {
    what: "a relative prepopulate path",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), prepopulate: { dir_paths: ["data"] } },
    path: "prepopulate.dir_paths[0]",
  },
  {
    what: "a relative excluded path",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), prepopulate: { dir_paths: ["/a"], exclude_dir_paths: ["/b", "c"] } },
    path: "prepopulate.exclude_dir_paths[1]",
  },
  { what: "an empty name", resource: "cache", verb: "POST", body: { ...cachePost("c1"), name: "" }, path: "name" },
  {
    what: "a name of 204 characters",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), name: "c".repeat(204) },
    path: "name",
  },
  {
    what: "PATCH relative_size.percentage 0",
    resource: "cache",
    verb: "PATCH",
    body: { relative_size: { enabled: true, percentage: 0 } },
    path: "relative_size.percentage",
  },
  {
    what: "PATCH atime_scrub.period 36501",
    resource: "cache",
    verb: "PATCH",
    body: { atime_scrub: { period: 36501 } },
    path: "atime_scrub.period",
  },
  {
    what: "PATCH prepopulate without dir_paths",
    resource: "cache",
    verb: "PATCH",
    body: { prepopulate: { exclude_dir_paths: ["/x"] } },
    path: "prepopulate.dir_paths",
  },
  {
    what: "constituents_per_aggregate 0",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), constituents_per_aggregate: 0 },
    path: "constituents_per_aggregate",
  },
  {
    what: "size below 1 GiB per constituent (4 by default)",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), size: 4 * 1024 ** 3 - 1 },
    path: "size",
  },
  {
    what: "size below 1 GiB per constituent (2 aggregates × 1)",
    resource: "cache",
    verb: "POST",
    body: {
      ...cachePost("c1"),
      aggregates: [{ name: "aggr1" }, { name: "aggr2" }],
      constituents_per_aggregate: 1,
      size: 2 * 1024 ** 3 - 1,
    },
    path: "size",
  },
  {
    what: "size with relative sizing on",
    resource: "cache",
    verb: "POST",
    body: { ...cachePost("c1"), size: 8 * 1024 ** 3, relative_size: { enabled: true } },
    path: "size",
  },
  // Namespaces: comment length, size range, block_size as a Size string, the name's characters.
  {
    what: "a comment of 255 characters",
    resource: "namespace",
    verb: "POST",
    body: { ...namespacePost("n1"), comment: "x".repeat(255) },
    path: "comment",
  },
  {
    what: "space.size below 4096",
    resource: "namespace",
    verb: "POST",
    body: { ...namespacePost("n1"), space: { size: 4095 } },
    path: "space.size",
  },
  {
    what: "space.size above 128 TiB",
    resource: "namespace",
    verb: "POST",
    body: { ...namespacePost("n1"), space: { size: 128 * TiB + 1 } },
    path: "space.size",
  },
  {
    what: "space.block_size as a Size string",
    resource: "namespace",
    verb: "POST",
    body: { ...namespacePost("n1"), space: { size: 1024 ** 3, block_size: "4K" } },
    path: "space.block_size",
  },
  {
    what: "PATCH a comment of 255 characters",
    resource: "namespace",
    verb: "PATCH",
    body: { comment: "x".repeat(255) },
    path: "comment",
  },
  {
    what: "PATCH space.size below 4096",
    resource: "namespace",
    verb: "PATCH",
    body: { space: { size: 100 } },
    path: "space.size",
  },
  {
    what: "a name with a space",
    resource: "namespace",
    verb: "POST",
    body: { ...namespacePost("n1"), name: "/vol/vol1/bad name" },
    path: "name",
  },
  {
    what: "location.namespace with a colon",
    resource: "namespace",
    verb: "POST",
    body: {
      svm: { name: "svm1" },
      location: { volume: { name: "vol1" }, namespace: "a:b" },
      os_type: "linux",
      space: { size: 1024 ** 3 },
    },
    path: "location.namespace",
  },
  // Quota rules: user identifiers, comma-separated names, the default user among several.
  {
    what: "a user id that is neither numeric nor a SID",
    resource: "quota",
    verb: "POST",
    body: { ...quotaUserRule(), users: [{ id: "jdoe" }] },
    path: "users[0].id",
  },
  {
    what: "an empty name between commas",
    resource: "quota",
    verb: "POST",
    body: { ...quotaUserRule(), users: [{ name: "ann,,bob" }] },
    path: "users[0].name",
  },
  {
    what: "the default (empty) user among several",
    resource: "quota",
    verb: "POST",
    body: { ...quotaUserRule(), users: [{ name: "" }, { name: "ann" }] },
    path: "users",
  },
  // Clone tokens: a lifetime of 0 seconds, or longer than the server reads.
  {
    what: "expiry_time.limit 0",
    resource: "token",
    verb: "POST",
    body: { ...tokenPost(), expiry_time: { limit: "0" } },
    path: "expiry_time.limit",
  },
  {
    what: "expiry_time.limit of 11 digits",
    resource: "token",
    verb: "POST",
    body: { ...tokenPost(), expiry_time: { limit: "10000000000" } },
    path: "expiry_time.limit",
  },
  {
    what: "PATCH expiry_time.limit 0",
    resource: "token",
    verb: "PATCH",
    body: { expiry_time: { limit: "0" } },
    path: "expiry_time.limit",
  },
  // Software: metrocluster is read-only (the decision is documented in codecs/software.ts).
  {
    what: "PATCH metrocluster",
    resource: "software",
    verb: "PATCH",
    body: { version: "9.16.1", metrocluster: { clusters: [{ name: "cluster_A", state: "waiting" }] } },
    path: "metrocluster",
  },
];

function encode(c: Case): JsonObject {
  const body = c.body as never;
  switch (c.resource) {
    case "cache":
      return c.verb === "POST" ? cache.encodePost(body) : cache.encodePatch(body);
    case "namespace":
      return c.verb === "POST" ? nvmeNamespace.encodePost(body) : nvmeNamespace.encodePatch(body);
    case "token":
      return c.verb === "POST" ? cloneToken.encodePost(body) : cloneToken.encodePatch(body);
    case "software":
      return software.encodePatch(body);
    case "quota":
      return quotaRule.encodePost(body);
  }
}

describe("codecs and the reference server refuse the same bodies", () => {
  let lb: Loopback;
  let cacheUuid: string;
  let namespaceUuid: string;
  let tokenUuid: string;

  beforeAll(async () => {
    lb = await startLoopback("strict-Pa55word");
    // The valid bases pass both sides: the codecs encode them and the server creates them.
    await lb.client.caches.create(cachePost("base") as never);
    cacheUuid = (await lb.client.caches.find({ name: "base" }))!.uuid!;
    await lb.client.nvmeNamespaces.create(namespacePost("base") as never);
    namespaceUuid = (await lb.client.nvmeNamespaces.find({ name: "/vol/vol1/base" }))!.uuid!;
    tokenUuid = (await lb.client.cloneTokens.create(tokenPost() as never)).record!.uuid!;
  });
  afterAll(async () => {
    await lb.close();
  });

  async function send(c: Case): Promise<unknown> {
    const { raw } = lb;
    const body = c.body as never;
    switch (c.resource) {
      case "cache":
        return c.verb === "POST" ? raw.caches.create(body) : raw.caches.update(cacheUuid, body);
      case "namespace":
        return c.verb === "POST" ? raw.nvmeNamespaces.create(body) : raw.nvmeNamespaces.update(namespaceUuid, body);
      case "token":
        return c.verb === "POST"
          ? raw.cloneTokens.create(body)
          : raw.cloneTokens.update({ nodeUuid: NODE1, uuid: tokenUuid }, body);
      case "software":
        return raw.software.update(body);
      case "quota":
        return raw.quotaRules.create(body);
    }
  }

  it.each(CASES)("$resource $verb: $what", async (c) => {
    let codecErr: unknown;
    try {
      encode(c);
    } catch (e) {
      codecErr = e;
    }
    expect(codecErr).toBeInstanceOf(StorageCodecError);
    expect((codecErr as StorageCodecError).path).toBe(c.path);

    let serverErr: unknown;
    try {
      await send(c);
    } catch (e) {
      serverErr = e;
    }
    expect(serverErr).toBeInstanceOf(StorageApiError);
    const api = serverErr as StorageApiError;
    expect(api.status).toBeGreaterThanOrEqual(400);
    expect(api.status).toBeLessThan(500);
    expect(api.target).toBe(c.path);
  });

  it("the edges of each range pass both sides", async () => {
    const ok: Case[] = [
      {
        what: "",
        resource: "cache",
        verb: "PATCH",
        body: { relative_size: { percentage: 1 }, atime_scrub: { period: 36500 } },
        path: "",
      },
      {
        what: "",
        resource: "cache",
        verb: "PATCH",
        body: { relative_size: { percentage: 100 }, atime_scrub: { period: 1 }, prepopulate: { dir_paths: ["/"] } },
        path: "",
      },
      {
        what: "",
        resource: "namespace",
        verb: "PATCH",
        body: { comment: "x".repeat(254), space: { size: 2 * 1024 ** 3 } },
        path: "",
      },
      { what: "", resource: "namespace", verb: "PATCH", body: { comment: "" }, path: "" },
      { what: "", resource: "token", verb: "PATCH", body: { expiry_time: { limit: "1" } }, path: "" },
      { what: "", resource: "token", verb: "PATCH", body: { expiry_time: { limit: "9999999999" } }, path: "" },
      { what: "", resource: "cache", verb: "POST", body: cachePost("c".repeat(203)), path: "" },
      {
        what: "",
        resource: "namespace",
        verb: "POST",
        body: { ...namespacePost("edge"), space: { size: 4096 } },
        path: "",
      },
      {
        what: "",
        resource: "namespace",
        verb: "POST",
        body: { ...namespacePost("Edge_2.b-c"), space: { size: 4096 } },
        path: "",
      },
      { what: "", resource: "cache", verb: "POST", body: { ...cachePost("edge2"), size: 4 * 1024 ** 3 }, path: "" },
      {
        what: "",
        resource: "cache",
        verb: "POST",
        body: {
          ...cachePost("edge3"),
          aggregates: [{ name: "aggr1" }],
          constituents_per_aggregate: 1,
          size: 1024 ** 3,
        },
        path: "",
      },
      {
        what: "",
        resource: "quota",
        verb: "POST",
        body: { ...quotaUserRule(), users: [{ id: "S-1-5-21-1004" }, { id: "1001" }, { name: "ann,bob" }] },
        path: "",
      },
    ];
    for (const c of ok) {
      const body = encode(c);
      await expect(send({ ...c, body })).resolves.toBeDefined();
    }
  });
});
