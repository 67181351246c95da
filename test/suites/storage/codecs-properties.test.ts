// Property tests over the codecs: encoded bodies are exact JSON, encoding is
// idempotent (an encoded body is a valid input that encodes to itself), decode
// accepts what encode produces and keeps its shape, arbitrary input only ever
// raises StorageCodecError, and the download password never leaks.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  StorageCodecError,
  apiError,
  cache,
  cloneToken,
  collection,
  formatSize,
  parseSize,
  job,
  nvmeNamespace,
  quotaRule,
  software,
  softwareDownload,
  softwareHistory,
  softwarePackage,
  type CachePostInput,
  type CloneTokenPostInput,
  type JsonObject,
  type NvmeNamespacePostInput,
  type QuotaRulePostInput,
} from "../../../src/storage/index.js";
import { propertyRuns } from "../../support/property-runs.js";

const RUNS = propertyRuns(500);

const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const uuid = fc.uuid();
const ref = fc.oneof(
  name.map((n) => ({ name: n })),
  uuid.map((u) => ({ uuid: u })),
  fc.record({ name, uuid }),
);
const sizeInput = fc.oneof(
  fc.nat({ max: 2 ** 40 }),
  fc.nat({ max: 2 ** 40 }).map((n) => formatSize(n)),
  fc
    .tuple(fc.nat({ max: 4096 }), fc.constantFrom("", "B", "k", "KB", "m", "MB", "g", "GB", "t", "TB"))
    .map(([n, s]) => `${n}${s}`),
);

const cacheSize = sizeInput.filter((s) => parseSize(s) >= 24 * 1024 ** 3);
const namespaceSize = sizeInput.filter((s) => {
  const bytes = parseSize(s);
  return bytes >= 4096 && bytes <= 128 * 1024 ** 4;
});

const cloneTokenPost: fc.Arbitrary<CloneTokenPostInput> = fc.record(
  {
    node: fc.record({ uuid }),
    reserve_size: sizeInput,
    expiry_time: fc.record(
      // Lifetimes of 1 s and more: 0 is refused (see test/suites/storage/codec-server-strictness.test.ts).
      {
        limit: fc.oneof(
          fc.integer({ min: 1, max: 10 ** 6 }),
          fc.integer({ min: 1, max: 10 ** 6 }).map(String),
          fc.constantFrom("PT1H10M", "P1D", "PT90M", "PT1S"),
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ["node", "reserve_size"] },
);

const flag = fc.record({ enabled: fc.boolean() }, { requiredKeys: [] });
const cachePost: fc.Arbitrary<CachePostInput> = fc
  .record(
    {
      name,
      svm: ref,
      origins: fc.array(fc.record({ svm: fc.record({ name }), volume: ref }), { minLength: 1, maxLength: 3 }),
      aggregates: fc.array(ref, { maxLength: 3 }),
      path: name.map((n) => `/${n}`),
      // At least 1 GiB for each of up to 3 × 8 constituents: smaller sizes are refused (strictness suite).
      size: cacheSize,
      guarantee: fc.record({ type: fc.constantFrom("volume" as const, "none" as const) }, { requiredKeys: [] }),
      constituents_per_aggregate: fc.integer({ min: 1, max: 8 }),
      use_tiered_aggregate: fc.boolean(),
      dr_cache: fc.boolean(),
      override_encryption: fc.boolean(),
      writeback: flag,
      relative_size: fc.record(
        { enabled: fc.boolean(), percentage: fc.integer({ min: 1, max: 100 }) },
        { requiredKeys: [] },
      ),
      atime_scrub: fc.record({ enabled: fc.boolean(), period: fc.integer({ min: 1, max: 365 }) }, { requiredKeys: [] }),
      cifs_change_notify: flag,
      // A prepopulate names at least one directory: one without is refused (strictness suite).
      prepopulate: fc.record(
        {
          dir_paths: fc.array(
            name.map((n) => `/${n}`),
            { minLength: 1 },
          ),
          exclude_dir_paths: fc.array(name.map((n) => `/${n}`)),
          recurse: fc.boolean(),
        },
        { requiredKeys: ["dir_paths"] },
      ),
    },
    { requiredKeys: ["name", "svm", "origins"] },
    // A size cannot be given with relative sizing on (strictness suite).
  )
  .map(({ size, ...rest }) => (rest.relative_size?.enabled === true || size === undefined ? rest : { ...rest, size }));

const namespacePost: fc.Arbitrary<NvmeNamespacePostInput> = fc.oneof(
  fc.record(
    {
      svm: ref,
      name: fc
        .tuple(name, fc.option(name, { nil: undefined }), name)
        .map(([v, q, n]) => `/vol/${v}/${q === undefined ? "" : `${q}/`}${n}`),
      os_type: fc.constantFrom("aix" as const, "linux" as const, "vmware" as const, "windows" as const),
      // Sizes in 4096 B..128 TiB and comments of at most 254 characters: others are refused (strictness suite).
      space: fc.record(
        { size: namespaceSize, block_size: fc.constantFrom(512 as const, 4096 as const) },
        { requiredKeys: ["size"] },
      ),
      comment: fc.string({ maxLength: 254 }),
      auto_delete: fc.boolean(),
    },
    { requiredKeys: ["svm", "name", "os_type", "space"] },
  ),
  fc.record({
    svm: ref,
    name: name.map((n) => `/vol/vol1/${n}`),
    clone: fc.record({
      source: fc.oneof(
        uuid.map((u) => ({ uuid: u })),
        name.map((n) => ({ name: `/vol/vol1/${n}` })),
      ),
    }),
  }),
);

const limit = fc.oneof(fc.constant(-1), sizeInput);
const limits = fc.record({ hard_limit: limit, soft_limit: limit }, { requiredKeys: [] });
const files = fc.record(
  { hard_limit: fc.integer({ min: -1, max: 10 ** 9 }), soft_limit: fc.integer({ min: -1, max: 10 ** 9 }) },
  { requiredKeys: [] },
);
const quotaPost: fc.Arbitrary<QuotaRulePostInput> = fc
  .record({
    svm: ref,
    volume: ref,
    qtree: fc.record({ name: fc.oneof(fc.constant(""), name) }),
    space: fc.option(limits, { nil: undefined }),
    files: fc.option(files, { nil: undefined }),
    target: fc.oneof(
      fc.record({ type: fc.constant("tree" as const) }),
      fc.record({
        type: fc.constant("group" as const),
        group: fc.oneof(
          name.map((n) => ({ name: n })),
          fc.nat().map((n) => ({ id: String(n) })),
        ),
      }),
      fc.record({
        type: fc.constant("user" as const),
        users: fc.array(
          fc.oneof(
            name.map((n) => ({ name: n })),
            fc.nat().map((n) => ({ id: String(n) })),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        user_mapping: fc.constantFrom(true, false, "on" as const, "off" as const),
      }),
    ),
  })
  .map(({ target, space, files: f, ...rest }) => ({
    ...rest,
    ...target,
    ...(space === undefined ? {} : { space }),
    ...(f === undefined ? {} : { files: f }),
  }));

interface Codec {
  decode(json: unknown): unknown;
  encodePost(input: never): JsonObject;
}

function checkBody(codec: Codec, input: unknown): void {
  const body = codec.encodePost(input as never);
  // exact JSON: survives a JSON round trip unchanged
  expect(JSON.parse(JSON.stringify(body))).toEqual(body);
  // idempotent: the body is itself a valid input and encodes to itself, key order included
  expect(JSON.stringify(codec.encodePost(body as never))).toBe(JSON.stringify(body));
  // decode accepts the body and keeps its shape (no defaults invented)
  expect(codec.decode(body)).toEqual(body);
}

describe("encode properties", () => {
  it("clone tokens", () => {
    fc.assert(
      fc.property(cloneTokenPost, (input) => {
        checkBody(cloneToken, input);
        const body = cloneToken.encodePost(input);
        expect(body["reserve_size"]).toBeGreaterThanOrEqual(4096);
        const limitSent = (body["expiry_time"] as JsonObject | undefined)?.["limit"];
        if (limitSent !== undefined) expect(limitSent).toMatch(/^(0|[1-9][0-9]*)$/);
      }),
      { numRuns: RUNS },
    );
  });

  it("caches", () => {
    fc.assert(
      fc.property(cachePost, (input) => {
        checkBody(cache, input);
        const body = cache.encodePost(input);
        if (input.prepopulate !== undefined)
          expect((body["prepopulate"] as JsonObject)["recurse"]).toBe(input.prepopulate.recurse ?? true);
        if (input.relative_size !== undefined)
          expect((body["relative_size"] as JsonObject)["percentage"]).toBe(input.relative_size.percentage ?? 10);
      }),
      { numRuns: RUNS },
    );
  });

  it("namespaces", () => {
    fc.assert(
      fc.property(namespacePost, (input) => {
        checkBody(nvmeNamespace, input);
        const body = nvmeNamespace.encodePost(input);
        const space = body["space"] as JsonObject | undefined;
        if (input.clone === undefined) {
          expect(space?.["block_size"]).toBe(input.space?.block_size ?? (input.os_type === "vmware" ? 512 : 4096));
        } else {
          expect(space).toBeUndefined();
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("quota rules", () => {
    fc.assert(
      fc.property(quotaPost, (input) => {
        checkBody(quotaRule, input);
        const body = quotaRule.encodePost(input);
        for (const v of Object.values((body["space"] as JsonObject | undefined) ?? {})) {
          expect(v === -1 || (typeof v === "number" && v >= 1024)).toBe(true);
        }
        expect(body["files"]).toEqual(input.files);
        if (input.type === "user") expect(typeof body["user_mapping"]).toBe("boolean");
      }),
      { numRuns: RUNS },
    );
  });
});

describe("robustness", () => {
  const encoders: Array<[string, (x: unknown) => unknown]> = [
    ["cloneToken.encodePost", (x) => cloneToken.encodePost(x as never)],
    ["cloneToken.encodePatch", (x) => cloneToken.encodePatch(x as never)],
    ["cache.encodePost", (x) => cache.encodePost(x as never)],
    ["cache.encodePatch", (x) => cache.encodePatch(x as never)],
    ["nvmeNamespace.encodePost", (x) => nvmeNamespace.encodePost(x as never)],
    ["nvmeNamespace.encodePatch", (x) => nvmeNamespace.encodePatch(x as never)],
    ["quotaRule.encodePost", (x) => quotaRule.encodePost(x as never)],
    ["quotaRule.encodePatch", (x) => quotaRule.encodePatch(x as never)],
    ["software.encodePatch", (x) => software.encodePatch(x as never)],
    ["software.encodePatchQuery", (x) => software.encodePatchQuery(x as never)],
    ["softwareDownload.encodePost", (x) => softwareDownload.encodePost(x as never)],
  ];
  const decoders: Array<[string, (x: unknown) => unknown]> = [
    ["cloneToken", (x) => cloneToken.decode(x)],
    ["cache", (x) => cache.decode(x)],
    ["nvmeNamespace", (x) => nvmeNamespace.decode(x)],
    ["quotaRule", (x) => quotaRule.decode(x)],
    ["software", (x) => software.decode(x)],
    ["softwarePackage", (x) => softwarePackage.decode(x)],
    ["softwareHistory", (x) => softwareHistory.decode(x)],
    ["softwareDownload", (x) => softwareDownload.decode(x)],
    ["job", (x) => job.decode(x)],
    ["job.decodeAccepted", (x) => job.decodeAccepted(x)],
    ["apiError", (x) => apiError.decode(x)],
    ["collection", (x) => collection.decode(x, cache)],
  ];
  const anyJson = fc.oneof(fc.anything(), fc.jsonValue(), fc.object());

  it.each([...encoders, ...decoders])("%s only ever throws StorageCodecError", (_name, fn) => {
    fc.assert(
      fc.property(anyJson, (value) => {
        try {
          fn(value);
        } catch (error) {
          expect(error).toBeInstanceOf(StorageCodecError);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("decoders never mutate their input", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const before = JSON.stringify(value);
        for (const [, fn] of decoders) {
          try {
            fn(value);
          } catch {
            // refused input is fine
          }
        }
        expect(JSON.stringify(value)).toBe(before);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("the download password never leaks", () => {
  const password = fc.string({ minLength: 6, maxLength: 24 }).map((s) => `Pw!${s}#9`);
  const badInputs = (pw: string): unknown[] => [
    { url: "not a url", password: pw },
    { url: "file:///etc/passwd", password: pw, username: "admin" },
    { url: pw, password: pw },
    { url: `ftp://admin:${pw}@server/p.tgz`.replace(/[^\x21-\x7e]/g, ""), password: pw, state: "running" },
    { password: pw },
    { url: "http://server/p", password: pw, [pw]: 1 },
    { url: "http://server/p", password: pw, extra: pw },
    { url: "http://server/p", password: pw, username: 42 },
    { url: 42, password: pw },
    { url: "http://server/p", password: pw, message: pw },
    { url: "http://server/p", password: pw, code: pw },
  ];

  it("is absent from every thrown error: message, reason, path, stack and JSON", () => {
    fc.assert(
      fc.property(password, (pw) => {
        for (const input of badInputs(pw)) {
          let thrown: unknown;
          try {
            softwareDownload.encodePost(input as never);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(StorageCodecError);
          const error = thrown as StorageCodecError;
          for (const text of [
            error.message,
            error.reason,
            error.path,
            String(error.stack),
            JSON.stringify(error),
            String(error),
          ]) {
            expect(text).not.toContain(pw);
          }
        }
      }),
      { numRuns: Math.min(RUNS, 200) },
    );
  });

  it("is refused with a type error that does not echo a non-string password", () => {
    let thrown: unknown;
    try {
      softwareDownload.encodePost({ url: "http://s/p", password: 123456789 } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StorageCodecError);
    expect((thrown as StorageCodecError).path).toBe("password");
    expect((thrown as StorageCodecError).message).not.toContain("123456789");
  });

  it("is sent in the body only, and dropped on decode", () => {
    const body = softwareDownload.encodePost({ url: "https://server/p.tgz", username: "u", password: "s3cret-PW" });
    expect(body["password"]).toBe("s3cret-PW");
    expect(JSON.stringify(softwareDownload.decode({ ...body, state: "running" }))).not.toContain("s3cret-PW");
  });
});

describe("JSON __proto__ members", () => {
  it("stay plain members on decode and are refused on encode", () => {
    const json = JSON.parse(
      '{"uuid":"t","__proto__":{"polluted":true},"_links":{"__proto__":{"href":"/x"}}}',
    ) as unknown;
    const decoded = cloneToken.decode(json) as Record<string, unknown>;
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.hasOwn(decoded, "__proto__")).toBe(true);
    expect((decoded as { polluted?: unknown }).polluted).toBeUndefined();
    const page = collection.decode(JSON.parse('{"__proto__":{"polluted":true},"records":[]}'), cloneToken) as Record<
      string,
      unknown
    >;
    expect((page as { polluted?: unknown }).polluted).toBeUndefined();
    expect(() =>
      cloneToken.encodePost(JSON.parse('{"node":{"uuid":"n"},"reserve_size":1,"__proto__":{}}') as never),
    ).toThrow(/__proto__: unknown field/);
  });
});
