// The admission cases recorded from kube-apiserver v1.35.4: the module decodes to as many cases as its
// header says, each of the shape recorded-admission.ts reads (test/support/recorded-module.ts).
import { describe, expect, it } from "vitest";
import { RECORDED } from "../../../src/testing/recorded/v1-35-4.js";
import { checkRecordedModule } from "../../support/recorded-module.js";

describe("src/testing/recorded/v1-35-4.ts", () => {
  it("holds the header's number of cases, each a create or update with the server's verdict", () => {
    const cases = checkRecordedModule(RECORDED, "src/testing/recorded/v1-35-4.ts", "v1.35.4");
    expect(new Set(cases.map((c) => c.allowed))).toEqual(new Set([true, false]));
    expect(new Set(cases.map((c) => c.operation))).toEqual(new Set(["CREATE", "UPDATE"]));
  });
});
