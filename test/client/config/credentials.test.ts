import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ClusterCredentials,
  CredentialsError,
  currentToken,
  DEFAULT_TOKEN_REFRESH_MS,
  errno,
} from "../../../src/client/config/credentials.js";

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** A token file holding `text`, in a folder of its own (the cache is per path). */
function tokenFile(text: string): string {
  const d = mkdtempSync(join(tmpdir(), "clusterwire-token-"));
  dirs.push(d);
  const file = join(d, "token");
  writeFileSync(file, text);
  return file;
}
const creds = (more: Partial<ClusterCredentials>): ClusterCredentials => ({
  server: "https://a",
  source: "test",
  ...more,
});

describe("currentToken", () => {
  it("is the static token, or none", async () => {
    expect(await currentToken(creds({ token: "static" }))).toBe("static");
    expect(await currentToken(creds({}))).toBeUndefined();
  });

  it("prefers the token file's content, trimmed, and falls back on the static token when the file is empty", async () => {
    expect(await currentToken(creds({ token: "static", tokenFile: tokenFile("  from-file\n") }))).toBe("from-file");
    expect(await currentToken(creds({ token: "static", tokenFile: tokenFile("\n") }))).toBe("static");
    expect(await currentToken(creds({ tokenFile: tokenFile("") }))).toBeUndefined();
  });

  it("reuses a token read from the file for tokenRefreshMs (default one minute), then reads the file again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    const file = tokenFile("one");
    const c = creds({ tokenFile: file });
    expect(await currentToken(c)).toBe("one");
    writeFileSync(file, "two");
    vi.setSystemTime(1_000_000 + DEFAULT_TOKEN_REFRESH_MS - 1);
    expect(await currentToken(c)).toBe("one");
    vi.setSystemTime(1_000_000 + DEFAULT_TOKEN_REFRESH_MS);
    expect(await currentToken(c)).toBe("two");
    // A shorter refresh, for these credentials.
    writeFileSync(file, "three");
    vi.setSystemTime(1_000_000 + DEFAULT_TOKEN_REFRESH_MS + 10);
    expect(await currentToken({ ...c, tokenRefreshMs: 10 })).toBe("three");
    expect(DEFAULT_TOKEN_REFRESH_MS).toBe(60_000);
  });

  it("reads the file for every call with tokenRefreshMs 0, and at once with reread", async () => {
    const file = tokenFile("one");
    const c = creds({ tokenFile: file });
    expect(await currentToken(c)).toBe("one");
    writeFileSync(file, "two");
    expect(await currentToken(c)).toBe("one");
    expect(await currentToken(c, { reread: true })).toBe("two");
    writeFileSync(file, "three");
    expect(await currentToken({ ...c, tokenRefreshMs: 0 })).toBe("three");
  });

  it("rejects with a CredentialsError naming the file, and reads again on the next call", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "clusterwire-token-")), "token");
    dirs.push(join(file, ".."));
    const c = creds({ tokenFile: file, token: "s3cr3t", source: 'kubeconfig k, context "x"' });
    const e = await currentToken(c).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CredentialsError);
    expect((e as Error).message).toBe(`kubeconfig k, context "x": cannot read the token file ${file}: no such file`);
    expect((e as Error).message).not.toContain("s3cr3t");
    writeFileSync(file, "now-there");
    expect(await currentToken(c)).toBe("now-there");
  });

  it("says why a file could not be read in a few words", () => {
    expect(errno(Object.assign(new Error("x"), { code: "ENOENT" }))).toBe("no such file");
    expect(errno(Object.assign(new Error("x"), { code: "EACCES" }))).toBe("permission denied");
    expect(errno(Object.assign(new Error("x"), { code: "EISDIR" }))).toBe("is a directory");
    expect(errno(new Error("odd"))).toBe("odd");
    expect(errno("plain")).toBe("plain");
  });
});
