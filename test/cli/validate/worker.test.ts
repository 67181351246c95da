// The entry point of a clusterwire validate worker thread, compiled as the build ships it (one
// file): each file it is sent comes back as validateFile's verdicts, under the job's id, checked
// with the settings the worker was started with; before any, it says it has loaded. Imported on
// the main thread it does nothing.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { buildSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { type FileJobSettings, validateFile } from "../../../src/cli/validate/file.js";
import { REPO } from "../../support/cli/harness.js";
import { ingressClassYaml, netpolYaml, stream, tempTrees } from "../../support/cli/validate.js";

const tree = tempTrees("validate-worker");

const SETTINGS: FileJobSettings = {
  fieldValidation: "Strict",
  nonManifests: "skip",
  featureGates: {},
  kinds: ["NetworkPolicy"],
  skipKinds: [],
  namespace: "shop",
};

const dir = tree({
  "a.yaml": stream(ingressClassYaml("a"), netpolYaml()),
  "bad.yaml": netpolYaml("  podSelector: {}\n  policyTypes: [Sideways]\n"),
});

/** worker.ts and what it imports, in one .mjs file next to nothing else. */
function bundle(): URL {
  const outfile = join(tree({}), "worker.mjs");
  buildSync({
    entryPoints: [join(REPO, "src/cli/validate/worker.ts")],
    absWorkingDir: REPO,
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "silent",
    banner: {
      js: 'import { createRequire as __cwCreateRequire } from "node:module";\nconst require = __cwCreateRequire(import.meta.url);',
    },
  });
  return pathToFileURL(outfile);
}

describe("the validate worker", () => {
  const worker = new Worker(bundle(), { workerData: SETTINGS });
  afterAll(() => worker.terminate());
  const replies: unknown[] = [];
  const waiting: (() => void)[] = [];
  const ready = new Promise<unknown>((resolve) => worker.once("message", resolve));
  worker.on("message", (m: unknown) => {
    if (replies.length === 0 && (m as { ready?: unknown }).ready !== undefined) return;
    replies.push(m);
    waiting.shift()?.();
  });
  const reply = () => new Promise<void>((resolve) => waiting.push(resolve));

  it("first says it has loaded its code, with no id", async () => {
    expect(await ready).toEqual({ ready: true });
  });

  it("answers each job with validateFile's verdicts under the job's id, with its workerData as the settings", async () => {
    const jobs = [
      { id: 11, job: { path: join(dir, "a.yaml"), display: "d/a.yaml" } },
      { id: 4, job: { path: join(dir, "bad.yaml"), display: "d/bad.yaml" } },
      { id: 7, job: { path: join(dir, "none.yaml"), display: "d/none.yaml" } },
    ];
    const answered = Promise.all(jobs.map(() => reply()));
    for (const j of jobs) worker.postMessage(j);
    await answered;
    const want = await Promise.all(jobs.map(async (j) => ({ id: j.id, result: await validateFile(j.job, SETTINGS) })));
    // Jobs run concurrently, so answers come in any order: the id says which is which.
    const byId = (x: unknown) => (x as { id: number }).id;
    expect([...replies].sort((x, y) => byId(x) - byId(y))).toEqual([...want].sort((x, y) => x.id - y.id));
    // The settings were the worker's: --kinds skipped the IngressClass, the namespace is shop's.
    const [a] = want;
    expect(a?.result.verdicts.map((v) => [v.status, v.namespace])).toEqual([
      ["skipped", undefined],
      ["valid", "shop"],
    ]);
    expect(want[1]?.result.verdicts[0]?.status).toBe("invalid");
    expect(want[2]?.result.verdicts[0]?.status).toBe("error");
  });

  it("does nothing when imported on the main thread", async () => {
    const mod: Record<string, unknown> = await import("../../../src/cli/validate/worker.js");
    expect(Object.keys(mod)).toEqual([]);
  });
});
