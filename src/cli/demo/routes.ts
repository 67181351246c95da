import { join } from "node:path";
import type { Route } from "../../networking/index.js";
import type { CliIO } from "../shared/io.js";
import { loadManifestObjects } from "../shared/manifests.js";
import { describeBackend, routeSource, routeSummary, routerSetup } from "../shared/routing.js";
import type { ExpectedRoute, RouteExpectations } from "./expectations.js";
import { present } from "./files.js";
import { describeError } from "./steps.js";

// The main job's routes section: requests through the bundled Ingresses,
// each checked against the answer in examples/demo/expected.yaml.

/** The command named in usage errors. */
const NAME = "demo";

/**
 * Routes the expected requests through the expected files under `dir`;
 * undefined when `dir` holds none of them (it is not the bundled examples).
 */
export async function runRouteSection(
  io: CliIO,
  dir: string,
  expected: RouteExpectations,
): Promise<boolean | undefined> {
  const files = await present(io, dir, expected.files);
  if (files === undefined) return undefined;
  const paths = expected.files.map((f) => join(dir, f));
  io.stdout.write(`routes: ${paths.join(", ")}; controller ${expected.controller}\n`);
  let setup: ReturnType<typeof routerSetup>;
  try {
    setup = routerSetup(await loadManifestObjects(io, paths, NAME, true), expected.controller, NAME);
  } catch (e) {
    io.stdout.write(`FAILED: routes: ${describeError(e)}\n`);
    return false;
  }
  // Other kinds in catalog-stack.yaml are expected; skipped or out-of-scope Ingresses are worth seeing.
  for (const note of setup.notes.filter((n) => !n.startsWith("ignored "))) io.stdout.write(`  note: ${note}\n`);
  let ok = 0;
  for (const want of expected.requests) {
    const label = `${want.host} ${want.path}${want.sni === undefined ? "" : ` (SNI ${want.sni})`}`;
    const route = setup.router.route({
      host: want.host,
      path: want.path,
      ...(want.sni !== undefined ? { sni: want.sni } : {}),
    });
    const problems = routeProblems(want, route, setup);
    io.stdout.write(`  ${routeSummary(label, route, setup)}  ${problems.length === 0 ? "ok" : "FAILED"}\n`);
    for (const p of problems) io.stdout.write(`    - ${p}\n`);
    if (problems.length === 0) ok++;
  }
  const all = ok === expected.requests.length;
  io.stdout.write(`${all ? "ok" : "FAILED"}: routes ${ok}/${expected.requests.length} as expected\n`);
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
