// The tabs' text and the route, against the library in Node: the Wire tab is
// annotateWire's reading of the bytes encode() writes, and the route is createRouter's.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  annotateWire,
  createRouter,
  decode,
  encode,
  formatWireAnnotation,
  fromYaml,
  toJsonString,
  toYaml,
  type Ingress,
  type IngressClass,
} from "../../src/networking/index.js";
import { jsonView, resolveRoute, routeText, wireView, yamlView } from "../../src/playground/views.js";

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), "utf8");
const objects = fromYaml(read("examples/ingress-lifecycle.yaml"));

describe("views", () => {
  it("JSON and YAML are the library's", () => {
    expect(jsonView(objects)).toBe(objects.map((o) => toJsonString(o)).join("\n"));
    expect(yamlView(objects)).toBe(objects.map((o) => toYaml(o)).join("---\n"));
    expect(fromYaml(yamlView(objects)).map((o) => toJsonString(o))).toEqual(objects.map((o) => toJsonString(o)));
  });

  it("the Wire tab is annotateWire's reading of encode()'s bytes, which decode back to the object", () => {
    const blocks = wireView(objects).split(/\n(?=# )/);
    expect(blocks.length).toBe(objects.length);
    blocks.forEach((block, i) => {
      const bytes = encode(objects[i]!);
      expect(toJsonString(decode(bytes))).toBe(toJsonString(objects[i]!));
      expect(block.endsWith("\n") ? block : `${block}\n`).toBe(formatWireAnnotation(annotateWire(bytes), bytes));
      // The first column is each span's offset: they rise, and every byte of the body is shown.
      const offsets = block
        .split("\n")
        .slice(1)
        .filter((l) => l !== "")
        .map((l) => Number.parseInt(l.slice(0, l.indexOf(" ")), 16));
      expect(offsets[0]).toBe(0);
      expect([...offsets].sort((a, b) => a - b)).toEqual(offsets);
    });
  });

  it("routes as createRouter does, with and without a controller", () => {
    const all = fromYaml(`${read("examples/ingressclass-public.yaml")}---\n${read("examples/ingress-shop.yaml")}`);
    const ingresses = all.filter((o) => o.$typeName.endsWith(".Ingress")) as Ingress[];
    const classes = all.filter((o) => o.$typeName.endsWith(".IngressClass")) as IngressClass[];
    for (const [host, path] of [
      ["api.shop.example.com", "/v1/orders"],
      ["tenant.shop.example.com", "/"],
      ["nowhere.example.org", "/x"],
    ] as const) {
      expect(resolveRoute(all, "", host, path)).toEqual(createRouter({ ingresses }).resolve({ host, path }));
      const c = "k8s.io/ingress-nginx";
      expect(resolveRoute(all, c, host, path)).toEqual(
        createRouter({ ingresses, ingressClasses: classes, controller: c }).resolve({ host, path }),
      );
    }
    const result = createRouter({ ingresses }).resolve({ host: "api.shop.example.com", path: "/v1/orders" });
    expect(result.route).not.toBeNull();
    const text = routeText(result);
    expect(text[0]).toMatch(/^Backend: service /);
    expect(text[1]).toContain(result.route!.ingress);
    expect(routeText(createRouter({ ingresses }).resolve({ host: "x.invalid", path: "/" }))[0]).toMatch(
      /^(No backend|Backend)/,
    );
  });
});
