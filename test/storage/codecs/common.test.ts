// The types the storage models share (src/storage/codecs/common.ts): HAL links, references, Size
// input and lenient enums. The file holds types only, so this is a type-level test: tsc checks it
// (`npm run typecheck`), and expectTypeOf is a no-op at run time.
import { describe, expectTypeOf, it } from "vitest";
import type {
  Lenient,
  Link,
  Links,
  Reference,
  ReferenceInput,
  SizeInput,
  WithLinks,
} from "../../../src/storage/codecs/common.js";

describe("HAL links", () => {
  it("a Link is an href", () => {
    expectTypeOf<Link>().toEqualTypeOf<{ href: string }>();
  });

  it("Links has self and next, and keeps any other relation as a Link", () => {
    expectTypeOf<Links["self"]>().toEqualTypeOf<Link | undefined>();
    expectTypeOf<Links["next"]>().toEqualTypeOf<Link | undefined>();
    expectTypeOf<Links["results"]>().toEqualTypeOf<Link | undefined>();
    expectTypeOf<{ self: { href: "/api/x" }; results: { href: "/api/y?job_results_uuid=1" } }>().toMatchTypeOf<Links>();
    expectTypeOf<{ self: "/api/x" }>().not.toMatchTypeOf<Links>();
    expectTypeOf<{ next: { url: "/api/x" } }>().not.toMatchTypeOf<Links>();
  });

  it("WithLinks is any record with optional _links", () => {
    expectTypeOf<WithLinks>().toEqualTypeOf<{ _links?: Links }>();
    expectTypeOf<Record<never, never>>().toMatchTypeOf<WithLinks>();
  });
});

describe("references", () => {
  it("a Reference read from the server may have uuid, name and links, each optional", () => {
    expectTypeOf<Reference>().toEqualTypeOf<{ uuid?: string; name?: string; _links?: Links }>();
    expectTypeOf<{ name: "svm1" }>().toMatchTypeOf<Reference>();
    expectTypeOf<{ uuid: 1 }>().not.toMatchTypeOf<Reference>();
  });

  it("a ReferenceInput sent in a body has uuid and name only: links are read-only", () => {
    expectTypeOf<ReferenceInput>().toEqualTypeOf<{ uuid?: string; name?: string }>();
    expectTypeOf<ReferenceInput>().not.toHaveProperty("_links");
  });
});

describe("input values", () => {
  it("a Size is given as a number of bytes or a string with a suffix", () => {
    expectTypeOf<SizeInput>().toEqualTypeOf<number | string>();
    expectTypeOf<bigint>().not.toMatchTypeOf<SizeInput>();
  });

  it("a Lenient enum takes its known values and any other string, and nothing else", () => {
    type State = Lenient<"online" | "offline">;
    expectTypeOf<"online">().toMatchTypeOf<State>();
    expectTypeOf<"a_state_from_a_newer_server">().toMatchTypeOf<State>();
    expectTypeOf<string>().toMatchTypeOf<State>();
    expectTypeOf<State>().toMatchTypeOf<string>();
    expectTypeOf<number>().not.toMatchTypeOf<State>();
    expectTypeOf<undefined>().not.toMatchTypeOf<State>();
    // The known values stay in the type (editors offer them): it is not widened to plain string.
    expectTypeOf<State>().not.toEqualTypeOf<string>();
    expectTypeOf<Extract<State, "online">>().toEqualTypeOf<"online">();
  });
});
