// Oversized requests: bodies over maxBodyBytes / maxUploadBytes get 413 as soon as the
// server knows (from Content-Length, or once the streamed body passes the limit), without
// reading the rest; headers and URLs over maxHeaderBytes get 431.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer } from "../../../src/storage/server/index.js";
import { exchange, expectApiError, head, trickle } from "../../support/storage/hardening-harness.js";
import { PASSWORD, USER, start, type Harness } from "../../support/storage/server-harness.js";

const MAX_BODY = 64 * 1024;
const MAX_UPLOAD = 256 * 1024;
const GiB = 1024 ** 3;
const RULES = "/api/storage/quota/rules";
const UPLOAD = "/api/cluster/software/upload";

let h: Harness;
beforeAll(async () => {
  h = await start({ maxBodyBytes: MAX_BODY, maxUploadBytes: MAX_UPLOAD });
});
afterAll(async () => {
  await h.close();
});

async function stillServing(): Promise<void> {
  expect((await h.call("GET", "/api/cluster/nodes")).status).toBe(200);
}

describe("bodies over the limit", () => {
  it("a declared 1 GiB body trickled slowly is refused with 413 after the headers, and cut off", async () => {
    for (const path of [RULES, UPLOAD, "/api/storage/namespaces/00000000-0000-4000-8000-000000000000"]) {
      let headLength = 0;
      const r = await exchange(
        h.server.port,
        (s, st) => {
          const text = head("POST", path, {
            "Content-Type": path === UPLOAD ? "multipart/form-data; boundary=x" : "application/json",
            "Content-Length": GiB,
          });
          headLength = text.length;
          st.written += text.length;
          s.write(text);
          trickle(s, st, "x", 20, 200);
        },
        60_000,
      );
      expectApiError(r, 413, "262187");
      expect(r.json.error.target).toBe("body");
      expect(r.closed).toBe(true);
      // Refused on the declared length, before the trickle of 200 bytes ended: counted in bytes
      // written, not in milliseconds, so a slow machine cannot change the outcome.
      expect(r.written).toBeLessThan(headLength + 200);
    }
    await stillServing();
  });

  it("the point of refusal does not move with the declared length", async () => {
    const refusedAfter = async (declared: number): Promise<number> => {
      const r = await exchange(h.server.port, (s, st) => {
        const text = head("POST", RULES, { "Content-Type": "application/json", "Content-Length": declared });
        st.written += text.length;
        s.write(text);
        trickle(s, st, "y".repeat(100), 10, 500);
      });
      expectApiError(r, 413, "262187");
      return r.written;
    };
    const small = await refusedAfter(MAX_BODY + 1);
    const huge = await refusedAfter(Number.MAX_SAFE_INTEGER);
    expect(huge).toBeLessThan(small + 2_000);
  });

  it("a chunked body is refused with 413 once it passes the limit, and the rest is not read", async () => {
    const chunk = `${(16 * 1024).toString(16)}\r\n${"z".repeat(16 * 1024)}\r\n`;
    const r = await exchange(
      h.server.port,
      (s, st) => {
        const text = head("PATCH", `${RULES}?type=tree`, {
          "Content-Type": "application/json",
          "Transfer-Encoding": "chunked",
        });
        st.written += text.length;
        s.write(text);
        // As fast as the server lets us, up to 48 MiB: it must stop us long before.
        const pump = (): void => {
          while (!s.destroyed && s.writable && st.written < 48 * 1024 * 1024) {
            st.written += chunk.length;
            if (!s.write(chunk)) {
              s.once("drain", pump);
              return;
            }
          }
        };
        pump();
      },
      5_000,
    );
    expectApiError(r, 413, "262187");
    expect(r.closed).toBe(true);
    // What was written past the limit sits in socket buffers; the server read only the limit.
    expect(r.written).toBeLessThan(24 * 1024 * 1024);
    await stillServing();
  });

  it("413 through fetch for a JSON body one byte over; exactly the limit is read and parsed", async () => {
    const fill = (n: number): string => {
      const base = JSON.stringify({ comment: "" });
      return JSON.stringify({ comment: "c".repeat(n - base.length) });
    };
    const over = await h.call("PATCH", `${RULES}?type=tree`, undefined, {
      raw: fill(MAX_BODY + 1),
      headers: { "content-type": "application/json" },
    });
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe("262187");
    const at = await h.call("PATCH", `${RULES}?type=tree`, undefined, {
      raw: fill(MAX_BODY),
      headers: { "content-type": "application/json" },
    });
    // Read and parsed: refused by the field check, not by the size.
    expect(at.status).toBe(400);
    expect(at.body.error.code).toBe("262179");
    await stillServing();
  });

  it("uploads have their own, larger limit", async () => {
    const part = (size: number): string =>
      `--XYZ\r\nContent-Disposition: form-data; name="file"; filename="image_9.30.1.tgz"\r\n\r\n${"b".repeat(size)}\r\n--XYZ--\r\n`;
    const type = { "content-type": "multipart/form-data; boundary=XYZ" };
    const ok = await h.call("POST", UPLOAD, undefined, { raw: part(MAX_BODY * 2), headers: type });
    expect(ok.status).toBe(202);
    const big = await h.call("POST", UPLOAD, undefined, { raw: part(MAX_UPLOAD), headers: type });
    expect(big.status).toBe(413);
    expect(big.body.error.message).toContain(String(MAX_UPLOAD));
  });

  it("Expect: 100-continue gets 413 instead of 100 Continue, and 100 Continue for a body that fits", async () => {
    const refused = await exchange(
      h.server.port,
      head("POST", RULES, { "Content-Type": "application/json", "Content-Length": GiB, Expect: "100-continue" }),
    );
    expectApiError(refused, 413, "262187");
    expect(refused.text).not.toContain("100 Continue");
    const body = JSON.stringify({
      svm: { name: "svm1" },
      volume: { name: "vol1" },
      type: "tree",
      qtree: { name: "q1" },
    });
    const accepted = await exchange(h.server.port, (s, st) => {
      s.write(
        head("POST", RULES, {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          Expect: "100-continue",
          Connection: "close",
        }),
      );
      s.once("data", () => {
        st.written += body.length;
        s.write(body);
      });
    });
    expect(accepted.text.startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201")).toBe(true);
    const unauthorized = await exchange(
      h.server.port,
      head("POST", RULES, { "Content-Type": "application/json", "Content-Length": 10, Expect: "100-continue" }, false),
    );
    expectApiError(unauthorized, 401, "6");
    expect(unauthorized.text).not.toContain("100 Continue");
  });

  it("memory does not follow the declared length: 20 requests declaring 1 GiB each", async () => {
    const payload = Buffer.alloc(64 * 1024, 0x20);
    const before = process.memoryUsage();
    for (let i = 0; i < 20; i++) {
      const r = await exchange(h.server.port, (s, st) => {
        const text = head("POST", i % 2 === 0 ? RULES : UPLOAD, {
          "Content-Type": "application/json",
          "Content-Length": GiB,
        });
        st.written += text.length + payload.length;
        s.write(text);
        s.write(payload);
      });
      expectApiError(r, 413, "262187");
    }
    const after = process.memoryUsage();
    // 20 GiB declared, 1.3 MiB sent: a server sizing anything by the declared length shows it.
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(32 * 1024 * 1024);
    expect(after.rss - before.rss).toBeLessThan(256 * 1024 * 1024);
  });
});

describe("headers and URLs over the limit", () => {
  it("431 with the error body for a long URL or a big header; the server keeps serving", async () => {
    for (const raw of [
      head("GET", `/api/cluster/nodes/${"a".repeat(17_000)}`),
      head("GET", "/api/cluster/nodes", { "X-Big": "b".repeat(17_000) }),
    ]) {
      const r = await exchange(h.server.port, raw);
      expectApiError(r, 431, "262198");
      expect(r.closed).toBe(true);
    }
    const viaFetch = await h.call("GET", `/api/storage/volumes?name=${"n".repeat(20_000)}`);
    expect(viaFetch.status).toBe(431);
    await stillServing();
  });

  it("maxHeaderBytes sets the limit", async () => {
    const small = await createReferenceServer({ username: USER, password: PASSWORD, maxHeaderBytes: 2_048 });
    try {
      const over = await exchange(small.port, head("GET", "/api/cluster/nodes", { "X-Pad": "p".repeat(3_000) }));
      expectApiError(over, 431, "262198");
      expect(over.json.error.message).toContain("2048");
      const under = await exchange(
        small.port,
        head("GET", "/api/cluster/nodes", { "X-Pad": "p".repeat(1_000), Connection: "close" }),
      );
      expect(under.status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it("refuses nonsensical limits when the server is created", async () => {
    await expect(createReferenceServer({ maxHeaderBytes: 0 })).rejects.toThrow(RangeError);
    await expect(createReferenceServer({ headersTimeoutMs: -1 })).rejects.toThrow(/headersTimeoutMs/);
    await expect(createReferenceServer({ idleTimeoutMs: 1.5 })).rejects.toThrow(/idleTimeoutMs/);
    await expect(createReferenceServer({ headersTimeoutMs: 2_000, requestTimeoutMs: 1_000 })).rejects.toThrow(
      /must not exceed/,
    );
  });
});
