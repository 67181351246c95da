import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CredentialsError } from "../../../src/client/config/credentials.js";
import { loadCredentials } from "../../../src/client/config/load.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "clusterwire-load-"));
  dirs.push(d);
  return d;
}

/** A kubeconfig at `file` with contexts "main" (current) and "other", each a server of its own. */
function kubeconfig(file: string, host: string): string {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(
    file,
    `current-context: main
contexts:
- {name: main, context: {cluster: main}}
- {name: other, context: {cluster: other}}
clusters:
- {name: main, cluster: {server: "https://${host}"}}
- {name: other, cluster: {server: "https://other.${host}"}}
`,
  );
  return file;
}

/** A mounted service account under `dir`. */
function serviceAccount(dir: string): string {
  writeFileSync(join(dir, "token"), "sa-token");
  writeFileSync(join(dir, "ca.crt"), "CA");
  return dir;
}
const POD = { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" };

describe("loadCredentials", () => {
  it("reads the kubeconfig it is given, and no other", async () => {
    const dir = tempDir();
    const given = kubeconfig(join(dir, "given"), "given");
    kubeconfig(join(dir, "home", ".kube", "config"), "home");
    const env = { HOME: join(dir, "home"), KUBECONFIG: kubeconfig(join(dir, "env"), "env") };
    expect((await loadCredentials({ kubeconfig: given, env })).server).toBe("https://given");
    expect((await loadCredentials({ kubeconfig: given, context: "other", env })).server).toBe("https://other.given");
    await expect(loadCredentials({ kubeconfig: join(dir, "missing"), env })).rejects.toThrow(
      `kubeconfig ${join(dir, "missing")}: cannot read: no such file`,
    );
  });

  it("else reads the first file of KUBECONFIG that exists", async () => {
    const dir = tempDir();
    kubeconfig(join(dir, "home", ".kube", "config"), "home");
    const second = kubeconfig(join(dir, "second"), "second");
    const third = kubeconfig(join(dir, "third"), "third");
    const env = { HOME: join(dir, "home"), KUBECONFIG: [join(dir, "first"), "", second, third].join(delimiter) };
    const c = await loadCredentials({ env });
    expect(c.server).toBe("https://second");
    expect(c.source).toBe(`kubeconfig ${second}, context "main"`);
    expect((await loadCredentials({ env, context: "other" })).server).toBe("https://other.second");
  });

  it("else reads ~/.kube/config (also when no file of KUBECONFIG exists)", async () => {
    const dir = tempDir();
    kubeconfig(join(dir, "home", ".kube", "config"), "home");
    expect((await loadCredentials({ env: { HOME: join(dir, "home") } })).server).toBe("https://home");
    const env = { HOME: join(dir, "home"), KUBECONFIG: join(dir, "nowhere") };
    expect((await loadCredentials({ env })).server).toBe("https://home");
  });

  it("else uses the pod's service account", async () => {
    const dir = tempDir();
    const c = await loadCredentials({ env: { HOME: dir, ...POD }, serviceAccountDir: serviceAccount(dir) });
    expect(c.source).toBe("in-cluster service account");
    expect(c.server).toBe("https://10.96.0.1:443");
  });

  it("says everywhere it looked when nothing is found", async () => {
    const dir = tempDir();
    const env = { HOME: dir, KUBECONFIG: join(dir, "a") };
    const e = await loadCredentials({ env }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CredentialsError);
    expect((e as Error).message).toBe(
      `no credentials found: no file of KUBECONFIG exists (${join(dir, "a")}); ${join(dir, ".kube", "config")} does not exist; ` +
        "not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not both set (give a kubeconfig file instead)",
    );
  });

  it("refuses a context when no kubeconfig is found, rather than ignoring it for the service account", async () => {
    const dir = tempDir();
    const e = await loadCredentials({
      env: { HOME: dir, ...POD },
      context: "prod",
      serviceAccountDir: serviceAccount(dir),
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CredentialsError);
    expect((e as Error).message).toBe(
      `context "prod" was asked for, but no kubeconfig file was found: ${join(dir, ".kube", "config")} does not exist`,
    );
  });
});
