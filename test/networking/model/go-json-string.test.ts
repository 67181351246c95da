// quoteGo is Go's encoding/json string quoting (json.Marshal of a Go string, HTML escaping on).
// GO_MARSHAL below is json.Marshal's output, produced once with Go 1.26 for each input string;
// encoding/json has written strings this way since Go 1.22 (when \b and \f replaced \u0008 and
// \u000c), which covers the Go of every supported Kubernetes release.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteGo } from "../../../src/networking/model/go-json-string.js";
import { propertyRuns } from "../../support/property-runs.js";
import { codeUnitString, wellFormedString } from "../../support/unicode.js";

/** [input, json.Marshal(input)] from Go: control characters, the escaped ASCII, and non-ASCII that is not escaped. */
const GO_MARSHAL: readonly (readonly [string, string])[] = [
  ["\u0000", '"\\u0000"'],
  ["\u0001", '"\\u0001"'],
  ["\u0002", '"\\u0002"'],
  ["\u0003", '"\\u0003"'],
  ["\u0004", '"\\u0004"'],
  ["\u0005", '"\\u0005"'],
  ["\u0006", '"\\u0006"'],
  ["\u0007", '"\\u0007"'],
  ["\u0008", '"\\b"'],
  ["\u0009", '"\\t"'],
  ["\u000a", '"\\n"'],
  ["\u000b", '"\\u000b"'],
  ["\u000c", '"\\f"'],
  ["\u000d", '"\\r"'],
  ["\u000e", '"\\u000e"'],
  ["\u000f", '"\\u000f"'],
  ["\u0010", '"\\u0010"'],
  ["\u0011", '"\\u0011"'],
  ["\u0012", '"\\u0012"'],
  ["\u0013", '"\\u0013"'],
  ["\u0014", '"\\u0014"'],
  ["\u0015", '"\\u0015"'],
  ["\u0016", '"\\u0016"'],
  ["\u0017", '"\\u0017"'],
  ["\u0018", '"\\u0018"'],
  ["\u0019", '"\\u0019"'],
  ["\u001a", '"\\u001a"'],
  ["\u001b", '"\\u001b"'],
  ["\u001c", '"\\u001c"'],
  ["\u001d", '"\\u001d"'],
  ["\u001e", '"\\u001e"'],
  ["\u001f", '"\\u001f"'],
  ["\u0022", '"\\""'],
  ["&", '"\\u0026"'],
  ["<", '"\\u003c"'],
  [">", '"\\u003e"'],
  ["\u005c", '"\\\\"'],
  ["\u007f", '"\u007f"'],
  ["\u0080", '"\u0080"'],
  ["\u0085", '"\u0085"'],
  ["\u009f", '"\u009f"'],
  ["\u00a0", '"\u00a0"'],
  ["\u00ad", '"\u00ad"'],
  ["\u00e9", '"\u00e9"'],
  ["\u2028", '"\\u2028"'],
  ["\u2029", '"\\u2029"'],
  ["\u200b", '"\u200b"'],
  ["\u200e", '"\u200e"'],
  ["\u2060", '"\u2060"'],
  ["\u3000", '"\u3000"'],
  ["\ufeff", '"\ufeff"'],
  ["\ufffd", '"\ufffd"'],
  ["\ufffe", '"\ufffe"'],
  ["\uffff", '"\uffff"'],
  ["\ue000", '"\ue000"'],
  ["\uf8ff", '"\uf8ff"'],
  ["\u0301", '"\u0301"'],
  ["\u4e2d", '"\u4e2d"'],
  ["\u1680", '"\u1680"'],
  ["\u061c", '"\u061c"'],
  ["\u00b7", '"\u00b7"'],
  ["\u0378", '"\u0378"'],
  ["\ud83d\ude00", '"\ud83d\ude00"'],
  ["\udb40\udc01", '"\udb40\udc01"'],
  ["\udbff\udfff", '"\udbff\udfff"'],
  ["\ud800\udc00", '"\ud800\udc00"'],
  ["\udb80\udc00", '"\udb80\udc00"'],
  ["<script>&amp;</script>", '"\\u003cscript\\u003e\\u0026amp;\\u003c/script\\u003e"'],
  ["h\u00e9llo w\u00f6rld\u0009\u0022quoted\u0022\u005c", '"h\u00e9llo w\u00f6rld\\t\\"quoted\\"\\\\"'],
  ["a\u2028b\u2029c\u0000d\u001fe", '"a\\u2028b\\u2029c\\u0000d\\u001fe"'],
];

/** The printable ASCII characters json.Marshal writes as they are (all but `"`, `\`, `<`, `>` and `&`). */
const GO_PLAIN_ASCII = " !#$%'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";

/** A plain reference: JSON.stringify, plus the characters Go escapes that it does not. */
function reference(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

describe("quoteGo (json.Marshal of a string)", () => {
  it.each(GO_MARSHAL)("%j is written as Go writes it", (input, go) => {
    expect(quoteGo(input)).toBe(go);
  });

  it("writes the printable ASCII Go leaves alone as it is, one by one and all together", () => {
    expect(GO_PLAIN_ASCII).toHaveLength(90);
    for (const c of GO_PLAIN_ASCII) expect(quoteGo(c)).toBe(`"${c}"`);
    expect(quoteGo(GO_PLAIN_ASCII)).toBe(`"${GO_PLAIN_ASCII}"`);
  });

  it("the empty string", () => {
    expect(quoteGo("")).toBe('""');
  });

  it("a lone surrogate is U+FFFD, as Go holds it after decoding \\ud800 (a pair stays a pair)", () => {
    expect(quoteGo("\ud800")).toBe('"\ufffd"');
    expect(quoteGo("\udc00")).toBe('"\ufffd"');
    expect(quoteGo("a\ud800b")).toBe('"a\ufffdb"');
    // Reversed, they are two lone surrogates.
    expect(quoteGo("\udc00\ud800")).toBe('"\ufffd\ufffd"');
    expect(quoteGo("\ud800\ud83d\ude00")).toBe('"\ufffd\ud83d\ude00"');
    expect(quoteGo("x\ud83d")).toBe('"x\ufffd"');
  });

  it("escapes inside longer text keep the text around them", () => {
    expect(quoteGo('k8s.io/<name> & "more"\n')).toBe('"k8s.io/\\u003cname\\u003e \\u0026 \\"more\\"\\n"');
  });

  it("equals the reference, and reads back as the same string, for any well-formed string", () => {
    fc.assert(
      fc.property(wellFormedString(), (s) => {
        const out = quoteGo(s);
        return out === reference(s) && JSON.parse(out) === s && !/[<>&\u2028\u2029]/.test(out);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it("any string at all reads back as its well-formed form", () => {
    fc.assert(
      fc.property(codeUnitString(), (s) => {
        const wellFormed = s.replace(
          /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
          "\ufffd",
        );
        return JSON.parse(quoteGo(s)) === wellFormed;
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
