// The reference server's refusals (src/storage/server/errors.ts): the error codes it answers with,
// HttpError, and one constructor per kind of refusal, each with its HTTP status, the API's code
// and the field it names. Messages name fields only, never a value sent.
import { describe, expect, it } from "vitest";
import { PACKAGE_DELETE_ERRORS, PACKAGE_TRANSFER_ERRORS, PACKAGE_UPLOAD_ERRORS } from "../../../src/storage/index.js";
import {
  HttpError,
  SERVER_ERROR_CODES,
  badState,
  conflict,
  duplicate,
  invalid,
  notAllowed,
  notFound,
  outOfRange,
  required,
  unexpected,
  unknownReference,
} from "../../../src/storage/server/errors.js";

const C = SERVER_ERROR_CODES;

describe("SERVER_ERROR_CODES", () => {
  it("are distinct strings of digits, as the error body carries them", () => {
    const codes = Object.values(C);
    expect(codes.length).toBeGreaterThanOrEqual(20);
    for (const code of codes) expect(code).toMatch(/^[1-9][0-9]*$/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("use the API's own codes where it has them", () => {
    expect([C.INVALID_VALUE, C.NOT_FOUND, C.NOT_AUTHORIZED, C.OUT_OF_RANGE]).toEqual(["2", "4", "6", "262197"]);
  });

  it("take the package codes from the same tables the codecs publish (written independently)", () => {
    expect(C.PACKAGE_STORE_EMPTY).toBe(String(PACKAGE_DELETE_ERRORS.PACKAGE_STORE_EMPTY.code));
    expect(C.PACKAGE_NOT_FOUND).toBe(String(PACKAGE_DELETE_ERRORS.PACKAGE_NOT_FOUND.code));
    expect(C.PACKAGE_DELETE_VALIDATION_IN_PROGRESS).toBe(String(PACKAGE_DELETE_ERRORS.VALIDATION_IN_PROGRESS.code));
    expect(C.PACKAGE_DELETE_UPDATE_IN_PROGRESS).toBe(String(PACKAGE_DELETE_ERRORS.UPDATE_IN_PROGRESS.code));
    expect(C.UPLOAD_MORE_THAN_ONE_FILE).toBe(String(PACKAGE_UPLOAD_ERRORS.MULTIPLE_FILES.code));
    expect(C.REMOTE_COPY_FAILED).toBe(String(PACKAGE_TRANSFER_ERRORS.WEB_SERVER_COPY_FAILED.code));
    expect(C.FIRMWARE_FILE_EXISTS).toBe(String(PACKAGE_TRANSFER_ERRORS.FIRMWARE_FILE_EXISTS.code));
    const upload = Object.values(PACKAGE_UPLOAD_ERRORS).map((e) => String(e.code));
    expect(upload).toContain(C.UPLOAD_DISABLED);
  });
});

describe("HttpError", () => {
  it("carries the status, code, message, target and extra headers", () => {
    const e = new HttpError(401, C.NOT_AUTHORIZED, "Not authorized.", undefined, { "WWW-Authenticate": "Basic" });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("HttpError");
    expect(e).toMatchObject({ status: 401, code: "6", message: "Not authorized.", target: undefined });
    expect(e.headers).toEqual({ "WWW-Authenticate": "Basic" });
    expect(new HttpError(400, "2", "m", "t").headers).toEqual({});
  });
});

describe("the refusals", () => {
  const shape = (e: HttpError) => [e.status, e.code, e.target, e.message];

  it("field checks are 400s naming the field", () => {
    expect(shape(invalid("space.size", "Field must be a size."))).toEqual([
      400,
      "2",
      "space.size",
      "Field must be a size.",
    ]);
    expect(shape(unexpected("colour"))).toEqual([400, "262179", "colour", 'Unexpected argument "colour".']);
    expect(shape(notAllowed("uuid"))).toEqual([400, "262196", "uuid", 'Field "uuid" cannot be set in this operation.']);
    expect(shape(notAllowed("name", "cannot be changed"))).toEqual([
      400,
      "262196",
      "name",
      'Field "name" cannot be changed.',
    ]);
    expect(shape(required("os_type"))).toEqual([400, "262195", "os_type", 'Field "os_type" is required.']);
    expect(required("svm.uuid", "Either is required.").message).toBe("Either is required.");
    expect(shape(outOfRange("return_timeout", "0..120"))).toEqual([400, "262197", "return_timeout", "0..120"]);
    expect(shape(conflict("qtree", "No qtree for user rules."))).toEqual([
      400,
      "262189",
      "qtree",
      "No qtree for user rules.",
    ]);
  });

  it("a missing path resource is a 404; a body reference naming nothing is a 400 with the same code", () => {
    expect(shape(notFound("No such cache."))).toEqual([404, "4", undefined, "No such cache."]);
    expect(notFound("No such job.", "uuid").target).toBe("uuid");
    expect(shape(unknownReference("node.uuid", "Node with this UUID"))).toEqual([
      400,
      "4",
      "node.uuid",
      "Node with this UUID does not exist.",
    ]);
  });

  it("a duplicate and a wrong state are 409s, the state one with a code of the caller's choice", () => {
    expect(shape(duplicate("name", "A cache with this name exists."))).toEqual([
      409,
      "262190",
      "name",
      "A cache with this name exists.",
    ]);
    expect(shape(badState("An update is in progress."))).toEqual([
      409,
      "262191",
      undefined,
      "An update is in progress.",
    ]);
    expect(badState("Validation is running.", "version", C.PACKAGE_DELETE_VALIDATION_IN_PROGRESS)).toMatchObject({
      status: 409,
      code: "10551346",
      target: "version",
    });
  });

  it("each is an HttpError with no extra headers", () => {
    for (const e of [invalid("a", "m"), unexpected("a"), notFound("m"), duplicate("a", "m"), badState("m")]) {
      expect(e).toBeInstanceOf(HttpError);
      expect(e.headers).toEqual({});
    }
  });
});
