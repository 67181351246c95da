import { realpathSync } from "node:fs";
import { isatty } from "node:tty";
import { fileURLToPath } from "node:url";
import type { Command } from "./shared/command.js";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliIO } from "./shared/io.js";
import { version } from "./shared/package.js";

export type { CliIO, Sink, Source } from "./shared/io.js";

/**
 * The commands by name, in the order help lists them, each loaded when it is
 * run: a run loads the one command it names, not all nine. Hand-written for
 * speed: loading every command's modules took about 0.15 s of CPU at each
 * start of `clusterwire validate` (a twentieth of a run over 10,000 files).
 * Help that lists the commands loads them all, so its text is built from the
 * command objects as before.
 */
const COMMAND_LOADERS: readonly (readonly [string, () => Promise<Command>])[] = [
  ["decode", async () => (await import("./decode/command.js")).decodeCommand],
  ["encode", async () => (await import("./encode/command.js")).encodeCommand],
  ["convert", async () => (await import("./convert/command.js")).convertCommand],
  ["validate", async () => (await import("./validate/command.js")).validateCommand],
  ["route", async () => (await import("./route/command.js")).routeCommand],
  ["reach", async () => (await import("./reach/command.js")).reachCommand],
  ["demo", async () => (await import("./demo/command.js")).demoCommand],
  ["storage", async () => (await import("./storage/command.js")).storageCommand],
  ["webhook", async () => (await import("./webhook/command.js")).webhookCommand],
];

/**
 * Every command, loaded, in the order help lists them.
 *
 * @example
 * ```ts
 * import { loadCommands } from "./main.js";
 *
 * console.log((await loadCommands()).map((c) => c.name).join(" ")); // decode encode convert validate ...
 * ```
 */
export async function loadCommands(): Promise<readonly Command[]> {
  return await Promise.all(COMMAND_LOADERS.map(([, load]) => load()));
}

async function globalHelp(): Promise<string> {
  const commands = await loadCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  return `Usage: clusterwire <command> [options]

Kubernetes networking.k8s.io/v1 objects as the API server sees them:
protobuf (k8s\\0 envelope and watch streams), JSON and YAML, byte for byte;
which backend an Ingress controller picks (route) and which pods may talk
under NetworkPolicies (reach); a validating admission webhook that refuses
what the API server would (webhook). And the storage-cluster REST API: its
reference server (clusterwire storage).

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Options:
  -h, --help     show this help; clusterwire <command> --help for a command
  -v, --version  print the version

Exit status: 0 ok, 1 the input could not be processed, 2 usage error or
unreadable file.`;
}

/**
 * Runs the CLI with `argv` (without node and the script) and returns the exit
 * code. Expected failures are printed to stderr as `clusterwire: <message>`,
 * never as a stack trace.
 */
export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === undefined) {
      io.stderr.write(`${await globalHelp()}\n`);
      return EXIT_USAGE;
    }
    if (first === "-h" || first === "--help") {
      io.stdout.write(`${await globalHelp()}\n`);
      return EXIT_OK;
    }
    if (first === "-v" || first === "--version") {
      io.stdout.write(`clusterwire ${version()}\n`);
      return EXIT_OK;
    }
    if (first === "help") {
      const topic = rest[0] === undefined ? undefined : await findCommand(rest[0]);
      // help storage serve: the command group answers for its subcommand.
      if (topic !== undefined && rest.length > 1) return await topic.run([...rest.slice(1, 2), "--help"], io);
      io.stdout.write(`${topic?.help ?? (await globalHelp())}\n`);
      return topic === undefined && rest[0] !== undefined ? EXIT_USAGE : EXIT_OK;
    }
    const command = await findCommand(first);
    if (command === undefined) {
      const hint = first.startsWith("-") ? `unknown option ${first}` : `unknown command ${JSON.stringify(first)}`;
      throw new CliError(
        `${hint}; commands: ${(await loadCommands()).map((c) => c.name).join(", ")}`,
        EXIT_USAGE,
        "clusterwire --help",
      );
    }
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof CliError) {
      io.stderr.write(`clusterwire: ${e.message}\n`);
      if (e.help !== undefined) io.stderr.write(`Run '${e.help}' for usage.\n`);
      return e.exitCode;
    }
    // A bug, not bad input: keep the stack so it can be reported.
    io.stderr.write(`clusterwire: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return EXIT_FAILURE;
  }
}

async function findCommand(name: string): Promise<Command | undefined> {
  const load = COMMAND_LOADERS.find(([n]) => n === name)?.[1];
  const command = load === undefined ? undefined : await load();
  // The table's name is the command's own: a command named otherwise is not found, as before.
  return command?.name === name ? command : undefined;
}

/** Entry point for the bin shim and `node dist/src/cli/main.js`. */
export async function main(): Promise<void> {
  // `clusterwire decode x.pb | head` closes the pipe early; that is not an error.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
  const code = await run(process.argv.slice(2), {
    stdout: { write: (c) => process.stdout.write(c), isTTY: process.stdout.isTTY === true },
    stderr: { write: (c) => process.stderr.write(c), isTTY: process.stderr.isTTY === true },
    // Touch process.stdin only when a command reads it, so an unused terminal is left alone.
    stdin: { chunks: readStdin(), isTTY: isatty(0) },
  });
  // exitCode rather than exit(), so buffered output is flushed.
  process.exitCode = code;
}

async function* readStdin(): AsyncGenerator<Uint8Array> {
  for await (const chunk of process.stdin) yield chunk as Uint8Array;
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) await main();
