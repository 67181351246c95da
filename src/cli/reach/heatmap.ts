// The self-contained HTML heatmap of a NetworkPolicy truth table
// (`clusterwire reach --output html`): one file, no network, drawn on a
// canvas from a packed encoding so a 2,000-pod cluster stays a few MB at most.
// This is the writer, in Node: it lays the pods out, packs the cells (the data
// format is in heatmap-data.ts), writes the summary, legend and tables, and
// embeds the page's script and style (heatmap-page/, bundled into
// heatmap-page-bundle.ts), each allowed by its hash in the page's CSP.

import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { Decision, DirectionDecision, TruthMatrix } from "../../networking/index.js";
import { type HeatmapData, type PackedBytes, type PackedExplain, SHADED_ABOVE } from "./heatmap-data.js";
import { HEATMAP_STYLE, HEATMAP_SCRIPT } from "./heatmap-page-bundle.js";
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

/** The page's style: its style sheet, then the colours of each kind of cell. */
const CSS = `${HEATMAP_STYLE}\n${KIND_CSS}\n`;

const sha256 = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

// Only the page's own inline style and script (by hash) may run; nothing may be fetched.
const CSP = [
  "default-src 'none'",
  `script-src ${sha256(HEATMAP_SCRIPT)}`,
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
<script>${HEATMAP_SCRIPT}</script>
</body>
</html>
`;
}
