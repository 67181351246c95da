// Helpers for the YAML tests: the fixture pairs (.json beside .yaml) and an
// exact JSON reader independent of the code under test.

import { readdirSync, readFileSync } from "node:fs";
import type { JsonValue } from "../../src/networking/model/json-value.js";
import { nonEmpty } from "./non-empty.js";

export const FIXTURES = new URL("../../../shared/testdata/k8s-api/", import.meta.url);

/**
 * Test-only JSON reader that keeps integers beyond 2^53 exact (as bigint),
 * independent of the YAML code under test.
 */
export function parseJsonExact(text: string): JsonValue {
  let i = 0;
  const ws = (): void => {
    while (/\s/.test(text[i] ?? "")) i++;
  };
  const value = (): JsonValue => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: { [k: string]: JsonValue } = {};
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        const k = value();
        if (typeof k !== "string") throw new Error(`bad key at ${i}`);
        ws();
        if (text[i++] !== ":") throw new Error(`expected : at ${i}`);
        Object.defineProperty(obj, k, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ",") i++;
        else if (text[i++] === "}") return obj;
        else throw new Error(`bad object at ${i}`);
      }
    }
    if (c === "[") {
      i++;
      const arr: JsonValue[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ",") i++;
        else if (text[i++] === "]") return arr;
        else throw new Error(`bad array at ${i}`);
      }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      if (!m) throw new Error(`bad string at ${i}`);
      i += m[0].length;
      return JSON.parse(m[0]) as string;
    }
    const m = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?)/.exec(text.slice(i));
    if (!m) throw new Error(`bad token at ${i}`);
    i += m[0].length;
    if (m[0] === "true" || m[0] === "false" || m[0] === "null") return JSON.parse(m[0]) as JsonValue;
    if (m[1] === undefined && m[2] === undefined) {
      const n = BigInt(m[0]);
      return Number.isSafeInteger(Number(n)) ? Number(n) : n;
    }
    return Number(m[0]);
  };
  const v = value();
  ws();
  if (i !== text.length) throw new Error(`trailing data at ${i}`);
  return v;
}

export interface FixturePair {
  readonly name: string;
  readonly json: string;
  readonly yaml: string;
}

export function fixturePairs(): FixturePair[] {
  const pairs: FixturePair[] = [];
  for (const folder of readdirSync(FIXTURES, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const dir = new URL(`${folder.name}/`, FIXTURES);
    const files = new Set(readdirSync(dir));
    for (const f of [...files].sort()) {
      if (!f.endsWith(".json")) continue;
      const yamlName = f.replace(/\.json$/, ".yaml");
      if (!files.has(yamlName)) continue;
      pairs.push({
        name: `${folder.name}/${f.replace(/\.json$/, "")}`,
        json: readFileSync(new URL(f, dir), "utf8"),
        yaml: readFileSync(new URL(yamlName, dir), "utf8"),
      });
    }
  }
  return nonEmpty(pairs, `.json and .yaml fixture pairs in ${FIXTURES.pathname}`);
}

export const PAIRS = fixturePairs();
