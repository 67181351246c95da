// A real kube-apiserver and etcd on loopback, built from pinned sources through the Go module
// proxy: `npm run apiserver` (scripts/apiserver.mjs) and the tests (test/support/controlplane/)
// both start it from here. Types: scripts/controlplane.d.mts.
//
// - Build: the Go modules in conformance/controlplane/ (kube-apiserver/<version>/ and
//   etcd/<etcd version>/) name exactly what is built; `go build` writes the binaries to
//   .cache/controlplane/<version>/ (git ignores .cache/). Go's module and build caches make a
//   second build quick. kube-apiserver gets upstream's build tags and version variables, so
//   /version reports the release, not v0.0.0-master.
// - Start: etcd, then kube-apiserver, on 127.0.0.1 and free ports, with a CA and serving
//   certificate made by openssl, service-account keys, and a bearer token for a user in
//   system:masters; the flag set is envtest's (controller-runtime). Startup is bounded, and a
//   failure carries the tail of both logs. stop() ends both and removes the temporary folder.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The Kubernetes releases this can build, each with the etcd it runs beside (the etcd line its
 * go.mod's etcd client requires: 3.6 for 1.35, 3.7 for 1.37). Each has its Go modules in
 * conformance/controlplane/kube-apiserver/<version>/ and etcd/<etcd>/.
 */
export const VERSIONS = {
  "v1.35.4": { etcd: "v3.6.16" },
  "v1.37.2": {
    etcd: "v3.7.3",
    // From 1.37 the endpoint reconciler refuses a loopback advertise address ("cannot use public
    // IP 127.0.0.1 with endpoint reconciler: ... may not be in the loopback range"), and this
    // control plane has no other address. With no reconciler, nothing writes the endpoints of
    // the default/kubernetes Service; clusterwire's checks never read them.
    apiserverFlags: ["--endpoint-reconciler-type=none"],
  },
};
export const DEFAULT_VERSION = "v1.35.4";

/** Upstream's build tags for kube-apiserver (hack/lib/golang.sh). */
export const BUILD_TAGS = "selinux,notest,grpcnotrace";

function versionInfo(version) {
  const info = VERSIONS[version];
  if (info === undefined) {
    throw new Error(`unknown control plane version ${version}; known: ${Object.keys(VERSIONS).join(", ")}`);
  }
  return info;
}

/** Where the binaries of `version` are (or will be) built. */
export function binaryPaths(version = DEFAULT_VERSION, root = ROOT) {
  versionInfo(version);
  const dir = join(root, ".cache", "controlplane", version);
  return { dir, apiserver: join(dir, "kube-apiserver"), kubectl: join(dir, "kubectl"), etcd: join(dir, "etcd") };
}

/** Whether the binaries of `version` (kube-apiserver, kubectl and etcd) are built. */
export function isBuilt(version = DEFAULT_VERSION, root = ROOT) {
  const p = binaryPaths(version, root);
  return existsSync(p.apiserver) && existsSync(p.kubectl) && existsSync(p.etcd);
}

/** The `-ldflags` that set kube-apiserver's version variables, as upstream's build does. */
export function apiserverLdflags(version, gitCommit, buildDate) {
  const m = /^v(\d+)\.(\d+)\.\d+$/.exec(version);
  if (m === null) throw new Error(`not a release version: ${version}`);
  const flags = ["-s", "-w"];
  for (const pkg of ["k8s.io/component-base/version", "k8s.io/client-go/pkg/version"]) {
    flags.push(
      `-X ${pkg}.gitVersion=${version}`,
      `-X ${pkg}.gitMajor=${m[1]}`,
      `-X ${pkg}.gitMinor=${m[2]}`,
      `-X ${pkg}.gitCommit=${gitCommit}`,
      `-X ${pkg}.gitTreeState=clean`,
      `-X ${pkg}.buildDate=${buildDate}`,
    );
  }
  return flags.join(" ");
}

function goBuild(moduleDir, pkg, out, { tags, ldflags, log }) {
  const args = ["build", "-trimpath"];
  if (tags !== undefined) args.push("-tags", tags);
  args.push("-ldflags", ldflags, "-o", `${out}.partial`, pkg);
  log(`go ${args.join(" ")}   (in ${moduleDir})`);
  const started = Date.now();
  execFileSync("go", args, { cwd: moduleDir, stdio: ["ignore", "inherit", "inherit"], env: goEnv() });
  // Renamed only once complete, so an interrupted build is never taken for a built one.
  renameSync(`${out}.partial`, out);
  log(`built ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function goEnv() {
  // Static binaries, as upstream builds them; -mod=readonly so a build never rewrites go.mod.
  return { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=readonly -buildvcs=false" };
}

/** The commit and date of a module version, from the module proxy's .info (Origin, Time). */
function moduleOrigin(modulePath, version, cwd) {
  const out = execFileSync("go", ["mod", "download", "-json", `${modulePath}@${version}`], {
    cwd,
    encoding: "utf8",
    env: goEnv(),
    maxBuffer: 64 << 20,
  });
  const answer = JSON.parse(out);
  if (answer.Error) throw new Error(`go mod download ${modulePath}@${version}: ${answer.Error}`);
  const info = JSON.parse(readFileSync(answer.Info, "utf8"));
  return { commit: info.Origin?.Hash ?? answer.Origin?.Hash, time: info.Time };
}

/** Why Go cannot build the control plane here, or undefined when `go version` runs. */
export function missingGo() {
  try {
    execFileSync("go", ["version"], { stdio: ["ignore", "pipe", "pipe"], env: goEnv() });
    return undefined;
  } catch (e) {
    return (
      `building kube-apiserver and etcd needs Go (1.26, with the Go module proxy), and \`go version\` failed: ${e.message}. ` +
      "Install it from https://go.dev/dl/ and put it on PATH; npm test does not need it (it reads recorded answers)."
    );
  }
}

/** Builds whichever of kube-apiserver, kubectl and etcd of `version` is missing. */
export function buildControlPlane(version = DEFAULT_VERSION, { root = ROOT, log = console.error, force = false } = {}) {
  const { etcd } = versionInfo(version);
  const paths = binaryPaths(version, root);
  if (force || !isBuilt(version, root)) {
    const why = missingGo();
    if (why !== undefined) throw new Error(why);
  }
  mkdirSync(paths.dir, { recursive: true });
  const base = join(root, "conformance", "controlplane");
  if (force || !existsSync(paths.etcd)) {
    const dir = join(base, "etcd", etcd);
    const { commit } = moduleOrigin("go.etcd.io/etcd/server/v3", etcd, dir);
    const ldflags = ["-s", "-w"];
    if (commit !== undefined) ldflags.push(`-X go.etcd.io/etcd/api/v3/version.GitSHA=${commit.slice(0, 9)}`);
    goBuild(dir, "go.etcd.io/etcd/server/v3", paths.etcd, { ldflags: ldflags.join(" "), log });
  }
  if (force || !existsSync(paths.apiserver) || !existsSync(paths.kubectl)) {
    const dir = join(base, "kube-apiserver", version);
    if (!existsSync(join(dir, "go.mod"))) {
      throw new Error(`no Go module for ${version} at ${dir}: run node scripts/controlplane-gomod.mjs ${version}`);
    }
    const { commit, time } = moduleOrigin("k8s.io/kubernetes", version, dir);
    const ldflags = apiserverLdflags(version, commit ?? "unknown", time ?? "1970-01-01T00:00:00Z");
    if (force || !existsSync(paths.apiserver)) {
      goBuild(dir, "k8s.io/kubernetes/cmd/kube-apiserver", paths.apiserver, { tags: BUILD_TAGS, ldflags, log });
    }
    // kubectl from the same module: upstream's cmd/kubectl is k8s.io/kubectl's command at the
    // matching staging version, so both report the same release.
    if (force || !existsSync(paths.kubectl)) {
      goBuild(dir, "k8s.io/kubernetes/cmd/kubectl", paths.kubectl, { tags: BUILD_TAGS, ldflags, log });
    }
  }
  return paths;
}

/** A port nobody listens on at 127.0.0.1 just now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(address.port));
    });
  });
}

function openssl(args, cwd) {
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

/** A CA, a serving certificate for 127.0.0.1/localhost signed by it, and a service-account key pair. */
function makeCertificates(dir) {
  openssl(
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.crt",
      "-days",
      "2",
      "-subj",
      "/CN=clusterwire-controlplane-ca",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign,digitalSignature",
    ],
    dir,
  );
  writeFileSync(
    join(dir, "serving.ext"),
    "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n" +
      "extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n",
  );
  openssl(
    ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "serving.key", "-out", "serving.csr", "-subj", "/CN=127.0.0.1"],
    dir,
  );
  openssl(
    [
      "x509",
      "-req",
      "-in",
      "serving.csr",
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      "2",
      "-out",
      "serving.crt",
      "-extfile",
      "serving.ext",
    ],
    dir,
  );
  openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "sa.key"], dir);
  openssl(["pkey", "-in", "sa.key", "-pubout", "-out", "sa.pub"], dir);
  return readFileSync(join(dir, "ca.crt"), "utf8");
}

/** Keeps the last `max` lines a process wrote, and passes each line on to `sink`. */
function lineTail(name, max, sink) {
  const lines = [];
  let partial = "";
  return {
    lines,
    write(chunk) {
      const parts = (partial + chunk.toString("utf8")).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (lines.length > max) lines.shift();
        sink?.(`[${name}] ${line}`);
      }
    },
    text() {
      return (partial === "" ? lines : [...lines, partial]).join("\n");
    },
  };
}

function startProcess(name, file, args, sink) {
  const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
  const log = lineTail(name, 60, sink);
  child.stdout.on("data", (c) => log.write(c));
  child.stderr.on("data", (c) => log.write(c));
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => resolve({ code, signal }));
    child.on("error", (error) => resolve({ code: null, signal: null, error }));
  });
  let done = false;
  exited.then(() => {
    done = true;
  });
  return { name, child, log, exited, isDone: () => done };
}

async function stopProcess(proc, graceMs = 15_000) {
  if (proc.isDone()) return;
  proc.child.kill("SIGTERM");
  const timer = setTimeout(() => proc.child.kill("SIGKILL"), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

/**
 * One HTTPS request to the API server with the bearer token; resolves with the status, the
 * headers and the body as text (JSON bodies are not parsed).
 */
export function apiRequest(plane, method, path, body, headers = {}) {
  const url = new URL(path, plane.url);
  const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method,
        ca: plane.caPem,
        headers: {
          Authorization: `Bearer ${plane.token}`,
          Accept: "application/json",
          ...(payload === undefined ? {} : { "Content-Type": "application/json" }),
          ...headers,
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `url`'s /readyz until it answers 200, a process exits, or the deadline passes. */
async function waitReady(plane, procs, deadline) {
  let last = "no answer yet";
  while (Date.now() < deadline) {
    for (const p of procs) {
      if (p.isDone()) throw new Error(`${p.name} exited during startup`);
    }
    try {
      const res = await apiRequest(plane, "GET", "/readyz");
      if (res.status === 200) return;
      last = `HTTP ${res.status}: ${res.body.slice(0, 2000)}`;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    await sleep(250);
  }
  throw new Error(`kube-apiserver not ready in time; last /readyz answer: ${last}`);
}

/** Polls etcd's /health until it answers, a process exits, or the deadline passes. */
async function waitEtcd(url, proc, deadline) {
  while (Date.now() < deadline) {
    if (proc.isDone()) throw new Error("etcd exited during startup");
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error("etcd not healthy in time");
}

function kubeconfig(url, caPem, token) {
  const ca = Buffer.from(caPem).toString("base64");
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: clusterwire",
    "  cluster:",
    `    server: ${url}`,
    `    certificate-authority-data: ${ca}`,
    "users:",
    "- name: admin",
    "  user:",
    `    token: ${token}`,
    "contexts:",
    "- name: clusterwire",
    "  context:",
    "    cluster: clusterwire",
    "    user: admin",
    "current-context: clusterwire",
    "",
  ].join("\n");
}

/**
 * Starts etcd and kube-apiserver of `version` on loopback. Options: version (default
 * DEFAULT_VERSION), build (build what is missing first; default false, then a missing binary is
 * an error), timeoutMs (to /readyz; default 60 s), log (each line both write, prefixed),
 * apiserverFlags (more kube-apiserver flags, after the usual ones).
 */
export async function startControlPlane(options = {}) {
  const version = options.version ?? DEFAULT_VERSION;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const sink = options.log;
  const paths = binaryPaths(version, options.root ?? ROOT);
  if (!isBuilt(version, options.root ?? ROOT)) {
    if (options.build !== true) {
      throw new Error(`the control plane ${version} is not built (${paths.dir}); run npm run apiserver to build it`);
    }
    buildControlPlane(version, { root: options.root ?? ROOT, log: sink ?? console.error });
  }
  const started = Date.now();
  const deadline = started + timeoutMs;
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-controlplane-"));
  const procs = [];
  let stopped;
  const stop = () => {
    stopped ??= (async () => {
      process.off("exit", killAll);
      for (const p of [...procs].reverse()) await stopProcess(p);
      rmSync(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  // If this process ends without stop(), the servers must not outlive it.
  const killAll = () => {
    for (const p of procs) if (!p.isDone()) p.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", killAll);
  try {
    const caPem = makeCertificates(dir);
    const token = randomBytes(24).toString("hex");
    writeFileSync(join(dir, "tokens.csv"), `${token},clusterwire-admin,clusterwire-admin,"system:masters"\n`);
    const [etcdPort, peerPort, securePort] = [await freePort(), await freePort(), await freePort()];
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const etcd = startProcess(
      "etcd",
      paths.etcd,
      [
        `--data-dir=${join(dir, "etcd")}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
        "--unsafe-no-fsync=true",
      ],
      sink,
    );
    procs.push(etcd);
    await waitEtcd(etcdUrl, etcd, deadline);
    const url = `https://127.0.0.1:${securePort}`;
    const apiserver = startProcess(
      "kube-apiserver",
      paths.apiserver,
      [
        `--etcd-servers=${etcdUrl}`,
        `--cert-dir=${join(dir, "certs")}`,
        `--tls-cert-file=${join(dir, "serving.crt")}`,
        `--tls-private-key-file=${join(dir, "serving.key")}`,
        `--client-ca-file=${join(dir, "ca.crt")}`,
        `--secure-port=${securePort}`,
        "--bind-address=127.0.0.1",
        "--advertise-address=127.0.0.1",
        "--service-cluster-ip-range=10.0.0.0/24",
        "--allow-privileged=true",
        "--disable-admission-plugins=ServiceAccount",
        "--authorization-mode=RBAC",
        `--token-auth-file=${join(dir, "tokens.csv")}`,
        `--service-account-issuer=${url}`,
        `--service-account-key-file=${join(dir, "sa.pub")}`,
        `--service-account-signing-key-file=${join(dir, "sa.key")}`,
        ...(versionInfo(version).apiserverFlags ?? []),
        ...(options.apiserverFlags ?? []),
      ],
      sink,
    );
    procs.push(apiserver);
    const plane = { url, token, caPem };
    await waitReady(plane, procs, deadline);
    const res = await apiRequest(plane, "GET", "/version");
    if (res.status !== 200) throw new Error(`GET /version: HTTP ${res.status}: ${res.body}`);
    const versionAnswer = JSON.parse(res.body).gitVersion;
    const kubeconfigPath = join(dir, "kubeconfig");
    writeFileSync(kubeconfigPath, kubeconfig(url, caPem, token), { mode: 0o600 });
    return {
      url,
      token,
      caPem,
      kubeconfigPath,
      version: versionAnswer,
      startupMs: Date.now() - started,
      etcdUrl,
      dir,
      stop,
    };
  } catch (e) {
    // Stopped first, so the tails hold everything both wrote, up to their exit.
    await stop();
    const tails = procs.map((p) => `--- ${p.name} (last lines) ---\n${p.log.text()}`).join("\n");
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(`control plane ${version} did not start: ${message}\n${tails}`, { cause: e });
  }
}
