import { describe, expect, it } from "vitest";
import { MODES, compare, normaliseMessage } from "../../../bench/yaml-differential/differential.js";
import type { OracleAnswer } from "../../../bench/yaml-differential/oracle.js";

// Go's answers here are written by hand in the shape scripts/yaml-oracle prints (no Go needed):
// what sigs.k8s.io/yaml answers for these one-document texts.
const TEXT = "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: web\n";
const JSON_TEXT = '{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"web"}}';

function answer(
  body: OracleAnswer["body"],
  docs: OracleAnswer["docs"] = [{ text: TEXT, json: JSON_TEXT }],
): OracleAnswer {
  return { docs, body };
}

describe("compare", () => {
  it("has the kubectl modes and the server modes", () => {
    expect(MODES).toEqual(["lax", "strict", "lax-server", "strict-server"]);
  });

  it("agrees in every mode when both readings give the same object", () => {
    for (const mode of MODES) expect(compare(TEXT, answer({ json: JSON_TEXT }), mode)).toBeUndefined();
  });

  it("compares the server modes against the body, not the split documents", () => {
    const a = answer({ error: "yaml: line 9: did not find expected key" });
    expect(compare(TEXT, a, "lax")).toBeUndefined();
    expect(compare(TEXT, a, "strict")).toBeUndefined();
    const d = compare(TEXT, a, "lax-server");
    expect(d?.cls).toBe("lax-server/we-accept/did-not-find-expected-key");
    expect(d?.mode).toBe("lax-server");
    expect(compare(TEXT, a, "strict-server")?.cls).toBe("strict-server/we-accept/did-not-find-expected-key");
  });

  it("uses the body's strict error in strict-server mode only", () => {
    const a = answer({ json: JSON_TEXT, strictError: 'yaml: unmarshal errors:\n  line 3: key "x" already set in map' });
    expect(compare(TEXT, a, "lax-server")).toBeUndefined();
    expect(compare(TEXT, a, "strict-server")?.cls).toMatch(/^strict-server\/we-accept\//);
  });

  it("reads a null body as no object", () => {
    const d = compare(TEXT, answer({ json: "null" }), "lax-server");
    expect(d?.cls).toBe("lax-server/differ/document-count");
  });

  it("reports a body that differs in value", () => {
    const other = JSON_TEXT.replace('"web"', '"api"');
    expect(compare(TEXT, answer({ json: other }), "strict-server")?.cls).toBe("strict-server/differ/string");
  });

  it("passes the body's JSON through fromJson, strict in strict-server mode", () => {
    const extra = JSON_TEXT.replace('"kind"', '"x":1,"kind"');
    expect(compare(TEXT, answer({ json: extra }), "lax-server")).toBeUndefined();
    expect(compare(TEXT, answer({ json: extra }), "strict-server")?.cls).toMatch(/^strict-server\/we-accept\/fromjson/);
  });
});

describe("normaliseMessage", () => {
  it("drops positions, numbers and quoted parts", () => {
    expect(normaliseMessage('yaml: line 12: key "a" already set in map')).toBe("key-q-already-set-in-map");
  });

  it("keeps one class for kubectl's separator error, whatever line follows the ---", () => {
    for (const rest of ["~", "apiVersion: networking.k8s.io/v1", '{"apiVersion": "v1", "kind": "x"}'])
      expect(normaliseMessage(`invalid Yaml document separator: ${rest}`)).toBe("invalid-yaml-document-separator");
  });
});
