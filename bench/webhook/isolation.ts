// Keeping the load generator off the server's CPU: on Linux with taskset
// (util-linux) and at least two CPUs allowed, this process (the generator:
// autocannon and undici run in it) is pinned to one CPU and the server child
// to another. Without it they compete for the same cores, and the generator's
// own stalls and the server's were counted together in the latency.

import { execFileSync } from "node:child_process";

export interface Isolation {
  /** The CPU the server child is to run on (taskset -c), or undefined to run it unpinned. */
  readonly serverCpu: number | undefined;
  /** The CPU this process (the load generator) now runs on, or undefined. */
  readonly generatorCpu: number | undefined;
  /** What was done, or why not, for the bench's output. */
  readonly description: string;
}

/** The CPUs of a taskset list such as "0,1" or "0-3,6". */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (m === null) throw new Error(`not a CPU list: ${JSON.stringify(list)}`);
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    for (let c = lo; c <= hi; c++) cpus.push(c);
  }
  return cpus;
}

const unpinned = (why: string): Isolation => ({
  serverCpu: undefined,
  generatorCpu: undefined,
  description: `none: ${why}; the server and the load generator share the CPUs`,
});

/** Pins this process to one allowed CPU and picks another for the server; or says why it could not. */
export function isolate(wanted: boolean): Isolation {
  if (!wanted) return unpinned("--unpinned");
  if (process.platform !== "linux") return unpinned(`taskset is Linux-only (this is ${process.platform})`);
  let allowed: number[];
  try {
    const out = execFileSync("taskset", ["-c", "-p", String(process.pid)], { encoding: "utf8" });
    allowed = parseCpuList(out.slice(out.lastIndexOf(":") + 1));
  } catch (e) {
    return unpinned(`taskset failed (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`);
  }
  const [generator, server] = allowed;
  if (generator === undefined || server === undefined) {
    return unpinned(`this process may run on ${allowed.length} CPU only`);
  }
  try {
    // -a: every thread of this process (V8's and libuv's), not only the main one.
    execFileSync("taskset", ["-a", "-c", "-p", String(generator), String(process.pid)], { stdio: "ignore" });
  } catch (e) {
    return unpinned(
      `taskset could not pin this process (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`,
    );
  }
  return {
    serverCpu: server,
    generatorCpu: generator,
    description:
      `taskset: the server on CPU ${server}, the load generator (this process) on CPU ${generator}` +
      (allowed.length > 2 ? ` (of ${allowed.join(",")})` : "") +
      "; network namespaces not used (loopback is shared either way, and they do not separate CPU time)",
  };
}
