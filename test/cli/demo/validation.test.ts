// The demo's validate step: create validation as clusterwire validate runs it, as messages.
import { describe, expect, it } from "vitest";
import { fieldErrorMessages } from "../../../src/cli/demo/validation.js";
import { fromYaml, validate, formatFieldError } from "../../../src/networking/index.js";

const policy = (meta: string, port: number) =>
  fromYaml(
    `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n${meta}spec:\n  podSelector: {}\n  ingress:\n    - ports: [{port: ${port}}]\n`,
  )[0]!;

describe("fieldErrorMessages", () => {
  it("is empty for a valid object", () => {
    expect(fieldErrorMessages(policy("  name: ok\n  namespace: shop\n", 80))).toEqual([]);
  });

  it("words each error as the API server does", () => {
    const bad = policy("  name: Bad_Name\n  namespace: shop\n", 0);
    expect(fieldErrorMessages(bad)).toEqual([
      "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
    ]);
    expect(fieldErrorMessages(bad)).toEqual(validate(bad).map(formatFieldError));
  });
});
