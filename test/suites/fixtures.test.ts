import { describe, expect, it } from "vitest";
import { decode, encode, fromJson, fromYaml, toJsonString, toYaml } from "../../src/networking/index.js";
import { currentFolders, loadFixtures, type Fixture } from "../support/fixtures.js";
import { hex } from "../support/bytes.js";

// The upstream round-trip fixtures: one object per kind stored as .pb, .json and
// .yaml. Current code must reproduce every byte of v1.30.0 up to HEAD.

/** Compares bytes and, on failure, shows where they first differ. */
function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  if (Buffer.compare(Buffer.from(actual), Buffer.from(expected)) === 0) return;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  expect.fail(
    `bytes differ at offset ${i} (lengths ${actual.length} vs ${expected.length}):\n` +
      `  got  ${hex(actual.subarray(Math.max(0, i - 8), i + 16))}\n` +
      `  want ${hex(expected.subarray(Math.max(0, i - 8), i + 16))}`,
  );
}

const current = currentFolders();

describe.each(current)("fixtures %s", (folder) => {
  const fixtures = loadFixtures(folder);

  it("has every kind of the group", () => {
    const kinds = fixtures.map((f) => f.kind).sort();
    const expected = ["Ingress", "IngressClass", "NetworkPolicy"];
    // IPAddress and ServiceCIDR went GA in v1 at 1.33.
    if (folder === "HEAD" || !/^v1\.(30|31|32)\./.test(folder)) expected.push("IPAddress", "ServiceCIDR");
    expect(kinds).toEqual(expected.sort());
  });

  describe.each(fixtures.map((f): [string, Fixture] => [f.kind, f]))("%s", (_kind, f) => {
    it("encode(decode(pb)) equals the .pb bytes", () => {
      expectSameBytes(encode(decode(f.pb)), f.pb);
    });
    it("encode(fromJson(json)) equals the .pb bytes", () => {
      expectSameBytes(encode(fromJson(f.json)), f.pb);
    });
    it("encode(fromYaml(yaml)[0]) equals the .pb bytes", () => {
      const docs = fromYaml(f.yaml);
      expect(docs).toHaveLength(1);
      expectSameBytes(encode(docs[0] as never), f.pb);
    });
    it("toJsonString(decode(pb), 2) equals the .json text", () => {
      expect(toJsonString(decode(f.pb), 2)).toBe(f.json);
    });
    it("toYaml(decode(pb)) equals the .yaml text", () => {
      expect(toYaml(decode(f.pb))).toBe(f.yaml);
    });
    it("decodes to the same object from all three formats", () => {
      const fromPb = toJsonString(decode(f.pb));
      expect(toJsonString(fromJson(f.json))).toBe(fromPb);
      expect(toJsonString(fromYaml(f.yaml)[0] as never)).toBe(fromPb);
    });
  });
});

describe("fixtures v1.27.0: NetworkPolicy still carries the removed field 3 (status)", () => {
  const np = loadFixtures("v1.27.0").find((f) => f.kind === "NetworkPolicy") as Fixture;
  const after = np.after as Required<NonNullable<Fixture["after"]>>;

  it("has after_roundtrip files", () => {
    expect(after.pb).toBeDefined();
    expect(after.json).toBeDefined();
    expect(after.yaml).toBeDefined();
  });
  it("keeps field 3 as an unknown field by default", () => {
    const obj = decode(np.pb) as unknown as { $unknown?: { no: number }[] };
    expect(obj.$unknown?.map((u) => u.no)).toEqual([3]);
    expectSameBytes(encode(decode(np.pb)), np.pb);
  });
  it("re-encodes to after_roundtrip.pb with Go's unknown-field handling", () => {
    expectSameBytes(encode(decode(np.pb), { unknownFields: "drop" }), after.pb);
  });
  it("JSON and YAML re-encode to after_roundtrip.pb", () => {
    expectSameBytes(encode(fromJson(np.json)), after.pb);
    expectSameBytes(encode(fromYaml(np.yaml)[0] as never), after.pb);
  });
  it("renders to after_roundtrip.json and .yaml", () => {
    expect(toJsonString(decode(np.pb), 2)).toBe(after.json);
    expect(toJsonString(fromJson(np.json), 2)).toBe(after.json);
    expect(toYaml(decode(np.pb))).toBe(after.yaml);
  });
  it.each(["Ingress", "IngressClass"])("%s round-trips byte for byte", (kind) => {
    const f = loadFixtures("v1.27.0").find((x) => x.kind === kind) as Fixture;
    expectSameBytes(encode(decode(f.pb)), f.pb);
    expect(toJsonString(decode(f.pb), 2)).toBe(f.json);
    expectSameBytes(encode(fromJson(f.json)), f.pb);
  });
});

describe("fixtures v1.19.0: fuzzed objects from the first v1 release", () => {
  const fixtures = loadFixtures("v1.19.0");

  it.each(fixtures.map((f): [string, Fixture] => [f.kind, f]))(
    "%s decodes, keeping clusterName (field 15) as unknown",
    (_k, f) => {
      const obj = decode(f.pb) as unknown as { metadata: { $unknown?: { no: number; data: Uint8Array }[] } };
      const unknown = obj.metadata.$unknown ?? [];
      expect(unknown.map((u) => u.no)).toEqual([15]);
      // The JSON fixture names the same value.
      const clusterName = (JSON.parse(f.json) as { metadata: { clusterName: string } }).metadata.clusterName;
      expect(
        Buffer.from((unknown[0] as { data: Uint8Array }).data)
          .subarray(1)
          .toString("utf8"),
      ).toBe(clusterName);
    },
  );

  it.each(fixtures.map((f): [string, Fixture] => [f.kind, f]))("%s re-encoding keeps the unknown field", (_k, f) => {
    const again = decode(encode(decode(f.pb))) as unknown as {
      metadata: { $unknown?: { no: number; data: Uint8Array }[] };
    };
    const first = decode(f.pb) as unknown as { metadata: { $unknown?: { no: number; data: Uint8Array }[] } };
    expect(again.metadata.$unknown).toEqual(first.metadata.$unknown);
    // Stable from then on.
    expectSameBytes(encode(decode(encode(decode(f.pb)))), encode(decode(f.pb)));
  });

  it.each(fixtures.map((f): [string, Fixture] => [f.kind, f]))("%s: pb and JSON decode to the same object", (_k, f) => {
    // JSON drops clusterName (no longer a field), as Go does; so does pb with drop.
    expectSameBytes(encode(fromJson(f.json)), encode(decode(f.pb), { unknownFields: "drop" }));
    expectSameBytes(encode(fromYaml(f.yaml)[0] as never), encode(decode(f.pb), { unknownFields: "drop" }));
  });

  it.each(fixtures.map((f): [string, Fixture] => [f.kind, f]))("%s int64 values beyond 2^53 stay exact", (_k, f) => {
    const obj = decode(f.pb) as unknown as { metadata: { generation: bigint } };
    const text = /"generation": (-?\d+)/.exec(f.json)?.[1] as string;
    expect(obj.metadata.generation).toBe(BigInt(text));
    expect(toJsonString(decode(f.pb), 2)).toContain(`"generation": ${text}`);
  });

  it("IngressClass renders like after_roundtrip.json except for what HEAD code changed since 1.21", () => {
    const ic = fixtures.find((f) => f.kind === "IngressClass") as Fixture;
    const after = ic.after?.json as string;
    // after_roundtrip reflects release-1.21 code. HEAD code additionally drops
    // clusterName and omits the zero creationTimestamp (omitzero since 1.34).
    const expected = after.replace(/\n {4}"creationTimestamp": null,/, "").replace(/\n {4}"clusterName": "[^"]*",/, "");
    expect(toJsonString(decode(ic.pb), 2)).toBe(expected);
  });
});
