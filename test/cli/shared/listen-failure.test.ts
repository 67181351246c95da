import { createServer, type Server } from "node:net";
import { createSecureContext } from "node:tls";
import { describe, expect, it } from "vitest";
import { CliError, EXIT_FAILURE, EXIT_USAGE } from "../../../src/cli/shared/io.js";
import { listenFailure, tlsMaterialFailure } from "../../../src/cli/shared/listen-failure.js";

// The errors come from Node itself where the loopback can make them: a port
// another server holds, an address no interface has (TEST-NET-1, RFC 5737),
// and OpenSSL refusing a key that is not one.

/** The error Node gives when a server listens at host:port, or undefined when it listened. */
function listenError(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (e: NodeJS.ErrnoException) => resolve(e));
    server.listen(port, host, () => server.close(() => resolve(undefined)));
  });
}

function listening(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

function expectCliError(got: CliError | undefined, message: string, exitCode: number): void {
  expect(got).toBeInstanceOf(CliError);
  expect(got?.message).toBe(message);
  expect(got?.exitCode).toBe(exitCode);
}

describe("listenFailure", () => {
  it("a port another server holds: in use, exit 1", async () => {
    const holder = await listening();
    try {
      const port = (holder.address() as { port: number }).port;
      const e = await listenError("127.0.0.1", port);
      expect(e?.code).toBe("EADDRINUSE");
      expectCliError(
        listenFailure(e, `127.0.0.1:${port}`),
        `cannot listen on 127.0.0.1:${port}: the port is in use`,
        EXIT_FAILURE,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("an address no local interface has: no such local address, exit 2", async () => {
    const e = await listenError("192.0.2.1", 0);
    expect(e?.code).toBe("EADDRNOTAVAIL");
    expectCliError(listenFailure(e, "192.0.2.1:0"), "cannot listen on 192.0.2.1:0: no such local address", EXIT_USAGE);
  });

  it("names the other codes of the same three causes alike", () => {
    const code = (c: string): Error => Object.assign(new Error(c), { code: c });
    expectCliError(
      listenFailure(code("EACCES"), "*:443"),
      "cannot listen on *:443: permission denied (ports below 1024 need privileges)",
      EXIT_FAILURE,
    );
    for (const c of ["ENOTFOUND", "EAI_AGAIN"]) {
      expectCliError(
        listenFailure(code(c), "nowhere.invalid:8443"),
        "cannot listen on nowhere.invalid:8443: no such local address",
        EXIT_USAGE,
      );
    }
  });

  it("leaves any other error to its caller", () => {
    for (const e of [
      new Error("boom"),
      Object.assign(new Error("x"), { code: "ENOENT" }),
      { code: 98 },
      null,
      undefined,
      "EADDRINUSE",
    ]) {
      expect(listenFailure(e, "h:1")).toBeUndefined();
    }
  });
});

describe("tlsMaterialFailure", () => {
  it("OpenSSL refusing a key names the flags and keeps OpenSSL's words, exit 2", () => {
    let e: unknown;
    try {
      createSecureContext({ key: "not a key", cert: "not a certificate" });
    } catch (caught) {
      e = caught;
    }
    expect(e).toBeInstanceOf(Error);
    const got = tlsMaterialFailure(e, "--tls-cert/--tls-key");
    expectCliError(got, `--tls-cert/--tls-key: cannot use them: ${(e as Error).message}`, EXIT_USAGE);
  });

  it("recognizes an ERR_OSSL code or a message about a key, certificate or PEM", () => {
    expect(
      tlsMaterialFailure(Object.assign(new Error("bad decrypt"), { code: "ERR_OSSL_BAD_DECRYPT" }), "--f")?.message,
    ).toBe("--f: cannot use them: bad decrypt");
    expect(tlsMaterialFailure(new Error("No PEM data"), "--f")?.message).toBe("--f: cannot use them: No PEM data");
  });

  it("leaves any other error to its caller", () => {
    for (const e of [new Error("boom"), Object.assign(new Error("in use"), { code: "EADDRINUSE" }), null, undefined]) {
      expect(tlsMaterialFailure(e, "--f")).toBeUndefined();
    }
  });
});
