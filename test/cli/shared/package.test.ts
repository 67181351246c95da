// The package the CLI runs from: its version (clusterwire --version) and its root (the demo's examples).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot, version } from "../../../src/cli/shared/package.js";
import { REPO } from "../../support/cli/harness.js";

describe("version and packageRoot", () => {
  it("find the package.json named clusterwire above this module: the repository's", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { name: string; version: string };
    expect(pkg.name).toBe("clusterwire");
    expect(version()).toBe(pkg.version);
    expect(join(packageRoot() ?? "none", "/")).toBe(join(REPO, "/"));
    // The demo's bundled examples are found from it.
    expect(existsSync(join(packageRoot() ?? "", "examples", "demo", "expected.yaml"))).toBe(true);
  });
});
