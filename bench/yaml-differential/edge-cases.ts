/**
 * Hand-written YAML texts for the differential's golden file
 * (test/support/golden/yaml-differential.json): a few per area of go-yaml v2
 * where a reader written from the YAML spec, rather than from go-yaml's rules,
 * is likely to differ. Most sit inside a networking object, so that a
 * difference shows in the object (a text that is no networking object is an
 * error on both sides, which the differential counts as agreement). What Go
 * makes of each one is not written here: `npm run yaml-golden` asks the
 * oracle and stores its answer beside the text.
 */

export interface EdgeCase {
  /** `<area>: <what>`, unique. */
  readonly name: string;
  readonly text: string;
}

const HEAD = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: edge\n";

/** An Ingress whose annotation `note` is `value` written after `note:` (a string map: scalars stay strings or fail). */
const note = (value: string): string => `${HEAD}  annotations:\n    note: ${value}`;

/** A NetworkPolicy whose first ingress port is `value` (an IntOrString: numbers and strings both read). */
const port = (value: string): string =>
  `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: edge\nspec:\n  podSelector: {}\n  ingress:\n  - ports:\n    - port: ${value}\n`;

/** An Ingress with one annotation whose key is written `key`. */
const annotationKey = (key: string): string => `${HEAD}  annotations:\n    ${key}: v\n`;

const LONG = "k".repeat(1030);

const AREAS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "block scalar": {
    "literal at end of input": note("|\n      a\n      b"),
    "folded at end of input": note(">\n      a\n      b"),
    "keep at end of input": note("|+\n      a\n\n"),
    "strip then document end": `${note("|-\n      a\n")}...\n`,
    "header then end of input": note("|"),
    "header with comment": `${note("| # c\n      a\n")}`,
    "header followed by #": `${note("|#\n      a\n")}`,
    "indentation indicator": note("|2\n       a\n      b\n"),
    "more-indented folded lines": note(">\n      a\n        b\n      c\n"),
    "tab in content": note("|\n      a\tb\n"),
  },
  "line breaks": {
    "CRLF everywhere": `${HEAD}  annotations:\n    note: |\n      a\n      b\n`.replaceAll("\n", "\r\n"),
    "CRLF without a final break": `${HEAD}  annotations:\n    note: x`.replaceAll("\n", "\r\n"),
    "mixed CRLF and LF": `${HEAD.replaceAll("\n", "\r\n")}  annotations:\n    note: x\n`,
    "lone CR inside a plain scalar": note("a\rb\n"),
    "lone CR at end": note("x\r"),
    "CRLF inside a double-quoted scalar": note('"a\r\n      b"\r\n'),
    "NEL between lines": `${HEAD}  annotations:\u0085    note: x\n`,
    "NEL inside a plain scalar": note("a\u0085b\n"),
    "LS inside a plain scalar": note("a\u2028b\n"),
    "PS inside a plain scalar": note("a\u2029b\n"),
    "LS inside a double-quoted scalar": note('"a\u2028b"\n'),
    "LS at the start of a line": `${HEAD}\u2028  annotations:\n    note: x\n`,
    "PS then a document": `\u2029${HEAD}`,
    "NEL before a separator": `${HEAD}\u0085---\n${HEAD}`,
  },
  "byte order mark": {
    "BOM at the start": `\ufeff${HEAD}`,
    "BOM then separator": `\ufeff---\n${HEAD}`,
    "BOM before the second document": `${HEAD}---\n\ufeff${HEAD}`,
    "BOM inside a value": note("a\ufeffb\n"),
  },
  tabs: {
    "tab after key colon": `${HEAD}  annotations:\n    note:\tx\n`,
    "tab before a flow mapping": `${HEAD}  annotations:\t{note: x}\n`,
    "tab indentation": `${HEAD}  annotations:\n\tnote: x\n`,
    "tab after a sequence dash": `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: edge\nspec:\n  podSelector: {}\n  policyTypes:\n  -\tIngress\n`,
    "tab before a comment": note("x\t# c\n"),
    "tab after separator": `---\t\n${HEAD}`,
  },
  "flow collections": {
    "mapping over lines": `${HEAD}  annotations: {a: x,\n    b: y}\n`,
    "mapping continued at column 0": `${HEAD}  annotations: {a: x,\nb: y}\n`,
    "sequence over lines at column 0": `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: edge\nspec:\n  podSelector: {}\n  policyTypes: [\nIngress,\nEgress]\n`,
    "trailing comma": `${HEAD}  annotations: {a: x, b: y,}\n`,
    "question mark in a flow plain scalar": `${HEAD}  annotations: {path: /?q=1}\n`,
    "empty value": `${HEAD}  annotations: {a: , b: y}\n`,
    "key without value": `${HEAD}  annotations: {a, b: y}\n`,
    "colon without space": `${HEAD}  annotations: {a:x}\n`,
    "quoted key colon adjacent": `${HEAD}  annotations: {"a":x}\n`,
    "nested flow in block sequence": `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: edge\nspec:\n  podSelector: {matchLabels: {app: [x][0]}}\n`,
    "whole object in flow": `{apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {name: edge}}`,
  },
  "anchors and merge keys": {
    "alias of a scalar": `${HEAD}  labels:\n    a: &v x\n  annotations:\n    b: *v\n`,
    "merge a mapping": `${HEAD}  labels: &l\n    app: web\n  annotations:\n    <<: *l\n    note: x\n`,
    "merge a list of mappings": `${HEAD}  labels: &l\n    app: web\n  namespace: &n\n    x: y\n  annotations:\n    <<: [*l, {other: z}]\n`,
    "merge key overridden": `${HEAD}  labels: &l\n    app: web\n  annotations:\n    app: mine\n    <<: *l\n`,
    "anchor name with colon": `${HEAD}  annotations:\n    note: &a: x\n`,
    "anchor name with plus": `${HEAD}  annotations:\n    note: &+ x\n`,
    "anchor name with dot": `${HEAD}  annotations:\n    note: &a.b x\n`,
    "anchor name with non-ASCII": `${HEAD}  annotations:\n    note: &é x\n`,
    "undefined alias": `${HEAD}  annotations:\n    note: *nothing\n`,
    "alias as a key": `${HEAD}  labels:\n    a: &k key\n  annotations:\n    *k : v\n`,
    "anchor without node": `${HEAD}  annotations:\n    note: &a\n`,
  },
  directives: {
    "%YAML 1.1 then document": `%YAML 1.1\n---\n${HEAD}`,
    "%YAML 1.2 then document": `%YAML 1.2\n---\n${HEAD}`,
    "%YAML without a separator": `%YAML 1.1\n${HEAD}`,
    "%TAG then a tagged value": `%TAG !e! tag:example.com,2000:\n---\n${HEAD}  annotations:\n    note: !e!x y\n`,
    "unknown directive": `%FOO bar\n---\n${HEAD}`,
    "directive after content": `${HEAD}%YAML 1.1\n`,
    "two %YAML directives": `%YAML 1.1\n%YAML 1.1\n---\n${HEAD}`,
  },
  "document markers": {
    "document end marker": `${HEAD}...\n`,
    "document end without break": `${HEAD}...`,
    "document end then another": `${HEAD}...\n---\n${HEAD}`,
    "separator with comment": `--- # first\n${HEAD}--- # second\n${HEAD}`,
    "separator with content": `--- ${HEAD}`,
    "separator with a scalar": `--- x\n${HEAD}`,
    "separator indented": `${HEAD}  ---\n`,
    "separator only": "---\n",
    "separators only": "---\n---\n---",
    "empty text": "",
    "only a comment": "# nothing\n",
    "null document": "--- null\n",
    "separator without break at end": `${HEAD}---`,
    "four dashes": `----\n${HEAD}`,
  },
  "long keys": {
    "simple key over 1024 characters": annotationKey(LONG),
    "quoted key over 1024 characters": annotationKey(`"${LONG}"`),
    "explicit key over 1024 characters": `${HEAD}  annotations:\n    ? ${LONG}\n    : v\n`,
    "simple key of 1023 characters": annotationKey("k".repeat(1023)),
    "flow key over 1024 characters": `${HEAD}  annotations: {${LONG}: v}\n`,
  },
  "YAML 1.1 numbers and booleans": {
    "octal 0o": port("0o120"),
    "octal leading zero": port("0120"),
    hex: port("0x50"),
    binary: port("0b1010000"),
    underscores: port("8_0"),
    "plus sign": port("+80"),
    sexagesimal: port("1:20"),
    float: port("80.0"),
    exponent: port("8e1"),
    "dot inf": port(".inf"),
    "yes as a key": annotationKey("yes"),
    "on as a key": annotationKey("on"),
    "y as a key": annotationKey("y"),
    "null as a key": annotationKey("~"),
    "number as a key": annotationKey("0x10"),
    "yes as a value": note("yes\n"),
    "Off as a value": note("Off\n"),
    "quoted yes": note('"yes"\n'),
    "timestamp as a value": note("2001-12-14t21:59:43.10-05:00\n"),
    "date as a value": note("2002-12-14\n"),
    "timestamp as a key": annotationKey("2001-12-14"),
  },
  "tags and binary": {
    "!!binary value": note("!!binary aGVsbG8=\n"),
    "!!binary block": note("!!binary |\n      aGVs\n      bG8=\n"),
    "!!str of a number": port("!!str 80"),
    "!!int of a string": port('!!int "80"'),
    "!!float port": port("!!float 80"),
    "unknown local tag": note("!foo x\n"),
    "verbatim tag": note("!<tag:yaml.org,2002:str> x\n"),
    "!!null value": note("!!null x\n"),
    "!!bool value": note("!!bool yes\n"),
    "!!binary invalid": note("!!binary ***\n"),
  },
  "duplicate keys": {
    "repeated annotation": `${HEAD}  annotations:\n    a: x\n    a: y\n`,
    "repeated top-level field": `${HEAD}kind: Ingress\n`,
    "same key written two ways": `${HEAD}  annotations:\n    a: x\n    "a": y\n`,
    "repeated key in flow": `${HEAD}  annotations: {a: x, a: y}\n`,
    "duplicate through merge": `${HEAD}  labels: &l\n    a: x\n  annotations:\n    <<: *l\n    a: y\n`,
    "yes and true as keys": `${HEAD}  annotations:\n    yes: a\n    true: b\n`,
  },
  "quoted scalars": {
    "escape slash": note('"a\\/b"\n'),
    "escape x": note('"\\x41"\n'),
    "escape U": note('"\\U0001F600"\n'),
    "escape N L P": note('"\\N\\L\\P"\n'),
    "escape underscore and space": note('"\\_\\ "\n'),
    "escaped line break": note('"a\\\n      b"\n'),
    "multi-line at key column": `${HEAD}  annotations:\n    note: "a\n    b"\n`,
    "multi-line left of key": `${HEAD}  annotations:\n    note: "a\n b"\n`,
    "single-quoted over lines": note("'a\n\n      b'\n"),
    "missing closing quote": note('"a\n'),
    "single quote doubled": note("'it''s'\n"),
  },
  // apimachinery's YAMLReader keeps a `---` line that has nothing gathered
  // before it (the stream's first, or one right after another) at the start
  // of the next piece, and drops the others; go-yaml then reads it as a
  // document start. What follows it shows whether a reader kept it.
  "kept separator": {
    "BOM after the first separator": `---\n\ufeff${HEAD}`,
    "BOM on an unknown field after the first separator": `---\n\ufeffx: 1\n${HEAD}`,
    "BOM after two separators in a row": `${HEAD}---\n---\n\ufeffx: 1\n${HEAD}`,
    "BOM after a separator that ends a document": `${HEAD}---\n\ufeffx: 1\n${HEAD}`,
    "BOM before the first separator": `\ufeff---\n${HEAD}`,
    "first separator and CR-only lines": `--- # c\r${HEAD.replace(/\n/g, "\r")}`,
    "first separator then content after a CR": `---\r${HEAD.replace(/\n/g, "\r")}`,
    "second separator in a row and CR-only lines": `${HEAD}---\n--- # c\r${HEAD.replace(/\n/g, "\r")}`,
    "separator that ends a document, CR-only lines after it": `${HEAD}--- # c\r${HEAD.replace(/\n/g, "\r")}`,
    "CR-only stream after the first separator, with a second separator": `--- #\r${HEAD.replace(/\n/g, "\r")}---\r`,
    "document end after the first separator": `---\n...\n---\n${HEAD}`,
    "comment piece between separators": `---\n# c\n---\n${HEAD}`,
    "directive after the first separator": `---\n%YAML 1.1\n---\n${HEAD}`,
    "block scalar at the end after the first separator": `---\n${HEAD}  annotations:\n    note: |+\n      a\n`,
  },
  comments: {
    "comment without space": note("x#y\n"),
    "comment after quoted": note('"x"# c\n'),
    "comment line between entries": `${HEAD}  annotations:\n# c\n    note: x\n`,
    "comment after separator": `---# c\n${HEAD}`,
  },
};

/** Every edge case, `<area>: <what>`, in a fixed order. */
export const EDGE_CASES: readonly EdgeCase[] = Object.entries(AREAS).flatMap(([area, cases]) =>
  Object.entries(cases).map(([what, text]) => ({ name: `${area}: ${what}`, text })),
);
