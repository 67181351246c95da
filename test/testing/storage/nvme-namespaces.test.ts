// The storage arbitraries of clusterwire/testing for NVMe namespaces (src/testing/storage/nvme-namespaces.ts): each is
// deterministic per seed, stays within its contract and shrinks within it (../quality.ts); spec.ts
// holds the tests' own reading of the spec.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nvmeNamespace, type NvmeNamespacePatchInput } from "../../../src/storage/index.js";
import {
  arbNvmeNamespaceModel,
  arbNvmeNamespacePatch,
  arbNvmeNamespacePost,
} from "../../../src/testing/storage/index.js";
import { startLoopback, type Loopback } from "../../support/storage/integration-harness.js";
import { checkArbitraryQuality } from "../quality.js";
import { propertyRuns } from "../../support/property-runs.js";
import {
  GiB,
  TiB,
  INV,
  T,
  bytesOf,
  plain,
  keysOf,
  decodesUnchanged,
  lookup,
  volumesOfSvm,
  content,
  placementOf,
  checkNamespacePost,
} from "./spec.js";

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("arbNvmeNamespaceModel", () => {
    checkArbitraryQuality(arbNvmeNamespaceModel(), {
      runs: 100,
      shrinkSeeds: [1], // a large model: one shrink run is evidence enough and keeps CI fast
      contract: (n) => {
        decodesUnchanged(nvmeNamespace.decode, n);
        expect(n.name).toMatch(/^\/vol\/[^/]+\/(?:[^/]+\/)?[^/]+$/);
        const loc = n.location;
        if (loc !== undefined) {
          const qtree = loc.qtree === undefined ? "" : `/${loc.qtree.name}`;
          expect(n.name).toBe(`/vol/${loc.volume?.name}${qtree}/${loc.namespace}`);
        }
        const space = n.space;
        if (space !== undefined) {
          expect(space.size! >= 4096 && space.size! <= 128 * TiB).toBe(true);
          expect(space.used!).toBeLessThanOrEqual(space.size!);
          expect([512, 4096]).toContain(space.block_size);
        }
        if (n.comment !== undefined) expect(n.comment.length).toBeLessThanOrEqual(254);
        if (n._links !== undefined) expect(n._links.self?.href).toBe(`/api/storage/namespaces/${n.uuid}`);
      },
    });
  });
});

describe("request bodies: the codecs accept them and the encoded body obeys the spec", () => {
  it("NVMe namespaces: create, clone and convert POSTs, and PATCH", () => {
    checkArbitraryQuality(arbNvmeNamespacePost(), { runs: 100, contract: (v) => checkNamespacePost(v, false) });
    checkArbitraryQuality(arbNvmeNamespacePost(T), { runs: 100, contract: (v) => checkNamespacePost(v, true) });
    const kinds = fc
      .sample(arbNvmeNamespacePost(), { seed: 2, numRuns: 300 })
      .map((v) => (v.clone ? "clone" : v.convert ? "convert" : "create"));
    expect(new Set(kinds)).toEqual(new Set(["create", "clone", "convert"]));
    expect(fc.sample(arbNvmeNamespacePost(T), { seed: 2, numRuns: 300 }).some((v) => v.convert !== undefined)).toBe(
      true,
    );
    expect(
      fc
        .sample(arbNvmeNamespacePost({ ...T, kinds: ["create"] }), { seed: 2, numRuns: 100 })
        .every((v) => v.os_type !== undefined),
    ).toBe(true);
    expect(() => arbNvmeNamespacePost({ ...T, kinds: ["clone"] })).toThrow(/clone/);
    checkArbitraryQuality(arbNvmeNamespacePatch(), {
      contract: (p) => {
        const body = nvmeNamespace.encodePatch(p);
        expect(keysOf(body).length).toBeGreaterThan(0);
        for (const k of ["name", "location", "os_type", "convert"]) expect(body).not.toHaveProperty(k);
        expect(p.space !== undefined && p.clone !== undefined).toBe(false);
        if (p.space?.size !== undefined) expect(body["space"]).toEqual({ size: bytesOf(p.space.size) });
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

  it("NVMe namespaces: GET shows the full name, location, os_type, size and block_size default; clones inherit; PATCH comment, auto_delete and growth", async () => {
    const { client } = loop;
    await fc.assert(
      fc.asyncProperty(
        arbNvmeNamespacePost({ ...T, kinds: ["create"] }),
        arbNvmeNamespacePatch(),
        fc.boolean(),
        fc.constantFrom("uuid", "name", "snapshot"),
        async (post, patch, echo, cloneBy) => {
          const created = await client.nvmeNamespaces.create(post, { query: { return_records: echo } });
          let uuid = created.record!.uuid!;
          let cloneUuid: string | undefined;
          try {
            const svm = lookup(INV.svms, post.svm);
            const where = placementOf(post);
            const vol = lookup(volumesOfSvm(svm.name), post.location?.volume ?? { name: where.volume! });
            const size = bytesOf(post.space!.size!);
            const got = await client.nvmeNamespaces.get(uuid, { fields: "**" });
            expect(got).toMatchObject({
              name: `/vol/${vol.name}${where.qtree === undefined ? "" : `/${where.qtree}`}/${where.base}`,
              svm: { uuid: svm.uuid, name: svm.name },
              location: { volume: { uuid: vol.uuid, name: vol.name }, namespace: where.base },
              os_type: post.os_type,
              space: { size, block_size: post.space?.block_size ?? (post.os_type === "vmware" ? 512 : 4096) },
              enabled: true,
              auto_delete: post.auto_delete ?? false,
              ...(post.comment === undefined ? {} : { comment: post.comment }),
            });
            expect(got.location?.qtree?.name).toBe(where.qtree);
            // The POST answer: the record without the expensive fields (with return_records), else its keys.
            const plainGet = await client.nvmeNamespaces.get(uuid);
            if (echo) expect(created.record).toEqual(plainGet);
            else expect(plainGet).toMatchObject(created.record!);

            // Sent raw, the server's block_size default and Size reading give the same namespace.
            await client.nvmeNamespaces.delete(uuid);
            uuid = (await loop.raw.nvmeNamespaces.create(post)).record!.uuid!;
            expect(content(await client.nvmeNamespaces.get(uuid, { fields: "**" }))).toEqual(content(got));

            // A clone in the same volume takes os_type, size and block_size from its source.
            const inVolume = got.name!.slice(`/vol/${vol.name}/`.length);
            const source =
              cloneBy === "uuid"
                ? { uuid }
                : { name: cloneBy === "name" ? got.name! : `/vol/${vol.name}/.snapshot/daily.0/${inVolume}` };
            cloneUuid = (
              await client.nvmeNamespaces.create({
                svm: post.svm,
                name: `/vol/${vol.name}/${where.base}_clone`,
                clone: { source },
              })
            ).record!.uuid!;
            expect(await client.nvmeNamespaces.get(cloneUuid)).toMatchObject({
              name: `/vol/${vol.name}/${where.base}_clone`,
              os_type: got.os_type,
              space: { size: got.space?.size, block_size: got.space?.block_size },
            });

            // Namespaces only grow, and svm/clone need this namespace's own volume: keep the rest.
            const grow = patch.space?.size === undefined ? undefined : Math.max(size, bytesOf(patch.space.size));
            const p = {
              comment: patch.comment,
              auto_delete: patch.auto_delete,
              ...(grow === undefined ? {} : { space: { size: grow } }),
            };
            await client.nvmeNamespaces.update(uuid, plain<NvmeNamespacePatchInput>(p));
            expect(await client.nvmeNamespaces.get(uuid, { fields: "comment,auto_delete,space.size" })).toMatchObject({
              ...(p.comment === undefined
                ? post.comment === undefined
                  ? {}
                  : { comment: post.comment }
                : { comment: p.comment }),
              auto_delete: p.auto_delete ?? post.auto_delete ?? false,
              space: { size: grow ?? size },
            });
          } finally {
            await client.nvmeNamespaces.delete(uuid);
            if (cloneUuid !== undefined) await client.nvmeNamespaces.delete(cloneUuid);
          }
        },
      ),
      { numRuns: n },
    );
  });

  it("NVMe namespaces: converting any convertible LUN of the inventory gives its path, os_type and size, and uses the LUN up", async () => {
    const inventory = {
      ...INV,
      luns: [
        {
          name: "/vol/vol1/lun_db",
          uuid: "00000000-0000-4000-8000-e00000000011",
          svm: "svm1",
          os_type: "linux",
          size: GiB,
        },
        {
          name: "/vol/vol1/q1/esx",
          uuid: "00000000-0000-4000-8000-e00000000012",
          svm: "svm1",
          os_type: "vmware",
          size: 2 * GiB,
        },
        { name: "/vol/vol3/win", svm: "svm2", os_type: "windows", size: 512 * 1024 ** 2 },
        // Never chosen: mapped, bound, or an os_type namespaces do not have.
        { name: "/vol/vol1/lun_mapped", svm: "svm1", os_type: "linux", size: GiB, mapped: true },
        { name: "/vol/vol1/lun_vvol", svm: "svm1", os_type: "linux", size: GiB, vvol_bound: true },
        { name: "/vol/vol1/lun_hyperv", svm: "svm1", os_type: "hyper_v", size: GiB },
      ],
    };
    await fc.assert(
      fc.asyncProperty(arbNvmeNamespacePost({ targets: inventory, kinds: ["convert"] }), async (post) => {
        const lun = lookup(inventory.luns, post.convert!.lun);
        const own = await startLoopback("convert-Pa55", { inventory });
        try {
          const created = await own.client.nvmeNamespaces.create(post);
          expect(await own.client.nvmeNamespaces.get(created.record!.uuid!, { fields: "**" })).toMatchObject({
            name: lun.name,
            svm: { name: lun.svm },
            os_type: lun.os_type,
            space: { size: lun.size, block_size: lun.os_type === "vmware" ? 512 : 4096 },
            auto_delete: post.auto_delete ?? false,
            ...(post.comment === undefined ? {} : { comment: post.comment }),
          });
          const luns =
            (await own.client.request<{ records: { name: string }[] }>("GET", "/api/storage/luns"))?.records ?? [];
          expect(luns.map((l) => l.name)).not.toContain(lun.name);
        } finally {
          await own.close();
        }
      }),
      { numRuns: propertyRuns(10) },
    );
  });
});
