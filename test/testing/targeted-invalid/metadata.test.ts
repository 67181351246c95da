// The metadata mutations every kind shares (src/testing/targeted-invalid/metadata.ts): the same
// list for each kind but IPAddress, whose name rule is its own (ip-address.ts); each draw names
// its mutation and expects its error where the mutation wrote, and under 1.37 validate() reports
// exactly that error (test/support/targeted-mutations.ts).
import { describe, expect, it } from "vitest";
import { VALIDATED_KINDS } from "../../../src/testing/index.js";
import { metaMutations } from "../../../src/testing/targeted-invalid/metadata.js";
import { checkMutations } from "../../support/targeted-mutations.js";

const SHARED = ["name-missing", "label-value", "label-key", "annotation-key", "annotations-too-long"];

describe("metaMutations", () => {
  it("is the same list for every kind, with the DNS-1123 name rule for all but IPAddress", () => {
    for (const kind of VALIDATED_KINDS) {
      const names = metaMutations(kind).map((m) => m.name);
      const own = kind === "IPAddress" ? SHARED : [...SHARED, "name-invalid"];
      expect(names).toEqual(own.map((n) => `${kind}.meta.${n}`));
    }
  });

  it.each(VALIDATED_KINDS)("%s: each mutation's draws carry their one error, where the mutation wrote it", (kind) => {
    checkMutations(kind, `${kind}.meta`, metaMutations(kind), 3);
  });
});
