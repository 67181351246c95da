// How readManifests' entries are built (src/networking/manifests/entries.ts): an error entry at
// the error's own line and column, or at its document's start; a skipped entry with what could
// be read of the document's identity, an empty name left out.

import { describe, expect, it } from "vitest";
import { DecodeError, readManifests } from "../../../src/networking/index.js";
import { errorEntry, skipped } from "../../../src/networking/manifests/entries.js";

describe("errorEntry", () => {
  it("at the error's line and column when it has them, with the document's own start kept", () => {
    const error = new DecodeError("yaml", "bad", { line: 7, column: 3 });
    expect(
      errorEntry({ document: 2, line: 5, item: 1 }, { kind: "Ingress", name: "web", namespace: "" }, error),
    ).toEqual({
      type: "error",
      document: 2,
      item: 1,
      line: 7,
      column: 3,
      documentLine: 5,
      error,
      kind: "Ingress",
      name: "web",
    });
  });

  it("at the document's start, column 1, when the error has no line", () => {
    const error = new DecodeError("json", "bad");
    expect(errorEntry({ document: 1, line: 4 }, {}, error)).toEqual({
      type: "error",
      document: 1,
      line: 4,
      column: 1,
      documentLine: 4,
      error,
    });
  });
});

describe("skipped", () => {
  it("where the document starts, its apiVersion and kind (empty when unread), and its name when it has one", () => {
    expect(
      skipped({ document: 3, line: 9 }, { apiVersion: "v1", kind: "Service", name: "web", namespace: "shop" }, "r"),
    ).toEqual({
      type: "skipped",
      document: 3,
      line: 9,
      apiVersion: "v1",
      kind: "Service",
      namespace: "shop",
      name: "web",
      reason: "r",
    });
    expect(skipped({ document: 1, line: 1, item: 0 }, { name: "" }, "r")).toEqual({
      type: "skipped",
      document: 1,
      line: 1,
      item: 0,
      apiVersion: "",
      kind: "",
      reason: "r",
    });
  });

  it("is what readManifests gives for another kind", () => {
    const [entry] = readManifests("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n");
    expect(entry).toEqual(
      skipped(
        { document: 1, line: 1 },
        { apiVersion: "v1", kind: "Service", name: "web", namespace: "shop" },
        "v1 Service is not a networking.k8s.io/v1 kind",
      ),
    );
  });
});
