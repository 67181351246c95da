// A self-signed certificate for the HTTPS tests of the storage client and reference server.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A self-signed certificate for 127.0.0.1 from openssl; undefined when openssl is missing. */
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
    return {
      key: readFileSync(join(dir, "key.pem"), "utf8"),
      cert: readFileSync(join(dir, "cert.pem"), "utf8"),
      dispose,
    };
  } catch {
    dispose();
    return undefined;
  }
}
