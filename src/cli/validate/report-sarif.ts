import { sep } from "node:path";
import type { FieldErrorType } from "../../networking/index.js";
import { knownNumber, problems, type Reporter, wellFormed } from "../shared/reporter.js";
import { objectLabel } from "../shared/verdict.js";
import type { FileVerdicts, Position, Summary, Verdict } from "../shared/verdict.js";

// `clusterwire validate --output sarif`: a SARIF 2.1.0 log, for code scanning
// (GitHub) and other SARIF viewers. One run; one result per field error,
// refusal, decode failure and warning; valid and skipped documents give none.
//
// It streams: start() writes the log up to the results array, with the whole
// (static) rules list, since consumers read the rules before the results;
// file() writes that file's results, one JSON object a line; end() closes the
// array and the log, with the totals in the run's property bag.

export interface SarifOptions {
  /** clusterwire's version, for tool.driver.version. */
  readonly toolVersion: string;
}

export const SARIF_SCHEMA =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/** Where relative artifact URIs are resolved from: the directory validate ran in. */
export const SRCROOT = "%SRCROOT%";

interface Rule {
  readonly id: string;
  readonly short: string;
  readonly full: string;
  readonly level: "error" | "warning";
}

// One rule per apimachinery field.ErrorType, each id the type's own name.
// A Record, so a new FieldErrorType fails to compile until it has a rule.
const FIELD_RULES: Record<FieldErrorType, readonly [short: string, full: string]> = {
  FieldValueRequired: ["Required value", "A required field is missing or empty."],
  FieldValueInvalid: ["Invalid value", "A field's value is not valid."],
  FieldValueNotSupported: ["Unsupported value", "A field's value is not one of the values the API server supports."],
  FieldValueForbidden: ["Forbidden", "A field is set where it must not be, or to a value it must not have."],
  FieldValueTooLong: ["Too long", "A field's value is longer than the API server allows."],
  FieldValueTooMany: ["Too many", "A list holds more items than the API server allows."],
  FieldValueDuplicate: ["Duplicate value", "A value repeats where values must be unique."],
  FieldValueNotFound: ["Not found", "A field refers to something that does not exist."],
  FieldValueTypeInvalid: ["Invalid value type", "A field's value has the wrong type."],
  InternalError: ["Internal error", "Validating the field failed inside the API server."],
};

const FIELD_RULE_SUFFIX = " The API server refuses the object (422 Invalid) with this field error.";

export const SARIF_RULES: readonly Rule[] = [
  ...Object.entries(FIELD_RULES).map(
    ([id, [short, full]]): Rule => ({
      id,
      short,
      full: full + FIELD_RULE_SUFFIX,
      level: "error",
    }),
  ),
  {
    id: "create-refused",
    short: "Refused on create",
    full:
      "The API server refuses to create the object for a reason other than field validation: a namespace that " +
      "differs from the request's (400 BadRequest), or a set metadata.resourceVersion (refused by storage).",
    level: "error",
  },
  {
    id: "decode-error",
    short: "Cannot be decoded",
    full: "A document or file cannot be read or decoded as Kubernetes JSON, YAML or protobuf.",
    level: "error",
  },
  {
    id: "unknown-field-warning",
    short: "Unknown field",
    full:
      "A field the kind does not have. The API server drops it; with fieldValidation=Warn it says so, with " +
      "Strict it refuses the object.",
    level: "warning",
  },
  {
    id: "duplicate-field-warning",
    short: "Duplicate field",
    full:
      "A key given twice in one object. kubectl reads a file non-strictly and sends the last value, so the API " +
      "server never sees the repeat; read as one request body, the API server keeps the last, and with " +
      "fieldValidation=Warn it says so, with Strict it refuses the object.",
    level: "warning",
  },
  {
    id: "warning",
    short: "Warning",
    full: "A warning the API server returns with a successful response.",
    level: "warning",
  },
];

const RULE_INDEX = new Map(SARIF_RULES.map((r, i) => [r.id, i]));

export function sarifReporter(options: SarifOptions): Reporter {
  let first = true;
  return {
    start: () => head(options.toolVersion),
    file(f: FileVerdicts): string {
      let out = "";
      for (const v of f.verdicts) {
        for (const r of results(v)) {
          out += `${first ? "\n" : ",\n"}        ${json(r)}`;
          first = false;
        }
      }
      return out;
    },
    end: (summary: Summary) =>
      `${first ? "" : "\n      "}],\n      "properties": ${json({ summary }, 2).replaceAll("\n", "\n      ")}\n    }\n  ]\n}\n`,
  };
}

/** The log up to and including the opening `[` of the run's results. */
function head(toolVersion: string): string {
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "clusterwire",
            version: toolVersion,
            rules: SARIF_RULES.map((r) => ({
              id: r.id,
              shortDescription: { text: r.short },
              fullDescription: { text: r.full },
              help: { text: r.full },
              defaultConfiguration: { level: r.level },
            })),
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: { description: { text: "The directory clusterwire validate ran in." } },
        },
        columnKind: "utf16CodeUnits",
        results: [],
      },
    ],
  };
  const text = json(log, 2);
  // results is the run's last member, so its `[]` is the last one in the text.
  return text.slice(0, text.lastIndexOf("[]") + 1);
}

interface Finding {
  readonly ruleId: string;
  readonly message: string;
  readonly field?: string | undefined;
  readonly position?: Position | undefined;
  readonly offset?: number | undefined;
}

/** A verdict's SARIF results: its field errors, refusals, decode failure, then warnings. */
function results(v: Verdict): object[] {
  const found: Finding[] = problems(v).map((p) => ({
    ruleId: p.type === "refusal" ? "create-refused" : p.type,
    message: p.message,
    field: p.field,
    position: p.position,
  }));
  if (v.status === "error") {
    const f = v.failure;
    found.push({
      ruleId: "decode-error",
      message: f?.message ?? "",
      field: f?.field,
      position: f?.position,
      offset: f?.offset,
    });
  }
  for (const w of v.warnings) {
    found.push({ ruleId: warningRule(w.message), message: w.message, field: w.field, position: w.position });
  }
  return found.map((f) => result(v, f));
}

function warningRule(message: string): string {
  if (/^unknown field\b/.test(message)) return "unknown-field-warning";
  if (/^duplicate field\b|^key .* already set in map\b/.test(message)) return "duplicate-field-warning";
  return "warning";
}

function result(v: Verdict, f: Finding): object {
  const index = RULE_INDEX.get(f.ruleId);
  const rule = index === undefined ? undefined : SARIF_RULES[index];
  const physical: Record<string, unknown> = { artifactLocation: artifactLocation(v.file) };
  const region = regionOf(f.position, v.line);
  if (region !== undefined) physical["region"] = region;
  const location: Record<string, unknown> = { physicalLocation: physical };
  const logical = logicalLocations(v, f.field);
  if (logical.length > 0) location["logicalLocations"] = logical;
  const out: Record<string, unknown> = { ruleId: f.ruleId };
  if (index !== undefined) out["ruleIndex"] = index;
  out["level"] = rule?.level ?? "error";
  // Code scanning refuses an empty message; the rule's name is the best left.
  out["message"] = { text: f.message === "" ? (rule?.short ?? f.ruleId) : f.message };
  out["locations"] = [location];
  const properties = whereInFile(v, f.offset);
  if (Object.keys(properties).length > 0) out["properties"] = properties;
  return out;
}

function regionOf(at: Position | undefined, documentLine: number | undefined): object | undefined {
  if (at !== undefined && knownNumber(at.line)) {
    return knownNumber(at.column) ? { startLine: at.line, startColumn: at.column } : { startLine: at.line };
  }
  return knownNumber(documentLine) ? { startLine: documentLine } : undefined;
}

/** The object (`Ingress shop/web`) and the field (`spec.rules[0].host`), as far as they are known. */
function logicalLocations(v: Verdict, field: string | undefined): object[] {
  const object = objectLabel(v);
  const out: object[] = [];
  if (object !== "") {
    out.push({ name: v.name ?? object, fullyQualifiedName: object, kind: "resource" });
  }
  if (field !== undefined && field !== "") {
    out.push({ name: field, fullyQualifiedName: object === "" ? field : `${object} ${field}`, kind: "property" });
  }
  return out;
}

/** Document, List item and watch event numbers (the only locators binary input has), and a byte offset. */
function whereInFile(v: Verdict, offset: number | undefined): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if (v.document !== undefined) p["document"] = v.document;
  if (v.item !== undefined) p["item"] = v.item;
  if (v.event !== undefined) p["event"] = v.event;
  if (offset !== undefined) p["byteOffset"] = offset;
  return p;
}

/**
 * The file as an artifactLocation: a path relative to where validate ran is
 * a relative URI reference under %SRCROOT% (what code scanning expects); an
 * absolute path is a file: URI. Separators become `/` (a backslash is one
 * only on Windows); each segment is percent-encoded, `:` included, so no
 * segment reads as a scheme and nothing reads as a query or fragment.
 */
export function artifactLocation(file: string, separator: string = sep): { uri: string; uriBaseId?: string } {
  let path = wellFormed(file);
  if (separator === "\\") path = path.replaceAll("\\", "/");
  const drive = /^[A-Za-z]:\//.exec(path);
  if (drive !== null) return { uri: `file:///${path.slice(0, 2)}${encodePath(path.slice(2))}` };
  if (path.startsWith("/")) return { uri: `file://${encodePath(path)}` };
  while (path.startsWith("./")) path = path.slice(2);
  return { uri: encodePath(path), uriBaseId: SRCROOT };
}

function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** JSON, with lone surrogates (from any user text) made U+FFFD. */
function json(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_key, x: unknown) => (typeof x === "string" ? wellFormed(x) : x), indent);
}
