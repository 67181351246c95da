// Software profile / packages / download / history, jobs, collections, the error
// body and the error-code tables.

import { describe, expect, it } from "vitest";
import {
  PACKAGE_DELETE_ERRORS,
  PACKAGE_TRANSFER_ERRORS,
  PACKAGE_UPLOAD_ERRORS,
  STORAGE_ERROR_CODES,
  StorageApiError,
  apiError,
  cache,
  collection,
  describeErrorCode,
  isTerminalJobState,
  job,
  nvmeNamespace,
  software,
  softwareDownload,
  softwareHistory,
  softwarePackage,
} from "../../../src/storage/index.js";
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
        { update_check: "NFS mounts", status: "warning", issue: { message: "Use NFS hard mounts" }, action: { message: "Remount" } },
      ],
      post_update_checks: [{ update_check: "Cluster health", status: "error", issue: { message: "x" }, action: { message: "y" } }],
      update_details: [
        { phase: "Pre-update checks", state: "in_progress", elapsed_duration: 10, estimated_duration: 600, node: { name: "node1" } },
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
            cluster_fw_progress: [{ job: { uuid: "j", _links: { self: { href: "/api/cluster/jobs/j" } } }, zip_file_name: "fw.zip", update_type: "automated_update" }],
            shelf: { in_progress_count: 0, update_status: "idle" },
            dqp: { revision: "20200101", version: "3.18", file_name: "qual.zip", record_count: { drive: 680, system: 3, device: 29, alias: 200 } },
            sp_bmc: { fw_type: "SP", image: "primary", is_current: true, in_progress: false, percent_done: 100, running_version: "1.2", start_time: "2024-01-01T00:00:00Z", end_time: "2024-01-01T00:00:01Z" },
            disk: { num_waiting_download: 0, total_completion_estimate: 0, average_duration_per_disk: 120, update_status: "idle" },
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
    expectCodecError(() => software.decode({ update_details: [{ elapsed_duration: "10" }] }), "update_details[0].elapsed_duration", /integer/);
    expectCodecError(() => software.decode({ validation_results: [{ issue: "x" }] }), "validation_results[0].issue", /object/);
    expectCodecError(() => software.decode({ nodes: [{ firmware: { dqp: { record_count: { drive: null } } } }] }), "nodes[0].firmware.dqp.record_count.drive", /null/);
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
    expectCodecError(() => software.encodePatch(raw({ metrocluster: { clusters: [{ state: "sleeping" }] } })), "metrocluster", /read-only/);
    // Still decoded with its shape checked.
    expect(software.decode({ metrocluster })).toEqual({ metrocluster });
    expectCodecError(() => software.decode({ metrocluster: { clusters: [{ state: 1 }] } }), "metrocluster.clusters[0].state", /string/);
  });

  it("refuses bad actions, read-only fields and an empty version", () => {
    expectCodecError(() => software.encodePatch(raw({ action: "stop" })), "action", /one of "pause", "cancel", "resume"/);
    for (const key of ["state", "pending_version", "elapsed_duration", "validation_results", "update_details", "status_details", "nodes", "_links"]) {
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
    expect(Object.keys(software.encodePatchQuery({ stabilize_minutes: 1, validate_only: true }))).toEqual(["validate_only", "stabilize_minutes"]);
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
    expectCodecError(() => software.encodePatchQuery(raw({ nodes_to_update: ["a,b"] })), "nodes_to_update[0]", /commas/);
    expectCodecError(() => software.encodePatchQuery(raw({ force: true })), "force", /unknown query parameter/);
  });
});

describe("softwarePackage / softwareHistory", () => {
  it("decodes packages and history records", () => {
    const pkg = { version: "9.16.1", create_time: "2024-01-01T00:00:00+00:00", _links: { self: { href: "/api/cluster/software/packages/9.16.1" } } };
    expect(softwarePackage.decode(pkg)).toEqual(pkg);
    const record = {
      node: { name: "node1", uuid: "n1", _links: { self: { href: "/api/cluster/nodes/n1" } } },
      from_version: "9.15.1",
      to_version: "9.16.1",
      state: "successful",
      start_time: "2024-01-01T00:00:00Z",
      end_time: "2024-01-01T01:00:00Z",
    };
    expect(softwareHistory.decode(record)).toEqual(record);
    expect(softwareHistory.decode({ state: "skip_upgrade" }).state).toBe("skip_upgrade");
    expect(softwareHistory.decode({ state: "something_new" }).state).toBe("something_new");
    expectCodecError(() => softwarePackage.decode({ version: 9 }), "version", /string/);
    expectCodecError(() => softwareHistory.decode({ node: [] }), "node", /object/);
  });
});

describe("softwareDownload", () => {
  it("sends url, username and password", () => {
    expect(softwareDownload.encodePost({ password: "pw", url: "http://server/package.tgz", username: "admin" })).toEqual({
      url: "http://server/package.tgz",
      username: "admin",
      password: "pw",
    });
    expect(softwareDownload.encodePost({ url: "ftp://server/p.tgz" })).toEqual({ url: "ftp://server/p.tgz" });
  });

  it("requires an http, https or ftp url", () => {
    expectCodecError(() => softwareDownload.encodePost(raw({})), "url", /required/);
    expectCodecError(() => softwareDownload.encodePost(raw({ url: "server/p.tgz" })), "url", /absolute/);
    expectCodecError(() => softwareDownload.encodePost(raw({ url: "file:///p.tgz" })), "url", /http, https or ftp/);
    expectCodecError(() => softwareDownload.encodePost(raw({ url: 1 })), "url", /string/);
  });

  it("refuses the progress fields in a POST", () => {
    expectCodecError(() => softwareDownload.encodePost(raw({ url: "http://s/p", state: "running" })), "state", /read-only/);
  });

  it("decodes the progress and drops a password", () => {
    expect(softwareDownload.decode({ state: "running", message: "Package download in progress", code: 10551382 })).toEqual({
      state: "running",
      message: "Package download in progress",
      code: 10551382,
    });
    expect(softwareDownload.decode({ state: "success", password: "leaked" })).toEqual({ state: "success" });
  });
});

describe("job", () => {
  it("decodes a job record; the embedded error code stays a string", () => {
    const json = {
      uuid: "j1",
      description: "POST /api/storage/cache/caches",
      state: "failure",
      message: "failed",
      code: 10551807,
      error: { code: "10551807", message: "more than one file", arguments: [{ code: "1", message: "a" }] },
      start_time: "2024-01-01T00:00:00Z",
      end_time: "2024-01-01T00:00:01Z",
      node: { name: "node1" },
      svm: { name: "vs1", uuid: "s1" },
      _links: { self: { href: "/api/cluster/jobs/j1" } },
    };
    expect(job.decode(json)).toEqual(json);
    expect(job.decode({ error: { code: 42 } }).error).toEqual({ code: "42" });
    expect(job.decode({ state: "cancelled" }).state).toBe("cancelled");
    expectCodecError(() => job.decode({ code: "0" }), "code", /integer/);
    expectCodecError(() => job.decode({ error: { code: true } }), "error.code", /string/);
  });

  it("decodes asynchronous answers and finds the job path", () => {
    const accepted = job.decodeAccepted({ job: { uuid: "j1", _links: { self: { href: "/api/cluster/jobs/j1" } } } });
    expect(job.hrefOf(accepted)).toBe("/api/cluster/jobs/j1");
    expect(job.hrefOf(job.decodeAccepted({ job: { uuid: "j 2" } }))).toBe("/api/cluster/jobs/j%202");
    expect(job.hrefOf(job.decodeAccepted({}))).toBeUndefined();
    const bulk = job.decodeAccepted({ num_records: 2, jobs: [{ uuid: "a" }, { uuid: "b" }] });
    expect(bulk.jobs?.length).toBe(2);
    expect(job.decodeAccepted({ num_records: 1, records: [{ uuid: "x" }] })).toEqual({ num_records: 1, records: [{ uuid: "x" }] });
    expectCodecError(() => job.decodeAccepted({ job: "j1" }), "job", /object/);
  });

  it("knows the terminal states", () => {
    expect(isTerminalJobState("success")).toBe(true);
    expect(isTerminalJobState("failure")).toBe(true);
    for (const s of ["queued", "running", "paused", undefined]) expect(isTerminalJobState(s)).toBe(false);
  });
});

describe("collection", () => {
  it("decodes records with the item codec and keeps num_records and _links.next", () => {
    const json = {
      records: [
        { uuid: "c1", name: "cache1", _links: { self: { href: "/api/storage/cache/caches/c1" } } },
        { uuid: "c2", name: "cache2", _links: { self: { href: "/api/storage/cache/caches/c2" } } },
      ],
      num_records: 2,
      _links: {
        self: { href: "/api/storage/cache/caches?max_records=2" },
        next: { href: "/api/storage/cache/caches?start.uuid=c2&max_records=2" },
      },
    };
    const page = collection.decode(json, cache);
    expect(page).toEqual(json);
    expect(collection.nextHref(page)).toBe("/api/storage/cache/caches?start.uuid=c2&max_records=2");
    expect(collection.nextHref(collection.decode({ records: [], num_records: 0 }, cache))).toBeUndefined();
  });

  it("keeps a count-only answer without inventing records", () => {
    expect(collection.decode({ num_records: 7 }, cache)).toEqual({ num_records: 7 });
  });

  it("reports errors inside records with records[i].<field>", () => {
    expectCodecError(() => collection.decode({ records: [{}, { space: { size: "x" } }] }, nvmeNamespace), "records[1].space.size", /integer/);
    expectCodecError(() => collection.decode({ records: [1] }, cache), "records[0]", /object/);
    expectCodecError(() => collection.decode({ records: {} }, cache), "records", /array/);
    expectCodecError(() => collection.decode({ num_records: "2" }, cache), "num_records", /integer/);
    expectCodecError(() => collection.decode({ _links: { next: { href: 3 } } }, cache), "_links.next.href", /string/);
    expectCodecError(() => collection.decode([], cache), "", /object/);
  });
});

describe("apiError", () => {
  it("decodes the error body", () => {
    const json = { error: { message: "entry doesn't exist", code: "4", target: "uuid", arguments: [{ code: "4", message: "x" }] } };
    expect(apiError.decode(json)).toEqual(json);
    expect(apiError.decode({ error: { message: "m", code: 262197 } })).toEqual({ error: { message: "m", code: "262197" } });
    expectCodecError(() => apiError.decode({}), "error", /required/);
    expectCodecError(() => apiError.decode({ error: "boom" }), "error", /object/);
    expectCodecError(() => apiError.decode({ error: { target: 1 } }), "error.target", /string/);
  });

  it("builds a StorageApiError", () => {
    const error = apiError.toStorageApiError(
      { error: { message: "The request contains more than one file", code: "10551807", target: "file" } },
      { status: 400, request: "POST /api/cluster/software/upload" },
    );
    expect(error).toBeInstanceOf(StorageApiError);
    expect(error).toMatchObject({ status: 400, code: "10551807", apiMessage: "The request contains more than one file", target: "file" });
    const fallback = apiError.toStorageApiError("<html>", { status: 502, request: "GET /api/x", statusText: "Bad Gateway" });
    expect(fallback).toMatchObject({ status: 502, code: "", apiMessage: "Bad Gateway" });
  });
});

describe("error-code tables", () => {
  it("has every code of the spec tables with its meaning", () => {
    expect(Object.keys(PACKAGE_TRANSFER_ERRORS)).toHaveLength(11);
    expect(Object.keys(PACKAGE_UPLOAD_ERRORS)).toHaveLength(9);
    expect(Object.keys(PACKAGE_DELETE_ERRORS)).toHaveLength(10);
    expect(STORAGE_ERROR_CODES.size).toBe(30);
    expect(PACKAGE_UPLOAD_ERRORS.MULTIPLE_FILES.code).toBe(10551807);
    expect(PACKAGE_DELETE_ERRORS.PACKAGE_NOT_FOUND).toEqual({ code: 10551325, meaning: "Package does not exist on the system." });
    expect(PACKAGE_TRANSFER_ERRORS.REMOTE_ZIP_ACCESS_FAILED.code).toBe(2228324);
    const codes = [
      2228324, 2228325, 2228326, 2228327, 2228328, 2228329, 2228330, 2228331, 2228428, 2228429, 10551797,
      10551798, 10551800, 10551801, 10551802, 10551803, 10551804, 10551805, 10551806, 10551807,
      10551315, 10551322, 10551323, 10551324, 10551325, 10551326, 10551346, 10551347, 10551367, 10551388,
    ];
    expect([...STORAGE_ERROR_CODES.keys()]).toEqual(codes);
  });

  it("looks codes up in integer and string form", () => {
    expect(describeErrorCode(10551807)).toEqual({
      code: 10551807,
      name: "MULTIPLE_FILES",
      meaning: "The request contains more than one file; only a single file is supported.",
      table: "package_upload",
    });
    expect(describeErrorCode("10551347")?.name).toBe("UPDATE_IN_PROGRESS");
    expect(describeErrorCode("2228429")?.table).toBe("package_transfer");
    expect(describeErrorCode(4)).toBeUndefined();
    expect(describeErrorCode("x")).toBeUndefined();
    expect(describeErrorCode(" 10551807")).toBeUndefined();
  });
});
