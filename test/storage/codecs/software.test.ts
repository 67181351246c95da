// The software profile codec (src/storage/codecs/software.ts): profile, PATCH body and query.

import { describe, expect, it } from "vitest";
import { software } from "../../../src/storage/index.js";
import { expectCodecError, raw } from "../../support/storage/codecs-helpers.js";

describe("software.decode", () => {
  it("decodes a profile in the middle of an upgrade", () => {
    const json = {
      version: "9.15.1",
      pending_version: "9.16.1",
      state: "in_progress",
      action: "pause",
      elapsed_duration: 120,
      estimated_duration: 5400,
      validation_results: [
        {
          update_check: "NFS mounts",
          status: "warning",
          issue: { message: "Use NFS hard mounts" },
          action: { message: "Remount" },
        },
      ],
      post_update_checks: [
        { update_check: "Cluster health", status: "error", issue: { message: "x" }, action: { message: "y" } },
      ],
      update_details: [
        {
          phase: "Pre-update checks",
          state: "in_progress",
          elapsed_duration: 10,
          estimated_duration: 600,
          node: { name: "node1" },
        },
        { phase: "Data ONTAP updates", state: "waiting", elapsed_duration: 0, estimated_duration: 3600 },
      ],
      status_details: [
        {
          name: "do-download-job",
          state: "completed",
          start_time: "2024-01-01T00:00:00Z",
          end_time: "2024-01-01T00:10:00Z",
          node: { name: "node1" },
          issue: { code: 0, message: "Image update complete" },
        },
      ],
      nodes: [
        {
          version: "9.15.1",
          firmware: {
            cluster_fw_progress: [
              {
                job: { uuid: "j", _links: { self: { href: "/api/cluster/jobs/j" } } },
                zip_file_name: "fw.zip",
                update_type: "automated_update",
              },
            ],
            shelf: { in_progress_count: 0, update_status: "idle" },
            dqp: {
              revision: "20200101",
              version: "3.18",
              file_name: "qual.zip",
              record_count: { drive: 680, system: 3, device: 29, alias: 200 },
            },
            sp_bmc: {
              fw_type: "SP",
              image: "primary",
              is_current: true,
              in_progress: false,
              percent_done: 100,
              running_version: "1.2",
              start_time: "2024-01-01T00:00:00Z",
              end_time: "2024-01-01T00:00:01Z",
            },
            disk: {
              num_waiting_download: 0,
              total_completion_estimate: 0,
              average_duration_per_disk: 120,
              update_status: "idle",
            },
          },
        },
      ],
      metrocluster: {
        progress_summary: { message: "Update in progress" },
        progress_details: { message: "Switchover" },
        clusters: [{ name: "cluster_A", state: "waiting", estimated_duration: 3480, elapsed_duration: 0 }],
      },
      _links: { self: { href: "/api/cluster/software" } },
    };
    expect(software.decode(json)).toEqual(json);
  });

  it("keeps states a newer server adds and refuses wrong shapes", () => {
    expect(software.decode({ state: "rolling_back" }).state).toBe("rolling_back");
    expectCodecError(
      () => software.decode({ update_details: [{ elapsed_duration: "10" }] }),
      "update_details[0].elapsed_duration",
      /integer/,
    );
    expectCodecError(
      () => software.decode({ validation_results: [{ issue: "x" }] }),
      "validation_results[0].issue",
      /object/,
    );
    expectCodecError(
      () => software.decode({ nodes: [{ firmware: { dqp: { record_count: { drive: null } } } }] }),
      "nodes[0].firmware.dqp.record_count.drive",
      /null/,
    );
  });
});

describe("software.encodePatch", () => {
  it("sends version and action", () => {
    expect(software.encodePatch({ version: "9.16.1" })).toEqual({ version: "9.16.1" });
    expect(software.encodePatch({ action: "pause" })).toEqual({ action: "pause" });
    expect(software.encodePatch({})).toEqual({});
  });

  it("refuses metrocluster in PATCH: it is reported progress, read-only (decision in software.ts; the server agrees)", () => {
    const metrocluster = { clusters: [{ name: "cluster_A", state: "waiting" }] };
    expectCodecError(() => software.encodePatch(raw({ version: "9.16.1", metrocluster })), "metrocluster", /read-only/);
    expectCodecError(
      () => software.encodePatch(raw({ metrocluster: { clusters: [{ state: "sleeping" }] } })),
      "metrocluster",
      /read-only/,
    );
    // Still decoded with its shape checked.
    expect(software.decode({ metrocluster })).toEqual({ metrocluster });
    expectCodecError(
      () => software.decode({ metrocluster: { clusters: [{ state: 1 }] } }),
      "metrocluster.clusters[0].state",
      /string/,
    );
  });

  it("refuses bad actions, read-only fields and an empty version", () => {
    expectCodecError(
      () => software.encodePatch(raw({ action: "stop" })),
      "action",
      /one of "pause", "cancel", "resume"/,
    );
    for (const key of [
      "state",
      "pending_version",
      "elapsed_duration",
      "validation_results",
      "update_details",
      "status_details",
      "nodes",
      "_links",
    ]) {
      expectCodecError(() => software.encodePatch(raw({ [key]: 1 })), key, /read-only/);
    }
    expectCodecError(() => software.encodePatch(raw({ version: "" })), "version", /empty/);
    expectCodecError(() => software.encodePatch(raw({ validate_only: true })), "validate_only", /unknown field/);
  });
});

describe("software.encodePatchQuery", () => {
  it("writes the query parameters as strings in a fixed order", () => {
    expect(
      software.encodePatchQuery({
        return_timeout: 0,
        nodes_to_update: ["node1", "node2"],
        estimate_only: false,
        stabilize_minutes: 8,
        action: "resume",
        skip_warnings: true,
        validate_only: true,
      }),
    ).toEqual({
      validate_only: "true",
      skip_warnings: "true",
      action: "resume",
      stabilize_minutes: "8",
      estimate_only: "false",
      nodes_to_update: "node1,node2",
      return_timeout: "0",
    });
    expect(Object.keys(software.encodePatchQuery({ stabilize_minutes: 1, validate_only: true }))).toEqual([
      "validate_only",
      "stabilize_minutes",
    ]);
  });

  it.each([0, 61, 1.5, -1])("refuses stabilize_minutes %d (1..60)", (n) => {
    expectCodecError(() => software.encodePatchQuery({ stabilize_minutes: n }), "stabilize_minutes", /from 1 to 60/);
  });

  it("accepts stabilize_minutes 1 and 60", () => {
    expect(software.encodePatchQuery({ stabilize_minutes: 1 })).toEqual({ stabilize_minutes: "1" });
    expect(software.encodePatchQuery({ stabilize_minutes: 60 })).toEqual({ stabilize_minutes: "60" });
  });

  it("refuses bad values and unknown parameters", () => {
    expectCodecError(() => software.encodePatchQuery(raw({ action: "abort" })), "action", /one of/);
    expectCodecError(() => software.encodePatchQuery(raw({ validate_only: "true" })), "validate_only", /boolean/);
    expectCodecError(() => software.encodePatchQuery(raw({ return_timeout: 121 })), "return_timeout", /0 to 120/);
    expectCodecError(() => software.encodePatchQuery(raw({ nodes_to_update: [] })), "nodes_to_update", /non-empty/);
    expectCodecError(
      () => software.encodePatchQuery(raw({ nodes_to_update: ["a,b"] })),
      "nodes_to_update[0]",
      /commas/,
    );
    expectCodecError(() => software.encodePatchQuery(raw({ force: true })), "force", /unknown query parameter/);
  });
});
