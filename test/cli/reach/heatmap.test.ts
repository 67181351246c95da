import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPLAIN_LIMIT, TABLE_LIMIT, renderHeatmapHtml } from "../../../src/cli/reach/heatmap.js";
import {
  HEATMAP_COLOURS,
  HEATMAP_GLYPHS,
  HEATMAP_INK,
  HEATMAP_KINDS,
  HEATMAP_TEXT,
} from "../../../src/cli/reach/heatmap-palette.js";
import { createPolicyEngine, fromJson, type NetworkPolicy } from "../../../src/networking/index.js";
import type { Decision, Protocol, TruthMatrix } from "../../../src/networking/evaluate/policy/types.js";
import { CHROMIUM, SKIP_BROWSER } from "../../support/chromium.js";
import { contrast } from "../../support/colour-vision.js";
import { propertyRuns } from "../../support/property-runs.js";

const RUNS = propertyRuns(50);

const XSS = "<img src=x onerror=alert(1)>";

/** A TruthMatrix built by hand: the verdict of each direction per ordered pair. */
function handMatrix(
  pods: readonly string[],
  egress: (from: number, to: number) => boolean,
  ingress: (from: number, to: number) => boolean,
  protocol: Protocol = "TCP",
  port = 80,
): TruthMatrix {
  const n = pods.length;
  const e = new Uint8Array(n * n);
  const i = new Uint8Array(n * n);
  for (let f = 0; f < n; f++) {
    for (let t = 0; t < n; t++) {
      e[f * n + t] = egress(f, t) ? 1 : 0;
      i[f * n + t] = ingress(f, t) ? 1 : 0;
    }
  }
  return {
    pods,
    protocol,
    port,
    egressAllowed: (f, t) => e[f * n + t] === 1,
    ingressAllowed: (f, t) => i[f * n + t] === 1,
    allowed: (f, t) => e[f * n + t] === 1 && i[f * n + t] === 1,
    countAllowed: () => {
      let c = 0;
      for (let k = 0; k < n * n; k++) c += e[k]! & i[k]!;
      return c;
    },
    skipped: [],
  };
}

/** Cells as a string grid, one row per source: A allowed, E egress denied, I ingress denied, B both. */
function gridMatrix(pods: readonly string[], rows: readonly string[]): TruthMatrix {
  const at = (f: number, t: number) => rows[f]![t]!;
  return handMatrix(
    pods,
    (f, t) => !"EB".includes(at(f, t)),
    (f, t) => !"IB".includes(at(f, t)),
  );
}

/**
 * Clusters of `perNs` pods per namespace: traffic inside a namespace is
 * allowed; some sources may not leave their namespace, some destinations
 * accept nobody from outside.
 */
function structuredMatrix(n: number, perNs: number): TruthMatrix {
  const pods = Array.from(
    { length: n },
    (_, i) => `ns-${String(Math.floor(i / perNs)).padStart(4, "0")}/pod-${String(i).padStart(5, "0")}`,
  );
  const ns = (i: number) => Math.floor(i / perNs);
  return handMatrix(
    pods,
    (f, t) => ns(f) === ns(t) || f % 7 !== 0,
    (f, t) => ns(f) === ns(t) || t % 5 !== 0,
  );
}

interface Embedded {
  pods: string[];
  index: number[];
  namespaces: [string, number, number][];
  protocol: string;
  port: number;
  cells: { encoding: "gzip" | "raw"; base64: string };
  explain: null | { texts: string[]; width: number; encoding: "gzip" | "raw"; base64: string };
}

function embedded(html: string): Embedded {
  const m = /<script type="application\/json" id="heatmap-data">([^<]*)<\/script>/.exec(html);
  if (m === null) throw new Error("no embedded data");
  return JSON.parse(m[1]!) as Embedded;
}

function unpack(blob: { encoding: "gzip" | "raw"; base64: string }): Buffer {
  const bytes = Buffer.from(blob.base64, "base64");
  return blob.encoding === "gzip" ? gunzipSync(bytes) : bytes;
}

/** The 2-bit code of each display cell (bit 0 egress denied, bit 1 ingress denied). */
function decodeCells(data: Embedded): number[][] {
  const n = data.pods.length;
  const bytes = unpack(data.cells);
  expect(bytes.length).toBe(Math.ceil((n * n) / 4));
  return Array.from({ length: n }, (_, r) =>
    Array.from({ length: n }, (_, c) => {
      const i = r * n + c;
      return (bytes[i >> 2]! >> ((i & 3) * 2)) & 3;
    }),
  );
}

const codeOf = (m: TruthMatrix, f: number, t: number) =>
  (m.egressAllowed(f, t) ? 0 : 1) | (m.ingressAllowed(f, t) ? 0 : 2);

/** Checks the embedded data against the matrix cell by cell, and the namespace grouping. */
function expectDecodesTo(html: string, m: TruthMatrix): Embedded {
  const data = embedded(html);
  const n = m.pods.length;
  expect([...data.index].sort((a, b) => a - b)).toEqual(m.pods.map((_, i) => i));
  expect(data.pods).toEqual(data.index.map((i) => m.pods[i]));
  const cells = decodeCells(data);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (cells[r]![c] !== codeOf(m, data.index[r]!, data.index[c]!))
        throw new Error(`cell ${r},${c} decodes to ${cells[r]![c]}`);
    }
  }
  // Namespaces are contiguous, sorted, and the bands cover every pod once.
  const nsOf = (key: string) => key.slice(0, key.indexOf("/"));
  const names = data.namespaces.map(([name]) => name);
  expect(new Set(names).size).toBe(names.length);
  expect(names.sort()).toEqual([...new Set(data.pods.map(nsOf))].sort());
  let next = 0;
  for (const [name, start, count] of data.namespaces) {
    expect(start).toBe(next);
    for (let p = start; p < start + count; p++) expect(nsOf(data.pods[p]!)).toBe(name);
    next += count;
  }
  expect(next).toBe(n);
  return data;
}

const SMALL_PODS = ["web/b", "db/x", "web/a", "db/y"];
// Input order; display order is db/x, db/y, web/a, web/b.
const SMALL_ROWS = ["AEIB", "AAAI", "EAAA", "BIAA"];
const small = () => gridMatrix(SMALL_PODS, SMALL_ROWS);
/** The same cells as codes in display order (0 allowed, 1 egress denied, 2 ingress denied, 3 both). */
const SMALL_DISPLAY = [
  [0, 2, 0, 0],
  [2, 0, 0, 3],
  [0, 0, 0, 1],
  [1, 3, 2, 0],
];

// §1.2.4 of the semantics: x/a accepts TCP 80 from pods labelled pod=b in x only.
function exampleEngine() {
  const policy = fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "allow-b", namespace: "x" },
    spec: {
      podSelector: { matchLabels: { pod: "a" } },
      ingress: [{ from: [{ podSelector: { matchLabels: { pod: "b" } } }], ports: [{ port: 80 }] }],
    },
  }) as NetworkPolicy;
  return createPolicyEngine({
    namespaces: [{ name: "x" }, { name: "y" }],
    pods: [
      { namespace: "x", name: "a", labels: { pod: "a" }, ip: "10.0.0.1" },
      { namespace: "x", name: "b", labels: { pod: "b" }, ip: "10.0.0.2" },
      { namespace: "y", name: "b", labels: { pod: "b" }, ip: "10.0.1.2" },
    ],
    policies: [policy],
  });
}

function exampleHtml(): string {
  const engine = exampleEngine();
  const matrix = engine.matrix({ port: 80 });
  const pods = matrix.pods;
  return renderHeatmapHtml({
    title: "example",
    matrix,
    explain: (f, t) => engine.evaluate({ from: { pod: pods[f]! }, to: { pod: pods[t]! }, port: 80 }),
  });
}

describe("renderHeatmapHtml", () => {
  it("escapes the title, pod keys and skipped lines, and keeps the data script closed", () => {
    const pods = [`${XSS}/p`, `ok/</script><script>alert(2)</script>`, "ok/plain"];
    const html = renderHeatmapHtml({
      title: `${XSS} & "quotes" 'too'`,
      matrix: handMatrix(
        pods,
        () => true,
        (f) => f !== 1,
      ),
      skipped: [`NetworkPolicy ${XSS}: bad`],
    });
    expect(html).not.toContain(XSS);
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("<title>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot; &#39;too&#39;</title>");
    expect(html).toContain("<h1>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot; &#39;too&#39;</h1>");
    expect(html).toContain("<li>NetworkPolicy &lt;img src=x onerror=alert(1)&gt;: bad</li>");
    // Namespace table and cell table (3 pods is under TABLE_LIMIT).
    expect(html).toContain('<th scope="row">&lt;img src=x onerror=alert(1)&gt;</th>');
    expect(html).toContain('<th scope="col">ok/&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;</th>');
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html.match(/<img\b/gi)).toBeNull();
    // The JSON still carries the raw names.
    expect(embedded(html).pods).toEqual([
      "<img src=x onerror=alert(1)>/p",
      "ok/</script><script>alert(2)</script>",
      "ok/plain",
    ]);
  });

  it("references nothing outside the file", () => {
    const html = renderHeatmapHtml({ title: "t", matrix: structuredMatrix(120, 10), skipped: ["x"] });
    expect(html).not.toMatch(/\b(?:src|href|action|srcset|poster|data)\s*=/i);
    expect(html).not.toMatch(/https?:|\/\/[a-z]/i);
    expect(html).not.toMatch(/url\(|@import|<link\b|<iframe\b|<object\b|<embed\b/i);
  });

  it("has a CSP that admits only its own inline script and style, by hash", () => {
    const html = renderHeatmapHtml({ title: "t", matrix: small() });
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
    expect(csp).toBeDefined();
    const directives = new Map(csp!.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));
    const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => hash(m[1]!));
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => hash(m[1]!));
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(directives.get("default-src")).toEqual(["'none'"]);
    expect(directives.get("script-src")).toEqual(scripts);
    expect(directives.get("style-src")).toEqual(styles);
    expect(directives.get("connect-src")).toEqual(["'none'"]);
    expect(directives.get("img-src")).toEqual(["'none'"]);
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
  });

  it("embeds data that decodes back to the matrix, grouped by namespace", () => {
    const data = expectDecodesTo(renderHeatmapHtml({ title: "t", matrix: small() }), small());
    expect(data.pods).toEqual(["db/x", "db/y", "web/a", "web/b"]);
    expect(data.namespaces).toEqual([
      ["db", 0, 2],
      ["web", 2, 2],
    ]);
    expect(data.cells.encoding).toBe("raw");
    expect(data.explain).toBeNull();
    expect(decodeCells(data)).toEqual(SMALL_DISPLAY);
    const big = expectDecodesTo(
      renderHeatmapHtml({ title: "t", matrix: structuredMatrix(400, 20) }),
      structuredMatrix(400, 20),
    );
    expect(big.cells.encoding).toBe("gzip");
  });

  it("orders namespaces and pods naturally, digits by value", () => {
    const pods = ["ns-10/p", "ns-9/p-2", "ns-9/p-10", "ns-9/p-02", "ns-9/p-1", "ns-9/p-b", "ns-9/p-a", "ns-09/p"];
    const data = expectDecodesTo(
      renderHeatmapHtml({
        title: "t",
        matrix: handMatrix(
          pods,
          () => true,
          () => true,
        ),
      }),
      handMatrix(
        pods,
        () => true,
        () => true,
      ),
    );
    expect(data.pods).toEqual([
      "ns-09/p",
      "ns-9/p-1",
      "ns-9/p-02",
      "ns-9/p-2",
      "ns-9/p-10",
      "ns-9/p-a",
      "ns-9/p-b",
      "ns-10/p",
    ]);
    expect(data.namespaces).toEqual([
      ["ns-09", 0, 1],
      ["ns-9", 1, 6],
      ["ns-10", 7, 1],
    ]);
  });

  it("decodes back for arbitrary matrices", () => {
    const arb = fc
      .uniqueArray(fc.tuple(fc.constantFrom("a", "b", "kube-system", "z"), fc.string({ minLength: 1, maxLength: 4 })), {
        maxLength: 12,
        selector: ([ns, name]) => `${ns}/${name}`,
      })
      .chain((pairs) =>
        fc.record({
          pods: fc.constant(pairs.map(([ns, name]) => `${ns}/${name}`)),
          bits: fc.array(fc.integer({ min: 0, max: 3 }), {
            minLength: pairs.length ** 2,
            maxLength: pairs.length ** 2,
          }),
        }),
      );
    fc.assert(
      fc.property(arb, ({ pods, bits }) => {
        const n = pods.length;
        const m = handMatrix(
          pods,
          (f, t) => (bits[f * n + t]! & 1) === 0,
          (f, t) => (bits[f * n + t]! & 2) === 0,
          "UDP",
          53,
        );
        const data = expectDecodesTo(renderHeatmapHtml({ title: "t", matrix: m }), m);
        expect([data.protocol, data.port]).toEqual(["UDP", 53]);
      }),
      { numRuns: RUNS },
    );
  });

  it("states the counts, protocol and port", () => {
    const html = renderHeatmapHtml({ title: "t", matrix: small() });
    expect(html).toContain(
      '<p class="summary" id="summary">TCP port 80 · 4 pods in 2 namespaces · 16 connections (source → destination, self included): <strong>9 allowed</strong>, <strong>7 denied</strong> of 16</p>',
    );
    expect(html).toContain("Denied by egress only: 2; by ingress only: 3; by both: 2.");
    // See SMALL_DISPLAY: db's rows allow 3 + 2, its columns 2 + 2; web's rows 3 + 1, its columns 3 + 2.
    expect(html).toContain(
      '<tr><th scope="row">db</th><td class="num">2</td><td class="num">5 / 8</td><td class="num">4 / 8</td></tr>',
    );
    expect(html).toContain(
      '<tr><th scope="row">web</th><td class="num">2</td><td class="num">4 / 8</td><td class="num">5 / 8</td></tr>',
    );
  });

  it("adds the cell table up to TABLE_LIMIT pods only", () => {
    const html = renderHeatmapHtml({ title: "t", matrix: small() });
    expect(html).toContain(
      '<tr><th scope="row">db/x</th><td class="c0">✓ allow</td><td class="c2">I deny (ingress)</td><td class="c0">✓ allow</td><td class="c0">✓ allow</td></tr>',
    );
    expect(html).toContain(
      '<tr><th scope="row">web/b</th><td class="c1">E deny (egress)</td><td class="c3">✗ deny (both)</td><td class="c2">I deny (ingress)</td><td class="c0">✓ allow</td></tr>',
    );
    expect(renderHeatmapHtml({ title: "t", matrix: structuredMatrix(TABLE_LIMIT, 10) })).toContain("<details>");
    expect(renderHeatmapHtml({ title: "t", matrix: structuredMatrix(TABLE_LIMIT + 1, 10) })).not.toContain("<details>");
  });

  it("calls explain for every cell up to EXPLAIN_LIMIT pods and never above", () => {
    let calls = 0;
    const allow: Decision = {
      allowed: true,
      protocol: "TCP",
      port: 80,
      egress: { verdict: "not-isolated", policies: [] },
      ingress: { verdict: "not-isolated", policies: [] },
      skipped: [],
    };
    const explain = () => {
      calls++;
      return allow;
    };
    const all = (n: number) =>
      handMatrix(
        Array.from({ length: n }, (_, i) => `n/p${i}`),
        () => true,
        () => true,
      );
    const data = embedded(renderHeatmapHtml({ title: "t", matrix: all(EXPLAIN_LIMIT), explain }));
    expect(calls).toBe(EXPLAIN_LIMIT ** 2);
    expect(data.explain?.texts).toEqual(["not-isolated: no policy isolates the pod in this direction"]);
    calls = 0;
    expect(embedded(renderHeatmapHtml({ title: "t", matrix: all(EXPLAIN_LIMIT + 1), explain })).explain).toBeNull();
    expect(calls).toBe(0);
  });

  it("embeds the engine's reasons per cell", () => {
    const data = embedded(exampleHtml());
    expect(data.pods).toEqual(["x/a", "x/b", "y/b"]);
    const ids = unpack(data.explain!);
    expect(data.explain!.width).toBe(2);
    const reason = (r: number, c: number, dir: 0 | 1) =>
      data.explain!.texts[ids.readUInt16LE(4 * (r * 3 + c) + 2 * dir)];
    expect(reason(1, 0, 1)).toBe("allowed-by-rule: allowed by x/allow-b (rule 0)");
    expect(reason(2, 0, 1)).toBe("denied: isolated and no rule matches; isolated by x/allow-b");
    expect(reason(2, 0, 0)).toBe("not-isolated: no policy isolates the pod in this direction");
    expect(reason(0, 0, 0)).toBe("self: the pod talking to itself");
    expect(decodeCells(data)).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [2, 0, 0],
    ]);
  });

  it("refuses a matrix or an explanation that contradicts itself", () => {
    const m = small();
    const liar: TruthMatrix = { ...m, pods: m.pods, protocol: "TCP", port: 80, allowed: (f, t) => !m.allowed(f, t) };
    expect(() => renderHeatmapHtml({ title: "t", matrix: liar })).toThrow(
      "the truth matrix contradicts itself at db/x → db/x",
    );
    const miscount: TruthMatrix = { ...m, pods: m.pods, protocol: "TCP", port: 80, countAllowed: () => 11 };
    expect(() => renderHeatmapHtml({ title: "t", matrix: miscount })).toThrow(
      "counts 11 allowed connections but its cells allow 9",
    );
    const engine = exampleEngine();
    const wrong = () => engine.evaluate({ from: { pod: "x/a" }, to: { pod: "x/b" }, port: 80 });
    expect(() => renderHeatmapHtml({ title: "t", matrix: engine.matrix({ port: 80 }), explain: wrong })).toThrow(
      "explain(2, 0) disagrees with the truth matrix for y/b → x/a",
    );
  });

  it("renders an empty cluster", () => {
    const html = renderHeatmapHtml({
      title: "empty",
      matrix: handMatrix(
        [],
        () => true,
        () => true,
      ),
    });
    expect(html).toContain("0 pods in 0 namespaces · 0 connections");
    expect(embedded(html).cells).toEqual({ encoding: "raw", base64: "" });
  });
});

// ------------------------------------------------------------------ in a real browser

const hexRgb = (hex: string): [number, number, number] => {
  const v = parseInt(hex.slice(1), 16);
  return [v >> 16, (v >> 8) & 0xff, v & 0xff];
};
const COLOUR_BY_CODE = [
  HEATMAP_COLOURS.allowed,
  HEATMAP_COLOURS.egressDenied,
  HEATMAP_COLOURS.ingressDenied,
  HEATMAP_COLOURS.bothDenied,
].map(hexRgb);

interface Loaded {
  page: Page;
  /** Console errors, page errors, dialogs, CSP violations and requests, as text. */
  problems: string[];
  requests: string[];
}

describe.skipIf(SKIP_BROWSER)("in headless Chromium", () => {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;

  const MISSING = `${CHROMIUM} is missing: install Debian's chromium with \`apt-get install -y chromium\` (as root), or set CLUSTERWIRE_SKIP_BROWSER=1 to skip the browser tests`;

  // Without the browser every test below fails with MISSING, so CI counts them as failures.
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) return;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"], timeout: 20_000 });
    // One context for all pages: a new context per test costs more than the test.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("finds Debian's chromium", () => {
    if (!existsSync(CHROMIUM)) throw new Error(MISSING);
    expect(browser?.isConnected()).toBe(true);
  });

  /** Loads the page, runs the checks, and always closes the page. */
  async function withPage(html: string, check: (loaded: Loaded) => Promise<void>): Promise<void> {
    if (context === undefined) throw new Error(MISSING);
    const page = await context.newPage();
    const loaded: Loaded = { page, problems: [], requests: [] };
    try {
      page.on("console", (msg) => {
        // The test's own pixel reads make Chromium suggest willReadFrequently; the page reads nothing back.
        if (msg.type() === "warning" && msg.text().startsWith("Canvas2D: Multiple readback operations")) return;
        if (msg.type() === "error" || msg.type() === "warning")
          loaded.problems.push(`console ${msg.type()}: ${msg.text()}`);
      });
      page.on("pageerror", (err) => loaded.problems.push(`page error: ${err.message}`));
      page.on("dialog", (d) => {
        loaded.problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      page.on("request", (req) => loaded.requests.push(req.url()));
      // Nothing may leave the page; abort anything that tries.
      await page.route("**/*", (route) => route.abort());
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
      );
      await page.setContent(html, { waitUntil: "load" });
      await page.waitForSelector("html[data-ready=true]", { timeout: 15_000 }).catch(async (err: unknown) => {
        throw new Error(
          `not ready: ${String(err)}; problems: ${loaded.problems.join(" | ")}; error: ${await page.locator("#error").textContent()}`,
        );
      });
      await check(loaded);
      expect(loaded.problems).toEqual([]);
      expect(loaded.requests).toEqual([]);
    } finally {
      await page.close();
    }
  }

  const pixel = (page: Page, x: number, y: number) =>
    page.evaluate<number[]>(
      `Array.from(document.getElementById("cells").getContext("2d").getImageData(${x}, ${y}, 1, 1).data)`,
    );

  /** The viewport position of a cell's centre. */
  async function cellCentre(page: Page, r: number, c: number, n: number): Promise<{ x: number; y: number }> {
    const rect = await page.evaluate<{ left: number; top: number; width: number; height: number }>(
      `(() => { const b = document.getElementById("cells").getBoundingClientRect(); return { left: b.left, top: b.top, width: b.width, height: b.height }; })()`,
    );
    return { x: rect.left + ((c + 0.5) * rect.width) / n, y: rect.top + ((r + 0.5) * rect.height) / n };
  }

  async function hover(page: Page, r: number, c: number, n: number): Promise<string | null> {
    // Scroll the cell to the middle of the scroll box, and the box into the window.
    await page.evaluate(`(() => {
      const canvas = document.getElementById("cells"), box = document.querySelector(".scroller");
      const at = () => { const b = canvas.getBoundingClientRect(); return [b.left + (${c} + 0.5) * b.width / ${n}, b.top + (${r} + 0.5) * b.height / ${n}]; };
      let [x, y] = at(); const s = box.getBoundingClientRect();
      box.scrollLeft += x - (s.left + s.width / 2); box.scrollTop += y - (s.top + s.height / 2);
      [x, y] = at(); window.scrollBy(0, y - innerHeight / 2);
    })()`);
    const { x, y } = await cellCentre(page, r, c, n);
    await page.mouse.move(x, y);
    return page.locator("#tooltip").textContent();
  }

  it("draws each cell in its colour and names pods and verdict on hover", async () => {
    await withPage(renderHeatmapHtml({ title: "small", matrix: small() }), async ({ page }) => {
      const codes = SMALL_DISPLAY;
      const width = await page.evaluate<number>(`document.getElementById("cells").width`);
      const cell = width / 4;
      expect(cell).toBe(24);
      for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 4; c++) {
          const [red, green, blue, alpha] = await pixel(page, c * cell + cell / 2, r * cell + cell / 2);
          expect([red, green, blue, alpha], `cell ${r},${c}`).toEqual([...COLOUR_BY_CODE[codes[r]![c]!]!, 255]);
        }
      }
      // Allowed and denied differ on screen, not only in the data.
      expect(await pixel(page, 12, 12)).not.toEqual(await pixel(page, 24 + 12, 12));

      expect(await page.locator("#tooltip").isHidden()).toBe(true);
      expect(await hover(page, 0, 1, 4)).toBe("db/x → db/y: deny\ndenied by ingress (at the destination)");
      expect(await page.locator("#tooltip").isVisible()).toBe(true);
      expect(await hover(page, 1, 3, 4)).toBe(
        "db/y → web/b: deny\ndenied by egress (at the source) and ingress (at the destination)",
      );
      expect(await hover(page, 2, 3, 4)).toBe("web/a → web/b: deny\ndenied by egress (at the source)");
      expect(await hover(page, 1, 2, 4)).toBe("db/y → web/a: allow");
      await page.mouse.move(1, 1);
      expect(await page.locator("#tooltip").isHidden()).toBe(true);

      // Namespace bands carry the names.
      expect(await page.locator("#top .band").allTextContents()).toEqual(["db", "web"]);
      expect(await page.locator("#left .label").allTextContents()).toEqual(["x", "y", "a", "b"]);
    });
  });

  it("hatches denied cells by direction and writes a glyph in every table cell, legibly", async () => {
    await withPage(renderHeatmapHtml({ title: "small", matrix: small() }), async ({ page }) => {
      const cell = 24;
      // One cell's pixels as "base" / "ink" / "other" by their colour, row by row.
      const inkOf = async (r: number, c: number, code: number) => {
        const data = await page.evaluate<number[]>(
          `Array.from(document.getElementById("cells").getContext("2d").getImageData(${c * cell}, ${r * cell}, ${cell}, ${cell}).data)`,
        );
        const kind = HEATMAP_KINDS[code]!;
        const [base, ink] = [hexRgb(HEATMAP_COLOURS[kind]), hexRgb(HEATMAP_INK[kind])];
        const out = new Set<string>();
        for (let i = 0; i < cell * cell; i++) {
          const px = data.slice(i * 4, i * 4 + 3);
          if (px.every((v, j) => v === base[j])) continue;
          expect(px, `cell ${r},${c} pixel ${i}`).toEqual(ink);
          out.add(`${i % cell},${Math.floor(i / cell)}`);
        }
        return out;
      };
      /** Every ink pixel continues down-right (a falling stripe, \\) or down-left (a rising one, /). */
      const runs = (ink: Set<string>, dx: number) =>
        [...ink].every((p) => {
          const [x, y] = p.split(",").map(Number) as [number, number];
          const [nx, ny] = [x + dx, y + 1];
          return nx < 0 || nx >= cell || ny >= cell || ink.has(`${nx},${ny}`);
        });
      for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 4; c++) {
          const code = SMALL_DISPLAY[r]![c]!;
          const ink = await inkOf(r, c, code);
          const where = `cell ${r},${c} (${HEATMAP_KINDS[code]})`;
          if (code === 0) expect(ink.size, where).toBe(0);
          else expect(ink.size, where).toBeGreaterThan(cell);
          if (code === 1) expect([runs(ink, 1), runs(ink, -1)], where).toEqual([true, false]);
          if (code === 2) expect([runs(ink, 1), runs(ink, -1)], where).toEqual([false, true]);
          if (code === 3) expect([runs(ink, 1), runs(ink, -1)], where).toEqual([false, false]);
        }
      }
      // The legend and the table: each glyph on its colour, its text at 4.5:1 or more.
      expect(await page.locator(".legend .glyph").allTextContents()).toEqual(
        HEATMAP_KINDS.map((k) => HEATMAP_GLYPHS[k]),
      );
      await page.locator("details summary").click();
      const tds = await page.locator(".cells td").evaluateAll((els) =>
        els.map((e) => {
          // The tests are typed without the DOM's lib.
          const g = globalThis as unknown as {
            getComputedStyle(e: unknown): { backgroundColor: string; color: string };
          };
          return [e.className, e.textContent, g.getComputedStyle(e).backgroundColor, g.getComputedStyle(e).color];
        }),
      );
      expect(tds.length).toBe(16);
      for (const [cls, text, background, colour] of tds) {
        const kind = HEATMAP_KINDS[Number(cls!.slice(1))]!;
        expect(text!.startsWith(`${HEATMAP_GLYPHS[kind]} `), `${cls} ${text}`).toBe(true);
        expect([background, colour]).toEqual(
          [HEATMAP_COLOURS[kind], HEATMAP_TEXT[kind]].map((h) => `rgb(${hexRgb(h).join(", ")})`),
        );
        expect(contrast(background!, colour!)).toBeGreaterThanOrEqual(4.5);
      }
      const shots = join(tmpdir(), "clusterwire-heatmap-screenshots");
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, "small.png"), fullPage: true });
    });
  });

  it("moves between cells with the keyboard and announces them", async () => {
    await withPage(renderHeatmapHtml({ title: "small", matrix: small() }), async ({ page }) => {
      await page.focus("#cells");
      expect(await page.locator("#status").textContent()).toBe("db/x → db/x: allow");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowDown");
      expect(await page.locator("#status").textContent()).toBe(
        "db/y → web/b: deny\ndenied by egress (at the source) and ingress (at the destination)",
      );
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Home");
      await page.keyboard.press("ArrowLeft");
      expect(await page.locator("#status").textContent()).toBe("web/b → db/x: deny\ndenied by egress (at the source)");
      const before = await page.evaluate<number>(`document.getElementById("cells").getBoundingClientRect().width`);
      await page.click("#zoom-in");
      expect(await page.evaluate<number>(`document.getElementById("cells").getBoundingClientRect().width`)).toBe(
        before * 2,
      );
    });
  });

  it("shows the engine's reasons on hover", async () => {
    await withPage(exampleHtml(), async ({ page }) => {
      expect(await hover(page, 2, 0, 3)).toBe(
        "y/b → x/a: deny\ndenied by ingress (at the destination)\n" +
          "egress: not-isolated: no policy isolates the pod in this direction\n" +
          "ingress: denied: isolated and no rule matches; isolated by x/allow-b",
      );
      expect(await hover(page, 1, 0, 3)).toBe(
        "x/b → x/a: allow\negress: not-isolated: no policy isolates the pod in this direction\ningress: allowed-by-rule: allowed by x/allow-b (rule 0)",
      );
    });
  });

  it("runs no injected markup from titles, pod keys or warnings", async () => {
    const pods = [`${XSS}/p`, `ok/</script><script>alert(2)</script>`, `ok/<b onmouseover=alert(3)>x</b>`];
    const title = `${XSS}</title><script>alert(4)</script>`;
    const html = renderHeatmapHtml({
      title,
      matrix: handMatrix(
        pods,
        () => true,
        (f) => f !== 1,
      ),
      skipped: [XSS],
    });
    await withPage(html, async (loaded) => {
      const { page } = loaded;
      expect(await page.title()).toBe(title);
      expect(await page.locator("h1").textContent()).toBe(title);
      expect(await page.locator(".warnings li").textContent()).toBe(XSS);
      expect(await page.evaluate<number>(`document.querySelectorAll("img, b").length`)).toBe(0);
      expect(await page.evaluate<number>(`document.scripts.length`)).toBe(2);
      // Display order: "<img…>" sorts before "ok", "</script>…" before "<b…".
      expect(await hover(page, 1, 0, 3)).toBe(
        `ok/</script><script>alert(2)</script> → ${XSS}/p: deny\ndenied by ingress (at the destination)`,
      );
      expect(await hover(page, 0, 2, 3)).toBe(`${XSS}/p → ok/<b onmouseover=alert(3)>x</b>: allow`);
      expect(await page.locator("#top .band").first().textContent()).toBe(XSS);
      // The CSP is in force: the page itself may not fetch.
      expect(
        await page.evaluate<string>(`fetch("https://example.invalid/x").then(() => "fetched", () => "blocked")`),
      ).toBe("blocked");
      expect(loaded.problems.some((p) => p.includes("connect-src"))).toBe(true);
      loaded.problems.splice(0);
    });
  });

  it("loads a 2,000-pod heatmap in under 1.5 MB of HTML", async () => {
    const n = 2000;
    const m = structuredMatrix(n, 20);
    const html = renderHeatmapHtml({ title: "big", matrix: m });
    expect(html.length).toBeLessThan(1_500_000);
    await withPage(html, async ({ page }) => {
      expect(await page.evaluate<number>(`document.getElementById("cells").width`)).toBe(n);
      const data = embedded(html);
      expect(data.cells.encoding).toBe("gzip");
      for (const [r, c] of [
        [0, 0],
        [0, 20],
        [21, 5],
        [1999, 1999],
        [140, 1995],
      ] as const) {
        const code = codeOf(m, data.index[r]!, data.index[c]!);
        expect(await pixel(page, c, r), `cell ${r},${c}`).toEqual([...COLOUR_BY_CODE[code]!, 255]);
      }
      // Zoomed to 1.8 CSS px per cell, the pointer picks single cells.
      await page.click("#zoom-in");
      await page.click("#zoom-in");
      expect(await hover(page, 21, 6, n)).toBe(
        "ns-0001/pod-00021 → ns-0000/pod-00006: deny\ndenied by egress (at the source)",
      );
      expect(await hover(page, 1800, 1500, n)).toBe(
        "ns-0090/pod-01800 → ns-0075/pod-01500: deny\ndenied by ingress (at the destination)",
      );
      expect(await hover(page, 30, 35, n)).toBe("ns-0001/pod-00030 → ns-0001/pod-00035: allow");
      expect(await page.locator("#top .band").count()).toBe(100);
    });
  });

  it("shades blocks of cells above 2,048 pods", async () => {
    const n = 2100;
    // Two namespaces; nothing crosses between them.
    const m = handMatrix(
      Array.from({ length: n }, (_, i) => `${i < 1050 ? "a" : "b"}/p${String(i).padStart(4, "0")}`),
      () => true,
      (f, t) => f < 1050 === t < 1050,
    );
    await withPage(renderHeatmapHtml({ title: "huge", matrix: m }), async ({ page }) => {
      expect(await page.evaluate<number>(`document.getElementById("cells").width`)).toBe(1050);
      expect(await pixel(page, 10, 10)).toEqual([...COLOUR_BY_CODE[0]!, 255]);
      expect(await pixel(page, 1000, 10)).toEqual([...COLOUR_BY_CODE[2]!, 255]);
      await page.click("#zoom-in");
      await page.click("#zoom-in");
      expect(await hover(page, 3, 1500, n)).toBe("a/p0003 → b/p1500: deny\ndenied by ingress (at the destination)");
    });
  });

  it("loads an empty cluster", async () => {
    await withPage(
      renderHeatmapHtml({
        title: "empty",
        matrix: handMatrix(
          [],
          () => true,
          () => true,
        ),
      }),
      async ({ page }) => {
        expect(await page.evaluate<number>(`document.getElementById("cells").width`)).toBe(0);
      },
    );
  });
});
