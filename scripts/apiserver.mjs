#!/usr/bin/env node
// npm run apiserver [-- --version v1.35.4] [--timeout 60] [--verbose] [--build-only]
//
// Builds kube-apiserver, kubectl and etcd of that version when they are missing (Go 1.26 and the
// Go module proxy; the first build takes minutes, later ones are cached), starts the server and
// etcd on 127.0.0.1 and free ports, prints the kubeconfig's path, the URL, the version and where
// that release's kubectl is, and runs until SIGINT or SIGTERM, when it stops both and removes its
// temporary folder. --build-only builds what is missing and exits (for CI, before the tests that
// need the binaries).
import { parseArgs } from "node:util";
import { binaryPaths, buildControlPlane, DEFAULT_VERSION, startControlPlane, VERSIONS } from "./controlplane.mjs";

const { values } = parseArgs({
  options: {
    version: { type: "string", default: DEFAULT_VERSION },
    timeout: { type: "string", default: "60" },
    verbose: { type: "boolean", default: false },
    "build-only": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log(
    `usage: npm run apiserver [-- --version V] [--timeout SECONDS] [--verbose] [--build-only]\nversions: ${Object.keys(VERSIONS).join(", ")} (default ${DEFAULT_VERSION})`,
  );
  process.exit(0);
}

if (values["build-only"]) {
  try {
    const paths = buildControlPlane(values.version);
    console.log(`built: ${paths.apiserver} ${paths.kubectl} ${paths.etcd}`);
    process.exit(0);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}

let plane;
try {
  plane = await startControlPlane({
    version: values.version,
    build: true,
    timeoutMs: Number(values.timeout) * 1000,
    ...(values.verbose ? { log: (line) => console.error(line) } : {}),
  });
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}

console.log(
  `kube-apiserver ${plane.version} ready at ${plane.url} (started in ${(plane.startupMs / 1000).toFixed(1)} s)`,
);
console.log(`kubeconfig: ${plane.kubeconfigPath}`);
console.log(`  export KUBECONFIG=${plane.kubeconfigPath}`);
console.log(`kubectl of the same release: ${binaryPaths(values.version).kubectl}`);
console.log("Ctrl-C stops it.");

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: stopping kube-apiserver and etcd`);
    plane.stop().then(
      () => {
        console.error("stopped");
        process.exit(0);
      },
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  });
}
// Keep running until a signal.
setInterval(() => {}, 1 << 30);
