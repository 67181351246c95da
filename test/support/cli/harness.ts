// Runs the CLI in-process through run(argv, io), so the CLI tests need no build.
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { run, type CliIO } from "../../../src/cli/main.js";

export const REPO = fileURLToPath(new URL("../../../", import.meta.url));

export interface Result {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly bytes: Uint8Array;
}

export interface RunOptions {
  readonly stdin?: Uint8Array | string | readonly Uint8Array[];
  readonly stdinIsTTY?: boolean;
  readonly stdoutIsTTY?: boolean;
  /** Default: the repository root. */
  readonly cwd?: string;
  /** Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Runs the CLI with cwd at the repository root, capturing everything it writes. */
export async function cli(argv: string[], options: RunOptions = {}): Promise<Result> {
  const out: Uint8Array[] = [];
  let err = "";
  const enc = new TextEncoder();
  const stdinChunks =
    options.stdin === undefined
      ? []
      : typeof options.stdin === "string"
        ? [enc.encode(options.stdin)]
        : options.stdin instanceof Uint8Array
          ? [options.stdin]
          : options.stdin;
  const io: CliIO = {
    stdout: { write: (c) => out.push(typeof c === "string" ? enc.encode(c) : c), isTTY: options.stdoutIsTTY === true },
    stderr: { write: (c) => (err += typeof c === "string" ? c : new TextDecoder().decode(c)) },
    stdin: { chunks: stdinChunks, isTTY: options.stdinIsTTY === true },
    cwd: options.cwd ?? REPO,
    ...(options.env === undefined ? {} : { env: options.env }),
  };
  const code = await run(argv, io);
  const bytes = Buffer.concat(out);
  return { code, stdout: bytes.toString("utf8"), stderr: err, bytes: new Uint8Array(bytes) };
}

/** A serving command (`webhook serve`, `storage serve`) running in-process. */
export interface Serving {
  /** The URL from its `listening on URL` line. */
  readonly url: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Aborts io.signal, as SIGINT or SIGTERM would, and resolves to the exit code. */
  stop(): Promise<number>;
}

/**
 * Runs a serving command in-process and waits for its `listening on URL` line;
 * rejects with its exit code and stderr when it exits before that line.
 */
export async function serve(argv: string[], options: Pick<RunOptions, "cwd" | "env"> = {}): Promise<Serving> {
  const controller = new AbortController();
  let out = "";
  let err = "";
  let announce: (url: string) => void = () => {};
  const listening = new Promise<string>((resolve) => (announce = resolve));
  const io: CliIO = {
    stdout: {
      write: (c) => {
        out += String(c);
        const m = /listening on (\S+)/.exec(out);
        if (m !== null) announce(m[1] as string);
      },
    },
    stderr: { write: (c) => (err += String(c)) },
    cwd: options.cwd ?? REPO,
    ...(options.env === undefined ? {} : { env: options.env }),
    signal: controller.signal,
  };
  const done = run(argv, io);
  const url = await Promise.race([listening, done.then((code) => Promise.reject(new Error(`exited ${code}: ${err}`)))]);
  return {
    url,
    stdout: () => out,
    stderr: () => err,
    stop: () => {
      controller.abort();
      return done;
    },
  };
}

export function expectNoStack(r: Result): void {
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toContain("internal error");
}

/** An io that captures stdout (stderr is dropped), with cwd at the repository root: for the demo's sections. */
export function capture(): {
  io: { stdout: { write: (c: string | Uint8Array) => void }; stderr: { write: () => void }; cwd: string };
  out: () => string;
} {
  let text = "";
  return {
    io: { stdout: { write: (c) => (text += String(c)) }, stderr: { write: () => {} }, cwd: REPO },
    out: () => text,
  };
}
