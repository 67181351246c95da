// What the campaign sends: every upstream round-trip fixture, every networking.k8s.io/v1
// document of the real-manifest corpora and the examples, and the testing kit's objects (valid,
// targeted invalid, and mutations of both) up to the count asked for.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { parseAllDocuments } from "yaml";
import {
  DEFAULT_KUBERNETES_VERSION,
  splitYamlDocuments,
  type JsonObject,
  type JsonValue,
  type KubernetesVersion,
} from "../../src/networking/index.js";
import { arbTargetedInvalid, arbValidJson, VALIDATED_KINDS, type ValidatedKind } from "../../src/testing/index.js";
import { mutate } from "./mutate.js";
import type { Rng } from "./rng.js";

/** One object to send, with where it came from. */
export interface CampaignInput {
  /** Where it came from: `fixture v1.35.0`, `corpus cilium/x.yaml#3`, `valid`, `invalid <mutation>`, `mutated <how>`. */
  readonly source: string;
  readonly kind: ValidatedKind;
  /** The object as JSON (what JSON and protobuf bodies are made from). */
  readonly json: JsonObject;
  /** The document's own text, when it came from a YAML file (what a YAML body sends as is). */
  readonly yaml?: string;
  /** Send it in every body format, not one picked at random (the fixtures, corpora and examples). */
  readonly everyFormat: boolean;
}

const KINDS = new Set<string>(VALIDATED_KINDS);
const API_VERSION = "networking.k8s.io/v1";

function isOurs(v: unknown): v is JsonObject & { kind: ValidatedKind } {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    (v as JsonObject).apiVersion === API_VERSION &&
    KINDS.has(String((v as JsonObject).kind))
  );
}

/** The upstream round-trip fixtures of every release folder under `root` (the JSON of each kind, not Lists). */
export function fixtureInputs(root: string): CampaignInput[] {
  if (!existsSync(root)) return [];
  const out: CampaignInput[] = [];
  for (const folder of readdirSync(root).sort()) {
    const dir = join(root, folder);
    if (!statSync(dir).isDirectory()) continue;
    for (const file of readdirSync(dir).sort()) {
      const m = /^networking\.k8s\.io\.v1\.([A-Za-z]+)\.json$/.exec(file);
      if (m === null) continue;
      const json: unknown = JSON.parse(readFileSync(join(dir, file), "utf8"));
      if (!isOurs(json)) continue;
      const yamlPath = join(dir, file.replace(/\.json$/, ".yaml"));
      out.push({
        source: `fixture ${folder}`,
        kind: json.kind,
        json,
        ...(existsSync(yamlPath) ? { yaml: readFileSync(yamlPath, "utf8") } : {}),
        everyFormat: true,
      });
    }
  }
  return out;
}

/** Every networking.k8s.io/v1 object of the five kinds in the manifest files under each of `dirs`. */
export function manifestInputs(label: string, base: string, dirs: readonly string[]): CampaignInput[] {
  const out: CampaignInput[] = [];
  for (const dir of dirs) {
    for (const path of filesUnder(dir)) {
      const name = relative(base, path).split("\\").join("/");
      const text = readFileSync(path, "utf8");
      if (path.endsWith(".json")) {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          continue;
        }
        if (isOurs(value)) out.push({ source: `${label} ${name}`, kind: value.kind, json: value, everyFormat: true });
        continue;
      }
      for (const [i, doc] of splitYamlDocuments(text).entries()) {
        // The yaml package reads each document on its own (an independent reader, not clusterwire's).
        const parsed = parseAllDocuments(doc.text);
        if (!Array.isArray(parsed) || parsed.length !== 1 || parsed[0]!.errors.length > 0) continue;
        const value: unknown = parsed[0]!.toJS({ maxAliasCount: 100 });
        if (!isOurs(value) || !isJson(value)) continue;
        out.push({
          source: `${label} ${name}#${i + 1}`,
          kind: value.kind,
          json: value,
          yaml: doc.text,
          everyFormat: true,
        });
      }
    }
  }
  return out;
}

// Values the yaml package can give that JSON has no form for (dates, non-finite numbers).
function isJson(v: unknown): boolean {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  if (typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) return Object.values(v).every(isJson);
  return false;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ya?ml|json)$/.test(name)) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/**
 * `count` objects from the testing kit, from `seed`: 40% valid, 30% targeted invalid, 30%
 * mutations of either (a field dropped, a value swapped for a tricky one, a list item repeated,
 * an unknown field added, ...).
 */
export function generatedInputs(
  count: number,
  seed: number,
  rng: Rng,
  version: KubernetesVersion = DEFAULT_KUBERNETES_VERSION,
): CampaignInput[] {
  const valid = Math.round(count * 0.4);
  const invalid = Math.round(count * 0.3);
  const mutated = count - valid - invalid;
  const out: CampaignInput[] = [];
  const perKind = (n: number, i: number): number =>
    Math.floor(n / VALIDATED_KINDS.length) + (i < n % VALIDATED_KINDS.length ? 1 : 0);
  const validPool: JsonObject[] = [];
  VALIDATED_KINDS.forEach((kind, i) => {
    for (const json of fc.sample(arbValidJson(kind, { version }), { seed: seed + i, numRuns: perKind(valid, i) })) {
      out.push({ source: "valid", kind, json, everyFormat: false });
      validPool.push(json);
    }
  });
  const invalidPool: JsonObject[] = [];
  for (const t of fc.sample(arbTargetedInvalid(), { seed: seed + 101, numRuns: invalid })) {
    out.push({ source: `invalid ${t.mutation}`, kind: t.kind, json: t.json, everyFormat: false });
    invalidPool.push(t.json);
  }
  const pools = [...validPool, ...invalidPool];
  for (let i = 0; i < mutated && pools.length > 0; i++) {
    const from = pools[rng.int(pools.length)]!;
    const m = mutate(from, rng);
    out.push({ source: `mutated ${m.how}`, kind: from.kind as ValidatedKind, json: m.json, everyFormat: false });
  }
  return out;
}

export type { JsonValue };
