import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { jsonReporter } from "../../../src/cli/validate/report-json.js";
import { textReporter } from "../../../src/cli/shared/report-text.js";
import type { Reporter } from "../../../src/cli/shared/reporter.js";
import type { FileJobSettings } from "../../../src/cli/validate/file.js";
import { runValidation, type RunOptions } from "../../../src/cli/validate/run.js";
import type { WalkOptions } from "../../../src/cli/shared/walk.js";
import { REPO } from "../../support/cli/harness.js";
import {
  ingressClassYaml,
  memorySink,
  netpolYaml,
  otherKindYaml,
  stream,
  tempTrees,
  type Files,
  v1List,
} from "../../support/cli/validate.js";

const tree = tempTrees("validate-run");

const SETTINGS: FileJobSettings = {
  fieldValidation: "Strict",
  nonManifests: "skip",
  featureGates: {},
  kinds: [],
  skipKinds: [],
};

/**
 * The worker entry point compiled to one .mjs file, as the build would ship
 * it next to run.js. Each worker thread that loads it appends a line
 * to `marker`, so a test can tell workers did the work.
 */
function bundleWorker(): { url: URL; marker: string } {
  const dir = tree({});
  const marker = join(dir, "workers-started");
  const outfile = join(dir, "worker.mjs");
  buildSync({
    entryPoints: [join(REPO, "src/cli/validate/worker.ts")],
    absWorkingDir: REPO,
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "silent",
    banner: {
      js: [
        'import { createRequire as __cwCreateRequire } from "node:module";',
        "const require = __cwCreateRequire(import.meta.url);",
        `require("node:fs").appendFileSync(${JSON.stringify(marker)}, "started\\n");`,
      ].join("\n"),
    },
  });
  return { url: pathToFileURL(outfile), marker };
}

/** About 200 files of every sort validate meets, spread over nested directories. */
function generatedTree(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) {
    const dir = `d${i % 7}/e${i % 3}`;
    switch (i % 8) {
      case 0:
        files[`${dir}/f${i}.yaml`] = ingressClassYaml(`c${i}`);
        break;
      case 1:
        files[`${dir}/f${i}.yaml`] = ingressClassYaml(`c${i}`, "nginx");
        break;
      case 2:
        files[`${dir}/f${i}.yaml`] = stream(
          otherKindYaml("v1", "Service", `s${i}`),
          netpolYaml(),
          netpolYaml("  podSelectr: {}\n"),
        );
        break;
      case 3:
        files[`${dir}/f${i}.json`] = JSON.stringify({ name: `pkg${i}` });
        break;
      case 4:
        files[`${dir}/f${i}.yaml`] = ingressClassYaml(`c${i}`, "example.com/a", '  resourceVersion: "1"\n');
        break;
      case 5:
        files[`${dir}/f${i}.yml`] = v1List(ingressClassYaml(`l${i}`));
        break;
      case 6:
        files[`${dir}/f${i}.yaml`] = `${ingressClassYaml(`c${i}`)}--- bad\n${netpolYaml()}`;
        break;
      default:
        files[`${dir}/f${i}.yaml`] = netpolYaml("  podSelector: {}\n  a: 1\n");
    }
  }
  return tree(files);
}

async function run(
  paths: readonly string[],
  reporter: Reporter,
  options: RunOptions,
  cwd: string,
  walk: WalkOptions = {},
): Promise<{ stdout: string; stderr: string; missing: number }> {
  const stdout = memorySink(false);
  const stderr = memorySink(false);
  const result = await runValidation({ stdout, stderr, cwd }, paths, walk, SETTINGS, reporter, options);
  return { stdout: stdout.text(), stderr: stderr.text(), missing: result.missing };
}

const startedWorkers = (marker: string): number =>
  existsSync(marker)
    ? readFileSync(marker, "utf8")
        .split("\n")
        .filter((l) => l !== "").length
    : 0;

describe("runValidation on worker threads", () => {
  const root = generatedTree();
  const worker = bundleWorker();

  it("writes byte for byte what one thread writes, text and JSON, in input order", async () => {
    for (const reporter of [() => textReporter({ quiet: false }), () => jsonReporter({ quiet: false })]) {
      const one = await run(["."], reporter(), { jobs: 1 }, root);
      const before = startedWorkers(worker.marker);
      const many = await run(["."], reporter(), { jobs: 2, workerUrl: worker.url, workerThreshold: 1 }, root);
      // --jobs 2: the main thread and one worker (which the main thread may finish
      // this small tree before, and which is then stopped before it loads).
      expect(startedWorkers(worker.marker) - before).toBeLessThanOrEqual(1);
      expect(many.stdout).toBe(one.stdout);
      expect(many.stderr).toBe(one.stderr);
    }
    const text = await run(["."], textReporter({ quiet: false }), { jobs: 1 }, root);
    // The run covered every sort of verdict, so the comparison means something.
    for (const word of [": ok", ": skipped: ", ": error: ", ": refused (500): ", "Invalid value", "items[0]"])
      expect(text.stdout).toContain(word);
    expect(text.stdout).toMatch(/^Summary: \d+ documents in 200 files: /m);
    // Files in the walk's order: sorted directories and names.
    const files = text.stdout
      .split("\n")
      .filter((l) => l.startsWith("d"))
      .map((l) => l.slice(0, l.search(/[: ]/)));
    expect(files).toEqual([...files].sort());
  });

  it("with more threads, and with missing inputs among the others, the output is still the same", async () => {
    const paths = ["d3", "no-such", "d0/e1", "d1"];
    const one = await run(paths, textReporter({ quiet: false }), { jobs: 1 }, root);
    const many = await run(
      paths,
      textReporter({ quiet: false }),
      { jobs: 4, workerUrl: worker.url, workerThreshold: 1 },
      root,
    );
    expect(many).toEqual(one);
    expect(one.missing).toBe(1);
    expect(one.stdout).toContain("no-such: error: cannot read: no such file or directory\n");
  });

  it("starts no worker below the threshold, nor when the worker file is missing (running from source)", async () => {
    const before = startedWorkers(worker.marker);
    const one = await run(["d2"], textReporter({ quiet: false }), { jobs: 1 }, root);
    const small = await run(
      ["d2"],
      textReporter({ quiet: false }),
      { jobs: 4, workerUrl: worker.url, workerThreshold: 1000 },
      root,
    );
    const absent = await run(
      ["d2"],
      textReporter({ quiet: false }),
      { jobs: 4, workerUrl: pathToFileURL(join(root, "none.mjs")), workerThreshold: 1 },
      root,
    );
    expect(startedWorkers(worker.marker)).toBe(before);
    expect(small).toEqual(one);
    expect(absent).toEqual(one);
  });
});

describe("runValidation", () => {
  it("reports a directory with nothing to read as a missing input, an error verdict", async () => {
    const root = tree({ "a/x.yaml": ingressClassYaml("a"), "empty/readme.txt": "" });
    const r = await run(["a", "empty"], textReporter({ quiet: true }), { jobs: 1 }, root);
    expect(r.missing).toBe(1);
    expect(r.stdout).toContain("empty: error: no .yaml, .yml, .json, .jsonl or .pb files found\n");
    const filtered = await run(["a"], textReporter({ quiet: true }), { jobs: 1 }, root, { include: ["b/**"] });
    expect(filtered.stdout).toContain(
      "a: error: no .yaml, .yml, .json, .jsonl or .pb files found (after --include and --exclude)\n",
    );
    expect(filtered.missing).toBe(1);
  });

  it("writes to a pipe in chunks of about 64 KiB and to a terminal file by file, the same bytes either way", async () => {
    const files: Files = Object.fromEntries(
      Array.from({ length: 800 }, (_, i) => [`f${String(i).padStart(3, "0")}.yaml`, ingressClassYaml(`c${i}`)]),
    );
    const root = tree(files);
    const outputs = [];
    for (const isTTY of [false, true]) {
      const stdout = memorySink(isTTY);
      await runValidation(
        { stdout, stderr: memorySink(false), cwd: root },
        ["."],
        {},
        SETTINGS,
        jsonReporter({ quiet: false }),
        {
          jobs: 1,
        },
      );
      outputs.push(stdout);
    }
    const [pipe, terminal] = outputs as [ReturnType<typeof memorySink>, ReturnType<typeof memorySink>];
    expect(pipe.text()).toBe(terminal.text());
    expect(pipe.text().length).toBeGreaterThan(3 * 65536);
    // start, one per file, end on a terminal; a few large chunks, then the end, on a pipe.
    expect(terminal.writes).toHaveLength(802);
    expect(pipe.writes.length).toBeLessThan(10);
    for (const w of pipe.writes.slice(0, -2)) expect(w.length).toBeGreaterThanOrEqual(65536);
  });

  it("writes no progress line when stderr is not a terminal", async () => {
    const files: Files = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`f${i}.yaml`, ingressClassYaml(`c${i}`)]),
    );
    const r = await run(["."], textReporter({ quiet: true }), { jobs: 1 }, tree(files));
    expect(r).toEqual({ stdout: "", stderr: "", missing: 0 });
  });
});
