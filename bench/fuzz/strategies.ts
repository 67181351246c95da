import { MAGIC, Sink, WT, ld, tag, varint } from "../../test/support/protobuf-wire.js";
import { docOf, envelope, frame, ldBytes, typeMeta, type Corpus } from "./corpus.js";
import {
  KIND_NAMES,
  chunk,
  concat,
  deepGroups,
  deepJson,
  deepMessages,
  deepYaml,
  generateObject,
  jsonTokenSoup,
  mutateBytes,
  mutateJsonValues,
  mutateStructure,
  mutateText,
  mutateYamlLines,
  pickDepth,
  renderJson,
  renderYaml,
  spliceDocs,
  truncationPoints,
  yamlTokenSoup,
  INTERESTING_VARINTS,
  type JsonNest,
  type YamlNest,
} from "./mutators.js";
import type { Rng } from "./rng.js";
import type { FuzzInput, TargetName } from "./targets.js";

/** A way of making inputs for one decoder. `generate` must depend on `rng` alone. */
export interface Strategy {
  readonly name: string;
  readonly target: TargetName;
  /** Share of the campaign's inputs, relative to the other strategies. */
  readonly weight: number;
  readonly generate: (rng: Rng, corpus: Corpus) => FuzzInput;
}

const utf8 = new TextEncoder();

// ------------------------------------------------------------------ options

/** Limits a caller might pass: at and around the edges, and nonsense. */
const ODD_LIMITS = [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 53];

/** Mostly the defaults; sometimes limits at and around their edges. */
function pbOptions(rng: Rng): Record<string, number> {
  if (!rng.chance(0.06)) return {};
  return {
    maxDepth: rng.chance(0.8) ? rng.pick([0, 1, 2, 5, 63, 64, 65, 499, 500, 501, 1000, 100_000]) : rng.pick(ODD_LIMITS),
  };
}

function watchOptions(rng: Rng): Record<string, number> {
  const o: Record<string, number> = { ...pbOptions(rng) };
  if (rng.chance(0.12))
    o["maxFrameSize"] = rng.chance(0.85) ? rng.pick([0, 1, 4, 16, 100, 500, 1000, 1 << 20]) : rng.pick(ODD_LIMITS);
  return o;
}

function jsonOptions(rng: Rng): Record<string, number | boolean> {
  const o: Record<string, number | boolean> = {};
  if (rng.chance(0.3)) o["strict"] = true;
  if (rng.chance(0.05))
    o["maxDepth"] = rng.chance(0.8) ? rng.pick([0, 1, 5, 99, 100, 101, 1000, 100_000]) : rng.pick(ODD_LIMITS);
  return o;
}

function jsonWatchOptions(rng: Rng): Record<string, number | boolean> {
  const o = jsonOptions(rng);
  if (rng.chance(0.1))
    o["maxFrameSize"] = rng.chance(0.85) ? rng.pick([0, 1, 10, 100, 1000, 5000]) : rng.pick(ODD_LIMITS);
  return o;
}

// ------------------------------------------------------------------ protobuf helpers

const API = "networking.k8s.io/v1";

function pickKind(rng: Rng): { kind: string; apiVersion: string } {
  const kind = rng.pick(KIND_NAMES);
  const apiVersion =
    kind === "Status" ? "v1" : rng.chance(0.03) ? rng.pick(["v1", "networking.k8s.io/v1beta1", ""]) : API;
  return { kind, apiVersion };
}

/** Protobuf-shaped noise: plausible tags and wire types, nested messages, strings. */
export function randomFields(rng: Rng, depth = 0): Uint8Array {
  const out = new Sink();
  const n = rng.range(0, 8);
  for (let i = 0; i < n; i++) {
    const no = rng.chance(0.85) ? rng.range(1, 16) : rng.range(17, 2000);
    const wt = rng.weighted([
      [40, WT.LEN],
      [30, WT.VARINT],
      [6, WT.I64],
      [6, WT.I32],
      [4, WT.SGROUP],
      [4, WT.EGROUP],
      [2, 6],
      [2, 7],
    ] as const);
    out.push(tag(no, wt));
    if (wt === WT.VARINT) out.push(varint(rng.chance(0.5) ? rng.int(300) : rng.pick(INTERESTING_VARINTS)));
    else if (wt === WT.I64) out.push(rng.bytes(8));
    else if (wt === WT.I32) out.push(rng.bytes(4));
    else if (wt === WT.LEN) {
      const body =
        depth < 5 && rng.chance(0.4)
          ? randomFields(rng, depth + 1)
          : rng.chance(0.5)
            ? utf8.encode(rng.pick(KIND_NAMES))
            : rng.bytes(rng.size(40));
      out.push(varint(body.length));
      out.push(body);
    }
  }
  return out.take();
}

function randomBytes(rng: Rng): Uint8Array {
  return rng.bytes(rng.size(256));
}

function seedDoc(rng: Rng, corpus: Corpus) {
  return docOf(rng.pick(corpus.pb));
}

function donors(rng: Rng, corpus: Corpus) {
  return [docOf(rng.pick(corpus.pb)), docOf(rng.pick(corpus.watchFrames))];
}

/** Nested groups or messages, placed where each decoder layer would meet them. */
function deepProtobuf(rng: Rng): Uint8Array {
  const d = pickDepth(rng);
  const kind = rng.pick(["Ingress", "NetworkPolicy", "IngressList"]);
  const balanced = rng.chance(0.7);
  switch (rng.int(7)) {
    case 0: // the envelope's own unknown field
      return concat([Uint8Array.from(MAGIC), deepGroups(d, 5, balanced)]);
    case 1: // inside typeMeta
      return concat([
        Uint8Array.from(MAGIC),
        ldBytes(1, concat([Uint8Array.from(typeMeta(kind)), deepGroups(d, 3, balanced)])),
      ]);
    case 2: // the object's unknown field
      return envelope(kind, deepGroups(d, 5, balanced));
    case 3: // inside metadata (ObjectMeta has no field 20)
      return envelope(kind, ldBytes(1, deepGroups(d, 20, balanced)));
    case 4: // nested known or unknown messages
      return envelope(kind, deepMessages(d, rng.pick([1, 2, 3, 5])));
    case 5: // groups at the bottom of nested messages
      return envelope(
        kind,
        deepMessages(
          d,
          rng.pick([1, 2, 5]),
          deepGroups(Math.min(d, 1000), 7, balanced),
          `g7:${Math.min(d, 1000)}:${balanced}`,
        ),
      );
    default: // start groups with varying field numbers, never closed
      return envelope(
        kind,
        concat([deepGroups(d, rng.range(1, 3), false), Uint8Array.from(tag(rng.range(1, 30), WT.EGROUP))]),
      );
  }
}

// ------------------------------------------------------------------ watch streams

function watchStream(rng: Rng, corpus: Corpus): FuzzInput {
  const n = rng.range(1, 4);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    let body = rng.pick(corpus.watchFrames);
    const r = rng.float();
    if (r < 0.15) body = mutateBytes(rng, body, rng.range(1, 4));
    else if (r < 0.3) body = mutateStructure(rng, docOf(body), rng.range(1, 2), donors(rng, corpus));
    else if (r < 0.32) body = concat([body, ldBytes(3, deepGroups(pickDepth(rng), 4, true))]);
    let declared = body.length;
    const d = rng.float();
    if (d < 0.1) declared = Math.max(0, body.length + rng.pick([-3, -2, -1, 1, 2, 3]));
    else if (d < 0.15)
      declared = rng.pick([
        0,
        1,
        4,
        0xffffffff,
        0x80000000,
        0x7fffffff,
        16 * 1024 * 1024,
        16 * 1024 * 1024 + 1,
        1 << 20,
      ]);
    parts.push(frame(body, declared));
    if (rng.chance(0.05)) parts.push(rng.bytes(rng.size(8)));
  }
  let stream = concat(parts);
  if (rng.chance(0.15)) stream = stream.slice(0, rng.int(stream.length + 1));
  if (rng.chance(0.05)) stream = concat([stream, new Uint8Array(rng.range(1, 3))]);
  const chunks = rng.chance(0.1)
    ? chunk(rng, stream, rng.pick([1, 3, 16, 64, 256, 1024, 1024, 4096]))
    : chunk(rng, stream);
  return { data: chunks, options: watchOptions(rng) };
}

function jsonWatchStream(rng: Rng, corpus: Corpus): FuzzInput {
  const n = rng.range(1, 4);
  const events: string[] = [];
  for (let i = 0; i < n; i++) {
    let ev = rng.pick(corpus.jsonEvents);
    const r = rng.float();
    if (r < 0.15) ev = mutateJsonValues(rng, ev, rng.range(1, 3));
    else if (r < 0.3) ev = mutateText(rng, ev, rng.range(1, 4), "json");
    events.push(ev);
  }
  let text = events.join(rng.pick(["\n", "", " ", "\r\n", "\n\n", "\t"])) + (rng.chance(0.7) ? "\n" : "");
  if (rng.chance(0.1)) text = text.slice(0, rng.int(text.length + 1));
  if (rng.chance(0.05)) text = mutateText(rng, text, 1, "json");
  // Tiny chunks are rare here: the large-event strategy covers many chunks.
  const every = rng.chance(0.1) ? rng.pick([1, 3, 16, 64, 256, 1024, 1024, 4096]) : undefined;
  let data: (Uint8Array | string)[];
  const form = rng.float();
  if (form < 0.5) data = chunk(rng, utf8.encode(text), every);
  else if (form < 0.97) data = chunk(rng, text, every);
  else data = chunk(rng, text, every).map((c, i) => (i % 2 === 0 ? utf8.encode(c) : c));
  return { data, options: jsonWatchOptions(rng) };
}

const largeEvents = new Map<number, { json: string; pb: Uint8Array }>();

/** An ADDED event for an Ingress with one annotation of `size` bytes, as JSON text and as a protobuf frame. */
export function largeEvent(size: number): { json: string; pb: Uint8Array } {
  let ev = largeEvents.get(size);
  if (ev === undefined) {
    const value = "a".repeat(size);
    const json = `{"type":"ADDED","object":{"kind":"Ingress","apiVersion":"${API}","metadata":{"name":"a","annotations":{"x":"${value}"}}}}\n`;
    // ObjectMeta: name (1), annotations (12) as a map entry {1: key, 2: value}.
    const meta = concat([
      Uint8Array.from(ld(1, utf8.encode("a"))),
      ldBytes(12, concat([Uint8Array.from(ld(1, utf8.encode("x"))), ldBytes(2, utf8.encode(value))])),
    ]);
    const object = envelope("Ingress", ldBytes(1, meta));
    const body = concat([Uint8Array.from(ld(1, utf8.encode("ADDED"))), ldBytes(2, ldBytes(1, object))]);
    ev = { json, pb: frame(body) };
    largeEvents.set(size, ev);
  }
  return ev;
}

/**
 * One large event (64 KiB to 1 MiB) in small chunks (16 bytes to 1 KiB): a
 * stream decoder must stay linear in the number of chunks, however the
 * network splits the body.
 */
function largeEventChunks(rng: Rng, form: "json" | "pb"): (Uint8Array | string)[] {
  const ev = largeEvent(rng.pick([64 << 10, 256 << 10, 1 << 20]));
  const every = rng.pick([16, 64, 256, 1024]);
  if (form === "pb") return chunk(rng, ev.pb, every);
  return rng.chance(0.5) ? chunk(rng, ev.json, every) : chunk(rng, utf8.encode(ev.json), every);
}

// ------------------------------------------------------------------ JSON and YAML helpers

function deepJsonInput(rng: Rng): string {
  const deep = deepJson(pickDepth(rng), rng.pick<JsonNest>(["array", "object", "mixed", "unclosed"]));
  switch (rng.int(4)) {
    case 0:
      return deep;
    case 1:
      return `{"kind":"Ingress","apiVersion":"${API}","metadata":{"annotations":${deep}}}`;
    case 2: // fieldsV1 holds arbitrary JSON, so depth is not cut short by the schema
      return `{"kind":"NetworkPolicy","apiVersion":"${API}","metadata":{"managedFields":[{"manager":"m","fieldsV1":${deep}}]}}`;
    default:
      return `{"kind":"IngressList","apiVersion":"${API}","items":[${deep}]}`;
  }
}

function deepYamlInput(rng: Rng): string {
  // The YAML parser spends about 5 us per character of nesting, depth limit
  // or not, so 100,000 levels would only time its linear cost; 20,000 is far
  // past the ~900 levels that overflow its recursive composer.
  const depth = Math.min(pickDepth(rng), 20_000);
  const form = rng.pick<YamlNest>(["flow", "block-seq", "block-map"]);
  const deep = deepYaml(depth, form);
  switch (rng.int(3)) {
    case 0:
      return deep;
    case 1:
      return `kind: Ingress\napiVersion: ${API}\nmetadata:\n  annotations: ${form === "flow" ? deep : `\n${indent(deep, "    ")}`}`;
    default:
      return `kind: NetworkPolicy\napiVersion: ${API}\nmetadata:\n  managedFields:\n  - manager: m\n    fieldsV1: ${form === "flow" ? deep : `\n${indent(deep, "      ")}`}`;
  }
}

function indent(text: string, by: string): string {
  return text
    .split("\n")
    .map((l) => (l === "" ? l : by + l))
    .join("\n");
}

/** Anchors and aliases: a "billion laughs" expansion, self-reference, merge keys. */
function yamlAliases(rng: Rng): string {
  const levels = rng.range(1, 10);
  const fan = rng.range(2, 10);
  const lines = [
    `kind: ${rng.pick(["Ingress", "NetworkPolicy"])}`,
    `apiVersion: ${API}`,
    "metadata:",
    "  annotations:",
  ];
  lines.push(`    a0: &a0 ${rng.pick(['"x"', "[x, y]", "{k: v}"])}`);
  for (let i = 1; i <= levels; i++)
    lines.push(`    a${i}: &a${i} [${Array.from({ length: fan }, () => `*a${i - 1}`).join(", ")}]`);
  const r = rng.int(4);
  if (r === 1) lines.push("  labels: &l {a: b}", "  ownerReferences:", "  - <<: *l", "    name: x");
  if (r === 2) lines.push("  finalizers: &f [*f]");
  if (r === 3) lines.push(`spec: *a${levels}`);
  return lines.join("\n") + "\n";
}

// ------------------------------------------------------------------ the strategies

function s(name: string, target: TargetName, weight: number, generate: Strategy["generate"]): Strategy {
  return { name, target, weight, generate };
}

export const STRATEGIES: readonly Strategy[] = [
  // Enveloped protobuf objects: the decoder on the network path, so most of the weight.
  s("random-bytes", "decode", 4, (rng) => ({ data: randomBytes(rng), options: pbOptions(rng) })),
  s("random-after-head", "decode", 6, (rng) => {
    const { kind, apiVersion } = pickKind(rng);
    const r = rng.int(4);
    const tail = r === 3 ? randomFields(rng) : randomBytes(rng);
    let data: Uint8Array;
    if (r === 0) data = concat([Uint8Array.from(MAGIC), tail]);
    else if (r === 1) data = concat([Uint8Array.from(MAGIC), Uint8Array.from(ld(1, typeMeta(kind, apiVersion))), tail]);
    else data = envelope(kind, tail, apiVersion);
    return { data, options: pbOptions(rng) };
  }),
  s("fixture-bytes", "decode", 14, (rng, c) => ({
    data: mutateBytes(rng, rng.pick(c.pb), rng.range(1, 8)),
    options: pbOptions(rng),
  })),
  s("fixture-truncate", "decode", 5, (rng, c) => {
    const doc = seedDoc(rng, c);
    const at = rng.chance(0.85) ? rng.pick(truncationPoints(doc)) : rng.int(doc.bytes.length + 1);
    let data: Uint8Array = doc.bytes.slice(0, at);
    if (rng.chance(0.1)) data = mutateBytes(rng, data, 1);
    return { data, options: pbOptions(rng) };
  }),
  s("fixture-splice", "decode", 5, (rng, c) => {
    const a = seedDoc(rng, c);
    const data = rng.chance(0.6)
      ? spliceDocs(rng, a, seedDoc(rng, c))
      : mutateStructure(rng, a, rng.range(1, 3), donors(rng, c), ["insert", "value", "repeat"]);
    return { data, options: pbOptions(rng) };
  }),
  s("fixture-structure", "decode", 16, (rng, c) => ({
    data: mutateStructure(rng, seedDoc(rng, c), rng.range(1, 3), donors(rng, c)),
    options: pbOptions(rng),
  })),
  s("huge-length", "decode", 4, (rng, c) => {
    const ops = rng.chance(0.7) ? (["huge-length"] as const) : (["huge-length", "overlong-length", "length"] as const);
    return { data: mutateStructure(rng, seedDoc(rng, c), rng.range(1, 2), [], ops), options: pbOptions(rng) };
  }),
  s("deep-nesting", "decode", 3, (rng) => ({ data: deepProtobuf(rng), options: pbOptions(rng) })),

  // Watch event bodies and length-prefixed streams.
  s("random-bytes", "watch-event", 1, (rng) => ({
    data: rng.chance(0.5) ? randomBytes(rng) : randomFields(rng),
    options: pbOptions(rng),
  })),
  s("fixture-bytes", "watch-event", 4, (rng, c) => ({
    data: mutateBytes(rng, rng.pick(c.watchFrames), rng.range(1, 8)),
    options: pbOptions(rng),
  })),
  s("fixture-structure", "watch-event", 4, (rng, c) => {
    const doc = docOf(rng.pick(c.watchFrames));
    const r = rng.float();
    let data: Uint8Array;
    if (r < 0.1) data = concat([doc.bytes, Uint8Array.from(tag(3, WT.SGROUP)), deepGroups(pickDepth(rng), 3, false)]);
    else if (r < 0.3) data = mutateStructure(rng, doc, 1, [], ["huge-length", "overlong-length", "length"]);
    else data = mutateStructure(rng, doc, rng.range(1, 3), donors(rng, c));
    return { data, options: pbOptions(rng) };
  }),
  s("frames", "watch-stream", 5, watchStream),
  s("random-bytes", "watch-stream", 1, (rng) => ({ data: chunk(rng, randomBytes(rng)), options: watchOptions(rng) })),
  s("large-event", "watch-stream", 0.005, (rng) => ({ data: largeEventChunks(rng, "pb"), options: {} })),

  // Kubernetes JSON.
  s("fixture-text", "json", 6, (rng, c) => ({
    data: mutateText(rng, rng.pick(c.json), rng.range(1, 6), "json"),
    options: jsonOptions(rng),
  })),
  s("fixture-values", "json", 5, (rng, c) => {
    let t = mutateJsonValues(rng, rng.pick(c.json), rng.range(1, 3));
    if (rng.chance(0.2)) t = mutateText(rng, t, 1, "json");
    return { data: t, options: jsonOptions(rng) };
  }),
  s("generated", "json", 2, (rng) => {
    let t = renderJson(generateObject(rng));
    if (rng.chance(0.2)) t = mutateText(rng, t, rng.range(1, 3), "json");
    return { data: t, options: jsonOptions(rng) };
  }),
  s("deep-nesting", "json", 1.5, (rng) => ({ data: deepJsonInput(rng), options: jsonOptions(rng) })),
  s("tokens", "json", 1, (rng) => ({ data: jsonTokenSoup(rng), options: jsonOptions(rng) })),

  // JSON watch events and streams.
  s("fixture-events", "json-watch-event", 2, (rng, c) => {
    const r = rng.float();
    let t: string;
    if (r < 0.4) t = mutateJsonValues(rng, rng.pick(c.jsonEvents), rng.range(1, 3));
    else if (r < 0.8) t = mutateText(rng, rng.pick(c.jsonEvents), rng.range(1, 4), "json");
    else if (r < 0.95)
      t = `{"type":"${rng.pick(["ADDED", "ERROR", "BOOKMARK", "added", ""])}","object":${renderJson(generateObject(rng))}}`;
    else t = `{"type":"ADDED","object":${deepJsonInput(rng)}}`;
    return { data: t, options: jsonOptions(rng) };
  }),
  s("lines", "json-watch-stream", 1.5, jsonWatchStream),
  s("large-event", "json-watch-stream", 0.005, (rng) => ({ data: largeEventChunks(rng, "json"), options: {} })),

  // YAML costs 1-5 ms an input (50-100 times protobuf), so a small share.
  s("fixture-text", "yaml", 0.5, (rng, c) => {
    const base = rng.pick(c.yaml);
    const t = rng.chance(0.5)
      ? mutateText(rng, base, rng.range(1, 4), "yaml")
      : mutateYamlLines(rng, base, rng.range(1, 3));
    return { data: t, options: jsonOptions(rng) };
  }),
  s("generated", "yaml", 0.25, (rng) => {
    const docs = Array.from({ length: rng.chance(0.8) ? 1 : rng.range(2, 3) }, () =>
      renderYaml(rng, generateObject(rng)),
    );
    let t = docs.join("---\n");
    if (rng.chance(0.2)) t = mutateText(rng, t, rng.range(1, 3), "yaml");
    return { data: t, options: jsonOptions(rng) };
  }),
  s("deep-nesting", "yaml", 0.05, (rng) => ({ data: deepYamlInput(rng), options: jsonOptions(rng) })),
  s("aliases", "yaml", 0.1, (rng) => ({ data: yamlAliases(rng), options: jsonOptions(rng) })),
  s("tokens", "yaml", 0.1, (rng) => ({ data: yamlTokenSoup(rng), options: jsonOptions(rng) })),
];

/** `strategy/target`, the key a strategy is known by on the command line and in reports. */
export function strategyKey(s: Strategy): string {
  return `${s.name}/${s.target}`;
}
