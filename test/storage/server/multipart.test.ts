// The reference server's multipart/form-data reader (software upload): which parts count as
// files, where it stops, and what it refuses. Malformed bodies read as undefined; over HTTP the
// upload then answers a typed error (code 2, target `file`), and a body with no file part a
// required-field error (262195).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseMultipart } from "../../../src/storage/server/multipart.js";
import { errorOf, start, type Harness } from "../../support/storage/server-harness.js";

const B = "XYZ";
const part = (disposition: string, content = "BINARY", extra = "") =>
  `--${B}\r\nContent-Disposition: ${disposition}\r\n${extra}\r\n${content}\r\n`;
const body = (...parts: string[]) => Buffer.from(`${parts.join("")}--${B}--\r\n`, "latin1");

describe("parseMultipart", () => {
  it("reads the name and filename of each file part", () => {
    const raw = body(
      part(
        'form-data; name="file"; filename="9.19.1_image.tgz"',
        "BINARY",
        "Content-Type: application/octet-stream\r\n",
      ),
      part('form-data; name="other"; filename="notes.txt"', "text"),
    );
    expect(parseMultipart(raw, B)).toEqual([
      { name: "file", filename: "9.19.1_image.tgz" },
      { name: "other", filename: "notes.txt" },
    ]);
  });

  it("counts a part named file without a filename, and skips other fields", () => {
    const raw = body(part('form-data; name="comment"', "hello"), part('form-data; name="file"'));
    expect(parseMultipart(raw, B)).toEqual([{ name: "file", filename: "" }]);
  });

  it("reads header names in any case and stops at the closing delimiter", () => {
    const raw = Buffer.from(
      `--${B}\r\ncontent-DISPOSITION: form-data; NAME="file"; FILENAME="a_9.1.1.tgz"\r\n\r\nx\r\n--${B}--\r\n` +
        `--${B}\r\nContent-Disposition: form-data; name="file"; filename="after.tgz"\r\n\r\ny\r\n`,
      "latin1",
    );
    expect(parseMultipart(raw, B)).toEqual([{ name: "file", filename: "a_9.1.1.tgz" }]);
  });

  it("gives no files (not undefined) for a well-formed body of fields only", () => {
    expect(parseMultipart(body(part('form-data; name="comment"', "hello")), B)).toEqual([]);
  });

  it("refuses bodies without two delimiters, parts without a blank line after the headers, and headers over 8 KiB", () => {
    expect(parseMultipart(Buffer.from(""), B)).toBeUndefined();
    expect(parseMultipart(Buffer.from(`--${B}--\r\n`), B)).toBeUndefined();
    expect(parseMultipart(body(part('form-data; name="file"')), "OTHER")).toBeUndefined();
    const noBlankLine = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"\r\nBINARY\r\n--${B}--\r\n`);
    expect(parseMultipart(noBlankLine, B)).toBeUndefined();
    const filler = `X-Filler: ${"a".repeat(8 * 1024)}\r\n`;
    expect(parseMultipart(body(part('form-data; name="file"; filename="9.1.1.tgz"', "x", filler)), B)).toBeUndefined();
    // Just under the bound is read.
    const small = `X-Filler: ${"a".repeat(7 * 1024)}\r\n`;
    expect(parseMultipart(body(part('form-data; name="file"; filename="9.1.1.tgz"', "x", small)), B)).toEqual([
      { name: "file", filename: "9.1.1.tgz" },
    ]);
  });
});

describe("upload over HTTP: malformed bodies give typed errors", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await start();
  });
  afterEach(async () => {
    await h.close();
  });
  const send = (raw: Buffer, contentType = `multipart/form-data; boundary=${B}`) =>
    h.call("POST", "/api/cluster/software/upload", undefined, {
      raw: new Uint8Array(raw),
      headers: { "content-type": contentType },
    });

  it("a part without a blank line after its headers is invalid (code 2, target file)", async () => {
    const r = await send(Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"\r\n--${B}--\r\n`));
    expect(r.status).toBe(400);
    expect(errorOf(r)).toMatchObject({ code: "2", target: "file" });
  });

  it("a boundary the body does not use is invalid; a multipart type without a boundary too", async () => {
    const raw = body(part('form-data; name="file"; filename="9.19.1_image.tgz"'));
    const wrong = await send(raw, "multipart/form-data; boundary=OTHER");
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong)).toMatchObject({ code: "2", target: "file" });
    const none = await send(raw, "multipart/form-data");
    expect(none.status).toBe(400);
    expect(errorOf(none)).toMatchObject({ code: "2", target: "file" });
  });

  it("a well-formed body without a file part is a missing required field (262195)", async () => {
    const r = await send(body(part('form-data; name="comment"', "hello")));
    expect(r.status).toBe(400);
    expect(errorOf(r)).toMatchObject({ code: "262195", target: "file" });
  });
});
