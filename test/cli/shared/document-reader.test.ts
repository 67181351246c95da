import { describe, expect, it } from "vitest";
import type { ReadDocument } from "../../../src/cli/shared/document-reader.js";
import { TEMPLATE_NOTE } from "../../../src/networking/manifests/not-manifest.js";
import { kindSelector } from "../../../src/cli/validate/kind-selection.js";
import {
  encode,
  encodeJsonWatchEvent,
  encodeWatchEvent,
  fromYaml,
  kindOf,
  type NetworkingObject,
} from "../../../src/networking/index.js";
import {
  NOT_MANIFEST,
  ingressClassYaml,
  netpolYaml,
  otherKindYaml,
  readText,
  stream,
  v1List,
} from "../../support/cli/validate.js";

/** An error entry's decode error as plain data: what validate reports of it. */
function failure(d: ReadDocument): Record<string, unknown> | undefined {
  if (d.type !== "error") return undefined;
  const e = d.error;
  return {
    message: e.reason,
    ...(e.path !== undefined && e.path !== "" ? { field: e.path } : {}),
    ...(e.line !== undefined ? { position: { line: e.line, column: e.column ?? 1 } } : {}),
    ...(e.line === undefined && e.offset !== undefined ? { offset: e.offset } : {}),
  };
}

/** What a test cares about in a read document: its type, place and identity (an error's place is where its document starts). */
function summary(d: ReadDocument): Record<string, unknown> {
  const base = { type: d.type, document: d.document, item: d.item, line: d.line, event: d.event };
  switch (d.type) {
    case "object": {
      const info = kindOf(d.object);
      const meta = (d.object as { metadata?: { name?: string } }).metadata;
      return { ...base, kind: info.kind, name: meta?.name };
    }
    case "skipped":
      return { ...base, apiVersion: d.apiVersion, kind: d.kind, name: d.name, namespace: d.namespace };
    case "error": {
      const f = failure(d);
      return { ...base, line: d.documentLine, kind: d.kind, message: f?.["message"], position: f?.["position"] };
    }
  }
}

/** An error entry as the CLI's failed documents were compared: the document's start line, and its failure. */
function failed(d: ReadDocument | undefined): Record<string, unknown> | undefined {
  if (d?.type !== "error") return d === undefined ? undefined : { type: d.type };
  const { error: _, line: __, column: ___, documentLine, template: ____, ...rest } = d;
  return { ...rest, ...(documentLine !== undefined ? { line: documentLine } : {}), failure: failure(d) };
}

async function documents(text: string, options: Parameters<typeof readText>[2] = {}): Promise<ReadDocument[]> {
  const read = await readText("m.yaml", text, options);
  expect(read.notManifest).toBeUndefined();
  return [...read.documents];
}

describe("readManifestFile: YAML document by document", () => {
  it("names documents of other kinds, with their line, and decodes the networking ones", async () => {
    const docs = await documents(
      stream(
        otherKindYaml("apps/v1", "Deployment", "web", "shop"),
        otherKindYaml("v1", "Service", "web"),
        ingressClassYaml("edge"),
      ),
    );
    expect(docs.map(summary)).toEqual([
      {
        type: "skipped",
        document: 1,
        line: 1,
        apiVersion: "apps/v1",
        kind: "Deployment",
        name: "web",
        namespace: "shop",
      },
      { type: "skipped", document: 2, line: 7, apiVersion: "v1", kind: "Service", name: "web" },
      { type: "object", document: 3, line: 12, kind: "IngressClass", name: "edge" },
    ]);
  });

  it("starts a document's line at its first content, past leading comments", async () => {
    const [doc] = await documents(`# a comment\n\n${ingressClassYaml("edge")}`);
    expect(doc).toMatchObject({ type: "object", document: 1, line: 3 });
  });

  it("skips documents that hold only comments or blanks, without counting them", async () => {
    const docs = await documents(stream("# only a comment\n", "\n", ingressClassYaml("edge")));
    expect(docs.map(summary)).toEqual([{ type: "object", document: 1, line: 5, kind: "IngressClass", name: "edge" }]);
  });

  it("reads a document that does not parse as a failure at its line and column, and reads on", async () => {
    const broken = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: broken\n spec:\n  x: 1\n";
    const docs = await documents(stream(ingressClassYaml("a"), broken, ingressClassYaml("b")));
    // An error entry's line is where the error is; its documentLine where the document starts.
    expect(docs.map((d) => [d.type, d.document, d.type === "error" ? d.documentLine : d.line])).toEqual([
      ["object", 1, 1],
      ["error", 2, 8],
      ["object", 3, 15],
    ]);
    // The identity written at the top level is kept, so the report can say what the document was meant to be.
    expect(failed(docs[1])).toMatchObject({
      type: "error",
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      // go-yaml's mark: the token where a key was expected (` spec`, one column in).
      failure: { position: { line: 12, column: 2 } },
    });
  });

  it("reports an invalid separator as a failed document at its line, and reads the documents after it", async () => {
    const docs = await documents(`${ingressClassYaml("a")}--- foo\n${ingressClassYaml("b")}`);
    expect(docs.map(summary)).toEqual([
      { type: "object", document: 1, line: 1, kind: "IngressClass", name: "a" },
      {
        type: "error",
        document: 2,
        line: 7,
        message: "invalid Yaml document separator: foo",
        position: { line: 7, column: 1 },
      },
      { type: "object", document: 3, line: 8, kind: "IngressClass", name: "b" },
    ]);
  });

  it("expands a v1 List item by item, other kinds named, each item at its own line", async () => {
    const list = v1List(
      otherKindYaml("v1", "Service", "web"),
      ingressClassYaml("edge"),
      "apiVersion: v1\nkind: List\nitems: []\n",
    );
    const docs = await documents(list);
    expect(docs.map(summary)).toEqual([
      { type: "skipped", document: 1, item: 0, line: 4, apiVersion: "v1", kind: "Service", name: "web" },
      { type: "object", document: 1, item: 1, line: 8, kind: "IngressClass", name: "edge" },
      // Only the top level is expanded, as kubectl does.
      { type: "skipped", document: 1, item: 2, line: 14, apiVersion: "v1", kind: "List" },
    ]);
    // Positions inside an item are positions in the file.
    const ic = docs[1];
    expect(ic?.type === "object" ? ic.locate(["spec", "controller"]) : undefined).toEqual({ line: 13, column: 19 });
  });

  it("decodes a networking List kind whole (validate() checks its items)", async () => {
    const docs = await documents(
      "apiVersion: networking.k8s.io/v1\nkind: IngressClassList\nmetadata: {}\nitems:\n  - metadata:\n      name: a\n",
    );
    expect(docs.map(summary)).toEqual([{ type: "object", document: 1, line: 1, kind: "IngressClassList" }]);
  });

  it("refuses kinds under API versions no supported Kubernetes serves, and names served other versions", async () => {
    const docs = await documents(
      stream(
        otherKindYaml("extensions/v1beta1", "Ingress", "old"),
        otherKindYaml("networking.k8s.io/v1beta1", "Ingress", "old2"),
        otherKindYaml("extensions/v1beta1", "NetworkPolicy", "np"),
        otherKindYaml("networking.k8s.io/v1beta1", "IPAddress", "10.0.0.1"),
      ),
    );
    expect(docs.map(summary)).toEqual([
      {
        type: "error",
        document: 1,
        line: 1,
        kind: "Ingress",
        message:
          'no matches for kind "Ingress" in version "extensions/v1beta1": removed in Kubernetes 1.22; use networking.k8s.io/v1',
        position: { line: 1, column: 13 },
      },
      {
        type: "error",
        document: 2,
        line: 6,
        kind: "Ingress",
        message:
          'no matches for kind "Ingress" in version "networking.k8s.io/v1beta1": removed in Kubernetes 1.22; use networking.k8s.io/v1',
        position: { line: 6, column: 13 },
      },
      {
        type: "error",
        document: 3,
        line: 11,
        kind: "NetworkPolicy",
        message:
          'no matches for kind "NetworkPolicy" in version "extensions/v1beta1": removed in Kubernetes 1.16; use networking.k8s.io/v1',
        position: { line: 11, column: 13 },
      },
      {
        type: "skipped",
        document: 4,
        line: 16,
        apiVersion: "networking.k8s.io/v1beta1",
        kind: "IPAddress",
        name: "10.0.0.1",
      },
    ]);
    expect(failed(docs[0])).toMatchObject({ failure: { field: "apiVersion" }, name: "old" });
  });

  it("decodes a document with a kind but no apiVersion, or the reverse, to the decoder's error", async () => {
    const docs = await documents(stream("kind: Ingress\nmetadata:\n  name: x\n", "apiVersion: networking.k8s.io/v1\n"));
    expect(docs.map(summary)).toEqual([
      {
        type: "error",
        document: 1,
        line: 1,
        kind: "Ingress",
        message: "Object 'apiVersion' is missing",
        position: { line: 1, column: 1 },
      },
      {
        type: "error",
        document: 2,
        line: 5,
        kind: undefined,
        message: "Object 'Kind' is missing",
        position: { line: 5, column: 1 },
      },
    ]);
  });

  it("passes over the kinds `select` leaves out, Lists included", async () => {
    const select = kindSelector(["NetworkPolicy"], []);
    const docs = await documents(
      stream(
        ingressClassYaml("edge"),
        netpolYaml(),
        "apiVersion: networking.k8s.io/v1\nkind: IngressClassList\nmetadata: {}\nitems: []\n",
      ),
      select !== undefined ? { select } : {},
    );
    expect(
      docs.map((d) => [
        d.type,
        d.type === "skipped" ? d.kind : kindOf((d as { object: NetworkingObject }).object).kind,
      ]),
    ).toEqual([
      ["skipped", "IngressClass"],
      ["object", "NetworkPolicy"],
      ["skipped", "IngressClassList"],
    ]);
  });
});

describe("readManifestFile: files that are not manifests", () => {
  it.each([
    ["package.json", '{"name": "x", "version": "1.0.0"}\n', NOT_MANIFEST],
    ["values.yaml", "replicas: 3\nimage:\n  tag: latest\n", NOT_MANIFEST],
    ["broken-values.yaml", "a: [\n", NOT_MANIFEST],
    ["broken-package.json", '{"name": \n', NOT_MANIFEST],
    ["empty.yaml", "", "no documents: empty, or comments only"],
    ["comments.yaml", "# nothing\n---\n# here\n", "no documents: empty, or comments only"],
    [
      "ingress.yaml",
      "{{- if .Values.ingress.enabled }}\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {{ .Release.Name }}\n{{- end }}\n",
      TEMPLATE_NOTE,
    ],
    ["class.yaml", `${ingressClassYaml("{{ .Release.Name }}")}`, TEMPLATE_NOTE],
    ["kindless.yaml", "{{ if .Values.x }}\nfoo: {{ .Values.y }}\n  bar: 1\n{{ end }}\n", TEMPLATE_NOTE],
  ])("%s", async (name, text, note) => {
    const read = await readText(name, text);
    expect(read).toEqual({ documents: [], notManifest: note });
  });

  it("a template that parses is read as YAML, braces and all", async () => {
    const read = await readText("t.yaml", ingressClassYaml('"{{ .Release.Name }}"'));
    expect(read.notManifest).toBeUndefined();
    expect(read.documents.map((d) => d.type)).toEqual(["object"]);
  });

  it("YAML or JSON that names a kind and does not parse is an error, not a file to skip", async () => {
    const yaml = await readText("x.yaml", "apiVersion: networking.k8s.io/v1\nkind: Ingress\n bad: [\n");
    expect(yaml.notManifest).toBeUndefined();
    expect(yaml.documents.map((d) => d.type)).toEqual(["error"]);
    const json = await readText(
      "x.json",
      '{\n  "apiVersion": "networking.k8s.io/v1",\n  "kind": "IngressClass",\n  "metadata": {"name": }\n}\n',
    );
    // What a broken JSON document names as its kind is kept, as it is for YAML.
    expect({ ...json, documents: json.documents.map(failed) }).toEqual({
      documents: [
        {
          type: "error",
          document: 1,
          line: 1,
          apiVersion: "networking.k8s.io/v1",
          kind: "IngressClass",
          failure: {
            message: 'invalid character "}" looking for beginning of value',
            position: { line: 4, column: 24 },
          },
        },
      ],
    });
  });

  it("text that is not UTF-8 is one failed document", async () => {
    const read = await readText("x.yaml", new Uint8Array([0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a]));
    expect(read.documents.map(failed)).toEqual([
      {
        type: "error",
        failure: { message: "not valid UTF-8, so not YAML text (protobuf must start with k8s\\0)" },
      },
    ]);

    // A JSON watch stream is read by its own decoder, which gives the byte offset of the chunk UTF-8 breaks in.
    const watch = await readText("w.jsonl", new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]));
    expect(watch.documents.map(failed)).toEqual([
      { type: "error", document: 1, failure: { message: "watch stream is not valid UTF-8", offset: 0 } },
    ]);
  });
});

const UNKNOWN = netpolYaml("  podSelector: {}\n  a: 1\n  b: 2\n", '  name: np\n  labels:\n    x: "1"\n');
const REPEATED = netpolYaml("  podSelector: {}\n", '  name: np\n  labels:\n    x: "1"\n    x: "2"\n');

describe("readManifestFile: field validation", () => {
  it("Strict: every unknown field in one strict decoding error, at the first one", async () => {
    const [doc] = await documents(UNKNOWN);
    expect(failed(doc)).toMatchObject({
      type: "error",
      kind: "NetworkPolicy",
      name: "np",
      failure: {
        message: 'strict decoding error: unknown field "spec.a", unknown field "spec.b"',
        field: "spec.a",
        position: { line: 9, column: 6 },
      },
    });
  });

  it("Strict: a repeated YAML key is a warning at the repeat, as kubectl reads the file and sends the last value", async () => {
    const [doc] = await documents(REPEATED);
    expect(doc?.type === "object" ? doc.warnings : doc).toEqual([
      { message: 'key "x" already set in map; kubectl sends the last value', position: { line: 7, column: 5 } },
    ]);
    expect(doc?.type === "object" ? doc.object : undefined).toMatchObject({ metadata: { labels: { x: "2" } } });
  });

  it("Warn: the object is decoded and each unknown or repeated field is a warning with its position", async () => {
    const [unknown] = await documents(UNKNOWN, { fieldValidation: "Warn" });
    expect(unknown?.type).toBe("object");
    expect(unknown?.type === "object" ? unknown.warnings : undefined).toEqual([
      { message: 'unknown field "spec.a"', field: "spec.a", position: { line: 9, column: 6 } },
      { message: 'unknown field "spec.b"', field: "spec.b", position: { line: 10, column: 6 } },
    ]);
    const [repeated] = await documents(REPEATED, { fieldValidation: "Warn" });
    expect(repeated?.type === "object" ? repeated.warnings : undefined).toEqual([
      { message: 'key "x" already set in map; kubectl sends the last value', position: { line: 7, column: 5 } },
    ]);
    // The last value wins, as kubectl sends it.
    expect(repeated?.type === "object" ? repeated.object : undefined).toMatchObject({
      metadata: { labels: { x: "2" } },
    });
  });

  it("a key repeated in JSON keeps its last value, with a warning under Strict and Warn", async () => {
    const json = JSON.stringify({ apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: {} }).replace(
      '"metadata":{}',
      '"metadata":{"name":"a","name":"b"},"spec":{"controller":"example.com/a"}',
    );
    const read = await readText("x.json", json, { fieldValidation: "Warn" });
    const [doc] = read.documents;
    expect(doc?.type).toBe("object");
    expect(doc?.type === "object" ? doc.object : undefined).toMatchObject({ metadata: { name: "b" } });
    expect(doc?.type === "object" ? doc.warnings.map((w) => w.message) : undefined).toEqual([
      'duplicate field "metadata.name"; kubectl sends the last value',
    ]);
    const [strict] = (await readText("x.json", json)).documents;
    expect(strict?.type === "object" ? strict.warnings : strict).toEqual([
      {
        message: 'duplicate field "metadata.name"; kubectl sends the last value',
        field: "metadata.name",
        position: { line: 1, column: json.indexOf('"b"') + 1 },
      },
    ]);
  });

  it("Ignore: unknown and repeated fields are dropped without a word", async () => {
    for (const text of [UNKNOWN, REPEATED]) {
      const [doc] = await documents(text, { fieldValidation: "Ignore" });
      expect(doc?.type).toBe("object");
      expect(doc?.type === "object" ? doc.warnings : undefined).toEqual([]);
    }
  });

  it("a wrong type is not an unknown field: an error in every mode", async () => {
    for (const fieldValidation of ["Strict", "Warn", "Ignore"] as const) {
      const [doc] = await documents(netpolYaml("  podSelector: 3\n"), { fieldValidation });
      expect(failed(doc), fieldValidation).toMatchObject({ type: "error", failure: { field: "spec.podSelector" } });
    }
  });
});

describe("readManifestFile: JSON, protobuf and watch streams", () => {
  const [ingressClass] = fromYaml(ingressClassYaml("edge"));

  it("JSON: one object, positions by line and column of the text", async () => {
    const text = `{\n  "apiVersion": "networking.k8s.io/v1",\n  "kind": "IngressClass",\n  "metadata": {"name": "edge"},\n  "spec": {"controller": "example.com/a"}\n}\n`;
    const read = await readText("x.json", text);
    const [doc] = read.documents;
    expect(doc).toMatchObject({ type: "object", document: 1, line: 1 });
    expect(doc?.type === "object" ? doc.locate(["spec", "controller"]) : undefined).toEqual({ line: 5, column: 26 });
  });

  it("JSON: concatenated values are a stream, each its own document at its own line, as kubectl reads them", async () => {
    const one = (name: string) =>
      JSON.stringify({ apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name } });
    const text = `${one("a")}\n{\n  "apiVersion": "v1",\n  "kind": "Service",\n  "metadata": {"name": "s"}\n}\n${one("b")}\n{"kind": \n`;
    const read = await readText("x.json", text);
    expect(read.documents.map(summary)).toEqual([
      { type: "object", document: 1, line: 1, kind: "IngressClass", name: "a" },
      { type: "skipped", document: 2, line: 2, apiVersion: "v1", kind: "Service", name: "s" },
      { type: "object", document: 3, line: 7, kind: "IngressClass", name: "b" },
      // A value that does not parse ends the stream, at the place it breaks.
      {
        type: "error",
        document: 4,
        line: 8,
        message: "unexpected end of JSON input",
        position: { line: 9, column: 1 },
      },
    ]);
    const third = read.documents[2];
    const column = (text.split("\n")[6] ?? "").indexOf('"b"') + 1;
    expect(column).toBeGreaterThan(1);
    expect(third?.type === "object" ? third.locate(["metadata", "name"]) : undefined).toEqual({ line: 7, column });
  });

  it("protobuf: one k8s\\0 object, keeping its bytes; a watch stream event by event with each frame", async () => {
    const pb = encode(ingressClass!);
    const one = await readText("x.pb", pb);
    expect(one.documents).toMatchObject([{ type: "object", original: pb }]);
    const frames = [
      encodeWatchEvent({ type: "ADDED", object: ingressClass! }),
      encodeWatchEvent({ type: "DELETED", object: ingressClass! }),
    ];
    const watch = await readText("w.pb", new Uint8Array(Buffer.concat(frames)));
    expect(watch.documents.map((d) => [d.type, d.document, d.event])).toEqual([
      ["object", 1, "ADDED"],
      ["object", 2, "DELETED"],
    ]);
    expect(watch.documents.map((d) => (d.type === "object" ? d.original : undefined))).toEqual(frames);
  });

  it("protobuf: cut short, a failed document with the byte offset; the events before it are kept", async () => {
    const cut = await readText("x.pb", encode(ingressClass!).subarray(0, 30));
    expect(cut.documents.map(failed)).toEqual([
      { type: "error", failure: { message: expect.stringMatching(/runs past the end/), offset: expect.any(Number) } },
    ]);
    const frame = encodeWatchEvent({ type: "ADDED", object: ingressClass! });
    const stream = new Uint8Array(Buffer.concat([frame, frame.subarray(0, 10)]));
    const watch = await readText("w.pb", stream);
    expect(watch.documents.map((d) => [d.type, d.document])).toEqual([
      ["object", 1],
      ["error", 2],
    ]);
  });

  it("a JSON watch stream (.jsonl): events, unknown fields refused unless Warn or Ignore", async () => {
    const event = encodeJsonWatchEvent({ type: "MODIFIED", object: ingressClass! });
    const read = await readText("e.jsonl", event + event);
    expect(read.documents.map((d) => [d.type, d.document, d.event])).toEqual([
      ["object", 1, "MODIFIED"],
      ["object", 2, "MODIFIED"],
    ]);
    const unknown = event.replace('"spec":{', '"spec":{"zzz":1,');
    expect(unknown).not.toBe(event);
    expect((await readText("e.jsonl", unknown)).documents.map((d) => d.type)).toEqual(["error"]);
    expect((await readText("e.jsonl", unknown, { fieldValidation: "Ignore" })).documents.map((d) => d.type)).toEqual([
      "object",
    ]);
  });
});
