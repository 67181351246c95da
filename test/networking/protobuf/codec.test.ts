import { create } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCodec } from "../../../src/networking/protobuf/codec.js";
import {
  DecodeError,
  EncodeError,
  NetworkPolicySchema,
  decode,
  type EncodeOptions,
  type NetworkingObject,
} from "../../../src/networking/index.js";
import { arbObject } from "../../../src/testing/index.js";

// The two codecs under comparison, chosen by value (no process-wide switch).
const codecs = { true: createCodec({ specialised: true }), false: createCodec({ specialised: false }) };
const codec = (specialised: boolean) => codecs[`${specialised}`];
import { fixtureFolders, loadFixtures } from "../../support/fixtures.js";

// The generated decoders (gen/**/*_bin.ts, written by plugin/emit-bin.ts) must
// accept and reject exactly what the generic decoder does, with the same
// values and the same errors.

type Outcome =
  | { ok: true; bytes: string; json: string }
  | { ok: false; error: string; offset: number | undefined; path: string | undefined };

function run(bytes: Uint8Array, specialised: boolean): Outcome {
  const c = codec(specialised);
  try {
    const obj = c.decode(bytes);
    return {
      ok: true,
      bytes: Buffer.from(c.encode(obj)).toString("hex"),
      json: JSON.stringify(obj, (_k, v: unknown) =>
        typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v,
      ),
    };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { ok: false, error: e.message, offset: e.offset, path: e.path };
  }
}

const fixtures = fixtureFolders().flatMap((f) => loadFixtures(f));

describe("generated vs generic decoder", () => {
  // That a generated function exists for every message type is generated.test.ts's to check.
  it("codecs use the generated functions by default", () => {
    expect(createCodec().specialised).toBe(true);
    expect(codec(true).specialised).toBe(true);
    expect(codec(false).specialised).toBe(false);
  });

  it.each(fixtures.map((f) => [`${f.folder} ${f.kind}`, f.pb] as const))("%s decodes identically", (_name, pb) => {
    expect(run(pb, true)).toEqual(run(pb, false));
  });

  it("decoded messages look exactly like protobuf-es create() output", () => {
    const f = fixtures.find((x) => x.folder === "HEAD" && x.kind === "Ingress");
    const a = run((f as { pb: Uint8Array }).pb, true);
    expect(a.ok).toBe(true);
    const obj = codec(true).decode((f as { pb: Uint8Array }).pb) as unknown as Record<string, unknown>;
    const gen = codec(false).decode((f as { pb: Uint8Array }).pb) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(obj)).toBe(Object.getPrototypeOf(gen));
    expect(Object.keys(obj)).toEqual(Object.keys(gen));
    const meta = obj["metadata"] as Record<string, unknown>;
    const genMeta = gen["metadata"] as Record<string, unknown>;
    expect(Object.getPrototypeOf(meta)).toBe(Object.getPrototypeOf(genMeta));
    expect(Object.keys(meta)).toEqual(Object.keys(genMeta));
  });

  // Byte flips, insertions and deletions: truncations, bad varints, wrong
  // wire types, inserted unknown fields, lengths running past their message.
  const arbEdits = fc.array(
    fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("set", "insert", "delete")),
    { minLength: 1, maxLength: 6 },
  );
  function edit(pb: Uint8Array, edits: readonly (readonly [number, number, string])[]): Uint8Array {
    const bytes = Array.from(pb);
    for (const [pos, value, op] of edits) {
      const i = pos % (bytes.length + 1);
      if (op === "set" && i < bytes.length) bytes[i] = value;
      else if (op === "insert") bytes.splice(i, 0, value);
      else if (op === "delete" && i < bytes.length) bytes.splice(i, 1);
    }
    return Uint8Array.from(bytes);
  }

  it("mutated fixtures: same value or same error (3000 runs)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...fixtures.map((f) => f.pb)), arbEdits, (pb, edits) => {
        const input = edit(pb, edits);
        expect(run(input, true)).toEqual(run(input, false));
      }),
      { numRuns: 3000 },
    );
  });

  /** Same prototypes and same own keys in the same order, all the way down. */
  function expectSameShape(a: unknown, b: unknown, path = ""): void {
    if (typeof a !== "object" || a === null) return;
    expect(Object.getPrototypeOf(a), path).toBe(Object.getPrototypeOf(b));
    expect(Object.keys(a), path).toEqual(Object.keys(b as object));
    for (const k of Object.keys(a)) {
      expectSameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    }
  }

  it("generated objects, whole and mutated, decode identically (300 runs)", () => {
    fc.assert(
      fc.property(arbObject(), arbEdits, (o, edits) => {
        const pb = codec(false).encode(o);
        expect(run(pb, true)).toEqual(run(pb, false));
        expectSameShape(codec(true).decode(pb), codec(false).decode(pb));
        const input = edit(pb, edits);
        expect(run(input, true)).toEqual(run(input, false));
      }),
      { numRuns: 300 },
    );
  });
});

// The generated encoders must write exactly what the generic encoder writes,
// and refuse exactly what it refuses, with the same path.
describe("generated vs generic encoder", () => {
  type Written = { ok: true; hex: string } | { ok: false; error: string; path: string };
  function write(obj: NetworkingObject, specialised: boolean, options: EncodeOptions = {}): Written {
    try {
      return { ok: true, hex: Buffer.from(codec(specialised).encode(obj, options)).toString("hex") };
    } catch (e) {
      if (!(e instanceof EncodeError)) throw e;
      return { ok: false, error: e.reason, path: e.path };
    }
  }

  it.each(fixtures.map((f) => [`${f.folder} ${f.kind}`, f.pb] as const))(
    "%s encodes identically, keeping or dropping unknown fields",
    (_n, pb) => {
      const obj = decode(pb);
      expect(write(obj, true)).toEqual(write(obj, false));
      expect(write(obj, true, { unknownFields: "drop" })).toEqual(write(obj, false, { unknownFields: "drop" }));
    },
  );

  it("generated objects, including ones with absent structs, encode identically (1000 runs)", () => {
    fc.assert(
      fc.property(arbObject(), fc.boolean(), (o, drop) => {
        const options: EncodeOptions = drop ? { unknownFields: "drop" } : {};
        expect(write(o, true, options)).toEqual(write(o, false, options));
        const bare = create(NetworkPolicySchema, {});
        expect(write(bare, true)).toEqual(write(bare, false));
      }),
      { numRuns: 1000 },
    );
  });

  it("strings and map entries around the one-byte length limit, ASCII or not, encode identically", () => {
    // The generated path writes a short ASCII string or map entry with its
    // length known in advance and falls back on anything else.
    const texts = (n: number): string[] => [
      "a".repeat(n),
      n > 0 ? `${"a".repeat(n - 1)}é` : "",
      n > 0 ? `é${"a".repeat(n - 1)}` : "",
      n > 1 ? `${"a".repeat(n - 2)}\u{1F600}` : "",
      n > 0 ? `${"a".repeat(n - 1)}\ud800` : "",
    ];
    for (const n of [0, 1, 60, 61, 62, 63, 64, 123, 124, 125, 126, 127, 128, 129, 200]) {
      for (const t of texts(n)) {
        const o = create(NetworkPolicySchema, {
          metadata: { name: t, labels: { [t]: t, k: t, [`${t}k`]: "" }, annotations: { [t]: "v".repeat(n) } },
        });
        expect(write(o, true)).toEqual(write(o, false));
      }
    }
  });

  it("wrongly typed values are refused with the same reason and path", () => {
    type Spoilable = { metadata: Record<string, unknown>; spec: Record<string, unknown> };
    const bad: [string, (o: Spoilable) => void][] = [
      [
        "name",
        (o) => {
          o.metadata.name = 5;
        },
      ],
      [
        "finalizers",
        (o) => {
          o.metadata.finalizers = "abc";
        },
      ],
      [
        "finalizer item",
        (o) => {
          o.metadata.finalizers = ["a", 1];
        },
      ],
      [
        "label value",
        (o) => {
          o.metadata.labels = { a: 1 };
        },
      ],
      [
        "generation",
        (o) => {
          o.metadata.generation = 7;
        },
      ],
      [
        "time",
        (o) => {
          o.metadata.creationTimestamp = { $typeName: "k8s.io.apimachinery.pkg.apis.meta.v1.Time", seconds: 1 };
        },
      ],
      [
        "rule null",
        (o) => {
          o.spec.ingress = [null];
        },
      ],
      [
        "port",
        (o) => {
          o.spec.ingress = [
            {
              $typeName: "k8s.io.api.networking.v1.NetworkPolicyIngressRule",
              ports: [{ $typeName: "k8s.io.api.networking.v1.NetworkPolicyPort", endPort: 1.5 }],
              from: [],
            },
          ];
        },
      ],
      [
        "fieldsV1",
        (o) => {
          o.metadata.managedFields = [
            {
              $typeName: "k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
              fieldsV1: { $typeName: "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1", Raw: "" },
            },
          ];
        },
      ],
    ];
    for (const [name, spoil] of bad) {
      const o = decode(
        (fixtures.find((f) => f.folder === "HEAD" && f.kind === "NetworkPolicy") as { pb: Uint8Array }).pb,
      ) as unknown as Spoilable;
      spoil(o);
      const a = write(o as unknown as NetworkingObject, true);
      expect(a.ok, name).toBe(false);
      expect(a, name).toEqual(write(o as unknown as NetworkingObject, false));
    }
  });
});
