// The typed errors of clusterwire/storage (src/storage/codecs/errors.ts): StorageCodecError names
// the field a body or answer got wrong; StorageApiError carries an error answer's HTTP status and
// the API's code, message and target. Their messages are built from these fields only.
import { describe, expect, it } from "vitest";
import { StorageApiError, StorageCodecError } from "../../../src/storage/codecs/errors.js";

describe("StorageCodecError", () => {
  it("prefixes the reason with the field path", () => {
    const e = new StorageCodecError("space.block_size", "must be one of 512, 4096");
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("StorageCodecError");
    expect(e.path).toBe("space.block_size");
    expect(e.reason).toBe("must be one of 512, 4096");
    expect(e.message).toBe("space.block_size: must be one of 512, 4096");
    expect(String(e)).toBe("StorageCodecError: space.block_size: must be one of 512, 4096");
  });

  it('is the reason alone for the whole body (path ""), and keeps array indexes and unicode', () => {
    expect(new StorageCodecError("", "must be an object").message).toBe("must be an object");
    const e = new StorageCodecError("origins[0].volume", "« volume » requis ✗");
    expect(e.message).toBe("origins[0].volume: « volume » requis ✗");
  });
});

describe("StorageApiError", () => {
  it("carries the status, the API's code, message and target, and names the request", () => {
    const e = new StorageApiError({
      status: 400,
      code: "262197",
      message: 'Field "return_timeout" must be in the range <0..120>.',
      target: "return_timeout",
      request: "PATCH /api/cluster/software",
    });
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(StorageCodecError);
    expect(e.name).toBe("StorageApiError");
    expect(e).toMatchObject({
      status: 400,
      code: "262197",
      apiMessage: 'Field "return_timeout" must be in the range <0..120>.',
      target: "return_timeout",
      request: "PATCH /api/cluster/software",
    });
    expect(e.message).toBe(
      'PATCH /api/cluster/software: HTTP 400 [262197]: Field "return_timeout" must be in the range <0..120>. (target return_timeout)',
    );
  });

  it("leaves out the code and target when the answer had none", () => {
    const e = new StorageApiError({ status: 502, code: "", message: "Bad Gateway", request: "GET /api/svm/svms" });
    expect(e.message).toBe("GET /api/svm/svms: HTTP 502: Bad Gateway");
    expect(e.code).toBe("");
    expect(e.target).toBeUndefined();
    const emptyTarget = new StorageApiError({ status: 404, code: "4", message: "m", target: "", request: "GET /x" });
    expect(emptyTarget.message).toBe("GET /x: HTTP 404 [4]: m");
    expect(emptyTarget.target).toBe("");
  });

  it("serializes its fields, with the name, for a log line", () => {
    const e = new StorageApiError({ status: 401, code: "6", message: "Not authorized.", request: "GET /api/x" });
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      name: "StorageApiError",
      status: 401,
      code: "6",
      apiMessage: "Not authorized.",
      request: "GET /api/x",
    });
  });
});
