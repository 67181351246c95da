import { describe, expect, it } from "vitest";
import {
  DecodeError,
  type DecodeErrorLocation,
  EncodeError,
  EvaluatorInputError,
} from "../../../src/networking/model/errors.js";

describe("DecodeError", () => {
  it("is an Error named DecodeError, keeping the format, the reason and every location field", () => {
    const where: DecodeErrorLocation = {
      offset: 12,
      path: "spec.rules[0].host",
      segments: ["spec", "rules", 0, "host"],
      line: 3,
      column: 9,
      document: 2,
    };
    const e = new DecodeError("yaml", "expected a string", where);
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(DecodeError);
    expect(e.name).toBe("DecodeError");
    expect(e.format).toBe("yaml");
    expect(e.reason).toBe("expected a string");
    expect([e.offset, e.path, e.segments, e.line, e.column, e.document]).toEqual([
      12,
      "spec.rules[0].host",
      ["spec", "rules", 0, "host"],
      3,
      9,
      2,
    ]);
    expect(String(e)).toBe(`DecodeError: ${e.message}`);
    expect(e.stack).toContain("DecodeError");
  });

  it("says where in its message: document, then line and column (or the offset), then the field", () => {
    const cases: [DecodeErrorLocation, string][] = [
      [{}, "json decode error: bad"],
      [{ offset: 7 }, "json decode error at offset 7: bad"],
      [{ line: 2, column: 5 }, "json decode error at line 2, column 5: bad"],
      [{ line: 2 }, "json decode error at line 2, column 1: bad"],
      // A line makes the offset redundant.
      [{ line: 2, column: 5, offset: 40 }, "json decode error at line 2, column 5: bad"],
      [{ path: "metadata.name" }, "json decode error at field metadata.name: bad"],
      [{ path: "" }, "json decode error: bad"],
      [
        { document: 3, line: 1, column: 1, path: "spec" },
        "json decode error at document 3, line 1, column 1, field spec: bad",
      ],
      [{ document: 1 }, "json decode error at document 1: bad"],
    ];
    for (const [where, message] of cases) {
      expect(new DecodeError("json", "bad", where).message, JSON.stringify(where)).toBe(message);
    }
  });

  it("protobuf offsets are bytes; text offsets are not", () => {
    expect(new DecodeError("protobuf", "truncated", { offset: 4, path: "metadata" }).message).toBe(
      "protobuf decode error at byte 4, field metadata: truncated",
    );
    expect(new DecodeError("yaml", "x", { offset: 4 }).message).toBe("yaml decode error at offset 4: x");
  });

  it("leaves unknown location fields undefined", () => {
    const e = new DecodeError("protobuf", "x");
    expect([e.offset, e.path, e.segments, e.line, e.column, e.document]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("EncodeError", () => {
  it("prefixes the path to the reason, unless there is none", () => {
    const e = new EncodeError("expected a string, got number 5", "metadata.name");
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("EncodeError");
    expect(e.message).toBe("metadata.name: expected a string, got number 5");
    expect([e.path, e.reason]).toEqual(["metadata.name", "expected a string, got number 5"]);
    const top = new EncodeError("not a top-level object", "");
    expect(top.message).toBe("not a top-level object");
    expect(top.path).toBe("");
  });
});

describe("EvaluatorInputError", () => {
  it("takes the path first, and prefixes it to the reason unless empty", () => {
    const e = new EvaluatorInputError("pods[3].ip", '"x" is not an IP address');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("EvaluatorInputError");
    expect(e.message).toBe('pods[3].ip: "x" is not an IP address');
    expect([e.path, e.reason]).toEqual(["pods[3].ip", '"x" is not an IP address']);
    expect(new EvaluatorInputError("", "no input").message).toBe("no input");
  });

  it("the three errors are distinct classes", () => {
    const errors = [new DecodeError("json", "a"), new EncodeError("b", ""), new EvaluatorInputError("", "c")];
    expect(errors.filter((e) => e instanceof DecodeError)).toHaveLength(1);
    expect(errors.filter((e) => e instanceof EncodeError)).toHaveLength(1);
    expect(errors.filter((e) => e instanceof EvaluatorInputError)).toHaveLength(1);
  });
});
