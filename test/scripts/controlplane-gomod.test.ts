// scripts/controlplane-gomod.mjs: the replace block that lets a module require k8s.io/kubernetes.
// These cases use a small made-up go.mod, so they run without Go or the module proxy; the real
// output is conformance/controlplane/kube-apiserver/<version>/go.mod, checked against upstream's
// go.mod below when Go's module cache already holds it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  BEGIN_MARKER,
  consumerGoMod,
  END_MARKER,
  goDirectives,
  replaceBlock,
  stagingModules,
  stagingVersion,
} from "../../scripts/controlplane-gomod.mjs";
import { nonEmpty } from "../support/non-empty.js";

const UPSTREAM = `// This is a generated file. Do not edit directly.

module k8s.io/kubernetes

go 1.25.0

godebug default=go1.25

require (
	github.com/blang/semver/v4 v4.0.0
	k8s.io/api v0.0.0
	k8s.io/apiserver v0.0.0
)

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/apiserver => ./staging/src/k8s.io/apiserver // a comment
	github.com/example/fork => github.com/example/fork v1.2.3
)

replace k8s.io/client-go => ./staging/src/k8s.io/client-go
replace k8s.io/kms v0.0.0 => ./staging/src/k8s.io/kms
`;

describe("stagingVersion", () => {
  it("maps a Kubernetes release to its staging modules' release", () => {
    expect(stagingVersion("v1.35.4")).toBe("v0.35.4");
    expect(stagingVersion("v1.37.2")).toBe("v0.37.2");
  });
  it("refuses what is not a release", () => {
    expect(() => stagingVersion("1.35.4")).toThrow(/v1\.X\.Y/);
    expect(() => stagingVersion("v1.35.4-rc.0")).toThrow();
  });
});

describe("stagingModules", () => {
  it("reads the replaces that point into ./staging, in block and single-line form, sorted", () => {
    expect(stagingModules(UPSTREAM)).toEqual(["k8s.io/api", "k8s.io/apiserver", "k8s.io/client-go", "k8s.io/kms"]);
  });
  it("ignores replaces that point elsewhere and commented-out lines", () => {
    expect(stagingModules("replace (\n\t// k8s.io/x => ./staging/src/k8s.io/x\n\ta => b v1.0.0\n)\n")).toEqual([]);
  });
});

describe("replaceBlock and consumerGoMod", () => {
  it("maps each staging module to the matching v0.X.Y between markers", () => {
    expect(replaceBlock(["k8s.io/api", "k8s.io/kms"], "v0.35.4")).toBe(
      `${BEGIN_MARKER}\nreplace (\n\tk8s.io/api => k8s.io/api v0.35.4\n\tk8s.io/kms => k8s.io/kms v0.35.4\n)\n\n${END_MARKER}\n`,
    );
    expect(() => replaceBlock([], "v0.35.4")).toThrow(/no staging modules/);
  });
  it("writes a new go.mod that requires k8s.io/kubernetes, names the tool and keeps upstream's go lines", () => {
    const text = consumerGoMod(UPSTREAM, "v1.35.4");
    expect(goDirectives(UPSTREAM)).toEqual(["go 1.25.0", "godebug default=go1.25"]);
    expect(text).toContain("\ngo 1.25.0\n");
    expect(text).toContain("\ngodebug default=go1.25\n");
    expect(text).toContain("\ntool (\n\tk8s.io/kubernetes/cmd/kube-apiserver\n\tk8s.io/kubernetes/cmd/kubectl\n)\n");
    expect(text).toContain("\nrequire k8s.io/kubernetes v1.35.4\n");
    expect(text).toContain("\tk8s.io/client-go => k8s.io/client-go v0.35.4\n");
    expect(text).not.toContain("./staging");
  });
  it("rewrites only the marked block of an existing go.mod", () => {
    const existing = `module m\n\nrequire x v1.0.0 // indirect\n\n${replaceBlock(["k8s.io/old"], "v0.1.0")}\n// after\n`;
    const text = consumerGoMod(UPSTREAM, "v1.37.2", existing);
    expect(text.startsWith("module m\n\nrequire x v1.0.0 // indirect\n\n")).toBe(true);
    expect(text.endsWith(`${END_MARKER}\n\n// after\n`)).toBe(true);
    expect(text).not.toContain("k8s.io/old");
    expect(text).toContain("\tk8s.io/kms => k8s.io/kms v0.37.2\n");
  });
});

// The committed go.mod of each version is the generator's output for upstream's go.mod.
const modules = fileURLToPath(new URL("../../conformance/controlplane/kube-apiserver/", import.meta.url));
const gomodcache = process.env["GOMODCACHE"] ?? join(process.env["HOME"] ?? "/root", "go", "pkg", "mod");
for (const version of nonEmpty(readdirSync(modules), `version folders in ${modules}`)) {
  const upstream = join(gomodcache, "cache", "download", "k8s.io", "kubernetes", "@v", `${version}.mod`);
  describe.skipIf(!existsSync(upstream))(`conformance/controlplane/kube-apiserver/${version}/go.mod`, () => {
    it("holds exactly the replace block generated from upstream's go.mod", () => {
      const committed = readFileSync(join(modules, version, "go.mod"), "utf8");
      expect(consumerGoMod(readFileSync(upstream, "utf8"), version, committed)).toBe(committed);
      const count = stagingModules(readFileSync(upstream, "utf8")).length;
      expect(count).toBeGreaterThanOrEqual(31);
    });
  });
}
