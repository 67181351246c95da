import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { wellFormed } from "../../src/cli/shared/reporter.js";

// The SARIF output parsed as JSON and checked against the SARIF 2.1.0 JSON
// schema, formats included; then what GitHub code scanning needs on top of
// the schema. The schema comes from the npm registry: Microsoft's
// @microsoft/jest-sarif (MIT) ships the OASIS schema of the 2.1.0 release
// (its final committee draft, rtm.5, as SchemaStore publishes it; the
// definitions are those of the 2.1.0 standard).

const schema = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"),
    "utf8",
  ),
) as object;
// One pattern of this schema (a language tag) is not valid with the u flag, which ajv uses by default.
const ajv = new AjvDraft04.default({ allErrors: true, unicodeRegExp: false });
addFormats.default(ajv);
const validateSchema = ajv.compile(schema);

export interface Region {
  readonly startLine: number;
  readonly startColumn?: number;
}
export interface LogicalLocation {
  readonly name: string;
  readonly fullyQualifiedName: string;
  readonly kind: string;
}
export interface Result {
  readonly ruleId: string;
  readonly ruleIndex?: number;
  readonly level: string;
  readonly message: { readonly text: string };
  readonly locations: readonly {
    readonly physicalLocation: {
      readonly artifactLocation: { readonly uri: string; readonly uriBaseId?: string };
      readonly region?: Region;
    };
    readonly logicalLocations?: readonly LogicalLocation[];
  }[];
  readonly properties?: Record<string, unknown>;
}
interface Log {
  readonly $schema: string;
  readonly version: string;
  readonly runs: readonly {
    readonly tool: {
      readonly driver: {
        readonly name: string;
        readonly version: string;
        readonly rules: readonly { readonly id: string; readonly defaultConfiguration: { readonly level: string } }[];
      };
    };
    readonly results: readonly Result[];
    readonly properties: { readonly summary: Record<string, number> };
  }[];
}

/** The log, after checking it against the schema and what code scanning asks beyond it. */
export function parseSarif(text: string): Log {
  const log = JSON.parse(text) as unknown;
  const valid = validateSchema(log);
  expect(valid ? [] : validateSchema.errors).toEqual([]);
  // Lone surrogates (user text may hold them) are made U+FFFD, which any consumer reads.
  expect(strings(log).filter((x) => x !== wellFormed(x))).toEqual([]);
  const sarif = log as Log;
  expect(sarif.runs).toHaveLength(1);
  const rules = sarif.runs[0]?.tool.driver.rules ?? [];
  for (const r of sarif.runs[0]?.results ?? []) {
    expect(r.ruleIndex === undefined ? undefined : rules[r.ruleIndex]?.id).toBe(r.ruleId);
    expect(r.message.text).not.toBe("");
    expect(r.level).toBe(rules[r.ruleIndex ?? -1]?.defaultConfiguration.level);
    // A result may have no location (SARIF allows it; code scanning does not, and says so).
    for (const l of r.locations ?? []) {
      const at = l.physicalLocation.artifactLocation;
      // Relative to %SRCROOT% (so no scheme), or else an absolute file: URI.
      if (at.uriBaseId === "%SRCROOT%") expect(at.uri).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
      else expect(at.uri).toMatch(/^file:\/\/\//);
    }
  }
  return sarif;
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(strings);
}
