// The software profile state machine, packages, download, upload and history.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorOf, start, type Harness } from "../../support/storage/server-harness.js";

let h: Harness;
beforeEach(async () => {
  h = await start({
    jobDurationMs: 500,
    software: {
      version: "9.14.1",
      stepMs: 10_000,
      packages: [
        {
          version: "9.15.1",
          checks: [{ update_check: "Manual checks", status: "warning", issue: "Check it.", action: "Do it." }],
        },
        { version: "9.16.1", checks: [{ update_check: "Disk status", status: "error", issue: "Broken disks." }] },
        { version: "9.17.1", failOnNode: "node2" },
      ],
    },
  });
});
afterEach(async () => {
  await h.close();
});
const SW = "/api/cluster/software";
const profile = async () => (await h.call("GET", SW)).body;

describe("software profile", () => {
  it("validates with warnings and errors, then installs with skip_warnings", async () => {
    expect((await profile()).version).toBe("9.14.1");
    expect((await h.call("PATCH", SW, { version: "9.15.1" })).status).toBe(409); // not validated
    const bad = await h.call("PATCH", `${SW}?validate_only=true`, { version: "9.16.1" });
    expect(bad.status).toBe(202);
    const badJob = await h.finish(bad.body.job._links.self.href);
    expect(badJob.state).toBe("failure");
    expect(await profile()).toMatchObject({
      state: "failed",
      validation_results: [{ update_check: "Disk status", status: "error", issue: { message: "Broken disks." } }],
    });
    expect((await h.call("PATCH", SW, { version: "9.16.1" }, {})).status).toBe(409);

    const v = await h.call("PATCH", `${SW}?validate_only=true&return_timeout=5`, { version: "9.15.1" });
    expect(v.status).toBe(200);
    expect(await profile()).toMatchObject({
      state: "completed",
      validation_results: [{ status: "warning", action: { message: "Do it." } }],
    });
    const noSkip = await h.call("PATCH", SW, { version: "9.15.1" });
    expect(errorOf(noSkip).target).toBe("skip_warnings");
    const go = await h.call("PATCH", `${SW}?skip_warnings=true&stabilize_minutes=8`, { version: "9.15.1" });
    expect(go.status).toBe(202);
    let p = await profile();
    expect(p).toMatchObject({
      state: "in_progress",
      pending_version: "9.15.1",
      version: "9.14.1",
      estimated_duration: 40,
    });
    expect(p.update_details.map((d: { phase: string }) => d.phase)).toEqual([
      "Pre-update checks",
      "Data ONTAP updates",
      "Data ONTAP updates",
      "Post-update checks",
    ]);
    expect(p.update_details[1].node).toEqual({ name: "node1" });
    expect(p.status_details[0]).toMatchObject({ name: "Pre-update checks", state: "in_progress" });
    h.clock.advance(15_000);
    p = await profile();
    expect(p.update_details[0].state).toBe("completed");
    expect(p.status_details[0]).toMatchObject({ state: "completed", end_time: expect.any(String) });
    expect(p.elapsed_duration).toBe(15);
    h.clock.advance(30_000);
    p = await profile();
    expect(p).toMatchObject({ state: "completed", version: "9.15.1" });
    expect(p.pending_version).toBeUndefined();
    expect(p.nodes.map((n: { version: string }) => n.version)).toEqual(["9.15.1", "9.15.1"]);
    const hist = await h.call("GET", `${SW}/history?to_version=9.15.1`);
    expect(hist.body.num_records).toBe(2);
    expect(hist.body.records[0]).toMatchObject({
      from_version: "9.14.1",
      to_version: "9.15.1",
      state: "successful",
      node: { name: "node1" },
    });
    expect(hist.body.records[0]._links).toBeUndefined();
  });

  it("pauses (pause_pending → paused_by_user), resumes only when paused, and cancels", async () => {
    await h.finish(
      (await h.call("PATCH", `${SW}?validate_only=true`, { version: "9.15.1" })).body.job._links.self.href,
    );
    expect((await h.call("PATCH", `${SW}?action=resume`)).status).toBe(409);
    await h.call("PATCH", `${SW}?skip_warnings=true`, { version: "9.15.1" });
    const pause = await h.call("PATCH", SW, { action: "pause" });
    expect(pause.status).toBe(202);
    expect((await profile()).state).toBe("pause_pending");
    expect((await h.call("PATCH", `${SW}?action=resume`)).status).toBe(409);
    h.clock.advance(10_000);
    let p = await profile();
    expect(p.state).toBe("paused_by_user");
    const frozen = p.elapsed_duration;
    h.clock.advance(60_000);
    expect((await profile()).elapsed_duration).toBe(frozen);
    expect((await h.call("PATCH", `${SW}?action=resume`)).status).toBe(202);
    expect((await profile()).state).toBe("in_progress");
    expect((await h.call("PATCH", SW, { action: "cancel" })).status).toBe(202);
    expect((await profile()).state).toBe("cancel_pending");
    h.clock.advance(10_000);
    p = await profile();
    expect(p.state).toBe("canceled");
    expect(p.version).toBe("9.14.1");
    expect((await h.call("GET", `${SW}/history?state=canceled`)).body.num_records).toBe(2);
    expect(errorOf(await h.call("PATCH", `${SW}?action=stop`)).target).toBe("action");
    expect(errorOf(await h.call("PATCH", `${SW}?stabilize_minutes=61`, { version: "9.15.1" })).code).toBe("262197");
    expect(errorOf(await h.call("PATCH", SW, { version: "9.15.1", action: "pause" })).target).toBe("action");
    expect(errorOf(await h.call("PATCH", SW, { state: "completed" })).code).toBe("262196");
  });

  it("pauses on error at a failing node and resumes", async () => {
    await h.finish(
      (await h.call("PATCH", `${SW}?validate_only=true`, { version: "9.17.1" })).body.job._links.self.href,
    );
    await h.call("PATCH", SW, { version: "9.17.1" });
    h.clock.advance(35_000);
    let p = await profile();
    expect(p.state).toBe("paused_on_error");
    expect(p.status_details.find((d: { node: { name: string } }) => d.node.name === "node2")).toMatchObject({
      state: "failed",
      issue: { message: expect.stringContaining("node2") },
    });
    await h.call("PATCH", `${SW}?action=resume`);
    h.clock.advance(25_000);
    p = await profile();
    expect(p).toMatchObject({ state: "completed", version: "9.17.1" });
  });
});

describe("packages, download, upload", () => {
  it("lists, reads and deletes packages through jobs", async () => {
    const list = await h.call("GET", `${SW}/packages`);
    expect(list.body.records).toEqual([
      { version: "9.15.1", _links: { self: { href: `${SW}/packages/9.15.1` } } },
      { version: "9.16.1", _links: { self: { href: `${SW}/packages/9.16.1` } } },
      { version: "9.17.1", _links: { self: { href: `${SW}/packages/9.17.1` } } },
    ]);
    const one = await h.call("GET", `${SW}/packages/9.15.1`);
    expect(one.body).toMatchObject({ version: "9.15.1", create_time: expect.any(String) });
    const d = await h.call("DELETE", `${SW}/packages/9.16.1`);
    expect(d.status).toBe(202);
    await h.finish(d.body.job._links.self.href);
    expect((await h.call("GET", `${SW}/packages/9.16.1`)).status).toBe(404);
    expect(errorOf(await h.call("DELETE", `${SW}/packages/1.0`)).code).toBe("10551325");
    await h.call("PATCH", `${SW}?validate_only=true`, { version: "9.15.1" });
    expect(errorOf(await h.call("DELETE", `${SW}/packages/9.15.1`)).code).toBe("10551346");
  });

  it("downloads through a job with progress at GET download", async () => {
    expect((await h.call("GET", `${SW}/download`)).body.state).toBe("not_started");
    expect(errorOf(await h.call("POST", `${SW}/download`, {})).target).toBe("url");
    expect(errorOf(await h.call("POST", `${SW}/download`, { url: "file:///etc/passwd" })).target).toBe("url");
    const r = await h.call("POST", `${SW}/download`, {
      url: "https://repo.example/images/9.18.1_q_image.tgz",
      username: "u",
      password: "remote-secret",
    });
    expect(r.status).toBe(202);
    expect((await h.call("GET", `${SW}/download`)).body).toEqual({
      state: "running",
      message: "Package download in progress",
      code: 10551382,
    });
    await h.finish(r.body.job._links.self.href);
    expect((await h.call("GET", `${SW}/download`)).body.state).toBe("success");
    expect((await h.call("GET", `${SW}/packages/9.18.1`)).status).toBe(200);
    const again = await h.call("POST", `${SW}/download`, { url: "https://repo.example/images/9.18.1_q_image.tgz" });
    const job = await h.finish(again.body.job._links.self.href);
    expect(job).toMatchObject({ state: "failure", code: 2228327 });
    expect((await h.call("GET", `${SW}/download`)).body).toMatchObject({ state: "failure", code: 2228327 });
  });

  it("uploads a single file; several files give 10551807", async () => {
    const part = (name: string, filename: string) =>
      `--XYZ\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\nBINARY\r\n`;
    const send = (parts: string) =>
      h.call("POST", `${SW}/upload`, undefined, {
        raw: `${parts}--XYZ--\r\n`,
        headers: { "content-type": "multipart/form-data; boundary=XYZ" },
      });
    const two = await send(part("file", "9.19.1_image.tgz") + part("file2", "9.19.2_image.tgz"));
    expect(two.status).toBe(400);
    expect(errorOf(two).code).toBe("10551807");
    expect(errorOf(await send("")).code).toBe("2");
    const one = await send(part("file", "9.19.1_image.tgz"));
    expect(one.status).toBe(202);
    await h.finish(one.body.job._links.self.href);
    expect((await h.call("GET", `${SW}/packages/9.19.1`)).status).toBe(200);
    const notMultipart = await h.call("POST", `${SW}/upload`, { file: "x" });
    expect(notMultipart.status).toBe(400);
  });
});
