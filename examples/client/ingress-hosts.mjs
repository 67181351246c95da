#!/usr/bin/env node
// A small service built on clusterwire/client: it keeps a live index of the
// cluster's Ingresses by host, prints the index once it has synced, then
// prints each change as it arrives, until SIGINT or SIGTERM.
//
//   node node_modules/clusterwire/examples/client/ingress-hosts.mjs [--kubeconfig FILE] [--context NAME] [--namespace NS]
//
// Without --kubeconfig it uses $KUBECONFIG, then ~/.kube/config, then the
// pod's service account. It talks protobuf to the API server.
import { parseArgs } from "node:util";
import { createClient, createInformer, CredentialsError, loadCredentials } from "clusterwire/client";

const { values } = parseArgs({
  options: {
    kubeconfig: { type: "string" },
    context: { type: "string" },
    namespace: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log("usage: ingress-hosts.mjs [--kubeconfig FILE] [--context NAME] [--namespace NS]");
  process.exit(0);
}

let credentials;
try {
  credentials = await loadCredentials({
    ...(values.kubeconfig === undefined ? {} : { kubeconfig: values.kubeconfig }),
    ...(values.context === undefined ? {} : { context: values.context }),
  });
} catch (e) {
  if (!(e instanceof CredentialsError)) throw e;
  console.error(`ingress-hosts: ${e.message}`);
  process.exit(1);
}

/** The hosts an Ingress's rules name; "*" for a rule without a host (it serves every host). */
function hostsOf(ingress) {
  return [...new Set((ingress.spec?.rules ?? []).map((rule) => rule.host || "*"))].sort();
}
const key = (ingress) => `${ingress.metadata?.namespace}/${ingress.metadata?.name}`;

const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => stop.abort());

const client = createClient({ credentials });
const informer = createInformer(client.ingresses, {
  ...(values.namespace === undefined ? {} : { namespace: values.namespace }),
  indexes: { host: hostsOf },
  signal: stop.signal,
  log: (level, message, fields) => console.error(`[${level}] ${message}`, fields ?? ""),
});

/** One line per host: which Ingresses serve it now, from the informer's index. */
function show(hosts) {
  for (const host of hosts) {
    const serving = informer.store.byIndex("host", host).map(key).sort();
    console.log(`  ${host} -> ${serving.length === 0 ? "(none)" : serving.join(", ")}`);
  }
}

let synced = false;
informer.on("add", ({ object }) => {
  if (!synced) return;
  console.log(`added ${key(object)}`);
  show(hostsOf(object));
});
informer.on("update", ({ object, old }) => {
  const before = hostsOf(old);
  const after = hostsOf(object);
  if (before.join() === after.join()) return;
  console.log(`changed ${key(object)}: ${before.join(" ") || "(no rules)"} => ${after.join(" ") || "(no rules)"}`);
  show([...new Set([...before, ...after])].sort());
});
informer.on("delete", ({ old }) => {
  console.log(`deleted ${key(old)}`);
  show(hostsOf(old));
});

informer.start();
try {
  await informer.store.synced();
} catch {
  // Stopped before the first list came in.
}
if (!stop.signal.aborted) {
  synced = true;
  const all = [...new Set(informer.store.list().flatMap(hostsOf))].sort();
  console.log(
    `synced: ${informer.store.size} Ingresses, ${all.length} hosts (resourceVersion ${informer.resourceVersion})`,
  );
  show(all);
  await new Promise((resolve) => stop.signal.addEventListener("abort", resolve, { once: true }));
}
await informer.stop();
client.close();
console.log("stopped");
