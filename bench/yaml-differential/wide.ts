/**
 * The wider YAML surface of the differential generator (issue 17): spellings
 * real manifests and hostile users produce that the first generator did not
 * write. Tags (with `%TAG` handles and `%xx` escapes), anchors and tags in both
 * orders, YAML 1.1 spellings of numbers, booleans, nulls and timestamps in
 * string and int fields, odd and over-long keys, deep nesting, compact
 * sequences, plain scalars carrying indicator characters, multi-line plain
 * scalars, every double-quoted escape (and invalid ones, surrogates among
 * them), `''`, empty values. Each function is a pure function of its choices,
 * so a rendering stays a function of its seed. Every text is a well-formed
 * string (valid UTF-8 once encoded): surrogates appear only as escapes.
 */

/** The choices the wider surface draws from (the generator's `Choices`). */
export interface Chooser {
  chance(p: number): boolean;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

/** The features of the wider surface, for reports and the generator's rate tests. */
export type WideFeature =
  | "doc-end-text"
  | "tag-directive"
  | "tag"
  | "tag-anchor"
  | "alias-collection"
  | "merge-list"
  | "yaml11-string"
  | "yaml11-int"
  | "odd-key"
  | "long-key"
  | "deep"
  | "empty"
  | "comment-position"
  | "plain-indicator"
  | "plain-multiline"
  | "escape-full"
  | "surrogate"
  | "single-quote-escape"
  | "trailing-whitespace"
  | "tab-flow"
  | "cr"
  | "seq-indent"
  | "compact"
  | "flow-explicit"
  | "json-style"
  | "bom-middle"
  | "extra-annotation";

export const WIDE_FEATURES: readonly WideFeature[] = [
  "doc-end-text",
  "tag-directive",
  "tag",
  "tag-anchor",
  "alias-collection",
  "merge-list",
  "yaml11-string",
  "yaml11-int",
  "odd-key",
  "long-key",
  "deep",
  "empty",
  "comment-position",
  "plain-indicator",
  "plain-multiline",
  "escape-full",
  "surrogate",
  "single-quote-escape",
  "trailing-whitespace",
  "tab-flow",
  "cr",
  "seq-indent",
  "compact",
  "flow-explicit",
  "json-style",
  "bom-middle",
  "extra-annotation",
];

export type Note = (f: WideFeature) => void;

/** YAML 1.1 spellings go-yaml v2 resolves to non-strings (or nearly does), written where a string belongs. */
export const YAML11_SPELLINGS: readonly string[] = [
  "0x1F",
  "0o17",
  "017",
  "0b101",
  "1_000",
  "1:20",
  "190:20:30.15",
  "+12",
  "-12",
  ".5",
  "1e3",
  "1E3",
  "1.5e+3",
  ".inf",
  "-.Inf",
  "+.INF",
  ".NaN",
  ".nan",
  "~",
  "Null",
  "NULL",
  "y",
  "Y",
  "n",
  "yes",
  "No",
  "on",
  "OFF",
  "True",
  "2001-12-14t21:59:43.10-05:00",
  "2001-12-14 21:59:43.10 -5",
  "2001-12-15T02:59:43.1Z",
  "2002-12-14",
  "08",
  "0_1",
  "1__0",
  "0x_1F",
  "._5",
];

/** Keys that are not plain strings: numbers, booleans, nulls, floats, quoted and not. */
export const ODD_KEYS: readonly string[] = [
  "1",
  '"2"',
  "'3'",
  "0x1F",
  "0o17",
  "017",
  "1_000",
  "1:20",
  "+12",
  "-1",
  "0",
  ".5",
  "1e3",
  "1.5",
  ".inf",
  "-.Inf",
  ".NaN",
  "true",
  '"true"',
  "yes",
  "on",
  "OFF",
  "y",
  "n",
  "~",
  "null",
  "Null",
  '""',
  "2001-12-14",
  "!!str 5",
  '!!int "6"',
  "!!float 7",
  "!!null ''",
];

/** Double-quoted escapes: YAML's full list, then invalid ones. */
export const ESCAPES: readonly string[] = [
  "\\0",
  "\\a",
  "\\b",
  "\\t",
  "\\\t",
  "\\n",
  "\\v",
  "\\f",
  "\\r",
  "\\e",
  "\\ ",
  '\\"',
  "\\\\",
  "\\/",
  "\\N",
  "\\_",
  "\\L",
  "\\P",
  "\\x41",
  "\\xe9",
  "\\u00e9",
  "\\u2028",
  "\\U0001F600",
  "\\U0000004A",
  // invalid
  "\\q",
  "\\'",
  "\\x4",
  "\\xZZ",
  "\\u12",
  "\\u12G4",
  "\\U00110000",
  "\\U0000",
];

/** Escapes of UTF-16 surrogates (go-yaml refuses each), and the valid neighbours. */
export const SURROGATES: readonly string[] = [
  "\\ud800",
  "\\udc00",
  "\\udfff",
  "\\ud83d\\ude00",
  "\\U0000d800",
  "\\uD7FF",
  "\\uE000",
  "\\U0001F600",
];

const INDICATORS: readonly ((v: string) => string)[] = [
  (v) => `${v}#x`,
  (v) => `${v} #x`,
  (v) => `${v}: x`,
  (v) => `${v}:x`,
  (v) => `${v}:`,
  (v) => `:${v}`,
  (v) => `-${v}`,
  (v) => `- ${v}`,
  (v) => `?${v}`,
  (v) => `? ${v}`,
  (v) => `${v},x`,
  (v) => `${v}, x`,
  (v) => `[${v}`,
  (v) => `${v}]`,
  (v) => `${v}[x]`,
  (v) => `{${v}`,
  (v) => `${v}}`,
  (v) => `${v}{x}`,
  (v) => `%${v}`,
  (v) => `${v}%20`,
  (v) => `@${v}`,
  (v) => `\`${v}`,
  (v) => `${v}\`x\``,
  (v) => `!${v}`,
  (v) => `&${v}`,
  (v) => `*${v}`,
  (v) => `|${v}`,
  (v) => `>${v}`,
  (v) => `${v}'s`,
  (v) => `${v}"x"`,
];

/** A word that is safe as the plain head of a hostile scalar. */
function word(v: string): string {
  return /^[A-Za-z][A-Za-z0-9_.-]{0,40}$/.test(v) ? v : "text";
}

function base64(s: string): string {
  return Buffer.from(s, "utf8").toString("base64");
}

/** An explicit tag on a scalar, valid or not; `handle` allows the `!e!` handle a `%TAG` directive declared. */
function tagged(v: string, c: Chooser, pad: string, handle: boolean): string {
  const q = JSON.stringify(v);
  const forms = [
    `!!str ${q}`,
    `!!str ${word(v)}`,
    "!!str",
    "!!str 80",
    "!!str true",
    `!!int ${q}`,
    "!!int 12",
    '!!int "0x1F"',
    "!!float 1",
    "!!float .5",
    "!!bool yes",
    "!!bool 1",
    "!!null",
    "!!null ~",
    `!!null ${q}`,
    `!!binary ${base64(v)}`,
    `!!binary "${base64(v)}"`,
    `!!binary |\n${pad}${base64(v)}`,
    "!!binary aGVsbG8",
    "!!binary a b",
    "!!binary !!!!",
    `!local ${q}`,
    `!local ${word(v)}`,
    `! ${q}`,
    `! ${word(v)}`,
    `!<tag:yaml.org,2002:str> ${q}`,
    "!<tag:yaml.org,2002:int> 7",
    `!<!local> ${q}`,
    `!!%73tr ${q}`,
    "!<tag:yaml.org,2002:%69nt> 7",
    `!%6Cocal ${q}`,
    `!x%2 ${q}`,
    `!x%zz ${q}`,
    `!!map ${q}`,
    `!!seq ${q}`,
    `!!timestamp ${q}`,
    "!!timestamp 2001-12-14",
  ];
  if (handle) forms.push(`!e!str ${q}`, "!e!int 3", `!e!foo ${q}`, `!e!x%21 ${q}`, `!f!str ${q}`);
  return c.pick(forms);
}

/** A scalar with a tag and an anchor, in either order. */
function taggedAnchored(v: string, c: Chooser): string {
  const name = `t${c.int(100000)}`;
  const tag = c.pick(["!!str", "!local", "!", "!<tag:yaml.org,2002:str>"]);
  const q = c.chance(0.5) ? JSON.stringify(v) : word(v);
  return c.chance(0.5) ? `&${name} ${tag} ${q}` : `${tag} &${name} ${q}`;
}

/** A plain scalar folded over lines, with blank lines, its continuations at various columns. */
function plainMultiline(v: string, c: Chooser, indent: number, inFlow: boolean): string {
  const col = (): string => " ".repeat(c.pick([indent, indent + 1, indent + 4, Math.max(0, indent - 1), 0]));
  const head = word(v);
  const lines = [head];
  const n = 1 + c.int(3);
  for (let i = 0; i < n; i++) {
    if (c.chance(0.3)) lines.push("");
    lines.push(`${col()}${c.pick(["more words", "x", "y: z", "- item", "tail #c", "a#b", "next"])}`);
  }
  return inFlow ? `${lines.join("\n")}` : lines.join("\n");
}

function escaped(v: string, c: Chooser, pad: string): string {
  const body = JSON.stringify(v).slice(1, -1);
  // At either end only, so that the new escape never splits one JSON wrote.
  const at = c.chance(0.5) ? 0 : body.length;
  const e = c.chance(0.2)
    ? c.pick([`\\\n${pad}  `, "\\\n", `\\\n\n${pad}`, `\\\r\n${pad}`, "\\\u0085", "\\ \n"])
    : c.pick(ESCAPES);
  return `"${body.slice(0, at)}${e}${body.slice(at)}"`;
}

function singleQuoteEscape(v: string, c: Chooser): string {
  const w = word(v);
  return c.pick([`'${w}''s'`, "''''", `'''${w}'''`, `'${w}'' ''x'`, `'${w}''`, `'it''s\n${"  "}x'`, "'a''b'''"]);
}

/**
 * A hostile spelling for a string value, written after `key: ` (block) or
 * inside a flow collection; `indent` is the column its continuation lines
 * belong at. "" means an empty value.
 */
export function wideString(
  v: string,
  c: Chooser,
  note: Note,
  indent: number,
  inFlow: boolean,
  handle: boolean,
): string {
  const pad = " ".repeat(indent);
  const kinds: WideFeature[] = [
    "yaml11-string",
    "tag",
    "tag-anchor",
    "plain-indicator",
    "plain-multiline",
    "escape-full",
    "surrogate",
    "single-quote-escape",
    "empty",
  ];
  if (!inFlow) kinds.push("comment-position");
  const kind = c.pick(kinds);
  note(kind);
  switch (kind) {
    case "yaml11-string":
      return c.pick(YAML11_SPELLINGS);
    case "tag":
      return tagged(v, c, pad, handle);
    case "tag-anchor":
      return taggedAnchored(v, c);
    case "plain-indicator":
      return c.pick(INDICATORS)(word(v));
    case "plain-multiline":
      return plainMultiline(v, c, indent, inFlow);
    case "escape-full":
      return escaped(v, c, pad);
    case "surrogate":
      return `"${word(v)}${c.pick(SURROGATES)}"`;
    case "single-quote-escape":
      return singleQuoteEscape(v, c);
    case "empty":
      return inFlow ? c.pick(['""', "''", "!!null", "~"]) : c.pick(["", '""', "''", "# c", "!!null", "!!str"]);
    default:
      return c.pick([
        `# c\n${pad}${JSON.stringify(v)}`,
        `#c\n${pad}${word(v)}`,
        `\n${pad}# c\n${pad}${JSON.stringify(v)}`,
      ]);
  }
}

/** YAML 1.1 spellings of a non-negative integer (or of something near it) for an int field. */
export function wideInt(v: number, c: Chooser, note: Note): string {
  const d = String(v);
  const forms = [
    `0x${v.toString(16)}`,
    `0X${v.toString(16).toUpperCase()}`,
    `-0x${v.toString(16)}`,
    `0o${v.toString(8)}`,
    `0${v.toString(8)}`,
    `0b${v.toString(2)}`,
    d.length > 1 ? `${d.slice(0, 1)}_${d.slice(1)}` : `${d}_`,
    `${Math.floor(v / 60)}:${String(v % 60).padStart(2, "0")}`,
    `+${d}`,
    `${d}.0`,
    `${d}e0`,
    `${d}.`,
    ".5",
    "1e3",
    ".inf",
    "-.Inf",
    ".NaN",
    "~",
    "Null",
    "yes",
    `0${d}`,
    "08",
    "09",
    `"${d}"`,
  ];
  if (c.chance(0.25)) {
    note("tag");
    return c.pick([`!!int ${d}`, `!!int "${d}"`, `!!str ${d}`, `!!float ${d}`, `!!int 0x${v.toString(16)}`, `! ${d}`]);
  }
  note("yaml11-int");
  return c.pick(forms);
}

/** A hostile spelling of a boolean or null value. */
export function wideOther(v: boolean | null, c: Chooser, note: Note): string {
  note(c.chance(0.5) ? "tag" : "yaml11-string");
  if (v === null) return c.pick(["!!null", "!!null ~", "!!null null", '!!null ""', "NULL", "Null", "~"]);
  return c.pick(
    v
      ? ["!!bool true", "!!bool yes", "!!bool on", "!!bool 1", "!!str true", "Yes", "oN", "Y", "tRUE"]
      : ["!!bool false", "!!bool no", "!!bool off", "!!bool 0", "!!str false", "NO", "oFF", "N", "fALSE"],
  );
}

/** An extra `key: value` line for a string-to-string map (labels, annotations): an odd or over-long key. */
export function oddEntry(c: Chooser, note: Note, pad: string): string {
  if (c.chance(0.2)) {
    note("long-key");
    const n = c.pick([1000, 1020, 1022, 1023, 1024, 1025, 1026, 1030, 1100]);
    const key = c.chance(0.2) ? "é".repeat(Math.floor(n / 2)) : "k".repeat(n);
    const k = c.chance(0.2) ? JSON.stringify(key) : key;
    return `${pad}${k}: v`;
  }
  note("odd-key");
  return `${pad}${c.pick(ODD_KEYS)}: v`;
}

/** An unknown top-level field nested near 100 levels deep, in block, flow or compact style. */
export function deepField(c: Chooser, note: Note): string {
  note("deep");
  const depth = 94 + c.int(12);
  switch (c.int(4)) {
    case 0: {
      const lines = ["x:"];
      for (let i = 1; i < depth; i++) lines.push(`${" ".repeat(i)}a:`);
      lines.push(`${" ".repeat(depth)}v`);
      return lines.join("\n");
    }
    case 1:
      return `x: ${"[".repeat(depth)}1${"]".repeat(depth)}`;
    case 2:
      return `x: ${"{a: ".repeat(depth)}1${"}".repeat(depth)}`;
    default:
      note("compact");
      return `x:\n${"- ".repeat(depth)}v`;
  }
}

/** An unknown top-level field holding compact nested sequences and compact mappings. */
export function compactField(c: Chooser, note: Note): string {
  note("compact");
  return c
    .pick([
      "x:\n- - a\n  - b\n- - - c\n    - d\n",
      "x:\n- - a\n- k: v\n  j: w\n- - k: v\n    j: w\n",
      "x:\n  - - a\n    - b\n  -   - c\n      - d\n",
      "x:\n- -\n  - a\n-\n  - b\n",
      "x:\n- - a\n - b\n",
      "x:\n- ? a\n  : b\n- - ? c\n    : d\n",
    ])
    .trimEnd();
}

/** Text after a `...` document end marker. */
export function docEndTail(c: Chooser, note: Note): string {
  note("doc-end-text");
  return c.pick([
    "...",
    "... # end",
    "...\n# after",
    "...\nx: 1",
    "... x",
    "...\n...",
    "...\n---\nx: 1",
    "...\n%YAML 1.1\n---\nx: 1",
    "...\n\n",
    "...\t",
  ]);
}

/** An empty document (or two) before a document. */
export function emptyDocuments(c: Chooser, note: Note): string {
  note("empty");
  return c.pick([
    "---\n",
    "---\n---\n",
    "--- # nothing\n",
    "---\n# only a comment\n",
    "---\n...\n",
    "--- ~\n",
    "---\n\n",
  ]);
}

/** A `%TAG` directive declaring the `!e!` handle (or redefining `!` or `!!`). */
export function tagDirective(c: Chooser, note: Note): string {
  note("tag-directive");
  return c.pick([
    "%TAG !e! tag:yaml.org,2002:",
    "%TAG !e! tag:example.com,2000:app/",
    "%TAG !e! !",
    "%TAG ! tag:example.com,2000:",
    "%TAG !! tag:example.com,2000:",
    "%TAG !e! tag:yaml.org,2002:\n%TAG !e! tag:example.com,2000:",
  ]);
}
