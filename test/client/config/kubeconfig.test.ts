import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CredentialsError } from "../../../src/client/config/credentials.js";
import { kubeconfigCredentials } from "../../../src/client/config/kubeconfig.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "clusterwire-creds-"));
  dirs.push(d);
  return d;
}

const b64 = (s: string): string => Buffer.from(s).toString("base64");

function kubeconfig(dir: string, text: string): string {
  const file = join(dir, "config");
  writeFileSync(file, text);
  return file;
}

describe("kubeconfigCredentials", () => {
  it("reads the current context's cluster and user, with inline data", async () => {
    const dir = tempDir();
    const file = kubeconfig(
      dir,
      `apiVersion: v1
kind: Config
current-context: prod
contexts:
- name: dev
  context: {cluster: dev, user: dev}
- name: prod
  context: {cluster: prod-cluster, user: admin, namespace: ops}
clusters:
- name: dev
  cluster: {server: "https://dev.example:6443"}
- name: prod-cluster
  cluster:
    server: https://10.0.0.1:6443/
    certificate-authority-data: ${b64("CA PEM")}
    tls-server-name: kubernetes.default
users:
- name: dev
  user: {token: dev-token}
- name: admin
  user:
    client-certificate-data: ${b64("CERT PEM")}
    client-key-data: ${b64("KEY PEM")}
    token: prod-token
`,
    );
    const c = await kubeconfigCredentials(file);
    expect(c.server).toBe("https://10.0.0.1:6443");
    expect(c.ca?.toString()).toBe("CA PEM");
    expect(c.cert?.toString()).toBe("CERT PEM");
    expect(c.key?.toString()).toBe("KEY PEM");
    expect(c.token).toBe("prod-token");
    expect(c.tlsServerName).toBe("kubernetes.default");
    expect(c.insecureSkipTlsVerify).toBeUndefined();
    expect(c.source).toBe(`kubeconfig ${file}, context "prod"`);
    expect(c.tokenFile).toBeUndefined();
  });

  it("reads file references relative to the kubeconfig's folder, a tokenFile, and insecure-skip-tls-verify", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "pki"));
    writeFileSync(join(dir, "pki", "ca.crt"), "CA FILE");
    writeFileSync(join(dir, "pki", "client.crt"), "CERT FILE");
    writeFileSync(join(dir, "pki", "client.key"), "KEY FILE");
    writeFileSync(join(dir, "token"), "token-1\n");
    const file = kubeconfig(
      dir,
      `current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "https://[::1]:6443", certificate-authority: pki/ca.crt, insecure-skip-tls-verify: true}}]
users: [{name: u, user: {client-certificate: pki/client.crt, client-key: ${join(dir, "pki", "client.key")}, tokenFile: token}}]
`,
    );
    const c = await kubeconfigCredentials(file);
    expect([c.server, c.ca?.toString(), c.cert?.toString(), c.key?.toString()]).toEqual([
      "https://[::1]:6443",
      "CA FILE",
      "CERT FILE",
      "KEY FILE",
    ]);
    expect(c.insecureSkipTlsVerify).toBe(true);
    // The token file is named, not read: the client reads it when it sends (config/credentials.ts).
    expect(c.tokenFile).toBe(join(dir, "token"));
    expect(c.token).toBeUndefined();
  });

  it("reads the context named by options.context instead of the current one", async () => {
    const dir = tempDir();
    const file = kubeconfig(
      dir,
      `current-context: a
contexts:
- {name: a, context: {cluster: ka, user: ua}}
- {name: b, context: {cluster: kb, user: ub}}
clusters:
- {name: ka, cluster: {server: "https://a.example"}}
- {name: kb, cluster: {server: "https://b.example:6443"}}
users:
- {name: ua, user: {token: token-a}}
- {name: ub, user: {token: token-b}}
`,
    );
    const a = await kubeconfigCredentials(file);
    const b = await kubeconfigCredentials(file, { context: "b" });
    expect([a.server, a.token, a.source]).toEqual(["https://a.example", "token-a", `kubeconfig ${file}, context "a"`]);
    expect([b.server, b.token, b.source]).toEqual([
      "https://b.example:6443",
      "token-b",
      `kubeconfig ${file}, context "b"`,
    ]);
    await expect(kubeconfigCredentials(file, { context: "c" })).rejects.toThrow(
      `kubeconfig ${file}: contexts has no entry named "c"`,
    );
    await expect(kubeconfigCredentials(file, { context: "" })).rejects.toThrow(
      `kubeconfig ${file}: the context to use is empty`,
    );
  });

  it("needs no current-context when options.context names one", async () => {
    const file = kubeconfig(
      tempDir(),
      "contexts: [{name: x, context: {cluster: k}}]\nclusters: [{name: k, cluster: {server: 'https://k'}}]\n",
    );
    await expect(kubeconfigCredentials(file)).rejects.toThrow("current-context is not set");
    expect((await kubeconfigCredentials(file, { context: "x" })).server).toBe("https://k");
  });

  const broken: [string, string, RegExp][] = [
    ["not YAML", "a: [", /not YAML/],
    ["not a mapping", "- a", /must be a mapping/],
    ["no current-context", "contexts: []", /current-context is not set/],
    ["a missing context", "current-context: x\ncontexts: []", /contexts has no entry named "x"/],
    [
      "a missing cluster",
      "current-context: x\ncontexts: [{name: x, context: {cluster: k}}]\nclusters: []",
      /clusters has no entry named "k"/,
    ],
    [
      "no server",
      "current-context: x\ncontexts: [{name: x, context: {cluster: k}}]\nclusters: [{name: k, cluster: {}}]",
      /cluster "k" has no server/,
    ],
    [
      "plain http",
      "current-context: x\ncontexts: [{name: x, context: {cluster: k}}]\nclusters: [{name: k, cluster: {server: 'http://a'}}]",
      /server must be https/,
    ],
    [
      "an exec plugin",
      "current-context: x\ncontexts: [{name: x, context: {cluster: k, user: u}}]\nclusters: [{name: k, cluster: {server: 'https://a'}}]\nusers: [{name: u, user: {exec: {command: aws}}}]",
      /exec and auth-provider plugins are not supported/,
    ],
    [
      "a proxy-url (not supported, so not silently ignored)",
      "current-context: x\ncontexts: [{name: x, context: {cluster: k}}]\nclusters: [{name: k, cluster: {server: 'https://a', proxy-url: 'http://proxy:3128'}}]",
      /proxy-url is not supported/,
    ],
    [
      "a certificate without its key",
      `current-context: x\ncontexts: [{name: x, context: {cluster: k, user: u}}]\nclusters: [{name: k, cluster: {server: 'https://a'}}]\nusers: [{name: u, user: {client-certificate-data: ${b64("C")}}}]`,
      /client-certificate and client-key must be given together/,
    ],
    [
      "a missing CA file",
      "current-context: x\ncontexts: [{name: x, context: {cluster: k}}]\nclusters: [{name: k, cluster: {server: 'https://a', certificate-authority: nope.crt}}]",
      /cannot read certificate-authority .*nope\.crt: no such file/,
    ],
  ];
  for (const [what, text, message] of broken) {
    it(`refuses ${what} with a CredentialsError naming the file`, async () => {
      const file = kubeconfig(tempDir(), text);
      const e = await kubeconfigCredentials(file).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(CredentialsError);
      expect((e as Error).message).toMatch(message);
      expect((e as Error).message.startsWith(`kubeconfig ${file}: `)).toBe(true);
    });
  }

  it("never puts a token or key in its messages", async () => {
    const file = kubeconfig(
      tempDir(),
      `current-context: x\ncontexts: [{name: x, context: {cluster: k, user: u}}]\nclusters: [{name: k, cluster: {server: 'https://a'}}]\nusers: [{name: u, user: {token: s3cr3t, client-key-data: ${b64("PRIVATE")}}}]`,
    );
    const e = (await kubeconfigCredentials(file).catch((x: unknown) => x)) as Error;
    expect(e.message).not.toMatch(/s3cr3t|PRIVATE/);
  });

  it("names a missing kubeconfig file", async () => {
    await expect(kubeconfigCredentials("/nonexistent/kubeconfig")).rejects.toThrow(
      "kubeconfig /nonexistent/kubeconfig: cannot read: no such file",
    );
  });
});
