import { closeSync, openSync, writeSync } from "node:fs";
import { open, readFile, writeFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { DecodeError, EncodeError, MAGIC, fromJson, fromYaml, type NetworkingObject } from "../../networking/index.js";

/** Where the CLI writes. `isTTY` lets commands refuse to dump binary on a terminal. */
export interface Sink {
  write(chunk: string | Uint8Array): unknown;
  readonly isTTY?: boolean;
}

export interface Source {
  readonly chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  readonly isTTY?: boolean;
}

/** Everything the CLI touches outside itself, so tests can run it in-process. */
export interface CliIO {
  readonly stdout: Sink;
  readonly stderr: Sink;
  readonly stdin?: Source;
  /** Base for relative paths; default process.cwd(). */
  readonly cwd?: string;
  /** Environment variables (e.g. for --password-env); default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Stops a long-running command (clusterwire storage serve) when aborted.
   * Without it such a command stops on SIGINT or SIGTERM.
   */
  readonly signal?: AbortSignal;
}

export type Format = "pb" | "json" | "yaml";
export const FORMATS: readonly Format[] = ["pb", "json", "yaml"];

/** Exit codes: 1 the input could not be processed, 2 usage or I/O trouble. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * An expected failure: printed as `clusterwire: <message>` with no stack.
 * `help` names the command whose --help the user should read.
 */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode: number,
    readonly help?: string,
  ) {
    super(message);
  }
}

export function usageError(message: string, command = ""): CliError {
  return new CliError(message, EXIT_USAGE, command === "" ? "clusterwire --help" : `clusterwire ${command} --help`);
}

/** Turns a codec error into a CliError naming the file; anything else is rethrown. */
export function codecFailure(name: string, e: unknown): CliError {
  if (e instanceof DecodeError) return new CliError(`${name}: ${e.message}`, EXIT_FAILURE);
  if (e instanceof EncodeError) return new CliError(`${name}: encode error: ${e.message}`, EXIT_FAILURE);
  if (e instanceof CliError) return e;
  throw e;
}

export const STDIN_NAME = "<stdin>";

export interface Input {
  /** The path as given, or `<stdin>`; used in messages. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** Reads a whole file, or stdin for `-`. Unreadable input is a usage-class failure (exit 2). */
export async function readInput(io: CliIO, path: string): Promise<Input> {
  if (path === "-") {
    if (io.stdin === undefined) throw new CliError(`${STDIN_NAME}: no standard input`, EXIT_USAGE);
    const parts: Uint8Array[] = [];
    try {
      for await (const chunk of io.stdin.chunks) parts.push(chunk);
    } catch (e) {
      throw new CliError(`${STDIN_NAME}: cannot read: ${errnoMessage(e)}`, EXIT_USAGE);
    }
    return { name: STDIN_NAME, bytes: Buffer.concat(parts) };
  }
  try {
    return { name: path, bytes: new Uint8Array(await readFile(resolve(io.cwd ?? process.cwd(), path))) };
  } catch (e) {
    throw new CliError(`${path}: cannot read: ${errnoMessage(e)}`, EXIT_USAGE);
  }
}

/**
 * Opens an input as a stream of chunks, for watch streams that need not fit
 * in memory. The file is opened up front so a missing file is exit 2, not a
 * decode failure.
 */
export async function openInputStream(
  io: CliIO,
  path: string,
): Promise<{ name: string; chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> }> {
  if (path === "-") {
    if (io.stdin === undefined) throw new CliError(`${STDIN_NAME}: no standard input`, EXIT_USAGE);
    return { name: STDIN_NAME, chunks: io.stdin.chunks };
  }
  try {
    const handle = await open(resolve(io.cwd ?? process.cwd(), path), "r");
    // createReadStream closes the handle when it ends or fails.
    return { name: path, chunks: readErrorsAsCliErrors(path, handle.createReadStream()) };
  } catch (e) {
    throw new CliError(`${path}: cannot read: ${errnoMessage(e)}`, EXIT_USAGE);
  }
}

async function* readErrorsAsCliErrors(name: string, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  for (;;) {
    let r: IteratorResult<Uint8Array>;
    try {
      r = await it.next();
    } catch (e) {
      throw new CliError(`${name}: cannot read: ${errnoMessage(e)}`, EXIT_USAGE);
    }
    if (r.done === true) return;
    yield r.value;
  }
}

/** Writes the whole output to a file, or to stdout when `out` is undefined. */
export async function writeOutput(io: CliIO, out: string | undefined, data: string | Uint8Array): Promise<void> {
  if (out === undefined || out === "-") {
    io.stdout.write(data);
    return;
  }
  try {
    await writeFile(resolve(io.cwd ?? process.cwd(), out), data);
  } catch (e) {
    throw new CliError(`${out}: cannot write: ${errnoMessage(e)}`, EXIT_USAGE);
  }
}

/**
 * Where output made piece by piece goes: stdout, or a file written synchronously as the pieces
 * come, so an answer of hundreds of megabytes is never held whole. `close` must be called.
 */
export function syncSink(
  io: CliIO,
  out: string | undefined,
): { write(chunk: string | Uint8Array): void; close(): void } {
  if (out === undefined || out === "-") return { write: (c) => void io.stdout.write(c), close: () => undefined };
  let fd: number;
  try {
    fd = openSync(resolve(io.cwd ?? process.cwd(), out), "w");
  } catch (e) {
    throw new CliError(`${out}: cannot write: ${errnoMessage(e)}`, EXIT_USAGE);
  }
  return {
    write: (c) => {
      try {
        if (typeof c === "string") writeSync(fd, c);
        else writeSync(fd, c);
      } catch (e) {
        throw new CliError(`${out}: cannot write: ${errnoMessage(e)}`, EXIT_USAGE);
      }
    },
    close: () => closeSync(fd),
  };
}

/** Protobuf on a terminal is unreadable and can garble it, so it needs -o or a redirect. */
export function refuseBinaryToTerminal(io: CliIO, out: string | undefined, command: string): void {
  if ((out === undefined || out === "-") && io.stdout.isTTY === true) {
    throw usageError("refusing to write binary protobuf to a terminal; use -o FILE or redirect stdout", command);
  }
}

/**
 * Picks the input format. The `k8s\0` magic is decisive; then the file
 * extension; then the first non-blank character (`{` or `[` means JSON).
 */
export function detectFormat(name: string, bytes: Uint8Array): Format {
  if (hasMagic(bytes)) return "pb";
  switch (extname(name).toLowerCase()) {
    case ".pb":
    case ".bin":
      return "pb";
    case ".json":
      return "json";
    case ".yaml":
    case ".yml":
      return "yaml";
  }
  for (const b of bytes) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x7b || b === 0x5b ? "json" : "yaml";
  }
  return "yaml";
}

export function hasMagic(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC[i]) return false;
  return true;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Text input must be UTF-8; a binary file here is almost always protobuf given to the wrong command.
 * Exits 1 by default, as for any input that could not be processed; a file a command reads as its
 * configuration (an inventory, a cluster file) passes 2, an unreadable file.
 */
export function asText(input: Input, format: Format, exitCode: number = EXIT_FAILURE): string {
  try {
    return utf8.decode(input.bytes);
  } catch {
    throw new CliError(
      `${input.name}: not valid UTF-8, so not ${format === "json" ? "JSON" : "YAML"} text (protobuf must start with k8s\\0)`,
      exitCode,
    );
  }
}

export interface ParseOptions {
  readonly strict: boolean;
}

/** Parses text input into objects: one for JSON, one per non-empty document for YAML. */
export function parseText(input: Input, format: "json" | "yaml", options: ParseOptions): NetworkingObject[] {
  const text = asText(input, format);
  try {
    return format === "json"
      ? [fromJson(text, { strict: options.strict })]
      : fromYaml(text, { strict: options.strict });
  } catch (e) {
    throw codecFailure(input.name, e);
  }
}

/** Exactly one object, or a usage error saying how many were found. */
export function single(
  objects: readonly NetworkingObject[],
  name: string,
  command: string,
  output = "protobuf",
): NetworkingObject {
  const [first] = objects;
  if (objects.length === 1 && first !== undefined) return first;
  if (objects.length === 0) throw usageError(`${name}: no object found (empty input)`, command);
  throw usageError(
    `${name}: ${objects.length} YAML documents, but ${output} output holds one object; put one object per file, or use a List kind`,
    command,
  );
}

/** Parses --from / --to style values. */
export function parseFormat(
  value: string | undefined,
  flag: string,
  allowed: readonly Format[],
  command: string,
): Format | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase() === "yml" ? "yaml" : value.toLowerCase();
  if ((allowed as readonly string[]).includes(v)) return v as Format;
  throw usageError(`${flag} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`, command);
}

/** --indent N: 0 gives compact JSON; Go's MarshalIndent is capped here at 10 like toJsonString. */
export function parseIndent(value: string | undefined, fallback: number, command: string): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,2}$/.test(value) || Number(value) > 10)
    throw usageError(`--indent must be a whole number from 0 to 10, got ${JSON.stringify(value)}`, command);
  return Number(value);
}

/** -o names a file; a bare format name there is almost surely a kubectl habit, not a file name. */
export function checkOutPath(out: string | undefined, formatFlag: string | undefined, command: string): void {
  if (out !== undefined && (FORMATS as readonly string[]).concat("yml").includes(out)) {
    const hint =
      formatFlag === undefined
        ? " (write ./" + out + " if you mean that file)"
        : `; for the output format use ${formatFlag} ${out}`;
    throw usageError(`-o takes a file name, got ${JSON.stringify(out)}${hint}`, command);
  }
}

/** Go-style YAML stream: documents joined with `---`. */
export function yamlStream(docs: readonly string[]): string {
  return docs.join("---\n");
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0;
}

/** "ENOENT: no such file or directory" rather than Node's message with the absolute path. */
export function errnoMessage(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (err !== null && typeof err === "object") {
    switch (err.code) {
      case "ENOENT":
        return "no such file or directory";
      case "EACCES":
      case "EPERM":
        return "permission denied";
      case "EISDIR":
        return "is a directory";
      case "ENOTDIR":
        return "a path component is not a directory";
    }
    if (typeof err.message === "string") return err.message;
  }
  return String(e);
}

/**
 * The input path to read: the positional argument, or `-` when stdin is
 * piped. A bare command on a terminal would hang waiting for input, so that
 * is a usage error instead.
 */
export function inputPath(io: CliIO, given: string | undefined, command: string): string {
  if (given !== undefined) return given;
  if (io.stdin === undefined || io.stdin.isTTY === true)
    throw usageError("no input: give a file, or - to read standard input", command);
  return "-";
}
