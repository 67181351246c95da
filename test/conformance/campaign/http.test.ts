import { describe, expect, it } from "vitest";
import { parseWarningHeader } from "../../../conformance/campaign/http.js";

describe("parseWarningHeader", () => {
  it("reads the API server's 299 warnings, escapes included", () => {
    expect(parseWarningHeader('299 - "unknown field \\"spec.colour\\""')).toEqual(['unknown field "spec.colour"']);
    expect(parseWarningHeader('299 - "a\\\\b"')).toEqual(["a\\b"]);
  });

  it("reads several warnings in one header value", () => {
    expect(parseWarningHeader('299 - "one", 299 - "two, with a comma"')).toEqual(["one", "two, with a comma"]);
  });

  it("gives nothing for a value without a quoted text", () => {
    expect(parseWarningHeader("299 -")).toEqual([]);
  });
});
