// The webhook under load runs as `clusterwire webhook serve` in a child
// process of its own, so the load generator never shares its event loop.

import { spawn } from "node:child_process";
import { openSync, closeSync, readFileSync } from "node:fs";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { GcWindow } from "./gc-probe.js";

export type { GcWindow } from "./gc-probe.js";

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** RSS of the child in bytes, from /proc/<pid>/status (VmRSS). */
  rss(): number;
  /**
   * CPU time the child has used so far (user + system), in seconds, from /proc/<pid>/stat: per review
   * it says what the server costs even when the machine is shared and its throughput is not its own.
   */
  cpuSeconds(): number;
  /** What the server has printed on stdout so far (its address; with node flags such as --trace-gc, their output). */
  stdout(): string;
  /** Starts a window of the server's GC and allocation figures (bench/webhook/gc-probe.ts). */
  gcStart(): Promise<void>;
  /** Ends the window: its GCs and the bytes the server allocated on its V8 heap in it. */
  gcStop(): Promise<GcWindow>;
  /** SIGTERM (the server drains), then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface ServerProcessOptions {
  /** dist/src/cli/main.js of the build to serve. */
  readonly cli: string;
  readonly certFile: string;
  readonly keyFile: string;
  /** The server's JSON log lines (stderr) go here: a file, so writing them costs what it costs in a pod. */
  readonly logFile: string;
  readonly maxInFlight?: number;
  /** Write a V8 CPU profile of the server into this folder when it stops. */
  readonly cpuProfDir?: string;
  /** More flags of `webhook serve`, e.g. --kubernetes-version. */
  readonly extraArgs?: readonly string[];
  /** Run the server on this CPU only (`taskset -c`), so a load generator on another one does not compete with it. */
  readonly cpu?: number;
  /** More flags for node itself, e.g. --max-semi-space-size=16. */
  readonly nodeFlags?: readonly string[];
}

const GC_PROBE = fileURLToPath(new URL("./gc-probe.js", import.meta.url));

// The kernel's USER_HZ, in which /proc reports CPU times: 100 on every Linux architecture Node runs on.
const CLOCK_TICKS = 100;
const LISTENING = /listening on (https:\/\/\S+) /;

/** Starts the server and resolves once it prints the address it listens on. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const nodeArgs = [
    ...(options.nodeFlags ?? []),
    "--import",
    GC_PROBE,
    ...(options.cpuProfDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`]),
  ];
  const args = [
    ...nodeArgs,
    options.cli,
    "webhook",
    "serve",
    "--tls-cert",
    options.certFile,
    "--tls-key",
    options.keyFile,
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    ...(options.maxInFlight === undefined ? [] : ["--max-in-flight", String(options.maxInFlight)]),
    ...(options.extraArgs ?? []),
  ];
  const log = openSync(options.logFile, "w");
  const child =
    options.cpu === undefined
      ? spawn(process.execPath, args, { stdio: ["ignore", "pipe", log, "ipc"] })
      : // taskset execs node in place: the child's pid is node's, and every thread it starts inherits the CPU.
        spawn("taskset", ["-c", String(options.cpu), process.execPath, ...args], {
          stdio: ["ignore", "pipe", log, "ipc"],
        });
  closeSync(log);
  const exited = once(child, "exit").then(([code]) => code as number | null);
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    const stdout = child.stdout!;
    stdout.setEncoding("utf8");
    stdout.on("data", (chunk: string) => {
      out += chunk;
      const m = LISTENING.exec(out);
      if (m !== null) resolve(m[1]!);
    });
    void exited.then((code) =>
      reject(
        new Error(
          `the webhook exited (${code}) before listening: ${readFileSync(options.logFile, "utf8").slice(-2000)}`,
        ),
      ),
    );
  });
  const pid = child.pid!;
  // The probe's answers, in order: one per request sent.
  const probe = async <T>(message: string): Promise<T> => {
    const answer = new Promise<T>((resolve, reject) => {
      const onMessage = (m: unknown): void => {
        if ((m as { type?: unknown } | null)?.type !== "gc-probe") return;
        child.off("message", onMessage);
        resolve(m as T);
      };
      child.on("message", onMessage);
      void exited.then(() => reject(new Error("the webhook exited before its GC probe answered")));
    });
    child.send(message);
    return answer;
  };
  return {
    url,
    pid,
    rss() {
      const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
      return Number(m[1]) * 1024;
    },
    cpuSeconds() {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name (which may hold spaces) in parentheses; utime and stime are the 14th and 15th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    },
    stdout() {
      return out;
    },
    async gcStart() {
      await probe("gc-probe:start");
    },
    gcStop() {
      return probe<GcWindow>("gc-probe:stop");
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
