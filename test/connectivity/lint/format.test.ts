// The lint's text output.

import { describe, expect, it } from "vitest";
import { formatLintWarnings } from "../../../src/connectivity/lint/format.js";
import type { LintWarning } from "../../../src/connectivity/lint/rules.js";

describe("formatLintWarnings", () => {
  it("writes one line per warning, then the count and how to silence one", () => {
    const warnings: LintWarning[] = [
      {
        id: "CW1001",
        name: "policy-selects-nothing",
        severity: "warning",
        message: "NetworkPolicy shop/old selects no workload",
      },
      {
        id: "CW1004",
        name: "namespace-without-default-deny",
        severity: "warning",
        message: "namespace dev has none",
        namespace: "dev",
      },
    ];
    expect(formatLintWarnings(warnings)).toBe(
      [
        "warning CW1001 policy-selects-nothing: NetworkPolicy shop/old selects no workload",
        "warning CW1004 namespace-without-default-deny: namespace dev has none",
        '2 lint warnings; to silence one, annotate its object with clusterwire.io/lint-ignore: "<id>", or pass --lint-ignore <id>',
        "",
      ].join("\n"),
    );
  });

  it("counts one warning in the singular, and says when there is none", () => {
    const one: LintWarning = { id: "CW1003", name: "policy-redundant", severity: "warning", message: "m" };
    expect(formatLintWarnings([one]).split("\n")[1]).toMatch(/^1 lint warning;/);
    expect(formatLintWarnings([])).toBe("No lint warnings.\n");
  });
});
