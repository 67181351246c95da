// The admission cases recorded from real kube-apiservers, as the kit hands them out: loaded once
// per release, each case's fields filled from the stored one, and bad versions refused. The data
// modules themselves are checked in test/testing/recorded/.
import { describe, expect, it } from "vitest";
import {
  AdmissionCheckError,
  RECORDED_SERVERS,
  recordedAdmissionCases,
  recordedVersion,
  resourceOf,
} from "../../src/testing/recorded-admission.js";

const VERSIONS = ["1.35", "1.37"] as const;

describe("recordedAdmissionCases", () => {
  it("holds, for each release, creates and updates both admitted (some with warnings) and refused with 422", async () => {
    for (const version of VERSIONS) {
      const cases = await recordedAdmissionCases({ version });
      expect(cases.length).toBeGreaterThan(900);
      const admitted = cases.filter((c) => c.expected.allowed);
      const refused = cases.filter((c) => !c.expected.allowed);
      expect(admitted.length).toBeGreaterThan(300);
      expect(refused.length).toBeGreaterThan(200);
      expect(admitted.some((c) => c.expected.warnings.length > 0)).toBe(true);
      for (const c of refused) {
        expect(c.expected.status?.code).toBe(422);
        expect(c.expected.status?.reason).toBe("Invalid");
        expect(c.expected.status?.causes.length).toBeGreaterThan(0);
        expect(c.expected.warnings).toEqual([]);
      }
      expect(new Set(cases.map((c) => c.kind))).toEqual(
        new Set(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"]),
      );
      const updates = cases.filter((c) => c.operation === "UPDATE");
      expect(updates.length).toBeGreaterThan(10);
      expect(updates.every((c) => c.oldObject !== undefined)).toBe(true);
      expect(updates.some((c) => c.subResource === "status")).toBe(true);
      // The decoder's own warnings are not the webhook's: none is left.
      expect(cases.some((c) => c.expected.warnings.some((w) => /^unknown field|^duplicate field/.test(w)))).toBe(false);
      expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    }
  });

  it("loads each release once and shares it", async () => {
    const [a, b] = await Promise.all([recordedAdmissionCases(), recordedAdmissionCases({ version: "1.35" })]);
    expect(a).toBe(b);
    expect(a[0]?.id).toBe("v1.35.4#0");
  });

  it("rejects a release it has no recording of", async () => {
    const error = await recordedAdmissionCases({ version: "1.36" as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdmissionCheckError);
    expect((error as AdmissionCheckError).code).toBe("bad-option");
  });
});

describe("the cases' fields", () => {
  it("are filled from the stored ones: id, resource, subresource and namespace always set, and frozen", async () => {
    for (const version of VERSIONS) {
      const cases = await recordedAdmissionCases({ version });
      cases.forEach((c, i) => {
        expect(c.id).toBe(`${RECORDED_SERVERS[version]}#${i}`);
        expect(c.resource).toBe(resourceOf(c.kind));
        // Only an update goes through /status; a create never names a subresource.
        expect(c.operation === "UPDATE" ? ["", "status"] : [""]).toContain(c.subResource);
        expect(typeof c.namespace).toBe("string");
        expect((c.object as { metadata?: { name?: string } }).metadata?.name ?? "").toBe(c.name);
        expect(Object.isFrozen(c)).toBe(true);
        expect(Array.isArray(c.expected.warnings)).toBe(true);
      });
      const scoped = (kind: string) => new Set(cases.filter((c) => c.kind === kind).map((c) => c.namespace !== ""));
      expect(scoped("Ingress")).toEqual(new Set([true]));
      expect(scoped("IngressClass")).toEqual(new Set([false]));
      expect(Object.isFrozen(cases)).toBe(true);
    }
  });
});

describe("resourceOf, recordedVersion and AdmissionCheckError", () => {
  it("resourceOf is the plural resource name", () => {
    expect(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"].map(resourceOf)).toEqual([
      "ingresses",
      "ingressclasses",
      "networkpolicies",
      "ipaddresses",
      "servicecidrs",
    ]);
    expect(resourceOf("Widget")).toBe("widgets");
  });

  it("recordedVersion: the default release when none is given, a recorded one, else a bad-option error", () => {
    expect(recordedVersion(undefined)).toBe("1.35");
    expect(recordedVersion("1.37")).toBe("1.37");
    for (const bad of ["1.36", "v1.35.4", 1.35, null, "toString"]) {
      let caught: unknown;
      try {
        recordedVersion(bad);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(AdmissionCheckError);
      expect(caught).toMatchObject({
        code: "bad-option",
        message: `version: cases are recorded for 1.35, 1.37, not ${JSON.stringify(bad)}`,
      });
    }
  });

  it("AdmissionCheckError carries its code, name and cause", () => {
    const cause = new Error("ECONNREFUSED");
    const e = new AdmissionCheckError("unreachable", "POST https://x/: refused", { cause });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: "AdmissionCheckError", code: "unreachable", message: "POST https://x/: refused" });
    expect(e.cause).toBe(cause);
  });
});
