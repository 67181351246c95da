import { describe, expect, it } from "vitest";
import { type FileDocument, readDocuments } from "../../../src/connectivity/topology/documents.js";
import { expectSubquadratic } from "../../support/growth.js";

const wantPods = (_apiVersion: string, kind: string): boolean => kind === "Pod";

/** Each document's type, kind and start line. */
const shape = (docs: readonly FileDocument[]): string[] =>
  docs.map((d) => {
    switch (d.type) {
      case "value":
        return `value ${d.apiVersion} ${d.kind} @${d.line}`;
      case "ignored":
        return `ignored ${d.apiVersion} ${d.kind} @${d.line}`;
      case "object":
        return `object ${d.object.$typeName} @${d.line}`;
      default:
        return `error${d.template ? " template" : ""} @${d.line}:${d.column}`;
    }
  });

describe("readDocuments", () => {
  it("parses wanted kinds, decodes networking kinds, and counts the rest from their top-level lines", () => {
    const docs = readDocuments(
      [
        "# header\n\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\n",
        "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np}\nspec: {podSelector: {}}\n",
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n",
        // No top-level kind line (flow style): parsed, then found to be a kind nobody reads.
        "{apiVersion: v1, kind: Secret, metadata: {name: t}}\n",
        // Two kind lines: not trusted, parsed (the last value wins, as kubectl sends it).
        "apiVersion: v1\nkind: Secret\nkind: Pod\nmetadata: {name: u}\n",
      ].join("---\n"),
      wantPods,
    );
    expect(shape(docs)).toEqual([
      "value v1 Pod @3",
      "object k8s.io.api.networking.v1.NetworkPolicy @7",
      "ignored v1 Secret @12",
      "value v1 Secret @16",
      "value v1 Pod @18",
    ]);
  });

  it("locates a field of a parsed document in the whole text", () => {
    const [, doc] = readDocuments(
      "apiVersion: v1\nkind: Secret\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n",
      wantPods,
    );
    expect(doc?.type).toBe("value");
    if (doc?.type !== "value") return;
    expect(doc.locate(["metadata", "name"])).toEqual({ line: 7, column: 9 });
    // A path that is not there: the deepest part that is.
    expect(doc.locate(["metadata", "labels"])).toEqual({ line: 7, column: 3 });
  });

  it("reads a YAML document holding both kinds (a List of Pods and NetworkPolicies) through the decoders and the parse alike", () => {
    const docs = readDocuments(
      "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: a}}\n- {apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, metadata: {name: np}, spec: {podSelector: {}}}\n- {apiVersion: v1, kind: Pod, metadata: {name: b}}\n",
      wantPods,
    );
    expect(shape(docs)).toEqual([
      "value v1 Pod @4",
      "object k8s.io.api.networking.v1.NetworkPolicy @5",
      "value v1 Pod @6",
    ]);
  });

  it("gives a document that does not parse as validate's error, flagged as a template when it holds {{ }}", () => {
    const docs = readDocuments("apiVersion: v1\nkind: Pod\nmetadata: [\n---\n{{ if x }}\nkind: Pod\n", wantPods);
    expect(shape(docs)).toEqual(["error @4:1", "error template @5:2"]);
  });

  it("cuts a JSON stream into values, and reads a value that does not parse as validate does", () => {
    const docs = readDocuments(
      '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a}"}}\n  {"apiVersion": "v1", "kind": "Secret"}\n{"kind": "Pod", "metadata": ',
      wantPods,
    );
    expect(shape(docs)).toEqual(["value v1 Pod @1", "value v1 Secret @2", "error @3:29"]);
  });

  it("reads a List of thousands of items in time linear in its length, YAML or JSON", async () => {
    const yaml = (n: number): string => {
      let text = "apiVersion: v1\nkind: List\nitems:\n";
      for (let i = 0; i < n; i++) text += `- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p${i}\n`;
      return text;
    };
    const json = (n: number): string =>
      JSON.stringify(
        {
          apiVersion: "v1",
          kind: "List",
          items: Array.from({ length: n }, (_, i) => ({ apiVersion: "v1", kind: "Pod", metadata: { name: `p${i}` } })),
        },
        null,
        1,
      );
    const lines = (text: string): number[] =>
      readDocuments(text, wantPods).map((d) => (d.type === "value" ? d.line : -1));
    expect(lines(yaml(3))).toEqual([4, 8, 12]);
    expect(lines(json(3))).toEqual([5, 12, 19]);
    await expectSubquadratic("a YAML List", (n) => expect(readDocuments(yaml(n), wantPods)).toHaveLength(n), 50, {
      factor: 16,
    });
    await expectSubquadratic("a JSON List", (n) => expect(readDocuments(json(n), wantPods)).toHaveLength(n), 50, {
      factor: 16,
    });
  });
});
