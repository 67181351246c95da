// types.ts has no code: these checks run in `npm run typecheck` (tsc reads test/), where a
// change to the shapes the informer and the client agree on fails them.
import { describe, expectTypeOf, it } from "vitest";
import type {
  ClientWatchEvent,
  ListOptions,
  ListPage,
  ListWatcher,
  RequestOptions,
  WatchOptions,
} from "../../src/client/types.js";
import type { Ingress, Status } from "../../src/networking/index.js";

describe("the ListWatcher contract", () => {
  it("narrows a watch event to a Status on ERROR and to the object otherwise", () => {
    const narrow = (event: ClientWatchEvent<Ingress>) => (event.type === "ERROR" ? event.object : undefined);
    const other = (event: ClientWatchEvent<Ingress>) => (event.type !== "ERROR" ? event.object : undefined);
    expectTypeOf(narrow).returns.toEqualTypeOf<Status | undefined>();
    expectTypeOf(other).returns.toEqualTypeOf<Ingress | undefined>();
  });

  it("lists with RequestOptions and gives pages; watches give an async iterable of events", () => {
    expectTypeOf<ListOptions>().toMatchTypeOf<RequestOptions>();
    expectTypeOf<Parameters<ListWatcher<Ingress>["list"]>>().toEqualTypeOf<[options?: ListOptions | undefined]>();
    expectTypeOf<ListWatcher<Ingress>["list"]>().returns.toEqualTypeOf<Promise<ListPage<Ingress>>>();
    expectTypeOf<Parameters<ListWatcher<Ingress>["watch"]>>().toEqualTypeOf<[options?: WatchOptions | undefined]>();
    expectTypeOf<ListWatcher<Ingress>["watch"]>().returns.toEqualTypeOf<AsyncIterable<ClientWatchEvent<Ingress>>>();
    expectTypeOf<ListPage<Ingress>["items"]>().toEqualTypeOf<Ingress[]>();
    expectTypeOf<ListOptions["resourceVersionMatch"]>().toEqualTypeOf<"Exact" | "NotOlderThan" | undefined>();
  });
});
