// The calls a resource object makes on its client (src/storage/client/resource-calls.ts): an
// interface that StorageClient implements, so that the resources depend on it and never on
// client.ts. Checked here: the client satisfies it; the resources run on any implementation of
// it; and the imports point one way, as the file says (client.ts -> resources.ts ->
// resource-calls.ts <- client.ts).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import { DEFAULT_STORAGE_PATHS, StorageBulkResource, StorageClient } from "../../../src/storage/index.js";
import type { MutationResult } from "../../../src/storage/client/options.js";
import type { ResourceCalls } from "../../../src/storage/client/resource-calls.js";
import { SoftwareApi } from "../../../src/storage/client/software-api.js";
import { importsOf } from "../../../scripts/import-graph.mjs";
import { reachableFrom } from "../../support/reachable.js";

const CLIENT_DIR = fileURLToPath(new URL("../../../src/storage/client/", import.meta.url));
const source = (name: string): string => readFileSync(`${CLIENT_DIR}${name}`, "utf8");

describe("ResourceCalls", () => {
  it("is what StorageClient implements, member for member", () => {
    expectTypeOf<StorageClient>().toMatchTypeOf<ResourceCalls>();
    expectTypeOf<keyof ResourceCalls>().toEqualTypeOf<"paths" | "request" | "list" | "count" | "mutate" | "postFile">();
    const client = new StorageClient({ baseUrl: "https://cluster.example", username: "admin", password: "pw" });
    const calls: ResourceCalls = client;
    expect(calls.paths).toBe(client.paths);
    for (const m of ["request", "list", "count", "mutate", "postFile"] as const)
      expect(typeof calls[m]).toBe("function");
  });

  it("is all a resource needs: one built on another implementation sends its calls there", async () => {
    const seen: string[] = [];
    const done: MutationResult = { status: 200, body: {}, job: undefined, jobs: [], location: undefined };
    const calls: ResourceCalls = {
      paths: { ...DEFAULT_STORAGE_PATHS, softwarePackages: "/proxy/packages" },
      request: async (method, path) => {
        seen.push(`request ${method} ${path}`);
        return undefined;
      },
      async *list<T>(path: string): AsyncGenerator<T, void, undefined> {
        seen.push(`list ${path}`);
        yield* [];
      },
      count: async (path) => {
        seen.push(`count ${path}`);
        return 3;
      },
      mutate: async <T>(method: string, path: string) => {
        seen.push(`mutate ${method} ${path}`);
        return done as MutationResult<T>;
      },
      postFile: async (path) => {
        seen.push(`postFile ${path}`);
        return done;
      },
    };
    const rules = new StorageBulkResource(calls, "/api/storage/quota/rules", (k: string) => k, {});
    expect(await rules.count()).toBe(3);
    await rules.all();
    await rules.update("r1", { space: { hard_limit: 1024 } });
    const software = new SoftwareApi(calls, {});
    await software.packages.delete("9.15.1");
    await software.upload({ filename: "p.tgz", data: new Uint8Array(1) });
    expect(seen).toEqual([
      "count /api/storage/quota/rules",
      "list /api/storage/quota/rules",
      "mutate PATCH /api/storage/quota/rules/r1",
      "mutate DELETE /proxy/packages/9.15.1",
      "postFile /api/cluster/software/upload",
    ]);
  });

  it("keeps the imports one way: it imports types only, and the resources never reach client.ts", () => {
    const own = importsOf(source("resource-calls.ts"));
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((e) => !e.typeOnly)).toEqual([]);
    for (const resource of ["resources.ts", "software-api.ts"]) {
      expect(importsOf(source(resource)).map((e) => e.specifier)).toContain("./resource-calls.js");
      const { files } = reachableFrom(`${CLIENT_DIR}${resource}`);
      expect(
        files.filter((f) => f.endsWith("/client/client.ts")),
        resource,
      ).toEqual([]);
    }
    expect(importsOf(source("client.ts")).map((e) => e.specifier)).toContain("./resource-calls.js");
  });
});
