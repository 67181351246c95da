// The options and paths of StorageClient (src/storage/client/options.ts): the endpoint paths it
// uses unless told otherwise, as the API places them, frozen so no caller can move them for
// everyone; and the option types' documented shapes (checked by tsc).
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Job } from "../../../src/storage/codecs/job.js";
import {
  type CreateResult,
  DEFAULT_STORAGE_PATHS,
  type JobWaitOptions,
  type MutationResult,
  type StorageClientOptions,
  type StoragePaths,
  type UploadFile,
} from "../../../src/storage/client/options.js";
import { StorageClient } from "../../../src/storage/client/client.js";

describe("DEFAULT_STORAGE_PATHS", () => {
  it("are the API's paths for every resource the client reaches", () => {
    expect(DEFAULT_STORAGE_PATHS).toEqual({
      cloneTokens: "/api/storage/file/clone/tokens",
      caches: "/api/storage/cache/caches",
      nvmeNamespaces: "/api/storage/namespaces",
      quotaRules: "/api/storage/quota/rules",
      software: "/api/cluster/software",
      softwarePackages: "/api/cluster/software/packages",
      softwareDownload: "/api/cluster/software/download",
      softwareUpload: "/api/cluster/software/upload",
      softwareHistory: "/api/cluster/software/history",
      jobs: "/api/cluster/jobs",
      svms: "/api/svm/svms",
      nodes: "/api/cluster/nodes",
    });
  });

  it("are absolute API paths without a trailing slash, one per resource, the software ones under software", () => {
    const paths = Object.values(DEFAULT_STORAGE_PATHS);
    for (const p of paths) expect(p).toMatch(/^\/api(?:\/[a-z]+)+$/);
    expect(new Set(paths).size).toBe(paths.length);
    const { software, softwarePackages, softwareDownload, softwareUpload, softwareHistory } = DEFAULT_STORAGE_PATHS;
    for (const sub of [softwarePackages, softwareDownload, softwareUpload, softwareHistory])
      expect(sub.startsWith(`${software}/`)).toBe(true);
  });

  it("are frozen: a path moved for one client is an option, not a change to the defaults", () => {
    expect(Object.isFrozen(DEFAULT_STORAGE_PATHS)).toBe(true);
    expect(() => {
      (DEFAULT_STORAGE_PATHS as { svms: string }).svms = "/elsewhere";
    }).toThrow(TypeError);
    const moved = new StorageClient({
      baseUrl: "https://cluster.example",
      username: "admin",
      password: "pw",
      paths: { svms: "/storage/api/svm/svms" },
    });
    expect(moved.paths).toEqual({ ...DEFAULT_STORAGE_PATHS, svms: "/storage/api/svm/svms" });
    expect(DEFAULT_STORAGE_PATHS.svms).toBe("/api/svm/svms");
    expect(new StorageClient({ baseUrl: "https://c.example", username: "a", password: "" }).paths).toEqual(
      DEFAULT_STORAGE_PATHS,
    );
  });
});

describe("the option and result types", () => {
  it("have the documented shapes", () => {
    expectTypeOf(DEFAULT_STORAGE_PATHS).toEqualTypeOf<StoragePaths>();
    expectTypeOf<keyof StoragePaths>().toEqualTypeOf<keyof typeof DEFAULT_STORAGE_PATHS>();
    // Only where the cluster is and who logs in are required.
    expectTypeOf<{ baseUrl: string; username: string; password: string }>().toMatchTypeOf<StorageClientOptions>();
    expectTypeOf<StorageClientOptions["paths"]>().toEqualTypeOf<Partial<StoragePaths> | undefined>();
    // The client-wide job defaults cannot carry a per-call signal or callback.
    expectTypeOf<NonNullable<StorageClientOptions["jobs"]>>().not.toHaveProperty("signal");
    expectTypeOf<NonNullable<StorageClientOptions["jobs"]>>().not.toHaveProperty("onPoll");
    expectTypeOf<Record<never, never>>().toMatchTypeOf<JobWaitOptions>();
    expectTypeOf<MutationResult["body"]>().toEqualTypeOf<unknown>();
    expectTypeOf<MutationResult["job"]>().toEqualTypeOf<Job | undefined>();
    expectTypeOf<CreateResult<{ uuid: string }>["record"]>().toEqualTypeOf<{ uuid: string } | undefined>();
    expectTypeOf<CreateResult<unknown>>().toMatchTypeOf<MutationResult>();
    expectTypeOf<UploadFile["data"]>().toEqualTypeOf<Uint8Array | ArrayBuffer | Blob>();
  });
});
