// locator() against an independent reading of the same documents: the plain
// value (yaml's parse, no AST) says which prefix of an error's path exists,
// and the located text must be that field's key, in YAML and in JSON.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { fromYaml, splitYamlDocuments, validate } from "../../src/networking/index.js";
import { locator } from "../../src/playground/locate.js";

const INVALID = ["ingress-bad-routes.yaml", "ingressclass-bad.yaml", "netpol-bad-rules.yaml"].map((f) =>
  readFileSync(new URL(`../../examples/invalid/${f}`, import.meta.url), "utf8"),
);

/** The longest prefix of `path` that exists in `value`. */
function existing(value: unknown, path: readonly (string | number)[]): (string | number)[] {
  const out: (string | number)[] = [];
  let at: unknown = value;
  for (const seg of path) {
    if (typeof seg === "number" && Array.isArray(at) && seg < at.length) at = at[seg];
    else if (typeof seg === "string" && at !== null && typeof at === "object" && !Array.isArray(at) && seg in at)
      at = (at as Record<string, unknown>)[seg];
    else break;
    out.push(seg);
  }
  return out;
}

const docs = INVALID.flatMap((t) => splitYamlDocuments(t).map((d) => d.text));

describe("locator", () => {
  it("has errors to place (the examples are invalid)", () => {
    expect(docs.flatMap((d) => fromYaml(d).flatMap((o) => validate(o))).length).toBeGreaterThanOrEqual(11);
  });

  for (const [format, render] of [
    ["YAML", (d: string) => d],
    ["JSON", (d: string) => JSON.stringify(parse(d), null, 2)],
  ] as const) {
    it(`puts each error of the invalid examples on its field's key (${format})`, () => {
      let checked = 0;
      for (const yamlText of docs) {
        const text = render(yamlText);
        const value = parse(text) as unknown;
        const l = locator(text);
        for (const obj of fromYaml(yamlText)) {
          for (const e of validate(obj)) {
            const prefix = existing(value, e.path);
            const last = prefix.at(-1);
            const r = l.locate(e.path);
            const found = text.slice(r.from, r.to);
            if (typeof last === "string") expect(found).toBe(format === "JSON" ? JSON.stringify(last) : last);
            else if (typeof last === "number") expect(found.length).toBeGreaterThan(0);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThanOrEqual(11);
    });
  }

  it("falls back to the nearest parent for a missing field, and to the document for none", () => {
    const text = "kind: Ingress\nspec:\n  rules:\n    - host: a\n";
    const l = locator(text);
    expect(text.slice(l.locate(["spec", "rules", 0, "http", "paths"]).from).startsWith("host: a")).toBe(true);
    expect(l.locate(["metadata", "name"])).toEqual({ from: 0, to: text.length });
    expect(text.slice(l.locate(["spec", "rules"]).from, l.locate(["spec", "rules"]).to)).toBe("rules");
  });

  it("takes a repeated key's last occurrence, as the decoder keeps its last value", () => {
    const text = "spec:\n  a: 1\n  a: 2\n";
    expect(locator(text).locate(["spec", "a"]).from).toBe(text.lastIndexOf("a:"));
  });
});
