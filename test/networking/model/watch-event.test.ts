import { create } from "@bufbuild/protobuf";
import { describe, expect, expectTypeOf, it } from "vitest";
import { IngressClassSchema } from "../../../gen/k8s/io/api/networking/v1/networking_pb.js";
import {
  DEFAULT_MAX_FRAME_SIZE,
  EVENT_TYPES,
  type WatchEvent,
  type WatchEventType,
} from "../../../src/networking/model/watch-event.js";

// Every member of the WatchEventType union, and nothing else: the type checker refuses this
// object if a member is missing or one is added that the union does not have.
const EVERY_TYPE: Record<WatchEventType, true> = {
  ADDED: true,
  MODIFIED: true,
  DELETED: true,
  BOOKMARK: true,
  ERROR: true,
};

describe("watch events", () => {
  it("EVENT_TYPES holds exactly the members of WatchEventType (the API server's five)", () => {
    expect([...EVENT_TYPES].sort()).toEqual(Object.keys(EVERY_TYPE).sort());
    expect(EVENT_TYPES.has("added")).toBe(false);
    expect(EVENT_TYPES.has("")).toBe(false);
  });

  it("DEFAULT_MAX_FRAME_SIZE is client-go's cap on one frame, 16 MiB", () => {
    expect(DEFAULT_MAX_FRAME_SIZE).toBe(16 * 1024 * 1024);
  });

  it("a WatchEvent pairs a type with an object", () => {
    const e: WatchEvent = { type: "ADDED", object: create(IngressClassSchema, { metadata: { name: "nginx" } }) };
    expectTypeOf(e.type).toEqualTypeOf<WatchEventType>();
    // @ts-expect-error the type is one of the five
    const bad: WatchEvent = { type: "CHANGED", object: e.object };
    expect(EVENT_TYPES.has(e.type)).toBe(true);
    expect(EVENT_TYPES.has(bad.type)).toBe(false);
  });
});
