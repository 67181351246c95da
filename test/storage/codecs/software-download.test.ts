// The software download codec (src/storage/codecs/software-download.ts): the POST body and the progress.

import { describe, expect, it } from "vitest";
import { softwareDownload } from "../../../src/storage/index.js";
import { expectCodecError, raw } from "../../support/storage/codecs-helpers.js";

describe("softwareDownload", () => {
  it("sends url, username and password", () => {
    expect(
      softwareDownload.encodePost({ password: "pw", url: "http://server/package.tgz", username: "admin" }),
    ).toEqual({
      url: "http://server/package.tgz",
      username: "admin",
      password: "pw",
    });
    expect(softwareDownload.encodePost({ url: "ftp://server/p.tgz" })).toEqual({ url: "ftp://server/p.tgz" });
  });

  it("requires an http, https or ftp url", () => {
    expectCodecError(() => softwareDownload.encodePost(raw({})), "url", /required/);
    expectCodecError(() => softwareDownload.encodePost(raw({ url: "server/p.tgz" })), "url", /absolute/);
    expectCodecError(() => softwareDownload.encodePost(raw({ url: "file:///p.tgz" })), "url", /http, https or ftp/);
    expectCodecError(() => softwareDownload.encodePost(raw({ url: 1 })), "url", /string/);
  });

  it("refuses the progress fields in a POST", () => {
    expectCodecError(
      () => softwareDownload.encodePost(raw({ url: "http://s/p", state: "running" })),
      "state",
      /read-only/,
    );
  });

  it("decodes the progress and drops a password", () => {
    expect(
      softwareDownload.decode({ state: "running", message: "Package download in progress", code: 10551382 }),
    ).toEqual({
      state: "running",
      message: "Package download in progress",
      code: 10551382,
    });
    expect(softwareDownload.decode({ state: "success", password: "leaked" })).toEqual({ state: "success" });
  });
});
