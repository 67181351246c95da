import { describe, expect, it } from "vitest";
import { MODES, ambiguity, compare, normaliseMessage } from "../../../bench/yaml-differential/differential.js";
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

describe("compare: Go's JSON read with the API server's depth limit", () => {
  // Go's answer (planted) holds an unknown field `x` nested `levels` deep in JSON (the object is level 1).
  const deep = (levels: number): string =>
    JSON_TEXT.replace(/}$/, `,"x":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`);

  it("reads Go's JSON deeper than fromJson's default of 100, as encoding/json does (its limit: 10,000)", () => {
    // 5,000, not 10,000: fromJson's JSON parser recurses, and runs out of stack before 10,000 levels.
    for (const levels of [101, 5_000]) {
      const a = answer({ json: deep(levels) }, [{ text: TEXT, json: deep(levels) }]);
      // fromJson drops the unknown field, so Go's object is clusterwire's.
      expect(compare(TEXT, a, "lax"), `${levels}`).toBeUndefined();
      expect(compare(TEXT, a, "lax-server"), `${levels}`).toBeUndefined();
    }
  });

  it("refuses Go's JSON 10,001 levels deep, as the API server's decoder would", () => {
    const a = answer({ json: deep(10_001) }, [{ text: TEXT, json: deep(10_001) }]);
    // The depth limit, or the stack before it (fromJson's parser recurses): a DecodeError either way.
    const refused = /^lax(-server)?\/we-accept\/fromjson-(nesting-deeper-than-n|input-nested-too-deeply)$/;
    expect(compare(TEXT, a, "lax")?.cls).toMatch(refused);
    expect(compare(TEXT, a, "lax-server")?.cls).toMatch(refused);
  });
});

describe("ambiguity", () => {
  // What the oracle answers for `1: a\n1.0: b\n` (one run; Go's winner is random).
  const text = "1: a\n1.0: b\n";
  const piece = { json: '{"1":"b"}', ambiguousKeys: "1" };

  it("names the colliding key in every mode whose answer is that JSON", () => {
    const a = answer(piece, [{ text, ...piece }]);
    for (const mode of MODES) expect(ambiguity(a, mode), mode).toBe("1");
  });

  it("is undefined for an answer the oracle did not flag", () => {
    for (const mode of MODES) expect(ambiguity(answer({ json: JSON_TEXT }), mode), mode).toBeUndefined();
  });

  it("counts only the pieces the mode reads: kubectl's documents, or the body", () => {
    const first = "a: 1\n";
    // The body is go-yaml's first document only; the second split document is the ambiguous one.
    const a = answer({ json: '{"a":1}' }, [
      { text: first, json: '{"a":1}' },
      { text, ...piece },
    ]);
    expect(ambiguity(a, "lax")).toBe("1");
    expect(ambiguity(a, "raw-strict")).toBe("1");
    expect(ambiguity(a, "lax-server")).toBeUndefined();
    expect(ambiguity(a, "raw-server")).toBeUndefined();
    const b = answer(piece, [{ text: first, json: '{"a":1}' }]);
    expect(ambiguity(b, "strict")).toBeUndefined();
    expect(ambiguity(b, "strict-server")).toBe("1");
  });

  it("is undefined where the mode's answer is an error, which Go gives whatever its map order", () => {
    // `x: {1: a, '1': b}\nx: 2`-like: YAMLToJSON reads it, YAMLToJSONStrict refuses the repeated x.
    const strictError = 'yaml: unmarshal errors:\n  line 2: key "x" already set in map';
    const a = answer({ ...piece, strictError }, [{ text, ...piece, strictError }]);
    expect(ambiguity(a, "lax")).toBe("1");
    expect(ambiguity(a, "raw-server")).toBe("1");
    expect(ambiguity(a, "strict")).toBeUndefined();
    expect(ambiguity(a, "raw-strict-server")).toBeUndefined();
    // kubectl's answer is a later document's error, so an earlier ambiguous document does not matter.
    const error = "yaml: line 2: did not find expected key";
    const b = answer(piece, [
      { text, ...piece },
      { text: "a: [\n", error, strictError: error },
    ]);
    expect(ambiguity(b, "lax")).toBeUndefined();
    expect(ambiguity(b, "lax-server")).toBe("1");
    expect(
      ambiguity({ docs: [], splitError: "invalid Yaml document separator: x", body: piece }, "raw"),
    ).toBeUndefined();
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
