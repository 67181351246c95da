import { access } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import {
  DecodeError,
  EncodeError,
  decode,
  encode,
  encodeWatchEvent,
  formatFieldError,
  fromJson,
  fromYaml,
  kindOf,
  toJsonString,
  toYaml,
  type DirectionDecision,
  type HostTier,
  type NetworkingObject,
  type Protocol,
  type Route,
} from "../../networking/index.js";
import { clusterEngine, loadClusterFile } from "../shared/cluster-file.js";
import { onlyInput, parseCommandLine, type Command } from "../shared/command.js";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, bytesEqual, errnoMessage, readInput, type CliIO } from "../shared/io.js";
import { MANIFEST_KINDS_TEXT, decodeManifest, loadManifestObjects, manifestFormat, walkManifests, type DemoItem } from "../shared/manifests.js";
import { ALLOWED_GLYPH, DENIED_GLYPH, explainDecision, skippedNotes, truthGrid } from "../shared/reach-text.js";
import { describeBackend, routeSource, routeSummary, routerSetup } from "../shared/routing.js";
import { runStorageScenario } from "../demo/storage-scenario.js";
import { validateObject } from "../shared/validation.js";

export type { DemoItem } from "../shared/manifests.js";

const NAME = "demo";

const HELP = `Usage: clusterwire demo [--no-storage] [DIR]

The main job (npm start). Walks DIR (default: examples) for .yaml, .yml,
.json, .pb and .jsonl files and runs every step on every object found,
printing one line per object and a summary. Manifests are read in strict mode, so a
misspelt field fails the run. A .pb file is either one k8s\\0 object or a
watch stream; a .jsonl file is a JSON watch stream.

Steps:
  round-trip   encode to protobuf and decode back: JSON equal, protobuf
               re-encode byte-equal, JSON and YAML text decode to the same
               bytes, and .pb inputs re-encode to exactly their own bytes
  validate     validate as the API server does on create (clusterwire
               validate), in the object's own namespace. Files in a
               directory named invalid/ are examples of what users get
               wrong: they must fail validation, and their errors are
               printed under their line. Any other object must be valid

Then two evaluator sections, each checked against answers written from
shared/docs/semantics.md §1 (a different answer fails the run):
  routes       requests routed through ingress-shop.yaml,
               ingressclass-public.yaml and catalog-stack.yaml for
               controller k8s.io/ingress-nginx (clusterwire route): one
               line per request, HOST PATH -> BACKEND (why)
  reach        truth tables of clusters/shop.yaml for TCP 8080 and 5432,
               and a few connections explained (clusterwire reach)
A section runs when DIR holds its files; clusters/ holds cluster
descriptions, not manifests, and is not walked.

Then, as a separate section, a storage scenario: StorageClient against a
reference server it starts on loopback (clusterwire storage serve, on a
clock that moves only with the jobs, so every run goes the same way). One
line per step: a clone token (Size suffixes, its lifetime counting down),
a cache created through a job, an NVMe namespace (block_size default), a
quota rule (and the default rule the server adds), and software
validations (warnings and errors). Each step fails the run when the server
does not behave as the spec says. A directory named storage/ under DIR
holds storage files, not manifests, and is not walked.

Options:
  --no-storage  skip the storage scenario
  -h, --help    show this help

Exit status: 0 every step passed on every object (including the expected
validation failures), every route and table cell was as expected, and every
storage step behaved as expected, 1
something failed, 2 usage error, or DIR unreadable or without manifests.`;

export interface StepResult {
  readonly ok: boolean;
  /** Short text for the object's line, e.g. `round-trip ok`. */
  readonly summary: string;
  /** What went wrong, one line each, printed under the object's line as `    - problem`. */
  readonly problems?: readonly string[];
  /** Information worth showing that is not a failure, printed under the object's line, indented. */
  readonly notes?: readonly string[];
  /** The check found the failure the example was written to show; `ok` is true. */
  readonly expectedFailure?: boolean;
}

/**
 * A check run on every object. Later steps (route, reach) plug in here;
 * `all` gives them every object found, for cross-object checks.
 */
export interface DemoStep {
  readonly name: string;
  /** How the summary counts results with `expectedFailure`, e.g. `invalid as expected`. */
  readonly expectedFailureText?: string;
  check(item: DemoItem, all: readonly DemoItem[]): StepResult;
}

/** Encode, decode, compare; the foundation every later step relies on. */
export const roundTripStep: DemoStep = {
  name: "round-trip",
  check(item) {
    const problems: string[] = [];
    let pbSize = 0;
    let jsonSize = 0;
    try {
      const pb = encode(item.object);
      const json = toJsonString(item.object);
      pbSize = pb.length;
      jsonSize = new TextEncoder().encode(json).length;
      const back = decode(pb);
      if (toJsonString(back) !== json) problems.push("JSON differs after encode and decode");
      const again = encode(back);
      if (!bytesEqual(again, pb)) problems.push(`protobuf re-encode differs ${whereDiffer(again, pb)}`);
      // Unknown protobuf fields have no JSON or YAML form, so compare the text forms without them.
      const known = encode(item.object, { unknownFields: "drop" });
      const viaJson = encode(fromJson(json));
      if (!bytesEqual(viaJson, known)) problems.push(`JSON text decodes to different protobuf ${whereDiffer(viaJson, known)}`);
      const viaYaml = fromYaml(toYaml(item.object));
      const yamlObj = viaYaml[0];
      if (viaYaml.length !== 1 || yamlObj === undefined) problems.push(`YAML text decodes to ${viaYaml.length} objects`);
      else if (!bytesEqual(encode(yamlObj), known)) problems.push(`YAML text decodes to different protobuf ${whereDiffer(encode(yamlObj), known)}`);
      if (item.original !== undefined) {
        const mine = item.event !== undefined ? encodeWatchEvent({ type: item.event, object: item.object }) : pb;
        if (!bytesEqual(mine, item.original)) problems.push(`re-encoding differs from the input bytes ${whereDiffer(mine, item.original)}`);
      }
    } catch (e) {
      problems.push(describeError(e));
    }
    const sizes = `pb ${String(pbSize).padStart(5)} B  json ${String(jsonSize).padStart(5)} B`;
    return problems.length === 0 ? { ok: true, summary: `${sizes}  round-trip ok` } : { ok: false, summary: `${sizes}  round-trip FAILED`, problems };
  },
};

/** Directories with this name hold manifests that are invalid on purpose. */
export const EXPECTED_INVALID_DIR = "invalid";

/** True when a directory on the item's path (below the demo directory) is named invalid. */
export function expectedInvalid(item: DemoItem): boolean {
  const dirs = (item.relative ?? item.file).split(/[\\/]/).slice(0, -1);
  return dirs.includes(EXPECTED_INVALID_DIR);
}

/**
 * Create validation, as `clusterwire validate` runs it. Examples under
 * invalid/ must fail (their errors are shown as notes); all others must pass.
 */
export const validateStep: DemoStep = {
  name: "validate",
  expectedFailureText: "invalid as expected",
  check(item) {
    let messages: string[];
    try {
      messages = validateObject(item.object, {}).map(formatFieldError);
    } catch (e) {
      // validate() should never throw on a decoded object; say so rather than crash the run.
      return { ok: false, summary: "validate FAILED", problems: [`validator threw: ${e instanceof Error ? e.message : String(e)}`] };
    }
    const count = `${messages.length} ${messages.length === 1 ? "error" : "errors"}`;
    if (expectedInvalid(item)) {
      return messages.length > 0
        ? { ok: true, expectedFailure: true, summary: `validate: ${count}, as expected`, notes: messages }
        : { ok: false, summary: "validate FAILED", problems: [`valid, but files under ${EXPECTED_INVALID_DIR}/ must fail validation`] };
    }
    return messages.length === 0 ? { ok: true, summary: "validate ok" } : { ok: false, summary: `validate FAILED: ${count}`, problems: messages };
  },
};

/** The main job's steps, in order. */
export const DEMO_STEPS: readonly DemoStep[] = [roundTripStep, validateStep];

export const demoCommand: Command = {
  name: NAME,
  summary: "the main job (npm start): round-trip and validate every manifest, route and reach checks, a storage scenario",
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandLine(NAME, HELP, { "no-storage": { type: "boolean" } }, args, io);
    if (parsed === undefined) return EXIT_OK;
    const { positionals, values } = parsed;
    const dir = onlyInput(NAME, positionals) ?? "examples";
    const manifests = await runDemo(io, dir);
    const routes = await runRouteSection(io, dir);
    const reach = await runReachSection(io, dir);
    const networking = manifests === EXIT_OK && routes !== false && reach !== false ? EXIT_OK : EXIT_FAILURE;
    if (values["no-storage"] === true) return networking;
    const storage = await runStorageScenario(io);
    return networking === EXIT_OK && storage ? EXIT_OK : EXIT_FAILURE;
  },
};

interface FileFailure {
  readonly file: string;
  readonly message: string;
}

/** Runs `steps` on every object under `dir`; returns the exit code. */
export async function runDemo(io: CliIO, dir: string, steps: readonly DemoStep[] = DEMO_STEPS): Promise<number> {
  const root = resolve(io.cwd ?? process.cwd(), dir);
  let files: string[];
  try {
    files = (await walkManifests(root)).map((abs) => relative(root, abs));
  } catch (e) {
    throw new CliError(`${dir}: cannot read directory: ${errnoMessage(e)}`, EXIT_USAGE);
  }
  if (files.length === 0) throw new CliError(`${dir}: no ${MANIFEST_KINDS_TEXT} files found`, EXIT_USAGE);

  io.stdout.write(`clusterwire demo: ${files.length} files in ${dir} (steps: ${steps.map((s) => s.name).join(", ")})\n`);
  const items: DemoItem[] = [];
  const failures: FileFailure[] = [];
  for (const rel of files) {
    const file = join(dir, rel);
    try {
      const found = await load(io, file, rel);
      if (found.length === 0) failures.push({ file, message: "no objects in file" });
      items.push(...found);
    } catch (e) {
      failures.push({ file, message: e instanceof CliError ? e.message.replace(`${file}: `, "") : describeError(e) });
    }
  }

  const rows: { cells: string[]; results: StepResult[] }[] = items.map((item) => ({
    cells: [label(item), item.event === undefined ? kindOf(item.object).kind : `${item.event} ${kindOf(item.object).kind}`, nameOf(item.object)],
    results: steps.map((s) => s.check(item, items)),
  }));
  const widths = [0, 1, 2].map((c) => Math.max(0, ...rows.map((r) => (r.cells[c] ?? "").length)));
  for (const row of rows) {
    const cells = row.cells.map((c, i) => c.padEnd(widths[i] ?? 0));
    io.stdout.write(`${[...cells, ...row.results.map((r) => r.summary)].join("  ")}\n`);
    for (const r of row.results) {
      for (const p of r.problems ?? []) io.stdout.write(`    - ${p}\n`);
      for (const n of r.notes ?? []) io.stdout.write(`      ${n}\n`);
    }
  }
  for (const f of failures) io.stdout.write(`${f.file}  FAILED: ${f.message}\n`);

  const tallies = steps.map((s, i) => {
    const expected = rows.filter((r) => r.results[i]?.expectedFailure === true).length;
    const note = expected === 0 ? "" : ` (${expected} ${s.expectedFailureText ?? "expected failures"})`;
    return `${s.name} ${rows.filter((r) => r.results[i]?.ok === true).length}/${rows.length} ok${note}`;
  });
  const failedObjects = rows.filter((r) => r.results.some((x) => !x.ok)).length;
  const ok = failedObjects === 0 && failures.length === 0;
  const fileNote = failures.length === 0 ? "" : `; ${failures.length} ${failures.length === 1 ? "file" : "files"} failed to load`;
  io.stdout.write(`${ok ? "ok" : "FAILED"}: ${rows.length} objects from ${files.length} files; ${tallies.join("; ")}${fileNote}\n`);
  return ok ? EXIT_OK : EXIT_FAILURE;
}

/** Reads one file into items, in strict mode; codec errors propagate as DecodeError. */
async function load(io: CliIO, file: string, rel: string): Promise<DemoItem[]> {
  const input = await readInput(io, file);
  return decodeManifest(input, manifestFormat(file, input.bytes), { strict: true, relative: rel });
}

function label(item: DemoItem): string {
  return item.index === undefined ? item.file : `${item.file} #${item.index + 1}`;
}


function nameOf(obj: NetworkingObject): string {
  if ("items" in obj) return `(${obj.items.length} ${obj.items.length === 1 ? "item" : "items"})`;
  const meta = "metadata" in obj ? obj.metadata : undefined;
  if (meta === undefined || !("name" in meta)) return "-";
  const name = meta.name === "" ? "(no name)" : meta.name;
  return meta.namespace === "" ? name : `${meta.namespace}/${name}`;
}

function whereDiffer(a: Uint8Array, b: Uint8Array): string {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return `at byte ${i} (${a.length} vs ${b.length} bytes)`;
  return `in length (${a.length} vs ${b.length} bytes)`;
}

function describeError(e: unknown): string {
  if (e instanceof DecodeError || e instanceof EncodeError) return e.message;
  if (e instanceof CliError) return e.message;
  throw e;
}

// ------------------------------------------------------------------ routes and reach

/** A request of the routes section and the answer semantics.md §1.1 gives for it. */
interface ExpectedRoute {
  readonly host: string;
  readonly path: string;
  readonly sni?: string;
  readonly backend: string;
  readonly ingress: string;
  readonly field: string;
  readonly via: Route["via"];
  readonly tier: HostTier | null;
}

export const ROUTE_FILES: readonly string[] = ["ingress-shop.yaml", "ingressclass-public.yaml", "catalog-stack.yaml"];
export const ROUTE_CONTROLLER = "k8s.io/ingress-nginx";

// Written from the rules, not from output: storefront and catalog are both of
// class nginx-public (R2); storefront has *.shop.example.com and
// api.shop.example.com rules and the defaultBackend not-found:8080.
export const EXPECTED_ROUTES: readonly ExpectedRoute[] = [
  // R7.1: /v1/cart (8 characters) beats /v1; the query is not part of the path (R5).
  { host: "api.shop.example.com", path: "/v1/cart/items?id=7", backend: "service cart:9000", ingress: "shop/storefront", field: "spec.rules[1].http.paths[1]", via: "path", tier: "precise" },
  // R3: port and case go; then the Exact path.
  { host: "API.Shop.Example.com:443", path: "/healthz", backend: "service shop-api:health", ingress: "shop/storefront", field: "spec.rules[1].http.paths[0]", via: "path", tier: "precise" },
  // Exact /healthz misses /healthz/, nothing else matches, so the tier's Ingress default (R9.1).
  { host: "api.shop.example.com", path: "/healthz/", backend: "service not-found:8080", ingress: "shop/storefront", field: "spec.defaultBackend", via: "tier-default", tier: "precise" },
  // ImplementationSpecific is a Prefix (R6), and /v1/images is longer than /v1.
  { host: "api.shop.example.com", path: "/v1/images/cat.png", backend: "resource k8s.example.com/StorageBucket product-images", ingress: "shop/storefront", field: "spec.rules[1].http.paths[3]", via: "path", tier: "precise" },
  // /v1/images is not an element prefix of /v1/imagesX; /v1 is.
  { host: "api.shop.example.com", path: "/v1/imagesX", backend: "service shop-api:9000", ingress: "shop/storefront", field: "spec.rules[1].http.paths[2]", via: "path", tier: "precise" },
  { host: "tenant-a.shop.example.com", path: "/static/app.js", backend: "service storefront-assets:8080", ingress: "shop/storefront", field: "spec.rules[0].http.paths[1]", via: "path", tier: "wildcard" },
  // SNI names the catalog, but the Host header routes (R10).
  { host: "tenant-b.shop.example.com", path: "/", sni: "catalog.shop.example.com", backend: "service storefront-web:http", ingress: "shop/storefront", field: "spec.rules[0].http.paths[0]", via: "path", tier: "wildcard" },
  // A wildcard covers exactly one label (R4); no host-less rules, so the default (R9.2).
  { host: "deep.tenant.shop.example.com", path: "/", backend: "service not-found:8080", ingress: "shop/storefront", field: "spec.defaultBackend", via: "default", tier: null },
  { host: "catalog.shop.example.com", path: "/books?page=2", backend: "service catalog:http", ingress: "shop/catalog", field: "spec.rules[0].http.paths[0]", via: "path", tier: "precise" },
];

/**
 * Routes EXPECTED_ROUTES through ROUTE_FILES under `dir`; undefined when
 * `dir` holds none of them (it is not the bundled examples).
 */
export async function runRouteSection(io: CliIO, dir: string): Promise<boolean | undefined> {
  const files = await present(io, dir, ROUTE_FILES);
  if (files === undefined) return undefined;
  const paths = ROUTE_FILES.map((f) => join(dir, f));
  io.stdout.write(`routes: ${paths.join(", ")}; controller ${ROUTE_CONTROLLER}\n`);
  let setup: ReturnType<typeof routerSetup>;
  try {
    setup = routerSetup(await loadManifestObjects(io, paths, NAME, true), ROUTE_CONTROLLER, NAME);
  } catch (e) {
    io.stdout.write(`FAILED: routes: ${describeError(e)}\n`);
    return false;
  }
  // Other kinds in catalog-stack.yaml are expected; skipped or out-of-scope Ingresses are worth seeing.
  for (const note of setup.notes.filter((n) => !n.startsWith("ignored "))) io.stdout.write(`  note: ${note}\n`);
  let ok = 0;
  for (const want of EXPECTED_ROUTES) {
    const label = `${want.host} ${want.path}${want.sni === undefined ? "" : ` (SNI ${want.sni})`}`;
    const route = setup.router.route({ host: want.host, path: want.path, ...(want.sni !== undefined ? { sni: want.sni } : {}) });
    const problems = routeProblems(want, route, setup);
    io.stdout.write(`  ${routeSummary(label, route, setup)}  ${problems.length === 0 ? "ok" : "FAILED"}\n`);
    for (const p of problems) io.stdout.write(`    - ${p}\n`);
    if (problems.length === 0) ok++;
  }
  const all = ok === EXPECTED_ROUTES.length;
  io.stdout.write(`${all ? "ok" : "FAILED"}: routes ${ok}/${EXPECTED_ROUTES.length} as expected\n`);
  return all;
}

function routeProblems(want: ExpectedRoute, route: Route | null, setup: ReturnType<typeof routerSetup>): string[] {
  if (route === null) return [`expected ${want.backend}, got no backend`];
  const got = {
    backend: describeBackend(route.backend),
    ingress: route.ingress,
    field: routeSource(route, setup.ingresses.get(route.ingress)?.ingress).field,
    via: route.via,
    tier: route.tier,
  };
  return (["backend", "ingress", "field", "via", "tier"] as const)
    .filter((k) => got[k] !== want[k])
    .map((k) => `expected ${k} ${String(want[k])}, got ${String(got[k])}`);
}

/** A truth table of the reach section, one string per source row: ✓ allowed, · denied. */
interface ExpectedTable {
  readonly protocol: Protocol;
  readonly port: number;
  readonly rows: readonly string[];
}

/** A connection of the reach section, each direction as `verdict [policy[rule,...] ...]`. */
interface ExpectedConnection {
  readonly from: string;
  readonly to: string;
  readonly protocol: Protocol;
  readonly port: number | string;
  readonly allowed: boolean;
  readonly egress: string;
  readonly ingress: string;
}

export const REACH_FILE = join("clusters", "shop.yaml");

/** The pods of clusters/shop.yaml in file order: the rows and columns of the tables. */
export const REACH_PODS: readonly string[] = [
  "ingress-nginx/controller-7d9f",
  "shop/storefront-6c5d",
  "shop/catalog-5f7b",
  "shop/checkout-84c2",
  "data/postgres-0",
  "data/opensearch-0",
  "kube-system/coredns-5d78",
  "kube-system/node-exporter-n1",
];

// Written from §1.2 for clusters/shop.yaml. Shop pods are isolated both ways
// (default-deny) and may only send to DNS, each other on 8080, the data
// namespace on 5432/9200 and the internet on 443. The storefront admits the
// controller on its "http" port (8080) and its node's node-exporter
// (node-local, E11); the backends admit the storefront on 8080; data admits
// 10.0.0.0/16 except 10.0.1.0/24 on 5432/9200 (E7: pods included).
// ingress-nginx and kube-system are not isolated; node-exporter is hostNetwork.
export const EXPECTED_TABLES: readonly ExpectedTable[] = [
  {
    protocol: "TCP",
    port: 8080,
    rows: [
      "✓✓····✓✓", // the controller sends anywhere; only the storefront of the shop admits it
      "·✓✓✓····", // the storefront may send only to shop pods on 8080
      "··✓·····", // catalog: the storefront admits only the controller, checkout only the storefront
      "···✓····",
      "✓···✓·✓✓", // data pods send freely, but data admits only 5432/9200
      "✓····✓✓✓",
      "✓·····✓✓", // coredns: the shop admits nothing from it
      "✓✓····✓✓", // node-exporter: node-local to the storefront, a plain address elsewhere
    ],
  },
  {
    protocol: "TCP",
    port: 5432,
    rows: [
      "✓·····✓✓", // the controller's 10.0.1.10 is in the except block
      "·✓······", // the storefront may send to data, but 10.0.1.21 is excepted
      "··✓·✓✓··",
      "···✓✓✓··",
      "✓···✓✓✓✓",
      "✓···✓✓✓✓",
      "✓···✓✓✓✓", // coredns's 10.0.0.10 is inside the block
      "✓✓····✓✓", // 192.168.0.11 is outside it; node-local to the storefront still
    ],
  },
];

export const EXPECTED_CONNECTIONS: readonly ExpectedConnection[] = [
  // The DNS rule is egress[0] of shop/egress; "dns" resolves on coredns by name and protocol (E9).
  { from: "shop/catalog-5f7b", to: "kube-system/coredns-5d78", protocol: "UDP", port: "dns", allowed: true, egress: "allowed-by-rule shop/egress[0]", ingress: "not-isolated" },
  { from: "ingress-nginx/controller-7d9f", to: "shop/storefront-6c5d", protocol: "TCP", port: "http", allowed: true, egress: "not-isolated", ingress: "allowed-by-rule shop/storefront-from-ingress[0]" },
  { from: "shop/checkout-84c2", to: "203.0.113.10", protocol: "TCP", port: 443, allowed: true, egress: "allowed-by-rule shop/egress[3]", ingress: "not-applicable" },
  // 10.20.0.5 is inside the except block 10.0.0.0/8: both isolating policies are named.
  { from: "shop/checkout-84c2", to: "10.20.0.5", protocol: "TCP", port: 443, allowed: false, egress: "denied shop/default-deny[] shop/egress[]", ingress: "not-applicable" },
  { from: "kube-system/node-exporter-n1", to: "shop/storefront-6c5d", protocol: "TCP", port: 8080, allowed: true, egress: "not-applicable", ingress: "node-local" },
];

/** `allowed-by-rule shop/egress[0]`, `denied shop/default-deny[] shop/egress[]`, `self`. */
function directionKey(d: DirectionDecision): string {
  return [d.verdict, ...d.policies.map((p) => `${p.policy}[${p.rules.join(",")}]`)].join(" ");
}

/** Checks clusters/shop.yaml under `dir` against the expected tables and connections; undefined when it is not there. */
export async function runReachSection(io: CliIO, dir: string): Promise<boolean | undefined> {
  if ((await present(io, dir, [REACH_FILE])) === undefined) return undefined;
  const path = join(dir, REACH_FILE);
  io.stdout.write(`reach: ${path}\n`);
  let cluster: Awaited<ReturnType<typeof loadClusterFile>>;
  let engine: ReturnType<typeof clusterEngine>;
  try {
    cluster = await loadClusterFile(io, path);
    engine = clusterEngine(cluster);
  } catch (e) {
    io.stdout.write(`FAILED: reach: ${describeError(e)}\n`);
    return false;
  }
  const problems: string[] = skippedNotes(engine, cluster, []).map((n) => `unexpected: ${n}`);
  if (engine.pods.join(" ") !== REACH_PODS.join(" ")) problems.push(`pods are ${engine.pods.join(", ")}; expected ${REACH_PODS.join(", ")}`);
  for (const p of problems) io.stdout.write(`    - ${p}\n`);
  let failed = problems.length;
  let cells = 0;
  for (const want of EXPECTED_TABLES) {
    const matrix = engine.matrix({ protocol: want.protocol, port: want.port });
    const hostNetwork = new Set(cluster.pods.filter((p) => p.hostNetwork === true).map((p) => `${p.namespace}/${p.name}`));
    for (const line of truthGrid(matrix, hostNetwork)) io.stdout.write(`  ${line}\n`);
    const wrong: string[] = [];
    REACH_PODS.forEach((from, f) => {
      const row = [...(want.rows[f] ?? "")];
      REACH_PODS.forEach((to, t) => {
        cells++;
        const expected = row[t] === ALLOWED_GLYPH ? true : row[t] === DENIED_GLYPH ? false : undefined;
        const got = f < matrix.pods.length && t < matrix.pods.length ? matrix.allowed(f, t) : undefined;
        if (expected !== got) wrong.push(`${from} -> ${to}: expected ${word(expected)}, got ${word(got)}`);
      });
    });
    io.stdout.write(wrong.length === 0 ? `  table ok\n` : `  table FAILED: ${wrong.length} ${wrong.length === 1 ? "cell differs" : "cells differ"}\n`);
    for (const w of wrong) io.stdout.write(`    - ${w}\n`);
    failed += wrong.length;
  }
  for (const want of EXPECTED_CONNECTIONS) {
    let lines: string[];
    const wrong: string[] = [];
    try {
      const d = engine.evaluate({ from: endpointOf(want.from), to: endpointOf(want.to), protocol: want.protocol, port: want.port });
      lines = explainDecision(cluster, want.from, want.to, want.port, d);
      if (d.allowed !== want.allowed) wrong.push(`expected ${want.allowed ? "allow" : "deny"}`);
      if (directionKey(d.egress) !== want.egress) wrong.push(`expected egress ${want.egress}, got ${directionKey(d.egress)}`);
      if (directionKey(d.ingress) !== want.ingress) wrong.push(`expected ingress ${want.ingress}, got ${directionKey(d.ingress)}`);
    } catch (e) {
      lines = [`${want.from} -> ${want.to}`];
      wrong.push(e instanceof Error ? e.message : String(e));
    }
    io.stdout.write(`  ${lines[0] ?? ""}  ${wrong.length === 0 ? "ok" : "FAILED"}\n`);
    for (const l of lines.slice(1)) io.stdout.write(`  ${l}\n`);
    for (const w of wrong) io.stdout.write(`    - ${w}\n`);
    failed += wrong.length;
  }
  const summary = `${EXPECTED_TABLES.length} tables (${cells} cells) and ${EXPECTED_CONNECTIONS.length} connections`;
  io.stdout.write(failed === 0 ? `ok: reach ${summary} as expected\n` : `FAILED: reach ${summary}: ${failed} ${failed === 1 ? "difference" : "differences"}\n`);
  return failed === 0;
}

function endpointOf(s: string): { pod: string } | { ip: string } {
  return s.includes("/") ? { pod: s } : { ip: s };
}

function word(v: boolean | undefined): string {
  return v === undefined ? "nothing" : v ? "allow" : "deny";
}

/** The files that exist under `dir`, or undefined when none does. */
async function present(io: CliIO, dir: string, files: readonly string[]): Promise<string[] | undefined> {
  const root = resolve(io.cwd ?? process.cwd(), dir);
  const found: string[] = [];
  for (const f of files) {
    try {
      await access(join(root, f));
      found.push(f);
    } catch {
      // Missing: checked below.
    }
  }
  return found.length === 0 ? undefined : found;
}
