import { stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import {
  DecodeError,
  EvaluatorInputError,
  createRouter,
  formatFieldError,
  kindOf,
  type Ingress,
  type IngressBackend,
  type IngressClass,
  type NetworkingObject,
  type Route,
  type RouteRequest,
  type Router,
  type SkippedObject,
} from "../networking/index.js";
import { normaliseHost, requestPath } from "../networking/evaluate/router/router.js";
import { parseCommandLine, type Command } from "./command.js";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, STDIN_NAME, errnoMessage, inputPath, readInput, usageError, type CliIO } from "./io.js";
import { MANIFEST_KINDS_TEXT, decodeManifest, manifestFormat, skippedDirectoryReason, walkManifests } from "./manifests.js";
import { jsonText } from "./validate.js";

const NAME = "route";

const HELP = `Usage: clusterwire route --host HOST [--path PATH] [options] FILE|DIR|- ...
       clusterwire route --url URL [--url URL ...] [options] FILE|DIR|- ...

Routes HTTP requests through the Ingresses in the inputs, as one ingress
controller would (shared/docs/semantics.md §1.1), and prints the backend
chosen and why: the winning Ingress and its spec.rules[i].http.paths[j] (or
spec.defaultBackend), the host tier selected, the normalised host and path,
and how the backend was chosen:

  path          a path of the selected host tier matched; the longest as
                written wins, Exact before Prefix, then the oldest Ingress
  tier-default  no path of the tier matched: the defaultBackend of the
                oldest Ingress with rules in that tier
  default       no tier was selected, or it had no defaultBackend: the
                defaultBackend of the oldest Ingress that sets one

Inputs are read as clusterwire validate reads them (files, directories,
- for standard input). Ingress and IngressClass objects (and their Lists)
are used; other kinds and watch streams are ignored with a note on stderr.
Objects the API server would reject take no part, and are listed on stderr
with its errors; so are Ingresses the controller does not serve.

Options:
  --host HOST          the Host header (port and case are normalised)
  --path PATH          the request target (default /); ? and # end the path
  --url URL            scheme://host[:port]/path?query, split into the Host
                       header and the target as a client sends them; may be
                       repeated to route several requests
  --sni NAME           the TLS server name; it selects a certificate only and
                       never changes the route
  --controller NAME    the controller to evaluate (an IngressClass
                       spec.controller); required when the inputs hold
                       IngressClasses, which then decide which Ingresses are
                       in scope
  -o, --output text|json
                       output format (default text); json is
                       {routes: [{request, route}], skipped, outOfScope},
                       route null when nothing serves the request
  -q, --quiet          no notes on stderr (skipped inputs, ignored kinds)
  -h, --help           show this help

Exit status: 0 every request was routed, 1 a request has no backend (the
controller answers it itself, usually 404), 2 usage error, or an input that
cannot be read or decoded.

Examples:
  clusterwire route --controller k8s.io/ingress-nginx --host api.shop.example.com \\
      --path /v1/cart/items examples/ingress-shop.yaml examples/ingressclass-public.yaml
  clusterwire route --url https://tenant-a.shop.example.com/static/app.js examples/ingress-shop.yaml`;

export const routeCommand: Command = {
  name: NAME,
  summary: "route HTTP requests through Ingresses: the backend chosen, and why",
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandLine(NAME, HELP, {
      host: { type: "string" },
      path: { type: "string" },
      url: { type: "string", multiple: true },
      sni: { type: "string" },
      controller: { type: "string" },
      output: { type: "string", short: "o" },
      quiet: { type: "boolean", short: "q" },
    }, args, io);
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    const output = parseOutput(values.output, NAME);
    const requests = buildRequests(values);
    if (values.controller !== undefined && values.controller === "") throw usageError("--controller must not be empty", NAME);
    const quiet = values.quiet === true;
    const paths = positionals.length === 0 ? [inputPath(io, undefined, NAME)] : positionals;

    const loaded = await loadManifestObjects(io, paths, NAME, quiet);
    const setup = routerSetup(loaded, values.controller);
    if (!quiet) writeNotes(io, setup.notes);
    const results = requests.map((r) => ({ request: r, route: setup.router.route(r.request) }));
    if (output === "json") {
      io.stdout.write(`${jsonText(routeJson(setup, results))}\n`);
    } else {
      io.stdout.write(results.map((r) => explainRoute(r.request, r.route, setup).join("\n")).join("\n\n") + "\n");
    }
    return results.every((r) => r.route !== null) ? EXIT_OK : EXIT_FAILURE;
  },
};

export function parseOutput(value: string | undefined, command: string): "text" | "json" {
  if (value === undefined || value === "text" || value === "json") return value ?? "text";
  throw usageError(`--output must be text or json, got ${JSON.stringify(value)}`, command);
}

// ------------------------------------------------------------------ requests

/** One request to route, and how to show it. */
export interface RequestLine {
  readonly request: RouteRequest;
  /** As the user gave it: `HOST PATH`, or the URL. */
  readonly label: string;
}

function buildRequests(values: { host?: string; path?: string; url?: string[]; sni?: string }): RequestLine[] {
  const urls = values.url ?? [];
  const sni = values.sni === undefined ? {} : { sni: values.sni };
  if (urls.length > 0 && (values.host !== undefined || values.path !== undefined)) {
    throw usageError("give either --host/--path or --url, not both", NAME);
  }
  if (urls.length > 0) return urls.map((u) => ({ request: { ...parseUrl(u), ...sni }, label: u }));
  if (values.host === undefined) {
    throw usageError(values.path !== undefined ? "--path needs --host (the Host header)" : "give the request: --host HOST [--path PATH], or --url URL", NAME);
  }
  const path = values.path ?? "/";
  return [{ request: { host: values.host, path, ...sni }, label: `${values.host === "" ? '""' : values.host} ${path}` }];
}

/**
 * Splits a URL into the Host header and request target a client would send,
 * without normalising either (no dot-segment removal, no case folding): the
 * router's own rules (R3, R5) decide what they mean.
 */
export function parseUrl(url: string): RouteRequest {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s.exec(url);
  if (m === null) throw usageError(`--url must look like https://host/path, got ${JSON.stringify(url)}`, NAME);
  const [, scheme = "", authority = "", rest = ""] = m;
  const host = authority.slice(authority.lastIndexOf("@") + 1);
  const path = rest === "" ? "/" : rest.startsWith("/") ? rest : `/${rest}`;
  return { host, path, scheme: scheme.toLowerCase() };
}

// ------------------------------------------------------------------ reading the manifests

/** One object read from the inputs, and where it came from. */
export interface SourcedObject {
  readonly object: NetworkingObject;
  /** `FILE`, `FILE (document N)` or `FILE items[i]`, for messages. */
  readonly source: string;
}

export interface LoadedObjects {
  readonly objects: readonly SourcedObject[];
  /** Objects of watch streams, which are ignored: a stream is history, not a set of objects. */
  readonly watchEvents: readonly string[];
}

/**
 * Reads manifests from files, directories (walked as validate walks them)
 * and stdin, strictly; List kinds are expanded into their items. Every
 * input that cannot be read or decoded is reported, then the whole load
 * fails with exit 2: an answer built on part of the inputs could be wrong.
 */
export async function loadManifestObjects(io: CliIO, paths: readonly string[], command: string, quiet: boolean): Promise<LoadedObjects> {
  if (paths.filter((p) => p === "-").length > 1) throw usageError("- (standard input) can be given only once", command);
  const objects: SourcedObject[] = [];
  const watchEvents: string[] = [];
  const failures: string[] = [];
  const loadFile = async (file: string): Promise<void> => {
    try {
      const input = await readInput(io, file);
      const items = await decodeManifest(input, manifestFormat(input.name, input.bytes), { strict: true });
      if (items.length === 0) failures.push(`${input.name}: no object found (empty input)`);
      for (const item of items) {
        const where = item.event !== undefined ? `${item.file} (event ${(item.index ?? 0) + 1})` : item.index !== undefined ? `${item.file} (document ${item.index + 1})` : item.file;
        if (item.event !== undefined) {
          watchEvents.push(where);
          continue;
        }
        const info = kindOf(item.object);
        if (info.list && "items" in item.object) {
          item.object.items.forEach((o, i) => objects.push({ object: o as NetworkingObject, source: `${where} items[${i}]` }));
        } else {
          objects.push({ object: item.object, source: where });
        }
      }
    } catch (e) {
      const name = file === "-" ? STDIN_NAME : file;
      if (e instanceof DecodeError) failures.push(`${name}: ${e.message}`);
      else if (e instanceof CliError) failures.push(e.message.startsWith(`${name}: `) ? e.message : `${name}: ${e.message}`);
      else throw e;
    }
  };
  for (const path of paths) {
    if (path === "-") {
      await loadFile(path);
      continue;
    }
    const abs = resolve(io.cwd ?? process.cwd(), path);
    let isDir: boolean;
    try {
      isDir = (await stat(abs)).isDirectory();
    } catch (e) {
      failures.push(`${path}: cannot read: ${errnoMessage(e)}`);
      continue;
    }
    if (!isDir) {
      await loadFile(path);
      continue;
    }
    const skipped: string[] = [];
    let found: string[];
    try {
      found = await walkManifests(abs, skipped);
    } catch (e) {
      failures.push(`${path}: cannot read directory: ${errnoMessage(e)}`);
      continue;
    }
    if (!quiet) {
      for (const s of skipped) {
        const rel = join(path, relative(abs, s));
        io.stderr.write(`clusterwire: skipped ${rel}/: ${skippedDirectoryReason(s.slice(s.lastIndexOf("/") + 1))}\n`);
      }
    }
    if (found.length === 0) failures.push(`${path}: no ${MANIFEST_KINDS_TEXT} files found`);
    for (const f of found) await loadFile(join(path, relative(abs, f)));
  }
  if (failures.length > 0) {
    for (const f of failures.slice(0, -1)) io.stderr.write(`clusterwire: ${f}\n`);
    throw new CliError(failures.at(-1) ?? "", EXIT_USAGE);
  }
  return { objects, watchEvents };
}

// ------------------------------------------------------------------ the router

/** An in-scope (or out-of-scope but valid) Ingress, and where it came from. */
export interface SourcedIngress {
  readonly ingress: Ingress;
  readonly source: string;
}

/** The router over the inputs, with what is needed to explain its answers. */
export interface RouterSetup {
  readonly router: Router;
  readonly controller: string | undefined;
  /** The Ingresses the router did not skip, by `namespace/name` (unique among them). */
  readonly ingresses: ReadonlyMap<string, SourcedIngress>;
  /** Where each of `router.skipped` came from. */
  readonly skippedSources: readonly string[];
  /** Lines for stderr: ignored inputs, skipped objects, out-of-scope Ingresses. */
  readonly notes: readonly string[];
}

/** Builds the router; IngressClasses in the inputs make --controller required. */
export function routerSetup(loaded: LoadedObjects, controller: string | undefined, command = NAME): RouterSetup {
  const ingresses: Ingress[] = [];
  const ingressSources: string[] = [];
  const classes: IngressClass[] = [];
  const classSources: string[] = [];
  const ignored = new Map<string, number>();
  for (const { object, source } of loaded.objects) {
    const kind = kindOf(object).kind;
    if (kind === "Ingress") {
      ingresses.push(object as Ingress);
      ingressSources.push(source);
    } else if (kind === "IngressClass") {
      classes.push(object as IngressClass);
      classSources.push(source);
    } else {
      ignored.set(kind, (ignored.get(kind) ?? 0) + 1);
    }
  }
  if (ingresses.length === 0) throw usageError("no Ingress in the inputs", command);
  const notes: string[] = [];
  for (const [kind, n] of ignored) notes.push(`ignored ${n} ${kind} ${n === 1 ? "object" : "objects"}: route reads Ingress and IngressClass`);
  if (loaded.watchEvents.length > 0) {
    const n = loaded.watchEvents.length;
    notes.push(`ignored ${n} watch ${n === 1 ? "event" : "events"}: a watch stream is a history, not a set of objects`);
  }
  if (classes.length > 0 && controller === undefined) {
    const seen = [...new Set(classes.map((c) => c.spec?.controller ?? "").filter((c) => c !== ""))].sort();
    const list = seen.length === 0 ? "none set" : seen.join(", ");
    throw usageError(`the inputs hold IngressClasses, so name the controller to evaluate with --controller (controllers seen: ${list})`, command);
  }
  if (classes.length === 0 && controller !== undefined) {
    notes.push("no IngressClass in the inputs: class filtering is skipped and every Ingress is in scope (R2)");
  }
  let router: Router;
  try {
    router = createRouter(classes.length > 0 && controller !== undefined ? { ingresses, ingressClasses: classes, controller } : { ingresses });
  } catch (e) {
    if (e instanceof EvaluatorInputError) throw new CliError(`cannot build the router: ${e.message}`, EXIT_USAGE);
    throw e;
  }
  const skippedIngress = new Set(router.skipped.filter((s) => s.kind === "Ingress").map((s) => s.index));
  const byKey = new Map<string, SourcedIngress>();
  ingresses.forEach((ingress, i) => {
    if (!skippedIngress.has(i)) byKey.set(ingressKey(ingress), { ingress, source: ingressSources[i] ?? "?" });
  });
  const skippedSources = router.skipped.map((s) => (s.kind === "IngressClass" ? classSources : ingressSources)[s.index] ?? "?");
  router.skipped.forEach((s, i) => notes.push(...skippedLines(s, skippedSources[i] ?? "?")));
  for (const o of router.outOfScope) notes.push(`out of scope: Ingress ${o.ingress} (${byKey.get(o.ingress)?.source ?? "?"}): ${o.reason}`);
  return { router, controller, ingresses: byKey, skippedSources, notes };
}

/** The router's `namespace/name`: a missing namespace is "default", a generateName-only object goes by its prefix. */
function ingressKey(ing: Ingress): string {
  const meta = ing.metadata;
  const name = meta === undefined ? "" : meta.name !== "" ? meta.name : meta.generateName;
  return `${meta?.namespace || "default"}/${name}`;
}

/** Notes on stderr: each prefixed `clusterwire: `, except the indented lines that belong to the one before. */
export function writeNotes(io: CliIO, lines: readonly string[]): void {
  for (const line of lines) io.stderr.write(line.startsWith(" ") ? `${line}\n` : `clusterwire: ${line}\n`);
}

/** `skipped KIND NAME (WHERE): ERROR`, or a header and one indented line per error. */
export function skippedLines(s: SkippedObject, where: string): string[] {
  const head = `skipped ${s.kind} ${s.name} (${where})`;
  const errors = s.errors.map(formatFieldError);
  if (errors.length === 1) return [`${head}: ${errors[0] ?? ""}`];
  return [`${head}: ${errors.length} errors`, ...errors.map((e) => `  ${e}`)];
}

// ------------------------------------------------------------------ explaining a route

/** `service shop-api:8080`, `service web:http`, `resource k8s.example.com/StorageBucket images`. */
export function describeBackend(b: IngressBackend): string {
  if (b.service !== undefined) {
    const port = b.service.port;
    const p = port === undefined ? "" : port.name !== "" ? `:${port.name}` : port.number !== 0 ? `:${port.number}` : "";
    return `service ${b.service.name}${p}`;
  }
  if (b.resource !== undefined) {
    const r = b.resource;
    const group = Object.hasOwn(r, "apiGroup") && r.apiGroup !== "" ? `${r.apiGroup}/` : "";
    return `resource ${group}${r.kind} ${r.name}`;
  }
  return "(empty backend)";
}

/** The backend as Kubernetes JSON writes it: only the fields that are set. */
export function backendJson(b: IngressBackend): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (b.resource !== undefined) {
    const r = b.resource;
    out["resource"] = { ...(Object.hasOwn(r, "apiGroup") ? { apiGroup: r.apiGroup } : {}), kind: r.kind, name: r.name };
  }
  if (b.service !== undefined) {
    const port = b.service.port;
    const p = port === undefined ? undefined : { ...(port.name !== "" ? { name: port.name } : {}), ...(port.number !== 0 ? { number: port.number } : {}) };
    out["service"] = { name: b.service.name, ...(p !== undefined ? { port: p } : {}) };
  }
  return out;
}

/** What the winning entry of the Ingress is: its field path, and for a path its pathType and path as written. */
export interface RouteSource {
  /** `spec.rules[1].http.paths[0]` or `spec.defaultBackend`. */
  readonly field: string;
  readonly pathType: string | null;
  /** The rule's path as written ("" for an empty ImplementationSpecific path). */
  readonly rulePath: string | null;
}

export function routeSource(route: Route, ingress: Ingress | undefined): RouteSource {
  if (route.rule === null || route.path === null) return { field: "spec.defaultBackend", pathType: null, rulePath: null };
  const p = ingress?.spec?.rules[route.rule]?.ingressRuleValue?.http?.paths[route.path];
  return { field: `spec.rules[${route.rule}].http.paths[${route.path}]`, pathType: p?.pathType ?? null, rulePath: p?.path ?? null };
}

/** `Prefix /v1/cart`; an empty ImplementationSpecific path is shown as what it means. */
export function describeRulePath(src: RouteSource): string {
  if (src.pathType === null) return "";
  if (src.rulePath === "" || src.rulePath === null) return `${src.pathType} (no path, so "/")`;
  return `${src.pathType} ${src.rulePath}`;
}

const TIER_WORDS = { precise: "precise", wildcard: "wildcard", "host-less": "host-less" } as const;

function hostLine(route: Route): string {
  if (route.tier === null) return `${route.host || '""'} (no rule matches this host, and there are no host-less rules)`;
  return `${route.host || '""'} (${TIER_WORDS[route.tier]} tier)`;
}

function viaLine(route: Route): string {
  switch (route.via) {
    case "path":
      return "path: the best matching path of the selected tier (R7: longest as written, Exact first, then oldest Ingress)";
    case "tier-default":
      return `tier-default: no path of the ${route.tier ?? ""} tier matched; the defaultBackend of the oldest Ingress with rules in that tier (R9.1)`;
    case "default":
      return route.tier === null
        ? "default: no host tier was selected; the defaultBackend of the oldest in-scope Ingress that sets one (R9.2)"
        : `default: no path of the ${route.tier} tier matched and no Ingress with rules there sets a defaultBackend; the defaultBackend of the oldest in-scope Ingress that sets one (R9.2)`;
  }
}

/** The text answer for one request: a `LABEL -> BACKEND` line, then the reasons, indented. */
export function explainRoute(line: RequestLine, route: Route | null, setup: RouterSetup): string[] {
  const sni = line.request.sni;
  const sniLine = sni === undefined ? [] : [`  sni      ${sni} (selects a certificate only; routing follows the Host header, R10)`];
  if (route === null) {
    return [
      `${line.label} -> no backend (the controller answers itself, usually 404)`,
      `  host     ${normaliseHost(line.request.host) || '""'}`,
      `  path     ${requestPath(line.request.path)}`,
      ...sniLine,
      "  why      no path matched and no in-scope Ingress sets a defaultBackend (R9.3)",
    ];
  }
  const src = routeSource(route, setup.ingresses.get(route.ingress)?.ingress);
  const rule = describeRulePath(src);
  return [
    `${line.label} -> ${describeBackend(route.backend)}`,
    `  ingress  ${route.ingress}`,
    `  from     ${src.field}${rule === "" ? "" : `: ${rule}`}`,
    `  host     ${hostLine(route)}`,
    `  path     ${route.requestPath}`,
    ...sniLine,
    `  via      ${viaLine(route)}`,
  ];
}

/** One line for the demo: `HOST PATH -> BACKEND (INGRESS FIELD ..., via)`. */
export function routeSummary(label: string, route: Route | null, setup: RouterSetup): string {
  if (route === null) return `${label} -> no backend`;
  const src = routeSource(route, setup.ingresses.get(route.ingress)?.ingress);
  const rule = describeRulePath(src);
  const tier = route.tier === null ? "no host tier" : `${route.tier} host`;
  return `${label} -> ${describeBackend(route.backend)} (${route.ingress} ${src.field}${rule === "" ? "" : ` ${rule}`}; ${tier}; via ${route.via})`;
}

function routeJson(setup: RouterSetup, results: readonly { request: RequestLine; route: Route | null }[]): unknown {
  return {
    routes: results.map(({ request, route }) => ({
      request: request.request,
      route: route === null ? null : routeObject(route, setup),
    })),
    skipped: skippedJson(setup),
    outOfScope: setup.router.outOfScope.map((o) => ({ ingress: o.ingress, reason: o.reason, source: setup.ingresses.get(o.ingress)?.source ?? null })),
  };
}

function routeObject(route: Route, setup: RouterSetup): unknown {
  const src = routeSource(route, setup.ingresses.get(route.ingress)?.ingress);
  return {
    backend: backendJson(route.backend),
    backendText: describeBackend(route.backend),
    ingress: route.ingress,
    rule: route.rule,
    path: route.path,
    field: src.field,
    pathType: src.pathType,
    rulePath: src.rulePath,
    via: route.via,
    tier: route.tier,
    host: route.host,
    requestPath: route.requestPath,
  };
}

function skippedJson(setup: RouterSetup): unknown[] {
  return setup.router.skipped.map((s, i) => ({ kind: s.kind, name: s.name, source: setup.skippedSources[i] ?? null, errors: s.errors.map(formatFieldError) }));
}
