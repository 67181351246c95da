import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkManifests, describeVerdict, formatVerdict, objectLabel } from "../../../src/networking/index.js";
import { REPO, cli } from "../../support/cli/harness.js";

const FILES = [
  "examples/shop-deploy.yaml",
  "examples/invalid/ingress-bad-routes.yaml",
  "examples/invalid/ingressclass-bad.yaml",
  "examples/invalid/netpol-bad-rules.yaml",
];

describe("formatVerdict", () => {
  it.each(FILES)("gives the lines `clusterwire validate` prints for %s", async (file) => {
    const text = readFileSync(join(REPO, file), "utf8");
    const lines = checkManifests(text, { file }).map((v) => formatVerdict(v));
    const r = await cli(["validate", file]);
    const printed = r.stdout.split("\n").filter((l) => l !== "" && !l.startsWith("Summary: "));
    expect(lines.join("\n").split("\n")).toEqual(printed);
  });

  it("quiet: only what needs fixing", () => {
    const text = readFileSync(join(REPO, "examples/shop-deploy.yaml"), "utf8");
    expect(checkManifests(text).map((v) => formatVerdict(v, { quiet: true }))).toEqual(["", "", "", "", ""]);
  });

  it("without a file, lines start at the line (and column)", () => {
    const [v] = checkManifests(
      "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: edge\nspec:\n  controller: nginx\n",
    );
    expect(formatVerdict(v!)).toBe(
      '6:15 IngressClass edge: spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
    );
    expect(formatVerdict(checkManifests("# nothing\n")[0]!)).toBe("skipped: no documents: empty, or comments only");
  });

  it("an error, with its position", () => {
    const [v] = checkManifests("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: [\n", { file: "x.yaml" });
    expect(formatVerdict(v!)).toMatch(/^x\.yaml:4:1 Ingress: error: /);
  });
});

describe("describeVerdict and objectLabel", () => {
  const none = { errors: [], refusals: [], warnings: [] };
  it("name the document compiler style, and its object", () => {
    const v = {
      ...none,
      status: "valid" as const,
      file: "x.yaml",
      line: 12,
      kind: "Ingress",
      namespace: "shop",
      name: "web",
    };
    expect(describeVerdict(v)).toBe("x.yaml:12 Ingress shop/web");
    expect(describeVerdict(v, { line: 14, column: 9 })).toBe("x.yaml:14:9 Ingress shop/web");
    expect(describeVerdict({ ...v, file: undefined } as never)).toBe("12 Ingress shop/web");
    expect(objectLabel({ ...none, status: "valid", kind: "IngressClass", name: "edge" })).toBe("IngressClass edge");
    expect(objectLabel({ ...none, status: "valid", kind: "Ingress", namespace: "shop", generateName: "web-" })).toBe(
      "Ingress shop/web-(generated)",
    );
    expect(objectLabel({ ...none, status: "skipped" })).toBe("");
  });
});
