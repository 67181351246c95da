import {
  StorageApiError,
  StorageClient,
  StorageCodecError,
  StorageJobError,
  StorageJobTimeoutError,
  StorageNetworkError,
  StorageProtocolError,
  type Job,
  type JobWaitOptions,
  type SoftwareCheck,
} from "../../storage/index.js";
import {
  createManualClock,
  createReferenceServer,
  type ManualClock,
  type ReferenceServerOptions,
} from "../../storage/server/index.js";
import type { CliIO } from "../shared/io.js";
import { loadExpectations, type StorageExpectations } from "./expectations.js";
import type { StepResult } from "./steps.js";

// The storage part of the main job (npm start): a short scenario with StorageClient
// against a reference server on loopback. The server runs on a manual clock that moves
// only when a job is polled, so every run sees the same job states, timestamps and
// lifetimes; only the uuids the server makes up differ. What each step must see
// is in examples/demo/expected.yaml (storage:); the requests are here.

/** How long each job runs, in server clock time; each poll moves the clock half of it. */
const JOB_MS = 2000;
const USERNAME = "demo";
const PASSWORD = "demo-password";

/** What a step gets: a client, the server's clock, the expected answers, and a job-wait hook that moves the clock. */
export interface StorageContext {
  readonly client: StorageClient;
  readonly clock: ManualClock;
  readonly expected: StorageExpectations;
  /** Wait options that advance the clock after each poll and record the job states seen. */
  wait(states: string[]): JobWaitOptions;
}

export interface StorageStep {
  readonly name: string;
  run(ctx: StorageContext): Promise<StepResult>;
}

interface Named {
  readonly name?: string;
  readonly uuid?: string;
}

/** `queued → running → success` */
function path(states: readonly string[]): string {
  return states.filter((s, i) => s !== states[i - 1]).join(" → ");
}

function ok(summary: string, notes: readonly string[] = []): StepResult {
  return notes.length === 0 ? { ok: true, summary } : { ok: true, summary, notes };
}

function failed(summary: string, problems: readonly string[]): StepResult {
  return { ok: false, summary: `FAILED: ${summary}`, problems };
}

const show = (v: unknown): string => (v === undefined ? "(absent)" : JSON.stringify(v));

/** `201 Created`: an expected status with its reason phrase, for messages. */
const REASONS: Readonly<Record<number, string>> = { 200: "OK", 201: "Created", 202: "Accepted" };
const statusText = (status: number): string =>
  REASONS[status] === undefined ? String(status) : `${status} ${REASONS[status]}`;

/** A clone token: the Size suffix on the way in, bytes and an ISO lifetime on the way out, counting down. */
export const cloneTokenStep: StorageStep = {
  name: "clone-token",
  async run({ client, clock, expected }) {
    const want = expected.cloneToken;
    const nodes = (await client.request<{ records?: Named[] }>("GET", "/api/cluster/nodes"))?.records ?? [];
    const node = nodes[0];
    if (node?.uuid === undefined) return failed("no node in /api/cluster/nodes", ["the inventory has no nodes"]);
    const created = await client.cloneTokens.create({
      node: { uuid: node.uuid },
      reserve_size: "40M",
      expiry_time: { limit: "PT1H" },
    });
    const uuid = created.record?.uuid;
    if (created.status !== want.status || uuid === undefined)
      return failed(`POST answered ${created.status}`, [`expected ${statusText(want.status)} with the token's uuid`]);
    const key = { nodeUuid: node.uuid, uuid };
    const first = await client.cloneTokens.get(key, { fields: "reserve_size,expiry_time" });
    clock.advance(10 * 60 * 1000);
    const later = await client.cloneTokens.get(key, { fields: "expiry_time" });
    const summary = `created ${uuid} on ${node.name ?? node.uuid}: reserve_size ${first.reserve_size} (sent as 40M), expiry_time.limit ${first.expiry_time?.limit}, left ${first.expiry_time?.left} → ${later.expiry_time?.left} 10 minutes later`;
    const problems: string[] = [];
    if (first.reserve_size !== want.reserveSize)
      problems.push(`reserve_size ${show(first.reserve_size)}, expected ${want.reserveSize}`);
    if (first.expiry_time?.limit !== want.limit)
      problems.push(`expiry_time.limit ${show(first.expiry_time?.limit)}, expected ${show(want.limit)}`);
    if (later.expiry_time?.left !== want.leftAfter10Minutes)
      problems.push(
        `expiry_time.left ${show(later.expiry_time?.left)} after 10 minutes, expected ${show(want.leftAfter10Minutes)}`,
      );
    return problems.length === 0 ? ok(summary) : failed(summary, problems);
  },
};

/** A cache: POST answers 202 with a job; the cache exists once the job succeeds, with the spec's defaults. */
export const cacheStep: StorageStep = {
  name: "cache",
  async run({ client, wait, expected }) {
    const want = expected.cache;
    const states: string[] = [];
    const created = await client.caches.create(
      {
        name: "shop_cache",
        svm: { name: "svm2" },
        origins: [{ svm: { name: "svm1" }, volume: { name: "vol1" } }],
        size: "10G",
        path: "/shop_cache",
      },
      { wait: wait(states) },
    );
    const job = created.job;
    const cache = await client.caches.find({ name: "shop_cache", fields: "**" });
    const origin = cache?.origins?.[0];
    const summary =
      `POST ${created.status}, job ${job?.uuid ?? "(none)"} ${path(states)}; ` +
      (cache === undefined
        ? "no cache listed"
        : `cache ${cache.uuid} ${cache.name} on ${cache.svm?.name} from ${origin?.svm?.name}:${origin?.volume?.name}, size ${cache.size} (sent as 10G), path ${cache.path}, guarantee.type ${cache.guarantee?.type}`);
    const problems: string[] = [];
    if (created.status !== want.status)
      problems.push(`POST answered ${created.status}, expected ${statusText(want.status)} with a job`);
    if (job?.state !== want.jobState) problems.push(`job ended ${show(job?.state)}, expected ${show(want.jobState)}`);
    if (cache === undefined) problems.push("the cache is not in /api/storage/cache/caches after its job");
    else if (cache.size !== want.size) problems.push(`size ${show(cache.size)}, expected ${want.size}`);
    return problems.length === 0 ? ok(summary) : failed(summary, problems);
  },
};

/** An NVMe namespace: created at once (201), with block_size defaulted to 4096. */
export const namespaceStep: StorageStep = {
  name: "namespace",
  async run({ client, expected }) {
    const want = expected.namespace;
    const created = await client.nvmeNamespaces.create({
      name: "/vol/vol1/shop_ns",
      svm: { name: "svm1" },
      os_type: "linux",
      space: { size: "1G" },
    });
    const uuid = created.record?.uuid;
    if (uuid === undefined)
      return failed(`POST answered ${created.status}`, [
        `expected ${statusText(want.status)} with the namespace's uuid`,
      ]);
    const ns = await client.nvmeNamespaces.get(uuid, { fields: "name,os_type,space,status.state" });
    const summary = `created ${uuid} ${ns.name} (${ns.os_type}): space.size ${ns.space?.size} (sent as 1G), space.block_size ${ns.space?.block_size} (the default)`;
    const problems: string[] = [];
    if (created.status !== want.status) problems.push(`POST answered ${created.status}, expected ${want.status}`);
    if (ns.space?.size !== want.size) problems.push(`space.size ${show(ns.space?.size)}, expected ${want.size}`);
    if (ns.space?.block_size !== want.blockSize)
      problems.push(`space.block_size ${show(ns.space?.block_size)}, expected the default ${want.blockSize}`);
    return problems.length === 0 ? ok(summary) : failed(summary, problems);
  },
};

/** A user quota rule on a qtree; the server adds the volume's default user rule by itself. */
export const quotaRulesStep: StorageStep = {
  name: "quota-rules",
  async run({ client, expected }) {
    const want = expected.quotaRules;
    const created = await client.quotaRules.create({
      svm: { name: "svm1" },
      volume: { name: "vol1" },
      type: "user",
      qtree: { name: "q1" },
      users: [{ name: "alice" }],
      space: { hard_limit: "10G", soft_limit: "8G" },
      user_mapping: "on",
    });
    const mine = created.record?.uuid;
    const rules = await client.quotaRules.all({ "svm.name": "svm1", "volume.name": "vol1", fields: "**" });
    const added = rules.filter((r) => r.uuid !== mine);
    const rule = rules.find((r) => r.uuid === mine);
    const dflt = added.find((r) => r.type === "user" && r.qtree?.name === "" && r.users?.[0]?.name === "");
    const summary =
      `created ${mine ?? "(no uuid)"} user alice on vol1/q1: space.hard_limit ${rule?.space?.hard_limit}, soft_limit ${rule?.space?.soft_limit}; ` +
      `vol1 now has ${rules.length} rules`;
    const notes = added.map(
      (r) =>
        `added by the server: ${r.uuid} ${r.type} rule for user ${JSON.stringify(r.users?.[0]?.name)} on qtree ${JSON.stringify(r.qtree?.name)} (the default rule)`,
    );
    const problems: string[] = [];
    if (created.status !== want.status || rule === undefined)
      problems.push(`POST answered ${created.status}; expected ${want.status} and the rule in the list`);
    if (rule !== undefined && rule.space?.hard_limit !== want.hardLimit)
      problems.push(`space.hard_limit ${show(rule.space?.hard_limit)}, expected ${want.hardLimit}`);
    if ((want.addedRules > 0 && dflt === undefined) || added.length !== want.addedRules) {
      problems.push(
        `expected exactly ${want.addedRules === 1 ? "one default rule" : `${want.addedRules} rules`} (user "", qtree "") added by the server, found ${added.length} other rules`,
      );
    }
    return problems.length === 0 ? ok(summary, notes) : failed(summary, [...problems, ...notes]);
  },
};

function check(c: SoftwareCheck): string {
  return `${c.status} ${c.update_check}: ${c.issue?.message ?? ""}${c.action?.message === undefined ? "" : ` → ${c.action.message}`}`;
}

/** Software validation: 9.15.1 passes with a warning, 9.16.1 fails with an error (the seeded packages). */
export const softwareValidateStep: StorageStep = {
  name: "software-validate",
  async run({ client, wait, expected }) {
    const installed = (await client.software.get({ fields: "version" })).version;
    const parts: string[] = [];
    const notes: string[] = [];
    const problems: string[] = [];
    for (const { version, passes: expectOk } of expected.softwareValidate) {
      const states: string[] = [];
      const v = await client.software.validate(version, { wait: wait(states) });
      const counts = `${v.warnings.length} ${v.warnings.length === 1 ? "warning" : "warnings"}, ${v.errors.length} ${v.errors.length === 1 ? "error" : "errors"}`;
      parts.push(`${version} job ${path(states)}: ${v.ok ? "ok" : "refused"} (${counts})`);
      notes.push(...[...v.errors, ...v.warnings].map((c) => `${version} ${check(c)}`));
      if (v.ok !== expectOk)
        problems.push(
          `${version}: validation ${v.ok ? "passed" : "failed"}, expected it to ${expectOk ? "pass" : "fail"}`,
        );
      if (expectOk && v.warnings.length === 0) problems.push(`${version}: expected a warning from validation`);
      if (!expectOk && v.errors.length === 0) problems.push(`${version}: expected an error from validation`);
    }
    const summary = `installed ${installed}; ${parts.join("; ")}`;
    return problems.length === 0 ? ok(summary, notes) : failed(summary, [...problems, ...notes]);
  },
};

/** The scenario's steps, in order. Each stands alone, so one failing does not stop the others. */
export const STORAGE_STEPS: readonly StorageStep[] = [
  cloneTokenStep,
  cacheStep,
  namespaceStep,
  quotaRulesStep,
  softwareValidateStep,
];

export interface StorageScenarioOptions {
  readonly steps?: readonly StorageStep[];
  /** Changes to the reference server (a different inventory or software), e.g. to see a step fail. */
  readonly server?: Omit<ReferenceServerOptions, "clock" | "username" | "password">;
  /** The answers the steps check; default: the storage section of examples/demo/expected.yaml. */
  readonly expected?: StorageExpectations;
}

/** The expected failures of the storage API, reported on the step's line instead of crashing the demo. */
function describeFailure(e: unknown): string {
  if (e instanceof StorageApiError || e instanceof StorageJobError || e instanceof StorageJobTimeoutError)
    return `${e.name}: ${e.message}`;
  if (e instanceof StorageNetworkError || e instanceof StorageProtocolError || e instanceof StorageCodecError)
    return `${e.name}: ${e.message}`;
  throw e;
}

/**
 * Starts a reference server on loopback, runs the steps with a StorageClient and
 * prints one line per step and a summary. Returns true when every step behaved as
 * expected.
 */
export async function runStorageScenario(io: CliIO, options: StorageScenarioOptions = {}): Promise<boolean> {
  const steps = options.steps ?? STORAGE_STEPS;
  const expected = options.expected ?? (await loadExpectations(io)).storage;
  const clock = createManualClock();
  let requests = 0;
  const server = await createReferenceServer({
    host: "127.0.0.1",
    port: 0,
    jobDurationMs: JOB_MS,
    ...options.server,
    clock,
    username: USERNAME,
    password: PASSWORD,
    log: () => requests++,
  });
  const client = new StorageClient({
    baseUrl: server.url,
    username: USERNAME,
    password: PASSWORD,
    // Plain HTTP on loopback only: the server and the client are in this process.
    allowInsecureHttp: true,
    jobs: { initialIntervalMs: 1, maxIntervalMs: 1, jitter: 0, timeoutMs: 10_000 },
    requestTimeoutMs: 10_000,
  });
  const ctx: StorageContext = {
    client,
    clock,
    expected,
    wait: (states) => ({
      onPoll: (job: Job) => {
        if (job.state !== undefined) states.push(job.state);
        clock.advance(JOB_MS / 2);
      },
    }),
  };
  io.stdout.write(
    `\nclusterwire demo: storage scenario with StorageClient against a reference server on loopback (steps: ${steps.map((s) => s.name).join(", ")})\n`,
  );
  const results: StepResult[] = [];
  try {
    for (const step of steps) {
      let r: StepResult;
      try {
        r = await step.run(ctx);
      } catch (e) {
        r = failed("the step threw", [describeFailure(e)]);
      }
      results.push(r);
      io.stdout.write(`${step.name.padEnd(Math.max(...steps.map((s) => s.name.length)))}  ${r.summary}\n`);
      for (const p of r.problems ?? []) io.stdout.write(`    - ${p}\n`);
      for (const n of r.notes ?? []) io.stdout.write(`      ${n}\n`);
    }
  } finally {
    client.close();
    await server.close();
  }
  const passed = results.filter((r) => r.ok).length;
  const allOk = passed === steps.length;
  io.stdout.write(
    `${allOk ? "ok" : "FAILED"}: storage scenario ${passed}/${steps.length} steps ok; ${requests} requests to the reference server\n`,
  );
  return allOk;
}
