// The error-body codec (src/storage/codecs/api-error.ts).

import { describe, expect, it } from "vitest";
import { StorageApiError, apiError } from "../../../src/storage/index.js";
import { expectCodecError } from "../../support/storage/codecs-helpers.js";

describe("apiError", () => {
  it("decodes the error body", () => {
    const json = {
      error: { message: "entry doesn't exist", code: "4", target: "uuid", arguments: [{ code: "4", message: "x" }] },
    };
    expect(apiError.decode(json)).toEqual(json);
    expect(apiError.decode({ error: { message: "m", code: 262197 } })).toEqual({
      error: { message: "m", code: "262197" },
    });
    expectCodecError(() => apiError.decode({}), "error", /required/);
    expectCodecError(() => apiError.decode({ error: "boom" }), "error", /object/);
    expectCodecError(() => apiError.decode({ error: { target: 1 } }), "error.target", /string/);
  });

  it("builds a StorageApiError", () => {
    const error = apiError.toStorageApiError(
      { error: { message: "The request contains more than one file", code: "10551807", target: "file" } },
      { status: 400, request: "POST /api/cluster/software/upload" },
    );
    expect(error).toBeInstanceOf(StorageApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "10551807",
      apiMessage: "The request contains more than one file",
      target: "file",
    });
    const fallback = apiError.toStorageApiError("<html>", {
      status: 502,
      request: "GET /api/x",
      statusText: "Bad Gateway",
    });
    expect(fallback).toMatchObject({ status: 502, code: "", apiMessage: "Bad Gateway" });
  });
});
