// What the page shows for the editor's text: every document read as the API
// server reads it, validated for the chosen operation, with the position of
// each error and warning in the text. No DOM here: the tests run it in Node.
import {
  DecodeError,
  fromJson,
  fromYaml,
  kindOf,
  splitYamlDocuments,
  apiWarnings,
  validate,
  type FeatureGates,
  type FieldError,
  type NetworkingObject,
} from "../networking/index.js";
import { locator, type TextRange } from "./locate.js";

export type Operation = "create" | "update" | "status";
export const OPERATIONS: readonly Operation[] = ["create", "update", "status"];

/** Something that kept a document from being validated: a decode error, or an unusable old object. */
export interface Problem {
  readonly message: string;
  readonly range: TextRange;
}

export interface LocatedError {
  readonly error: FieldError;
  readonly range: TextRange;
}

export interface LocatedWarning {
  readonly message: string;
  readonly range: TextRange;
}

export interface Analysis {
  /** The objects that decoded, in text order. */
  readonly objects: readonly NetworkingObject[];
  readonly errors: readonly LocatedError[];
  readonly warnings: readonly LocatedWarning[];
  readonly problems: readonly Problem[];
}

export interface AnalyzeOptions {
  readonly operation: Operation;
  readonly namespace: string;
  readonly featureGates: FeatureGates;
  /** The old object pane's objects (update and status). */
  readonly old: readonly NetworkingObject[];
}

/** JSON when the text's first non-blank character opens a JSON object or array; YAML otherwise. */
export function isJsonText(text: string): boolean {
  const m = /^\s*([{[])/.exec(text);
  return m !== null;
}

interface Doc {
  readonly text: string;
  /** Where `text` starts in the whole text. */
  readonly offset: number;
}

/** The line/column of a DecodeError as an offset into `text` (1-based line and column). */
function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  return Math.min(at + Math.max(column - 1, 0), text.length);
}

function decodeProblem(e: DecodeError, doc: Doc): Problem {
  let from = doc.offset;
  if (e.line !== undefined) from = doc.offset + offsetOf(doc.text, e.line, e.column ?? 1);
  else if (e.offset !== undefined) from = doc.offset + Math.min(e.offset, doc.text.length);
  const nl = doc.text.indexOf("\n", from - doc.offset);
  const to = nl < 0 ? doc.offset + doc.text.length : doc.offset + nl;
  return { message: e.message, range: { from, to: Math.max(to, from) } };
}

function shift(r: TextRange, by: number): TextRange {
  return { from: r.from + by, to: r.to + by };
}

/** Reads the text's documents: objects (each with its document) and decode problems. */
export function readDocuments(text: string): {
  objects: { object: NetworkingObject; doc: Doc }[];
  problems: Problem[];
} {
  const objects: { object: NetworkingObject; doc: Doc }[] = [];
  const problems: Problem[] = [];
  if (isJsonText(text)) {
    const doc = { text, offset: 0 };
    try {
      objects.push({ object: fromJson(text), doc });
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      problems.push(decodeProblem(e, doc));
    }
    return { objects, problems };
  }
  for (const part of splitYamlDocuments(text)) {
    const doc = { text: part.text, offset: part.offset };
    try {
      for (const object of fromYaml(part.text)) objects.push({ object, doc });
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      problems.push(decodeProblem(e, doc));
    }
    if (part.separatorError !== undefined) {
      const sep = part.separatorError;
      const at = sep.offset ?? part.offset + part.text.length;
      problems.push({ message: sep.message, range: { from: at, to: at } });
      break;
    }
  }
  return { objects, problems };
}

function nameOf(obj: NetworkingObject): string | undefined {
  const meta = (obj as { metadata?: { name?: string; namespace?: string } }).metadata;
  return meta?.name;
}

/**
 * The old object an update of `obj` (one of `objects`, the editor's objects) is
 * checked against. The API server finds the stored object by the name in the
 * request, so the old object of the same kind and name comes first. An update
 * that renames the object has no such old object: when each pane holds exactly
 * one object of the kind, the two are paired whatever their names, and
 * validation says what the API server says of a rename (metadata.name is
 * immutable). An object without a name takes the only old object of its
 * kind. Otherwise there is nothing to pair with, and undefined.
 */
export function oldFor(
  obj: NetworkingObject,
  objects: readonly NetworkingObject[],
  old: readonly NetworkingObject[],
): NetworkingObject | undefined {
  const kind = kindOf(obj).kind;
  const sameKind = old.filter((o) => kindOf(o).kind === kind);
  const name = nameOf(obj) ?? "";
  if (name === "") return sameKind.length === 1 ? sameKind[0] : undefined;
  const byName = sameKind.find((o) => nameOf(o) === name);
  if (byName !== undefined) return byName;
  const newOfKind = objects.filter((o) => kindOf(o).kind === kind).length;
  return sameKind.length === 1 && newOfKind === 1 ? sameKind[0] : undefined;
}

/**
 * The segments of a rendered field path (`spec.rules[0].host`,
 * `metadata.annotations[a.b/c]`): names, and indexes as numbers.
 */
export function parsePath(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  for (let m = re.exec(field); m !== null; m = re.exec(field)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(/^\d+$/.test(m[2]) ? Number(m[2]) : m[2]);
  }
  return out;
}

/** Everything the page shows about `text` for `options`. */
export function analyze(text: string, options: AnalyzeOptions): Analysis {
  const { objects, problems } = readDocuments(text);
  const errors: LocatedError[] = [];
  const warns: LocatedWarning[] = [];
  const locators = new Map<Doc, ReturnType<typeof locator>>();
  const locate = (doc: Doc, path: readonly (string | number)[]): TextRange => {
    let l = locators.get(doc);
    if (l === undefined) {
      l = locator(doc.text);
      locators.set(doc, l);
    }
    return shift(l.locate(path), doc.offset);
  };
  const decoded = objects.map((o) => o.object);
  for (const { object, doc } of objects) {
    let old: NetworkingObject | undefined;
    if (options.operation !== "create") {
      old = oldFor(object, decoded, options.old);
      if (old === undefined) {
        const kind = kindOf(object).kind;
        problems.push({
          message:
            `${options.operation}: the old object pane has no ${kind} named ${JSON.stringify(nameOf(object) ?? "")} to compare with` +
            ` (an object is paired with the old ${kind} of its name, or, when each pane holds one ${kind}, with that one)`,
          range: locate(doc, []),
        });
        continue;
      }
    }
    const opts = {
      featureGates: options.featureGates,
      namespace: options.namespace,
      ...(old !== undefined ? { old } : {}),
      ...(options.operation === "status" ? { subresource: "status" as const } : {}),
    };
    let found: FieldError[];
    try {
      found = validate(object, opts);
    } catch (e) {
      // validate throws a TypeError only for inconsistent options (a kind without a status subresource).
      if (!(e instanceof TypeError)) throw e;
      problems.push({ message: e.message, range: locate(doc, []) });
      continue;
    }
    for (const error of found) errors.push({ error, range: locate(doc, error.path) });
    const wopts = {
      ...(old !== undefined ? { old } : {}),
      ...(options.operation === "status" ? { subresource: "status" as const } : {}),
    };
    // The API server sends warnings only with an object it admits, and list kinds have none.
    if (found.length > 0 || kindOf(object).list) continue;
    for (const w of apiWarnings(object, wopts)) warns.push({ message: w.text, range: locate(doc, parsePath(w.field)) });
  }
  problems.sort((a, b) => a.range.from - b.range.from);
  return { objects: decoded, errors, warnings: warns, problems };
}
