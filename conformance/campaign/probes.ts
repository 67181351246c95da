// Type probes: bodies with a value of the wrong JSON type, which the API server refuses while
// decoding with Go's wording (`json: cannot unmarshal bool into Go struct field ObjectMeta.
// metadata.labels of type string`). Every field of every kind gets values of the other JSON
// kinds (and integers numbers they cannot hold; ObjectMeta's in one kind); a few bodies hold several problems, to check
// which one is reported; a few are YAML. The same requests in every campaign, made without the
// seed, and sent after the others so that the seeded ones stay as they were.
import { create, ScalarType, type DescMessage } from "@bufbuild/protobuf";
import { KINDS, NETWORKING_API_VERSION, toJson, type JsonObject, type JsonValue } from "../../src/networking/index.js";
import { VALIDATED_KINDS, type ValidatedKind } from "../../src/testing/index.js";
import { isNamespaced } from "./plan.js";
import type { CampaignRequest, FieldValidation } from "./request.js";

type Path = readonly (string | number)[];

/** A JSON literal written as is into the body (for numbers JS cannot hold, and -0). */
interface Raw {
  readonly raw: string;
}

type ProbeValue = JsonValue | Raw;

const raw = (text: string): Raw => ({ raw: text });

function isRaw(v: ProbeValue): v is Raw {
  return typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { raw?: unknown }).raw === "string";
}

const TIME = "k8s.io.apimachinery.pkg.apis.meta.v1.Time";
const INT_OR_STRING = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
const FIELDS_V1 = "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1";

/** A message with every field set (one list element, one map entry), to find every JSON path of a kind. */
function full(desc: DescMessage): Record<string, unknown> {
  switch (desc.typeName) {
    case TIME:
      return create(desc, { seconds: 1_000_000_000n }) as never;
    case INT_OR_STRING:
      return create(desc, { type: 0n, intVal: 80 }) as never;
    case FIELDS_V1:
      return create(desc, { Raw: new TextEncoder().encode("{}") }) as never;
  }
  const out = create(desc) as unknown as Record<string, unknown>;
  for (const f of desc.fields) {
    switch (f.fieldKind) {
      case "scalar":
        out[f.localName] = sample(f.scalar);
        break;
      case "message":
        out[f.localName] = full(f.message);
        break;
      case "list":
        out[f.localName] = [f.listKind === "message" ? full(f.message) : sample(f.scalar as ScalarType)];
        break;
      case "map":
        out[f.localName] = { k: "v" };
        break;
    }
  }
  return out;
}

function sample(t: ScalarType): unknown {
  switch (t) {
    case ScalarType.STRING:
      return "x";
    case ScalarType.BOOL:
      return true;
    case ScalarType.INT64:
      return 1n;
    default:
      return 1;
  }
}

/** Every path of a JSON value (the root and the top-level kind and apiVersion left out), with its value. */
function sites(v: JsonValue, at: Path, out: [Path, JsonValue][]): [Path, JsonValue][] {
  if (at.length > 0 && !(at.length === 1 && (at[0] === "kind" || at[0] === "apiVersion"))) out.push([at, v]);
  if (Array.isArray(v)) for (const [i, x] of v.entries()) sites(x, [...at, i], out);
  else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) sites(x, [...at, k], out);
  return out;
}

/** Values of the other JSON kinds than `v`'s, and for a number the literals an integer cannot hold. */
function wrongValues(v: JsonValue): ProbeValue[] {
  if (typeof v === "string") return [true, 7, [], {}];
  if (typeof v === "boolean") return ["true", 7, [], { a: 1 }];
  if (typeof v === "number")
    return ["7", false, ["x"], {}, raw("1.5"), raw("1e3"), raw("-0"), raw("99999999999"), raw("9223372036854775808")];
  if (Array.isArray(v)) return ["x", 7, true, { a: "b" }];
  return ["x", raw("7.0"), false, [{}]];
}

/** The body of `kind` with `value` at `path` (the objects and lists on the way made), as JSON text. */
function bodyWith(kind: ValidatedKind, path: Path, value: ProbeValue): string {
  const root: JsonObject = { kind, apiVersion: NETWORKING_API_VERSION, metadata: { name: nameOf(kind) } };
  const MARK = "\u0000probe\u0000";
  let node: Record<string | number, JsonValue> = root as never;
  path.forEach((seg, i) => {
    if (i === path.length - 1) {
      node[seg] = isRaw(value) ? MARK : value;
      return;
    }
    const next = path[i + 1];
    const have = node[seg];
    if (have === undefined || have === null || typeof have !== "object")
      node[seg] = (typeof next === "number" ? [] : {}) as JsonValue;
    node = node[seg] as never;
  });
  const text = JSON.stringify(root);
  return isRaw(value) ? text.replace(JSON.stringify(MARK), value.raw) : text;
}

function nameOf(kind: ValidatedKind): string {
  return kind === "IPAddress" ? "192.168.7.7" : "probe";
}

const VALIDATIONS: readonly FieldValidation[] = ["Strict", "Warn", "Ignore"];

function request(
  kind: ValidatedKind,
  n: number,
  how: string,
  body: string,
  format: "json" | "yaml" = "json",
  fieldValidation?: FieldValidation,
): CampaignRequest {
  return {
    source: `probe ${how}`,
    kind,
    operation: "create",
    format,
    accept: n % 5 === 4 ? "protobuf" : "json",
    fieldValidation: fieldValidation ?? VALIDATIONS[n % VALIDATIONS.length]!,
    ...(isNamespaced(kind) ? { namespace: "default" } : {}),
    body,
  };
}

function render(p: Path): string {
  return p.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

const HEAD = (kind: string) => `"kind":"${kind}","apiVersion":"${NETWORKING_API_VERSION}"`;

/**
 * Bodies with several problems, or problems before any field: which one the server reports
 * (the first type error in the order it reads, unless an IntOrString's or a Time's own error
 * comes, which ends decoding; a type error before an unknown field), and the type errors of the
 * first look at kind and apiVersion (any case of the key).
 */
const MIXED: readonly (readonly [ValidatedKind, string, FieldValidation, "json" | "yaml", string])[] = [
  [
    "Ingress",
    "two type errors, in text order",
    "Strict",
    "json",
    `{${HEAD("Ingress")},"metadata":{"labels":{"b":true,"a":1}}}`,
  ],
  [
    "Ingress",
    "two type errors, keys sorted from YAML",
    "Strict",
    "yaml",
    `${yamlHead("Ingress")}metadata:\n  labels:\n    b: true\n    a: 1\n`,
  ],
  [
    "Ingress",
    "a type error, then a Time's",
    "Strict",
    "json",
    `{${HEAD("Ingress")},"metadata":{"labels":{"a":true},"creationTimestamp":5}}`,
  ],
  [
    "Ingress",
    "a Time's error, then a type error",
    "Ignore",
    "json",
    `{${HEAD("Ingress")},"metadata":{"creationTimestamp":[],"labels":{"a":true}}}`,
  ],
  [
    "NetworkPolicy",
    "a type error, then an IntOrString's",
    "Warn",
    "json",
    `{${HEAD("NetworkPolicy")},"spec":{"policyTypes":[1],"ingress":[{"ports":[{"port":true}]}]}}`,
  ],
  [
    "Ingress",
    "an unknown field, then a type error",
    "Strict",
    "json",
    `{${HEAD("Ingress")},"colour":1,"spec":{"rules":[{"host":false}]}}`,
  ],
  [
    "Ingress",
    "an unknown field, then a type error (Warn)",
    "Warn",
    "json",
    `{${HEAD("Ingress")},"colour":1,"spec":{"rules":[{"host":false}]}}`,
  ],
  [
    "Ingress",
    "a repeated field, then a type error",
    "Strict",
    "json",
    `{${HEAD("Ingress")},"spec":{},"spec":{"rules":5}}`,
  ],
  [
    "Ingress",
    "a type error in the first of a repeated key",
    "Strict",
    "json",
    `{${HEAD("Ingress")},"spec":5,"metadata":{"name":"a"},"spec":{}}`,
  ],
  [
    "Ingress",
    "a type error after a repeated key's first value",
    "Ignore",
    "json",
    `{${HEAD("Ingress")},"spec":{},"metadata":{"name":7},"spec":5}`,
  ],
  [
    "Ingress",
    "an index-like key after another",
    "Strict",
    "json",
    `{${HEAD("Ingress")},"metadata":{"labels":{"b":true,"1":5}}}`,
  ],
  [
    "Ingress",
    "a repeated unknown field",
    "Strict",
    "json",
    `{${HEAD("Ingress")},"metadata":{"name":"a"},"colour":1,"colour":2}`,
  ],
  [
    "Ingress",
    "a type error in a list element after another",
    "Strict",
    "json",
    `{${HEAD("Ingress")},"spec":{"rules":[{"host":"a"},5,{"host":6}]}}`,
  ],
  ["Ingress", "kind of the wrong type", "Strict", "json", `{"kind":5,"apiVersion":"${NETWORKING_API_VERSION}"}`],
  ["Ingress", "apiVersion of the wrong type", "Strict", "json", `{"kind":"Ingress","apiVersion":["v1"]}`],
  ["Ingress", "KIND of the wrong type", "Strict", "json", `{${HEAD("Ingress")},"metadata":{"name":"a"},"KIND":true}`],
  ["Ingress", "ApiVersion of the wrong type", "Ignore", "json", `{${HEAD("Ingress")},"ApiVersion":{}}`],
  ["Ingress", "a kind key with the Kelvin sign", "Warn", "json", `{${HEAD("Ingress")},"\u212aind":1}`],
  ["Ingress", "an array", "Strict", "json", `[{${HEAD("Ingress")}}]`],
  ["Ingress", "a string", "Strict", "json", `"Ingress"`],
  [
    "Ingress",
    "kind of the wrong type, in YAML",
    "Strict",
    "yaml",
    `apiVersion: ${NETWORKING_API_VERSION}\nkind: [Ingress]\n`,
  ],
  [
    "Ingress",
    "YAML 1.1 booleans and numbers where strings go",
    "Strict",
    "yaml",
    `${yamlHead("Ingress")}metadata:\n  name: a\n  annotations:\n    x: on\n  labels:\n    y: 0x10\n`,
  ],
  [
    "NetworkPolicy",
    "a YAML float where an int32 goes",
    "Warn",
    "yaml",
    `${yamlHead("NetworkPolicy")}spec:\n  ingress:\n  - ports:\n    - port: 80\n      endPort: 1e3\n      protocol: TCP\n    - port: 8.5\n`,
  ],
  [
    "NetworkPolicy",
    "a YAML integer beyond int64",
    "Ignore",
    "yaml",
    `${yamlHead("NetworkPolicy")}metadata:\n  generation: 18446744073709551615\n`,
  ],
  ["Ingress", "a YAML float beyond 1e21", "Strict", "yaml", `${yamlHead("Ingress")}metadata:\n  generation: 1e22\n`],
];

function yamlHead(kind: string): string {
  return `apiVersion: ${NETWORKING_API_VERSION}\nkind: ${kind}\n`;
}

/** The type probes: every field of every kind with each wrong value, then the mixed bodies. */
export function probeRequests(): CampaignRequest[] {
  const out: CampaignRequest[] = [];
  for (const kind of VALIDATED_KINDS) {
    const info = KINDS.find((k) => k.kind === kind && k.apiVersion === NETWORKING_API_VERSION);
    if (info === undefined) throw new Error(`probes: no kind ${kind}`);
    const json = toJson(full(info.desc) as never) as JsonObject;
    for (const [path, value] of sites(json, [], [])) {
      // ObjectMeta is the same in every kind: its fields once, in the first.
      if (path[0] === "metadata" && path.length > 1 && kind !== VALIDATED_KINDS[0]) continue;
      for (const wrong of wrongValues(value)) {
        const shown = isRaw(wrong) ? wrong.raw : JSON.stringify(wrong);
        out.push(request(kind, out.length, `${render(path)} = ${shown}`, bodyWith(kind, path, wrong)));
      }
    }
  }
  for (const [kind, how, validation, format, body] of MIXED) {
    out.push(request(kind, out.length, how, body, format, validation));
  }
  return out;
}
