// scripts/playground.mjs: what the build writes, and the --serve server (loopback only,
// content types, 404s, no path outside the site, methods), and the command line.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlayground, servePlayground } from "../../scripts/playground.mjs";

const SCRIPT = fileURLToPath(new URL("../../scripts/playground.mjs", import.meta.url));

/** One raw request: the path is sent as written, not normalised by a URL parser. */
function get(
  port: number,
  path: string,
  method = "GET",
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method, timeout: 5_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}

describe("scripts/playground.mjs", () => {
  let dir = "";
  let server: Server | undefined;
  let port = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "clusterwire-playground-build-"));
    await buildPlayground({ outDir: dir });
    server = await servePlayground({ dir, port: 0 });
    port = (server.address() as AddressInfo).port;
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
    rmSync(dir, { recursive: true, force: true });
  });

  it("builds one minified classic script (an IIFE, no module syntax, no eval) beside the page", () => {
    const js = readFileSync(join(dir, "app.js"), "utf8");
    expect(js).toMatch(/^(?:"use strict";)?\(\(\)=>\{/);
    expect(js).not.toMatch(/\beval\s*\(|\bnew Function\s*\(/);
    expect(js).not.toMatch(/^\s*(import|export)\s/m);
    // Minified: long lines (the only line breaks left are inside template literals).
    expect(js.length / js.split("\n").length).toBeGreaterThan(1000);
    const html = readFileSync(join(dir, "index.html"), "utf8");
    expect(html).toContain('<script src="app.js" defer></script>');
    expect(html).toContain('<link rel="stylesheet" href="style.css">');
  });

  it("serves on loopback the site's files with their content types and the page's CSP", async () => {
    expect((server!.address() as AddressInfo).address).toBe("127.0.0.1");
    const html = readFileSync(join(dir, "index.html"), "utf8");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1];
    for (const [path, type, file] of [
      ["/", "text/html; charset=utf-8", "index.html"],
      ["/index.html", "text/html; charset=utf-8", "index.html"],
      ["/app.js", "text/javascript; charset=utf-8", "app.js"],
      ["/style.css?v=1", "text/css; charset=utf-8", "style.css"],
    ] as const) {
      const res = await get(port, path);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe(type);
      expect(res.headers["content-security-policy"]).toBe(csp);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.body.equals(readFileSync(join(dir, file)))).toBe(true);
    }
  });

  it("answers 404 for anything else, paths that climb out of the site included", async () => {
    for (const path of [
      "/missing.js",
      "/favicon.ico",
      "/../package.json",
      "/%2e%2e/package.json",
      "/..%2fpackage.json",
      "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
      "//etc/passwd",
      "/app.js/",
      "/APP.JS",
      "/index.html%00",
    ]) {
      const res = await get(port, path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body.toString()).toBe("not found\n");
    }
  });

  it("answers HEAD without a body and refuses other methods", async () => {
    const head = await get(port, "/app.js", "HEAD");
    expect(head.status).toBe(200);
    expect(Number(head.headers["content-length"])).toBe(readFileSync(join(dir, "app.js")).length);
    expect(head.body.length).toBe(0);
    for (const method of ["POST", "PUT", "DELETE"]) {
      const res = await get(port, "/", method);
      expect(res.status).toBe(405);
      expect(res.headers["allow"]).toBe("GET, HEAD");
    }
  });

  it("refuses bad arguments with a message, and a site that was not built", async () => {
    for (const args of [["--port", "http"], ["--port"], ["--port", "70000"], ["--verbose"]]) {
      const r = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8", timeout: 30_000 });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/^playground: /);
    }
    const empty = mkdtempSync(join(tmpdir(), "clusterwire-playground-empty-"));
    try {
      await expect(servePlayground({ dir: empty, port: 0 })).rejects.toThrow(/has no index\.html/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("npm run playground -- --serve builds, serves, and stops on SIGTERM", async () => {
    const out = mkdtempSync(join(tmpdir(), "clusterwire-playground-cli-"));
    const child = spawn(process.execPath, [SCRIPT, "--serve", "--port", "0", "--out", out], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let text = "";
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL in time: ${text}`)), 30_000);
        child.stdout.on("data", (c: Buffer) => {
          text += c.toString();
          const m = /serving on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
          if (m !== null) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${text}`)));
      });
      const res = await get(Number(new URL(url).port), "/");
      expect(res.status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
