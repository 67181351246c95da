// Shared by the `clusterwire validate` tests: temporary trees of manifests,
// manifest text builders, verdicts to render, and fake sinks.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { RESOURCE_VERSION_ON_CREATE } from "../../../src/networking/manifests/check-manifests.js";
import { readManifestFile, type ReadFile, type ReadOptions } from "../../../src/cli/shared/document-reader.js";
import type { Sink } from "../../../src/cli/shared/io.js";
import type { Refusal } from "../../../src/cli/shared/verdict.js";

export type Files = Readonly<Record<string, string | Uint8Array>>;

/**
 * A temporary directory for one test file, removed after its tests; the
 * function returned writes `files` (paths with slashes) into a fresh
 * directory under it and returns that directory's path.
 */
export function tempTrees(prefix: string): (files: Files) => string {
  const root = mkdtempSync(join(tmpdir(), `clusterwire-${prefix}-`));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return (files) => {
    const d = mkdtempSync(join(root, "case-"));
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(join(d, name, ".."), { recursive: true });
      writeFileSync(join(d, name), content);
    }
    return d;
  };
}

/** Output lines, without the empty one after the last newline. */
export const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

/** A YAML stream of documents, as kubectl takes it. */
export const stream = (...documents: string[]): string => documents.join("---\n");

export function ingressClassYaml(name: string, controller = "example.com/ingress", extraMeta = ""): string {
  return `apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: ${name}\n${extraMeta}spec:\n  controller: ${controller}\n`;
}

export function netpolYaml(spec = "  podSelector: {}\n", meta = "  name: web\n"): string {
  return `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n${meta}spec:\n${spec}`;
}

export function ingressYaml(
  opts: { name?: string; service?: string; secretName?: string; meta?: string; status?: string } = {},
): string {
  return `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: ${opts.name ?? "web"}
  namespace: shop
${opts.meta ?? ""}spec:
  tls:
    - hosts: [web.example.com]
      secretName: ${opts.secretName ?? "web-tls"}
  rules:
    - host: web.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: ${opts.service ?? "web"}
                port:
                  number: 80
${opts.status ?? ""}`;
}

/** kubectl's v1 List holding `documents` as its items, each indented under `- `. */
export function v1List(...documents: string[]): string {
  const items = documents.map((d) => `  - ${d.trimEnd().replaceAll("\n", "\n    ")}\n`).join("");
  return `apiVersion: v1\nkind: List\nitems:\n${items}`;
}

/** A `validate -o json` result about a whole file (unreadable, not a manifest): no document, its identity null. */
export function wholeFileResult(file: string, fields: Record<string, unknown>): Record<string, unknown> {
  const unknown = {
    document: null,
    item: null,
    event: null,
    line: null,
    apiVersion: null,
    kind: null,
    namespace: null,
    name: null,
    generateName: null,
  };
  return {
    file,
    ...unknown,
    errors: [],
    refusals: [],
    warnings: [],
    error: null,
    reason: null,
    response: null,
    ...fields,
  };
}

/** A document of a kind validate passes over. */
export function otherKindYaml(apiVersion: string, kind: string, name: string, namespace?: string): string {
  return `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n${namespace !== undefined ? `  namespace: ${namespace}\n` : ""}`;
}

/** Reads manifest text as validate reads a file named `name`. */
export function readText(
  name: string,
  text: string | Uint8Array,
  options: Partial<ReadOptions> = {},
): Promise<ReadFile> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  return readManifestFile({ name, bytes }, { fieldValidation: "Strict", ...options });
}

/** The keys every result of `validate -o json` has, in this order, whatever its status. */
export const RESULT_KEYS: readonly string[] = [
  "file",
  "document",
  "item",
  "event",
  "line",
  "apiVersion",
  "kind",
  "namespace",
  "name",
  "generateName",
  "status",
  "errors",
  "refusals",
  "warnings",
  "error",
  "reason",
  "response",
];

/** The note on a YAML or JSON file in which no document has a kind (package.json, a Helm values file). */
export const NOT_MANIFEST = "no kind: not a Kubernetes manifest";

/** What validate's text output says of such a file. */
export const notManifestLine = (file: string): string => `${file}: skipped: ${NOT_MANIFEST}`;

/** The storage layer's 500 for a resourceVersion on create, at `field` (LINE:COLUMN). */
export const resourceVersionRefusal = (field: string, line: number, column: number): Refusal => ({
  code: 500,
  reason: "",
  message: RESOURCE_VERSION_ON_CREATE,
  field,
  position: { line, column },
});

/** A sink that keeps what is written, as a terminal (isTTY) or a pipe. */
export function memorySink(isTTY: boolean): Sink & { readonly text: () => string; readonly writes: string[] } {
  const writes: string[] = [];
  return {
    isTTY,
    write: (c) => writes.push(typeof c === "string" ? c : new TextDecoder().decode(c)),
    text: () => writes.join(""),
    writes,
  };
}
