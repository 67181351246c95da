// Runs what doc-blocks.ts extracts: shell commands with bash, servers in the
// background, ES modules with node (TypeScript type-stripped by esbuild), each
// with a timeout, and says what failed as FILE:LINE, the command, its exit
// status and the tail of its output.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { transform } from "esbuild";
import type { DocBlock, HelpExample } from "./doc-blocks.js";
import { shellCommands } from "./doc-blocks.js";

/** Where commands run: the project directory and the environment they get. */
export interface Place {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** A directory for the runner's own files (outputs, scripts), outside cwd. */
  readonly scratch: string;
  /** Milliseconds each command (or module, or server start) may take. Default 30 s. */
  readonly timeoutMs?: number;
}

/** npm's own settings, as `npm test` passes them to its children, minus the ones that would point npm at the repository. */
const NPM_KEEP = new Set([
  "npm_config_cache",
  "npm_config_registry",
  "npm_config_userconfig",
  "npm_config_globalconfig",
  "npm_config_proxy",
  "npm_config_https_proxy",
  "npm_config_noproxy",
  "npm_config_strict_ssl",
  "npm_config_cafile",
]);

/**
 * The environment for commands run outside the repository: the caller's, without
 * npm's run-script variables (npm_config_local_prefix and friends would send npm
 * back to the repository), without NODE_OPTIONS, with this node first on PATH.
 */
export function cleanEnv(
  base: Readonly<Record<string, string | undefined>> = process.env,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined) continue;
    const key = k.toLowerCase();
    if (key.startsWith("npm_") && !NPM_KEEP.has(key)) continue;
    if (k === "NODE_OPTIONS" || k === "INIT_CWD" || k.startsWith("VITEST") || k === "NODE_ENV") continue;
    env[k] = v;
  }
  env.PATH = [dirname(process.execPath), env.PATH ?? ""].join(delimiter);
  env.npm_config_update_notifier = "false";
  env.npm_config_fund = "false";
  env.npm_config_audit = "false";
  return { ...env, ...extra };
}

const TAIL_LINES = 20;

/** The last lines of an output, each cut to a readable length. */
export function tail(output: string, lines = TAIL_LINES): string {
  const all = output.replace(/\s+$/, "").split("\n");
  const kept = all.slice(-lines).map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
  return (all.length > lines ? [`… (${all.length - lines} lines before)`, ...kept] : kept).join("\n");
}

/** One failure, formatted for the test's message. */
export interface Failure {
  /** FILE:LINE, or the help text's name and line. */
  readonly where: string;
  readonly what: string;
  readonly command: string;
  /** The exit status, or how it ended ("timed out after 30 s", "signal SIGKILL"). */
  readonly got: string;
  readonly expected: string;
  readonly output: string;
}

export function formatFailure(f: Failure): string {
  const command = f.command.includes("\n") ? `\n${indent(f.command)}` : ` ${f.command}`;
  const output = f.output.trim() === "" ? "  (no output)" : indent(tail(f.output));
  return `${f.where} (${f.what}):${command}\n  ${f.got}, expected ${f.expected}; output:\n${output}`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly output: string;
}

/**
 * Runs a process in its own process group, killing the whole group on timeout, or
 * when `stuck` (asked four times a second) says so.
 */
function runProcess(
  command: string,
  args: readonly string[],
  place: Place,
  timeoutMs: number,
  stuck: () => boolean = () => false,
): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: place.cwd,
      env: place.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    let timedOut = false;
    child.stdout.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
    const kill = () => {
      timedOut = true;
      killGroup(child, "SIGKILL");
    };
    const timer = setTimeout(kill, timeoutMs);
    const watch = setInterval(() => {
      if (stuck()) kill();
    }, 250);
    child.on("error", (e) => {
      clearTimeout(timer);
      clearInterval(watch);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      // Whatever the commands left running in the background goes too.
      killGroup(child, "SIGKILL");
      resolve({ code, signal, timedOut, output });
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** A command of a shell script, with the exit status it must end with. */
export interface ScriptCommand {
  readonly text: string;
  readonly where: string;
  readonly exit: number;
}

/** `npm install` of packages the test has installed already (the README's install line): nothing to do. */
export function isInstallOfInstalled(
  text: string,
  installed: readonly string[] = ["clusterwire", "fast-check"],
): boolean {
  const m = /^npm\s+(?:install|i|add)\s+(.+)$/.exec(text.trim());
  if (m === null) return false;
  const words = (m[1] ?? "").split(/\s+/);
  const packages = words.filter((w) => !w.startsWith("-"));
  const flagsOk = words.every((w) => !w.startsWith("-") || /^(-D|-E|--save-dev|--save-exact|--save)$/.test(w));
  return flagsOk && packages.length > 0 && packages.every((p) => installed.includes(p.replace(/(?<=.)@[^@/]*$/, "")));
}

/**
 * Runs commands in order in one bash (so cd, export and files carry over), stdin
 * empty, with pipefail; stops at the first whose exit status is not the one asked
 * for. Returns that failure, or undefined.
 */
export async function runScript(
  commands: readonly ScriptCommand[],
  place: Place,
  what: string,
): Promise<Failure | undefined> {
  if (commands.length === 0) return undefined;
  const dir = mkdtempSync(join(place.scratch, "sh-"));
  const status = join(dir, "status");
  const lines = ["set -o pipefail", ""];
  commands.forEach((c, i) => {
    const out = join(dir, `out-${i}`);
    if (isInstallOfInstalled(c.text)) {
      lines.push(`# ${c.text.replace(/\n/g, " ")}: installed already by the test`, "");
      return;
    }
    lines.push(
      `echo "running ${i}" > '${status}'`,
      `{ ${c.text}`,
      `} > '${out}' 2>&1 < /dev/null`,
      `__cw_rc=$?`,
      `if [ "$__cw_rc" -ne ${c.exit} ]; then echo "failed ${i} $__cw_rc" > '${status}'; exit 0; fi`,
      "",
    );
  });
  lines.push(`echo "done" > '${status}'`);
  const script = join(dir, "script.sh");
  writeFileSync(script, `${lines.join("\n")}\n`);
  // Each command gets the timeout: the status file says which one runs, and since when.
  const timeoutMs = place.timeoutMs ?? 30_000;
  let seen = "";
  let since = Date.now();
  const stuck = () => {
    const now = readText(status);
    if (now !== seen) {
      seen = now;
      since = Date.now();
    }
    return Date.now() - since > timeoutMs;
  };
  const ended = await runProcess("bash", [script], place, timeoutMs * commands.length + 5_000, stuck);
  const state = readText(status).trim();
  if (state === "done" && !ended.timedOut) return undefined;
  const m = /^(running|failed) (\d+)(?: (\d+))?$/.exec(state);
  const index = m === null ? 0 : Number(m[2]);
  const command = commands[index] ?? commands[0];
  if (command === undefined) return undefined;
  const output = readText(join(dir, `out-${index}`));
  let got: string;
  if (ended.timedOut) got = `timed out after ${Math.round(timeoutMs / 1000)} s`;
  else if (m?.[1] === "failed") got = `exit ${m[3]}`;
  // The command ended the shell itself (exit N, or a signal): its status is the shell's.
  else got = ended.signal === null ? `exit ${ended.code}` : `signal ${ended.signal}`;
  return { where: command.where, what, command: command.text, got, expected: `exit ${command.exit}`, output };
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** A server started in the background. */
export interface Server {
  /** The URL it printed as "listening on URL". */
  readonly url: string;
  /** Stops it with SIGTERM (SIGKILL after 5 s); resolves when it has exited. */
  stop(): Promise<void>;
}

const LOOPBACK = /^[a-z]+:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/;

/**
 * Starts a shell command that runs a server, and waits until it prints
 * "listening on URL". A failure when it exits first, takes too long, or listens
 * anywhere but the loopback interface.
 */
export async function startServer(
  text: string,
  where: string,
  what: string,
  place: Place,
): Promise<{ server: Server } | { failure: Failure }> {
  const child = spawn("bash", ["-c", text], {
    cwd: place.cwd,
    env: place.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const exited = new Promise<string>((resolve) => {
    child.on("error", (e) => resolve(`could not start: ${e.message}`));
    child.on("close", (code, signal) => resolve(signal === null ? `exit ${code}` : `signal ${signal}`));
  });
  const stop = async (): Promise<void> => {
    killGroup(child, "SIGTERM");
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const timeoutMs = place.timeoutMs ?? 30_000;
  const listening = new Promise<string | undefined>((resolve) => {
    const look = (c: Buffer) => {
      output += c.toString("utf8");
      const m = /listening on (\S+)/i.exec(output);
      if (m?.[1] !== undefined) resolve(m[1].replace(/[.,;)]+$/, ""));
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const first = await Promise.race([
    listening.then((url) => ({ url })),
    exited.then((how) => ({ how })),
    timeout.then(() => ({ how: `did not say "listening on" within ${Math.round(timeoutMs / 1000)} s` })),
  ]);
  clearTimeout(timer);
  const fail = (got: string): { failure: Failure } => ({
    failure: { where, what, command: text, got, expected: 'a server that prints "listening on URL"', output },
  });
  if ("how" in first) {
    await stop();
    return fail(first.how);
  }
  const url = first.url ?? "";
  if (!LOOPBACK.test(url)) {
    await stop();
    return fail(`listens on ${url}, not on 127.0.0.1 (servers in the docs must bind the loopback interface)`);
  }
  return { server: { url, stop } };
}

/** Runs a ```ts or ```js block as an ES module in the project directory (ts type-stripped with esbuild). */
export async function runModule(block: DocBlock, language: "ts" | "js", place: Place): Promise<Failure | undefined> {
  const where = `${block.file}:${block.line}`;
  const what = `\`\`\`${block.info}`;
  let code = block.code;
  if (language === "ts") {
    try {
      code = (await transform(code, { loader: "ts", format: "esm", target: "node20", sourcefile: where })).code;
    } catch (e) {
      return {
        where,
        what,
        command: "(esbuild transform)",
        got: "a syntax error",
        expected: "TypeScript",
        output: String(e),
      };
    }
  }
  const dir = join(place.cwd, ".doc-snippets");
  mkdirSync(dir, { recursive: true });
  const name = `${basename(block.file).replace(/[^A-Za-z0-9]+/g, "-")}-${block.line}.mjs`;
  const file = join(dir, name);
  writeFileSync(file, code);
  const timeoutMs = place.timeoutMs ?? 30_000;
  const ended = await runProcess(process.execPath, [file], place, timeoutMs);
  if (!ended.timedOut && ended.code === 0) return undefined;
  const got = ended.timedOut
    ? `timed out after ${Math.round(timeoutMs / 1000)} s`
    : ended.signal !== null
      ? `signal ${ended.signal}`
      : `exit ${ended.code}`;
  return { where, what, command: `node .doc-snippets/${name}`, got, expected: "exit 0", output: ended.output };
}

/**
 * Runs a Markdown file's blocks in order: shell blocks, modules, and servers that
 * keep running until the file's last block has run. Returns every failure (a
 * failing block does not stop the blocks after it).
 */
export async function runDocBlocks(blocks: readonly DocBlock[], place: Place): Promise<Failure[]> {
  const failures: Failure[] = [];
  const servers: Server[] = [];
  try {
    for (const block of blocks) {
      const where = `${block.file}:${block.line}`;
      const what = `\`\`\`${block.info}`;
      if (!block.closed) {
        failures.push({ where, what, command: "(the block)", got: "no closing fence", expected: "one", output: "" });
        continue;
      }
      const run = block.run;
      if (run.kind === "invalid") {
        failures.push({
          where,
          what,
          command: "(info string)",
          got: run.problem,
          expected: "the convention",
          output: "",
        });
      } else if (run.kind === "sh") {
        const commands = shellCommands(block.code, block.codeLine);
        const script = commands.map((c, i) => ({
          text: c.text,
          where: `${block.file}:${c.line}`,
          exit: i === commands.length - 1 ? run.exit : 0,
        }));
        const failure = await runScript(script, place, what);
        if (failure !== undefined) failures.push(failure);
      } else if (run.kind === "serve") {
        const started = await startServer(block.code, where, what, place);
        if ("failure" in started) failures.push(started.failure);
        else servers.push(started.server);
      } else if (run.kind === "module") {
        const failure = await runModule(block, run.language, place);
        if (failure !== undefined) failures.push(failure);
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return failures;
}

/**
 * Runs a help text's examples in order, each as `npx <example>` in its own bash
 * (one failing does not stop the others; files they write stay): commands must
 * exit as their "# exit N" comment says (else 0); a server must start listening
 * on the loopback interface, and is stopped before the next example.
 */
export async function runHelpExamples(
  examples: readonly HelpExample[],
  source: string,
  place: Place,
): Promise<Failure[]> {
  const failures: Failure[] = [];
  const what = "help example";
  for (const e of examples) {
    const where = `${source}, line ${e.line}`;
    if (e.serve) {
      const started = await startServer(`npx ${e.text}`, where, what, place);
      if ("failure" in started) failures.push(started.failure);
      else await started.server.stop();
    } else {
      const failure = await runScript([{ text: `npx ${e.text}`, where, exit: e.exit }], place, what);
      if (failure !== undefined) failures.push(failure);
    }
  }
  return failures;
}
