import { describe, expect, it } from "vitest";
import { explain } from "../../../conformance/kubectl/known.js";

const printed = (code: number, stderr: string[], stdout: string[] = []) => ({ code, stdout, stderr });

describe("known differences between kubectl's output and clusterwire's", () => {
  it("[] where clusterwire prints null, and nothing else", () => {
    const ours = printed(1, ['The Ingress "a" is invalid: spec: Invalid value: null: either']);
    expect(
      explain(printed(1, ['The Ingress "a" is invalid: spec: Invalid value: []: either']), ours, new Set())?.id,
    ).toBe("empty-list");
    expect(explain(printed(1, ['The Ingress "b" is invalid: spec: Invalid value: []: either']), ours, new Set())).toBe(
      undefined,
    );
  });

  it("a missing namespace only when it could not be made", () => {
    const kubectl = printed(1, [
      'Error from server (NotFound): error when creating "F": namespaces "YOUR_NAMESPACE" not found',
    ]);
    const ours = printed(0, [], ["networkpolicy.networking.k8s.io/p created (server dry run)"]);
    expect(explain(kubectl, ours, new Set(["default"]))?.id).toBe("missing-namespace");
    expect(explain(kubectl, ours, new Set(["YOUR_NAMESPACE"]))).toBe(undefined);
  });

  it("kubectl's own refusals count only when clusterwire refuses too", () => {
    const kubectl = printed(1, ["error: error when retrieving current configuration of:"]);
    expect(explain(kubectl, printed(1, ["x"]), new Set())?.id).toBe("kubectl-client-side");
    expect(explain(kubectl, printed(0, []), new Set())).toBe(undefined);
  });

  it("a resourceVersion refusal the dry run does not make", () => {
    const ours = printed(1, [
      'Error from server: error when creating "F": resourceVersion should not be set on objects to be created',
    ]);
    expect(explain(printed(0, [], ["x created (server dry run)"]), ours, new Set())?.id).toBe(
      "dry-run-resource-version",
    );
    expect(explain(printed(1, ["other"]), ours, new Set())).toBe(undefined);
  });
});
