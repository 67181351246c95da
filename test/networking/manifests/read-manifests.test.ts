import { describe, expect, it } from "vitest";
import { expectSubquadratic } from "../../support/growth.js";
import {
  DecodeError,
  kindOf,
  notManifestReason,
  readManifests,
  type ManifestEntry,
} from "../../../src/networking/index.js";

const DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n";
const SERVICE = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n";
const INGRESS = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  namespace: shop
spec:
  rules:
    - host: web.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: web
                port:
                  number: 80
`;

/** An entry's type, place and identity, for comparing. */
function shape(e: ManifestEntry): Record<string, unknown> {
  switch (e.type) {
    case "object":
      return { type: e.type, document: e.document, line: e.line, kind: kindOf(e.object).kind };
    case "skipped": {
      const { type, document, line, apiVersion, kind, namespace, name, reason } = e;
      return { type, document, line, apiVersion, kind, namespace, name, reason };
    }
    case "error":
      return { type: e.type, document: e.document, line: e.line, column: e.column, reason: e.error.reason };
  }
}

describe("readManifests", () => {
  it("mixed kinds: an Ingress decoded beside a Deployment and a Service, skipped with kind, namespace and name", () => {
    const entries = readManifests(`${DEPLOYMENT}---\n${INGRESS}---\n${SERVICE}`);
    expect(entries.map(shape)).toEqual([
      {
        type: "skipped",
        document: 1,
        line: 1,
        apiVersion: "apps/v1",
        kind: "Deployment",
        namespace: "shop",
        name: "web",
        reason: "apps/v1 Deployment is not a networking.k8s.io/v1 kind",
      },
      { type: "object", document: 2, line: 7, kind: "Ingress" },
      {
        type: "skipped",
        document: 3,
        line: 25,
        apiVersion: "v1",
        kind: "Service",
        namespace: "shop",
        name: "web",
        reason: "v1 Service is not a networking.k8s.io/v1 kind",
      },
    ]);
    const ingress = entries[1];
    // Positions are in the whole text, not in the document.
    expect(ingress?.type === "object" ? ingress.locate(["spec", "rules", 0, "host"]) : undefined).toEqual({
      line: 14,
      column: 13,
    });
    expect(notManifestReason(entries)).toBeUndefined();
  });

  it("a JSON List: one entry per item, each at its own line", () => {
    const list = JSON.stringify(
      {
        apiVersion: "v1",
        kind: "List",
        items: [
          { apiVersion: "v1", kind: "Service", metadata: { name: "web" } },
          {
            apiVersion: "networking.k8s.io/v1",
            kind: "IngressClass",
            metadata: { name: "edge" },
            spec: { controller: "example.com/ingress" },
          },
        ],
      },
      null,
      2,
    );
    const entries = readManifests(list);
    expect(entries.map((e) => [e.type, e.document, e.item, e.line])).toEqual([
      ["skipped", 1, 0, 5],
      ["object", 1, 1, 12],
    ]);
    const ic = entries[1];
    expect(ic?.type === "object" ? ic.locate(["spec", "controller"]) : undefined).toEqual({ line: 19, column: 23 });
  });

  it("a JSON stream: values one after another, each its own document", () => {
    const one = (name: string) =>
      JSON.stringify({ apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name } });
    expect(readManifests(`${one("a")}\n${one("b")}\n`).map((e) => [e.type, e.document, e.line])).toEqual([
      ["object", 1, 1],
      ["object", 2, 2],
    ]);
  });

  it("broken YAML in the middle of a stream: an error with line and column, and the later documents still read", () => {
    const broken = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: broken\n spec:\n  x: 1\n";
    const entries = readManifests(`${SERVICE}---\n${broken}---\n${DEPLOYMENT}`);
    expect(entries.map(shape)).toEqual([
      expect.objectContaining({ type: "skipped", document: 1, kind: "Service" }),
      {
        type: "error",
        document: 2,
        // go-yaml's mark: the token where a key was expected (` spec`, one column in).
        line: 11,
        column: 2,
        reason: "did not find expected key",
      },
      expect.objectContaining({ type: "skipped", document: 3, line: 14, kind: "Deployment" }),
    ]);
    const error = entries[1];
    expect(error).toMatchObject({ documentLine: 7, apiVersion: "networking.k8s.io/v1", kind: "Ingress" });
    // The DecodeError itself is placed in the whole text, with its document.
    expect(error?.type === "error" ? error.error : undefined).toBeInstanceOf(DecodeError);
    expect(error?.type === "error" ? [error.error.line, error.error.column, error.error.document] : []).toEqual([
      11, 2, 2,
    ]);
  });

  it("an invalid separator is an error at its line; the documents after it are read", () => {
    const entries = readManifests(`${SERVICE}--- foo\n${DEPLOYMENT}`);
    expect(entries.map(shape)).toEqual([
      expect.objectContaining({ type: "skipped", kind: "Service" }),
      { type: "error", document: 2, line: 6, column: 1, reason: "invalid Yaml document separator: foo" },
      expect.objectContaining({ type: "skipped", document: 3, kind: "Deployment" }),
    ]);
  });

  it("strict decoding by default; Warn decodes with warnings; Ignore drops unknown fields", () => {
    const typo = INGRESS.replace("  rules:", "  rulez: []\n  rules:");
    const [strict] = readManifests(typo);
    expect(strict?.type).toBe("error");
    expect(strict?.type === "error" ? [strict.line, strict.column, strict.error.path] : []).toEqual([
      7,
      10,
      "spec.rulez",
    ]);
    const [warn] = readManifests(typo, { fieldValidation: "Warn" });
    expect(warn?.type === "object" ? warn.warnings : undefined).toEqual([
      { message: 'unknown field "spec.rulez"', field: "spec.rulez", position: { line: 7, column: 10 } },
    ]);
    const [ignore] = readManifests(typo, { fieldValidation: "Ignore" });
    expect(ignore?.type === "object" ? ignore.warnings : undefined).toEqual([]);
  });

  it("select: networking kinds left out are skipped with the reason given", () => {
    const select = (_apiVersion: string, kind: string): boolean => kind !== "Ingress";
    expect(readManifests(INGRESS, { select }).map(shape)).toEqual([
      expect.objectContaining({ type: "skipped", kind: "Ingress", reason: "not selected" }),
    ]);
    expect(readManifests(INGRESS, { select, notSelected: "left out" })[0]).toMatchObject({ reason: "left out" });
  });

  it('the "server" reading reads the text as one request body: its first document only', () => {
    const text = `${INGRESS}---\n${INGRESS}`;
    expect(readManifests(text).length).toBe(2);
    expect(readManifests(text, { reading: "server" }).map((e) => [e.type, e.document, e.line])).toEqual([
      ["object", 1, 1],
    ]);
  });

  it("places an object after a leading separator, which kubectl's reader keeps in its document, at its first line", () => {
    expect(readManifests(`---\n${INGRESS}`).map((e) => [e.type, e.document, e.line])).toEqual([["object", 1, 2]]);
    expect(readManifests(`--- # first\n# about it\n${INGRESS}`).map((e) => e.line)).toEqual([3]);
    // Kept, the separator makes a byte-order mark after it content: kubectl reads the key "\ufeffapiVersion".
    const [bom] = readManifests(`---\n\ufeff${INGRESS}`);
    expect(bom).toMatchObject({ type: "error", line: 2, error: { reason: "Object 'apiVersion' is missing" } });
    expect(readManifests(`${SERVICE}---\n\ufeff${INGRESS}`).map((e) => e.type)).toEqual(["skipped", "object"]);
  });

  it("empty documents give no entry; an empty or comment-only text gives none, and is no manifest", () => {
    expect(readManifests(`---\n---\n# nothing\n---\n${INGRESS}---\n`).map((e) => [e.type, e.document, e.line])).toEqual(
      [["object", 1, 5]],
    );
    for (const text of ["", "\n\n", "# only a comment\n# and another\n", "---\n# c\n---\n"]) {
      const entries = readManifests(text);
      expect(entries, JSON.stringify(text)).toEqual([]);
      expect(notManifestReason(entries)).toBe("no documents: empty, or comments only");
    }
  });

  it("never throws for bad content", () => {
    for (const text of ["{", "[1, 2", "a: [\n", "\t- x", "%YAML 9\n---\na: 1\n", '{"kind": "Ingress"'])
      expect(() => readManifests(text), text).not.toThrow();
  });
});

describe("readManifests on long streams", () => {
  it("reads a JSON stream in time linear in its documents (each document's line is not found by a scan from the start)", async () => {
    // Pretty-printed, as files are: a scan from the start costs per line, not per document.
    const one = JSON.stringify(
      {
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: { name: "edge", labels: { app: "edge", tier: "front" } },
        spec: { controller: "example.com/ingress" },
      },
      null,
      2,
    );
    const streams = new Map<number, string>();
    const stream = (n: number): string => streams.get(n) ?? streams.set(n, Array(n).fill(one).join("\n")).get(n)!;
    await expectSubquadratic("a JSON stream", (n) => expect(readManifests(stream(n))).toHaveLength(n), 300, {
      factor: 16,
    });
  });
});

describe("readManifests: errors it reports without throwing", () => {
  it("builds them as new DecodeError does, and leaves Error.stackTraceLimit as it found it", () => {
    const text = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: old}\n";
    const before = Error.stackTraceLimit;
    const [entry] = readManifests(text);
    expect(Error.stackTraceLimit).toBe(before);
    if (entry?.type !== "error") throw new Error(`expected an error entry, got ${entry?.type}`);
    const e = entry.error;
    expect(e).toBeInstanceOf(DecodeError);
    const built = new DecodeError("yaml", e.reason, {
      document: 1,
      line: 1,
      column: 13,
      path: "apiVersion",
      segments: ["apiVersion"],
    });
    expect([e.name, e.message, e.reason, e.line, e.column, e.path, e.segments, e.document]).toEqual([
      built.name,
      built.message,
      built.reason,
      built.line,
      built.column,
      built.path,
      built.segments,
      built.document,
    ]);
    expect(e.reason).toMatch(/^no matches for kind "Ingress" in version "extensions\/v1beta1"/);
  });
});
