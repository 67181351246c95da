import { stat } from "node:fs/promises";
import { basename, join, relative, resolve } from "node:path";
import {
  DecodeError,
  formatFieldError,
  kindOf,
  toJsonString,
  toStatus,
  type FeatureGates,
  type FieldError,
  type NetworkingObject,
  type Status,
  ListMetaSchema,
  StatusSchema,
  create,
} from "../../networking/index.js";
import { parseCommandLine, type Command } from "../shared/command.js";
import {
  CliError,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  STDIN_NAME,
  errnoMessage,
  inputPath,
  readInput,
  usageError,
  type CliIO,
} from "../shared/io.js";
import {
  MANIFEST_KINDS_TEXT,
  decodeManifest,
  manifestFormat,
  skippedDirectoryReason,
  walkManifests,
  type DemoItem,
} from "../shared/manifests.js";
import { jsonText } from "../shared/render.js";
import { objectMeta, requestNamespace, validateObject, type ValidateSettings } from "../shared/validation.js";

const NAME = "validate";

/** Feature gates the validator knows, as kube-apiserver names them. */
export const FEATURE_GATES = [
  "RelaxedServiceNameValidation",
  "StrictIPCIDRValidation",
] as const satisfies readonly (keyof FeatureGates)[];

const HELP = `Usage: clusterwire validate [options] FILE|DIR|- ...

Validates networking.k8s.io/v1 objects the way the API server does before it
stores them (v1 defaulting, then the strategy's validation), and prints the
errors it would return, one per line, worded as the API server words them:

  FILE [(document N)] KIND [NAMESPACE/]NAME: FIELD: Invalid value: VALUE: DETAIL

(or Required value, Unsupported value, Forbidden, ...). A valid object gets
one "...: ok" line; the last line counts everything.
Directories are searched recursively for .yaml, .yml, .json, .jsonl and .pb
files, skipping dot-directories, node_modules and storage/ (storage-API
files such as inventories, not manifests); a file named on the command line
is read whatever its extension.
YAML may hold several documents; JSON holds one object (a List kind is
validated item by item, with paths items[i]...); .pb holds one k8s\\0 object
or a protobuf watch stream, and .jsonl is a JSON watch stream: each event's
object is validated. - reads standard input: protobuf (a k8s\\0 object or a
watch stream), else YAML or JSON text. Manifests are decoded strictly, as
kubectl sends them: an unknown or repeated field is a decode error.

Options:
  -o, --output text|json  output format (default text); json is one document
                          with an entry per object (see the README)
  --old FILE              validate an update of the object stored as FILE
                          (as kubectl get -o yaml shows it, resourceVersion
                          included); takes one input object of the same kind
  --subresource status    validate an update through the /status subresource
                          (needs --old)
  --feature-gates LIST    as kube-apiserver takes it: Gate=true,Gate=false.
                          Known gates, all alpha and off by default:
                          ${FEATURE_GATES.join(", ")}
  --namespace NS          the request namespace (default: each object's own
                          metadata.namespace, else "default")
  -q, --quiet             print only the errors: no ok lines, and no summary
                          when every object is valid
  -h, --help              show this help

Exit status: 0 every object is valid, 1 an object is invalid, 2 usage error,
or an input that cannot be read or decoded (the others are still validated).

Examples:
  clusterwire validate examples
  clusterwire validate examples/invalid/netpol-bad-rules.yaml
  clusterwire validate --output json examples/invalid
  clusterwire validate --old stored.yaml changed.yaml`;

export const validateCommand: Command = {
  name: NAME,
  summary: "check objects as the API server validates them, with its error messages",
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
        namespace: { type: "string" },
        quiet: { type: "boolean", short: "q" },
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    const output = parseOutput(values.output);
    const featureGates = parseFeatureGates(values["feature-gates"] ?? []);
    if (values.subresource !== undefined && values.subresource !== "status") {
      throw usageError(`--subresource must be status, got ${JSON.stringify(values.subresource)}`, NAME);
    }
    if (values.subresource !== undefined && values.old === undefined) {
      throw usageError("--subresource status validates an update: give the stored object with --old FILE", NAME);
    }
    if (values.namespace !== undefined && values.namespace === "")
      throw usageError("--namespace must not be empty", NAME);
    const paths = positionals.length === 0 ? [inputPath(io, undefined, NAME)] : positionals;
    if (paths.filter((p) => p === "-").length > 1) throw usageError("- (standard input) can be given only once", NAME);
    const old = values.old === undefined ? undefined : await readOld(io, values.old);

    const loaded = await loadInputs(io, paths);
    checkUpdate(old, values.old ?? "", values.subresource, loaded.items);
    const settings: ValidateSettings = {
      featureGates,
      ...(old !== undefined ? { old } : {}),
      ...(values.subresource === "status" ? { subresource: "status" as const } : {}),
      ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
    };
    const report = buildReport(loaded, settings);
    for (const f of loaded.failures) io.stderr.write(`clusterwire: ${f.file}: ${f.message}\n`);
    io.stdout.write(
      output === "json" ? renderJson(report, values.quiet === true) : renderText(report, values.quiet === true),
    );
    return report.summary.unreadable > 0 ? EXIT_USAGE : report.summary.invalid > 0 ? EXIT_FAILURE : EXIT_OK;
  },
};

function parseOutput(value: string | undefined): "text" | "json" {
  if (value === undefined || value === "text" || value === "json") return value ?? "text";
  throw usageError(`--output must be text or json, got ${JSON.stringify(value)}`, NAME);
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

// ---- reading the inputs ----

interface Failure {
  readonly file: string;
  readonly message: string;
  readonly error?: DecodeError;
}

interface Loaded {
  readonly items: DemoItem[];
  readonly failures: Failure[];
  /** Files read (or attempted), for the summary. */
  readonly files: number;
}

async function loadInputs(io: CliIO, paths: readonly string[]): Promise<Loaded> {
  const items: DemoItem[] = [];
  const failures: Failure[] = [];
  let files = 0;
  const loadFile = async (file: string): Promise<void> => {
    files++;
    try {
      const input = await readInput(io, file);
      const found = await decodeManifest(input, manifestFormat(input.name, input.bytes), { strict: true });
      if (found.length === 0) failures.push({ file: input.name, message: "no object found (empty input)" });
      items.push(...found);
    } catch (e) {
      failures.push(failure(file === "-" ? STDIN_NAME : file, e));
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
      files++;
      failures.push({ file: path, message: `cannot read: ${errnoMessage(e)}` });
      continue;
    }
    if (!isDir) {
      await loadFile(path);
      continue;
    }
    let found: string[];
    const skipped: string[] = [];
    try {
      found = await walkManifests(abs, skipped);
      for (const s of skipped)
        io.stderr.write(
          `clusterwire: skipped ${join(path, relative(abs, s))}/: ${skippedDirectoryReason(basename(s))}\n`,
        );
    } catch (e) {
      failures.push({ file: path, message: `cannot read directory: ${errnoMessage(e)}` });
      continue;
    }
    if (found.length === 0) failures.push({ file: path, message: `no ${MANIFEST_KINDS_TEXT} files found` });
    for (const f of found) await loadFile(join(path, relative(abs, f)));
  }
  return { items, failures, files };
}

function failure(file: string, e: unknown): Failure {
  if (e instanceof DecodeError) return { file, message: e.message, error: e };
  // readInput and asText say `<file>: why`; the file is printed separately.
  if (e instanceof CliError)
    return { file, message: e.message.startsWith(`${file}: `) ? e.message.slice(file.length + 2) : e.message };
  throw e;
}

/** The stored object for --old: exactly one object, read leniently (the server may store fields this version does not know). */
async function readOld(io: CliIO, path: string): Promise<NetworkingObject> {
  if (path === "-") throw usageError("--old must name a file, not standard input", NAME);
  const input = await readInput(io, path);
  let objects: DemoItem[];
  try {
    objects = await decodeManifest(input, manifestFormat(input.name, input.bytes), { strict: false });
  } catch (e) {
    const f = failure(input.name, e);
    throw new CliError(`--old ${input.name}: ${f.message}`, EXIT_USAGE);
  }
  const [first] = objects;
  if (objects.length !== 1 || first === undefined || first.event !== undefined) {
    const what = first?.event !== undefined ? "a watch stream" : `${objects.length} objects`;
    throw usageError(`--old ${input.name}: holds ${what}; give the one stored object`, NAME);
  }
  return first.object;
}

/** Kinds served with a /status subresource that has its own validation. */
const STATUS_KINDS = ["Ingress", "ServiceCIDR"];

/** The update checks validate() would otherwise throw a TypeError for, as usage errors. */
function checkUpdate(
  old: NetworkingObject | undefined,
  oldPath: string,
  subresource: string | undefined,
  items: readonly DemoItem[],
): void {
  if (old === undefined) return;
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

// ---- the report ----

interface Entry {
  readonly item: DemoItem;
  /** Set when the API server refuses the request before validating (400 BadRequest). */
  readonly rejected?: string;
  readonly kind: string;
  /** The request namespace for namespaced kinds, else undefined. */
  readonly namespace: string | undefined;
  /** metadata.name, or undefined for Lists and Status. */
  readonly name: string | undefined;
  readonly errors: readonly FieldError[];
}

interface Summary {
  readonly files: number;
  readonly objects: number;
  readonly valid: number;
  readonly invalid: number;
  readonly errors: number;
  readonly unreadable: number;
}

interface Report {
  readonly entries: readonly Entry[];
  readonly failures: readonly Failure[];
  readonly summary: Summary;
}

/** The API server's words when the body names another namespace than the URL (handlers/rest.go). */
export const NAMESPACE_MISMATCH =
  "the namespace of the provided object does not match the namespace sent on the request";

function buildReport(loaded: Loaded, settings: ValidateSettings): Report {
  const entries = loaded.items.map((item): Entry => {
    const info = kindOf(item.object);
    const meta = objectMeta(item.object);
    const base = { item, kind: info.kind, name: meta?.name };
    const own = meta?.namespace ?? "";
    if (info.namespaced && settings.namespace !== undefined && own !== "" && own !== settings.namespace) {
      // Refused before validation runs, so there are no field errors to show.
      return { ...base, namespace: own, rejected: NAMESPACE_MISMATCH, errors: [] };
    }
    return {
      ...base,
      namespace: info.namespaced && !info.list ? requestNamespace(item.object, settings.namespace) : undefined,
      errors: validateObject(item.object, settings),
    };
  });
  const invalid = entries.filter((e) => !isValid(e));
  return {
    entries,
    failures: loaded.failures,
    summary: {
      files: loaded.files,
      objects: entries.length,
      valid: entries.length - invalid.length,
      invalid: invalid.length,
      errors: invalid.reduce((n, e) => n + e.errors.length + (e.rejected !== undefined ? 1 : 0), 0),
      unreadable: loaded.failures.length,
    },
  };
}

/** `examples/x.yaml (document 2) NetworkPolicy shop/web`: where each line starts. */
function describeEntry(e: Entry): string {
  const { item } = e;
  const where =
    item.event !== undefined
      ? ` (event ${(item.index ?? 0) + 1} ${item.event})`
      : item.index !== undefined
        ? ` (document ${item.index + 1})`
        : "";
  let ref = "";
  if (e.name !== undefined) {
    const meta = objectMeta(item.object);
    const name =
      e.name !== ""
        ? e.name
        : meta !== undefined && meta.generateName !== ""
          ? `${meta.generateName}(generated)`
          : "(no name)";
    ref = e.namespace === undefined ? ` ${name}` : ` ${e.namespace}/${name}`;
  }
  return `${item.file}${where} ${e.kind}${ref}`;
}

function renderText(report: Report, quiet: boolean): string {
  const lines: string[] = [];
  for (const e of report.entries) {
    const head = describeEntry(e);
    if (e.rejected !== undefined) {
      lines.push(`${head}: BadRequest: ${e.rejected}`);
      continue;
    }
    if (e.errors.length === 0) {
      if (!quiet) lines.push(`${head}: ok`);
      continue;
    }
    for (const err of e.errors) lines.push(`${head}: ${formatFieldError(err)}`);
  }
  const s = report.summary;
  if (!quiet || s.invalid > 0 || s.unreadable > 0) lines.push(summaryLine(s));
  return lines.map((l) => `${l}\n`).join("");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `12 objects: 9 valid, 3 invalid (7 errors) in 5 files[; 1 unreadable]`. */
export function summaryLine(s: Summary): string {
  const unreadable = s.unreadable === 0 ? "" : `; ${s.unreadable} unreadable`;
  return `${plural(s.objects, "object")}: ${s.valid} valid, ${s.invalid} invalid (${plural(s.errors, "error")}) in ${plural(s.files, "file")}${unreadable}`;
}

function renderJson(report: Report, quiet: boolean): string {
  const objects = report.entries
    .filter((e) => !quiet || !isValid(e))
    .map((e) => ({
      file: e.item.file,
      document: (e.item.index ?? 0) + 1,
      ...(e.item.event !== undefined ? { event: e.item.event } : {}),
      kind: e.kind,
      namespace: e.namespace ?? null,
      name: e.name ?? null,
      valid: isValid(e),
      ...(e.rejected !== undefined ? { rejected: { reason: "BadRequest", message: e.rejected } } : {}),
      errors: e.errors.map((err) => ({
        type: err.type,
        field: err.field,
        path: err.path,
        badValue: err.badValue,
        detail: err.detail,
        message: formatFieldError(err),
      })),
      ...(isValid(e) ? {} : { status: JSON.parse(toJsonString(statusOf(e))) as unknown }),
    }));
  const unreadable = report.failures.map((f) => ({
    file: f.file,
    message: f.message,
    ...(f.error !== undefined ? decodeLocation(f.error) : {}),
  }));
  return `${jsonText({ objects, unreadable, summary: report.summary })}\n`;
}

function isValid(e: Entry): boolean {
  return e.rejected === undefined && e.errors.length === 0;
}

/** The response body the API server sends for a refused object: 422 Invalid, or 400 BadRequest. */
function statusOf(e: Entry): Status {
  if (e.rejected === undefined) return toStatus(e.item.object, e.errors);
  return create(StatusSchema, {
    metadata: create(ListMetaSchema),
    status: "Failure",
    message: e.rejected,
    reason: "BadRequest",
    code: 400,
  });
}

function decodeLocation(e: DecodeError): Record<string, unknown> {
  return {
    format: e.format,
    reason: e.reason,
    ...(e.document !== undefined ? { document: e.document } : {}),
    ...(e.line !== undefined ? { line: e.line, column: e.column ?? 1 } : {}),
    ...(e.offset !== undefined ? { offset: e.offset } : {}),
    ...(e.path !== undefined && e.path !== "" ? { field: e.path } : {}),
  };
}
