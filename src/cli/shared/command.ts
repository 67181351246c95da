import { parseArgs, type ParseArgsConfig } from "node:util";
import { EXIT_OK, EXIT_USAGE, usageError, type CliIO } from "./io.js";

/** One CLI command: its help text and what it does. Returns the exit code. */
export interface Command {
  readonly name: string;
  /** One line for `clusterwire --help`. */
  readonly summary: string;
  /** Full text for `clusterwire <name> --help`. */
  readonly help: string;
  run(args: readonly string[], io: CliIO): Promise<number>;
}

/**
 * Runs a `parseArgs` call, turning its TypeErrors (unknown option, missing
 * value) into usage errors that name the command.
 */
export function parseUsage<T>(command: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    // Drop parseArgs' advice about "--", which only matters for file names starting with "-".
    const message = (e instanceof Error ? e.message : String(e)).replace(
      /\. To specify a positional argument[\s\S]*$/,
      "",
    );
    throw usageError(message, command);
  }
}

/** Every command takes --help. */
export const HELP_OPTION = { type: "boolean", short: "h" } as const;

type Options = NonNullable<ParseArgsConfig["options"]>;
type Config<O extends Options> = {
  args: string[];
  options: O & { help: typeof HELP_OPTION };
  allowPositionals: true;
  strict: true;
};
/** What parseArgs returns for a command's options. */
export type Parsed<O extends Options> = ReturnType<typeof parseArgs<Config<O>>>;

/**
 * Parses a command's arguments (strictly, positionals allowed, plus --help).
 * Prints the help and returns undefined when --help was given.
 */
export function parseCommandLine<O extends Options>(
  command: string,
  help: string,
  options: O,
  args: readonly string[],
  io: CliIO,
): Parsed<O> | undefined {
  const config: Config<O> = {
    args: [...args],
    options: { ...options, help: HELP_OPTION },
    allowPositionals: true,
    strict: true,
  };
  const parsed = parseUsage(command, () => parseArgs(config));
  if ((parsed.values as { help?: boolean }).help === true) {
    io.stdout.write(`${help}\n`);
    return undefined;
  }
  return parsed;
}

/** At most one positional input; none means stdin. */
export function onlyInput(command: string, positionals: readonly string[]): string | undefined {
  if (positionals.length > 1)
    throw usageError(`expected one input file, got ${positionals.length}: ${positionals.join(" ")}`, command);
  return positionals[0];
}

/** No positionals: for a command that takes only options. */
export function noPositionals(command: string, positionals: readonly string[]): void {
  if (positionals.length > 0)
    throw usageError(`unexpected argument ${JSON.stringify(positionals[0])}; ${command} takes only options`, command);
}

/**
 * A command made of subcommands, such as `clusterwire storage serve`. Each
 * subcommand is an ordinary Command named by its own word (`serve`); it
 * parses its own options and should name itself `<group> <sub>` in usage
 * errors. The group answers --help, `help [SUB]`, a missing subcommand
 * (its help on stderr, exit 2) and an unknown one (a usage error listing
 * the subcommands), so adding a subcommand is adding it to the list.
 */
export function commandGroup(
  name: string,
  summary: string,
  description: string,
  subcommands: readonly Command[],
): Command {
  const width = Math.max(...subcommands.map((c) => c.name.length));
  const help = `Usage: clusterwire ${name} <subcommand> [options]

${description}

Subcommands:
${subcommands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Run 'clusterwire ${name} <subcommand> --help' for a subcommand's options.`;
  const names = subcommands.map((c) => c.name).join(", ");
  return {
    name,
    summary,
    help,
    async run(args, io) {
      const [first, ...rest] = args;
      if (first === undefined) {
        io.stderr.write(`${help}\n`);
        return EXIT_USAGE;
      }
      if (first === "-h" || first === "--help") {
        io.stdout.write(`${help}\n`);
        return EXIT_OK;
      }
      if (first === "help") {
        if (rest[0] === undefined) {
          io.stdout.write(`${help}\n`);
          return EXIT_OK;
        }
        return (findSubcommand(rest[0]) ?? unknown(rest[0])).run(["--help"], io);
      }
      return (findSubcommand(first) ?? unknown(first)).run(rest, io);
    },
  };

  function findSubcommand(word: string): Command | undefined {
    return subcommands.find((c) => c.name === word);
  }

  function unknown(word: string): never {
    const hint = word.startsWith("-") ? `unknown option ${word}` : `unknown subcommand ${JSON.stringify(word)}`;
    throw usageError(`${hint}; subcommands: ${names}`, name);
  }
}
