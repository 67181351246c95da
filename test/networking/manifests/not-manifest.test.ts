// Whether a text is a Kubernetes manifest at all (src/networking/manifests/not-manifest.ts),
// judged from what readManifests read of it: no documents, no kind anywhere (an apiVersion alone
// is not enough), or an unrendered template, which wins over a kind it may show.

import { describe, expect, it } from "vitest";
import { DecodeError, notManifestReason, readManifests, type ManifestEntry } from "../../../src/networking/index.js";
import { NO_DOCUMENTS_NOTE, NO_KIND_NOTE, TEMPLATE_NOTE } from "../../../src/networking/manifests/not-manifest.js";

const error = (fields: Partial<ManifestEntry> = {}): ManifestEntry =>
  ({ type: "error", document: 1, line: 1, error: new DecodeError("yaml", "bad"), ...fields }) as ManifestEntry;

describe("notManifestReason", () => {
  it("texts that are not manifests: no kind anywhere, or a template that does not parse", () => {
    expect(notManifestReason(readManifests('{"name": "app", "version": "1.0.0"}'))).toBe(
      "no kind: not a Kubernetes manifest",
    );
    expect(notManifestReason(readManifests("replicas: 3\nimage:\n  tag: latest\n"))).toBe(
      "no kind: not a Kubernetes manifest",
    );
    // `{{` opens a template, not JSON.
    const template = readManifests("{{ if .Values.x }}\nfoo: {{ .Values.y }}\n  bar: 1\n{{ end }}\n");
    expect(template[0]).toMatchObject({ type: "error", template: true });
    expect(notManifestReason(template)).toMatch(/^holds \{\{ \}\} and does not parse/);
  });

  it("no entries: no documents; a kind on any entry, or any decoded object, makes a manifest", () => {
    expect(notManifestReason([])).toBe(NO_DOCUMENTS_NOTE);
    const skipped: ManifestEntry = {
      type: "skipped",
      document: 1,
      line: 1,
      apiVersion: "v1",
      kind: "Service",
      reason: "x",
    };
    expect(notManifestReason([error(), skipped])).toBeUndefined();
    expect(notManifestReason([error({ kind: "Ingress" })])).toBeUndefined();
    expect(
      notManifestReason(readManifests("apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: a\n")),
    ).toBeUndefined();
  });

  it("an apiVersion alone is no manifest (a Helm Chart.yaml has one); a template wins over a kind read", () => {
    expect(notManifestReason([error({ apiVersion: "v2" })])).toBe(NO_KIND_NOTE);
    expect(notManifestReason([error({ kind: "Ingress", template: true }), error({ kind: "Service" })])).toBe(
      TEMPLATE_NOTE,
    );
  });
});
