// The NetworkPolicy mutations (src/testing/targeted-invalid/network-policy.ts), the metadata ones apart
// (metadata.test.ts): each draw names its mutation and expects its error where the mutation wrote,
// and under 1.37, on objects valid for 1.37, validate() reports exactly that error
// (test/support/targeted-mutations.ts).
import { describe, it } from "vitest";
import { networkPolicyMutations } from "../../../src/testing/targeted-invalid/network-policy.js";
import { checkMutations } from "../../support/targeted-mutations.js";

describe("networkPolicyMutations", () => {
  it("each mutation's draws carry their one error, where the mutation wrote it", () => {
    const own = networkPolicyMutations().filter((m) => !m.name.startsWith("NetworkPolicy.meta."));
    checkMutations("NetworkPolicy", "networkpolicy", own);
  });
});
