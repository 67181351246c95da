import { LineCounter, isMap, isScalar, parseAllDocuments, type Document } from "yaml";
import { DecodeError } from "../../networking/index.js";
import { parseJsonText } from "../../networking/text/json-parse.js";
import {
  checkInventory,
  formatInventoryPath,
  type InventoryInput,
  type InventoryIssue,
} from "../../storage/server/index.js";
import { CliError, EXIT_USAGE, asText, detectFormat, readInput, type CliIO } from "./io.js";

// Reading the inventory of `clusterwire storage serve --inventory FILE`: JSON or
// YAML with the reference server's InventoryInput shape, checked strictly by the
// library's checkInventory (unknown fields, wrong types, dangling references) so that
// a typo is an error with its line and column rather than a server that quietly
// serves something else. The checks live in the library; this module parses the file
// with source positions and maps each issue's field path back to a line and column.

/**
 * Reads and checks an inventory file. An unreadable, unparsable or invalid
 * file is a CliError with exit 2, located by line and column.
 */
export async function loadInventory(io: CliIO, path: string): Promise<InventoryInput> {
  const input = await readInput(io, path);
  const format = detectFormat(input.name, input.bytes);
  if (format === "pb") throw new CliError(`${input.name}: an inventory is JSON or YAML, not protobuf`, EXIT_USAGE);
  const text = asText(input, format);
  const fail = (where: string, message: string): CliError =>
    new CliError(`${input.name}: inventory error at ${where}: ${message}`, EXIT_USAGE);
  const lines = new LineCounter();
  if (format === "json") {
    // The project's exact JSON parser says where a syntax error is (YAML would accept some bad JSON).
    try {
      parseJsonText(text);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      throw fail(`line ${e.line ?? 1}, column ${e.column ?? 1}`, `json: ${e.reason}`);
    }
  }
  // JSON is YAML too; the YAML parser gives every node a source range, so both are located the same way.
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const all = Array.isArray(docs) ? docs : [];
  for (const doc of all) {
    const [err] = doc.errors;
    if (err !== undefined) {
      const at = lines.linePos(err.pos[0]);
      throw fail(`line ${at.line}, column ${at.col}`, `${format}: ${err.message.split("\n")[0] ?? ""}`);
    }
  }
  const nonEmpty = all.filter((d) => d.contents !== null);
  const [doc] = nonEmpty;
  if (doc === undefined) throw new CliError(`${input.name}: the inventory file is empty`, EXIT_USAGE);
  if (nonEmpty.length > 1) {
    const second = nonEmpty[1]?.contents?.range?.[0] ?? 0;
    throw fail(`line ${lines.linePos(second).line}`, `${nonEmpty.length} YAML documents; an inventory is one document`);
  }
  const { inventory, issues } = checkInventory(doc.toJS());
  if (issues.length === 0) return inventory;
  const located = issues.map((issue) => {
    const at = lines.linePos(locate(doc, issue));
    const field = issue.path.length === 0 ? "" : `, field ${formatInventoryPath(issue.path)}`;
    return `line ${at.line}, column ${at.col}${field}: ${issue.message}`;
  });
  if (located.length === 1) throw new CliError(`${input.name}: inventory error at ${located[0] ?? ""}`, EXIT_USAGE);
  throw new CliError(
    `${input.name}: ${located.length} inventory errors:\n${located.map((l) => `  ${l}`).join("\n")}`,
    EXIT_USAGE,
  );
}

/** The source offset of an issue: the key of an unknown field, else the value (or the nearest enclosing node). */
function locate(doc: Document, issue: InventoryIssue): number {
  const path = [...issue.path];
  if (issue.atKey === true) {
    const key = path.pop();
    const parent = path.length === 0 ? doc.contents : doc.getIn(path, true);
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === key);
      const range = isScalar(pair?.key) ? pair.key.range : undefined;
      if (range !== undefined && range !== null) return range[0];
    }
  }
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    const range = (node as { range?: [number, number, number] | null } | null | undefined)?.range;
    if (range !== undefined && range !== null) return range[0];
  }
  return 0;
}
