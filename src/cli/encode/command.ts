import { encode } from "../../networking/index.js";
import { onlyInput, parseCommandLine, type Command } from "../shared/command.js";
import {
  EXIT_OK,
  checkOutPath,
  codecFailure,
  detectFormat,
  inputPath,
  parseFormat,
  parseText,
  readInput,
  refuseBinaryToTerminal,
  single,
  usageError,
  writeOutput,
} from "../shared/io.js";

const NAME = "encode";

const HELP = `Usage: clusterwire encode [FILE|-] [-o OUT.pb] [--strict] [--from json|yaml]

Encodes one Kubernetes JSON or YAML object as an API server protobuf body
(k8s\\0 magic + runtime.Unknown envelope), byte for byte as Go writes it.
The input format comes from the file extension, else from the content.
A YAML file must hold exactly one document. Reads standard input when FILE
is - or omitted. Binary output is not written to a terminal: use -o or a
redirect.

Options:
  -o, --out FILE      write to FILE instead of standard output
  --strict            reject unknown and duplicate fields, naming their path
                      (the API server's fieldValidation=Strict)
  --from json|yaml    input format, overriding detection
  -h, --help          show this help

Exit status: 0 ok, 1 the input does not decode or encode, 2 usage error or
unreadable file.

Example:
  clusterwire encode node_modules/clusterwire/examples/ingress-shop.yaml -o ingress.pb`;

export const encodeCommand: Command = {
  name: NAME,
  summary: "one JSON or YAML object to Kubernetes protobuf",
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandLine(
      NAME,
      HELP,
      {
        out: { type: "string", short: "o" },
        strict: { type: "boolean" },
        from: { type: "string" },
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    const from = parseFormat(values.from, "--from", ["json", "yaml"], NAME);
    checkOutPath(values.out, undefined, NAME);
    refuseBinaryToTerminal(io, values.out, NAME);
    const input = await readInput(io, inputPath(io, onlyInput(NAME, positionals), NAME));
    const format = from ?? detectFormat(input.name, input.bytes);
    if (format === "pb")
      throw usageError(
        `${input.name}: already protobuf; use clusterwire decode, or convert --to pb to re-encode`,
        NAME,
      );
    const obj = single(parseText(input, format, { strict: values.strict === true }), input.name, NAME);
    let bytes: Uint8Array;
    try {
      bytes = encode(obj);
    } catch (e) {
      throw codecFailure(input.name, e);
    }
    await writeOutput(io, values.out, bytes);
    return EXIT_OK;
  },
};
