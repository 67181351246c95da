import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { kindOf, type FeatureGates, type NetworkingObject } from "../../networking/index.js";
import { parseCommandLine, type Command } from "../shared/command.js";
import { checkFile } from "../shared/document-check.js";
import { FIELD_VALIDATIONS, readManifestFile, type FieldValidation, type ReadFile } from "../shared/document-reader.js";
import {
  CliError,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  inputPath,
  readInput,
  usageError,
  type CliIO,
} from "../shared/io.js";
import { kubernetesVersionHelp, parseKubernetesVersion } from "../shared/kubernetes-version.js";
import { VALIDATED_KINDS, kindSelector, kindTokens, unknownKinds } from "./kind-selection.js";
import { version } from "../shared/package.js";
import { jsonReporter } from "./report-json.js";
import { junitReporter } from "./report-junit.js";
import { sarifReporter } from "./report-sarif.js";
import { textReporter } from "../shared/report-text.js";
import type { Reporter } from "../shared/reporter.js";
import type { FileJobSettings } from "./file.js";
import { runValidation } from "./run.js";
import { addToSummary, emptySummary, type Summary } from "../shared/verdict.js";
import type { WalkOptions } from "../shared/walk.js";

const NAME = "validate";

/** Feature gates the validator knows, as kube-apiserver names them. */
export const FEATURE_GATES = [
  "RelaxedServiceNameValidation",
  "StrictIPCIDRValidation",
] as const satisfies readonly (keyof FeatureGates)[];

const HELP = `Usage: clusterwire validate [options] FILE|DIR|- ...

Validates Kubernetes manifests the way the API server does before it stores
them, document by document, as kubectl applies them:

- networking.k8s.io/v1 objects (Ingress, IngressClass, NetworkPolicy,
  IPAddress, ServiceCIDR and their Lists) are decoded, defaulted and
  validated, and the API server's errors are printed, worded as it words
  them, at the FILE:LINE:COLUMN of the offending field;
- documents of any other kind (Deployment, Service, ...) are skipped, and
  named; a v1 List is read item by item;
- a document that cannot be decoded is an error for that document only;
  the rest of its file is still checked;
- files that are not manifests (YAML or JSON without apiVersion or kind,
  such as package.json or a Helm values file, or an unrendered template)
  are skipped with a note.

On create, the API server also refuses an object whose metadata.namespace is
not the request's (400 BadRequest) or that carries metadata.resourceVersion
(refused by its storage layer); these are reported as refusals, apart from
field errors.

Directories are searched recursively for .yaml, .yml, .json, .jsonl and .pb
files, skipping dot-directories and node_modules; a file named on the command
line is read whatever its extension. .pb holds one k8s\\0 object or a
protobuf watch stream and .jsonl a JSON watch stream: each event's object is
validated. - reads standard input.

Options:
  -o, --output FORMAT     text (default): a line per finding and a summary;
                          json: {"documents": [...], "summary": {...}}, a
                          result per document, each with the same keys:
                          file document item event line apiVersion kind
                          namespace name generateName status errors
                          refusals warnings error reason response; a value
                          that does not apply is null, a list is [] (a
                          note on a whole file has document and line
                          null; see docs/cli.md#-o-json in the package);
                          junit: JUnit XML for CI test reports;
                          sarif: SARIF 2.1.0 for code-scanning UIs
  --field-validation MODE as the API server's fieldValidation: Strict (the
                          default, kubectl's): an unknown field is a decode
                          error; Warn: unknown fields are warnings and the
                          object is validated; Ignore: they are dropped. A
                          repeated key is a warning under Strict and Warn:
                          kubectl sends the last value, which is validated
  --kinds LIST            validate only these kinds (Ingress, or
                          networking.k8s.io/v1/Ingress; a kind selects its
                          List too); others are skipped. Repeatable
  --skip-kinds LIST       skip these kinds. Repeatable
  --include GLOB          in directories, read only files whose path under
                          the directory matches (e.g. 'deploy/**'). Repeatable
  --exclude GLOB          in directories, leave out matching files and
                          directories (e.g. '**/templates/**'). Repeatable
  --non-manifests skip|error
                          what a file that is not a manifest is (default skip)
  --jobs N|auto           threads that check files, for runs of 64 files or
                          more: the main thread and N-1 workers (default
                          auto: one per CPU, at most 8, with 3 CPUs or more,
                          else 1; 1: the main thread alone). Output order
                          is the input order whatever N is
  --old FILE              validate an update of the object stored as FILE
                          (as kubectl get -o yaml shows it, resourceVersion
                          included); takes one input object of the same kind
  --subresource status    validate an update through the /status subresource
                          (needs --old)
${kubernetesVersionHelp(26)}
  --feature-gates LIST    as kube-apiserver takes it: Gate=true,Gate=false.
                          Known gates (off by default in 1.35, on in 1.37):
                          ${FEATURE_GATES.join(", ")}
  --namespace NS          the request namespace (default: each object's own
                          metadata.namespace, else "default")
  -q, --quiet             print only what needs fixing: no ok or skipped
                          lines, and no summary when nothing does
  -h, --help              show this help

On a terminal, a progress line is shown on stderr for runs over a second.

Exit status:
  0  every networking object is valid (skipped documents do not count)
  1  an object is invalid or refused, or a document or file cannot be
     decoded (or is not a manifest, with --non-manifests error)
  2  usage error, or an input path given cannot be read

Examples:
  clusterwire validate node_modules/clusterwire/examples   # exit 1: invalid/ fails on purpose
  clusterwire validate --exclude '**/charts/**' -o junit . > report.xml
  clusterwire validate -o sarif node_modules/clusterwire/examples/invalid > clusterwire.sarif   # exit 1
  clusterwire validate --field-validation Warn --kinds Ingress node_modules/clusterwire/examples/shop-deploy.yaml
  clusterwire validate --old node_modules/clusterwire/examples/ingress.pb \\
      node_modules/clusterwire/examples/ingress-shop.yaml   # exit 1: an update needs a resourceVersion`;

type Output = "text" | "json" | "junit" | "sarif";
const OUTPUTS: readonly Output[] = ["text", "json", "junit", "sarif"];

export const validateCommand: Command = {
  name: NAME,
  summary: "check manifests as the API server validates them, with its error messages",
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandLine(
      NAME,
      HELP,
      {
        output: { type: "string", short: "o" },
        old: { type: "string" },
        subresource: { type: "string" },
        "feature-gates": { type: "string", multiple: true },
        "kubernetes-version": { type: "string" },
        namespace: { type: "string" },
        quiet: { type: "boolean", short: "q" },
        "field-validation": { type: "string" },
        kinds: { type: "string", multiple: true },
        "skip-kinds": { type: "string", multiple: true },
        include: { type: "string", multiple: true },
        exclude: { type: "string", multiple: true },
        "non-manifests": { type: "string" },
        jobs: { type: "string" },
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    const output = parseOutput(values.output);
    const quiet = values.quiet === true;
    const featureGates = parseFeatureGates(values["feature-gates"] ?? []);
    const kubernetesVersion = parseKubernetesVersion(values["kubernetes-version"], NAME);
    if (values.subresource !== undefined && values.subresource !== "status") {
      throw usageError(`--subresource must be status, got ${JSON.stringify(values.subresource)}`, NAME);
    }
    if (values.subresource !== undefined && values.old === undefined) {
      throw usageError("--subresource status validates an update: give the stored object with --old FILE", NAME);
    }
    if (values.namespace !== undefined && values.namespace === "")
      throw usageError("--namespace must not be empty", NAME);
    const kinds = kindTokens(values.kinds ?? []);
    const unknown = unknownKinds(kinds);
    if (unknown.length > 0) {
      throw usageError(
        `--kinds: ${unknown.join(", ")} is not a kind clusterwire validates; kinds: ${VALIDATED_KINDS.filter(
          (k) => !k.list,
        )
          .map((k) => k.kind)
          .join(", ")}`,
        NAME,
      );
    }
    const settings: FileJobSettings = {
      fieldValidation: parseFieldValidation(values["field-validation"]),
      nonManifests: parseNonManifests(values["non-manifests"]),
      featureGates,
      ...(kubernetesVersion !== undefined ? { version: kubernetesVersion } : {}),
      kinds,
      skipKinds: kindTokens(values["skip-kinds"] ?? []),
      ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
    };
    const jobs = parseJobs(values.jobs);
    const paths = positionals.length === 0 ? [inputPath(io, undefined, NAME)] : positionals;
    if (paths.filter((p) => p === "-").length > 1) throw usageError("- (standard input) can be given only once", NAME);
    const reporter = makeReporter(output, quiet);

    if (values.old !== undefined) {
      const old = await readOld(io, values.old);
      const summary = await validateUpdate(io, paths, settings, old, values.old, values.subresource, reporter);
      return summary.invalid > 0 || summary.errors > 0 ? EXIT_FAILURE : EXIT_OK;
    }
    const walk: WalkOptions = {
      ...(values.include !== undefined ? { include: values.include } : {}),
      ...(values.exclude !== undefined ? { exclude: values.exclude } : {}),
    };
    const result = await runValidation(io, paths, walk, settings, reporter, jobs === undefined ? {} : { jobs });
    if (result.missing > 0) return EXIT_USAGE;
    return result.summary.invalid > 0 || result.summary.errors > 0 ? EXIT_FAILURE : EXIT_OK;
  },
};

function makeReporter(output: Output, quiet: boolean): Reporter {
  switch (output) {
    case "text":
      return textReporter({ quiet });
    case "json":
      return jsonReporter({ quiet });
    case "junit":
      return junitReporter();
    case "sarif":
      return sarifReporter({ toolVersion: version() });
  }
}

function parseOutput(value: string | undefined): Output {
  if (value === undefined) return "text";
  if ((OUTPUTS as readonly string[]).includes(value)) return value as Output;
  throw usageError(`--output must be one of ${OUTPUTS.join(", ")}, got ${JSON.stringify(value)}`, NAME);
}

/** Strict, Warn or Ignore, in any case, as kubectl's --validate takes strict, warn and ignore. */
function parseFieldValidation(value: string | undefined): FieldValidation {
  if (value === undefined) return "Strict";
  const found = FIELD_VALIDATIONS.find((v) => v.toLowerCase() === value.toLowerCase());
  if (found !== undefined) return found;
  throw usageError(
    `--field-validation must be one of ${FIELD_VALIDATIONS.join(", ")}, got ${JSON.stringify(value)}`,
    NAME,
  );
}

function parseNonManifests(value: string | undefined): "skip" | "error" {
  if (value === undefined || value === "skip" || value === "error") return value ?? "skip";
  throw usageError(`--non-manifests must be skip or error, got ${JSON.stringify(value)}`, NAME);
}

/** --jobs N (1 to 64) or auto; undefined means auto. */
function parseJobs(value: string | undefined): number | undefined {
  if (value === undefined || value === "auto") return undefined;
  if (/^\d{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= 64) return Number(value);
  throw usageError(`--jobs must be auto or a whole number from 1 to 64, got ${JSON.stringify(value)}`, NAME);
}

/**
 * Parses --feature-gates as kube-apiserver does (component-base featuregate
 * Set): comma-separated Name=bool pairs, spaces trimmed, empty items skipped,
 * bools as Go's strconv.ParseBool takes them. Repeated flags are merged, the
 * last value winning.
 */
export function parseFeatureGates(values: readonly string[]): FeatureGates {
  const gates: Partial<Record<(typeof FEATURE_GATES)[number], boolean>> = {};
  for (const value of values) {
    for (const item of value.split(",")) {
      if (item === "") continue;
      const eq = item.indexOf("=");
      const key = (eq < 0 ? item : item.slice(0, eq)).trim();
      if (eq < 0) throw usageError(`--feature-gates: missing bool value for ${key}`, NAME);
      const raw = item.slice(eq + 1).trim();
      const bool = parseGoBool(raw);
      if (bool === undefined)
        throw usageError(`--feature-gates: invalid value of ${key}=${raw}, must be true or false`, NAME);
      if (!(FEATURE_GATES as readonly string[]).includes(key)) {
        throw usageError(
          `--feature-gates: unrecognized feature gate: ${key}; known gates: ${FEATURE_GATES.join(", ")}`,
          NAME,
        );
      }
      gates[key as (typeof FEATURE_GATES)[number]] = bool;
    }
  }
  return gates;
}

/** strconv.ParseBool. */
function parseGoBool(s: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(s)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(s)) return false;
  return undefined;
}

/** The stored object for --old: exactly one object, read leniently (the server may store fields this version does not know). */
async function readOld(io: CliIO, path: string): Promise<NetworkingObject> {
  if (path === "-") throw usageError("--old must name a file, not standard input", NAME);
  const input = await readInput(io, path);
  const read = await readManifestFile(input, { fieldValidation: "Ignore" });
  const failed = read.documents.find((d) => d.type === "error");
  if (failed?.type === "error") {
    const { line, column, reason } = failed.error;
    const at = line !== undefined ? `${line}:${column ?? 1}: ` : "";
    throw new CliError(`--old ${input.name}:${at === "" ? " " : at}${reason}`, EXIT_USAGE);
  }
  const objects = read.documents.filter((d) => d.type === "object");
  const [first] = objects;
  if (objects.length !== 1 || first === undefined || first.event !== undefined) {
    const what =
      read.notManifest !== undefined
        ? "no Kubernetes object"
        : first?.event !== undefined
          ? "a watch stream"
          : `${objects.length} networking objects`;
    throw usageError(`--old ${input.name}: holds ${what}; give the one stored object`, NAME);
  }
  return first.object;
}

/**
 * Validates an update: the inputs hold one networking object (other kinds
 * are skipped as ever), checked against the stored one.
 */
async function validateUpdate(
  io: CliIO,
  paths: readonly string[],
  settings: FileJobSettings,
  old: NetworkingObject,
  oldPath: string,
  subresource: string | undefined,
  reporter: Reporter,
): Promise<Summary> {
  const inputs: { name: string; read: ReadFile }[] = [];
  for (const path of paths) {
    if (path !== "-" && (await isDirectory(io, path)))
      throw usageError(
        `--old compares one object with its stored version: give a file, not the directory ${path}`,
        NAME,
      );
    const input = await readInput(io, path);
    const select = kindSelector(settings.kinds, settings.skipKinds);
    inputs.push({
      name: input.name,
      read: await readManifestFile(input, {
        fieldValidation: settings.fieldValidation,
        ...(select !== undefined ? { select } : {}),
      }),
    });
  }
  const objects = inputs.flatMap(({ name, read }) =>
    read.documents.flatMap((d) => (d.type === "object" ? [{ file: name, object: d.object }] : [])),
  );
  checkUpdate(old, oldPath, subresource, objects);
  let summary = emptySummary();
  io.stdout.write(reporter.start());
  for (const { name, read } of inputs) {
    const verdicts = checkFile(name, read, {
      featureGates: settings.featureGates,
      ...(settings.version !== undefined ? { version: settings.version } : {}),
      nonManifests: settings.nonManifests,
      old,
      ...(subresource === "status" ? { subresource: "status" as const } : {}),
      ...(settings.namespace !== undefined ? { namespace: settings.namespace } : {}),
    });
    summary = addToSummary(summary, verdicts);
    io.stdout.write(reporter.file(verdicts));
  }
  io.stdout.write(reporter.end(summary));
  return summary;
}

async function isDirectory(io: CliIO, path: string): Promise<boolean> {
  try {
    return (await stat(resolve(io.cwd ?? process.cwd(), path))).isDirectory();
  } catch {
    return false;
  }
}

/** Kinds served with a /status subresource that has its own validation. */
const STATUS_KINDS = ["Ingress", "ServiceCIDR"];

/** The update checks validate() would otherwise throw a TypeError for, as usage errors. */
function checkUpdate(
  old: NetworkingObject,
  oldPath: string,
  subresource: string | undefined,
  items: readonly { file: string; object: NetworkingObject }[],
): void {
  if (items.length === 0) {
    throw usageError(
      "--old compares one object with its stored version, but the inputs hold no networking object",
      NAME,
    );
  }
  if (items.length > 1) {
    throw usageError(
      `--old compares one object with its stored version, but the inputs hold ${items.length} objects`,
      NAME,
    );
  }
  const [item] = items;
  if (item === undefined) return;
  const oldInfo = kindOf(old);
  const info = kindOf(item.object);
  if (oldInfo.list || info.list)
    throw usageError(`--old: an update validates one object, not a ${oldInfo.list ? oldInfo.kind : info.kind}`, NAME);
  if (oldInfo.kind !== info.kind) {
    throw usageError(
      `--old ${oldPath} holds ${article(oldInfo.kind)} ${oldInfo.kind}, but ${item.file} holds ${article(info.kind)} ${info.kind}`,
      NAME,
    );
  }
  if (subresource === "status" && !STATUS_KINDS.includes(info.kind)) {
    throw usageError(
      `--subresource status: ${info.kind} has no status subresource (only ${STATUS_KINDS.join(" and ")})`,
      NAME,
    );
  }
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? "an" : "a";
}
