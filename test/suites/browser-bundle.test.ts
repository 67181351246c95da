// The browser bundle of the whole clusterwire/networking surface (export *,
// minified, as bench/bundle/sizes.ts builds it) runs in Chromium under a
// strict Content Security Policy, and its answers equal Node's on the same
// inputs: upstream fixtures, invalid objects, routing and reachability.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleNetworking } from "../../bench/bundle/sizes.js";
import * as cw from "../../src/networking/index.js";
import type { ClusterNamespace, ClusterPod, JsonValue } from "../../src/networking/index.js";
import { CHROMIUM, SKIP_BROWSER } from "../support/chromium.js";
import { type CallsInput, runNetworkingCalls, toBase64 } from "../support/networking-calls.js";
import { nonEmpty } from "../support/non-empty.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURES = `${root}../shared/testdata/k8s-api/HEAD/`;

// No unsafe-eval, no unsafe-inline: scripts only from the page's own origin, nothing else at all.
const CSP = "default-src 'none'; script-src 'self'";

function input(): CallsInput {
  const kinds = nonEmpty(
    readdirSync(FIXTURES)
      .filter((f) => f.endsWith(".pb"))
      .map((f) => f.slice("networking.k8s.io.v1.".length, -".pb".length))
      .sort(),
    `.pb fixtures in ${FIXTURES}`,
  );
  const read = (path: string) => readFileSync(path, "utf8");
  const cluster = parseYaml(read(`${root}examples/clusters/shop.yaml`)) as {
    namespaces: ClusterNamespace[];
    pods: ClusterPod[];
    policies: Record<string, JsonValue>[];
  };
  return {
    fixtures: kinds.map((kind) => ({
      kind,
      pb: toBase64(readFileSync(`${FIXTURES}networking.k8s.io.v1.${kind}.pb`)),
      json: read(`${FIXTURES}networking.k8s.io.v1.${kind}.json`),
      yaml: read(`${FIXTURES}networking.k8s.io.v1.${kind}.yaml`),
    })),
    invalid: nonEmpty(readdirSync(`${root}examples/invalid`), "examples/invalid/")
      .sort()
      .map((name) => ({ name, yaml: read(`${root}examples/invalid/${name}`) })),
    // "aGk=" is "hi"; "/w==" is the byte 0xFF, not UTF-8, which Go writes as U+FFFD.
    binaryYaml: [
      "apiVersion: networking.k8s.io/v1",
      "kind: IngressClass",
      "metadata:",
      "  name: bin",
      "  annotations:",
      "    text: !!binary aGk=",
      "    bad: !!binary /w==",
      "    split: !!binary |",
      "      w6k=",
      "spec:",
      "  controller: example.com/bin",
      "",
    ].join("\n"),
    ingressYaml: [read(`${root}examples/ingress-shop.yaml`), read(`${root}examples/catalog-stack.yaml`)].join(
      "\n---\n",
    ),
    routes: [
      { host: "tenant-a.shop.example.com", path: "/static/app.js" },
      { host: "tenant-a.shop.example.com", path: "/cart" },
      { host: "API.Shop.Example.com:443", path: "/healthz?probe=1" },
      { host: "api.shop.example.com", path: "/v1/cart/items" },
      { host: "api.shop.example.com", path: "/v1/images/a.png" },
      { host: "nowhere.example.org", path: "/" },
    ],
    cluster: {
      namespaces: cluster.namespaces,
      pods: cluster.pods,
      policies: cluster.policies.map((p) => ({ apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", ...p })),
    },
    connections: [
      { from: { pod: "ingress-nginx/controller-7d9f" }, to: { pod: "shop/storefront-6c5d" }, port: "http" },
      { from: { pod: "shop/storefront-6c5d" }, to: { pod: "shop/catalog-5f7b" }, port: 8080 },
      { from: { pod: "shop/catalog-5f7b" }, to: { pod: "kube-system/coredns-5d78" }, protocol: "UDP", port: "dns" },
      { from: { ip: "203.0.113.9" }, to: { pod: "shop/catalog-5f7b" }, port: 8080 },
    ],
    tablePorts: [8080, "http"],
  };
}

interface Served {
  readonly origin: string;
  readonly server: Server;
}

/** Serves `files` (path to content type and body) on loopback, each with the CSP header. */
async function serve(files: ReadonlyMap<string, readonly [string, string]>): Promise<Served> {
  const server = createServer((req, res) => {
    const file = files.get(new URL(req.url ?? "/", "http://x").pathname);
    if (req.method !== "GET" || file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res
      .writeHead(200, {
        "content-type": `${file[0]}; charset=utf-8`,
        "content-security-policy": CSP,
        "cache-control": "no-store",
      })
      .end(file[1]);
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const html = (script: string, extra = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>clusterwire</title>` +
  `<script src="/listen.js"></script>${extra}<script type="module" src="${script}"></script></head><body></body></html>`;

// A classic script runs before any module: it records every CSP violation.
const LISTEN = `window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});`;

const MAIN = `import * as cw from "./clusterwire.js";
import input from "./input.js";
import { runNetworkingCalls } from "./calls.js";
try {
  window.__result = JSON.stringify(runNetworkingCalls(cw, input));
} catch (e) {
  window.__result = "failed: " + (e && e.stack ? e.stack : String(e));
}
document.documentElement.dataset.done = "true";`;

// The control page breaks the policy on purpose, so the checks above it can fail.
const CONTROL = `try {
  window.__compiled = new Function("return 1")();
} catch (e) {
  window.__compiled = e.constructor.name;
}
document.documentElement.dataset.done = "true";`;

const calls = input();
const inNode = runNetworkingCalls(cw, calls);

describe("the calls the browser test compares, run in Node", () => {
  it("the Node run is a real one: upstream bytes round-trip, the invalid examples fail, requests route", () => {
    const r = inNode as {
      fixtures: { kind: string; reencoded: { ok: string }; truncated: { threw: string } }[];
      invalid: { errors: { ok: string[][] } }[];
      binary: { ok: string[] };
      router: { routes: { result: { ok: { route: unknown } } }[] };
      badYaml: { threw: string };
      engine: { decisions: { ok: { allowed: boolean } }[]; tables: { ok: object }[]; unknownPod: { threw: string } };
    };
    expect(r.fixtures.map((f) => f.kind)).toEqual([
      "IPAddress",
      "Ingress",
      "IngressClass",
      "NetworkPolicy",
      "ServiceCIDR",
    ]);
    for (const f of r.fixtures) {
      expect(f.reencoded.ok).toBe(calls.fixtures.find((c) => c.kind === f.kind)?.pb);
      expect(f.truncated.threw).toBe("DecodeError");
    }
    for (const f of r.invalid) expect(f.errors.ok.flat().length).toBeGreaterThan(0);
    expect(r.binary.ok[0]).toContain('"annotations":{"bad":"\uFFFD","split":"é","text":"hi"}');
    expect(r.router.routes.filter((x) => x.result.ok.route !== null).length).toBeGreaterThanOrEqual(4);
    expect(r.engine.decisions.map((d) => d.ok.allowed)).toContain(true);
    expect(r.engine.decisions.map((d) => d.ok.allowed)).toContain(false);
    for (const t of r.engine.tables) expect(Object.keys(t.ok).length).toBeGreaterThan(0);
    expect(r.engine.unknownPod.threw).toBe("EvaluatorInputError");
    expect(r.badYaml.threw).toBe("DecodeError");
  });
});

describe.skipIf(SKIP_BROWSER)("the networking browser bundle in headless Chromium", () => {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let served: Served | undefined;

  const MISSING = `${CHROMIUM} is missing: install Debian's chromium with \`apt-get install -y chromium\` (as root), or set CLUSTERWIRE_SKIP_BROWSER=1 to skip the browser tests`;

  beforeAll(async () => {
    const callsJs = buildSync({
      entryPoints: [`${root}test/support/networking-calls.ts`],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      logLevel: "silent",
    }).outputFiles[0]?.text;
    if (callsJs === undefined) throw new Error("esbuild wrote no output");
    const js = "text/javascript";
    served = await serve(
      new Map<string, readonly [string, string]>([
        ["/", ["text/html", html("/main.js")]],
        ["/control.html", ["text/html", html("/control.js", "<script>window.__inline = true;</script>")]],
        ["/listen.js", [js, LISTEN]],
        ["/main.js", [js, MAIN]],
        ["/control.js", [js, CONTROL]],
        ["/clusterwire.js", [js, bundleNetworking("*").text]],
        ["/calls.js", [js, callsJs]],
        ["/input.js", [js, `export default ${JSON.stringify(calls)};`]],
      ]),
    );
    if (!existsSync(CHROMIUM)) return;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"], timeout: 20_000 });
    context = await browser.newContext();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => served?.server.close(resolve));
  });

  interface Loaded {
    readonly page: Page;
    readonly console: string[];
    readonly requests: string[];
    readonly violations: string[];
  }

  /** Opens `path`, waits for its script to finish, and always closes the page. */
  async function withPage(path: string, check: (loaded: Loaded) => Promise<void>): Promise<void> {
    if (context === undefined || served === undefined) throw new Error(MISSING);
    const page = await context.newPage();
    const loaded: Loaded = { page, console: [], requests: [], violations: [] };
    try {
      page.on("console", (msg) => {
        if (msg.type() === "error" || msg.type() === "warning") loaded.console.push(`${msg.type()}: ${msg.text()}`);
      });
      page.on("pageerror", (err) => loaded.console.push(`page error: ${err.message}`));
      page.on("request", (req) => loaded.requests.push(req.url()));
      await page.goto(`${served.origin}${path}`, { waitUntil: "load" });
      await page.waitForSelector("html[data-done=true]", { timeout: 30_000 }).catch((err: unknown) => {
        throw new Error(`not done: ${String(err)}; console: ${loaded.console.join(" | ")}`);
      });
      loaded.violations.push(...(await page.evaluate<string[]>("window.__violations")));
      await check(loaded);
    } finally {
      await page.close();
    }
  }

  it("finds Debian's chromium", () => {
    if (context === undefined) throw new Error(MISSING);
    expect(browser?.isConnected()).toBe(true);
  });

  it("answers every call exactly as Node does, with no CSP violation, console error or foreign request", async () => {
    await withPage("/", async ({ page, console, requests, violations }) => {
      const text = await page.evaluate<string>("window.__result");
      expect(text.startsWith("failed: "), text).toBe(false);
      expect(JSON.parse(text) as JsonValue).toEqual(inNode);
      expect(violations).toEqual([]);
      expect(console).toEqual([]);
      expect(requests.map((u) => new URL(u).pathname).sort()).toEqual(
        ["/", "/calls.js", "/clusterwire.js", "/input.js", "/listen.js", "/main.js"].sort(),
      );
      expect(requests.every((u) => u.startsWith(`${served?.origin}/`))).toBe(true);
    });
  });

  it("the policy is enforced: the control page's new Function and inline script are blocked and reported", async () => {
    await withPage("/control.html", async ({ page, console, violations }) => {
      expect(await page.evaluate<unknown>("window.__compiled")).toBe("EvalError");
      expect(await page.evaluate<unknown>("window.__inline")).toBeUndefined();
      expect(violations).toEqual(expect.arrayContaining(["script-src-elem inline", "script-src eval"]));
      expect(console.some((c) => c.includes("Content Security Policy"))).toBe(true);
    });
  });
});
