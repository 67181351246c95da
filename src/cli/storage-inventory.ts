import { LineCounter, isMap, isScalar, parseAllDocuments, type Document } from "yaml";
import { checkInventory, formatInventoryPath, type InventoryInput, type InventoryIssue } from "../storage/index.js";
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
  const fail = (where: string, message: string): CliError => new CliError(`${input.name}: inventory error at ${where}: ${message}`, EXIT_USAGE);
  const lines = new LineCounter();
  if (format === "json") {
    try {
      JSON.parse(text);
    } catch (e) {
      // V8 names the offset only for some errors, and quotes the text around it for others.
      const message = (e instanceof Error ? e.message : String(e)).replace(/ (?:in JSON )?at position \d+.*$/s, "").replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, "");
      const before = text.slice(0, jsonErrorOffset(text));
      const line = before.split("\n").length;
      const column = before.length - before.lastIndexOf("\n");
      throw fail(`line ${line}, column ${column}`, `json: ${message}`);
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
  throw new CliError(`${input.name}: ${located.length} inventory errors:\n${located.map((l) => `  ${l}`).join("\n")}`, EXIT_USAGE);
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

/** The offset of the first JSON syntax error in `text` (a small recursive-descent scan). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i] ?? "")) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = (): void => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail();
      i += text[i] === "\\" ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") {
          i++;
          return;
        } else fail();
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (m === null) fail();
    else i += m[0].length;
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (at) {
    return typeof at === "number" ? Math.min(at, text.length) : 0;
  }
}
