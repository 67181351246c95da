import { describe, expect, expectTypeOf, it } from "vitest";
import {
  DEFAULT_KUBERNETES_VERSION,
  isKubernetesVersion,
  KUBERNETES_VERSIONS,
  type KubernetesVersion,
} from "../../../src/networking/model/kubernetes-version.js";

describe("Kubernetes versions", () => {
  it("are minor releases, oldest first, without repeats", () => {
    expect(KUBERNETES_VERSIONS.length).toBeGreaterThan(0);
    for (const v of KUBERNETES_VERSIONS) expect(v).toMatch(/^1\.[0-9]+$/);
    const minors = KUBERNETES_VERSIONS.map((v) => Number(v.split(".")[1]));
    expect(minors).toEqual([...new Set(minors)].sort((a, b) => a - b));
  });

  it("the default is one of them", () => {
    expect(KUBERNETES_VERSIONS).toContain(DEFAULT_KUBERNETES_VERSION);
    expect(isKubernetesVersion(DEFAULT_KUBERNETES_VERSION)).toBe(true);
  });

  it("isKubernetesVersion accepts each listed release and nothing else", () => {
    for (const v of KUBERNETES_VERSIONS) expect(isKubernetesVersion(v)).toBe(true);
    for (const v of ["1.36", "1.34", "v1.35", "1.35.0", " 1.35", "1.3", "", 1.35, null, undefined, ["1.35"], {}]) {
      expect(isKubernetesVersion(v), JSON.stringify(v)).toBe(false);
    }
  });

  it("narrows to KubernetesVersion", () => {
    const v: unknown = KUBERNETES_VERSIONS[0];
    if (isKubernetesVersion(v)) expectTypeOf(v).toEqualTypeOf<KubernetesVersion>();
    expectTypeOf<KubernetesVersion>().toEqualTypeOf<(typeof KUBERNETES_VERSIONS)[number]>();
  });
});
