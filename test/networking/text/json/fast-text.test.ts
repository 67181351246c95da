// The generated JSON readers (plugin/emit-json.ts) through json-fast-text.ts
// against the generic parser and decoder, which are the specification: on
// the fixtures and real manifests the fast path must take them and give the
// same object; on generated objects and mutated texts fromJson must give
// exactly what the generic path gives, value or error (reason, offset,
// line/column, path), in default and strict mode and at small depth limits.

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromJson } from "../../../../src/networking/index.js";
import { genericFromJson, type FromJsonOptions } from "../../../../src/networking/text/json/from-json.js";
import { fastFromJsonText, rfc3339Utc } from "../../../../src/networking/text/json/fast-text.js";
import { parseRfc3339 } from "../../../../src/networking/model/time.js";
import { genericToJsonString } from "../../../../src/networking/text/json/to-json.js";
import { arbObject } from "../../../../src/testing/index.js";
import { decodeOutcome } from "../../../support/errors.js";
import { propertyRuns } from "../../../support/property-runs.js";
import { arbMutation, fixtureJsonTexts, mutate, realWorldJsonTexts } from "../../../support/json-inputs.js";

/** fromJson and the generic path agree on `text`; returns whether the fast path took it. */
function agree(text: string, options: FromJsonOptions = {}): boolean {
  const fast = decodeOutcome(() => fromJson(text, options));
  const generic = decodeOutcome(() => genericFromJson(text, options));
  if (!isDeepStrictEqual(fast, generic)) expect(fast, text).toEqual(generic);
  expect(isDeepStrictEqual(fast, generic), text).toBe(true);
  return fastFromJsonText(text, options.strict === true, options.maxDepth ?? 100) !== undefined;
}

describe("fromJson(text): the generated readers equal the generic path", () => {
  const fixtures = fixtureJsonTexts();
  const real = realWorldJsonTexts();

  it("takes every fixture (indented and compact) and reads what the generic path reads", () => {
    expect(fixtures.length).toBeGreaterThan(30);
    for (const [name, text] of fixtures) {
      const generic = genericFromJson(text);
      const fast = fastFromJsonText(text, false, 100);
      expect(fast, name).toBeDefined();
      expect(isDeepStrictEqual(fast, generic), name).toBe(true);
      const compact = genericToJsonString(generic);
      expect(isDeepStrictEqual(fastFromJsonText(compact, false, 100), genericFromJson(compact)), name).toBe(true);
      agree(text, { strict: true }); // old fixtures hold fields since removed: strict refuses them
    }
  });

  it("takes every real networking manifest and reads what the generic path reads", () => {
    expect(real.length).toBeGreaterThan(40);
    let taken = 0;
    for (const [name, text] of real) {
      // Some real manifests are invalid (a float port, say): those must agree too.
      if (agree(text)) taken++;
      agree(text, { strict: true });
      expect(name).toBeTruthy();
    }
    expect(taken).toBeGreaterThan(real.length * 0.9);
  });

  it("agrees on generated objects, compact and indented", () => {
    fc.assert(
      fc.property(arbObject({ json: true, maxDepth: 6 }), (o) => {
        const text = genericToJsonString(o);
        expect(agree(text)).toBe(true);
        agree(genericToJsonString(o, "  "), { strict: true });
      }),
      { numRuns: 150 },
    );
  });

  it("agrees on mutated texts (repeated keys, escapes, surrogates, odd numbers, nulls, wrong types, truncation)", () => {
    const texts = [...fixtures.filter(([n]) => n.startsWith("HEAD/")), ...real.slice(0, 20)].map(([, t]) => t);
    let taken = 0;
    let given = 0;
    fc.assert(
      fc.property(
        fc.nat(texts.length - 1),
        arbMutation,
        fc.constantFrom<FromJsonOptions>({}, { strict: true }, { maxDepth: 4 }, { maxDepth: 6, strict: true }),
        (i, m, options) => {
          const text = mutate(texts[i] as string, m);
          if (agree(text, options)) taken++;
          else given++;
        },
      ),
      { numRuns: 600 },
    );
    // Both paths were exercised: not every mutation is rare, and not every one is common.
    expect(taken).toBeGreaterThan(20);
    expect(given).toBeGreaterThan(20);
  });

  it("gives up on the rare cases it leaves to the generic path", () => {
    const head = '{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1"';
    const rare = [
      `${head},"metadata":{"name":"a","name":"b"}}`, // a repeated key: Go merges
      `${head},"metadata":{"labels":{"a":"1","a":"2"}}}`,
      `${head},"kind":"NetworkPolicy"}`,
      `${head},"metadata":{"generation":1.0}}`,
      `${head},"metadata":{"generation":-0}}`,
      `${head},"spec":{"ingress":[{"ports":[{"port":1e2}]}]}}`,
      `${head},"metadata":{"name":5}}`,
      `${head},"metadata":{"creationTimestamp":"yesterday"}}`,
      `${head},"metadata":{"name":"a"}`,
      `${head}} x`,
      '{"metadata":{},"kind":"NetworkPolicy"}',
      '{"kind":"Pod","apiVersion":"v1"}',
      "[]",
    ];
    for (const text of rare) {
      expect(fastFromJsonText(text, false, 100), text).toBeUndefined();
      agree(text);
    }
    expect(fastFromJsonText(`${head},"unknown":{"a":[1,2.5e3,null,"\\u00e9"]}}`, true, 100)).toBeUndefined();
    expect(fastFromJsonText(`${head},"unknown":{"a":[1,2.5e3,null,"\\u00e9"]}}`, false, 100)).toBeDefined();
    expect(fastFromJsonText(`${head},"spec":{"podSelector":{}}}`, false, 2)).toBeUndefined();
    expect(fastFromJsonText(`${head},"spec":{"podSelector":{}}}`, false, 3)).toBeDefined();
  });

  it("reads keys in any order, not only the Go order it guesses first", () => {
    const reorder = (v: unknown, how: (keys: string[]) => string[]): unknown => {
      if (Array.isArray(v)) return v.map((x) => reorder(x, how));
      if (v === null || typeof v !== "object") return v;
      const o = v as Record<string, unknown>;
      return Object.fromEntries(how(Object.keys(o)).map((k) => [k, reorder(o[k], how)]));
    };
    const rotate = (keys: string[]) => [...keys.slice(1), ...keys.slice(0, 1)];
    let n = 0;
    for (const [name, text] of fixtures.filter(([f]) => f.startsWith("HEAD/"))) {
      const parsed: unknown = JSON.parse(text);
      for (const how of [(k: string[]) => [...k].reverse(), rotate]) {
        const moved = JSON.stringify(reorder(parsed, how));
        expect(agree(moved), name).toBe(true);
        n++;
      }
      // Spaces before colons and unknown keys between known ones defeat the guess, not the reader.
      const spaced = genericToJsonString(genericFromJson(text), "  ").replace(/":/g, '" :');
      expect(agree(spaced), name).toBe(true);
      const unknown = JSON.stringify(reorder(parsed, (k) => k.flatMap((x) => [`${x}X`, x])));
      agree(unknown);
      agree(unknown, { strict: true });
    }
    expect(n).toBeGreaterThan(5);
  });

  it("guesses a key only when the text spells it exactly, quoted and with its colon (a near miss is read as what it is)", () => {
    // The generated guesses compare each known key unit by unit in place; every near miss of one
    // must fall to key() and the switch, and give what the generic path gives.
    const texts = fixtures
      .filter(([n]) => n.startsWith("HEAD/"))
      .map(([, t]) => genericToJsonString(genericFromJson(t)));
    const nearMiss = [
      (k: string) => k.slice(0, -1),
      (k: string) => `${k}s`,
      (k: string) => `${k.slice(0, -1)}${String.fromCharCode(k.charCodeAt(k.length - 1) + 1)}`,
      (k: string) => `${k[0]?.toUpperCase()}${k.slice(1)}`,
      (k: string) => `\\u${(k.charCodeAt(0) + 0x10000).toString(16).slice(1)}${k.slice(1)}`,
    ];
    fc.assert(
      fc.property(
        fc.nat(texts.length - 1),
        fc.nat(),
        fc.nat(nearMiss.length - 1),
        fc.constantFrom("", " ", "\n"),
        fc.constantFrom<FromJsonOptions>({}, { strict: true }),
        (i, at, how, space, options) => {
          const text = texts[i] as string;
          const keys = [...text.matchAll(/"([A-Za-z]+)":/g)];
          const hit = keys[at % keys.length] as RegExpMatchArray;
          const k = hit[1] as string;
          const from = hit.index as number;
          const changed = `${text.slice(0, from)}"${(nearMiss[how] as (k: string) => string)(k)}"${space}:${text.slice(from + k.length + 3)}`;
          agree(changed, options);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });

  it("takes the kind from the start of the text it remembers only when it is the same text", () => {
    const np = '{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1"';
    const ic = '{"kind":"IngressClass","apiVersion":"networking.k8s.io/v1"';
    for (const text of [
      `${np},"metadata":{"name":"a"}}`,
      `${np},"metadata":{"name":"a"}}`,
      `${ic},"metadata":{"name":"b"}}`,
      `${np},"metadata":{"name":"c"}}`,
      `${np},"kind":"IngressClass"}`,
      `${np},"apiVersion":"v1"}`,
      `${np},"kind":null}`,
      `${np}}`,
      `${np.slice(0, -1)}2"}`,
      ` ${np},"metadata":{}}`,
      // After a remembered head, the rest of the text is still checked for odd units.
      `${np},"metadata":{"name":"a\\u0062"}}`,
      `${np},"metadata":{"name":"a\tb"}}`,
      `${np},"metadata":{"name":"a\ud800"}}\n`,
      `${np},\n"metadata":{"name":"a\nb"}}`,
      `${np},"metadata":{"name":"ab"}}\n\t `,
      // The reader starts after a remembered head, with kind and apiVersion seen.
      `${np}, \n"metadata":{"name":"a"}}`,
      `${np},}`,
      `${np},"apiVersion":null}`,
      `${np},"metadata":{},"kind":"NetworkPolicy"}`,
      `${np},"Kind":"x"}`,
      `${np},"x":1}`,
      `${np},"metadata":{"name":"a"},"spec":{}} x`,
    ]) {
      agree(text);
      agree(text, { strict: true, maxDepth: 1 });
      agree(text, { maxDepth: 0 });
    }
  });

  it("reads timestamps in place only in the API server's exact form", () => {
    const head = '{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1","metadata":{"creationTimestamp":';
    for (const t of [
      '"2008-01-01T01:01:01Z"',
      '"2008-01-01T01:01:01.5Z"',
      '"2008-01-01T01:01:01+01:00"',
      '"2008-02-30T01:01:01Z"',
      '"2008-01-01T01:01:01Z',
      '"2008-01-01T01:01:0\\u0031Z"',
      '"2008-01-01T01:01:01z"',
      '"0000-01-01T00:00:00Z"',
      '"9999-12-31T23:59:59Z"',
    ]) {
      agree(`${head}${t}}}`);
    }
  });

  it("reads strings by indexOf only in clean text: one odd character anywhere in a compact text, wrapped in whitespace or not", () => {
    // The reader reads strings and keys without checking them when the text between its
    // leading and trailing whitespace has no backslash, control character or surrogate.
    const texts = [...fixtures.filter(([n]) => n.startsWith("HEAD/")), ...real.slice(0, 20)].map(([, t]) =>
      genericToJsonString(genericFromJson(t)),
    );
    const odd = [
      "\\",
      "\\n",
      '\\"',
      "\\u0041",
      "\n",
      "\t",
      "\r",
      "\u0000",
      "\u001f",
      "\ud800",
      "\udfff",
      "\ud83d\ude00",
      "é",
      "\u2028",
    ];
    const pad = ["", " ", "\n", " \t\r\n ", "\ufeff"];
    fc.assert(
      fc.property(
        fc.nat(texts.length - 1),
        fc.nat(),
        fc.nat(odd.length - 1),
        fc.constantFrom(...pad),
        fc.constantFrom(...pad),
        fc.constantFrom<FromJsonOptions>({}, { strict: true }),
        (i, at, o, before, after, options) => {
          const text = texts[i] as string;
          // Inside a string (just after an opening or closing quote), or anywhere.
          const quotes = [...text.matchAll(/"/g)].map((q) => q.index as number);
          const cut = at % 2 === 0 ? (quotes[at % quotes.length] as number) + 1 : at % (text.length + 1);
          const changed = `${before}${text.slice(0, cut)}${odd[o]}${text.slice(cut)}${after}`;
          agree(changed, options);
          const taken = agree(`${before}${text}${after}`, options);
          if (before !== "\ufeff" && after !== "\ufeff") expect(taken).toBe(true);
        },
      ),
      { numRuns: propertyRuns(400) },
    );
  });

  it("reads keys with escapes, strings with surrogates and big int64s as Go does", () => {
    const head = '{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1"';
    for (const text of [
      `${head},"m\\u0065tadata":{"name":"\\ud800x","labels":{"\\udc00":"\\ud83d\\ude00"}}}`,
      `${head},"metadata":{"name":"\ud800","annotations":{"a":"\\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t"}}}`,
      `${head},"metadata":{"generation":9223372036854775807,"deletionGracePeriodSeconds":-9223372036854775808}}`,
      `${head},"metadata":{"managedFields":[{"fieldsV1":{"f:a" : { } },"time":null},{"fieldsV1":"raw\\u0020"}]}}`,
      `${head},"metadata":{"__proto__":{"a":1},"labels":{"__proto__":"x"}}}`,
    ]) {
      expect(agree(text), text).toBe(true);
    }
  });
});

describe("rfc3339Utc: the API server's timestamps, read without parseRfc3339", () => {
  it("equals parseRfc3339 wherever it answers, and answers for every valid YYYY-MM-DDTHH:MM:SSZ", () => {
    const pad = (n: number, w: number) => String(n).padStart(w, "0");
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (y, mo, d, h, mi, s) => {
          const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}Z`;
          const generic = parseRfc3339(text);
          const fast = rfc3339Utc(text);
          if (typeof generic === "bigint") expect(fast, text).toBe(generic);
          else expect(fast, text).toBeUndefined();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("leaves every other form to parseRfc3339", () => {
    for (const text of [
      "2024-01-01T00:00:00+01:00",
      "2024-01-01T00:00:00.5Z",
      "2024-01-01t00:00:00Z",
      "2024-01-01T00:00:00z",
      "+024-01-01T00:00:00Z",
      "2024-1-01T00:00:00Z ",
      "２０２４-01-01T00:00:00Z",
      "",
    ])
      expect(rfc3339Utc(text), text).toBeUndefined();
    expect(rfc3339Utc("0000-01-01T00:00:00Z")).toBe(parseRfc3339("0000-01-01T00:00:00Z"));
    expect(rfc3339Utc("9999-12-31T23:59:59Z")).toBe(parseRfc3339("9999-12-31T23:59:59Z"));
    expect(rfc3339Utc("2000-02-29T12:00:00Z")).toBe(parseRfc3339("2000-02-29T12:00:00Z"));
    expect(rfc3339Utc("1900-02-29T12:00:00Z")).toBeUndefined();
  });
});
