import type { ManifestEntry } from "./entries.js";

// Whether a text is a Kubernetes manifest at all, judged from the entries readManifests read.

/** What a text that does not parse and holds template braces is. */
export const TEMPLATE_NOTE =
  "holds {{ }} and does not parse: a template, not a manifest (render it first, e.g. helm template)";

/** What a text with no document is. */
export const NO_DOCUMENTS_NOTE = "no documents: empty, or comments only";

/** What a text in which no document names a kind is. */
export const NO_KIND_NOTE = "no kind: not a Kubernetes manifest";

/**
 * Why the entries {@link readManifests} read from a text show it is no
 * Kubernetes manifest at all, or undefined when it is one: it has no
 * documents (empty, or comments only), no document names a kind (a
 * package.json, a Helm values file), or a document that does not parse
 * holds `{{ }}` (an unrendered template). `clusterwire validate` skips such
 * files with this note.
 *
 * @example
 * import { notManifestReason, readManifests } from "clusterwire/networking";
 * console.log(notManifestReason(readManifests('{"name": "my-app", "version": "1.0.0"}')));
 * // no kind: not a Kubernetes manifest
 */
export function notManifestReason(entries: readonly ManifestEntry[]): string | undefined {
  // A template is not a manifest until rendered, even where its kind can be read.
  if (entries.some((e) => e.type === "error" && e.template === true)) return TEMPLATE_NOTE;
  if (entries.length === 0) return NO_DOCUMENTS_NOTE;
  // A kind makes a manifest; an apiVersion alone does not (Helm's Chart.yaml has one).
  return entries.some((e) => e.type === "object" || e.kind !== undefined) ? undefined : NO_KIND_NOTE;
}
