import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { parseAllDocuments } from "yaml";
import { fixtureFolders, loadFixtures } from "./fixtures.js";
import { nonEmpty } from "./non-empty.js";

/*
 * JSON texts for holding the generated JSON readers and writers to the
 * generic ones: the upstream fixtures, real manifests, and mutations of
 * either (repeated keys, escapes, lone surrogates, odd numbers, nulls, wrong
 * types, truncation, corruption).
 */

/** Every upstream fixture's .json (and after_roundtrip .json), by name. */
export function fixtureJsonTexts(): [string, string][] {
  const out: [string, string][] = [];
  for (const folder of fixtureFolders()) {
    for (const f of loadFixtures(folder)) {
      out.push([`${folder}/${f.kind}`, f.json]);
      if (f.after?.json !== undefined) out.push([`${folder}/${f.kind} after_roundtrip`, f.after.json]);
    }
  }
  return out;
}

const REAL_WORLD = fileURLToPath(new URL("../fixtures/real-world/", import.meta.url));

/** The networking.k8s.io/v1 objects of the real-world manifests (List items too), as JSON text, by file. */
export function realWorldJsonTexts(): [string, string][] {
  const out: [string, string][] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ya?ml|json)$/.test(name)) {
        const text = readFileSync(path, "utf8");
        if (!text.includes("networking.k8s.io/v1")) continue;
        let docs: unknown[];
        try {
          docs = parseAllDocuments(text).map((d) => d.toJSON() as unknown);
        } catch {
          continue;
        }
        for (const doc of docs) {
          const d = doc as { kind?: unknown; items?: unknown } | null;
          const items =
            typeof d?.kind === "string" && d.kind.endsWith("List") && Array.isArray(d.items) ? d.items : [d];
          for (const o of items as { apiVersion?: unknown }[]) {
            if (o?.apiVersion === "networking.k8s.io/v1") out.push([path.slice(REAL_WORLD.length), JSON.stringify(o)]);
          }
        }
      }
    }
  };
  walk(REAL_WORLD);
  return nonEmpty(out, `networking.k8s.io/v1 objects in ${REAL_WORLD}`);
}

/** Raw JSON text standing in for a value when a tree is written out. */
class Raw {
  constructor(readonly text: string) {}
}

/** A key written as `key` although the object already has `key` (a repeated key). */
const DUP = "~dup~";

/** Writes a tree as JSON, with Raw values as their text and DUP-marked keys as repeats. */
function write(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) return `[${v.map(write).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) {
      const key = k.startsWith(DUP) ? k.slice(DUP.length).replace(/~\d+$/, "") : k;
      parts.push(`${JSON.stringify(key)}:${write(x)}`);
    }
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** Values the readers treat specially or refuse, as JSON lexemes. */
export const ODD_VALUES: readonly string[] = [
  "null",
  "true",
  "false",
  "0",
  "-1",
  "-0",
  "1.0",
  "1e2",
  "1.5",
  "2147483647",
  "2147483648",
  "-2147483649",
  "123456789012345",
  "1234567890123456",
  "12345678901234567890",
  "9223372036854775807",
  "-9223372036854775808",
  "9223372036854775808",
  "99999999999999999999999",
  '""',
  '"x"',
  '"80"',
  '"a\\u0041\\n\\t\\/\\"\\\\"',
  '"\\ud800"',
  '"\\udc00\\ud800"',
  '"\\ud83d\\ude00"',
  '"\ud800 raw lone surrogate"',
  '"\ud83d\ude00 raw pair"',
  '"<&>\u2028"',
  '"2024-02-29T12:00:00Z"',
  '"2024-02-30T12:00:00Z"',
  '"not a time"',
  "[]",
  "[null]",
  '["a",null]',
  "[{}]",
  "{}",
  '{"a":"b"}',
  '{"a":null}',
  '{"f:metadata":{"f:name":{}}}',
  '{"\\ud800":"x","k":1}',
  "[[[[[[[[[[]]]]]]]]]]",
];

type Tree = { [key: string]: unknown } | unknown[];

/** Every (container, key) in a tree, containers first. */
function slots(root: Tree): [Tree, string | number][] {
  const out: [Tree, string | number][] = [];
  const walk = (c: Tree): void => {
    const keys: (string | number)[] = Array.isArray(c) ? c.map((_, i) => i) : Object.keys(c);
    for (const k of keys) {
      out.push([c, k]);
      const v = (c as Record<string | number, unknown>)[k];
      if (typeof v === "object" && v !== null && !(v instanceof Raw)) walk(v as Tree);
    }
  };
  walk(root);
  return out;
}

export interface Mutation {
  readonly op: number;
  readonly at: number;
  readonly value: number;
  readonly cut: number;
}

export const arbMutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.nat(9),
  at: fc.nat(),
  value: fc.nat(ODD_VALUES.length - 1),
  cut: fc.nat(),
});

/**
 * A JSON text changed by one mutation: a value replaced by an odd one, a key
 * repeated (with an odd value or its own), an unknown key added, a member
 * removed, kind/apiVersion moved to the end, the text cut short, one
 * character changed, a key written with escapes, or whitespace added.
 */
export function mutate(text: string, m: Mutation): string {
  const tree = JSON.parse(text) as Tree;
  const all = slots(tree);
  const odd = ODD_VALUES[m.value] as string;
  const [c, k] = all.length > 0 ? (all[m.at % all.length] as [Tree, string | number]) : [tree, "x"];
  const rec = c as Record<string | number, unknown>;
  const objects = all.filter(([, key]) => typeof key === "string").map(([cont]) => cont as Record<string, unknown>);
  const obj =
    objects.length > 0
      ? (objects[m.at % objects.length] as Record<string, unknown>)
      : (tree as Record<string, unknown>);
  switch (m.op) {
    case 0:
      rec[k] = new Raw(odd);
      return write(tree);
    case 1: {
      // A repeated key: with an odd value, or the same value again.
      const keys = Object.keys(obj);
      const key = keys[m.cut % Math.max(keys.length, 1)] ?? "x";
      obj[`${DUP}${key}~1`] = m.value % 2 === 0 ? new Raw(odd) : obj[key];
      return write(tree);
    }
    case 2:
      obj[m.cut % 2 === 0 ? "unknownField" : "__proto__x"] = new Raw(odd);
      return write(tree);
    case 3:
      if (Array.isArray(c)) c.splice(k as number, 1);
      else delete rec[k];
      return write(tree);
    case 4: {
      const top = tree as Record<string, unknown>;
      const { kind, apiVersion, ...rest } = top;
      return write(m.cut % 2 === 0 ? { ...rest, kind, apiVersion } : { ...rest, apiVersion });
    }
    case 5:
      return text.slice(0, m.cut % (text.length + 1));
    case 6: {
      const i = m.cut % Math.max(text.length, 1);
      const chars = ['"', "\\", "{", "}", "[", "]", ",", ":", "0", "-", " ", "e", ".", "\u0000", "\ud800"];
      return text.slice(0, i) + (chars[m.value % chars.length] as string) + text.slice(i + 1);
    }
    case 7: {
      // The same key spelled with escapes (Go decodes them before matching).
      const keys = Object.keys(obj);
      const key = keys[m.cut % Math.max(keys.length, 1)];
      if (key === undefined || key.length === 0) return text;
      const escaped = `"\\u${key.charCodeAt(0).toString(16).padStart(4, "0")}${key.slice(1)}"`;
      return write(tree).replace(`${JSON.stringify(key)}:`, `${escaped}:`);
    }
    case 8:
      return text.replace(/([,:[{])/g, (s, _p, off: number) => (off % 7 === m.cut % 7 ? `${s} \n\t` : s));
    default:
      rec[k] = null;
      return write(tree);
  }
}
