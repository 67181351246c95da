// Malformed input for fromJson and fromYaml on random text: every bad input raises a DecodeError saying
// where (byte offset, path, line/column) and why, and nothing else is thrown.

import fc from "fast-check";
import { describe, it } from "vitest";
import { fromJson, fromYaml } from "../../src/networking/index.js";
import { allFixtures, arbMutation, mutateText, onlyDecodeError } from "../support/bad-input.js";

describe("JSON and YAML: random input only ever throws DecodeError", () => {
  const jsons = allFixtures.map((f) => f.json);
  const yamls = allFixtures.map((f) => f.yaml);

  it("fromJson on random strings and random JSON values", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.json(),
          fc
            .jsonValue()
            .map((v) => JSON.stringify({ kind: "NetworkPolicy", apiVersion: "networking.k8s.io/v1", spec: v })),
        ),
        fc.boolean(),
        (text, strict) => onlyDecodeError(() => fromJson(text, { strict }), JSON.stringify(text)),
      ),
      { numRuns: 1000 },
    );
  });

  it("fromJson on random values placed inside a fixture", () => {
    fc.assert(
      fc.property(fc.constantFrom(...jsons), fc.jsonValue(), fc.nat(), (text, value, pick) => {
        const obj = JSON.parse(text) as Record<string, unknown>;
        // Replace one object member somewhere in the tree.
        const holders: Record<string, unknown>[] = [];
        const walk = (v: unknown): void => {
          if (v !== null && typeof v === "object") {
            if (!Array.isArray(v)) holders.push(v as Record<string, unknown>);
            for (const x of Object.values(v)) walk(x);
          }
        };
        walk(obj);
        const holder = holders[pick % holders.length] as Record<string, unknown>;
        const keys = Object.keys(holder);
        const key = keys[pick % Math.max(1, keys.length)] ?? "x";
        holder[key] = value;
        onlyDecodeError(() => fromJson(JSON.stringify(obj)), `${key}=${JSON.stringify(value)}`);
        onlyDecodeError(() => fromJson(obj as never), `${key}=${JSON.stringify(value)} (value)`);
      }),
      { numRuns: 1000 },
    );
  });

  it("fromJson on mutated fixture JSON (2000 runs)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...jsons),
        fc.array(arbMutation, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (text, muts, strict) => {
          const t = mutateText(text, muts);
          onlyDecodeError(() => fromJson(t, { strict }), t);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("fromYaml on mutated fixture YAML (2000 runs)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...yamls), fc.array(arbMutation, { minLength: 1, maxLength: 6 }), (text, muts) => {
        const t = mutateText(text, muts);
        onlyDecodeError(() => fromYaml(t), t);
      }),
      { numRuns: 2000 },
    );
  });

  it("fromYaml on random strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.string({ unit: fc.constantFrom(..."{}[]:-? ,#&*!|>'\"%@`\n\tab0.~") }),
        ),
        (text) => {
          onlyDecodeError(() => fromYaml(text), JSON.stringify(text));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

// ------------------------------------------------------------ YAML
