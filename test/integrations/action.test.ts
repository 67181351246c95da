import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseSarif } from "../support/sarif.js";
import { FILES, packageRoot, ROOT, removeTemporary, tempDir, writeFiles } from "./cli.js";

// action.yml run as GitHub's runner runs a composite action: each `run` step with
// `bash --noprofile --norc -eo pipefail`, its ${{ }} expressions substituted, its
// GITHUB_OUTPUT read into steps.<id>.outputs and its GITHUB_PATH put on PATH for
// the steps after it; a failed step stops the rest. The `uses` step (the SARIF
// upload) is not run: the test records what it would be given. npm is a stand-in
// that logs its arguments and, for a global install, links the CLI built from this
// checkout, as npm links a package's bin.

interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly shell?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly with?: Readonly<Record<string, string>>;
}
interface Action {
  readonly name: string;
  readonly description: string;
  readonly inputs: Readonly<Record<string, { readonly description: string; readonly default?: string }>>;
  readonly outputs: Readonly<Record<string, { readonly description: string; readonly value: string }>>;
  readonly runs: { readonly using: string; readonly steps: readonly Step[] };
}

const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as Action;

interface Context {
  readonly inputs: Readonly<Record<string, string>>;
  readonly actionPath: string;
  readonly steps: Record<string, Record<string, string>>;
}

/** The few expressions action.yml uses; anything else fails the test. */
function evaluate(expression: string, context: Context): string | boolean {
  const comparison = /^(.+?)\s*(==|!=)\s*'([^']*)'$/.exec(expression);
  if (comparison) {
    const value = evaluate(comparison[1]!, context);
    return (value === comparison[3]) === (comparison[2] === "==");
  }
  let m = /^inputs\.([A-Za-z0-9_-]+)$/.exec(expression);
  if (m) {
    const value = context.inputs[m[1]!];
    if (value === undefined) throw new Error(`action.yml reads an input it does not declare: ${expression}`);
    return value;
  }
  if (expression === "github.action_path") return context.actionPath;
  m = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(expression);
  if (m) return context.steps[m[1]!]?.[m[2]!] ?? "";
  throw new Error(`an expression this test does not know: \${{ ${expression} }}`);
}

function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => String(evaluate(expression, context)));
}

function condition(text: string, context: Context): boolean {
  const m = /^\$\{\{\s*(.*?)\s*\}\}$/.exec(text.trim());
  const value = evaluate(m ? m[1]! : text.trim(), context);
  return typeof value === "boolean" ? value : value !== "";
}

/** key=value lines and key<<DELIMITER blocks, as the runner reads GITHUB_OUTPUT. */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  if (!existsSync(file)) return outputs;
  const lines = readFileSync(file, "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = /^([^=]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      outputs[block[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return outputs;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

interface StepResult {
  readonly name: string;
  readonly outcome: "success" | "failure" | "skipped";
  readonly code?: number;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly with?: Record<string, string>;
}

let actionPath: string;
beforeAll(async () => {
  actionPath = await packageRoot();
}, 180_000);
afterAll(removeTemporary);

async function runAction(files: Readonly<Record<string, string>>, inputs: Readonly<Record<string, string>>) {
  for (const name of Object.keys(inputs)) expect(action.inputs).toHaveProperty(name);
  const home = tempDir("clusterwire-action-");
  const workspace = join(home, "workspace");
  const runnerTemp = join(home, "runner-temp");
  const fakeBin = join(home, "fake-bin");
  for (const d of [workspace, runnerTemp, fakeBin]) mkdirSync(d);
  writeFiles(workspace, files);
  const npmLog = join(home, "npm.log");
  writeFileSync(
    join(fakeBin, "npm"),
    [
      "#!/bin/bash",
      'printf "%s\\t%s\\n" "$PWD" "$*" >> "$NPM_LOG"',
      'if [ "$1" = install ]; then',
      '  while [ $# -gt 0 ]; do [ "$1" = --prefix ] && prefix=$2; shift; done',
      '  mkdir -p "$prefix/bin" && ln -sf "$CLUSTERWIRE_CLI" "$prefix/bin/clusterwire"',
      "fi",
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  const githubPath = join(home, "github-path");
  writeFileSync(githubPath, "");

  const context: Context = {
    inputs: Object.fromEntries(
      Object.entries(action.inputs).map(([name, input]) => [name, inputs[name] ?? input.default ?? ""]),
    ),
    actionPath,
    steps: {},
  };
  const results: StepResult[] = [];
  let failed = false;
  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? `step ${index}`;
    if (failed || (step.if !== undefined && !condition(step.if, context))) {
      results.push({ name, outcome: "skipped" });
      continue;
    }
    if (step.uses !== undefined) {
      const given = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(v, context)]));
      results.push({ name, outcome: "success", with: given });
      continue;
    }
    expect(step.shell).toBe("bash");
    const script = join(home, `step-${index}.sh`);
    writeFileSync(script, substitute(step.run!, context));
    const output = join(home, `output-${index}`);
    const added = readFileSync(githubPath, "utf8").split("\n").filter(Boolean).reverse();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, context)])),
      PATH: [...added, fakeBin, process.env["PATH"]].join(delimiter),
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_PATH: githubPath,
      GITHUB_ACTION_PATH: actionPath,
      RUNNER_TEMP: runnerTemp,
      NPM_LOG: npmLog,
      CLUSTERWIRE_CLI: join(actionPath, "bin/clusterwire.js"),
    };
    const { code, stdout, stderr } = await bash(script, workspace, env);
    if (step.id !== undefined) context.steps[step.id] = readOutputs(output);
    failed = code !== 0;
    results.push({ name, outcome: failed ? "failure" : "success", code, stdout, stderr });
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, output]) => [name, substitute(output.value, context)]),
  );
  const npm = existsSync(npmLog) ? readFileSync(npmLog, "utf8").split("\n").filter(Boolean) : [];
  return {
    results,
    outputs,
    npm,
    workspace,
    runnerTemp,
    step: (name: string) => results.find((r) => r.name === name)!,
  };
}

const VALID = Object.fromEntries(Object.entries(FILES).filter(([name]) => name !== "manifests/invalid.yml"));

describe("action.yml", () => {
  it("is a composite action of bash steps, with a default for every input", () => {
    expect(action.runs.using).toBe("composite");
    expect(action.runs.steps.map((s) => s.name)).toEqual([
      "Install clusterwire",
      "Validate manifests",
      "Upload SARIF to code scanning",
      "Fail on invalid manifests",
    ]);
    for (const step of action.runs.steps) {
      if (step.uses === undefined) expect(step.shell).toBe("bash");
      // Inputs reach scripts through env, never pasted into the script text.
      expect(step.run ?? "").not.toContain("${{");
    }
    expect(action.runs.steps[2]!.uses).toBe("github/codeql-action/upload-sarif@v4");
    for (const input of Object.values(action.inputs)) expect(input.default).toBeTypeOf("string");
  });

  it("builds its own checkout, writes SARIF with the invalid object, uploads it, then fails the job", async () => {
    const run = await runAction(FILES, { paths: "manifests\npackage.json" });

    expect(run.npm).toEqual([`${actionPath}\tci --no-audit --no-fund`, `${actionPath}\trun build`]);
    expect(run.step("Install clusterwire").stdout).toContain("clusterwire 0.1.0");

    const validate = run.step("Validate manifests");
    expect(validate.outcome).toBe("success");
    expect(run.outputs).toEqual({ "sarif-file": "clusterwire.sarif", "exit-code": "1" });
    const sarif = parseSarif(readFileSync(join(run.workspace, "clusterwire.sarif"), "utf8"));
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.$schema).toMatch(/sarif-schema-2\.1\.0\.json$/);
    const results = sarif.runs[0]!.results;
    expect(results.map((r) => [r.ruleId, r.locations[0]?.physicalLocation.artifactLocation.uri])).toEqual([
      ["FieldValueInvalid", "manifests/invalid.yml"],
    ]);
    expect(results[0]!.locations[0]!.physicalLocation.region).toEqual({ startLine: 5, startColumn: 34 });
    // An annotation per finding, on the file, line and column.
    expect(validate.stdout).toContain(
      "::error title=clusterwire FieldValueInvalid,file=manifests/invalid.yml,line=5,col=34::" +
        'spec.rules[0].http.paths[0].path: Invalid value: "deals": must be an absolute path',
    );

    expect(run.step("Upload SARIF to code scanning")).toEqual({
      name: "Upload SARIF to code scanning",
      outcome: "success",
      with: { sarif_file: "clusterwire.sarif", category: "clusterwire" },
    });
    const last = run.step("Fail on invalid manifests");
    expect(last.outcome).toBe("failure");
    expect(last.stdout).toContain("::error title=clusterwire::invalid manifests");
  });

  it("installs a release from npm when given a version, passes valid manifests, and can skip the upload", async () => {
    const files = { ...VALID, "vendor/broken.yaml": FILES["manifests/invalid.yml"] };
    const run = await runAction(files, {
      version: "0.1.0",
      upload: "false",
      "sarif-file": "reports/clusterwire.sarif",
      args: "--exclude vendor/**  \n --field-validation Strict",
    });

    expect(run.npm).toEqual([
      `${run.workspace}\tinstall --global --prefix ${run.runnerTemp}/clusterwire --no-audit --no-fund clusterwire@0.1.0`,
    ]);
    expect(run.results.map((r) => [r.name, r.outcome])).toEqual([
      ["Install clusterwire", "success"],
      ["Validate manifests", "success"],
      ["Upload SARIF to code scanning", "skipped"],
      ["Fail on invalid manifests", "success"],
    ]);
    expect(run.outputs).toEqual({ "sarif-file": "reports/clusterwire.sarif", "exit-code": "0" });
    const sarif = parseSarif(readFileSync(join(run.workspace, "reports/clusterwire.sarif"), "utf8"));
    expect(sarif.runs[0]!.results).toEqual([]);
    expect(run.step("Validate manifests").stdout).toContain("clusterwire: 0 finding(s)");
  });

  it("stops at the validate step when clusterwire cannot run (a usage error)", async () => {
    const run = await runAction(VALID, { args: "--no-such-option" });
    expect(run.results.map((r) => [r.name, r.outcome])).toEqual([
      ["Install clusterwire", "success"],
      ["Validate manifests", "failure"],
      ["Upload SARIF to code scanning", "skipped"],
      ["Fail on invalid manifests", "skipped"],
    ]);
    const validate = run.step("Validate manifests");
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain("Unknown option '--no-such-option'");
    expect(validate.stdout).toContain("::error title=clusterwire::clusterwire validate could not run (exit status 2)");
  });
});
