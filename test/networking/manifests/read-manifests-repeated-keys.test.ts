import { describe, expect, it } from "vitest";
import { readManifests, type ManifestEntry } from "../../../src/networking/index.js";

// A key repeated in one mapping. kubectl reads a file it applies non-strictly (sigs.k8s.io/yaml's
// YAMLToJSON, Go's encoding/json) and sends the last value, so the API server never sees the
// repeat: in the kubectl reading it is a warning, never the verdict. Read as one request body (the
// "server" reading) it is the API server's strict decoding error, as before.

const SENDS_LAST = "kubectl sends the last value";

const classYaml = (name: string, spec: string, meta = ""): string =>
  `apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: ${name}\n${meta}spec:\n${spec}`;

/** Two controllers: the first not a domain-prefixed path, the last one valid. */
const YAML = classYaml("dup", '  controller: "c d"\n  controller: example.com/ingress\n');

const classJson = (members: string): string => `{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass",${members}}`;
const JSON_TEXT = classJson(
  '"metadata":{"name":"a","name":"b"},"spec":{"controller":"c d","controller":"example.com/x"}',
);

function summary(e: ManifestEntry | undefined): unknown {
  if (e?.type === "object") {
    const o = e.object as { metadata?: { name?: string }; spec?: { controller?: string } };
    return { type: e.type, name: o.metadata?.name, controller: o.spec?.controller, warnings: e.warnings };
  }
  return e?.type === "error" ? { type: e.type, line: e.line, column: e.column, reason: e.error.reason } : e;
}

describe("readManifests: a repeated key in the kubectl reading (the default)", () => {
  it("YAML: the last value is decoded, the repeat a warning at its line, under Strict and Warn", () => {
    for (const fieldValidation of [undefined, "Strict", "Warn"] as const) {
      const options = fieldValidation === undefined ? {} : { fieldValidation };
      expect(readManifests(YAML, options).map(summary), fieldValidation).toEqual([
        {
          type: "object",
          name: "dup",
          controller: "example.com/ingress",
          warnings: [
            { message: `key "controller" already set in map; ${SENDS_LAST}`, position: { line: 7, column: 3 } },
          ],
        },
      ]);
    }
  });

  it("YAML: every repeat is named, a whole repeated mapping replaced by the last", () => {
    const text = classYaml(
      "first",
      "  controller: a.io/x\n  controller: b.io/y\n",
      "  labels: {a: one, a: two}\nmetadata:\n  name: last\n",
    );
    const [entry] = readManifests(text);
    expect(summary(entry)).toEqual({
      type: "object",
      name: "last",
      controller: "b.io/y",
      warnings: [
        { message: `key "a" already set in map; ${SENDS_LAST}`, position: { line: 5, column: 20 } },
        { message: `key "metadata" already set in map; ${SENDS_LAST}`, position: { line: 6, column: 1 } },
        { message: `key "controller" already set in map; ${SENDS_LAST}`, position: { line: 10, column: 3 } },
      ],
    });
  });

  it("a stream: each document has its own warnings, and the last value is what is checked", () => {
    const text = [
      classYaml("s1", "  controller: example.com/ingress\n"),
      classYaml("s2", "  controller: example.com/ingress\n", "  name: s2b\n"),
      classYaml("s3", "  controller: example.com/ingress\n  controller: 3\n"),
    ].join("---\n");
    expect(readManifests(text).map(summary)).toEqual([
      { type: "object", name: "s1", controller: "example.com/ingress", warnings: [] },
      {
        type: "object",
        name: "s2b",
        controller: "example.com/ingress",
        warnings: [{ message: `key "name" already set in map; ${SENDS_LAST}`, position: { line: 12, column: 3 } }],
      },
      // The last value is a number: the decoder's error, as the API server gives it for what kubectl sends.
      {
        type: "error",
        line: 22,
        column: 15,
        reason: "json: cannot unmarshal number into Go struct field IngressClassSpec.spec.controller of type string",
      },
    ]);
  });

  it("a List: each repeat is the warning of the item that holds it", () => {
    const item = (name: string, spec: string): string =>
      classYaml(name, spec)
        .split("\n")
        .map((l, i) => (l === "" ? l : `${i === 0 ? "- " : "  "}${l}`))
        .join("\n");
    const text = `apiVersion: v1\nkind: List\nitems:\n${item("l1", "  controller: a.io/x\n  controller: b.io/y\n")}${item("l2", "  controller: c.io/z\n")}${item("l3", "  controller: c.io/z\n  controller: d.io/w\n")}`;
    expect(
      readManifests(text).map((e) => (e.type === "object" ? [e.item, e.warnings.map((w) => w.position)] : e)),
    ).toEqual([
      [0, [{ line: 10, column: 5 }]],
      [1, []],
      [2, [{ line: 23, column: 5 }]],
    ]);
  });

  it("an unknown field stays a strict decoding error (the API server sees it); the repeat is not listed in it", () => {
    const [entry] = readManifests(classYaml("u", "  controller: a.io/x\n  controller: b.io/y\n  controllr: x\n"));
    expect(summary(entry)).toEqual({
      type: "error",
      line: 8,
      column: 14,
      reason: 'strict decoding error: unknown field "spec.controllr"',
    });
    const [json] = readManifests(classJson('"metadata":{"name":"a","name":"b"},"spec":{"controller":"a.io/x","x":1}'));
    expect(json?.type === "error" ? json.error.reason : json).toBe('strict decoding error: unknown field "spec.x"');
  });

  it("JSON: the last value is decoded, each repeat a warning with its field and place; several values in one text", () => {
    const second = classJson('"metadata":{"name":"c"},"spec":{"controller":"example.com/x","controller":"c d"}');
    const text = `${JSON_TEXT}\n${second}\n`;
    for (const fieldValidation of ["Strict", "Warn"] as const) {
      const [first, next] = readManifests(text, { fieldValidation });
      const column = (t: string, at: string): number => t.indexOf(at) + 1;
      expect(summary(first)).toEqual({
        type: "object",
        name: "b",
        controller: "example.com/x",
        warnings: [
          {
            message: `duplicate field "metadata.name"; ${SENDS_LAST}`,
            field: "metadata.name",
            position: { line: 1, column: column(JSON_TEXT, '"b"') },
          },
          {
            message: `duplicate field "spec.controller"; ${SENDS_LAST}`,
            field: "spec.controller",
            position: { line: 1, column: column(JSON_TEXT, '"example.com/x"') },
          },
        ],
      });
      // Decoded with "c d", the last value; validation (not reading) refuses it.
      expect(summary(next)).toMatchObject({ type: "object", controller: "c d" });
    }
  });

  it("Ignore: the last value, without a word", () => {
    for (const text of [YAML, JSON_TEXT]) {
      const [entry] = readManifests(text, { fieldValidation: "Ignore" });
      expect(entry?.type === "object" ? entry.warnings : entry).toEqual([]);
    }
  });
});

describe('readManifests: a repeated key in the "server" reading (one request body) is unchanged', () => {
  it("Strict: the API server's strict decoding error", () => {
    expect(readManifests(YAML, { reading: "server" }).map(summary)).toEqual([
      { type: "error", line: 7, column: 3, reason: 'key "controller" already set in map' },
    ]);
    const [json] = readManifests(JSON_TEXT, { reading: "server" });
    expect(json?.type === "error" ? json.error.reason : json).toBe(
      'strict decoding error: duplicate field "metadata.name", duplicate field "spec.controller"',
    );
  });

  it("Warn: the API server's warning, the last value decoded", () => {
    const [yaml] = readManifests(YAML, { reading: "server", fieldValidation: "Warn" });
    expect(summary(yaml)).toEqual({
      type: "object",
      name: "dup",
      controller: "example.com/ingress",
      warnings: [{ message: 'key "controller" already set in map', position: { line: 7, column: 3 } }],
    });
    const [json] = readManifests(JSON_TEXT, { reading: "server", fieldValidation: "Warn" });
    expect(json?.type === "object" ? json.warnings.map((w) => w.message) : json).toEqual([
      'duplicate field "metadata.name"',
      'duplicate field "spec.controller"',
    ]);
  });
});
