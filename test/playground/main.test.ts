// The playground page in headless Chromium (Debian's, as test/cli/reach/heatmap.test.ts
// drives it; CLUSTERWIRE_SKIP_BROWSER=1 skips), built here into a temporary directory and
// opened both from file:// and served by `npm run playground -- --serve`'s server. What the
// page shows is checked against the library in Node: validate() + formatFieldError for the
// errors, warnings(), decode()/toYaml() for a .pb file, createRouter for a route.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlayground, servePlayground } from "../../scripts/playground.mjs";
import { clusterEngine, parseClusterFile } from "../../src/cli/shared/cluster-file.js";
import {
  annotateWire,
  createRouter,
  decode,
  encode,
  formatWireAnnotation,
  formatFieldError,
  fromJson,
  fromYaml,
  toJsonString,
  toYaml,
  validate,
  warnings,
  type Ingress,
  type NetworkingObject,
} from "../../src/networking/index.js";
import { HEATMAP_COLOURS } from "../../src/cli/reach/heatmap-palette.js";
import { CELL_KINDS, cellKind, type CellKind } from "../../src/playground/cells.js";
import { explain } from "../../src/playground/reach.js";
import { SAMPLE_INPUT } from "../../src/playground/sample.js";
import { decodeState, type PlaygroundState } from "../../src/playground/state.js";
import { CHROMIUM, SKIP_BROWSER } from "../support/chromium.js";
import { channels, contrast } from "../support/colour-vision.js";
import { nonEmpty } from "../support/non-empty.js";

const root = new URL("../../", import.meta.url);
const read = (p: string) => readFileSync(new URL(p, root), "utf8");
const FIXTURES = "../shared/testdata/k8s-api/v1.35.0/";
/** Screenshots of each run, to look at (the same directory each run, overwritten). */
const SHOTS = join(tmpdir(), "clusterwire-playground-screenshots");
mkdirSync(SHOTS, { recursive: true });

/** The Reach grid's cell colours: the heatmap's. */
const PLAYGROUND_COLOURS: Record<CellKind, string> = {
  allow: HEATMAP_COLOURS.allowed,
  "deny-egress": HEATMAP_COLOURS.egressDenied,
  "deny-ingress": HEATMAP_COLOURS.ingressDenied,
  "deny-both": HEATMAP_COLOURS.bothDenied,
};

/** Examples and upstream fixtures of every kind, valid and invalid, YAML and JSON. */
const FILES = [
  ...nonEmpty(
    readdirSync(new URL("examples/", root)).filter((f) => /\.(ya?ml|json)$/.test(f) && f !== "shop-deploy.yaml"),
    "manifests in examples/",
  ).map((f) => `examples/${f}`),
  ...nonEmpty(readdirSync(new URL("examples/invalid/", root)), "examples/invalid/").map((f) => `examples/invalid/${f}`),
  `${FIXTURES}networking.k8s.io.v1.IPAddress.yaml`,
  `${FIXTURES}networking.k8s.io.v1.ServiceCIDR.json`,
];

function objectsOf(text: string, file: string): NetworkingObject[] {
  return file.endsWith(".json") ? [fromJson(text)] : fromYaml(text);
}

/** The few browser classes the page functions below use (the tests are typed without the DOM's lib). */
interface BrowserGlobals {
  getComputedStyle(e: unknown): { backgroundColor: string; color: string };
  DataTransfer: new () => { setData(format: string, data: string): void; items: { add(file: unknown): unknown } };
  ClipboardEvent: new (type: string, init: object) => unknown;
  File: new (parts: unknown[], name: string) => unknown;
}

/** Defaults for reading the page's hash: any state the page writes has every field. */
const STATE_DEFAULTS: PlaygroundState = {
  input: "",
  old: "",
  operation: "create",
  namespace: "",
  gates: {},
  host: "",
  path: "",
  controller: "",
  tab: "json",
  cluster: "",
  reachProtocol: "TCP",
  reachPort: "",
};

interface Opened {
  readonly page: Page;
  /** Console errors and warnings, page errors, CSP violations, dialogs. */
  readonly problems: string[];
  /** Every request, in order. */
  readonly requests: string[];
  /** Requests after the page said it was ready. */
  readonly late: string[];
}

describe.skipIf(SKIP_BROWSER)("the playground in headless Chromium", () => {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let site = "";
  let server: Server | undefined;
  let served = "";
  const MISSING = `${CHROMIUM} is missing: install Debian's chromium with \`apt-get install -y chromium\` (as root), or set CLUSTERWIRE_SKIP_BROWSER=1 to skip the browser tests`;

  beforeAll(async () => {
    site = mkdtempSync(join(tmpdir(), "clusterwire-playground-"));
    await buildPlayground({ outDir: site });
    server = await servePlayground({ dir: site, port: 0 });
    served = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    if (!existsSync(CHROMIUM)) return;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"], timeout: 20_000 });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
    rmSync(site, { recursive: true, force: true });
  });

  const fileUrl = () => pathToFileURL(join(site, "index.html")).href;

  async function open(url: string): Promise<Opened> {
    if (context === undefined) throw new Error(MISSING);
    const page = await context.newPage();
    const opened: Opened = { page, problems: [], requests: [], late: [] };
    let ready = false;
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning")
        opened.problems.push(`console ${msg.type()}: ${msg.text()}`);
    });
    page.on("pageerror", (err) => opened.problems.push(`page error: ${err.message}`));
    page.on("dialog", (d) => {
      opened.problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    page.on("request", (req) => {
      opened.requests.push(req.url());
      if (ready) opened.late.push(req.url());
    });
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
    );
    await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("html[data-ready=true]", { timeout: 15_000 }).catch(async (err: unknown) => {
      throw new Error(
        `not ready: ${String(err)}; problems: ${opened.problems.join(" | ")}; ${await page.locator("#fatal").textContent()}`,
      );
    });
    ready = true;
    return opened;
  }

  async function finish(o: Opened): Promise<void> {
    try {
      expect(o.problems).toEqual([]);
      expect(o.late).toEqual([]);
    } finally {
      await o.page.close();
    }
  }

  /** The state the page keeps in its hash (so, what its editors hold). */
  async function pageState(page: Page): Promise<PlaygroundState | undefined> {
    const hash = await page.evaluate<string>("location.hash");
    return decodeState(hash, STATE_DEFAULTS);
  }

  /** Waits for the page to have validated again after `act`, and for its hash to hold `check`. */
  async function settled(page: Page, act: () => Promise<void>): Promise<void> {
    await page.evaluate("document.documentElement.dataset.pending = 'stale'");
    await act();
    await page.waitForSelector("html[data-pending=false]", { timeout: 10_000 });
  }

  /** Replaces an editor's text as a paste would. */
  async function setEditor(page: Page, testid: "input" | "old-input", text: string): Promise<void> {
    await settled(page, async () => {
      await page.locator(`[data-testid=${testid}]`).click();
      await page.keyboard.press("Control+A");
      if (text === "") await page.keyboard.press("Backspace");
      else {
        // A paste event, as the clipboard sends one: CodeMirror inserts the text itself.
        await page.locator(`[data-testid=${testid}]`).evaluate((el, t) => {
          const g = globalThis as unknown as BrowserGlobals;
          const data = new g.DataTransfer();
          data.setData("text/plain", t);
          el.dispatchEvent(
            new g.ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }) as never,
          );
        }, text);
      }
    });
    // The hash is written just after: poll it until it holds the text.
    for (let i = 0; i < 100; i++) {
      const s = await pageState(page);
      if ((testid === "input" ? s?.input : s?.old) === text) return;
      await page.waitForTimeout(20);
    }
    throw new Error(`the ${testid} editor does not hold the text pasted into it`);
  }

  const listTexts = (page: Page, testid: string) =>
    page.locator(`[data-testid=${testid}] > li`).evaluateAll((els) => els.map((e) => (e.textContent ?? "").trim()));

  it("finds Debian's chromium", () => {
    if (!existsSync(CHROMIUM)) throw new Error(MISSING);
    expect(browser?.isConnected()).toBe(true);
  });

  it("ships its own CSP, without eval or inline scripts or styles, and one classic script", () => {
    const html = readFileSync(join(site, "index.html"), "utf8");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe-(eval|inline)/);
    expect(html).not.toMatch(/type="module"/);
    expect(html).not.toMatch(/<script>|<style>| style="| on[a-z]+="/);
    expect(readdirSync(site).sort()).toEqual(["app.js", "index.html", "style.css"]);
  });

  for (const where of ["file", "served"] as const) {
    it(`opened ${where === "file" ? "from file://" : "from --serve"}: the sample's errors are validate()'s, and it loads only its own files`, async () => {
      const url = where === "file" ? fileUrl() : served;
      const o = await open(url);
      try {
        const want = fromYaml(SAMPLE_INPUT).flatMap((obj) => validate(obj).map(formatFieldError));
        expect(want.length).toBeGreaterThan(0);
        expect(await listTexts(o.page, "errors")).toEqual(want);
        const base = url.replace(/index\.html$/, "");
        expect(o.requests.map((r) => r.slice(base.length)).sort()).toEqual(
          where === "file" ? ["app.js", "index.html", "style.css"] : ["", "app.js", "style.css"],
        );
        await o.page.screenshot({ path: join(SHOTS, `loaded-${where}.png`) });
      } finally {
        await finish(o);
      }
    });
  }

  it("pasted objects of every kind: errors and warnings as validate() and warnings() give them", async () => {
    const o = await open(fileUrl());
    try {
      let errors = 0;
      for (const file of FILES) {
        const text = read(file);
        await setEditor(o.page, "input", text);
        const objects = objectsOf(text, file);
        const want = objects.flatMap((obj) => validate(obj).map(formatFieldError));
        const wantWarnings = objects.flatMap((obj) => (validate(obj).length === 0 ? warnings(obj) : []));
        expect({ file, errors: await listTexts(o.page, "errors") }).toEqual({ file, errors: want });
        expect({ file, warnings: await listTexts(o.page, "warnings") }).toEqual({ file, warnings: wantWarnings });
        expect(await listTexts(o.page, "problems")).toEqual([]);
        expect(await o.page.locator("[data-testid=panel-json]").textContent()).toBe(
          objects.map((obj) => toJsonString(obj)).join("\n"),
        );
        errors += want.length;
        if (file.includes("invalid/netpol")) {
          // The inline diagnostics: one lint marker per error line in the gutter.
          expect(
            await o.page
              .locator("[data-testid=input]")
              .evaluate((el) => el.closest(".cm-editor")!.querySelectorAll(".cm-lintRange-error").length),
          ).toBeGreaterThan(0);
          await o.page.screenshot({ path: join(SHOTS, "invalid.png") });
        }
      }
      expect(errors).toBeGreaterThanOrEqual(11);
      // Something that does not decode is said, with its line, and gives no field errors.
      await setEditor(o.page, "input", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nspec:\n  rules: 7\n");
      expect(await listTexts(o.page, "errors")).toEqual([]);
      const problems = await listTexts(o.page, "problems");
      expect(problems.length).toBe(1);
      expect(problems[0]).toMatch(/^yaml decode error at .*line 4/);
    } finally {
      await finish(o);
    }
  }, 120_000);

  it("update and status validate against the old object pane", async () => {
    const o = await open(fileUrl());
    try {
      const stored = read("examples/ingressclass-public.yaml");
      const changed = stored.replace("controller: k8s.io/ingress-nginx", "controller: example.com/other");
      await settled(o.page, () => o.page.selectOption("[data-testid=operation]", "update").then(() => undefined));
      expect(await o.page.locator("[data-testid=old-input]").isVisible()).toBe(true);
      await setEditor(o.page, "old-input", stored);
      await setEditor(o.page, "input", changed);
      const want = validate(fromYaml(changed)[0]!, { old: fromYaml(stored)[0]! }).map(formatFieldError);
      expect(want.length).toBeGreaterThan(0);
      expect(await listTexts(o.page, "errors")).toEqual(want);
      await o.page.screenshot({ path: join(SHOTS, "update.png") });

      // A rename: one object of the kind in each pane, so they are paired, and the name is immutable.
      const renamed = changed.replace("name: nginx-public", "name: nginx-renamed");
      await setEditor(o.page, "input", renamed);
      const wantRename = validate(fromYaml(renamed)[0]!, { old: fromYaml(stored)[0]! }).map(formatFieldError);
      expect(wantRename).toContain('metadata.name: Invalid value: "nginx-renamed": field is immutable');
      expect(await listTexts(o.page, "problems")).toEqual([]);
      expect(await listTexts(o.page, "errors")).toEqual(wantRename);
      await o.page.screenshot({ path: join(SHOTS, "rename.png") });
      // Two IngressClasses against one old one: the one of the stored name is paired, the other is said.
      await setEditor(o.page, "input", `${changed}---\n${renamed}`);
      expect(await listTexts(o.page, "errors")).toEqual(want);
      expect(await listTexts(o.page, "problems")).toEqual([
        expect.stringMatching(/^update: the old object pane has no IngressClass named "nginx-renamed"/),
      ]);

      const ingress = read("examples/ingress-shop.yaml");
      const withStatus = `${ingress.trimEnd()}\nstatus:\n  loadBalancer:\n    ingress:\n      - ip: 300.1.2.3\n`;
      await settled(o.page, () => o.page.selectOption("[data-testid=operation]", "status").then(() => undefined));
      await setEditor(o.page, "old-input", ingress);
      await setEditor(o.page, "input", withStatus);
      const wantStatus = validate(fromYaml(withStatus)[0]!, { old: fromYaml(ingress)[0]!, subresource: "status" }).map(
        formatFieldError,
      );
      expect(wantStatus.length).toBeGreaterThan(0);
      expect(await listTexts(o.page, "errors")).toEqual(wantStatus);
      await settled(o.page, () => o.page.selectOption("[data-testid=operation]", "create").then(() => undefined));
      expect(await o.page.locator("[data-testid=old-input]").isVisible()).toBe(false);
      expect(await listTexts(o.page, "errors")).toEqual(validate(fromYaml(withStatus)[0]!).map(formatFieldError));
    } finally {
      await finish(o);
    }
  });

  it("text typed or inserted over a selection, with the real keyboard, raises no CSP violation", async () => {
    const o = await open(fileUrl());
    const page = o.page;
    try {
      // Every violation, with what the browser says of its source (the init script also logs them as errors).
      await page.evaluate(`window.violations = [];
        document.addEventListener("securitypolicyviolation", (e) => window.violations.push(
          [e.violatedDirective, e.sample, e.sourceFile, e.lineNumber, e.target && e.target.nodeName].join(" ")), true);`);
      const violations = () => page.evaluate<string[]>("window.violations");
      await settled(page, () => page.selectOption("[data-testid=operation]", "update").then(() => undefined));
      const textOf = async (testid: "input" | "old-input") => {
        const s = await pageState(page);
        return testid === "input" ? s?.input : s?.old;
      };
      for (const testid of ["input", "old-input"] as const) {
        const editor = page.locator(`[data-testid=${testid}]`);
        // Each step is keyboard input into the focused editor, then the text it must leave.
        const steps: [string, () => Promise<void>, string][] = [
          ["select all, type", () => page.keyboard.type("kind: Ingress"), "kind: Ingress"],
          [
            "select all, insert text",
            () => page.keyboard.insertText("apiVersion: networking.k8s.io/v1\nkind: IngressClass\n"),
            "apiVersion: networking.k8s.io/v1\nkind: IngressClass\n",
          ],
        ];
        for (const [what, act, want] of steps) {
          await editor.click();
          await settled(page, async () => {
            await page.keyboard.press("Control+A");
            await act();
          });
          await expect.poll(() => textOf(testid), { message: `${testid}: ${what}` }).toBe(want);
          expect({ testid, what, violations: await violations() }).toEqual({ testid, what, violations: [] });
        }
        // Part of a line (Shift+End from the start of the second line), then a collapsed cursor.
        await settled(page, async () => {
          await page.keyboard.press("Control+Home");
          await page.keyboard.press("ArrowDown");
          await page.keyboard.press("Shift+End");
          await page.keyboard.type("kind: Ingress");
          await page.keyboard.press("Control+End");
          await page.keyboard.type("# end");
        });
        await expect.poll(() => textOf(testid)).toBe("apiVersion: networking.k8s.io/v1\nkind: Ingress\n# end");
        // Undo takes back the typed text as CodeMirror's own typing is taken back.
        await settled(page, () => page.keyboard.press("Control+Z"));
        await expect.poll(() => textOf(testid)).not.toBe("apiVersion: networking.k8s.io/v1\nkind: Ingress\n# end");
        expect(await violations()).toEqual([]);
      }
      // A selection made with the mouse, across lines, then typed over.
      await settled(page, async () => {
        await page.locator("[data-testid=input]").click();
        await page.keyboard.press("Control+A");
        await page.keyboard.type("alpha: 1");
        await page.keyboard.press("Enter");
        await page.keyboard.type("beta: 2");
        await page.keyboard.press("Enter");
        await page.keyboard.type("gamma: 3");
      });
      const lines = await page.evaluate<[number, number, number][]>(
        `[...document.querySelector("#input-editor").shadowRoot.querySelectorAll(".cm-line")].map((l) => { const r = l.getBoundingClientRect(); return [r.x, r.y, r.height]; })`,
      );
      const [[x, top, h], , [, bottom]] = lines as [[number, number, number], unknown, [number, number, number]];
      await settled(page, async () => {
        await page.mouse.move(x + 20, top + h / 2);
        await page.mouse.down();
        await page.mouse.move(x + 20, bottom + h / 2, { steps: 5 });
        await page.mouse.up();
        await page.keyboard.type("X");
      });
      // From within "alpha" to within "gamma", as the browser selected it: one line left.
      await expect.poll(() => textOf("input")).toMatch(/X[a-z]*: 3$/);
      const joined = (await textOf("input")) ?? "";
      expect({ joined, start: "alpha".startsWith(joined.slice(0, joined.indexOf("X"))) }).toEqual({
        joined: expect.not.stringMatching(/\n|beta/),
        start: true,
      });
      expect(await violations()).toEqual([]);
      // What the editor drew carries no style attribute on its lines.
      const styled = await page.evaluate<number>(
        `[...document.querySelectorAll(".editor")].reduce((n, h) => n + h.shadowRoot.querySelectorAll(".cm-line[style], .cm-line [style]").length, 0)`,
      );
      expect(styled).toBe(0);
    } finally {
      await finish(o);
    }
  });

  it("namespace and feature gates change the answer as they change validate()'s", async () => {
    const o = await open(fileUrl());
    try {
      const policy =
        "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: p\nspec:\n  podSelector: {}\n  ingress:\n    - from:\n        - ipBlock:\n            cidr: 10.0.0.1/8\n";
      await setEditor(o.page, "input", policy);
      expect(await listTexts(o.page, "errors")).toEqual(validate(fromYaml(policy)[0]!).map(formatFieldError));
      await settled(o.page, () => o.page.check("[data-testid=gate-StrictIPCIDRValidation]"));
      const strict = validate(fromYaml(policy)[0]!, { featureGates: { StrictIPCIDRValidation: true } }).map(
        formatFieldError,
      );
      expect(strict.length).toBeGreaterThan(0);
      expect(await listTexts(o.page, "errors")).toEqual(strict);
      await settled(o.page, () => o.page.fill("[data-testid=namespace]", "Bad_Namespace"));
      expect(await listTexts(o.page, "errors")).toEqual(
        validate(fromYaml(policy)[0]!, {
          featureGates: { StrictIPCIDRValidation: true },
          namespace: "Bad_Namespace",
        }).map(formatFieldError),
      );
    } finally {
      await finish(o);
    }
  });

  it("a .pb file, chosen or dropped, is decoded into the editor as YAML", async () => {
    const o = await open(served);
    try {
      for (const kind of ["Ingress", "NetworkPolicy"]) {
        const path = new URL(`${FIXTURES}networking.k8s.io.v1.${kind}.pb`, root);
        const bytes = readFileSync(path);
        const obj = decode(new Uint8Array(bytes));
        await settled(o.page, () => o.page.setInputFiles("[data-testid=pb-file]", path.pathname));
        expect((await pageState(o.page))?.input).toBe(toYaml(obj));
        expect(await o.page.locator("[data-testid=panel-json]").textContent()).toBe(toJsonString(obj));
        expect(await listTexts(o.page, "errors")).toEqual(validate(obj).map(formatFieldError));
      }
      // Dropped on the editor.
      const bytes = [...readFileSync(new URL(`${FIXTURES}networking.k8s.io.v1.IngressClass.pb`, root))];
      const obj = decode(Uint8Array.from(bytes));
      await settled(o.page, async () => {
        const dt = await o.page.evaluateHandle((b) => {
          const g = globalThis as unknown as BrowserGlobals;
          const d = new g.DataTransfer();
          d.items.add(new g.File([new Uint8Array(b)], "class.pb"));
          return d;
        }, bytes);
        await o.page.dispatchEvent("#input-editor", "drop", { dataTransfer: dt });
      });
      expect((await pageState(o.page))?.input).toBe(toYaml(obj));
      // The Wire tab shows the bytes encode() writes for it, annotated: the fixture's own bytes.
      await o.page.click("#tab-wire");
      const wire = (await o.page.locator("[data-testid=panel-wire]").textContent()) ?? "";
      const again = encode(obj);
      expect(wire).toBe(formatWireAnnotation(annotateWire(again), again));
      expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
      // A file that is not protobuf is said, not thrown.
      await o.page.setInputFiles("[data-testid=pb-file]", {
        name: "junk.pb",
        mimeType: "application/octet-stream",
        buffer: Buffer.from("not protobuf at all"),
      });
      await expect
        .poll(() => o.page.locator("[data-testid=pb-status]").textContent())
        .toMatch(/^junk\.pb: protobuf decode error/);
    } finally {
      await finish(o);
    }
  });

  it("routes a request through the editor's Ingresses as createRouter does", async () => {
    const o = await open(fileUrl());
    try {
      const text = `${read("examples/ingressclass-public.yaml")}---\n${read("examples/ingress-shop.yaml")}`;
      await setEditor(o.page, "input", text);
      const ingresses = fromYaml(text).filter((x) => x.$typeName.endsWith(".Ingress")) as Ingress[];
      for (const [host, path] of [
        ["api.shop.example.com", "/v1/orders"],
        ["tenant.shop.example.com", "/basket"],
        ["nowhere.example.org", "/"],
      ] as const) {
        await o.page.fill("[data-testid=route-host]", host);
        await o.page.fill("[data-testid=route-path]", path);
        const want = createRouter({ ingresses }).resolve({ host, path });
        expect(await o.page.locator("[data-testid=route-result]").getAttribute("data-route")).toBe(
          JSON.stringify(want),
        );
        const shown = (await o.page.locator("[data-testid=route-result]").textContent()) ?? "";
        if (want.route !== null) expect(shown).toContain(want.route.ingress);
        else expect(shown).toMatch(/^No backend/);
      }
      await o.page.fill("[data-testid=route-host]", "api.shop.example.com");
      await o.page.fill("[data-testid=route-path]", "/v1/orders");
      await o.page.locator("[data-testid=route-result]").scrollIntoViewIfNeeded();
      await o.page.screenshot({ path: join(SHOTS, "route.png"), fullPage: true });
    } finally {
      await finish(o);
    }
  });

  it("Reach: the grid's verdicts are the CLI reader's engine's, and a cell explains itself", async () => {
    const o = await open(fileUrl());
    try {
      const shop = read("examples/clusters/shop.yaml");
      const engine = clusterEngine(parseClusterFile("shop.yaml", shop));
      await o.page.fill("[data-testid=reach-input]", shop);
      await o.page.fill("[data-testid=reach-port]", "8080");
      const m = engine.matrix({ protocol: "TCP", port: 8080 });
      await expect
        .poll(() => o.page.locator("[data-testid=reach-status]").textContent())
        .toBe(`${m.pods.length} pods: ${m.countAllowed()} of ${m.pods.length ** 2} connections allowed on TCP/8080.`);
      const cells = await o.page
        .locator("[data-testid=reach-table] button")
        .evaluateAll((els) =>
          els.map((e) => [e.getAttribute("data-from"), e.getAttribute("data-to"), e.getAttribute("data-allowed")]),
        );
      const want = m.pods.flatMap((from, f) => m.pods.map((to, t) => [from, to, String(m.allowed(f, t))]));
      expect(cells).toEqual(want);
      // Colour is not the only signal: each cell shows its kind's glyph and says its words,
      // in the colours of the palette, with its text at 4.5:1 or more.
      const looks = await o.page.locator("[data-testid=reach-table] button").evaluateAll((els) =>
        els.map((e) => {
          const style = (globalThis as unknown as BrowserGlobals).getComputedStyle(e);
          return [e.className, e.textContent, e.getAttribute("aria-label"), style.backgroundColor, style.color];
        }),
      );
      const kinds = new Set<string>();
      m.pods.forEach((from, f) => {
        m.pods.forEach((to, t) => {
          const kind = cellKind(m.egressAllowed(f, t), m.ingressAllowed(f, t));
          kinds.add(kind);
          const [cls, text, label, background, colour] = looks[f * m.pods.length + t]!;
          expect([cls, text, label]).toEqual([
            kind,
            CELL_KINDS[kind].glyph,
            `${from} to ${to}: ${CELL_KINDS[kind].words}`,
          ]);
          expect(contrast(background!, colour!), `${from} to ${to}`).toBeGreaterThanOrEqual(4.5);
          expect(channels(background!)).toEqual(channels(PLAYGROUND_COLOURS[kind]));
        });
      });
      expect([...kinds].sort()).toEqual(["allow", "deny-both", "deny-egress", "deny-ingress"]);
      expect(await o.page.locator("[data-testid=reach-legend] .swatch").allTextContents()).toEqual(
        Object.values(CELL_KINDS).map((k) => k.glyph),
      );
      const [from, to] = ["ingress-nginx/controller-7d9f", "shop/storefront-6c5d"];
      await o.page.click(`[data-testid=reach-table] button[data-from="${from}"][data-to="${to}"]`);
      expect(await o.page.locator("[data-testid=reach-explain]").textContent()).toBe(
        explain(engine, from, to, "TCP", 8080).join("\n"),
      );
      // By keyboard: the grid is one tab stop after the port; arrows move, Enter explains.
      await o.page.focus("[data-testid=reach-port]");
      await o.page.keyboard.press("Tab");
      const focusedCell = () =>
        o.page.evaluate<string>(`document.activeElement.dataset.from + " " + document.activeElement.dataset.to`);
      expect(await focusedCell()).toBe(`${m.pods[0]} ${m.pods[0]}`);
      await o.page.keyboard.press("ArrowDown");
      await o.page.keyboard.press("ArrowRight");
      expect(await focusedCell()).toBe(`${m.pods[1]} ${m.pods[1]}`);
      await o.page.keyboard.press("Enter");
      expect(await o.page.locator("[data-testid=reach-explain]").textContent()).toBe(
        explain(engine, m.pods[1]!, m.pods[1]!, "TCP", 8080).join("\n"),
      );
      await o.page.keyboard.press("Tab");
      expect(await o.page.evaluate<string>("document.activeElement.tagName")).toBe("BODY");
      await o.page.locator("[data-testid=reach-explain]").scrollIntoViewIfNeeded();
      await o.page.screenshot({ path: join(SHOTS, "reach.png") });
      await o.page.fill("[data-testid=reach-input]", "pods: 3\n");
      await expect
        .poll(() => o.page.locator("[data-testid=reach-status]").textContent())
        .toBe("Cannot read the cluster: pods: expected a list");
    } finally {
      await finish(o);
    }
  });

  it("keeps its state in the hash without adding history entries, and a link restores it", async () => {
    const o = await open(fileUrl());
    try {
      const before = await o.page.evaluate<number>("history.length");
      const text = read("examples/netpol-ipblock.yaml");
      await setEditor(o.page, "input", text);
      await settled(o.page, () => o.page.selectOption("[data-testid=operation]", "update").then(() => undefined));
      await o.page.fill("[data-testid=route-host]", "a.example.com");
      await o.page.click("#tab-yaml");
      await expect.poll(async () => (await pageState(o.page))?.tab).toBe("yaml");
      expect(await o.page.evaluate<number>("history.length")).toBe(before);
      const link = o.page.url();
      expect(link).toMatch(/#s=[A-Za-z0-9_-]+$/);
      const again = await open(link);
      try {
        const s = await pageState(again.page);
        expect(s?.input).toBe(text);
        expect(await again.page.locator("[data-testid=operation]").inputValue()).toBe("update");
        expect(await again.page.locator("[data-testid=route-host]").inputValue()).toBe("a.example.com");
        expect(await again.page.locator("#tab-yaml").getAttribute("aria-selected")).toBe("true");
        expect(await again.page.locator("[data-testid=panel-yaml]").isVisible()).toBe(true);
      } finally {
        await finish(again);
      }
    } finally {
      await finish(o);
    }
  });

  it("works with the keyboard alone: Tab order, the operation selector, the editor's Escape, the tabs", async () => {
    const o = await open(fileUrl());
    const page = o.page;
    const focused = () =>
      // The focused element, inside the editors' shadow roots too.
      page.evaluate<string>(
        `(() => { let el = document.activeElement; while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement; return el ? (el.getAttribute("data-testid") || el.id || el.tagName) : ""; })()`,
      );
    try {
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("operation");
      await settled(page, () => page.keyboard.press("ArrowDown"));
      expect(await page.locator("[data-testid=operation]").inputValue()).toBe("update");
      const order: string[] = [];
      for (let i = 0; i < 7; i++) {
        await page.keyboard.press("Tab");
        order.push(await focused());
      }
      expect(order).toEqual([
        "namespace",
        "gate-StrictIPCIDRValidation",
        "gate-RelaxedServiceNameValidation",
        "pb-file",
        "share",
        "input",
        "input", // Tab indents inside the editor...
      ]);
      // Typing goes through the browser's own editing (no CSP violation from it either).
      await settled(page, () => page.keyboard.type("# typed"));
      expect((await pageState(page))?.input).toMatch(/# typed/);
      await page.keyboard.press("Escape"); // ...and Escape, then Tab, leaves it
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("old-input");
      await page.keyboard.press("Escape");
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("tab-json");
      await page.keyboard.press("ArrowRight");
      expect(await focused()).toBe("tab-yaml");
      expect(await page.locator("[data-testid=panel-yaml]").isVisible()).toBe(true);
      await page.keyboard.press("End");
      expect(await focused()).toBe("tab-wire");
      await page.keyboard.press("ArrowRight");
      expect(await focused()).toBe("tab-json");
      expect(await page.locator("[data-testid=panel-json]").isVisible()).toBe(true);
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("panel-json");
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("route-host");
      // Every control has a label a screen reader reads.
      const unlabelled = await page.evaluate<string[]>(
        `[...document.querySelectorAll("input, select, button, textarea")]
          .filter((e) => e.offsetParent !== null)
          .filter((e) => (e.labels ? e.labels.length : 0) === 0 && !e.getAttribute("aria-label") && (e.textContent || "").trim() === "")
          .map((e) => e.id)`,
      );
      expect(unlabelled).toEqual([]);
      await page.screenshot({ path: join(SHOTS, "keyboard.png") });
    } finally {
      await finish(o);
    }
  });
});
