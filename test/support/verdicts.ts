// Verdicts for the validate reporters' tests: a hand-made set that covers every
// status and every way a document is located, an arbitrary for property tests,
// and a way to run a reporter over files as the CLI does.

import fc from "fast-check";
import type { Reporter } from "../../src/cli/shared/reporter.js";
import {
  addToSummary,
  emptySummary,
  type FileVerdicts,
  type Position,
  type Summary,
  type Verdict,
  type VerdictFieldError,
} from "../../src/cli/shared/verdict.js";
import type { FieldErrorType } from "../../src/networking/index.js";
import { FIELD_ERROR_TYPES } from "./field-error-types.js";

/** A verdict with no problems; `over` sets the rest. */
export function verdict(file: string, over: Partial<Verdict> & Pick<Verdict, "status">): Verdict {
  return { file, errors: [], refusals: [], warnings: [], ...over };
}

export function fieldError(type: FieldErrorType, field: string, body: string, position?: Position): VerdictFieldError {
  const e = { type, field, badValue: "", detail: "", message: `${field}: ${body}` };
  return position === undefined ? e : { ...e, position };
}

const SHOP = "deploy/shop.yaml";
const LIST = "deploy/lists/ingress list.yaml";
const WATCH = "captures/watch.pb";
const JSON_WATCH = "captures/wätch 😀.json";
const BROKEN = "deploy/broken.yaml";
const SHOP_WEB = { apiVersion: "networking.k8s.io/v1", kind: "Ingress", namespace: "shop", name: "web" } as const;

/**
 * Five files: every status; field errors and refusals with and without
 * positions; warnings; List items; watch events (binary, so without lines,
 * and JSON); a whole-file verdict; spaces and non-ASCII in paths.
 */
export const SAMPLE: readonly FileVerdicts[] = [
  {
    file: SHOP,
    verdicts: [
      verdict(SHOP, {
        document: 1,
        line: 1,
        ...SHOP_WEB,
        status: "invalid",
        errors: [
          fieldError("FieldValueInvalid", "spec.rules[0].host", "Invalid value: \"*\": must start with '*.'", {
            line: 9,
            column: 13,
          }),
          fieldError("FieldValueRequired", "spec.rules[0].http.paths[0].backend", "Required value", {
            line: 12,
            column: 11,
          }),
        ],
        warnings: [
          {
            message: 'unknown field "spec.tls[0].hostz"',
            field: "spec.tls[0].hostz",
            position: { line: 16, column: 7 },
          },
        ],
      }),
      verdict(SHOP, {
        document: 2,
        line: 20,
        apiVersion: "apps/v1",
        kind: "Deployment",
        namespace: "shop",
        name: "web",
        status: "skipped",
        reason: "apps/v1 Deployment is not a networking.k8s.io/v1 kind",
      }),
      verdict(SHOP, {
        document: 3,
        line: 41,
        status: "error",
        failure: {
          message: "yaml: line 43: mapping values are not allowed in this context",
          position: { line: 43, column: 7 },
        },
      }),
      verdict(SHOP, {
        document: 4,
        line: 50,
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        name: "nginx",
        status: "valid",
        warnings: [{ message: "metadata.annotations: deprecated annotation" }],
      }),
    ],
  },
  {
    file: LIST,
    verdicts: [
      verdict(LIST, {
        document: 1,
        item: 0,
        line: 5,
        apiVersion: "networking.k8s.io/v1",
        kind: "NetworkPolicy",
        namespace: "default",
        name: "deny-all",
        status: "valid",
      }),
      verdict(LIST, {
        document: 1,
        item: 1,
        line: 14,
        apiVersion: "networking.k8s.io/v1",
        kind: "NetworkPolicy",
        namespace: "other",
        name: "allow",
        status: "invalid",
        refusals: [
          {
            code: 400,
            reason: "BadRequest",
            message: "the namespace of the provided object does not match the namespace sent on the request",
            field: "metadata.namespace",
          },
        ],
      }),
    ],
  },
  {
    file: WATCH,
    verdicts: [
      verdict(WATCH, {
        document: 1,
        event: "ADDED",
        ...SHOP_WEB,
        status: "valid",
      }),
      verdict(WATCH, {
        document: 3,
        event: "MODIFIED",
        ...SHOP_WEB,
        status: "invalid",
        errors: [
          fieldError("FieldValueNotSupported", "spec.rules[0].http.paths[0].pathType", 'Unsupported value: "Any"'),
        ],
        refusals: [
          {
            code: 500,
            reason: "",
            message: "resourceVersion should not be set on objects to be created",
            field: "metadata.resourceVersion",
          },
        ],
      }),
      verdict(WATCH, {
        document: 4,
        status: "error",
        failure: { message: "proto: cannot parse invalid wire-format data", offset: 1234 },
      }),
    ],
  },
  {
    file: JSON_WATCH,
    verdicts: [
      verdict(JSON_WATCH, {
        document: 2,
        event: "DELETED",
        line: 2,
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        name: "nginx",
        status: "invalid",
        errors: [fieldError("FieldValueTooLong", "metadata.name", "Too long: may not be more than 253 bytes")],
      }),
    ],
  },
  {
    file: BROKEN,
    verdicts: [verdict(BROKEN, { status: "skipped", reason: "not a Kubernetes manifest: no apiVersion or kind" })],
  },
  { file: "deploy/empty.yaml", verdicts: [] },
];

/** Text that breaks careless writers: markup, CDATA ends, controls, lone surrogates (low first, so joined they stay lone), astral characters. */
export const HOSTILE = [
  "]]>",
  "&",
  "<",
  ">",
  '"',
  "'",
  "--",
  "\u0000",
  "\u0001",
  "\u001f",
  "\r\n",
  "\t",
  "\udfff",
  "\ud800",
  "\ufffe",
  "\uffff",
  "😀",
  "%",
  "#",
  "?",
  "\\",
  ":",
  "/",
  ".",
  " ",
];

/** Any text: hostile pieces, any code point, any UTF-16 code unit (so lone surrogates too). */
export const anyText: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...HOSTILE),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 24,
});

const position: fc.Arbitrary<Position | undefined> = fc.option(
  fc.record({ line: fc.integer({ min: 1, max: 1e6 }), column: fc.integer({ min: 1, max: 1e4 }) }),
  { nil: undefined },
);

/** Sets the keys whose values are defined: exactOptionalPropertyTypes forbids writing `undefined`. */
function defined<T extends object>(o: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function arbitraryVerdict(file: string): fc.Arbitrary<Verdict> {
  const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const fieldErr = fc
    .record({ type: fc.constantFrom(...FIELD_ERROR_TYPES), field: anyText, message: anyText, position })
    .map((e) => defined<VerdictFieldError>({ ...e, badValue: "", detail: "" }));
  return fc
    .record({
      status: fc.constantFrom("valid", "invalid", "skipped", "error" as const),
      document: optional(fc.integer({ min: 1, max: 1000 })),
      item: optional(fc.nat(100)),
      event: optional(fc.constantFrom("ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR")),
      line: optional(fc.integer({ min: 1, max: 1e6 })),
      kind: optional(anyText),
      namespace: optional(anyText),
      name: optional(anyText),
      reason: optional(anyText),
      errors: fc.array(fieldErr, { maxLength: 3 }),
      refusals: fc.array(
        fc
          .record({ message: anyText, field: optional(anyText), position })
          .map((r) => defined<Verdict["refusals"][number]>({ ...r, code: 400, reason: "BadRequest" })),
        { maxLength: 2 },
      ),
      warnings: fc.array(
        fc
          .record({ message: anyText, field: optional(anyText), position })
          .map((w) => defined<Verdict["warnings"][number]>(w)),
        { maxLength: 2 },
      ),
      failure: optional(
        fc
          .record({ message: anyText, field: optional(anyText), position, offset: optional(fc.nat()) })
          .map((f) => defined<NonNullable<Verdict["failure"]>>(f)),
      ),
    })
    .map((v) => defined<Verdict>({ ...v, file }));
}

/** Any files, with any names, each with any verdicts. */
export const anyFiles: fc.Arbitrary<FileVerdicts[]> = fc.array(
  anyText.chain((file) =>
    fc.array(arbitraryVerdict(file), { maxLength: 4 }).map((verdicts): FileVerdicts => ({ file, verdicts })),
  ),
  { maxLength: 4 },
);

/** What the CLI writes: start, each file as it arrives, end with the totals. */
export function render(reporter: Reporter, files: readonly FileVerdicts[]): string {
  let summary: Summary = emptySummary();
  let out = reporter.start();
  for (const f of files) {
    out += reporter.file(f);
    summary = addToSummary(summary, f);
  }
  return out + reporter.end(summary);
}
