import { formatFieldError, normaliseRequest, type Route, type RouteRequest } from "../../networking/index.js";
import { parseCommandLine, type Command } from "../shared/command.js";
import { EXIT_FAILURE, EXIT_OK, inputPath, usageError } from "../shared/io.js";
import { loadManifestObjects } from "../shared/manifests.js";
import { leftOutLines, writeNotes } from "../shared/notes.js";
import { jsonText } from "../shared/render.js";
import {
  backendJson,
  describeBackend,
  describeRulePath,
  routeSource,
  routerSetup,
  type RouterSetup,
} from "../shared/routing.js";

const NAME = "route";

const HELP = `Usage: clusterwire route --host HOST [--path PATH] [options] FILE|DIR|- ...
       clusterwire route --url URL [--url URL ...] [options] FILE|DIR|- ...

Routes HTTP requests through the Ingresses in the inputs, as one ingress
controller would (see docs/ingress-routing.md in the package), and prints the backend
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
Objects the API server would reject take no part, nor do later objects with
the same name. The answers say so: the text ends with a "left out:" line
per object, and the JSON lists them in "skipped"; stderr lists them with the
API server's errors, and the Ingresses the controller does not serve.

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
                       route null when nothing serves the request. Every
                       request has host, path, scheme and sni; every route
                       the same keys, and its backend both service and
                       resource; what does not apply is null
  -q, --quiet          no notes on stderr (skipped inputs, ignored kinds)
  -h, --help           show this help

Exit status: 0 every request was routed, 1 a request has no backend (the
controller answers it itself, usually 404), 2 usage error, or an input that
cannot be read or decoded.

Examples:
  clusterwire route --controller k8s.io/ingress-nginx --host api.shop.example.com \\
      --path /v1/cart/items node_modules/clusterwire/examples/ingress-shop.yaml \\
      node_modules/clusterwire/examples/ingressclass-public.yaml
  clusterwire route --url https://tenant-a.shop.example.com/static/app.js \\
      node_modules/clusterwire/examples/ingress-shop.yaml`;

export const routeCommand: Command = {
  name: NAME,
  summary: "route HTTP requests through Ingresses: the backend chosen, and why",
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandLine(
      NAME,
      HELP,
      {
        host: { type: "string" },
        path: { type: "string" },
        url: { type: "string", multiple: true },
        sni: { type: "string" },
        controller: { type: "string" },
        output: { type: "string", short: "o" },
        quiet: { type: "boolean", short: "q" },
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    const output = parseOutput(values.output, NAME);
    const requests = buildRequests(values);
    if (values.controller !== undefined && values.controller === "")
      throw usageError("--controller must not be empty", NAME);
    const quiet = values.quiet === true;
    const paths = positionals.length === 0 ? [inputPath(io, undefined, NAME)] : positionals;

    const loaded = await loadManifestObjects(io, paths, NAME, quiet);
    const setup = routerSetup(loaded, values.controller);
    if (!quiet) writeNotes(io, setup.notes);
    const results = requests.map((r) => ({ request: r, route: setup.router.route(r.request) }));
    if (output === "json") {
      io.stdout.write(`${jsonText(routeJson(setup, results))}\n`);
    } else {
      const answers = results.map((r) => explainRoute(r.request, r.route, setup).join("\n"));
      const leftOut = leftOutLines(setup.router.skipped, (_, i) => setup.skippedSources[i] ?? "?");
      io.stdout.write([...answers, ...(leftOut.length > 0 ? [leftOut.join("\n")] : [])].join("\n\n") + "\n");
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
    throw usageError(
      values.path !== undefined
        ? "--path needs --host (the Host header)"
        : "give the request: --host HOST [--path PATH], or --url URL",
      NAME,
    );
  }
  const path = values.path ?? "/";
  return [
    { request: { host: values.host, path, ...sni }, label: `${values.host === "" ? '""' : values.host} ${path}` },
  ];
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
  const sniLine =
    sni === undefined ? [] : [`  sni      ${sni} (selects a certificate only; routing follows the Host header, R10)`];
  if (route === null) {
    const read = normaliseRequest(line.request);
    return [
      `${line.label} -> no backend (the controller answers itself, usually 404)`,
      `  host     ${read.host || '""'}`,
      `  path     ${read.requestPath}`,
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

function routeJson(setup: RouterSetup, results: readonly { request: RequestLine; route: Route | null }[]): unknown {
  return {
    routes: results.map(({ request, route }) => ({
      // Every request has the same keys: what it did not give is null.
      request: {
        host: request.request.host,
        path: request.request.path,
        scheme: request.request.scheme ?? null,
        sni: request.request.sni ?? null,
      },
      route: route === null ? null : routeObject(route, setup),
    })),
    skipped: skippedJson(setup),
    outOfScope: setup.router.outOfScope.map((o) => ({
      ingress: o.ingress,
      reason: o.reason,
      source: setup.ingresses.get(o.ingress)?.source ?? null,
    })),
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
  return setup.router.skipped.map((s, i) => ({
    kind: s.kind,
    name: s.name,
    source: setup.skippedSources[i] ?? null,
    errors: s.errors.map(formatFieldError),
  }));
}
