// A self-signed certificate for the HTTPS tests of the storage client and reference server.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let problem: string | undefined;

/**
 * Why the last makeCert() got no certificate: openssl is not installed, or it failed (an openssl
 * too old for EC keys or -addext). Undefined after a success.
 */
export function certProblem(): string {
  return problem ?? "makeCert() has not been called";
}

/**
 * A self-signed certificate for 127.0.0.1 from openssl; undefined when openssl is missing or fails
 * (certProblem() says which). Callers skip with test/support/tools.ts, which fails under CI.
 */
export function makeCert(): { key: string; cert: string; dispose(): void } | undefined {
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-hardening-"));
  const dispose = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    const made = {
      key: readFileSync(join(dir, "key.pem"), "utf8"),
      cert: readFileSync(join(dir, "cert.pem"), "utf8"),
      dispose,
    };
    problem = undefined;
    return made;
  } catch (err) {
    dispose();
    const code = (err as { code?: unknown }).code;
    problem =
      code === "ENOENT"
        ? "openssl is not installed (not found on PATH)"
        : `openssl could not make an EC self-signed certificate (${err instanceof Error ? err.message.split("\n")[0] : String(err)})`;
    return undefined;
  }
}
