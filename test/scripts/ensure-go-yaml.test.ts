// scripts/ensure-go-yaml.mjs: how .ci/run checks for a Go that can build the YAML oracle
// (conformance/yaml-oracle) before regenerating the YAML golden files. The cases put a planted
// `go` (a shell script printing a chosen version) or none on PATH, so they run the same on a
// machine with Go and on one without, and never start a real toolchain.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { MIN_GO, findGo, moduleGoVersion, parseGoVersion } from "../../scripts/ensure-go-yaml.mjs";

const SCRIPT = fileURLToPath(new URL("../../scripts/ensure-go-yaml.mjs", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "clusterwire-go-yaml-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A PATH holding only a `go` that reports `version` and answers `go env GOTOOLCHAIN` with `toolchain`. */
function fakeGo(name: string, version: string, toolchain = "local"): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const go = join(dir, "go");
  writeFileSync(
    go,
    `#!/bin/sh\nif [ "$1" = version ]; then echo "go version ${version} linux/amd64"; exit 0; fi\nif [ "$1" = env ]; then echo "${toolchain}"; exit 0; fi\nexit 2\n`,
  );
  chmodSync(go, 0o755);
  return dir;
}

const NO_GO = { PATH: join(work, "no-bin") };

describe("parseGoVersion", () => {
  it("reads `go version` lines and go.mod versions", () => {
    expect(parseGoVersion("go version go1.26.8 linux/amd64")).toEqual([1, 26, 8]);
    expect(parseGoVersion("go1.25.0")).toEqual([1, 25, 0]);
    expect(parseGoVersion("go1.22")).toEqual([1, 22, 0]);
    expect(parseGoVersion("go version devel")).toBeUndefined();
  });
});

describe("findGo", () => {
  it("asks for the go line of the oracle's go.mod (Kubernetes v1.35.4's: 1.25.0)", () => {
    expect(moduleGoVersion()).toBe("1.25.0");
  });

  it("says Go is missing when `go version` does not run", () => {
    expect(findGo(NO_GO, "1.25.0")).toEqual({
      go: undefined,
      required: "1.25.0",
      problem: "Go is not installed (`go version` fails)",
    });
  });

  it("takes a Go at or past the module's go line, whatever GOTOOLCHAIN says", () => {
    for (const v of ["go1.25.0", "go1.26.8"]) {
      const found = findGo({ PATH: fakeGo(v, v) }, "1.25.0");
      expect(found.problem, v).toBeUndefined();
      expect(found.note, v).toBeUndefined();
      expect(found.go).toBe(`go version ${v} linux/amd64`);
    }
  });

  it(`takes an older Go from ${MIN_GO} on when GOTOOLCHAIN lets it fetch the module's, and says so`, () => {
    const found = findGo({ PATH: fakeGo("auto", "go1.22.5", "auto") }, "1.25.0");
    expect(found.problem).toBeUndefined();
    expect(found.note).toBe("Go fetches go1.25.0 through the module proxy to build it (GOTOOLCHAIN=auto)");
  });

  it("refuses an older Go that may not fetch a toolchain, and a Go older than the minimum", () => {
    expect(findGo({ PATH: fakeGo("local", "go1.24.3", "local") }, "1.25.0").problem).toContain(
      "GOTOOLCHAIN=local keeps Go from fetching it",
    );
    expect(findGo({ PATH: fakeGo("old", "go1.19.8", "auto") }, "1.25.0").problem).toBe(
      `go version go1.19.8 linux/amd64 is older than Go ${MIN_GO}`,
    );
  });
});

describe("ensure-go-yaml as a command", () => {
  const runScript = (env: Record<string, string>) =>
    spawnSync(process.execPath, [SCRIPT], { encoding: "utf8", env, timeout: 30_000 });

  it("fails without Go, saying what to install and that npm test needs none of it, and installs nothing", () => {
    const r = runScript(NO_GO);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("needs Go 1.25.0 or newer: Go is not installed");
    expect(r.stderr).toContain("https://go.dev/dl/");
    expect(r.stderr).toContain("GOTOOLCHAIN=auto");
    expect(r.stderr).toContain("npm test needs none of this");
    expect(r.stderr).not.toContain("apt-get");
  });

  it("prints one line when Go will do", () => {
    const r = runScript({ PATH: fakeGo("ok", "go1.26.8") });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      "ensure-go-yaml: go version go1.26.8 linux/amd64; builds conformance/yaml-oracle (go 1.25.0)\n",
    );
  });
});
