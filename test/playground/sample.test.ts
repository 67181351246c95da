// What the playground opens with says what its comments say: an IngressClass, an Ingress with
// one mistake, one the API server admits, the stored Ingress an update is checked against, and a
// cluster whose shop denies everything but the web tier's port 8080.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_FEATURE_GATES,
  formatFieldError,
  fromYaml,
  kindOf,
  validate,
  type NetworkingObject,
} from "../../src/networking/index.js";
import { analyze } from "../../src/playground/analyze.js";
import { readCluster } from "../../src/playground/reach.js";
import { SAMPLE_CLUSTER, SAMPLE_INPUT, SAMPLE_OLD } from "../../src/playground/sample.js";

const CREATE = { operation: "create", namespace: "default", featureGates: DEFAULT_FEATURE_GATES, old: [] } as const;
const key = (o: NetworkingObject) => {
  const meta = (o as { metadata?: { name?: string; namespace?: string } }).metadata;
  return `${kindOf(o).kind} ${meta?.namespace ? `${meta.namespace}/` : ""}${meta?.name ?? ""}`;
};

describe("SAMPLE_INPUT", () => {
  const objects = fromYaml(SAMPLE_INPUT);

  it("is an IngressClass and two Ingresses of that class", () => {
    expect(objects.map(key)).toEqual(["IngressClass nginx-public", "Ingress shop/promo", "Ingress shop/shop"]);
  });

  it("shows one error, on the promo Ingress's relative path; the others are admitted", () => {
    expect(objects.map((o) => validate(o).map(formatFieldError))).toEqual([
      [],
      [expect.stringMatching(/^spec\.rules\[0\]\.http\.paths\[0\]\.path: Invalid value: "deals": /)],
      [],
    ]);
    const page = analyze(SAMPLE_INPUT, CREATE);
    expect(page.problems).toEqual([]);
    expect(page.errors.map((e) => e.error.field)).toEqual(["spec.rules[0].http.paths[0].path"]);
    // The error is placed on the path's line.
    const line = SAMPLE_INPUT.split("\n").findIndex((l) => l.includes("path: deals"));
    expect(SAMPLE_INPUT.slice(0, page.errors[0]?.range.from).split("\n").length - 1).toBe(line);
  });
});

describe("SAMPLE_OLD", () => {
  it("is the stored shop Ingress, which the sample's shop Ingress is checked against as an update", () => {
    const [old, ...rest] = fromYaml(SAMPLE_OLD);
    expect(rest).toEqual([]);
    expect(key(old!)).toBe("Ingress shop/shop");
    expect(validate(old!)).toEqual([]);
    const shop = fromYaml(SAMPLE_INPUT)[2]!;
    const update = analyze(SAMPLE_INPUT, { ...CREATE, operation: "update", old: [old!] });
    // The shop Ingress is paired with it by name; the other two have no stored object, which is said.
    expect(update.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/old object pane has no IngressClass named "nginx-public"/),
      expect.stringMatching(/old object pane has no Ingress named "promo"/),
    ]);
    const want = validate(shop, { old: old! }).map(formatFieldError);
    expect(want.length).toBeGreaterThan(0);
    expect(update.errors.map((e) => formatFieldError(e.error))).toEqual(want);
  });
});

describe("SAMPLE_CLUSTER", () => {
  it("reads cleanly, and its shop denies all ingress but the web tier's port 8080", () => {
    const r = readCluster(SAMPLE_CLUSTER);
    if ("error" in r) throw new Error(r.error);
    const engine = r.engine;
    expect(engine.pods).toEqual(["edge/proxy", "shop/web", "shop/db"]);
    expect(engine.skipped).toEqual([]);
    const allowed = (from: string, to: string, port: number) =>
      engine.evaluate({ from: { pod: from }, to: { pod: to }, port }).allowed;
    expect(allowed("edge/proxy", "shop/web", 8080)).toBe(true);
    expect(allowed("shop/db", "shop/web", 8080)).toBe(true);
    expect(allowed("edge/proxy", "shop/web", 80)).toBe(false);
    expect(allowed("edge/proxy", "shop/db", 8080)).toBe(false);
    expect(allowed("shop/web", "shop/db", 5432)).toBe(false);
    // The edge is not isolated.
    expect(allowed("shop/db", "edge/proxy", 80)).toBe(true);
  });
});
