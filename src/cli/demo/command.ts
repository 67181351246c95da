import { isAbsolute, join, relative } from "node:path";
import { loadExpectations } from "./expectations.js";
import { runReachSection } from "./reach.js";
import { runRouteSection } from "./routes.js";
import { runDemo } from "./steps.js";
import { runStorageScenario } from "./storage-scenario.js";
import { onlyInput, parseCommandLine, type Command } from "../shared/command.js";
import { type CliIO, EXIT_FAILURE, EXIT_OK } from "../shared/io.js";
import { packageRoot } from "../shared/package.js";

const NAME = "demo";

const HELP = `Usage: clusterwire demo [--no-storage] [DIR]

The main job (npm start). Walks DIR for .yaml, .yml, .json, .pb and .jsonl
files and runs every step on every object found, printing one line per
object and a summary. DIR defaults to the examples that ship with
clusterwire (node_modules/clusterwire/examples in a project that installs
it). Manifests are read in strict mode, so a misspelt field fails the run.
A .pb file is either one k8s\\0 object or a watch stream; a .jsonl file is
a JSON watch stream.

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
the rules (docs/ingress-routing.md and docs/network-policy.md in the
package; a different answer fails the run):
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

Examples:
  clusterwire demo
  clusterwire demo --no-storage node_modules/clusterwire/examples

Exit status: 0 every step passed on every object (including the expected
validation failures), every route and table cell was as expected, and every
storage step behaved as expected, 1
something failed, 2 usage error, or DIR unreadable or without manifests.`;

/**
 * The examples directory of the clusterwire package this CLI runs from, as a path
 * relative to the working directory when it lies below it (node_modules/clusterwire/examples
 * in a project, examples in a clone), else absolute (a global install); "examples" when
 * the package root cannot be found.
 */
export function bundledExamples(io: CliIO): string {
  const root = packageRoot();
  if (root === undefined) return "examples";
  const examples = join(root, "examples");
  const rel = relative(io.cwd ?? process.cwd(), examples);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? examples : rel;
}

export const demoCommand: Command = {
  name: NAME,
  summary:
    "the main job (npm start): round-trip and validate every manifest, route and reach checks, a storage scenario",
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandLine(NAME, HELP, { "no-storage": { type: "boolean" } }, args, io);
    if (parsed === undefined) return EXIT_OK;
    const { positionals, values } = parsed;
    const dir = onlyInput(NAME, positionals) ?? bundledExamples(io);
    const expected = await loadExpectations(io);
    const manifests = await runDemo(io, dir);
    const routes = await runRouteSection(io, dir, expected.routes);
    const reach = await runReachSection(io, dir, expected.reach);
    const networking = manifests === EXIT_OK && routes !== false && reach !== false ? EXIT_OK : EXIT_FAILURE;
    if (values["no-storage"] === true) return networking;
    const storage = await runStorageScenario(io, { expected: expected.storage });
    return networking === EXIT_OK && storage ? EXIT_OK : EXIT_FAILURE;
  },
};
