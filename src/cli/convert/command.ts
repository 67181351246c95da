import { extname } from "node:path";
import { decode, encode, type NetworkingObject } from "../../networking/index.js";
import { onlyInput, parseCommandLine, type Command } from "../shared/command.js";
import {
  EXIT_OK,
  checkOutPath,
  codecFailure,
  detectFormat,
  inputPath,
  parseFormat,
  parseIndent,
  parseText,
  readInput,
  refuseBinaryToTerminal,
  single,
  usageError,
  writeOutput,
  type Format,
} from "../shared/io.js";
import { renderObjects } from "../shared/render.js";

const NAME = "convert";

const HELP = `Usage: clusterwire convert [FILE|-] --to json|yaml|pb [-o OUT] [--indent N] [--strict] [--from json|yaml|pb]

Converts between Kubernetes protobuf, JSON and YAML. The input format comes
from the k8s\\0 magic bytes, else the file extension, else the content (a
leading { means JSON). --to defaults to the extension of -o. JSON and
protobuf output hold one object; YAML output may hold several documents.
Reads standard input when FILE is - or omitted.

Options:
  --to json|yaml|pb   output format
  -o, --out FILE      write to FILE instead of standard output
  --indent N          JSON indent, 0 for compact (default 2)
  --strict            for JSON/YAML input: reject unknown and duplicate fields
  --from json|yaml|pb input format, overriding detection
  -h, --help          show this help

Exit status: 0 ok, 1 the input does not decode or encode, 2 usage error or
unreadable file.

Examples:
  clusterwire convert node_modules/clusterwire/examples/netpol-named-ports.json --to yaml
  clusterwire convert node_modules/clusterwire/examples/ingress-shop.yaml -o ingress.json
  clusterwire convert node_modules/clusterwire/examples/ingress.pb --to json --indent 0`;

export const convertCommand: Command = {
  name: NAME,
  summary: "between JSON, YAML and protobuf",
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandLine(
      NAME,
      HELP,
      {
        to: { type: "string" },
        out: { type: "string", short: "o" },
        indent: { type: "string" },
        strict: { type: "boolean" },
        from: { type: "string" },
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    const to = parseFormat(values.to, "--to", ["json", "yaml", "pb"], NAME) ?? formatOfPath(values.out);
    if (to === undefined)
      throw usageError("--to json|yaml|pb is required (or an -o file ending in .json, .yaml or .pb)", NAME);
    if (values.indent !== undefined && to !== "json") throw usageError("--indent applies to --to json only", NAME);
    const indent = parseIndent(values.indent, 2, NAME);
    const from = parseFormat(values.from, "--from", ["json", "yaml", "pb"], NAME);
    checkOutPath(values.out, "--to", NAME);
    if (to === "pb") refuseBinaryToTerminal(io, values.out, NAME);

    const input = await readInput(io, inputPath(io, onlyInput(NAME, positionals), NAME));
    const format = from ?? detectFormat(input.name, input.bytes);
    let objects: NetworkingObject[];
    if (format === "pb") {
      try {
        objects = [decode(input.bytes)];
      } catch (e) {
        throw codecFailure(input.name, e);
      }
    } else {
      objects = parseText(input, format, { strict: values.strict === true });
    }

    let output: string | Uint8Array;
    try {
      if (to === "pb") output = encode(single(objects, input.name, NAME));
      else if (to === "json") output = renderObjects([single(objects, input.name, NAME, "JSON")], "json", indent);
      else output = renderObjects(objects, "yaml", indent);
    } catch (e) {
      throw codecFailure(input.name, e);
    }
    await writeOutput(io, values.out, output);
    return EXIT_OK;
  },
};

function formatOfPath(path: string | undefined): Format | undefined {
  switch (path === undefined ? "" : extname(path).toLowerCase()) {
    case ".json":
      return "json";
    case ".yaml":
    case ".yml":
      return "yaml";
    case ".pb":
      return "pb";
  }
  return undefined;
}
