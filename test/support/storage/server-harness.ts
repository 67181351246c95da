// Helpers for the reference-server tests: a server on loopback with a manual clock and a
// captured log, and a small fetch wrapper.
import {
  createManualClock,
  createReferenceServer,
  type ManualClock,
  type ReferenceServer,
  type ReferenceServerOptions,
} from "../../../src/storage/server/index.js";

export const USER = "admin";
export const PASSWORD = "s3cret-Pa55word!";

/**
 * A JSON answer as the tests read it: walked freely (`body.records[0].uuid`) and checked by the
 * expect() calls that follow, not by the type checker.
 */
// biome-ignore lint/suspicious/noExplicitAny: server answers are walked freely and checked by expect(), not by types
export type JsonAnswer = any;

export interface Harness {
  readonly server: ReferenceServer;
  readonly clock: ManualClock;
  readonly logs: string[];
  call(
    method: string,
    path: string,
    body?: unknown,
    init?: { auth?: string | null; headers?: Record<string, string>; raw?: string | Uint8Array },
  ): Promise<{ status: number; body: JsonAnswer; text: string; headers: Headers }>;
  /** Follows a job to its end by advancing the clock; returns the final job record. */
  finish(jobHref: string): Promise<JsonAnswer>;
  close(): Promise<void>;
}

/** The `error` object of an error answer. */
export const errorOf = (r: { body: JsonAnswer }) => r.body?.error as { message: string; code: string; target?: string };

export const basic = (user: string, pass: string): string =>
  `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

export async function start(options: ReferenceServerOptions = {}): Promise<Harness> {
  const clock = createManualClock();
  const logs: string[] = [];
  const server = await createReferenceServer({
    username: USER,
    password: PASSWORD,
    clock,
    jobDurationMs: 2000,
    log: (l) => logs.push(l),
    ...options,
  });
  const call: Harness["call"] = async (method, path, body, init = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.auth !== null) headers["authorization"] = init.auth ?? basic(USER, PASSWORD);
    let payload: string | Uint8Array | undefined = init.raw;
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(payload === undefined ? {} : { body: payload }),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
  return {
    server,
    clock,
    logs,
    call,
    finish: async (href) => {
      for (let i = 0; i < 100; i++) {
        const r = await call("GET", href);
        if (r.body?.state === "success" || r.body?.state === "failure") return r.body;
        clock.advance(500);
      }
      throw new Error("job never ended");
    },
    close: () => server.close(),
  };
}
