// The SVM codec (src/storage/codecs/svm.ts).

import { describe, expect, it } from "vitest";
import { svm } from "../../../src/storage/index.js";
import { expectCodecError } from "../../support/storage/codecs-helpers.js";

describe("svm", () => {
  it("decodes a record, keeping members the model does not name", () => {
    const json = {
      uuid: "00000000-0000-4000-8000-b00000000001",
      name: "svm1",
      _links: { self: { href: "/api/svm/svms/00000000-0000-4000-8000-b00000000001" } },
    };
    expect(svm.decode(json)).toEqual(json);
    expect(svm.decode({ name: "svm1", state: "running" })).toEqual({ name: "svm1", state: "running" });
    expect(svm.decode({})).toEqual({});
  });

  it("names the member of the wrong type", () => {
    expectCodecError(() => svm.decode({ name: 7 }), "name", /string/);
    expectCodecError(() => svm.decode({ _links: { self: "x" } }), "_links.self");
    expectCodecError(() => svm.decode([]), "");
  });
});
