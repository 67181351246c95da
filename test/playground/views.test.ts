// The tabs' text and the route, against the library in Node: the hex rows read
// back to the bytes encode() writes (which decode() reads back), and the route is
// createRouter's.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  createRouter,
  decode,
  encode,
  fromYaml,
  toJsonString,
  toYaml,
  type Ingress,
  type IngressClass,
} from "../../src/networking/index.js";
import { hexRows, jsonView, resolveRoute, routeText, wireView, yamlView } from "../../src/playground/views.js";

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), "utf8");
const objects = fromYaml(read("examples/ingress-lifecycle.yaml"));

/** The bytes back from hex rows (the offset column dropped, the ASCII column ignored). */
function unhex(rows: string): Uint8Array {
  const bytes: number[] = [];
  for (const line of rows.split("\n")) {
    const m = /^([0-9a-f]{8}) {2}(.{47}) {2}/.exec(line.padEnd(59));
    if (m === null) continue;
    expect(Number.parseInt(m[1]!, 16)).toBe(bytes.length);
    for (const h of m[2]!.trim().split(" ")) if (h !== "") bytes.push(Number.parseInt(h, 16));
  }
  return Uint8Array.from(bytes);
}

describe("views", () => {
  it("JSON and YAML are the library's", () => {
    expect(jsonView(objects)).toBe(objects.map((o) => toJsonString(o)).join("\n"));
    expect(yamlView(objects)).toBe(objects.map((o) => toYaml(o)).join("---\n"));
    expect(fromYaml(yamlView(objects)).map((o) => toJsonString(o))).toEqual(objects.map((o) => toJsonString(o)));
  });

  it("hex rows hold every byte at its offset", () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff);
    expect(unhex(hexRows(bytes))).toEqual(bytes);
    expect(Buffer.from(unhex(hexRows(bytes))).toString("hex")).toBe(Buffer.from(bytes).toString("hex"));
    expect(hexRows(new Uint8Array())).toBe("");
  });

  it("the Wire tab is encode()'s bytes, which decode back to the object", () => {
    const blocks = wireView(objects).split("\n\n");
    expect(blocks.length).toBe(objects.length);
    blocks.forEach((block, i) => {
      const bytes = unhex(block.split("\n").slice(1).join("\n"));
      expect(bytes).toEqual(encode(objects[i]!));
      expect(toJsonString(decode(bytes))).toBe(toJsonString(objects[i]!));
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
