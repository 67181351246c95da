// The cluster software's state machine (src/storage/server/software-state.ts) on a manual clock:
// the installed version, package store and history it starts with, an upgrade moving one step per
// `stepMs` (pre-update checks, one step per node, post-update checks), pause and cancel taking
// effect when the running step ends, a node seeded to fail pausing the upgrade once, and the
// profile and package records a GET shows. The HTTP handlers that start and steer an upgrade are
// software.ts; here a subclass sets the same fields they set.
import { describe, expect, it } from "vitest";
import { createManualClock, type ManualClock } from "../../../src/storage/server/clock.js";
import { buildInventory, seedUuid } from "../../../src/storage/server/inventory.js";
import { JobStore } from "../../../src/storage/server/jobs.js";
import type { JsonObject } from "../../../src/storage/server/json.js";
import {
  ACTIVE,
  DEFAULT_SOFTWARE_PACKAGES,
  SoftwareState,
  type SoftwareOptions,
  type Step,
} from "../../../src/storage/server/software-state.js";
import type { ServerState } from "../../../src/storage/server/state.js";

const STEP = 1_000;
const START = Date.parse("2026-01-01T00:00:00Z");

/** The state machine, with the moves software.ts makes and its views readable. */
class Probe extends SoftwareState {
  get current(): string | undefined {
    return this.state;
  }
  get installed(): string {
    return this.version;
  }
  view(): JsonObject {
    return this.profile();
  }
  historyRecords(): JsonObject[] {
    return this.history;
  }
  packageView(version: string): JsonObject | undefined {
    const p = this.packages.get(version);
    return p === undefined ? undefined : this.packageRecord(p);
  }
  /** What software.ts does when an install is accepted. */
  install(to: string, nodes: readonly string[] = ["node1", "node2"]): void {
    const now = this.s.clock.now();
    const step = (phase: string, node: string | undefined, first: boolean): Step => ({
      phase,
      node,
      state: first ? "in_progress" : "waiting",
      start: first ? now : undefined,
      end: undefined,
      issue: undefined,
    });
    this.upgrade = {
      from: this.version,
      to,
      nodes,
      steps: [
        step("Pre-update checks", undefined, true),
        ...nodes.map((n) => step("Data ONTAP updates", n, false)),
        step("Post-update checks", undefined, false),
      ],
      failOnNode: this.packages.get(to)?.failOnNode,
      failedOnce: false,
      progressMs: 0,
      lastAt: now,
      index: 0,
      startedAt: now,
    };
    this.state = "in_progress";
  }
  pause(): void {
    this.state = "pause_pending";
  }
  cancel(): void {
    if (this.state === "paused_by_user" || this.state === "paused_on_error") this.finishCanceled();
    else this.state = "cancel_pending";
  }
  /** What software.ts does on resume. */
  resume(): void {
    this.state = "in_progress";
    const u = this.upgrade;
    if (u === undefined) return;
    u.lastAt = this.s.clock.now();
    const step = u.steps[u.index];
    if (step !== undefined) {
      step.state = "in_progress";
      step.start ??= u.lastAt;
    }
  }
}

function setup(options: SoftwareOptions = {}): { clock: ManualClock; sw: Probe; advance: (ms: number) => void } {
  const clock = createManualClock(START);
  let seq = 0;
  const s: ServerState = { inventory: buildInventory(), jobs: new JobStore(clock, 100), clock, nextSeq: () => ++seq };
  const sw = new Probe(s, { stepMs: STEP, ...options });
  return {
    clock,
    sw,
    advance: (ms) => {
      clock.advance(ms);
      sw.tick();
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: profile members are walked freely and checked by expect()
const steps = (sw: Probe): any[] => sw.view()["update_details"] as any[];
const stepStates = (sw: Probe): string[] => steps(sw).map((s) => s.state);

describe("at rest", () => {
  it("starts at 9.14.1 with the seeded packages and one history record per node", () => {
    const { sw } = setup();
    expect(sw.installed).toBe("9.14.1");
    expect(DEFAULT_SOFTWARE_PACKAGES.map((p) => [p.version, p.checks?.map((c) => c.status)])).toEqual([
      ["9.15.1", ["warning"]],
      ["9.16.1", ["error"]],
    ]);
    expect(sw.packageView("9.15.1")).toEqual({
      version: "9.15.1",
      create_time: "2026-01-01T00:00:00Z",
      _links: { self: { href: "/api/cluster/software/packages/9.15.1" } },
    });
    expect(sw.historyRecords()).toEqual(
      ["node1", "node2"].map((name, i) => ({
        node: { uuid: seedUuid("a", i + 1), name },
        from_version: "9.13.1",
        to_version: "9.14.1",
        state: "successful",
        start_time: "2025-12-02T00:00:00Z",
        end_time: "2025-12-02T01:00:00Z",
      })),
    );
  });

  it("takes the version and packages given; a package's link encodes its version", () => {
    const { sw } = setup({
      version: "9.10.1",
      packages: [{ version: "9.17.1P2/x", create_time: "2025-06-01T00:00:00Z" }],
    });
    expect(sw.installed).toBe("9.10.1");
    expect(sw.packageView("9.15.1")).toBeUndefined();
    expect(sw.packageView("9.17.1P2/x")).toEqual({
      version: "9.17.1P2/x",
      create_time: "2025-06-01T00:00:00Z",
      _links: { self: { href: "/api/cluster/software/packages/9.17.1P2%2Fx" } },
    });
  });

  it("shows a profile with the version, no state and no upgrade, and every node's firmware", () => {
    const { sw } = setup();
    const p = sw.view();
    expect(p).toMatchObject({
      version: "9.14.1",
      elapsed_duration: 0,
      estimated_duration: 0,
      validation_results: [],
      update_details: [],
      status_details: [],
      _links: { self: { href: "/api/cluster/software" } },
    });
    expect(p).not.toHaveProperty("state");
    expect(p).not.toHaveProperty("pending_version");
    expect((p["nodes"] as JsonObject[]).map((n) => [n["name"], n["version"]])).toEqual([
      ["node1", "9.14.1"],
      ["node2", "9.14.1"],
    ]);
    expect(ACTIVE).toEqual([
      "in_progress",
      "waiting",
      "paused_by_user",
      "paused_on_error",
      "pause_pending",
      "cancel_pending",
    ]);
  });

  it("tick does nothing without an upgrade running", () => {
    const { sw, advance } = setup();
    advance(10 * STEP);
    expect(sw.view()).not.toHaveProperty("state");
  });
});

describe("an upgrade", () => {
  it("moves one step per stepMs, each node showing the new version once its step is done", () => {
    const { sw, advance } = setup();
    sw.install("9.15.1");
    expect(sw.view()).toMatchObject({ state: "in_progress", pending_version: "9.15.1", estimated_duration: 4 });
    expect(stepStates(sw)).toEqual(["in_progress", "waiting", "waiting", "waiting"]);
    advance(STEP - 1);
    expect(stepStates(sw)).toEqual(["in_progress", "waiting", "waiting", "waiting"]);
    advance(1);
    expect(stepStates(sw)).toEqual(["completed", "in_progress", "waiting", "waiting"]);
    advance(STEP);
    const nodes = sw.view()["nodes"] as JsonObject[];
    expect(nodes.map((n) => n["version"])).toEqual(["9.15.1", "9.14.1"]);
    expect(sw.view()["elapsed_duration"]).toBe(2);
  });

  it("completes: the new version installed, one history record per node, the steps with their times", () => {
    const { sw, advance } = setup();
    sw.install("9.15.1");
    advance(4 * STEP);
    expect(sw.current).toBe("completed");
    expect(sw.installed).toBe("9.15.1");
    const p = sw.view();
    expect(p).not.toHaveProperty("pending_version");
    expect(stepStates(sw)).toEqual(["completed", "completed", "completed", "completed"]);
    // biome-ignore lint/suspicious/noExplicitAny: checked by expect()
    expect((p["status_details"] as any[]).map((s) => [s.name, s.node.name, s.start_time, s.end_time])).toEqual([
      ["Pre-update checks", "node1", "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z"],
      ["Data ONTAP updates", "node1", "2026-01-01T00:00:01Z", "2026-01-01T00:00:02Z"],
      ["Data ONTAP updates", "node2", "2026-01-01T00:00:02Z", "2026-01-01T00:00:03Z"],
      ["Post-update checks", "node1", "2026-01-01T00:00:03Z", "2026-01-01T00:00:04Z"],
    ]);
    expect(sw.historyRecords().slice(2)).toEqual(
      ["node1", "node2"].map((name, i) => ({
        node: { uuid: seedUuid("a", i + 1), name },
        from_version: "9.14.1",
        to_version: "9.15.1",
        state: "successful",
        start_time: "2026-01-01T00:00:00Z",
        end_time: "2026-01-01T00:00:04Z",
      })),
    );
  });

  it("of some nodes has a step for those nodes only", () => {
    const { sw, advance } = setup();
    sw.install("9.15.1", ["node2"]);
    expect(steps(sw).map((s) => s.node?.name ?? "-")).toEqual(["-", "node2", "-"]);
    advance(3 * STEP);
    expect(
      sw
        .historyRecords()
        .slice(2)
        .map((h) => (h["node"] as JsonObject)["name"]),
    ).toEqual(["node2"]);
  });

  it("pause takes effect when the running step ends: pause_pending, then paused_by_user", () => {
    const { sw, advance } = setup();
    sw.install("9.15.1");
    advance(STEP / 2);
    sw.pause();
    advance(STEP / 2 - 1);
    expect(sw.current).toBe("pause_pending");
    advance(1);
    expect(sw.current).toBe("paused_by_user");
    expect(stepStates(sw)).toEqual(["completed", "waiting", "waiting", "waiting"]);
    expect(sw.view()["pending_version"]).toBe("9.15.1");
    advance(100 * STEP);
    expect(sw.current).toBe("paused_by_user");
    expect(stepStates(sw)).toEqual(["completed", "waiting", "waiting", "waiting"]);
  });

  it("after a resume, the steps left take their full time, however late the pause was noticed", () => {
    const { sw, advance } = setup();
    sw.install("9.15.1");
    sw.pause();
    // The first step ends at 1 s, but no tick comes before 5 s.
    advance(5 * STEP);
    expect(sw.current).toBe("paused_by_user");
    sw.resume();
    advance(STEP - 1);
    expect(stepStates(sw)).toEqual(["completed", "in_progress", "waiting", "waiting"]);
    advance(1);
    expect(stepStates(sw)).toEqual(["completed", "completed", "in_progress", "waiting"]);
    advance(2 * STEP);
    expect(sw.current).toBe("completed");
  });

  it("a step after a pause starts and ends at the times it ran", () => {
    const { sw, advance } = setup();
    sw.install("9.15.1");
    sw.pause();
    advance(STEP);
    advance(9 * STEP);
    sw.resume();
    advance(STEP);
    // biome-ignore lint/suspicious/noExplicitAny: checked by expect()
    const second = (sw.view()["status_details"] as any[])[1];
    expect([second.start_time, second.end_time]).toEqual(["2026-01-01T00:00:10Z", "2026-01-01T00:00:11Z"]);
  });

  it("cancel takes effect when the running step ends; the steps not done are canceled; at once when paused", () => {
    const { sw, advance } = setup();
    sw.install("9.15.1");
    advance(STEP + 10);
    sw.cancel();
    expect(sw.current).toBe("cancel_pending");
    advance(STEP);
    expect(sw.current).toBe("canceled");
    expect(sw.installed).toBe("9.14.1");
    expect(stepStates(sw)).toEqual(["completed", "completed", "canceled", "canceled"]);
    expect(sw.view()).not.toHaveProperty("pending_version");
    // A canceled upgrade shows every node at the installed version.
    expect((sw.view()["nodes"] as JsonObject[]).map((n) => n["version"])).toEqual(["9.14.1", "9.14.1"]);
    expect(
      sw
        .historyRecords()
        .slice(2)
        .map((h) => h["state"]),
    ).toEqual(["canceled", "canceled"]);

    const paused = setup();
    paused.sw.install("9.15.1");
    paused.sw.pause();
    paused.advance(STEP);
    paused.sw.cancel();
    expect(paused.sw.current).toBe("canceled");
  });

  it("a node seeded to fail pauses the upgrade on its step once; a resume retries the step", () => {
    const { sw, advance } = setup({ packages: [{ version: "9.17.1", failOnNode: "node2" }] });
    sw.install("9.17.1");
    advance(3 * STEP);
    expect(sw.current).toBe("paused_on_error");
    expect(stepStates(sw)).toEqual(["completed", "completed", "failed", "waiting"]);
    // biome-ignore lint/suspicious/noExplicitAny: checked by expect()
    const failed = (sw.view()["status_details"] as any[])[2];
    expect(failed.issue).toEqual({ code: 1, message: "Update of node node2 failed; resume to retry." });
    advance(10 * STEP);
    expect(sw.current).toBe("paused_on_error");
    sw.resume();
    advance(STEP);
    expect(stepStates(sw)).toEqual(["completed", "completed", "completed", "in_progress"]);
    // biome-ignore lint/suspicious/noExplicitAny: checked by expect()
    expect((sw.view()["status_details"] as any[])[2].issue).toEqual({ code: 0, message: "" });
    advance(STEP);
    expect([sw.current, sw.installed]).toEqual(["completed", "9.17.1"]);
  });
});
