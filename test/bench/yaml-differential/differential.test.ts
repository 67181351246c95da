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
  it("has the kubectl modes and the server modes, on objects and on raw values", () => {
    expect(MODES).toEqual([
      "lax",
      "strict",
      "lax-server",
      "strict-server",
      "raw",
      "raw-strict",
      "raw-server",
      "raw-strict-server",
    ]);
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

describe("compare in the raw modes", () => {
  // An unknown field: fromJson drops it (non-strict) or refuses it on both sides (strict),
  // so only the raw modes see a difference in its value.
  const X = `${TEXT}x: {a: 9007199254740993, b: 1e20, c: yes}\n`;
  const X_JSON = JSON_TEXT.replace(/}$/, ',"x":{"a":9007199254740993,"b":100000000000000000000,"c":true}}');
  const xAnswer = (json: string): OracleAnswer => answer({ json }, [{ text: X, json }]);
  const RAW = ["raw", "raw-strict", "raw-server", "raw-strict-server"] as const;

  it("agrees with YAMLToJSON's own answer, big integers and floats included", () => {
    for (const mode of MODES) expect(compare(X, xAnswer(X_JSON), mode), mode).toBeUndefined();
  });

  it("sees a difference under a field fromJson drops, where the object modes cannot", () => {
    const other = xAnswer(X_JSON.replace("9007199254740993", "9007199254740992"));
    expect(compare(X, other, "lax")).toBeUndefined();
    expect(compare(X, other, "strict")).toBeUndefined();
    for (const mode of RAW) expect(compare(X, other, mode)?.cls).toBe(`${mode}/differ/number`);
    const str = xAnswer(X_JSON.replace("true}", '"yes"}'));
    expect(compare(X, str, "raw")?.cls).toBe("raw/differ/type-boolean-string");
    const key = xAnswer(X_JSON.replace('"c":true', '"c":true,"d":null'));
    expect(compare(X, key, "raw-server")?.cls).toBe("raw-server/differ/keys-missing");
  });

  it("reads Go's JSON for a scalar document too, which fromJson would refuse", () => {
    expect(compare("5\n", answer({ json: "5" }, [{ text: "5\n", json: "5" }]), "raw")).toBeUndefined();
    const d = compare("5\n", answer({ json: "5.5" }, [{ text: "5\n", json: "5.5" }]), "raw-server");
    expect(d?.cls).toBe("raw-server/differ/number");
    expect(d?.go).toBe("1 document(s): 5.5");
  });

  it("refuses a repeated key only in the strict raw modes, as YAMLToJSONStrict does", () => {
    const text = "a: 1\na: 2\n";
    const strictError = 'yaml: unmarshal errors:\n  line 2: key "a" already set in map';
    const a = answer({ json: '{"a":2}', strictError }, [{ text, json: '{"a":2}', strictError }]);
    for (const mode of RAW) expect(compare(text, a, mode), mode).toBeUndefined();
    // Go refusing where we read, and Go reading where we refuse, both disagree.
    const lenient = answer({ json: '{"a":2}' }, [{ text, json: '{"a":2}' }]);
    expect(compare(text, lenient, "raw")).toBeUndefined();
    expect(compare(text, lenient, "raw-strict")?.cls).toMatch(/^raw-strict\/we-refuse\/key-q-already-set/);
    const refused = answer({ error: "yaml: line 2: did not find expected key" }, [
      { text, error: "yaml: line 2: did not find expected key" },
    ]);
    expect(compare(text, refused, "raw")?.cls).toBe("raw/we-accept/did-not-find-expected-key");
    expect(compare(text, refused, "raw-server")?.cls).toBe("raw-server/we-accept/did-not-find-expected-key");
  });

  it("skips null documents on both sides and counts the rest", () => {
    const text = "a: 1\n---\n~\n";
    const docs = [
      { text: "a: 1\n", json: '{"a":1}' },
      { text: "~\n", json: "null" },
    ];
    expect(compare(text, answer({ json: '{"a":1}' }, docs), "raw")).toBeUndefined();
    expect(compare(text, answer({ json: "null" }, docs), "raw-server")?.cls).toBe("raw-server/differ/document-count");
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
