// checkAdmission against the recorded answers of real kube-apiservers: clusterwire's own admit
// agrees with every case of both releases; wrong functions are caught with the disagreements
// they make; the real webhook server, called over HTTPS, agrees too; bad arguments and an
// unreachable target reject with AdmissionCheckError; and, with the binaries, a live API
// server's dry-run answers are used instead of the recording.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admit } from "../../src/admission/index.js";
import type { AdmissionResponse } from "../../src/admission/index.js";
import {
  AdmissionCheckError,
  checkAdmission,
  recordedAdmissionCases,
  type AdmissionFunction,
} from "../../src/testing/index.js";
import { pem, tlsDir, withServer, type TlsDir } from "../support/admission/server.js";
import { apiRequest, controlPlaneBuilt, startControlPlane } from "../support/controlplane/start.js";

const VERSIONS = ["1.35", "1.37"] as const;
const own =
  (version: (typeof VERSIONS)[number]): AdmissionFunction =>
  (request) =>
    admit(request, { version }).response;

describe("checkAdmission with an admission function", () => {
  for (const version of VERSIONS) {
    it(`clusterwire's admit agrees with every recorded case of ${version}, Status and warnings included`, async () => {
      const report = await checkAdmission(own(version), { version, compare: "status" });
      expect(report.summary.split("\n").slice(1)).toEqual([]);
      expect(report.disagreements).toEqual([]);
      expect(report.checked).toBe((await recordedAdmissionCases({ version })).length);
      expect(report.agreed).toBe(report.checked);
      expect(report.live).toBe(false);
    });
  }

  it("reports a function that allows everything on exactly the refused cases", async () => {
    const cases = await recordedAdmissionCases();
    const refused = cases.filter((c) => !c.expected.allowed).map((c) => c.id);
    const report = await checkAdmission((r) => ({ uid: r.uid, allowed: true }));
    expect(report.disagreements.map((d) => d.case.id)).toEqual(refused);
    expect(report.agreed).toBe(cases.length - refused.length);
    const first = report.disagreements[0]!;
    expect(first.why).toMatch(/^admitted what the API server refuses: /);
    expect(first.got).toEqual({ allowed: true, warnings: [] });
    expect(first.expected.allowed).toBe(false);
    expect(report.summary).toContain(`${refused.length} disagree`);
    expect(report.summary).toContain(first.case.id);
  });

  it("under status, reports a denial with another message; under verdict, does not", async () => {
    const reworded: AdmissionFunction = (request) => {
      const response = admit(request).response;
      if (response.status === undefined) return response;
      return { ...response, status: { ...response.status, message: "denied by policy" } };
    };
    const refused = (await recordedAdmissionCases()).filter((c) => !c.expected.allowed).length;
    const byStatus = await checkAdmission(reworded, { compare: "status" });
    expect(byStatus.disagreements).toHaveLength(refused);
    expect(byStatus.disagreements.every((d) => d.why.startsWith("another message: "))).toBe(true);
    const byVerdict = await checkAdmission(reworded);
    expect(byVerdict.disagreements).toEqual([]);
  });

  it("under status, reports missing warnings and missing causes", async () => {
    const cases = await recordedAdmissionCases();
    const warned = cases.filter((c) => c.expected.warnings.length > 0).map((c) => c.id);
    const quiet: AdmissionFunction = (request) => {
      const { warnings: _dropped, ...response } = admit(request).response;
      return response;
    };
    const report = await checkAdmission(quiet, { compare: "status" });
    expect(report.disagreements.map((d) => d.case.id)).toEqual(warned);
    expect(report.disagreements[0]?.why).toMatch(/^other warnings: missing /);

    const fewer: AdmissionFunction = (request) => {
      const response = admit(request).response;
      const details = response.status?.details;
      if (response.status === undefined || details === undefined) return response;
      return { ...response, status: { ...response.status, details: { ...details, causes: details.causes.slice(1) } } };
    };
    const refused = cases.filter((c) => !c.expected.allowed).length;
    const other = await checkAdmission(fewer, { compare: "status" });
    expect(other.disagreements).toHaveLength(refused);
    expect(other.disagreements.every((d) => d.why.startsWith("other causes: missing "))).toBe(true);
  });

  it("counts a function that throws, or answers another uid, as disagreeing on that case", async () => {
    let n = 0;
    const flaky: AdmissionFunction = (request) => {
      n++;
      if (n === 1) throw new Error("boom");
      if (n === 2) return { uid: "someone else", allowed: true };
      return admit(request).response;
    };
    const report = await checkAdmission(flaky, { limit: 10, concurrency: 1 });
    expect(report.checked).toBe(10);
    expect(report.disagreements.map((d) => d.why)).toEqual([
      "the function threw: boom",
      expect.stringMatching(/^the function answered uid "someone else", not the request's "/),
    ]);
    expect(report.disagreements[0]?.got).toBeUndefined();
  });

  it("sends an AdmissionRequest as readAdmissionReview reads it, and copies of the objects", async () => {
    const cases = await recordedAdmissionCases();
    const update = cases.find((c) => c.operation === "UPDATE" && c.subResource === "status")!;
    const seen: Parameters<AdmissionFunction>[0][] = [];
    const report = await checkAdmission(
      (request): AdmissionResponse => {
        seen.push(request);
        const response = admit(request).response;
        (request.object as Record<string, unknown>)["spec"] = "changed";
        return response;
      },
      { limit: cases.length },
    );
    expect(report.checked).toBe(cases.length);
    const got = seen.find((r) => r.name === update.name && r.subResource === "status")!;
    expect(got).toMatchObject({
      kind: { group: "networking.k8s.io", version: "v1", kind: update.kind },
      operation: "UPDATE",
      namespace: update.namespace,
      oldObject: update.oldObject,
      dryRun: true,
    });
    expect(update.object["spec"]).not.toBe("changed");
  });

  it("checks at most limit cases, spread over every kind", async () => {
    const report = await checkAdmission(own("1.35"), { limit: 60 });
    expect(report.checked).toBe(60);
    const seen: string[] = [];
    await checkAdmission(
      (r) => {
        seen.push(r.kind.kind);
        return admit(r).response;
      },
      { limit: 60 },
    );
    expect(new Set(seen).size).toBe(5);
  });

  it("rejects bad options, a bad target, and stops when its signal is aborted", async () => {
    const bad = async (p: Promise<unknown>): Promise<string> => {
      const e = await p.then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(AdmissionCheckError);
      return (e as AdmissionCheckError).code;
    };
    const fn = own("1.35");
    expect(await bad(checkAdmission(fn, { version: "1.2" as never }))).toBe("bad-option");
    expect(await bad(checkAdmission(fn, { compare: "everything" as never }))).toBe("bad-option");
    expect(await bad(checkAdmission(fn, { limit: 0 }))).toBe("bad-option");
    expect(await bad(checkAdmission(fn, { concurrency: 1.5 }))).toBe("bad-option");
    expect(await bad(checkAdmission(42 as never))).toBe("bad-option");
    expect(await bad(checkAdmission({ url: "http://127.0.0.1:1/validate" }))).toBe("bad-option");
    expect(await bad(checkAdmission({ url: "not a url" }))).toBe("bad-option");
    expect(await bad(checkAdmission(fn, { apiServer: { url: "ftp://x" } }))).toBe("bad-option");
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(checkAdmission(fn, { signal: controller.signal })).rejects.toThrow("stop");
    let calls = 0;
    const stopping = new AbortController();
    const stopped = checkAdmission(
      (r) => {
        if (++calls === 5) stopping.abort(new Error("enough"));
        return admit(r).response;
      },
      { signal: stopping.signal, concurrency: 1 },
    );
    await expect(stopped).rejects.toThrow("enough");
    expect(calls).toBe(5);
  });
});

describe("checkAdmission with a webhook URL", () => {
  let tls: TlsDir;
  let ca: string;
  beforeAll(() => {
    const made = pem();
    ca = made.cert;
    tls = tlsDir(made);
  });
  afterAll(() => tls.dispose());

  it("the real webhook server, called over HTTPS as kube-apiserver calls it, agrees with every recorded case", async () => {
    for (const version of VERSIONS) {
      await withServer(tls, { admit: { version } }, async (server, logs) => {
        const report = await checkAdmission(
          { url: `${server.url}/validate`, caPem: ca },
          { version, compare: "status" },
        );
        expect(report.disagreements).toEqual([]);
        expect(report.checked).toBe((await recordedAdmissionCases({ version })).length);
        expect(report.agreed).toBe(report.checked);
        // The server decided each review itself: one log line each.
        expect(logs.filter((l) => l.includes('"verdict"')).length).toBe(report.checked);
      });
    }
  }, 120_000);

  it("reports a webhook's HTTP error as a disagreement on each case", async () => {
    await withServer(tls, {}, async (server) => {
      const notFound = await checkAdmission({ url: `${server.url}/nothing`, caPem: ca }, { limit: 3 });
      expect(notFound.disagreements.map((d) => d.why)).toEqual([
        expect.stringMatching(/^the webhook answered HTTP 404: /),
        expect.stringMatching(/^the webhook answered HTTP 404: /),
        expect.stringMatching(/^the webhook answered HTTP 404: /),
      ]);
    });
  }, 60_000);

  it("rejects with unreachable when nothing listens, or the certificate is not trusted", async () => {
    const refused = await checkAdmission({ url: "https://127.0.0.1:1/validate", caPem: ca }, { limit: 2 }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AdmissionCheckError);
    expect((refused as AdmissionCheckError).code).toBe("unreachable");
    await withServer(tls, {}, async (server) => {
      const untrusted = await checkAdmission({ url: `${server.url}/validate` }, { limit: 2 }).catch((e: unknown) => e);
      expect(untrusted).toBeInstanceOf(AdmissionCheckError);
      expect((untrusted as AdmissionCheckError).code).toBe("unreachable");
    });
  }, 60_000);
});

describe.skipIf(!controlPlaneBuilt("v1.35.4"))("checkAdmission against a live kube-apiserver", () => {
  it("takes a real API server's dry-run answers as the expected ones: admit agrees, allow-all does not", async () => {
    const plane = await startControlPlane({ version: "v1.35.4" });
    try {
      const ns = await apiRequest(plane, "POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name: "cw-check" },
      });
      expect(ns.status).toBe(201);
      const apiServer = { url: plane.url, token: plane.token, caPem: plane.caPem, namespace: "cw-check" };
      const report = await checkAdmission(own("1.35"), { apiServer, compare: "status", limit: 100 });
      expect(report.live).toBe(true);
      expect(report.checked + report.skipped).toBe(100);
      expect(report.checked).toBeGreaterThan(80);
      expect(report.summary.split("\n").slice(1)).toEqual([]);
      expect(report.disagreements).toEqual([]);
      const all = await checkAdmission((r) => ({ uid: r.uid, allowed: true }), { apiServer, limit: 100 });
      expect(all.disagreements.length).toBeGreaterThan(10);
      expect(all.disagreements.every((d) => !d.expected.allowed)).toBe(true);
      const missing = await checkAdmission(own("1.35"), {
        apiServer: { ...apiServer, namespace: "nowhere" },
        limit: 100,
      }).catch((e: unknown) => e);
      expect((missing as AdmissionCheckError).code).toBe("api-server");
      const anonymous = await checkAdmission(own("1.35"), {
        apiServer: { url: plane.url, caPem: plane.caPem },
        limit: 5,
      }).catch((e: unknown) => e);
      expect((anonymous as AdmissionCheckError).code).toBe("api-server");
    } finally {
      await plane.stop();
    }
  }, 120_000);
});
