import { describe, expect, it } from "vitest";
import { mutate } from "../../../conformance/campaign/mutate.js";
import { createRng } from "../../../conformance/campaign/rng.js";

const ingress = {
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name: "shop", labels: { app: "shop" } },
  spec: { rules: [{ host: "shop.example.com" }] },
};

describe("mutate", () => {
  it("changes a copy, never the input, and keeps apiVersion and kind", () => {
    const before = JSON.stringify(ingress);
    const rng = createRng(1);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const m = mutate(ingress, rng);
      expect(m.json.apiVersion).toBe("networking.k8s.io/v1");
      expect(m.json.kind).toBe("Ingress");
      seen.add(m.how.split(" ")[0]!);
    }
    expect(JSON.stringify(ingress)).toBe(before);
    // Every kind of mutation is made.
    for (const how of ["drop", "string", "list", "unknown", "type"]) expect(seen).toContain(how);
  });

  it("a type change puts a value of another JSON type in place", () => {
    const rng = createRng(3);
    const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
    let made = 0;
    for (let i = 0; i < 300; i++) {
      const m = mutate(ingress, rng);
      if (!m.how.startsWith("type ")) continue;
      made++;
      const path = m.how
        .slice(5)
        .split(/\.|\[(\d+)\]/)
        .filter((s) => s !== undefined && s !== "");
      const read = (o: unknown) => path.reduce<unknown>((v, s) => (v as Record<string, unknown>)[s], o);
      expect(kind(read(m.json)), m.how).not.toBe(kind(read(ingress)));
    }
    expect(made).toBeGreaterThan(10);
  });

  it("makes the same mutations from the same seed", () => {
    const a = Array.from(
      { length: 20 },
      (
        (rng) => () =>
          mutate(ingress, rng).how
      )(createRng(9)),
    );
    const b = Array.from(
      { length: 20 },
      (
        (rng) => () =>
          mutate(ingress, rng).how
      )(createRng(9)),
    );
    expect(a).toEqual(b);
  });
});
