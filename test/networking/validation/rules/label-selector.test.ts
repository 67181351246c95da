import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { NetworkPolicySchema, formatFieldError, validate } from "../../../../src/networking/index.js";

describe("label selectors: the operator", () => {
  it("an unknown operator is printed through encoding/json (a named string type), not %q", () => {
    // Seen from a real kube-apiserver 1.35.4: NBSP stays as it is, where %q would write \u00a0.
    const np = create(NetworkPolicySchema, {
      metadata: { name: "np", namespace: "web" },
      spec: { podSelector: { matchExpressions: [{ key: "app", operator: "\u00a0nbsp<" }] } },
    });
    const [e] = validate(np);
    expect(formatFieldError(e!)).toBe(
      'spec.podSelector.matchExpressions[0].operator: Invalid value: "\u00a0nbsp\\u003c": not a valid selector operator',
    );
  });
});
