// The IngressClass mutations (src/testing/targeted-invalid/ingress-class.ts), the metadata ones apart
// (metadata.test.ts): each draw names its mutation and expects its error where the mutation wrote,
// and under 1.37, on objects valid for 1.37, validate() reports exactly that error
// (test/support/targeted-mutations.ts).
import { describe, it } from "vitest";
import { ingressClassMutations } from "../../../src/testing/targeted-invalid/ingress-class.js";
import { checkMutations } from "../../support/targeted-mutations.js";

describe("ingressClassMutations", () => {
  it("each mutation's draws carry their one error, where the mutation wrote it", () => {
    const own = ingressClassMutations().filter((m) => !m.name.startsWith("IngressClass.meta."));
    checkMutations("IngressClass", "ingressclass", own);
  });
});
