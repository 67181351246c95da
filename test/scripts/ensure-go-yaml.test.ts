// scripts/ensure-go-yaml.mjs: how .ci/run finds Go and Debian's go-yaml sources before
// regenerating the YAML golden files. The cases use GOPATHs planted in a temporary folder and
// a PATH without Go, so they run the same on a machine with Go and on one without, and never
// reach apt-get (a GOPATH named by CLUSTERWIRE_GOPATH is the user's to fill).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DEBIAN_GO_PACKAGES, GO_YAML_IMPORTS, findGoYaml } from "../../scripts/ensure-go-yaml.mjs";

const SCRIPT = fileURLToPath(new URL("../../scripts/ensure-go-yaml.mjs", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "clusterwire-go-yaml-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A GOPATH holding the given import paths as folders under src/. */
function gopath(name: string, imports: readonly string[]): string {
  const dir = join(work, name);
  mkdirSync(join(dir, "src"), { recursive: true });
  for (const p of imports) mkdirSync(join(dir, "src", p), { recursive: true });
  return dir;
}

const NO_GO = { PATH: join(work, "no-bin") };

describe("findGoYaml", () => {
  it("finds both libraries in a GOPATH that holds them", () => {
    const dir = gopath("full", GO_YAML_IMPORTS);
    expect(findGoYaml({ ...NO_GO, CLUSTERWIRE_GOPATH: dir })).toEqual({
      go: undefined,
      gopath: dir,
      missing: [],
      explicit: true,
    });
  });

  it("names each library a GOPATH lacks", () => {
    expect(findGoYaml({ ...NO_GO, CLUSTERWIRE_GOPATH: gopath("one", ["gopkg.in/yaml.v2"]) }).missing).toEqual([
      "sigs.k8s.io/yaml",
    ]);
    expect(findGoYaml({ ...NO_GO, CLUSTERWIRE_GOPATH: gopath("none", []) }).missing).toEqual([...GO_YAML_IMPORTS]);
  });

  it("uses Debian's GOPATH unless told otherwise", () => {
    const found = findGoYaml({ ...NO_GO });
    expect(found).toMatchObject({ gopath: "/usr/share/gocode", explicit: false, go: undefined });
    expect(findGoYaml({ ...NO_GO, CLUSTERWIRE_GOPATH: "" }).gopath).toBe("/usr/share/gocode");
  });

  it("names the Debian packages the oracle is built from", () => {
    expect([...DEBIAN_GO_PACKAGES]).toEqual(["golang-go", "golang-gopkg-yaml.v2-dev", "golang-k8s-sigs-yaml-dev"]);
  });
});

describe("ensure-go-yaml as a command", () => {
  it("fails with what is missing and how to install it, without apt-get, for a CLUSTERWIRE_GOPATH that lacks them", () => {
    const r = spawnSync(process.execPath, [SCRIPT], {
      encoding: "utf8",
      env: { ...NO_GO, CLUSTERWIRE_GOPATH: gopath("empty", []) },
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Go (`go version` fails)");
    expect(r.stderr).toContain("gopkg.in/yaml.v2 under");
    expect(r.stderr).toContain("sigs.k8s.io/yaml under");
    expect(r.stderr).toContain("apt-get install -y golang-go golang-gopkg-yaml.v2-dev golang-k8s-sigs-yaml-dev");
    expect(r.stderr).toContain("npm test needs none of this");
  });
});
