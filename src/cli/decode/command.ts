import {
  DecodeError,
  annotateWire,
  decode,
  decodeJsonWatchStream,
  decodeWatchStream,
  formatWireAnnotation,
  type NetworkingObject,
  type WatchEvent,
} from "../../networking/index.js";
import { onlyInput, parseCommandLine, type Command } from "../shared/command.js";
import {
  CliError,
  EXIT_FAILURE,
  EXIT_OK,
  checkOutPath,
  codecFailure,
  detectFormat,
  inputPath,
  openInputStream,
  parseFormat,
  parseIndent,
  readInput,
  usageError,
  writeOutput,
  type CliIO,
  type Input,
} from "../shared/io.js";
import { renderEvent, renderObjects, type TextFormat } from "../shared/render.js";

const NAME = "decode";

const HELP = `Usage: clusterwire decode [FILE|-] [--output yaml|json] [--indent N] [--watch] [-o OUT]
       clusterwire decode [FILE|-] --annotate [-o OUT]

Decodes an API server protobuf body (application/vnd.kubernetes.protobuf:
the k8s\\0 magic and a runtime.Unknown envelope) and prints it as Kubernetes
YAML (the default) or JSON, byte for byte as the API server writes them.
Reads standard input when FILE is - or omitted.

Options:
  --output yaml|json  output format (default yaml)
  --indent N          JSON indent, 0 for compact (default 2; 0 with --watch)
  --watch             input is a watch stream (;stream=watch), protobuf
                      (length-prefixed WatchEvent frames) or JSON ({"type",
                      "object"} values), told apart by the first byte. Prints
                      each event as {type, object}: YAML documents separated
                      by ---, or one JSON line each
  --annotate          print the bytes instead, one line per field: offset and
                      bytes in hex, then field number, wire type, path and
                      value, indented by nesting (unknown fields included)
  -o, --out FILE      write to FILE instead of standard output
  -h, --help          show this help

Exit status: 0 ok, 1 the input does not decode, 2 usage error or unreadable file.

Examples:
  clusterwire decode node_modules/clusterwire/examples/ingress.pb
  clusterwire decode node_modules/clusterwire/examples/ingress.pb --output json
  clusterwire decode --watch node_modules/clusterwire/examples/ingress-watch.pb --output json
  clusterwire decode --annotate node_modules/clusterwire/examples/ingress.pb`;

export const decodeCommand: Command = {
  name: NAME,
  summary: "Kubernetes protobuf (k8s\\0 envelope, or a watch stream) to YAML or JSON",
  help: HELP,

  async run(args, io) {
    const parsed = parseCommandLine(
      NAME,
      HELP,
      {
        output: { type: "string" },
        indent: { type: "string" },
        watch: { type: "boolean" },
        annotate: { type: "boolean" },
        out: { type: "string", short: "o" },
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    const to = (parseFormat(values.output, "--output", ["yaml", "json"], NAME) ?? "yaml") as TextFormat;
    if (values.indent !== undefined && to !== "json") throw usageError("--indent applies to --output json only", NAME);
    checkOutPath(values.out, "--output", NAME);
    const path = inputPath(io, onlyInput(NAME, positionals), NAME);
    if (values.annotate === true) {
      if (values.watch === true) throw usageError("--annotate reads one object, not a watch stream", NAME);
      if (values.output !== undefined || values.indent !== undefined)
        throw usageError("--annotate prints text; --output and --indent do not apply", NAME);
      const input = await readInput(io, path);
      decodeOrExplain(input);
      await writeOutput(io, values.out, formatWireAnnotation(annotateWire(input.bytes), input.bytes));
      return EXIT_OK;
    }

    if (values.watch === true) {
      return decodeWatch(io, path, to, parseIndent(values.indent, 0, NAME), values.out);
    }
    const input = await readInput(io, path);
    const obj = decodeOrExplain(input);
    await writeOutput(io, values.out, renderObjects([obj], to, parseIndent(values.indent, 2, NAME)));
    return EXIT_OK;
  },
};

function decodeOrExplain(input: Input): NetworkingObject {
  try {
    return decode(input.bytes);
  } catch (e) {
    const failure = codecFailure(input.name, e);
    const hint = e instanceof DecodeError && e.offset !== undefined && e.offset < 4 ? magicHint(input) : "";
    throw hint === "" ? failure : new CliError(`${failure.message} (${hint})`, EXIT_FAILURE);
  }
}

/** Why the magic is missing, when the bytes make it clear. */
function magicHint(input: Input): string {
  const b = input.bytes;
  if (b.length >= 4) {
    // A watch stream starts with a big-endian frame length, never with k8s\0 (that would be 1.8 GB).
    const len = ((b[0] as number) << 24) | ((b[1] as number) << 16) | ((b[2] as number) << 8) | (b[3] as number);
    if (len > 0 && len + 4 <= b.length) return "this looks like a watch stream; add --watch";
  }
  const format = detectFormat("", b);
  if (format !== "pb" && b.length > 0)
    return `this looks like ${format === "json" ? "JSON" : "YAML"}; use clusterwire convert or encode`;
  return "";
}

/**
 * Picks the decoder from the first non-blank byte: `{` starts a JSON stream;
 * a protobuf stream starts with a frame length, whose first byte is `{` only
 * for frames over 2 GB.
 */
async function watchEvents(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<AsyncIterable<WatchEvent>> {
  const it = (Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]()) as
    | AsyncIterator<Uint8Array>
    | Iterator<Uint8Array>;
  const seen: Uint8Array[] = [];
  let json = false;
  for (;;) {
    const r = await it.next();
    if (r.done === true) break;
    seen.push(r.value);
    const first = r.value.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
    if (first !== undefined) {
      json = first === 0x7b;
      break;
    }
  }
  async function* all(): AsyncGenerator<Uint8Array> {
    yield* seen;
    for (;;) {
      const r = await it.next();
      if (r.done === true) return;
      yield r.value;
    }
  }
  return json ? decodeJsonWatchStream(all()) : decodeWatchStream(all());
}

async function decodeWatch(
  io: CliIO,
  path: string,
  to: TextFormat,
  indent: number,
  out: string | undefined,
): Promise<number> {
  const stream = await openInputStream(io, path);
  // To stdout, events appear as they arrive; to a file, only a fully decoded stream is written.
  const collected: string[] = [];
  let first = true;
  try {
    for await (const event of await watchEvents(stream.chunks)) {
      const text = (to === "yaml" && !first ? "---\n" : "") + renderEvent(event, to, indent);
      first = false;
      if (out === undefined || out === "-") io.stdout.write(text);
      else collected.push(text);
    }
  } catch (e) {
    throw codecFailure(stream.name, e);
  }
  if (out !== undefined && out !== "-") await writeOutput(io, out, collected.join(""));
  return EXIT_OK;
}
