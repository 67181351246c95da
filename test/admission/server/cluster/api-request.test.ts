import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ApiRequestError, apiGet, readResponse } from "../../../../src/admission/server/cluster/api-request.js";
import { startFakeApiServer, type FakeApiServer } from "../../../support/admission/fake-api-server.js";
import { skipWithout } from "../../../support/tools.js";
import { certProblem } from "../../../support/storage/cert.js";

let fake: FakeApiServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const LIST = "/apis/networking.k8s.io/v1/ingresses";
const options = (signal = new AbortController().signal) => ({
  accept: "application/vnd.kubernetes.protobuf",
  timeoutMs: 5_000,
  deadlineMs: 5_000,
  signal,
});

describe("apiGet", () => {
  it("verifies the API server's certificate against the given CA, or skips it only when told", async (t) => {
    fake = await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    const trusted = await apiGet(
      { server: fake.url, ca: Buffer.from(fake.ca), token: fake.token, source: "t" },
      LIST,
      options(),
    );
    expect(trusted.statusCode).toBe(200);
    trusted.resume();
    const untrusted = await apiGet({ server: fake.url, token: fake.token, source: "t" }, LIST, options()).catch(
      (e: unknown) => e,
    );
    expect(untrusted).toBeInstanceOf(ApiRequestError);
    expect((untrusted as ApiRequestError).status).toBe(0);
    expect((untrusted as Error).message).toMatch(/^GET \/apis\/networking\.k8s\.io\/v1\/ingresses: .*certificate/);
    expect((untrusted as Error).message).not.toContain(fake.token);
    const skipped = await apiGet(
      { server: fake.url, token: fake.token, insecureSkipTlsVerify: true, source: "t" },
      LIST,
      options(),
    );
    expect(skipped.statusCode).toBe(200);
    skipped.resume();
    expect(fake.requests.filter((r) => r.authorized)).toHaveLength(2);
  });

  it("gives up when no answer comes within the timeout, and stops when aborted", async (t) => {
    fake = await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    fake.stalled = true;
    const creds = { server: fake.url, ca: Buffer.from(fake.ca), token: fake.token, source: "t" };
    await expect(apiGet(creds, LIST, { ...options(), timeoutMs: 50 })).rejects.toThrow(
      `GET ${LIST}: no answer within 50 ms`,
    );
    const abort = new AbortController();
    const pending = apiGet(creds, LIST, options(abort.signal));
    abort.abort();
    await expect(pending).rejects.toBeInstanceOf(ApiRequestError);
  });
});

describe("apiGet and the token file", () => {
  it("after a 401, reads the token file again and sends the GET once more with a rotated token", async (t) => {
    fake = await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    const dir = mkdtempSync(join(tmpdir(), "clusterwire-api-request-"));
    try {
      const tokenFile = join(dir, "token");
      writeFileSync(tokenFile, "first");
      fake.token = "first";
      const creds = { server: fake.url, ca: Buffer.from(fake.ca), tokenFile, source: "t" };
      (await apiGet(creds, LIST, options())).resume();
      // Rotated: the API server takes only the new token, which the client has not read yet.
      fake.token = "second";
      writeFileSync(tokenFile, "second");
      const res = await apiGet(creds, LIST, options());
      expect(res.statusCode).toBe(200);
      res.resume();
      expect(fake.requests.map((r) => r.authorized)).toEqual([true, false, true]);
      // Unchanged: the 401 is the answer.
      fake.token = "third";
      const refused = await apiGet(creds, LIST, options());
      expect(refused.statusCode).toBe(401);
      refused.resume();
      expect(fake.requests).toHaveLength(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("readResponse", () => {
  it("refuses a body over the limit", async (t) => {
    fake = await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    for (let i = 0; i < 20; i++) {
      fake.apply({
        apiVersion: "networking.k8s.io/v1",
        kind: "Ingress",
        metadata: { name: `i${i}`, namespace: "n" },
        spec: { defaultBackend: { service: { name: "s", port: { number: 80 } } } },
      });
    }
    const creds = { server: fake.url, ca: Buffer.from(fake.ca), token: fake.token, source: "t" };
    const whole = await readResponse(await apiGet(creds, LIST, options()), 1 << 20);
    expect(whole.length).toBeGreaterThan(200);
    await expect(readResponse(await apiGet(creds, LIST, options()), 100)).rejects.toThrow(
      "the response is larger than 100 bytes",
    );
  });
});
