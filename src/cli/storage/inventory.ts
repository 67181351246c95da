import { DecodeError, type JsonValue, locateYamlPath, parseYamlDocuments } from "../../networking/index.js";
import { parseJsonText } from "../../networking/internal.js";
import { checkInventory, formatInventoryPath, type InventoryInput } from "../../storage/server/index.js";
import { CliError, EXIT_USAGE, asText, detectFormat, readInput, type CliIO } from "../shared/io.js";

// Reading the inventory of `clusterwire storage serve --inventory FILE`: JSON or
// YAML with the reference server's InventoryInput shape, checked strictly by the
// library's checkInventory (unknown fields, wrong types, dangling references) so that
// a typo is an error with its line and column rather than a server that quietly
// serves something else. The checks live in the library; this module parses the file
// (YAML as kubectl reads it, through clusterwire's go-yaml v2 reader) and maps each
// issue's field path back to a line and column.

/**
 * Reads and checks an inventory file. An unreadable, unparsable or invalid
 * file is a CliError with exit 2, located by line and column.
 */
export async function loadInventory(io: CliIO, path: string): Promise<InventoryInput> {
  const input = await readInput(io, path);
  const format = detectFormat(input.name, input.bytes);
  if (format === "pb") throw new CliError(`${input.name}: an inventory is JSON or YAML, not protobuf`, EXIT_USAGE);
  // Text that is not UTF-8 is an unreadable inventory: exit 2, as every other problem with the file.
  const text = asText(input, format, EXIT_USAGE);
  const fail = (where: string, message: string): CliError =>
    new CliError(`${input.name}: inventory error at ${where}: ${message}`, EXIT_USAGE);
  if (format === "json") {
    // The project's exact JSON parser says where a syntax error is (YAML would accept some bad JSON).
    try {
      parseJsonText(text);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      throw fail(`line ${e.line ?? 1}, column ${e.column ?? 1}`, `json: ${e.reason}`);
    }
  }
  // JSON is YAML too, so both are read and located the same way.
  let docs: JsonValue[];
  try {
    docs = parseYamlDocuments(text, { uniqueKeys: true });
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw fail(`line ${e.line ?? 1}, column ${e.column ?? 1}`, `${format}: ${e.reason}`);
  }
  const [doc] = docs;
  if (doc === undefined) throw new CliError(`${input.name}: the inventory file is empty`, EXIT_USAGE);
  if (docs.length > 1) {
    const second = locateYamlPath(text, 1, []).line ?? 1;
    throw fail(`line ${second}`, `${docs.length} YAML documents; an inventory is one document`);
  }
  const { inventory, issues } = checkInventory(doc);
  if (issues.length === 0) return inventory;
  const located = issues.map((issue) => {
    const at = locateYamlPath(text, 0, issue.path, { atKey: issue.atKey === true });
    const field = issue.path.length === 0 ? "" : `, field ${formatInventoryPath(issue.path)}`;
    return `line ${at.line ?? 1}, column ${at.column ?? 1}${field}: ${issue.message}`;
  });
  if (located.length === 1) throw new CliError(`${input.name}: inventory error at ${located[0] ?? ""}`, EXIT_USAGE);
  throw new CliError(
    `${input.name}: ${located.length} inventory errors:\n${located.map((l) => `  ${l}`).join("\n")}`,
    EXIT_USAGE,
  );
}
