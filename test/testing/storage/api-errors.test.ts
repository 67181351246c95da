import { describe, expect, it } from "vitest";
import { StorageApiError, apiError } from "../../../src/storage/index.js";
import { arbApiErrorModel } from "../../../src/testing/storage/index.js";
import { checkArbitraryQuality } from "../quality.js";
import { asJson } from "./spec.js";

describe("models: decode returns them unchanged, and they hold the spec's invariants", () => {
  it("arbApiErrorModel: error bodies apiError decodes and turns into a StorageApiError", () => {
    checkArbitraryQuality(arbApiErrorModel(), {
      contract: (b) => {
        expect(apiError.decode(asJson(b))).toStrictEqual(b);
        expect(b.error.code).toMatch(/^[0-9]+$/);
        const e = apiError.toStorageApiError(asJson(b), { status: 400, request: "GET /api/storage/namespaces" });
        expect(e).toBeInstanceOf(StorageApiError);
        expect([e.code, e.apiMessage, e.target]).toEqual([b.error.code, b.error.message, b.error.target]);
      },
    });
  });
});
