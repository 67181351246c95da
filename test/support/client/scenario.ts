// One fixed conversation of clusterwire/client with a kube-apiserver, with what a real server must
// answer at each step asserted (vitest's expect). It runs live against the real control plane
// (test/suites/apiserver/client-scenario.test.ts, which also records it for
// `npm run client-record`) and against those recordings in npm test
// (test/suites/client-recorded.test.ts): the same assertions either way.
//
// Everything the client sends must be the same on every run given the same answers, so that a
// recording replays: fixed names, a fixed order, no query value taken from the clock. What varies
// between servers (uids, resourceVersions, timestamps) only reaches a request through an earlier
// answer (an update carries the resourceVersion its create returned, a watch the list's), and a
// replay gives back those very answers. The one concurrent step, a watch open while the same
// function creates, changes and deletes an object, replays too: each request is matched on its
// own (method, path, query, body), whatever the interleaving.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import {
  ApiError,
  type Client,
  type ClientFormat,
  type ClusterCredentials,
  createClient,
  type ResourceClient,
} from "../../../src/client/index.js";
import {
  create,
  type Ingress,
  IngressClassSchema,
  IngressSchema,
  NetworkPolicySchema,
  type Status,
} from "../../../src/networking/index.js";
import { type Recording, startRecordingProxy, startReplayServer, type Upstream } from "./recording.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** The formats the scenario runs in, each in its own namespace with its own cluster-scoped names. */
export const SCENARIO_FORMATS: readonly ClientFormat[] = ["protobuf", "json"];

/** The namespace the scenario of `format` works in; it must exist before the scenario runs. */
export const scenarioNamespace = (format: ClientFormat): string => `scenario-${format}`;

const GROUP = "networking.k8s.io";
const API = `/apis/${GROUP}/v1`;
const STATUS = "k8s.io.apimachinery.pkg.apis.meta.v1.Status";
const INGRESS = "k8s.io.api.networking.v1.Ingress";
const INGRESS_CLASS = "k8s.io.api.networking.v1.IngressClass";
const NETWORK_POLICY = "k8s.io.api.networking.v1.NetworkPolicy";
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The annotation the API server warns about (spec.ingressClassName replaced it). */
const DEPRECATED_ANNOTATION = "kubernetes.io/ingress.class";

const ingress = (namespace: string, name: string, annotations: Record<string, string> = {}): Ingress =>
  create(IngressSchema, {
    metadata: { name, namespace, annotations, labels: { app: "web" } },
    spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } } },
  });

/** The error `p` rejects with; fails when it resolves. */
async function failure(p: Promise<unknown>): Promise<ApiError> {
  const outcome = await p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error("the call succeeded; the API server should have refused it");
  expect(outcome.error).toBeInstanceOf(ApiError);
  return outcome.error as ApiError;
}

const rv = (o: { metadata?: { resourceVersion?: string } | undefined }): number => {
  const v = o.metadata?.resourceVersion ?? "";
  expect(v).toMatch(/^[1-9][0-9]*$/);
  return Number(v);
};
const names = (items: readonly { metadata?: { name?: string } | undefined }[]): string[] =>
  items.map((i) => i.metadata?.name ?? "");
const isStatus = (o: { $typeName: string }): o is Status => o.$typeName === STATUS;

/**
 * Runs the scenario in `format` against the API server `credentials` point at, asserting every
 * answer; rejects at the first one a real kube-apiserver would not give. The client is made here
 * (its onWarning is part of what is checked) and closed at the end.
 */
export async function runClientScenario(credentials: ClusterCredentials, format: ClientFormat): Promise<void> {
  const warnings: string[] = [];
  const client = createClient({ credentials, format, onWarning: (w) => warnings.push(w) });
  try {
    const ns = scenarioNamespace(format);
    await ingresses(client.ingresses, ns, warnings);
    await ingressClasses(client, format);
    await networkPolicies(client, ns);
    await watch(client.ingresses, ns);
    // Only the deprecated annotation warned, once.
    expect(warnings).toHaveLength(1);
  } finally {
    client.close();
  }
}

async function ingresses(c: ResourceClient<Ingress>, ns: string, warnings: string[]): Promise<void> {
  const collection = `${API}/namespaces/${ns}/ingresses`;

  // create: the object as stored, each with a newer resourceVersion.
  const made: Ingress[] = [];
  for (const name of ["web-1", "web-2", "web-3", "web-4", "web-5"]) {
    const m = await c.create(ingress(ns, name));
    expect(m.$typeName).toBe(INGRESS);
    expect([m.metadata?.name, m.metadata?.namespace, m.metadata?.generation]).toEqual([name, ns, 1n]);
    expect(m.metadata?.uid).toMatch(UID);
    expect(m.metadata?.creationTimestamp?.seconds).toBeGreaterThan(0n);
    expect(m.spec?.defaultBackend?.service?.port?.number).toBe(80);
    const before = made.at(-1);
    if (before !== undefined) expect(rv(m)).toBeGreaterThan(rv(before));
    made.push(m);
  }
  const [web1, web2, , , web5] = made as [Ingress, Ingress, Ingress, Ingress, Ingress];

  // get: the very object create answered.
  expect(await c.get("web-1", { namespace: ns })).toEqual(web1);

  // list in pages of 2: continue tokens, the count left, one snapshot for every page.
  const pages = [await c.list({ namespace: ns, limit: 2 })];
  while (pages.at(-1)?.continue !== "") {
    pages.push(await c.list({ namespace: ns, limit: 2, continue: pages.at(-1)?.continue ?? "" }));
    expect(pages.length).toBeLessThanOrEqual(3);
  }
  expect(pages.map((p) => names(p.items))).toEqual([["web-1", "web-2"], ["web-3", "web-4"], ["web-5"]]);
  expect(pages.flatMap((p) => p.items)).toEqual(made);
  expect(pages.map((p) => p.remainingItemCount)).toEqual([3, 1, undefined]);
  expect(pages.map((p) => p.continue === "")).toEqual([false, false, true]);
  const snapshot = pages[0]?.resourceVersion ?? "";
  expect(pages.map((p) => p.resourceVersion)).toEqual([snapshot, snapshot, snapshot]);
  expect(Number(snapshot)).toBeGreaterThanOrEqual(rv(web5));
  // listAll follows the tokens itself.
  const all = await c.listAll({ namespace: ns, limit: 3 });
  expect(all.items).toEqual(made);
  expect(Number(all.resourceVersion)).toBeGreaterThanOrEqual(Number(snapshot));

  // update: a new resourceVersion, the same object; the old resourceVersion again is a 409 Conflict.
  const relabelled = structuredClone(web1);
  relabelled.metadata!.labels = { app: "web", tier: "front" };
  const updated = await c.update(relabelled);
  expect(updated.metadata?.labels).toEqual({ app: "web", tier: "front" });
  expect([updated.metadata?.uid, updated.metadata?.generation]).toEqual([web1.metadata?.uid, 1n]);
  expect(rv(updated)).toBeGreaterThan(rv(web1));
  const stale = await failure(c.update(web1));
  expect([stale.status, stale.reason, stale.method, stale.path]).toEqual([
    409,
    "Conflict",
    "PUT",
    `${collection}/web-1`,
  ]);
  expect(stale.statusObject?.details).toMatchObject({ name: "web-1", group: GROUP, kind: "ingresses" });

  // updateStatus: the status changes, the spec sent beside it does not.
  const withStatus = structuredClone(updated);
  withStatus.status = create(IngressSchema, { status: { loadBalancer: { ingress: [{ ip: "192.0.2.10" }] } } }).status;
  withStatus.spec!.defaultBackend!.service!.port!.number = 8080;
  const statusDone = await c.updateStatus(withStatus);
  expect(statusDone.status?.loadBalancer?.ingress.map((i) => i.ip)).toEqual(["192.0.2.10"]);
  expect(statusDone.spec?.defaultBackend?.service?.port?.number).toBe(80);
  expect(statusDone.metadata?.generation).toBe(1n);
  expect(rv(statusDone)).toBeGreaterThan(rv(updated));
  expect(await c.get("web-1", { namespace: ns })).toEqual(statusDone);

  // The API server's refusals, as ApiErrors with its Status.
  const missing = await failure(c.get("missing", { namespace: ns }));
  expect([missing.status, missing.reason, missing.method, missing.path, missing.causes]).toEqual([
    404,
    "NotFound",
    "GET",
    `${collection}/missing`,
    [],
  ]);
  expect(missing.statusObject).toMatchObject({
    $typeName: STATUS,
    status: "Failure",
    code: 404,
    reason: "NotFound",
    details: { name: "missing", group: GROUP, kind: "ingresses" },
  });
  expect(missing.message).toBe(`GET ${collection}/missing: HTTP 404 NotFound: ingresses.${GROUP} "missing" not found`);
  const exists = await failure(c.create(ingress(ns, "web-2")));
  expect([exists.status, exists.reason, exists.method, exists.path]).toEqual([
    409,
    "AlreadyExists",
    "POST",
    collection,
  ]);
  expect(exists.statusObject?.details).toMatchObject({ name: "web-2", group: GROUP, kind: "ingresses" });
  expect(exists.message).toBe(`POST ${collection}: HTTP 409 AlreadyExists: ingresses.${GROUP} "web-2" already exists`);
  const invalid = await failure(
    c.create(create(IngressSchema, { metadata: { name: "Bad_Name", namespace: ns }, spec: {} })),
  );
  expect([invalid.status, invalid.reason, invalid.statusObject?.code]).toEqual([422, "Invalid", 422]);
  expect(invalid.statusObject?.details).toMatchObject({ name: "Bad_Name", group: GROUP, kind: "Ingress" });
  expect(invalid.causes.map((x) => [x.field, x.reason])).toEqual([
    ["metadata.name", "FieldValueInvalid"],
    ["spec", "FieldValueInvalid"],
  ]);
  for (const cause of invalid.causes) expect(cause.message).not.toBe("");
  expect(invalid.message).toMatch(
    new RegExp(
      `^POST ${collection}: HTTP 422 Invalid: Ingress\\.${GROUP.replaceAll(".", "\\.")} "Bad_Name" is invalid: `,
    ),
  );

  // A dry run: the object as it would be stored (with the deprecated annotation's Warning), not stored.
  expect(warnings).toEqual([]);
  const dry = await c.create(ingress(ns, "dry", { [DEPRECATED_ANNOTATION]: "nginx" }), {
    dryRun: true,
    fieldManager: "dry-runner",
    fieldValidation: "Strict",
  });
  expect([dry.metadata?.name, dry.metadata?.annotations]).toEqual(["dry", { [DEPRECATED_ANNOTATION]: "nginx" }]);
  expect(dry.metadata?.managedFields.map((m) => [m.manager, m.operation])).toEqual([["dry-runner", "Update"]]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(DEPRECATED_ANNOTATION);
  expect(warnings[0]).toContain("deprecated");
  expect((await failure(c.get("dry", { namespace: ns }))).reason).toBe("NotFound");

  // Server-side apply: a second manager's change to an owned field is a conflict until forced.
  const applied = await c.apply(ingress(ns, "applied"), { fieldManager: "tool-a" });
  expect(applied.metadata?.managedFields.map((m) => [m.manager, m.operation])).toEqual([["tool-a", "Apply"]]);
  expect(applied.metadata?.labels).toEqual({ app: "web" });
  const theirs = create(IngressSchema, { metadata: { name: "applied", namespace: ns, labels: { app: "other" } } });
  const clash = await failure(c.apply(theirs, { fieldManager: "tool-b" }));
  expect([clash.status, clash.reason, clash.method, clash.path]).toEqual([
    409,
    "Conflict",
    "PATCH",
    `${collection}/applied`,
  ]);
  expect(clash.causes).toEqual([
    { field: ".metadata.labels.app", reason: "FieldManagerConflict", message: 'conflict with "tool-a"' },
  ]);
  const forced = await c.apply(theirs, { fieldManager: "tool-b", force: true });
  expect(forced.metadata?.labels).toEqual({ app: "other" });
  expect(forced.metadata?.managedFields.map((m) => m.manager).sort()).toEqual(["tool-a", "tool-b"]);
  expect(forced.metadata?.uid).toBe(applied.metadata?.uid);

  // delete: a dry run leaves it; a wrong uid precondition is a Conflict; then a Status of Success.
  const dryDelete = await c.delete("web-5", { namespace: ns, dryRun: true });
  expect(dryDelete.$typeName).toBe(STATUS);
  expect(await c.get("web-5", { namespace: ns })).toEqual(web5);
  const wrongUid = await failure(c.delete("web-5", { namespace: ns, preconditions: { uid: "not-its-uid" } }));
  expect([wrongUid.status, wrongUid.reason, wrongUid.method]).toEqual([409, "Conflict", "DELETE"]);
  const deleted = await c.delete("web-5", {
    namespace: ns,
    gracePeriodSeconds: 0,
    propagationPolicy: "Background",
    preconditions: { uid: web5.metadata?.uid ?? "", resourceVersion: web5.metadata?.resourceVersion ?? "" },
  });
  if (!isStatus(deleted)) throw new Error(`delete answered a ${deleted.$typeName}, not a Status`);
  expect(deleted).toMatchObject({
    status: "Success",
    details: { name: "web-5", group: GROUP, kind: "ingresses", uid: web5.metadata?.uid },
  });
  expect((await failure(c.get("web-5", { namespace: ns }))).reason).toBe("NotFound");
  const left = await c.list({ namespace: ns });
  expect(names(left.items)).toEqual(["applied", "web-1", "web-2", "web-3", "web-4"]);
  expect(left.items[2]).toEqual(web2);
}

async function ingressClasses(client: Client, format: ClientFormat): Promise<void> {
  const c = client.ingressClasses;
  const name = `scenario-${format}`;
  const made = await c.create(
    create(IngressClassSchema, { metadata: { name }, spec: { controller: "example.com/ingress-controller" } }),
  );
  expect([made.$typeName, made.metadata?.name, made.metadata?.namespace]).toEqual([INGRESS_CLASS, name, ""]);
  expect(made.spec?.controller).toBe("example.com/ingress-controller");
  expect(await c.get(name)).toEqual(made);
  const listed = await c.list({ fieldSelector: `metadata.name=${name}` });
  expect(listed.items).toEqual([made]);
  // IngressClass has no status subresource: refused before anything is sent.
  await expect(c.updateStatus(made)).rejects.toThrow(RangeError);
  // The controller is immutable: 422 with the field named.
  const changed = structuredClone(made);
  changed.spec!.controller = "example.com/other";
  const immutable = await failure(c.update(changed));
  expect([immutable.status, immutable.reason]).toEqual([422, "Invalid"]);
  expect(immutable.causes.map((x) => [x.field, x.reason])).toEqual([["spec.controller", "FieldValueInvalid"]]);
  const gone = await c.delete(name);
  if (!isStatus(gone)) throw new Error(`delete answered a ${gone.$typeName}, not a Status`);
  expect(gone).toMatchObject({ status: "Success", details: { name, kind: "ingressclasses", uid: made.metadata?.uid } });
}

async function networkPolicies(client: Client, ns: string): Promise<void> {
  const c = client.networkPolicies;
  const made = await c.create(
    create(NetworkPolicySchema, {
      metadata: { name: "deny-all", namespace: ns },
      spec: { podSelector: {}, policyTypes: ["Ingress", "Egress"] },
    }),
  );
  expect([made.$typeName, made.metadata?.name, made.spec?.policyTypes]).toEqual([
    NETWORK_POLICY,
    "deny-all",
    ["Ingress", "Egress"],
  ]);
  expect(await c.get("deny-all", { namespace: ns })).toEqual(made);
  expect((await c.list({ namespace: ns })).items).toEqual([made]);
  const gone = await c.delete("deny-all", { namespace: ns });
  if (!isStatus(gone)) throw new Error(`delete answered a ${gone.$typeName}, not a Status`);
  expect(gone).toMatchObject({ status: "Success", details: { name: "deny-all", kind: "networkpolicies" } });
}

/**
 * A watch from a list's resourceVersion while the same function creates, changes and deletes an
 * object: ADDED, MODIFIED, DELETED, each carrying the object the write answered, then the end the
 * API server makes after timeoutSeconds.
 */
async function watch(c: ResourceClient<Ingress>, ns: string): Promise<void> {
  const only = "metadata.name=watched";
  const start = await c.list({ namespace: ns, fieldSelector: only });
  expect(start.items).toEqual([]);
  const writes = (async () => {
    const made = await c.create(ingress(ns, "watched"));
    const changed = structuredClone(made);
    changed.metadata!.labels = { app: "changed" };
    const updated = await c.update(changed);
    const gone = await c.delete("watched", { namespace: ns });
    return { made, updated, gone };
  })();
  // Awaited below; a failure of the watch first must not leave it unhandled meanwhile.
  writes.catch(() => undefined);
  const events: { type: string; object: unknown }[] = [];
  for await (const event of c.watch({
    namespace: ns,
    fieldSelector: only,
    resourceVersion: start.resourceVersion,
    timeoutSeconds: 2,
  })) {
    events.push(event);
  }
  const { made, updated, gone } = await writes;
  expect(events.map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "DELETED"]);
  expect(events[0]?.object).toEqual(made);
  expect(events[1]?.object).toEqual(updated);
  const last = events[2]?.object as Ingress;
  expect([last.$typeName, last.metadata?.name, last.metadata?.uid]).toEqual([INGRESS, "watched", made.metadata?.uid]);
  expect(rv(last)).toBeGreaterThan(rv(updated));
  expect(isStatus(gone as { $typeName: string })).toBe(true);
}

/** Where the recording of the scenario against kube-apiserver `version` is kept. */
export const clientFixturePath = (version: string, root = ROOT): string =>
  join(root, "test", "fixtures", "client", `${version}.json.gz`);

/** Credentials that reach a recording proxy or a replay server. */
export const credentialsFor = (
  server: { url: string; ca: string; token: string },
  source: string,
): ClusterCredentials => ({
  server: server.url,
  ca: Buffer.from(server.ca),
  token: server.token,
  source,
});

/**
 * The scenario in every format through a recording proxy in front of `upstream` (a real API
 * server whose namespaces for it exist): the recording, with the server's gitVersion.
 */
export async function recordClientScenario(upstream: Upstream, server: string): Promise<Recording | undefined> {
  const proxy = await startRecordingProxy(upstream);
  if (proxy === undefined) return undefined;
  try {
    for (const format of SCENARIO_FORMATS) await runClientScenario(credentialsFor(proxy, "recording proxy"), format);
  } finally {
    await proxy.close();
  }
  return { server, exchanges: proxy.exchanges };
}

/** What a replay left over: requests it had no answer for, answers nobody asked for. */
export interface ReplayOutcome {
  readonly unmatched: readonly string[];
  readonly remaining: number;
}

/** The scenario in every format against a replay of `recording`; rejects as the scenario does. */
export async function replayClientScenario(recording: Recording): Promise<ReplayOutcome | undefined> {
  const replay = await startReplayServer(recording);
  if (replay === undefined) return undefined;
  try {
    for (const format of SCENARIO_FORMATS) {
      await runClientScenario(credentialsFor(replay, "replay server"), format).catch((e: unknown) => {
        if (replay.unmatched.length === 0) throw e;
        // A request the recording has no answer for fails the scenario with the replay's 500: say which.
        throw new Error(
          `${e instanceof Error ? e.message : String(e)}\nrequests the recording has no answer for (the client sends something else now? npm run client-record):\n${replay.unmatched.join("\n")}`,
          { cause: e },
        );
      });
    }
    return { unmatched: [...replay.unmatched], remaining: replay.remaining() };
  } finally {
    await replay.close();
  }
}

/** Every place of `recording` where `secret` shows: the exchanges' text, and their bodies decoded. */
export function secretIn(recording: Recording, secret: string): string[] {
  const found: string[] = [];
  recording.exchanges.forEach((e, i) => {
    for (const [field, text] of Object.entries({
      url: e.url,
      requestBody: Buffer.from(e.requestBody, "base64").toString("latin1"),
      responseBody: Buffer.from(e.responseBody, "base64").toString("latin1"),
      headers: `${e.requestType} ${e.accept} ${e.responseType} ${e.warnings.join(" ")}`,
    })) {
      if (text.includes(secret)) found.push(`exchange ${i} (${e.method} ${e.url}): ${field}`);
    }
  });
  return found;
}
