// Asynchronous jobs at /api/cluster/jobs/<uuid>, as the REST conventions define them: states queued →
// running → success | failure, driven by the server clock. The work of a job (e.g. making
// a cache visible) runs when the job completes; an HttpError thrown by the work turns
// the job into a failure with that code and message. Jobs vanish 300 s after ending.

import { randomUUID } from "node:crypto";
import type { ServerClock } from "./clock.js";
import { isoTime } from "./clock.js";
import { HttpError } from "./errors.js";
import type { JsonObject } from "./json.js";

export type JobState = "queued" | "running" | "success" | "failure";

export const JOB_RETENTION_MS = 300_000;

interface Job {
  readonly uuid: string;
  readonly description: string;
  readonly created: number;
  readonly due: number;
  readonly work: () => void;
  readonly svm: JsonObject | undefined;
  state: JobState;
  message: string;
  code: number;
  error: { code: string; message: string } | undefined;
  ended: number | undefined;
}

export interface JobHandle {
  readonly uuid: string;
}

export class JobStore {
  private readonly jobs = new Map<string, Job>();

  constructor(
    private readonly clock: ServerClock,
    private readonly durationMs: number,
  ) {}

  /** Starts a job; `work` runs when it completes (after `durationMs`, or the job's own). */
  create(description: string, work: () => void, options: { durationMs?: number; svm?: JsonObject } = {}): JobHandle {
    const now = this.clock.now();
    const uuid = randomUUID();
    this.jobs.set(uuid, {
      uuid,
      description,
      created: now,
      due: now + Math.max(0, options.durationMs ?? this.durationMs),
      work,
      svm: options.svm,
      state: "queued",
      message: "Queued",
      code: 0,
      error: undefined,
      ended: undefined,
    });
    return { uuid };
  }

  /** Moves every job along to the current time, completing due jobs in due order. */
  tick(): void {
    const now = this.clock.now();
    const pending = [...this.jobs.values()]
      .filter((j) => j.state === "queued" || j.state === "running")
      .sort((a, b) => a.due - b.due);
    for (const job of pending) {
      if (now >= job.due) this.complete(job);
      else if (now >= job.created + (job.due - job.created) / 5) {
        job.state = "running";
        job.message = "Running";
      }
    }
    for (const job of [...this.jobs.values()]) {
      if (job.ended !== undefined && now >= job.ended + JOB_RETENTION_MS) this.jobs.delete(job.uuid);
    }
  }

  private complete(job: Job): void {
    try {
      job.work();
      job.state = "success";
      job.message = "success";
      job.code = 0;
    } catch (e) {
      const err = e instanceof HttpError ? e : new HttpError(500, "1", "Internal error.");
      job.state = "failure";
      job.message = err.message;
      job.code = Number(err.code);
      job.error = { code: err.code, message: err.message };
    }
    job.ended = Math.max(job.due, job.created);
  }

  state(uuid: string): JobState | undefined {
    return this.jobs.get(uuid)?.state;
  }

  error(uuid: string): { code: string; message: string } | undefined {
    return this.jobs.get(uuid)?.error;
  }

  /** Time left before the job completes (0 when it has ended or does not exist). */
  remainingMs(uuid: string): number {
    const job = this.jobs.get(uuid);
    if (job === undefined || job.ended !== undefined) return 0;
    return Math.max(0, job.due - this.clock.now());
  }

  record(uuid: string): JsonObject | undefined {
    const job = this.jobs.get(uuid);
    if (job === undefined) return undefined;
    const r: JsonObject = {
      uuid: job.uuid,
      description: job.description,
      state: job.state,
      message: job.message,
      code: job.code,
      start_time: isoTime(job.created),
    };
    if (job.ended !== undefined) r["end_time"] = isoTime(job.ended);
    if (job.error !== undefined) r["error"] = { code: job.error.code, message: job.error.message };
    if (job.svm !== undefined) r["svm"] = job.svm;
    r["_links"] = { self: { href: jobHref(job.uuid) } };
    return r;
  }

  records(): JsonObject[] {
    return [...this.jobs.keys()].map((u) => this.record(u)).filter((r): r is JsonObject => r !== undefined);
  }

  /** A user `action` on a job (PATCH ?action=): only cancel of a not yet ended job is supported. */
  cancel(uuid: string): boolean {
    const job = this.jobs.get(uuid);
    if (job === undefined || job.ended !== undefined) return false;
    job.state = "failure";
    job.message = "Job canceled by user.";
    job.code = 262191;
    job.error = { code: "262191", message: "Job canceled by user." };
    job.ended = this.clock.now();
    return true;
  }
}

export const jobHref = (uuid: string): string => `/api/cluster/jobs/${uuid}`;
export const jobRef = (uuid: string): JsonObject => ({ uuid, _links: { self: { href: jobHref(uuid) } } });
