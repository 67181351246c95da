import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CredentialsError } from "../../../src/client/config/credentials.js";
import { inClusterCredentials, SERVICE_ACCOUNT_DIR } from "../../../src/client/config/in-cluster.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "clusterwire-in-cluster-"));
  dirs.push(d);
  return d;
}

const ENV = { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" };

describe("inClusterCredentials", () => {
  it("reads the service host and port and the CA, and names the token file (read when sending)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "token"), "bound-1");
    writeFileSync(join(dir, "ca.crt"), "CLUSTER CA");
    const c = await inClusterCredentials(ENV, dir);
    expect(c).toEqual({
      server: "https://10.96.0.1:443",
      ca: Buffer.from("CLUSTER CA"),
      tokenFile: join(dir, "token"),
      source: "in-cluster service account",
    });
    const v6 = await inClusterCredentials({ KUBERNETES_SERVICE_HOST: "fd00::1", KUBERNETES_SERVICE_PORT: "443" }, dir);
    expect(v6.server).toBe("https://[fd00::1]:443");
  });

  it("says what is missing: the environment, the token, the CA", async () => {
    const dir = tempDir();
    for (const env of [{}, { KUBERNETES_SERVICE_HOST: "10.96.0.1" }, { ...ENV, KUBERNETES_SERVICE_PORT: "" }]) {
      const e = await inClusterCredentials(env, dir).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(CredentialsError);
      expect((e as Error).message).toMatch(/KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT/);
    }
    await expect(inClusterCredentials(ENV, dir)).rejects.toThrow(
      `service account token ${join(dir, "token")}: no such file`,
    );
    writeFileSync(join(dir, "token"), "t");
    await expect(inClusterCredentials(ENV, dir)).rejects.toThrow(
      `service account CA ${join(dir, "ca.crt")}: no such file`,
    );
  });

  it("looks where the kubelet mounts the service account by default", () => {
    expect(SERVICE_ACCOUNT_DIR).toBe("/var/run/secrets/kubernetes.io/serviceaccount");
  });
});
