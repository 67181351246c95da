// The error-code tables (src/storage/codecs/error-codes.ts).

import { describe, expect, it } from "vitest";
import {
  PACKAGE_DELETE_ERRORS,
  PACKAGE_TRANSFER_ERRORS,
  PACKAGE_UPLOAD_ERRORS,
  STORAGE_ERROR_CODES,
  describeErrorCode,
} from "../../../src/storage/index.js";

describe("error-code tables", () => {
  it("has every code of the spec tables with its meaning", () => {
    expect(Object.keys(PACKAGE_TRANSFER_ERRORS)).toHaveLength(11);
    expect(Object.keys(PACKAGE_UPLOAD_ERRORS)).toHaveLength(9);
    expect(Object.keys(PACKAGE_DELETE_ERRORS)).toHaveLength(10);
    expect(STORAGE_ERROR_CODES.size).toBe(30);
    expect(PACKAGE_UPLOAD_ERRORS.MULTIPLE_FILES.code).toBe(10551807);
    expect(PACKAGE_DELETE_ERRORS.PACKAGE_NOT_FOUND).toEqual({
      code: 10551325,
      meaning: "Package does not exist on the system.",
    });
    expect(PACKAGE_TRANSFER_ERRORS.REMOTE_ZIP_ACCESS_FAILED.code).toBe(2228324);
    const codes = [
      2228324, 2228325, 2228326, 2228327, 2228328, 2228329, 2228330, 2228331, 2228428, 2228429, 10551797, 10551798,
      10551800, 10551801, 10551802, 10551803, 10551804, 10551805, 10551806, 10551807, 10551315, 10551322, 10551323,
      10551324, 10551325, 10551326, 10551346, 10551347, 10551367, 10551388,
    ];
    expect([...STORAGE_ERROR_CODES.keys()]).toEqual(codes);
  });

  it("looks codes up in integer and string form", () => {
    expect(describeErrorCode(10551807)).toEqual({
      code: 10551807,
      name: "MULTIPLE_FILES",
      meaning: "The request contains more than one file; only a single file is supported.",
      table: "package_upload",
    });
    expect(describeErrorCode("10551347")?.name).toBe("UPDATE_IN_PROGRESS");
    expect(describeErrorCode("2228429")?.table).toBe("package_transfer");
    expect(describeErrorCode(4)).toBeUndefined();
    expect(describeErrorCode("x")).toBeUndefined();
    expect(describeErrorCode(" 10551807")).toBeUndefined();
  });
});
