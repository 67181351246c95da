// The public surface of `clusterwire/client` (src/client/index.ts): exactly these names, each of
// this kind, so a public name dropped, renamed or added by accident fails here; the entry point
// reaches nothing of the tree but clusterwire/networking's public entry point; and the
// credentials names clusterwire/admission/server has exported since before are these very ones.
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as server from "../../src/admission/server/index.js";
import * as client from "../../src/client/index.js";
import type * as C from "../../src/client/index.js";
import type { Ingress } from "../../src/networking/index.js";
import { reachableFrom } from "../support/reachable.js";

/** Every run-time export: name and typeof, sorted by name. */
const VALUES: readonly (readonly [string, string])[] = [
  ["ApiError", "function"],
  ["CredentialsError", "function"],
  ["DEFAULT_MAX_RESPONSE_BYTES", "number"],
  ["DEFAULT_TIMEOUT_MS", "number"],
  ["DEFAULT_TOKEN_REFRESH_MS", "number"],
  ["RequestError", "function"],
  ["SERVICE_ACCOUNT_DIR", "string"],
  ["createClient", "function"],
  ["createInformer", "function"],
  ["currentToken", "function"],
  ["inClusterCredentials", "function"],
  ["kubeconfigCredentials", "function"],
  ["loadCredentials", "function"],
];

describe("clusterwire/client", () => {
  it("exports exactly these values, each of its kind", () => {
    const actual = Object.keys(client)
      .sort()
      .map((name) => [name, typeof (client as Record<string, unknown>)[name]]);
    expect(actual).toEqual(VALUES);
  });

  it("exports these types (checked by tsc: a missing one fails the type check)", () => {
    type Types = [
      C.ApiErrorCause,
      C.ApplyOptions,
      C.Client,
      C.ClientFormat,
      C.ClientKind,
      C.ClientObject,
      C.ClientOptions,
      C.ClientWatchEvent<Ingress>,
      C.ClusterCredentials,
      C.CurrentTokenOptions,
      C.DeleteOptions,
      C.KindTypes,
      C.KubeconfigOptions,
      C.ListOptions,
      C.ListPage<Ingress>,
      C.ListWatcher<Ingress>,
      C.LoadCredentialsOptions,
      C.RequestErrorCode,
      C.RequestOptions,
      C.ResourceClient<Ingress>,
      C.WatchOptions,
      C.WriteOptions,
    ];
    expectTypeOf<Types>().not.toBeAny();
    // Every resource client is a ListWatcher of its kind, which is what an informer takes.
    expectTypeOf<C.ResourceClient<Ingress>>().toMatchTypeOf<C.ListWatcher<Ingress>>();
    expectTypeOf<C.Client["resource"]>().returns.toMatchTypeOf<C.ResourceClient<C.ClientObject>>();
    expectTypeOf<ReturnType<C.Client["resource"]>>().not.toBeAny();
  });

  it("reaches nothing of the tree but its own folder and clusterwire/networking", () => {
    const src = fileURLToPath(new URL("../../src/", import.meta.url));
    const { files } = reachableFrom(`${src}client/index.ts`);
    expect(files.length).toBeGreaterThan(10);
    const outside = files.filter((f) => !f.startsWith(`${src}client/`) && !f.startsWith(`${src}networking/`));
    expect(outside.filter((f) => !f.includes("/gen/"))).toEqual([]);
  });

  it("clusterwire/admission/server exports the credentials names, the same objects", () => {
    expect(server.CredentialsError).toBe(client.CredentialsError);
    expect(server.inClusterCredentials).toBe(client.inClusterCredentials);
    expect(server.kubeconfigCredentials).toBe(client.kubeconfigCredentials);
    expectTypeOf<server.ClusterCredentials>().toEqualTypeOf<C.ClusterCredentials>();
  });
});
