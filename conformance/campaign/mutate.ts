// Mutations of a JSON object: a field dropped, a string swapped for a tricky one or a near-valid
// one, a number pushed to a bound, a list item repeated or the list emptied, an unknown field
// added, or a value swapped for one of another JSON type (which the API server refuses while
// decoding, in Go's words; probes.ts tries every field so).
import type { JsonObject, JsonValue } from "../../src/networking/index.js";
import { TRICKY_STRINGS } from "../../src/testing/index.js";
import type { Rng } from "./rng.js";

/** A mutated copy and what was done, e.g. `drop spec.rules[0].host`. */
export interface Mutated {
  readonly json: JsonObject;
  readonly how: string;
}

type Path = (string | number)[];

// Strings near the rules' edges, beside the testing kit's tricky ones.
const EDGE_STRINGS = [
  "a".repeat(63),
  "a".repeat(64),
  "a".repeat(253),
  "a".repeat(254),
  "A",
  "a.b",
  "a_b",
  "-a",
  "a-",
  "*.example.com",
  "example.com/a",
  "10.0.0.1",
  "10.0.0.0/8",
  "10.0.0.1/8",
  "::1",
  "fd00::/8",
  "010.0.0.1",
  "::ffff:10.0.0.1",
  "/",
  "/a/../b",
  "TCP",
  "UDP",
  "SCTP",
  "Prefix",
  "Exact",
  "ImplementationSpecific",
  "Namespace",
  "Cluster",
];
const EDGE_NUMBERS = [0, 1, -1, 80, 65535, 65536, 2147483647, -2147483648];
const UNKNOWN_KEYS = ["colour", "extra", "Spec", "x_y"];
// Values of each JSON type, and numbers no integer field takes.
const OTHER_TYPES: readonly JsonValue[] = [true, false, 7, 1.5, -3e21, "80", "x", [], ["x"], {}, { a: 1 }, null];

/** The JSON type of a value, as Go's decoder tells them apart. */
function jsonType(v: JsonValue): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/** Every path in `v` (objects and arrays included, the root excluded), with its value. */
function paths(v: JsonValue, at: Path, out: [Path, JsonValue][]): void {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([[...at, i], x]);
      paths(x, [...at, i], out);
    });
  } else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      out.push([[...at, k], x]);
      paths(x, [...at, k], out);
    }
  }
}

function render(p: Path): string {
  return p.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

function parentOf(root: JsonValue, p: Path): JsonValue {
  let v = root;
  for (const s of p.slice(0, -1)) v = (v as Record<string | number, JsonValue>)[s] as JsonValue;
  return v;
}

/** One random mutation of a deep copy of `json`; apiVersion and kind are kept. */
export function mutate(json: JsonObject, rng: Rng): Mutated {
  const copy = structuredClone(json) as JsonObject;
  const all: [Path, JsonValue][] = [];
  paths(copy, [], all);
  const candidates = all.filter(([p]) => !(p.length === 1 && (p[0] === "apiVersion" || p[0] === "kind")));
  if (candidates.length === 0) return { json: copy, how: "none" };
  const [p, value] = candidates[rng.int(candidates.length)]!;
  const parent = parentOf(copy, p) as Record<string | number, JsonValue> & JsonValue[];
  const key = p[p.length - 1]!;
  const where = render(p);
  const choice = rng.int(7);
  if (choice === 6) {
    const others = OTHER_TYPES.filter((x) => jsonType(x) !== jsonType(value));
    parent[key] = structuredClone(rng.pick(others));
    return { json: copy, how: `type ${where}` };
  }
  if (choice === 0) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
    return { json: copy, how: `drop ${where}` };
  }
  if (choice === 1 && typeof value === "string") {
    const s = rng.next() < 0.5 ? rng.pick(TRICKY_STRINGS) : rng.pick(EDGE_STRINGS);
    parent[key] = s;
    return { json: copy, how: `string ${where}` };
  }
  if (choice === 2 && typeof value === "number") {
    parent[key] = rng.pick(EDGE_NUMBERS);
    return { json: copy, how: `number ${where}` };
  }
  if (choice === 3 && Array.isArray(value)) {
    if (value.length > 0 && rng.next() < 0.6) value.push(structuredClone(value[rng.int(value.length)]!));
    else value.length = 0;
    return { json: copy, how: `list ${where}` };
  }
  if (choice === 4 && value !== null && typeof value === "object" && !Array.isArray(value)) {
    (value as Record<string, JsonValue>)[rng.pick(UNKNOWN_KEYS)] = rng.next() < 0.5 ? 1 : "x";
    return { json: copy, how: `unknown field in ${where}` };
  }
  if (typeof value === "string") {
    parent[key] = rng.pick(EDGE_STRINGS);
    return { json: copy, how: `string ${where}` };
  }
  if (Array.isArray(parent)) parent.splice(key as number, 1);
  else delete parent[key];
  return { json: copy, how: `drop ${where}` };
}
