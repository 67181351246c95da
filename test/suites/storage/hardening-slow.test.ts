// Slow and dropped connections: slowloris headers, a body that stops or trickles, clients
// that go away mid-request or mid-response, a client that never reads its answer. The
// server times them out with the small limits set here, runs nothing for an incomplete
// request, and keeps serving everyone else meanwhile.
import * as net from "node:net";
import * as tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  createReferenceServer,
  type ReferenceServer,
} from "../../../src/storage/server/index.js";
import { gatedServerClock } from "../../support/storage/clocks.js";
import { AUTH, exchange, expectApiError, head, trickle, waitUntil } from "../../support/storage/hardening-harness.js";
import { certProblem, makeCert } from "../../support/storage/cert.js";
import { PASSWORD, USER, start, type Harness } from "../../support/storage/server-harness.js";
import { eachNeeds } from "../../support/tools.js";

const LIMITS = { headersTimeoutMs: 300, requestTimeoutMs: 800, keepAliveTimeoutMs: 200, idleTimeoutMs: 400 } as const;
// Node's connection limits run on real time, so these tests cannot use the server's clock.
// What they assert does not depend on the machine's speed: a limit is never reached early
// (timers do not fire early), and the close comes from the configured limit rather than the
// default one (it comes before the default limit would have passed; exchanges wait that long).
// Nothing waits a fixed time for the server to "catch up": tests wait for the event itself.
const PATIENCE = { headers: DEFAULT_HEADERS_TIMEOUT_MS, request: DEFAULT_REQUEST_TIMEOUT_MS / 2 } as const;
const RULES = "/api/storage/quota/rules";

let h: Harness;
beforeAll(async () => {
  h = await start(LIMITS);
  const r = await h.call("POST", RULES, {
    svm: { name: "svm1" },
    volume: { name: "vol1" },
    type: "tree",
    qtree: { name: "q1" },
    files: { hard_limit: 10 },
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await h.close();
});

/** The tree rule's files limit: changed only by a request that arrived whole. */
async function filesLimit(): Promise<number> {
  const r = await h.call("GET", `${RULES}?qtree.name=q1&fields=files`);
  return r.body.records[0].files.hard_limit as number;
}

/** A normal request: it must be served while slow ones are pending. */
async function quickly(on: Harness = h): Promise<void> {
  const r = await on.call("GET", "/api/cluster/nodes");
  expect(r.status).toBe(200);
}

describe("slow requests", () => {
  it("slowloris: headers trickled a byte at a time get 408 after headersTimeoutMs", async () => {
    const request = head("GET", "/api/cluster/nodes");
    const slow = Array.from({ length: 10 }, () =>
      exchange(
        h.server.port,
        (s, st) => {
          let i = 0;
          const timer = setInterval(() => {
            if (s.destroyed || i >= request.length) {
              clearInterval(timer);
              return;
            }
            st.written++;
            s.write(request[i++]!);
          }, 25);
          s.once("close", () => clearInterval(timer));
        },
        PATIENCE.headers,
      ),
    );
    for (const r of await Promise.all(slow)) {
      expectApiError(r, 408, "262194");
      expect(r.closed).toBe(true);
      expect(r.ms).toBeGreaterThanOrEqual(250);
      expect(r.ms).toBeLessThan(PATIENCE.headers);
      // Cut off before the whole head went out.
      expect(r.written).toBeLessThan(request.length);
    }
  });

  it("slowloris connections do not hold up anyone else", async () => {
    // A server whose head limit is long: the slow connections stay open for the whole test,
    // so "served meanwhile" is an ordering, not a race against the limit.
    const patient = await start({ ...LIMITS, headersTimeoutMs: PATIENCE.headers, requestTimeoutMs: PATIENCE.headers });
    try {
      const request = head("GET", "/api/cluster/nodes");
      const states: { written: number }[] = [];
      const sockets: net.Socket[] = [];
      const slow = Array.from({ length: 10 }, () =>
        exchange(
          patient.server.port,
          (s, st) => {
            states.push(st);
            sockets.push(s);
            let i = 0;
            const timer = setInterval(() => {
              if (s.destroyed || i >= request.length - 1) return clearInterval(timer);
              st.written++;
              s.write(request[i++]!);
            }, 25);
            s.once("close", () => clearInterval(timer));
          },
          PATIENCE.headers,
        ),
      );
      let settled = 0;
      for (const p of slow) void p.then(() => settled++);
      // Every slow connection has started its head.
      await waitUntil(() => states.length === 10 && states.every((st) => st.written >= 2));
      for (let i = 0; i < 5; i++) await quickly(patient);
      expect(settled).toBe(0);
      for (const s of sockets) s.destroy();
      await Promise.all(slow);
    } finally {
      await patient.close();
    }
  });

  it("a connection that sends nothing is closed", async () => {
    const r = await exchange(h.server.port, () => {}, PATIENCE.headers);
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(PATIENCE.headers);
    if (r.status !== undefined) expectApiError(r, 408, "262194");
  });

  it("a body trickled slower than requestTimeoutMs allows gets 408, and nothing is changed", async () => {
    const body = JSON.stringify({ files: { hard_limit: 99 } });
    const r = await exchange(
      h.server.port,
      (s, st) => {
        const text = head("PATCH", `${RULES}?qtree.name=q1`, {
          "Content-Type": "application/json",
          "Content-Length": body.length + 1_000,
        });
        st.written += text.length;
        s.write(text);
        // Each byte well inside idleTimeoutMs, so only the whole-request limit can stop it.
        trickle(s, st, " ", 50, 200);
      },
      PATIENCE.request,
    );
    expectApiError(r, 408, "262194");
    expect(r.closed).toBe(true);
    expect(r.ms).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 100);
    expect(r.ms).toBeLessThan(PATIENCE.request);
    expect(await filesLimit()).toBe(10);
  });

  it("a body completed just after its 408 is not run", async () => {
    const body = JSON.stringify({ files: { hard_limit: 55 } });
    const r = await exchange(h.server.port, (s, st) => {
      const text = head("PATCH", `${RULES}?qtree.name=q1`, {
        "Content-Type": "application/json",
        "Content-Length": body.length,
      });
      st.written += text.length;
      s.write(text);
      let i = 0;
      const timer = setInterval(() => {
        if (s.destroyed || i >= body.length - 1) return clearInterval(timer);
        st.written++;
        s.write(body[i++]!);
      }, 50);
      // The moment the 408 arrives, the rest of the body follows.
      s.once("data", () => {
        clearInterval(timer);
        s.write(body.slice(i));
      });
      s.once("close", () => clearInterval(timer));
    });
    expectApiError(r, 408, "262194");
    // Wait for the server to have dealt with the late body (its log line), not for a fixed time.
    const line = `PATCH ${RULES} not run: the request was refused (too slow) before its body was complete`;
    await waitUntil(() => h.logs.includes(line));
    expect(await filesLimit()).toBe(10);
  });

  it("a body that stops half way is cut off, and the half request runs nothing", async () => {
    const body = JSON.stringify({ files: { hard_limit: 77 } });
    const r = await exchange(
      h.server.port,
      (s, st) => {
        const text = `${head("PATCH", `${RULES}?qtree.name=q1`, { "Content-Type": "application/json", "Content-Length": body.length })}${body.slice(0, 10)}`;
        st.written += text.length;
        s.write(text);
      },
      PATIENCE.request,
    );
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(PATIENCE.request);
    if (r.status !== undefined) expectApiError(r, 408, "262194");
    expect(await filesLimit()).toBe(10);
  });

  it("a DELETE whose body is cut by the client going away deletes nothing", async () => {
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const s = net.connect(h.server.port, "127.0.0.1", () => {
          // With Expect: 100-continue the server says when it has taken the head and is reading
          // the body: the client goes away at that moment, with the body cut short.
          s.write(
            `${head("DELETE", `${RULES}?qtree.name=q1`, { "Content-Type": "application/json", "Content-Length": 100, Expect: "100-continue" })}{"a"`,
          );
          s.once("data", () => s.destroy());
        });
        s.on("error", () => {});
        s.on("close", () => resolve());
      });
    }
    // Wait for the server to have seen the five closes (its log lines), not for a fixed time.
    const line = `DELETE ${RULES} not run: the client closed the connection before the request was complete`;
    await waitUntil(() => h.logs.filter((l) => l === line).length >= 5);
    expect(await filesLimit()).toBe(10);
    expect(h.logs.filter((l) => l === line)).toHaveLength(5);
    expect(h.logs.some((l) => l.includes("internal error"))).toBe(false);
  });

  it("a keep-alive connection left idle is closed after keepAliveTimeoutMs", async () => {
    let answeredAt = 0;
    const started = Date.now();
    const r = await exchange(
      h.server.port,
      (s) => {
        s.write(head("GET", "/api/cluster/nodes"));
        s.once("data", () => (answeredAt = Date.now()));
      },
      PATIENCE.headers,
    );
    expect(r.status).toBe(200);
    expect(r.closed).toBe(true);
    const idle = started + r.ms - answeredAt;
    expect(r.text).toContain("Keep-Alive: timeout=0");
    // Node keeps the socket 1 s past the advertised timeout, so a client never races the close;
    // the close comes from the configured limit, before the default one would.
    expect(idle).toBeGreaterThanOrEqual(LIMITS.keepAliveTimeoutMs - 50);
    expect(idle).toBeLessThan(DEFAULT_KEEP_ALIVE_TIMEOUT_MS + 1_000);
  });
});

describe("answers nobody reads", () => {
  let big: ReferenceServer;
  const bigLogs: string[] = [];
  beforeAll(async () => {
    // About 15 MB of answer: more than loopback socket buffers hold.
    big = await createReferenceServer({
      username: USER,
      password: PASSWORD,
      log: (l) => bigLogs.push(l),
      ...LIMITS,
      inventory: {
        volumes: Array.from({ length: 3_000 }, (_, i) => ({
          name: `v${i}`,
          svm: "svm1",
          path: `/${String(i).padStart(5_000, "p")}`,
        })),
      },
    });
  });
  afterAll(async () => {
    await big.close();
  });
  const BIG_GET = head("GET", "/api/storage/volumes?fields=nas.path");

  it("a client that never reads its answer is disconnected after idleTimeoutMs", async () => {
    const idleLine = `closed a connection idle for ${LIMITS.idleTimeoutMs} ms`;
    const idleBefore = bigLogs.filter((l) => l === idleLine).length;
    const result = await new Promise<{ received: number; declared: number; headLength: number; ms: number }>(
      (resolve) => {
        const started = Date.now();
        const s = net.connect(big.port, "127.0.0.1", () => s.write(BIG_GET));
        let received = 0;
        let headText = "";
        s.on("data", (d: Buffer) => {
          if (received === 0) {
            headText = d.toString("latin1", 0, 300);
            // Stop reading after the first chunk until the server has closed the connection for
            // idleness (its log line), however long that takes on this machine; then drain.
            s.pause();
            void waitUntil(() => bigLogs.filter((l) => l === idleLine).length > idleBefore).then(() => s.resume());
          }
          received += d.length;
        });
        s.on("error", () => {});
        s.on("close", () => {
          const declared = Number(/content-length: (\d+)/i.exec(headText)?.[1] ?? "0");
          resolve({ received, declared, headLength: headText.indexOf("\r\n\r\n") + 4, ms: Date.now() - started });
        });
      },
    );
    expect(result.declared).toBeGreaterThan(10_000_000);
    // The server gave up: the connection closed before the answer was all sent.
    expect(result.headLength).toBeGreaterThan(4);
    expect(result.received).toBeLessThan(result.headLength + result.declared);
    // Not before the idle limit (timers do not fire early).
    expect(result.ms).toBeGreaterThanOrEqual(LIMITS.idleTimeoutMs - 50);
    const ok = await exchange(big.port, head("GET", "/api/cluster/nodes", { Connection: "close" }));
    expect(ok.status).toBe(200);
  });

  it("a client that goes away mid-answer costs nothing; the server keeps serving", async () => {
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const s = net.connect(big.port, "127.0.0.1", () => s.write(BIG_GET));
        s.once("data", () => s.destroy());
        s.on("error", () => {});
        s.on("close", () => resolve());
      });
    }
    const ok = await exchange(big.port, head("GET", "/api/cluster/nodes?fields=name", { Connection: "close" }));
    expect(ok.status).toBe(200);
    expect(ok.json.num_records).toBe(2);
  });
});

describe("the server's own waits are not idle time", () => {
  it("a return_timeout wait longer than idleTimeoutMs is answered", async () => {
    // The server's wait runs on a gated clock: it lasts until the test releases it, which the
    // test does only after more than idleTimeoutMs of real time has passed with the socket
    // silent. The job's end is decided by the same clock, so the answer is 201 however slow
    // the machine is; a slower machine only makes the silent stretch longer.
    const clock = gatedServerClock();
    const server = await createReferenceServer({
      username: USER,
      password: PASSWORD,
      clock,
      jobDurationMs: 700,
      ...LIMITS,
      idleTimeoutMs: 200,
    });
    try {
      const body = JSON.stringify({
        name: "c1",
        svm: { name: "svm1" },
        origins: [{ svm: { name: "svm1" }, volume: { name: "vol1" } }],
      });
      const answer = exchange(
        server.port,
        `${head("POST", "/api/storage/cache/caches?return_timeout=2", { "Content-Type": "application/json", "Content-Length": body.length, Connection: "close" })}${body}`,
        60_000,
      );
      // The server waits for the job (700 ms of its clock, within the 2 s return_timeout).
      expect(await clock.slept).toBe(700);
      // Node's idle timer runs on real time: let three idle periods pass while the server waits.
      await new Promise((resolve) => setTimeout(resolve, 3 * 200));
      clock.release();
      const r = await answer;
      expect(r.status).toBe(201);
      expect(r.closed).toBe(true);
      expect(r.json.job.uuid).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await server.close();
    }
  });

  it("the default limits are in place when no option is given", async () => {
    const server = await createReferenceServer({ username: USER, password: PASSWORD });
    try {
      const r = await fetch(`${server.url}/api/cluster/nodes`, { headers: { authorization: AUTH } });
      expect(r.status).toBe(200);
      expect(r.headers.get("keep-alive")).toBe("timeout=5");
    } finally {
      await server.close();
    }
  });
});

const pem = makeCert();
afterAll(() => pem?.dispose());

describe("over HTTPS", () => {
  eachNeeds("openssl", () => (pem === undefined ? certProblem() : undefined));

  it("the same limits apply: a head that never ends gets 408, a normal request is served", async () => {
    const server = await createReferenceServer({
      username: USER,
      password: PASSWORD,
      https: { key: pem!.key, cert: pem!.cert },
      ...LIMITS,
    });
    try {
      const talk = (request: string): Promise<{ text: string; ms: number }> =>
        new Promise((resolve) => {
          const started = Date.now();
          const s = tls.connect({ host: "127.0.0.1", port: server.port, ca: pem!.cert }, () => s.write(request));
          let text = "";
          s.on("data", (d: Buffer) => (text += d.toString("latin1")));
          s.on("error", () => {});
          s.on("close", () => resolve({ text, ms: Date.now() - started }));
          setTimeout(() => s.destroy(), PATIENCE.headers);
        });
      const slow = await talk("GET /api/cluster/nodes HTTP/1.1\r\nHost: x\r\n");
      expect(slow.text).toMatch(/^HTTP\/1\.1 408 /);
      expect(slow.text).toContain('"code":"262194"');
      expect(slow.ms).toBeLessThan(PATIENCE.headers);
      const ok = await talk(head("GET", "/api/cluster/nodes", { Connection: "close" }));
      expect(ok.text).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await server.close();
    }
  });
});
