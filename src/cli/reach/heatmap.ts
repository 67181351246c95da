// The self-contained HTML heatmap of a NetworkPolicy truth table
// (`clusterwire reach --output html`): one file, no network, drawn on a
// canvas from a packed encoding so a 2,000-pod cluster stays a few MB at most.
// The data it embeds for the page's script is described in heatmap-data.ts.

import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { Decision, DirectionDecision, TruthMatrix } from "../../networking/index.js";
import { type HeatmapData, type PackedBytes, type PackedExplain, SHADED_ABOVE } from "./heatmap-data.js";
import {
  HEATMAP_COLOURS,
  HEATMAP_GLYPHS,
  HEATMAP_HATCH,
  HEATMAP_INK,
  HEATMAP_KINDS,
  HEATMAP_TEXT,
} from "./heatmap-palette.js";

export interface HeatmapInput {
  readonly title: string;
  readonly matrix: TruthMatrix;
  /** Optional per-cell explanation; used only when there are at most EXPLAIN_LIMIT pods. */
  readonly explain?: (from: number, to: number) => Decision;
  /** Lines shown as warnings (skipped policies). */
  readonly skipped?: readonly string[];
}

/** Above this many pods `explain` is not called: the table of reasons would dominate the file. */
export const EXPLAIN_LIMIT = 300;
/** Up to this many pods the page also carries an HTML table of every cell. */
export const TABLE_LIMIT = 50;
/** Up to this many pods the axes carry pod names. */
const LABEL_LIMIT = 100;

const CODE_NAMES = ["allow", "deny (egress)", "deny (ingress)", "deny (both)"] as const;

/** A CSS background of stripes of `ink` for a hatch of HEATMAP_HATCH, over the cell colour. */
function hatchCss(hatch: string, ink: string): string {
  const stripes = (angle: number) => `repeating-linear-gradient(${angle}deg, ${ink} 0 2px, transparent 2px 6px)`;
  if (hatch === "\\") return stripes(45);
  if (hatch === "/") return stripes(-45);
  if (hatch === "X") return `${stripes(45)}, ${stripes(-45)}`;
  return "none";
}

/** The legend's and the cell table's rules, one per kind of cell. */
const KIND_CSS = HEATMAP_KINDS.map(
  (kind, code) =>
    `.c${code} { background-color: ${HEATMAP_COLOURS[kind]}; color: ${HEATMAP_TEXT[kind]}; }\n` +
    `.swatch.c${code} { background-image: ${hatchCss(HEATMAP_HATCH[kind], HEATMAP_INK[kind])}; }`,
).join("\n");

const VERDICT_MEANING: Record<DirectionDecision["verdict"], string> = {
  "not-applicable": "not a policy subject (address or hostNetwork pod)",
  "not-isolated": "no policy isolates the pod in this direction",
  "allowed-by-rule": "allowed by",
  denied: "isolated and no rule matches; isolated by",
  "node-local": "from the pod's own node, check skipped",
  self: "the pod talking to itself",
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** JSON that can sit inside a `<script>` element: no `</script>`, no `<!--`, no JS line separators. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The smaller of raw and gzip, base64-encoded; tiny or random payloads don't shrink. */
function pack(bytes: Uint8Array): PackedBytes {
  const gz = gzipSync(bytes, { level: 9 });
  return gz.length < bytes.length
    ? { encoding: "gzip", base64: gz.toString("base64") }
    : { encoding: "raw", base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64") };
}

/** Code-unit order, so the layout doesn't depend on the locale. */
const compareUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Natural order (`pod-9` before `pod-10`), then code-unit order so distinct strings never tie. */
function compare(a: string, b: string): number {
  const xs = a.match(/\d+|\D+/g) ?? [];
  const ys = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (x === y) continue;
    const digits = /\d/.test(x[0]!) && /\d/.test(y[0]!);
    if (!digits) return compareUnits(x, y);
    // Compare digit runs by value without parsing: length without leading zeros, then digits.
    const u = x.replace(/^0+/, "");
    const v = y.replace(/^0+/, "");
    if (u.length !== v.length) return u.length - v.length;
    if (u !== v) return compareUnits(u, v);
  }
  return xs.length - ys.length || compareUnits(a, b);
}

interface Layout {
  readonly order: number[];
  readonly namespaces: [name: string, start: number, count: number][];
}

function layout(pods: readonly string[]): Layout {
  const split = pods.map((key) => {
    const slash = key.indexOf("/");
    return slash < 0 ? { ns: "", name: key } : { ns: key.slice(0, slash), name: key.slice(slash + 1) };
  });
  const order = pods.map((_, i) => i);
  order.sort((a, b) => compare(split[a]!.ns, split[b]!.ns) || compare(split[a]!.name, split[b]!.name) || a - b);
  const namespaces: Layout["namespaces"] = [];
  order.forEach((pod, pos) => {
    const ns = split[pod]!.ns;
    const last = namespaces[namespaces.length - 1];
    if (last !== undefined && last[0] === ns) last[2]++;
    else namespaces.push([ns, pos, 1]);
  });
  return { order, namespaces };
}

function describeDirection(d: DirectionDecision): string {
  const meaning = VERDICT_MEANING[d.verdict];
  if (d.policies.length === 0) return `${d.verdict}: ${meaning}`;
  const policies = d.policies.map((p) =>
    p.rules.length === 0 ? p.policy : `${p.policy} (${p.rules.length === 1 ? "rule" : "rules"} ${p.rules.join(", ")})`,
  );
  return `${d.verdict}: ${meaning} ${policies.join("; ")}`;
}

interface Counts {
  allowed: number;
  egressOnly: number;
  ingressOnly: number;
  both: number;
  /** Per namespace (display order): allowed connections out of and into its pods. */
  nsOut: number[];
  nsIn: number[];
}

function encodeCells(matrix: TruthMatrix, { order, namespaces }: Layout): { bytes: Uint8Array; counts: Counts } {
  const n = order.length;
  const bytes = new Uint8Array(Math.ceil((n * n) / 4));
  const nsOf = new Uint32Array(n);
  namespaces.forEach(([, start, count], k) => {
    nsOf.fill(k, start, start + count);
  });
  const counts: Counts = {
    allowed: 0,
    egressOnly: 0,
    ingressOnly: 0,
    both: 0,
    nsOut: namespaces.map(() => 0),
    nsIn: namespaces.map(() => 0),
  };
  for (let r = 0; r < n; r++) {
    const from = order[r]!;
    for (let c = 0; c < n; c++) {
      const to = order[c]!;
      const egress = matrix.egressAllowed(from, to);
      const ingress = matrix.ingressAllowed(from, to);
      if (matrix.allowed(from, to) !== (egress && ingress)) {
        throw new Error(
          `the truth matrix contradicts itself at ${matrix.pods[from]} → ${matrix.pods[to]}: allowed is ${!egress || !ingress}, but egress ${egress ? "allows" : "denies"} and ingress ${ingress ? "allows" : "denies"}`,
        );
      }
      const code = (egress ? 0 : 1) | (ingress ? 0 : 2);
      const i = r * n + c;
      bytes[i >> 2]! |= code << ((i & 3) * 2);
      if (code === 0) {
        counts.allowed++;
        counts.nsOut[nsOf[r]!]!++;
        counts.nsIn[nsOf[c]!]!++;
      } else if (code === 1) counts.egressOnly++;
      else if (code === 2) counts.ingressOnly++;
      else counts.both++;
    }
  }
  const reported = matrix.countAllowed();
  if (reported !== counts.allowed)
    throw new Error(`the truth matrix counts ${reported} allowed connections but its cells allow ${counts.allowed}`);
  return { bytes, counts };
}

function encodeExplain(
  input: HeatmapInput & { explain: NonNullable<HeatmapInput["explain"]> },
  order: readonly number[],
): PackedExplain {
  const { matrix, explain } = input;
  const n = order.length;
  const texts: string[] = [];
  const ids = new Map<string, number>();
  const idOf = (d: DirectionDecision): number => {
    const text = describeDirection(d);
    let id = ids.get(text);
    if (id === undefined) {
      id = texts.push(text) - 1;
      ids.set(text, id);
    }
    return id;
  };
  const cells = new Uint32Array(2 * n * n);
  for (let r = 0; r < n; r++) {
    const from = order[r]!;
    for (let c = 0; c < n; c++) {
      const to = order[c]!;
      const d = explain(from, to);
      // A report whose hover text contradicts its colours is worse than none.
      const egressDenied = d.egress.verdict === "denied";
      const ingressDenied = d.ingress.verdict === "denied";
      if (
        d.allowed !== matrix.allowed(from, to) ||
        egressDenied === matrix.egressAllowed(from, to) ||
        ingressDenied === matrix.ingressAllowed(from, to)
      ) {
        throw new Error(
          `explain(${from}, ${to}) disagrees with the truth matrix for ${matrix.pods[from]} → ${matrix.pods[to]}`,
        );
      }
      cells[2 * (r * n + c)] = idOf(d.egress);
      cells[2 * (r * n + c) + 1] = idOf(d.ingress);
    }
  }
  const width: 2 | 4 = texts.length <= 0x10000 ? 2 : 4;
  const bytes = new Uint8Array(cells.length * width);
  const view = new DataView(bytes.buffer);
  cells.forEach((id, i) => {
    if (width === 2) view.setUint16(i * width, id, true);
    else view.setUint32(i * width, id, true);
  });
  return { texts, width, ...pack(bytes) };
}

const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
const num = (count: number): string => count.toLocaleString("en-US");

const CSS = `
:root { color-scheme: light; font: 14px/1.4 system-ui, sans-serif; }
body { margin: 1rem 1.5rem; color: #1d1d1f; background: #fff; }
h1 { font-size: 1.35rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
.summary { margin: .25rem 0; }
.warnings { border: 1px solid #d9a400; background: #fff8e1; padding: .5rem .75rem; margin: .75rem 0; }
.warnings ul { margin: .25rem 0 0; padding-left: 1.25rem; }
.warnings li { overflow-wrap: anywhere; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; padding: 0; margin: .5rem 0; }
.swatch { display: inline-block; width: 1.3em; height: 1.3em; vertical-align: -.3em; margin-right: .35em; border: 1px solid #0006; }
.glyph { display: inline-block; min-width: 1em; font-weight: 700; text-align: center; }
${KIND_CSS}
.toolbar { display: flex; gap: .5rem; align-items: center; margin: .5rem 0; }
.toolbar button { font: inherit; padding: .1rem .6rem; }
.scroller { overflow: auto; max-height: 80vh; border: 1px solid #ccc; position: relative; }
.grid { display: grid; grid-template-columns: auto auto; grid-template-rows: auto auto; width: max-content; }
.corner { position: sticky; top: 0; left: 0; z-index: 3; background: #fff; font-size: 11px; color: #555; padding: 2px 4px; display: flex; flex-direction: column; justify-content: flex-end; }
.top { position: sticky; top: 0; z-index: 2; background: #fff; align-self: end; }
.left { position: sticky; left: 0; z-index: 2; background: #fff; justify-self: end; }
.top, .left { overflow: hidden; }
.band, .label { position: absolute; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; font-size: 11px; box-sizing: border-box; }
.band { background: #e8eef6; border: 1px solid #9fb3cc; color: #1d3557; padding: 0 3px; }
.band.odd { background: #f3ecf7; border-color: #bba4cc; color: #3d1d57; }
.top .label { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; }
.left .label { text-align: right; padding-right: 3px; }
.plot { position: relative; }
#cells { display: block; image-rendering: pixelated; cursor: crosshair; }
#cells:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
#overlay { position: absolute; inset: 0; pointer-events: none; }
.boundary { position: absolute; background: #000a; }
.selection { position: absolute; outline: 2px solid #1a73e8; box-shadow: 0 0 0 1px #fff; }
#tooltip { position: fixed; z-index: 10; pointer-events: none; background: #1d1d1f; color: #fff; padding: .35rem .55rem; border-radius: 4px; font-size: 12px; max-width: 40rem; white-space: pre-line; overflow-wrap: anywhere; }
.status { min-height: 1.4em; white-space: pre-line; overflow-wrap: anywhere; }
.error { color: #b00020; font-weight: 600; }
table { border-collapse: collapse; font-size: 12px; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.cells td { text-align: center; white-space: nowrap; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

// The page script. Plain ES2020, no template literals, so it can live in this string.
const CLIENT = `
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("heatmap-data").textContent);
  var n = D.pods.length;
  var canvas = document.getElementById("cells");
  var overlay = document.getElementById("overlay");
  var top = document.getElementById("top");
  var left = document.getElementById("left");
  var tooltip = document.getElementById("tooltip");
  var status = document.getElementById("status");
  var cells = null, explain = null, texts = D.explain ? D.explain.texts : null;
  var zoom = 1, side = 0, selection = null, selBox = null;

  function fail(err) {
    var el = document.getElementById("error");
    el.textContent = "The heatmap could not be drawn: " + err;
    el.hidden = false;
    console.error(err);
  }

  async function unpack(blob) {
    var bin = atob(blob.base64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    if (blob.encoding === "raw") return bytes;
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  function code(r, c) {
    var i = r * n + c;
    return (cells[i >> 2] >> ((i & 3) * 2)) & 3;
  }

  function rgba(hex) {
    var v = parseInt(hex.slice(1), 16);
    // ImageData is RGBA in memory; a little-endian Uint32 view reads it as ABGR.
    return (0xff000000 | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
  }

  function mix(a, b, t) {
    var out = 0xff000000;
    for (var s = 0; s < 24; s += 8) {
      var x = (a >> s) & 0xff, y = (b >> s) & 0xff;
      out |= Math.round(x + (y - x) * t) << s;
    }
    return out >>> 0;
  }

  // Up to 2,048 pods every cell gets at least one canvas pixel; beyond that a
  // pixel covers k x k cells, shaded by the share of them that is denied. The
  // canvas is at most about as wide as the fitted view (900 CSS pixels), so the
  // hatching is not scaled down into a blur.
  var k = n > 2048 ? Math.ceil(n / 2048) : 1;
  var cellPx = k > 1 ? 1 : Math.max(1, Math.min(24, Math.floor(900 / Math.max(n, 1))));
  var W = k > 1 ? Math.ceil(n / k) : n * cellPx;

  // The hatch of each kind of cell, as offsets into a cell (row * W + column) to
  // paint in its ink: stripes s canvas pixels apart, t wide, none below 3 pixels.
  // The cell's centre keeps its plain colour.
  function hatchMasks(p) {
    if (p < 3) return [];
    var s = Math.max(3, Math.floor(p / 3)), t = Math.max(1, Math.floor(s / 4));
    return D.kinds.map(function (kind) {
      var h = D.hatch[kind], out = [];
      if (!h) return null;
      for (var y = 0; y < p; y++) {
        for (var x = 0; x < p; x++) {
          var fall = (((x - y) % s) + s) % s >= s - t, rise = (x + y) % s >= s - t;
          if ((h === "\\\\" && fall) || (h === "/" && rise) || (h === "X" && (fall || rise))) out.push(y * W + x);
        }
      }
      return out;
    });
  }

  function draw() {
    canvas.width = W;
    canvas.height = W;
    if (n === 0) return;
    var ctx = canvas.getContext("2d");
    var img = ctx.createImageData(W, W);
    var px = new Uint32Array(img.data.buffer);
    var pal = D.kinds.map(function (kind) { return rgba(D.colours[kind]); });
    var ink = D.kinds.map(function (kind) { return rgba(D.ink[kind]); });
    if (k === 1) {
      var masks = hatchMasks(cellPx);
      for (var r = 0; r < n; r++) {
        for (var c = 0; c < n; c++) {
          var v = code(r, c), colour = pal[v], at = r * cellPx * W + c * cellPx;
          for (var dy = 0; dy < cellPx; dy++) px.fill(colour, at + dy * W, at + dy * W + cellPx);
          var mask = masks[v];
          if (!mask) continue;
          for (var m = 0; m < mask.length; m++) px[at + mask[m]] = ink[v];
        }
      }
    } else {
      var denied = new Uint32Array(W * W), total = new Uint32Array(W * W);
      for (var r2 = 0; r2 < n; r2++) {
        var row = ((r2 / k) | 0) * W;
        for (var c2 = 0; c2 < n; c2++) {
          var p = row + ((c2 / k) | 0);
          total[p]++;
          if (code(r2, c2) !== 0) denied[p]++;
        }
      }
      for (var q = 0; q < px.length; q++) px[q] = mix(pal[0], pal[2], denied[q] / total[q]);
    }
    ctx.putImageData(img, 0, 0);
  }

  function div(cls, parent, text) {
    var el = document.createElement("div");
    el.className = cls;
    if (text !== undefined) { el.textContent = text; el.title = text; }
    parent.appendChild(el);
    return el;
  }

  var labels = n <= ${LABEL_LIMIT};
  // Label room from the longest pod name (about 6.5px per character at 11px), capped.
  var longest = D.pods.reduce(function (m, key) { return Math.max(m, key.length - key.indexOf("/") - 1); }, 0);
  var BAND = 18, LABEL = labels ? Math.min(130, Math.ceil(longest * 6.5) + 8) : 0;
  var topBands = [], leftBands = [], topLabels = [], leftLabels = [], lines = [];

  function build() {
    D.namespaces.forEach(function (ns, i) {
      var name = ns[0] === "" ? "(no namespace)" : ns[0];
      topBands.push(div("band" + (i % 2 ? " odd" : ""), top, name));
      leftBands.push(div("band" + (i % 2 ? " odd" : ""), left, name));
      if (i > 0) lines.push([ns[1], div("boundary", overlay), div("boundary", overlay)]);
    });
    if (labels) {
      D.pods.forEach(function (key) {
        var name = key.slice(key.indexOf("/") + 1);
        topLabels.push(div("label", top, name));
        leftLabels.push(div("label", left, name));
      });
    }
    selBox = div("selection", overlay);
    selBox.hidden = true;
  }

  function place() {
    var cs = n === 0 ? 0 : side / n;
    canvas.style.width = side + "px";
    canvas.style.height = side + "px";
    top.style.width = side + "px";
    top.style.height = BAND + LABEL + "px";
    left.style.width = BAND + LABEL + "px";
    left.style.height = side + "px";
    D.namespaces.forEach(function (ns, i) {
      var a = topBands[i].style, b = leftBands[i].style;
      // Bands sit next to the pod labels, or next to the plot when there are none.
      a.left = ns[1] * cs + "px"; a.width = ns[2] * cs + "px"; a.bottom = LABEL + "px"; a.height = BAND + "px";
      b.top = ns[1] * cs + "px"; b.height = ns[2] * cs + "px"; b.right = LABEL + "px"; b.width = BAND + "px";
      b.writingMode = "vertical-rl"; b.transform = "rotate(180deg)";
    });
    for (var i = 0; i < topLabels.length; i++) {
      var t = topLabels[i].style, l = leftLabels[i].style;
      t.left = i * cs + "px"; t.width = cs + "px"; t.bottom = "0"; t.height = LABEL + "px"; t.fontSize = Math.min(11, cs * 0.8) + "px";
      l.top = i * cs + "px"; l.height = cs + "px"; l.lineHeight = cs + "px"; l.right = "0"; l.width = LABEL + "px"; l.fontSize = Math.min(11, cs * 0.8) + "px";
    }
    lines.forEach(function (line) {
      var at = line[0] * cs, h = line[1].style, v = line[2].style;
      h.left = "0"; h.width = side + "px"; h.top = at - 0.5 + "px"; h.height = "1px";
      v.top = "0"; v.height = side + "px"; v.left = at - 0.5 + "px"; v.width = "1px";
    });
    showSelection();
  }

  function setZoom(z) {
    var min = W === 0 ? 1 : 120 / W, max = W === 0 ? 1 : (64 * n) / W;
    zoom = Math.min(max, Math.max(min, z));
    side = W * zoom;
    document.getElementById("zoom-level").textContent = Math.round(zoom * 100) + "%";
    place();
  }

  function cellText(r, c) {
    var v = code(r, c);
    var out = D.pods[r] + " \\u2192 " + D.pods[c] + ": " + (v === 0 ? "allow" : "deny");
    if (v === 1) out += "\\ndenied by egress (at the source)";
    if (v === 2) out += "\\ndenied by ingress (at the destination)";
    if (v === 3) out += "\\ndenied by egress (at the source) and ingress (at the destination)";
    if (explain) {
      var i = 2 * (r * n + c);
      out += "\\negress: " + texts[explain(i)] + "\\ningress: " + texts[explain(i + 1)];
    }
    return out;
  }

  function cellAt(ev) {
    var rect = canvas.getBoundingClientRect();
    var c = Math.floor(((ev.clientX - rect.left) / rect.width) * n);
    var r = Math.floor(((ev.clientY - rect.top) / rect.height) * n);
    if (r < 0 || c < 0 || r >= n || c >= n) return null;
    return [r, c];
  }

  function showSelection() {
    if (!selBox) return;
    if (!selection) { selBox.hidden = true; return; }
    var cs = side / n, s = selBox.style;
    selBox.hidden = false;
    s.left = selection[1] * cs + "px"; s.top = selection[0] * cs + "px";
    s.width = Math.max(cs, 2) + "px"; s.height = Math.max(cs, 2) + "px";
  }

  function select(r, c) {
    selection = [Math.min(n - 1, Math.max(0, r)), Math.min(n - 1, Math.max(0, c))];
    showSelection();
    status.textContent = cellText(selection[0], selection[1]);
  }

  function listen() {
    canvas.addEventListener("mousemove", function (ev) {
      var at = cellAt(ev);
      if (!at) { tooltip.hidden = true; return; }
      tooltip.textContent = cellText(at[0], at[1]);
      tooltip.hidden = false;
      var x = ev.clientX + 14, y = ev.clientY + 14;
      if (x + tooltip.offsetWidth > window.innerWidth) x = Math.max(0, ev.clientX - tooltip.offsetWidth - 8);
      if (y + tooltip.offsetHeight > window.innerHeight) y = Math.max(0, ev.clientY - tooltip.offsetHeight - 8);
      tooltip.style.left = x + "px";
      tooltip.style.top = y + "px";
    });
    canvas.addEventListener("mouseleave", function () { tooltip.hidden = true; });
    canvas.addEventListener("click", function (ev) {
      var at = cellAt(ev);
      if (at) select(at[0], at[1]);
    });
    canvas.addEventListener("focus", function () { if (!selection && n > 0) select(0, 0); });
    canvas.addEventListener("keydown", function (ev) {
      if (!selection) return;
      var r = selection[0], c = selection[1], page = Math.max(1, Math.round(n / 10));
      switch (ev.key) {
        case "ArrowUp": r--; break;
        case "ArrowDown": r++; break;
        case "ArrowLeft": c--; break;
        case "ArrowRight": c++; break;
        case "PageUp": r -= page; break;
        case "PageDown": r += page; break;
        case "Home": c = 0; break;
        case "End": c = n - 1; break;
        default: return;
      }
      ev.preventDefault();
      select(r, c);
    });
    document.getElementById("zoom-in").addEventListener("click", function () { setZoom(zoom * 2); });
    document.getElementById("zoom-out").addEventListener("click", function () { setZoom(zoom / 2); });
    document.getElementById("zoom-fit").addEventListener("click", function () { setZoom(fit()); });
  }

  function fit() {
    return W === 0 ? 1 : Math.min(1, 900 / W);
  }

  async function main() {
    cells = await unpack(D.cells);
    if (cells.length !== Math.ceil((n * n) / 4)) throw new Error("cell data has " + cells.length + " bytes, expected " + Math.ceil((n * n) / 4));
    if (D.explain) {
      var bytes = await unpack(D.explain), view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), w = D.explain.width;
      explain = w === 2 ? function (i) { return view.getUint16(i * 2, true); } : function (i) { return view.getUint32(i * 4, true); };
    }
    draw();
    build();
    setZoom(fit());
    listen();
    document.documentElement.dataset.ready = "true";
  }

  main().catch(fail);
})();
`;

const sha256 = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

// Only the page's own inline style and script (by hash) may run; nothing may be fetched.
const CSP = [
  "default-src 'none'",
  `script-src ${sha256(CLIENT)}`,
  `style-src ${sha256(CSS)}`,
  "img-src 'none'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

export function renderHeatmapHtml(input: HeatmapInput): string {
  const { matrix } = input;
  const pods = matrix.pods;
  const n = pods.length;
  const lay = layout(pods);
  const { bytes, counts } = encodeCells(matrix, lay);
  const explain =
    input.explain !== undefined && n <= EXPLAIN_LIMIT
      ? encodeExplain({ ...input, explain: input.explain }, lay.order)
      : null;
  const total = n * n;
  const denied = total - counts.allowed;
  const displayPods = lay.order.map((i) => pods[i]!);

  const data: HeatmapData = {
    pods: displayPods,
    index: lay.order,
    namespaces: lay.namespaces,
    protocol: matrix.protocol,
    port: matrix.port,
    kinds: HEATMAP_KINDS,
    colours: HEATMAP_COLOURS,
    ink: HEATMAP_INK,
    hatch: HEATMAP_HATCH,
    cells: pack(bytes),
    explain,
  };

  const title = escapeHtml(input.title);
  const where = `${escapeHtml(matrix.protocol)} port ${matrix.port}`;
  const summary =
    `${where} · ${plural(n, "pod")} in ${plural(lay.namespaces.length, "namespace")} · ` +
    `${plural(total, "connection")} (source → destination, self included): ` +
    `<strong>${num(counts.allowed)} allowed</strong>, <strong>${num(denied)} denied</strong> of ${num(total)}`;
  const breakdown =
    denied === 0
      ? ""
      : `<p class="summary">Denied by egress only: ${num(counts.egressOnly)}; by ingress only: ${num(counts.ingressOnly)}; by both: ${num(counts.both)}.</p>`;

  const skipped = input.skipped ?? [];
  const warnings =
    skipped.length === 0
      ? ""
      : `<section class="warnings" aria-label="Warnings"><strong>${plural(skipped.length, "input")} left out:</strong><ul>${skipped
          .map((line) => `<li>${escapeHtml(line)}</li>`)
          .join("")}</ul></section>`;

  const legendWords = [
    "allowed",
    "denied by egress (source), hatched \\",
    "denied by ingress (destination), hatched /",
    "denied both ways, cross-hatched",
  ];
  const legend =
    `<ul class="legend" aria-label="Legend">` +
    HEATMAP_KINDS.map(
      (kind, code) =>
        `<li><span class="swatch c${code}"></span><span class="glyph" aria-hidden="true">${HEATMAP_GLYPHS[kind]}</span> ${legendWords[code]}</li>`,
    ).join("") +
    `</ul>` +
    (n > SHADED_ABOVE
      ? `<p class="summary">Over ${num(SHADED_ABOVE)} pods one pixel covers several cells, shaded from blue to brown by the share denied, without hatching; hover for single cells.</p>`
      : "");

  const nsRows = lay.namespaces
    .map(
      ([name, , count], i) =>
        `<tr><th scope="row">${name === "" ? "(no namespace)" : escapeHtml(name)}</th><td class="num">${num(count)}</td>` +
        `<td class="num">${num(counts.nsOut[i]!)} / ${num(count * n)}</td><td class="num">${num(counts.nsIn[i]!)} / ${num(count * n)}</td></tr>`,
    )
    .join("");
  const nsTable =
    `<h2 id="ns-heading">Namespaces</h2>` +
    `<table aria-labelledby="ns-heading"><thead><tr><th scope="col">namespace</th><th scope="col">pods</th>` +
    `<th scope="col">allowed out of its pods</th><th scope="col">allowed into its pods</th></tr></thead><tbody>${nsRows}</tbody></table>`;

  let cellTable = "";
  if (n > 0 && n <= TABLE_LIMIT) {
    const head = displayPods.map((p) => `<th scope="col">${escapeHtml(p)}</th>`).join("");
    const rows = displayPods
      .map((from, r) => {
        const tds = displayPods
          .map((_, c) => {
            const i = r * n + c;
            const code = (bytes[i >> 2]! >> ((i & 3) * 2)) & 3;
            return `<td class="c${code}">${HEATMAP_GLYPHS[HEATMAP_KINDS[code]!]} ${CODE_NAMES[code]}</td>`;
          })
          .join("");
        return `<tr><th scope="row">${escapeHtml(from)}</th>${tds}</tr>`;
      })
      .join("");
    cellTable =
      `<details><summary>Every connection as a table (rows: source, columns: destination)</summary>` +
      `<table class="cells"><thead><tr><th scope="col">source \\ destination</th>${head}</tr></thead><tbody>${rows}</tbody></table></details>`;
  }

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${title}</h1>
<p class="summary" id="summary">${summary}</p>
${breakdown}
</header>
${warnings}
${legend}
<p id="error" class="error" role="alert" hidden></p>
<noscript><p class="error">The heatmap needs JavaScript; the namespace summary below does not.</p></noscript>
<div class="toolbar" role="group" aria-label="Zoom">
<button type="button" id="zoom-out" aria-label="Zoom out">−</button>
<button type="button" id="zoom-fit">Fit</button>
<button type="button" id="zoom-in" aria-label="Zoom in">+</button>
<span id="zoom-level" aria-live="off"></span>
<span id="help">Rows are sources, columns destinations. Hover or click a cell; with the heatmap focused, arrow keys move between cells.</span>
</div>
<div class="scroller">
<div class="grid">
<div class="corner" aria-hidden="true"><span>destination →</span><span>source ↓</span></div>
<div id="top" class="top" aria-hidden="true"></div>
<div id="left" class="left" aria-hidden="true"></div>
<div class="plot"><canvas id="cells" tabindex="0" role="img" aria-label="Heatmap of ${plural(total, "connection")}" aria-describedby="summary help"></canvas><div id="overlay"></div></div>
</div>
</div>
<p id="status" class="status" aria-live="polite"></p>
<div id="tooltip" role="tooltip" hidden></div>
${nsTable}
${cellTable}
<script type="application/json" id="heatmap-data">${scriptJson(data)}</script>
<script>${CLIENT}</script>
</body>
</html>
`;
}
