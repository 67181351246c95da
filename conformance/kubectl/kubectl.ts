// kubectl apply --dry-run=server --validate=strict -f FILE, one document a call, a few at a time.
import { spawn } from "node:child_process";
import type { Printed } from "./expect.js";

export interface Kubectl {
  readonly binary: string;
  readonly kubeconfig: string;
  /** kubectl's discovery cache, kept out of $HOME. */
  readonly cacheDir: string;
}

/** Splits output into lines, the last newline dropped. */
export function lines(text: string): string[] {
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}

/** What a kubectl run printed, as text. */
export interface KubectlRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs kubectl with `args` (and `stdin`, for `-f -`); killed after `timeoutMs`. */
export function kubectl(
  k: Kubectl,
  args: readonly string[],
  { stdin = "", timeoutMs = 60_000 }: { stdin?: string; timeoutMs?: number } = {},
): Promise<KubectlRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(k.binary, ["--kubeconfig", k.kubeconfig, "--cache-dir", k.cacheDir, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("error", reject);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

/** kubectl's output split into lines. */
export async function runKubectl(k: Kubectl, args: readonly string[], timeoutMs = 60_000): Promise<Printed> {
  const r = await kubectl(k, args, { timeoutMs });
  return { code: r.code, stdout: lines(r.stdout), stderr: lines(r.stderr) };
}

/** kubectl's answer to a server-side dry-run apply of `file`. */
export function dryRunApply(k: Kubectl, file: string): Promise<Printed> {
  return runKubectl(k, ["apply", "--dry-run=server", "--validate=strict", "-f", file]);
}

/** Runs `work` over `items` with at most `concurrency` in flight; results in input order. */
export async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
