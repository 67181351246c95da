// The storage arbitraries of clusterwire/testing for cluster software (src/testing/storage/software.ts): each is
// deterministic per seed, stays within its contract and shrinks within it (../quality.ts); spec.ts
// holds the tests' own reading of the spec.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  StorageApiError,
  StorageJobError,
  describeErrorCode,
  software,
  softwareDownload,
  softwareHistory,
  softwarePackage,
} from "../../../src/storage/index.js";
import {
  arbSoftwareDownloadPost,
  arbSoftwareDownloadProgressModel,
  arbSoftwareHistoryModel,
  arbSoftwarePackageModel,
  arbSoftwarePatch,
  arbSoftwarePatchQuery,
  arbSoftwareProfileModel,
} from "../../../src/testing/storage/index.js";
import { startLoopback, thrown, type Loopback } from "../../support/storage/integration-harness.js";
import { checkArbitraryQuality } from "../quality.js";
import { propertyRuns } from "../../support/property-runs.js";
import { INV, DATE_TIME, VERSION, decodesUnchanged, compareVersions } from "./spec.js";

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("arbSoftwareProfileModel", () => {
    checkArbitraryQuality(arbSoftwareProfileModel(), {
      runs: 100,
      contract: (p) => {
        decodesUnchanged(software.decode, p);
        for (const v of [p.version, p.pending_version, ...(p.nodes ?? []).map((n) => n.version)])
          if (v !== undefined) expect(v).toMatch(VERSION);
        for (const s of p.status_details ?? [])
          expect(Date.parse(s.start_time!)).toBeLessThanOrEqual(Date.parse(s.end_time!));
        for (const n of p.nodes ?? []) {
          const sp = n.firmware?.sp_bmc;
          if (sp?.percent_done !== undefined) expect(sp.percent_done >= 0 && sp.percent_done <= 100).toBe(true);
          for (const f of n.firmware?.cluster_fw_progress ?? []) {
            if (f.job?._links !== undefined) expect(f.job._links.self?.href).toBe(`/api/cluster/jobs/${f.job.uuid}`);
          }
        }
        for (const c of [...(p.validation_results ?? []), ...(p.post_update_checks ?? [])])
          if (c.status !== undefined) expect(["warning", "error"]).toContain(c.status);
      },
    });
  });

  it("arbSoftwarePackageModel, arbSoftwareHistoryModel, arbSoftwareDownloadProgressModel", () => {
    checkArbitraryQuality(arbSoftwarePackageModel(), {
      contract: (p) => {
        decodesUnchanged(softwarePackage.decode, p);
        expect(p.version).toMatch(VERSION);
        if (p.create_time !== undefined) expect(p.create_time).toMatch(DATE_TIME);
        if (p._links !== undefined) expect(p._links.self?.href).toBe(`/api/cluster/software/packages/${p.version}`);
      },
    });
    checkArbitraryQuality(arbSoftwareHistoryModel(), {
      contract: (h) => {
        decodesUnchanged(softwareHistory.decode, h);
        expect(compareVersions(h.from_version!, h.to_version!)).toBeLessThan(0);
        if (h.start_time !== undefined) expect(Date.parse(h.start_time)).toBeLessThanOrEqual(Date.parse(h.end_time!));
        if (h.state !== undefined) expect(["successful", "canceled", "skip_upgrade"]).toContain(h.state);
      },
    });
    checkArbitraryQuality(arbSoftwareDownloadProgressModel(), {
      contract: (p) => {
        decodesUnchanged(softwareDownload.decode, p);
        expect(p).not.toHaveProperty("password");
        if (p.state === "failure") {
          const row = describeErrorCode(p.code!);
          expect(row?.table).toBe("package_transfer");
          expect(p.message).toBe(row?.meaning);
        } else expect(p.code).toBe(p.state === "running" ? 10551382 : 0);
      },
    });
  });
});

describe("request bodies: the codecs accept them and the encoded body obeys the spec", () => {
  it("software: download POST, PATCH bodies and PATCH query flags", () => {
    checkArbitraryQuality(arbSoftwareDownloadPost(), {
      contract: (d) => {
        expect(softwareDownload.encodePost(d)).toEqual(d);
        const url = new URL(d.url);
        expect(["http:", "https:", "ftp:"]).toContain(url.protocol);
        expect(url.pathname.split("/").pop()).toMatch(/\d+\.\d+\.\d+(?:P\d+)?[._]/);
      },
    });
    checkArbitraryQuality(arbSoftwarePatch(), {
      contract: (p) => {
        expect(software.encodePatch(p)).toEqual(p);
        expect((p.version === undefined) !== (p.action === undefined)).toBe(true);
        if (p.version !== undefined) expect(p.version).toMatch(VERSION);
      },
    });
    checkArbitraryQuality(arbSoftwarePatchQuery({ nodes: ["node1", "node2"] }), {
      contract: (q) => {
        const out = software.encodePatchQuery(q);
        if (q.stabilize_minutes !== undefined)
          expect(Number(out["stabilize_minutes"])).toSatisfy((n: number) => n >= 1 && n <= 60);
        if (q.return_timeout !== undefined)
          expect(Number(out["return_timeout"])).toSatisfy((n: number) => n >= 0 && n <= 120);
        if (q.nodes_to_update !== undefined) {
          expect(out["nodes_to_update"]?.split(",")).toEqual([...q.nodes_to_update]);
          expect(new Set(q.nodes_to_update).size).toBe(q.nodes_to_update.length);
          expect(q.nodes_to_update.every((n) => n === "node1" || n === "node2")).toBe(true);
        }
      },
    });
  });
});

describe("StorageClient against the reference server (loopback): random valid bodies", () => {
  let loop: Loopback;
  beforeAll(async () => {
    loop = await startLoopback("arbitraries-Pa55");
  });
  afterAll(() => loop.close());
  const n = propertyRuns(25);

  it("software: a download adds its package (or fails with 2228327 when it exists); estimate-only PATCHes are accepted, actions refused when idle", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(arbSoftwareDownloadPost(), async (d) => {
        const version = /(\d+\.\d+\.\d+(?:P\d+)?)/.exec(new URL(d.url).pathname.split("/").pop()!)![1]!;
        const before = (await client.software.packages.all()).map((p) => p.version);
        if (before.includes(version)) {
          const err = await thrown(() => client.software.download(d));
          expect(err).toBeInstanceOf(StorageJobError);
          expect((err as StorageJobError).code).toBe(2228327);
          return;
        }
        const res = await client.software.download(d);
        expect(res.progress).toMatchObject({ state: "success", code: 0 });
        expect((await client.software.packages.get(version)).version).toBe(version);
        await client.software.packages.delete(version);
      }),
      { numRuns: n },
    );
    const nodes = (INV.nodes ?? []).map((x) => x.name);
    await fc.assert(
      fc.asyncProperty(
        arbSoftwarePatchQuery({ nodes }),
        arbSoftwarePatch({ versions: ["9.15.1", "9.16.1"] }),
        async (q, body) => {
          if (body.action !== undefined) {
            // Pause, resume and cancel act on a running or paused upgrade; none is running here.
            const err = await thrown(() => client.software.update(body));
            expect(err).toBeInstanceOf(StorageApiError);
            expect([(err as StorageApiError).status, (err as StorageApiError).target]).toEqual([409, "action"]);
            return;
          }
          const res = await client.software.update(body, {
            estimateOnly: true,
            ...(q.stabilize_minutes === undefined ? {} : { stabilizeMinutes: q.stabilize_minutes }),
            ...(q.nodes_to_update === undefined ? {} : { nodesToUpdate: q.nodes_to_update }),
            ...(q.skip_warnings === undefined ? {} : { skipWarnings: q.skip_warnings }),
            ...(q.return_timeout === undefined ? {} : { query: { return_timeout: q.return_timeout } }),
          });
          expect(res.job?.state).toBe("success");
          // Estimating changes nothing installed.
          expect((await client.software.get()).version).toBe("9.14.1");
        },
      ),
      { numRuns: n },
    );
  });
});
