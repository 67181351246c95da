import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_VERDICTS } from "../../../src/admission/index.js";
import { startFakeApiServer } from "../../support/admission/fake-api-server.js";
import { type Reply, send } from "../../support/admission/server.js";
import { REPO, type Serving, cli, expectNoStack, serve as serveCli } from "../../support/cli/harness.js";
import { certProblem, makeCert } from "../../support/storage/cert.js";
import { skipWithout } from "../../support/tools.js";

// `clusterwire webhook serve` runs in-process: it stops when io.signal aborts,
// and the test reads the URL from what it printed.

const tmp = mkdtempSync(join(tmpdir(), "clusterwire-webhook-cli-"));
let ca = "";
beforeAll(() => {
  const made = makeCert();
  if (made === undefined) throw new Error("openssl is needed to make a test certificate");
  writeFileSync(join(tmp, "tls.crt"), made.cert);
  writeFileSync(join(tmp, "tls.key"), made.key);
  ca = made.cert;
  made.dispose();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Starts `webhook serve ARGS` in the temporary folder and waits for its URL line. */
const serve = (args: string[]): Promise<Serving> => serveCli(["webhook", "serve", ...args], { cwd: tmp });

/** POST /validate to the served webhook on a connection of its own, trusting the test certificate. */
const post = (url: string, body: string): Promise<Reply> =>
  send({ url }, false, ca, "POST", "/validate", body, { "content-type": "application/json" });

describe("webhook serve", () => {
  it("serves reviews over HTTPS, logs JSON lines, and stops on abort with exit 0", async () => {
    const s = await serve(["--tls-cert", "tls.crt", "--tls-key", "tls.key", "--port", "0", "--host", "127.0.0.1"]);
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const review = {
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: {
        uid: "u-1",
        kind: { group: "networking.k8s.io", version: "v1", kind: "Ingress" },
        operation: "CREATE",
        namespace: "shop",
        object: { apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata: { name: "web" }, spec: {} },
      },
    };
    const reply = await post(s.url, JSON.stringify(review));
    expect(reply.status).toBe(200);
    const answer = JSON.parse(reply.body) as { response: { uid: string; allowed: boolean; status: { code: number } } };
    expect(answer.response).toMatchObject({ uid: "u-1", allowed: false, status: { code: 422 } });
    expect(await s.stop()).toBe(0);
    const lines = s.stderr().trim().split("\n");
    expect(lines).toContain("clusterwire webhook serve: draining and stopping");
    const logged = lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.map((l) => l["msg"])).toEqual(["serving", "review", "stopped"]);
  });

  const policyReview = (uid: string, cidr: string): string =>
    JSON.stringify({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: {
        uid,
        kind: { group: "networking.k8s.io", version: "v1", kind: "NetworkPolicy" },
        operation: "CREATE",
        namespace: "shop",
        object: {
          apiVersion: "networking.k8s.io/v1",
          kind: "NetworkPolicy",
          metadata: { name: "p", labels: { team: "payments" } },
          spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr } }] }] },
        },
      },
    });
  const base = ["--tls-cert", "tls.crt", "--tls-key", "tls.key", "--port", "0", "--host", "127.0.0.1"];
  const reviewLines = (stderr: string) =>
    stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l["msg"] === "review");

  it("writes every log line gathered in its batches by the time it has stopped, in order", async () => {
    const s = await serve(base);
    const uids = Array.from({ length: 40 }, (_, i) => `b-${i}`);
    for (const uid of uids) expect((await post(s.url, policyReview(uid, "10.0.0.0/8"))).status).toBe(200);
    expect(await s.stop()).toBe(0);
    expect(reviewLines(s.stderr()).map((l) => l["uid"])).toEqual(uids);
    const lines = s.stderr().trim().split("\n");
    const at = (p: (l: string) => boolean): number => lines.findIndex(p);
    const draining = at((l) => l === "clusterwire webhook serve: draining and stopping");
    expect(at((l) => l.includes('"msg":"serving"'))).toBeLessThan(at((l) => l.includes('"uid":"b-0"')));
    expect(at((l) => l.includes('"uid":"b-39"'))).toBeLessThan(draining);
    expect(draining).toBeLessThan(at((l) => l.includes('"msg":"stopped"')));
  });

  it("sends the API server's warnings by default, and --strict refuses them with a 403 naming the guard", async () => {
    const plain = await serve(base);
    const warned = JSON.parse((await post(plain.url, policyReview("w", "10.0.0.1/8"))).body) as {
      response: { allowed: boolean; warnings?: string[] };
    };
    expect(warned.response.allowed).toBe(true);
    expect(warned.response.warnings).toEqual([
      expect.stringMatching(/^spec\.ingress\[0\]\.from\[0\]\.ipBlock\.cidr: CIDR value "10\.0\.0\.1\/8" is ambiguous/),
    ]);
    expect(await plain.stop()).toBe(0);

    const strict = await serve([...base, "--strict"]);
    const refused = JSON.parse((await post(strict.url, policyReview("s", "10.0.0.1/8"))).body) as {
      response: { allowed: boolean; status: { code: number; reason: string; message: string } };
    };
    expect(refused.response).toMatchObject({ allowed: false, status: { code: 403, reason: "Forbidden" } });
    expect(refused.response.status.message).toContain('guard "strict"');
    const clean = JSON.parse((await post(strict.url, policyReview("c", "10.0.0.0/8"))).body) as {
      response: { allowed: boolean };
    };
    expect(clean.response.allowed).toBe(true);
    expect(await strict.stop()).toBe(0);
    expect(reviewLines(strict.stderr()).map((l) => [l["uid"], l["verdict"], l["guard"]])).toEqual([
      ["s", "guarded", "strict"],
      ["c", "allowed", undefined],
    ]);
  });

  it("listens on loopback by default, without the warning it gives for other addresses", async () => {
    const s = await serve(["--tls-cert", "tls.crt", "--tls-key", "tls.key", "--port", "0"]);
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await s.stop()).toBe(0);
    expect(s.stderr()).not.toContain("warning");
    const help = await cli(["webhook", "serve", "--help"]);
    expect(help.stdout).toMatch(/--host H\s+address to listen on \(default 127\.0\.0\.1: this\s+host only\)/);
    expect(help.stdout).toContain("--host '*'");
    // The help names the log's verdicts, which are the metrics' labels.
    for (const verdict of REVIEW_VERDICTS) expect(help.stdout).toContain(verdict);
  });

  it("logs the objects only with --log-objects", async () => {
    for (const [flags, logged] of [
      [[], false],
      [["--log-objects"], true],
    ] as const) {
      const s = await serve([...base, ...flags]);
      expect((await post(s.url, policyReview("l", "10.0.0.0/8"))).status).toBe(200);
      expect(await s.stop()).toBe(0);
      const [line] = reviewLines(s.stderr());
      expect(line?.["uid"]).toBe("l");
      expect(Object.hasOwn(line ?? {}, "object")).toBe(logged);
      expect(s.stderr().includes("payments")).toBe(logged);
    }
  });

  it.each([
    [[], /--tls-cert and --tls-key are required/],
    [["--tls-cert", "tls.crt"], /--tls-cert and --tls-key are required/],
    [
      ["--tls-cert", "tls.crt", "--tls-key", "tls.key", "--port", "70000"],
      /--port must be a whole number from 0 to 65535/,
    ],
    [
      ["--tls-cert", "tls.crt", "--tls-key", "tls.key", "--max-in-flight", "0"],
      /--max-in-flight must be a whole number/,
    ],
    [["--tls-cert", "missing.crt", "--tls-key", "tls.key", "--port", "0"], /missing\.crt: cannot read/],
    [["--tls-cert", "tls.key", "--tls-key", "tls.crt", "--port", "0"], /--tls-cert\/--tls-key: cannot use them/],
    [["--tls-cert", "tls.crt", "--tls-key", "tls.key", "extra"], /unexpected argument "extra"/],
  ])("refuses %j with a usage error (exit 2)", async (args, message) => {
    const r = await cli(["webhook", "serve", ...args], { cwd: tmp });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expectNoStack(r);
  });

  it("prints its help, and the group lists serve", async () => {
    const help = await cli(["webhook", "serve", "--help"], { cwd: REPO });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: clusterwire webhook serve --tls-cert FILE --tls-key FILE/);
    expect(help.stdout).toMatch(/--strict\s+guard "strict"/);
    expect(help.stdout).toMatch(/--log-objects\s+put each review's object/);
    const group = await cli(["webhook", "--help"], { cwd: REPO });
    expect(group.stdout).toMatch(/serve\s+serve the validating admission webhook/);
  });

  it("--ingress-capture: refuses, from a kubeconfig's cluster, an Ingress that captures another namespace's", async (t) => {
    const fake = await startFakeApiServer();
    if (fake === undefined) return skipWithout(t, "openssl", certProblem());
    try {
      fake.apply({
        apiVersion: "networking.k8s.io/v1",
        kind: "Ingress",
        metadata: { name: "web", namespace: "shop" },
        spec: {
          rules: [
            {
              host: "shop.example.com",
              http: {
                paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "s", port: { number: 80 } } } }],
              },
            },
          ],
        },
      });
      writeFileSync(
        join(tmp, "kubeconfig"),
        `current-context: test
contexts: [{name: test, context: {cluster: fake, user: hook}}]
clusters: [{name: fake, cluster: {server: "${fake.url}", certificate-authority-data: ${Buffer.from(fake.ca).toString("base64")}}}]
users: [{name: hook, user: {token: ${fake.token}}}]
`,
      );
      const s = await serve([
        "--tls-cert",
        "tls.crt",
        "--tls-key",
        "tls.key",
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--ingress-capture",
        "--kubeconfig",
        "kubeconfig",
        "--resync",
        "10m",
      ]);
      const review = JSON.stringify({
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        request: {
          uid: "u-cap",
          kind: { group: "networking.k8s.io", version: "v1", kind: "Ingress" },
          operation: "CREATE",
          namespace: "evil",
          object: {
            apiVersion: "networking.k8s.io/v1",
            kind: "Ingress",
            metadata: { name: "grab", namespace: "evil" },
            spec: {
              rules: [
                {
                  host: "shop.example.com",
                  http: {
                    paths: [
                      { path: "/", pathType: "Prefix", backend: { service: { name: "s", port: { number: 80 } } } },
                    ],
                  },
                },
              ],
            },
          },
        },
      });
      let code = 0;
      const deadline = Date.now() + 10_000;
      // 503 until the first list is in, then the guard's 403.
      while (code !== 403 && Date.now() < deadline) {
        code = (JSON.parse((await post(s.url, review)).body) as { response: { status: { code: number } } }).response
          .status.code;
        if (code !== 403) await new Promise((r) => setTimeout(r, 20));
      }
      expect(code).toBe(403);
      expect(await s.stop()).toBe(0);
      expect(s.stderr()).toContain('"msg":"listed","component":"ingress-watch","resource":"ingresses"');
      expect(s.stderr()).not.toContain(fake.token);
    } finally {
      await fake.close();
    }
  });

  it("--ingress-capture: usage errors name the flag and what is missing", async () => {
    const base = ["webhook", "serve", "--tls-cert", "tls.crt", "--tls-key", "tls.key", "--port", "0"];
    const noGuard = await cli([...base, "--kubeconfig", "kc"], { cwd: tmp });
    expect([noGuard.code, noGuard.stderr]).toEqual([
      2,
      expect.stringContaining("--ingress-capture, which is not given"),
    ]);
    const badResync = await cli([...base, "--ingress-capture", "--resync", "soon"], { cwd: tmp });
    expect([badResync.code, badResync.stderr]).toEqual([2, expect.stringContaining("--resync must be a duration")]);
    const notInCluster = await cli([...base, "--ingress-capture"], { cwd: tmp, env: {} });
    expect([notInCluster.code, notInCluster.stderr]).toEqual([2, expect.stringContaining("KUBERNETES_SERVICE_HOST")]);
    const missing = await cli([...base, "--ingress-capture", "--kubeconfig", "nope"], { cwd: tmp });
    expect([missing.code, missing.stderr]).toEqual([
      2,
      expect.stringContaining(`kubeconfig ${join(tmp, "nope")}: cannot read: no such file`),
    ]);
    for (const r of [noGuard, badResync, notInCluster, missing]) expectNoStack(r);
  });

  it("serve and certs take only options: a positional argument is a usage error, exit 2", async () => {
    for (const sub of ["serve", "certs"]) {
      const r = await cli(["webhook", sub, "extra"], { cwd: tmp });
      expect([r.code, r.stdout, r.stderr]).toEqual([
        2,
        "",
        `clusterwire: unexpected argument "extra"; webhook ${sub} takes only options\nRun 'clusterwire webhook ${sub} --help' for usage.\n`,
      ]);
    }
  });
});

describe("webhook certs", () => {
  it("writes ca.crt, tls.crt and tls.key, prints the caBundle on stdout and the files on stderr, never a key", async () => {
    const r = await cli(
      ["webhook", "certs", "--service", "hook", "--namespace", "ops", "--dns", "hook.example.com", "--out", "certs"],
      { cwd: tmp },
    );
    expect(r.stderr).toContain(join(tmp, "certs", "tls.key"));
    expect(r.code).toBe(0);
    const dir = join(tmp, "certs");
    expect(readdirSync(dir).sort()).toEqual(["ca.crt", "tls.crt", "tls.key"]);
    expect(r.stdout).toBe(`${readFileSync(join(dir, "ca.crt")).toString("base64")}\n`);
    expect(statSync(join(dir, "tls.key")).mode & 0o777).toBe(0o600);
    expect(r.stderr).toContain("hook.ops.svc.cluster.local, hook.example.com");
    const key = readFileSync(join(dir, "tls.key"), "utf8");
    const body = key.split("\n")[1] as string;
    expect(`${r.stdout}${r.stderr}`).not.toContain(body);
    expect(`${r.stdout}${r.stderr}`).not.toContain("PRIVATE KEY");

    const again = await cli(["webhook", "certs", "--service", "hook", "--namespace", "ops", "--out", "certs"], {
      cwd: tmp,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/ca\.crt exists already; remove it or overwrite it with --force/);
    expect(again.stdout).toBe("");
    expect(readFileSync(join(dir, "tls.key"), "utf8")).toBe(key);
    const forced = await cli(
      [
        "webhook",
        "certs",
        "--service",
        "hook",
        "--namespace",
        "ops",
        "--out",
        "certs",
        "--force",
        "--key-type",
        "rsa-2048",
        "--days",
        "7",
      ],
      { cwd: tmp },
    );
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, "tls.key"), "utf8")).not.toBe(key);
  });

  it.each([
    [[], /--service and --namespace are required/],
    [["--service", "hook"], /--service and --namespace are required/],
    [["--service", "Hook", "--namespace", "ops"], /--service: service "Hook"/],
    [["--service", "hook", "--namespace", "ops", "--dns", "bad name"], /--dns: DNS name "bad name"/],
    [
      ["--service", "hook", "--namespace", "ops", "--dns", "127.0.0.1"],
      /--dns 127\.0\.0\.1: .*; use --ip 127\.0\.0\.1$/m,
    ],
    [
      ["--service", "hook", "--namespace", "ops", "--dns", "::1"],
      /--dns ::1: an IP address is not a DNS name.*use --ip ::1/,
    ],
    [["--service", "hook", "--namespace", "ops", "--ip", "localhost"], /--ip: IP address "localhost"/],
    [["--service", "hook", "--namespace", "ops", "--days", "0"], /--days: days must be a whole number from 1 to 3650/],
    [["--service", "hook", "--namespace", "ops", "--days", "x"], /--days must be a whole number/],
    [["--service", "hook", "--namespace", "ops", "--key-type", "dsa"], /--key-type must be ecdsa-p256 or rsa-2048/],
    [["--service", "hook", "--namespace", "ops", "--out", ""], /--out must not be empty/],
    [["--service", "hook", "--namespace", "ops", "extra"], /unexpected argument "extra"/],
  ])("refuses %j with a usage error (exit 2), writing nothing", async (args, message) => {
    const cwd = mkdtempSync(join(tmp, "usage-"));
    const r = await cli(["webhook", "certs", ...args], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(readdirSync(cwd)).toEqual([]);
    expectNoStack(r);
  });

  it("puts each --ip address in the serving certificate, as openssl reads it", async () => {
    const r = await cli(
      [
        "webhook",
        "certs",
        "--service",
        "hook",
        "--namespace",
        "ops",
        "--ip",
        "127.0.0.1",
        "--ip",
        "::1",
        "--out",
        "ip",
      ],
      { cwd: tmp },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("hook.ops.svc.cluster.local, 127.0.0.1, ::1\n");
    const san = execFileSync(
      "openssl",
      ["x509", "-in", join(tmp, "ip", "tls.crt"), "-noout", "-ext", "subjectAltName"],
      {
        encoding: "utf8",
      },
    );
    expect([...san.matchAll(/IP Address:([^,\s]+)/g)].map((m) => m[1])).toEqual(["127.0.0.1", "0:0:0:0:0:0:0:1"]);
  });

  it("is listed by the group and prints its help", async () => {
    const help = await cli(["webhook", "certs", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: clusterwire webhook certs --service NAME --namespace NS/);
    expect((await cli(["webhook", "--help"])).stdout).toMatch(/certs\s+make a CA and serving certificate/);
  });
});
