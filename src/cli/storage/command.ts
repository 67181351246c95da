import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  DEFAULT_PASSWORD,
  DEFAULT_USERNAME,
  InventoryError,
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from "../../storage/server/index.js";
import { commandGroup, noPositionals, parseCommandLine, type Command } from "../shared/command.js";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, errnoMessage, usageError, type CliIO } from "../shared/io.js";
import { DEFAULT_LISTEN_HOST, exposureWarning } from "../shared/listen-address.js";
import { listenFailure, tlsMaterialFailure } from "../shared/listen-failure.js";
import { loadInventory } from "./inventory.js";
import { aborted, stopSignal } from "../shared/stop-signal.js";

const SERVE = "storage serve";

const SERVE_HELP = `Usage: clusterwire storage serve [options]

Runs the storage reference server: an in-memory implementation of the
storage-cluster management REST API (clone tokens, caches, software, NVMe
namespaces, quota rules and jobs, and the read-only nodes, SVMs,
aggregates, volumes and LUNs) with a seeded inventory, HTTP Basic auth and
the API's own rules. Point your automation, or a clusterwire/storage
StorageClient, at the URL it prints; the API is under /api. It serves until
stopped with Ctrl-C (SIGINT) or SIGTERM, and logs one line per request
(METHOD /path STATUS) to stderr: never bodies, headers, queries or the
password. Everything lives in memory and is gone when it stops.

Without --inventory it serves this seeded inventory:
  cluster     cluster1
  nodes       node1, node2 (model sim)
  SVMs        svm1, svm2
  aggregates  aggr1 (on node1), aggr2 (on node2)
  volumes     vol1 (svm1, 100 GiB, /vol1, qtrees q1 and q2), vol2 (svm1,
              20 GiB, /vol2), vol3 (svm2, 50 GiB, /vol3, qtree qa), fg1
              (svm1, 200 GiB FlexGroup, no path), vol_offline (svm1,
              10 GiB, offline)
  LUNs        /vol/vol1/lun1, /vol/vol1/lun_mapped (mapped) and
              /vol/vol1/lun_hyperv (os_type hyper_v), 1 GiB each, in svm1
  software    9.14.1 installed; packages 9.15.1 (its validation gives a
              warning) and 9.16.1 (its validation gives an error)
Their uuids are fixed, 00000000-0000-4000-8000- then a letter and the
1-based position padded to 11 digits: node1 is ...-a00000000001; b for
SVMs, c aggregates, d volumes, e LUNs, f the cluster.

Options:
  --port N              port to listen on (default 0: a free port, printed)
  --host H              interface to listen on (default ${DEFAULT_LISTEN_HOST}); any
                        other address exposes the server to the network, and
                        prints a warning
  --inventory FILE      the cluster's nodes, SVMs, aggregates, volumes (with
                        qtrees) and LUNs, as JSON or YAML; each list given
                        replaces the seeded one (an example ships with the
                        package: examples/storage/inventory.yaml)
  --username U          Basic-auth username (default ${DEFAULT_USERNAME})
  --password-env VAR    take the Basic-auth password from the environment
                        variable VAR; it is never printed. Without it the
                        password is the well-known "${DEFAULT_PASSWORD}"
  --https-key FILE      serve HTTPS with this PEM private key
  --https-cert FILE     and this PEM certificate (give both or neither)
  --job-ms N            how long each job runs, in milliseconds (default 100)
  -h, --help            show this help

Exit status: 0 stopped by SIGINT or SIGTERM, 1 the server could not start
(e.g. the port is in use), 2 usage error, or an unreadable or invalid file.

Examples:
  clusterwire storage serve --port 8080
  clusterwire storage serve --inventory node_modules/clusterwire/examples/storage/inventory.yaml
  STORAGE_PASSWORD=... clusterwire storage serve --password-env STORAGE_PASSWORD \\
      --https-key key.pem --https-cert cert.pem --port 8443`;

/** What `storage serve` starts with, parsed from the command line. */
export interface ServeSettings {
  readonly options: ReferenceServerOptions;
  /** Where the password came from, for the banner: the default, or the variable's name. */
  readonly passwordFrom: { readonly env: string } | "default";
}

export const serveCommand: Command = {
  name: "serve",
  summary: "run the storage REST API reference server until stopped",
  help: SERVE_HELP,
  async run(args, io) {
    const parsed = parseCommandLine(
      SERVE,
      SERVE_HELP,
      {
        port: { type: "string" },
        host: { type: "string" },
        inventory: { type: "string" },
        username: { type: "string" },
        "password-env": { type: "string" },
        "https-key": { type: "string" },
        "https-cert": { type: "string" },
        "job-ms": { type: "string" },
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    noPositionals(SERVE, positionals);
    const settings = await serveSettings(io, values);
    return serve(io, settings);
  },
};

export const storageCommand: Command = commandGroup(
  "storage",
  "the storage-cluster REST API: run its reference server (storage serve)",
  `The storage-cluster management REST API. The clusterwire/storage module
has its codecs, a client and the reference server; these subcommands run
them from the command line.`,
  [serveCommand],
);

interface ServeValues {
  readonly port?: string | undefined;
  readonly host?: string | undefined;
  readonly inventory?: string | undefined;
  readonly username?: string | undefined;
  readonly "password-env"?: string | undefined;
  readonly "https-key"?: string | undefined;
  readonly "https-cert"?: string | undefined;
  readonly "job-ms"?: string | undefined;
}

function wholeNumber(value: string | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value) || Number(value) > max)
    throw usageError(`${flag} must be a whole number from 0 to ${max}, got ${JSON.stringify(value)}`, SERVE);
  return Number(value);
}

/** Checks the flags and reads the files they name; every problem is a usage error (exit 2). */
export async function serveSettings(io: CliIO, values: ServeValues): Promise<ServeSettings> {
  const port = wholeNumber(values.port, "--port", 65535);
  const jobDurationMs = wholeNumber(values["job-ms"], "--job-ms", 3_600_000);
  const host = values.host;
  if (host === "") throw usageError("--host must not be empty", SERVE);
  const username = values.username;
  if (username !== undefined && (username === "" || username.includes(":"))) {
    throw usageError("--username must be non-empty and without ':' (HTTP Basic)", SERVE);
  }
  let password: string | undefined;
  const variable = values["password-env"];
  if (variable !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable))
      throw usageError(
        `--password-env takes the name of an environment variable, got ${JSON.stringify(variable)}`,
        SERVE,
      );
    password = (io.env ?? process.env)[variable];
    if (password === undefined || password === "")
      throw usageError(`--password-env ${variable}: the environment variable is not set or empty`, SERVE);
  }
  const keyPath = values["https-key"];
  const certPath = values["https-cert"];
  if ((keyPath === undefined) !== (certPath === undefined))
    throw usageError("--https-key and --https-cert go together: give both or neither", SERVE);
  const https =
    keyPath !== undefined && certPath !== undefined
      ? { key: await readPem(io, keyPath, "--https-key"), cert: await readPem(io, certPath, "--https-cert") }
      : undefined;
  const inventory = values.inventory === undefined ? undefined : await loadInventory(io, values.inventory);
  return {
    options: {
      ...(host === undefined ? {} : { host }),
      ...(port === undefined ? {} : { port }),
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
      ...(https === undefined ? {} : { https }),
      ...(inventory === undefined ? {} : { inventory }),
      ...(jobDurationMs === undefined ? {} : { jobDurationMs }),
    },
    passwordFrom: variable === undefined ? "default" : { env: variable },
  };
}

async function readPem(io: CliIO, path: string, flag: string): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readFile(resolve(io.cwd ?? process.cwd(), path));
  } catch (e) {
    throw new CliError(`${flag} ${path}: cannot read: ${errnoMessage(e)}`, EXIT_USAGE);
  }
  if (!bytes.toString("latin1").includes("-----BEGIN "))
    throw new CliError(`${flag} ${path}: not a PEM file (no -----BEGIN line)`, EXIT_USAGE);
  return bytes;
}

/**
 * Starts the server, prints where it is, and serves until `io.signal` (or, without one,
 * SIGINT or SIGTERM) stops it. Returns the exit code.
 */
export async function serve(io: CliIO, settings: ServeSettings): Promise<number> {
  const stop = stopSignal(io);
  try {
    let server: ReferenceServer;
    try {
      server = await createReferenceServer({ ...settings.options, log: (line) => io.stderr.write(`${line}\n`) });
    } catch (e) {
      throw startFailure(e, settings.options);
    }
    const o = settings.options;
    const password =
      settings.passwordFrom === "default"
        ? `${DEFAULT_PASSWORD} (the well-known default; use --password-env VAR to set your own)`
        : `from $${settings.passwordFrom.env} (not shown)`;
    io.stdout.write(
      [
        `Storage reference server listening on ${server.url} (API under ${server.url}/api)`,
        `username: ${o.username ?? DEFAULT_USERNAME}`,
        `password: ${password}`,
        `Stop it with Ctrl-C (SIGINT) or SIGTERM.`,
        "",
      ].join("\n"),
    );
    const clear = o.https === undefined ? "; without --https-key and --https-cert the password travels in clear" : "";
    io.stderr.write(exposureWarning(SERVE, o.host ?? DEFAULT_LISTEN_HOST, clear));
    const reason = await aborted(stop.signal);
    io.stderr.write(
      `clusterwire storage serve: ${typeof reason === "string" && reason.startsWith("SIG") ? `${reason} received, ` : ""}stopping\n`,
    );
    await server.close();
    return EXIT_OK;
  } finally {
    stop.dispose();
  }
}

/** Why the server did not start: the address (exit 1), or the key and certificate (exit 2). */
function startFailure(e: unknown, options: ReferenceServerOptions): CliError {
  const failure =
    listenFailure(e, `${options.host ?? DEFAULT_LISTEN_HOST}:${options.port ?? 0}`) ??
    (options.https === undefined ? undefined : tlsMaterialFailure(e, "--https-key/--https-cert"));
  if (failure !== undefined) return failure;
  if (e instanceof InventoryError) return new CliError(e.message, EXIT_USAGE);
  return new CliError(`cannot start the server: ${e instanceof Error ? e.message : String(e)}`, EXIT_FAILURE);
}
