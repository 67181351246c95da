// --kubernetes-version: its help, and the spellings it takes.
import { describe, expect, it } from "vitest";
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSIONS } from "../../../src/networking/index.js";
import { CliError, EXIT_USAGE } from "../../../src/cli/shared/io.js";
import { kubernetesVersionHelp, parseKubernetesVersion } from "../../../src/cli/shared/kubernetes-version.js";

describe("parseKubernetesVersion", () => {
  it("takes each release as 1.X, v1.X or v1.X.Y, and nothing when the option is absent", () => {
    expect(parseKubernetesVersion(undefined, "validate")).toBeUndefined();
    for (const v of KUBERNETES_VERSIONS)
      for (const spelled of [v, `v${v}`, `v${v}.0`, `${v}.12`])
        expect(parseKubernetesVersion(spelled, "validate")).toBe(v);
  });

  it("refuses other releases and spellings with a usage error naming the command", () => {
    for (const bad of ["1.36", "v1.38.0", "1", "1.37.2.1", "V1.37", "1.37-rc", " 1.37", ""]) {
      let caught: unknown;
      try {
        parseKubernetesVersion(bad, "webhook serve");
      } catch (e) {
        caught = e;
      }
      expect(caught, bad).toBeInstanceOf(CliError);
      expect(caught).toMatchObject({
        message: `--kubernetes-version must be one of ${KUBERNETES_VERSIONS.join(", ")} (or v1.X.Y of those), got ${JSON.stringify(bad)}`,
        exitCode: EXIT_USAGE,
        help: "clusterwire webhook serve --help",
      });
    }
  });
});

describe("kubernetesVersionHelp", () => {
  it("names every release and the default, its description at the command's column", () => {
    const lines = kubernetesVersionHelp(26).split("\n");
    expect(lines[0]).toBe("  --kubernetes-version V");
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {26}\S/);
    const text = lines.join(" ");
    for (const v of KUBERNETES_VERSIONS) expect(text).toContain(v);
    expect(text).toContain(`(default ${DEFAULT_KUBERNETES_VERSION};`);
    expect(kubernetesVersionHelp(4).split("\n")[1]).toMatch(/^ {4}the release/);
  });
});
