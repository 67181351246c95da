// The reference server's shared state helpers (src/storage/server/state.ts): finding the object a
// body's `{uuid, name}` reference names, with the API's errors when it names nothing, names two
// different objects or is missing; the `{uuid, name, _links}` references records carry.
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../../src/storage/server/clock.js";
import { HttpError } from "../../../src/storage/server/errors.js";
import { buildInventory, seedUuid } from "../../../src/storage/server/inventory.js";
import { JobStore } from "../../../src/storage/server/jobs.js";
import {
  type ServerState,
  nodeRef,
  resolveLun,
  resolveRef,
  resolveVolume,
  svmRef,
  volumeRef,
} from "../../../src/storage/server/state.js";

function state(): ServerState {
  const clock = createManualClock();
  let seq = 0;
  return { inventory: buildInventory(), jobs: new JobStore(clock, 100), clock, nextSeq: () => ++seq };
}

function refusal(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  throw new Error("expected an HttpError");
}

const fields = (e: HttpError) => [e.status, e.code, e.target, e.message];

describe("resolveRef", () => {
  const s = state();
  const svms = s.inventory.svms;
  const [svm1, svm2] = svms;

  it("finds by uuid, by name, or by both when they agree", () => {
    expect(resolveRef(svms, { uuid: seedUuid("b", 2) }, "svm", "SVM")).toBe(svm2);
    expect(resolveRef(svms, { name: "svm1" }, "svm", "SVM")).toBe(svm1);
    expect(resolveRef(svms, { uuid: seedUuid("b", 1), name: "svm1" }, "svm", "SVM")).toBe(svm1);
  });

  it("refuses a reference naming two different objects", () => {
    expect(fields(refusal(() => resolveRef(svms, { uuid: seedUuid("b", 1), name: "svm2" }, "svm", "SVM")))).toEqual([
      400,
      "262189",
      "svm",
      '"svm.uuid" and "svm.name" name different objects.',
    ]);
  });

  it("refuses a reference naming nothing, at the member that names it", () => {
    expect(fields(refusal(() => resolveRef(svms, { uuid: seedUuid("b", 9) }, "svm", "SVM")))).toEqual([
      400,
      "4",
      "svm.uuid",
      "SVM with this UUID does not exist.",
    ]);
    expect(fields(refusal(() => resolveRef(svms, { name: "vs0" }, "origins[0].svm", "SVM")))).toEqual([
      400,
      "4",
      "origins[0].svm.name",
      'SVM "vs0" does not exist.',
    ]);
    // Both given, one of them unknown: still refused.
    expect(refusal(() => resolveRef(svms, { uuid: seedUuid("b", 1), name: "vs0" }, "svm", "SVM")).target).toBe(
      "svm.name",
    );
  });

  it("a missing reference is required, unless it is optional", () => {
    expect(fields(refusal(() => resolveRef(svms, undefined, "svm", "SVM")))).toEqual([
      400,
      "262195",
      "svm.uuid",
      'Field "svm.uuid" or "svm.name" is required.',
    ]);
    expect(refusal(() => resolveRef(svms, {}, "svm", "SVM")).code).toBe("262195");
    expect(resolveRef(svms, undefined, "svm", "SVM", false)).toBeUndefined();
    // Members of another type are not a uuid or name.
    expect(refusal(() => resolveRef(svms, { uuid: 1, name: true }, "svm", "SVM")).code).toBe("262195");
  });

  it("matches names exactly: case and inherited names do not count", () => {
    expect(refusal(() => resolveRef(svms, { name: "SVM1" }, "svm", "SVM")).code).toBe("4");
    expect(refusal(() => resolveRef(svms, { name: "constructor" }, "svm", "SVM")).code).toBe("4");
  });
});

describe("resolveVolume and resolveLun", () => {
  it("find only within the given SVM", () => {
    const s = state();
    const [svm1, svm2] = s.inventory.svms as [(typeof s.inventory.svms)[0], (typeof s.inventory.svms)[0]];
    expect(resolveVolume(s, { name: "vol1" }, "volume", svm1).uuid).toBe(seedUuid("d", 1));
    expect(fields(refusal(() => resolveVolume(s, { name: "vol1" }, "volume", svm2)))).toEqual([
      400,
      "4",
      "volume.name",
      'Volume in SVM "svm2" "vol1" does not exist.',
    ]);
    expect(resolveLun(s, { uuid: seedUuid("e", 2) }, "convert.lun", svm1).name).toBe("/vol/vol1/lun_mapped");
    expect(refusal(() => resolveLun(s, { name: "/vol/vol1/lun1" }, "convert.lun", svm2)).target).toBe(
      "convert.lun.name",
    );
  });
});

describe("references in records", () => {
  it("carry uuid, name and the object's self link", () => {
    const ref = { uuid: "u-1", name: "n" };
    expect(nodeRef(ref)).toEqual({ uuid: "u-1", name: "n", _links: { self: { href: "/api/cluster/nodes/u-1" } } });
    expect(svmRef(ref)).toEqual({ uuid: "u-1", name: "n", _links: { self: { href: "/api/svm/svms/u-1" } } });
    expect(volumeRef(ref)).toEqual({ uuid: "u-1", name: "n", _links: { self: { href: "/api/storage/volumes/u-1" } } });
  });
});
