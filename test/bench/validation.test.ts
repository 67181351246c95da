// Keeps the bench's validation comparison honest: the timed inputs are valid
// for both validators, and the coverage table shows what each one catches.

import { beforeAll, describe, expect, it } from "vitest";
import { decode, fromJson, validate } from "../../src/networking/index.js";
import { loadValidationInputs } from "../../bench/fixtures.js";
import {
  coverageCases,
  kubernetesModelsVerdict,
  loadKubernetesModels,
  runCoverage,
  type KubernetesModels,
} from "../../bench/validation.js";

let km: KubernetesModels;

beforeAll(async () => {
  const loaded = await loadKubernetesModels();
  if ("error" in loaded) throw new Error(`kubernetes-models did not load: ${loaded.error}`);
  km = loaded;
});

describe("bench validation inputs", () => {
  for (const input of loadValidationInputs()) {
    it(`${input.name} is valid for clusterwire, from protobuf and from JSON`, () => {
      expect(validate(decode(input.envelope))).toEqual([]);
      expect(validate(fromJson(input.json))).toEqual([]);
    });
    it(`${input.name} is valid for kubernetes-models`, () => {
      expect(kubernetesModelsVerdict(km, input.json)).toMatchObject({ rejected: false });
    });
  }
});

describe("bench coverage cases", () => {
  it("clusterwire agrees with the API server on every case", () => {
    for (const row of runCoverage(km)) {
      expect({ label: row.label, threw: row.clusterwire.threw ?? false, rejected: row.clusterwire.rejected }).toEqual({
        label: row.label,
        threw: false,
        rejected: row.apiserver === "rejects",
      });
    }
  });

  it("the JSON schema catches only the enum controls and rejects a missing podSelector", () => {
    const rejectedBySchema = runCoverage(km)
      .filter((row) => row.kubernetesModels?.rejected === true)
      .map((row) => row.label);
    const expected = coverageCases()
      .map((c) => c.label)
      .filter((label) => label.startsWith("control:") || label.includes("without podSelector"));
    expect(rejectedBySchema).toEqual(expected);
  });
});
