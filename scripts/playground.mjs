#!/usr/bin/env node
// `npm run playground`: builds the playground page (src/playground/) into a
// static, self-contained site, dist/playground/: index.html (its own Content
// Security Policy in a meta tag), style.css, and app.js, one minified classic
// script (an IIFE, not an ES module: Chromium does not load modules from
// file://, and the page must work opened from a file).
//
//   npm run playground                        build into dist/playground/
//   npm run playground -- --serve [--port N]  build, then serve it on 127.0.0.1 (default port 8080)
//   npm run playground -- --out DIR           build into DIR
//
// The tests import buildPlayground and servePlayground.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SOURCE = join(ROOT, "src", "playground");
export const DEFAULT_OUT = join(ROOT, "dist", "playground");
/** The static files copied as they are, beside the bundle. */
const STATIC = ["index.html", "style.css"];

/** Content types of the files the site has. */
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".png": "image/png",
};

/** The browsers the bundles are written for (the heatmap page's too, scripts/heatmap-page.mjs). */
export const BROWSER_TARGETS = ["chrome111", "firefox111", "safari16.4"];

/** What the bundle must never hold: the page's CSP forbids eval, and Node is not there. */
const FORBIDDEN = [
  [/\beval\s*\(/, "eval("],
  [/\bnew\s+Function\s*\(/, "new Function("],
  [/\brequire\s*\(\s*["']node:/, "a Node built-in"],
];

/**
 * Builds the site into `outDir` (emptied first). Returns the files written and the bundle's size.
 * Throws when the bundle holds eval, new Function or a Node built-in.
 */
export async function buildPlayground({ outDir = DEFAULT_OUT } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: [join(SOURCE, "main.ts")],
    outfile: join(outDir, "app.js"),
    bundle: true,
    format: "iife",
    platform: "browser",
    target: BROWSER_TARGETS,
    minify: true,
    legalComments: "linked",
    sourcemap: false,
    metafile: true,
    logLevel: "silent",
    write: true,
  });
  const js = readFileSync(join(outDir, "app.js"), "utf8");
  for (const [re, what] of FORBIDDEN) {
    if (re.test(js))
      throw new Error(
        `playground: the bundle holds ${what}, which the page's Content Security Policy or the browser refuses`,
      );
  }
  const nodeInputs = Object.keys(result.metafile.inputs).filter((i) => i.startsWith("node:"));
  if (nodeInputs.length > 0) throw new Error(`playground: the bundle imports Node built-ins: ${nodeInputs.join(", ")}`);
  for (const name of STATIC) copyFileSync(join(SOURCE, name), join(outDir, name));
  return { outDir, files: readdirSync(outDir).sort(), bundleBytes: Buffer.byteLength(js) };
}

/** The security headers every answer carries; the CSP is the page's own, as a header too. */
function securityHeaders(csp) {
  return {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-cache",
  };
}

/**
 * Serves the built site in `dir` on `host:port` (port 0 picks a free one) with
 * node:http. Only the files the build wrote are served, read once at start, so
 * no path can reach outside the site. Resolves to the listening server.
 */
export async function servePlayground({ dir = DEFAULT_OUT, port = 8080, host = "127.0.0.1" } = {}) {
  const files = new Map();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type !== undefined) files.set(`/${name}`, { body: readFileSync(join(dir, name)), type });
  }
  const index = files.get("/index.html");
  if (index === undefined) throw new Error(`playground: ${dir} has no index.html; run npm run playground first`);
  const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(index.body.toString("utf8"))?.[1];
  if (csp === undefined) throw new Error("playground: index.html has no Content-Security-Policy meta tag");
  const headers = securityHeaders(csp);
  const server = createServer((req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { ...headers, "content-type": type, "content-length": body.length });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      send(405, "text/plain; charset=utf-8", Buffer.from("method not allowed\n"));
      return;
    }
    let path;
    try {
      path = new URL(req.url ?? "/", "http://playground.invalid").pathname;
    } catch {
      send(400, "text/plain; charset=utf-8", Buffer.from("bad request\n"));
      return;
    }
    const file = files.get(path === "/" ? "/index.html" : path);
    if (file === undefined) {
      send(404, "text/plain; charset=utf-8", Buffer.from("not found\n"));
      return;
    }
    send(200, file.type, file.body);
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}

function parseArgs(argv) {
  const opts = { serve: false, port: 8080, out: DEFAULT_OUT };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--serve") opts.serve = true;
    else if (a === "--port" || a === "--out") {
      const v = argv[++i];
      if (v === undefined) throw new Error(`playground: ${a} needs a value`);
      if (a === "--port") {
        if (!/^\d+$/.test(v) || Number(v) > 65535)
          throw new Error(`playground: --port ${v}: not a port number (0-65535)`);
        opts.port = Number(v);
      } else opts.out = v;
    } else
      throw new Error(
        `playground: unknown argument ${a} (usage: npm run playground -- [--serve] [--port N] [--out DIR])`,
      );
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const built = await buildPlayground({ outDir: opts.out });
  console.log(`playground: built ${built.files.join(", ")} into ${built.outDir} (app.js ${built.bundleBytes} bytes)`);
  console.log(`playground: open file://${join(built.outDir, "index.html")}`);
  if (!opts.serve) return;
  const server = await servePlayground({ dir: built.outDir, port: opts.port });
  const { port } = server.address();
  console.log(`playground: serving on http://127.0.0.1:${port}/ (Ctrl-C stops)`);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
