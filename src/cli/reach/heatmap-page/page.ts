// The heatmap page's script (`clusterwire reach --output html`), the entry that
// scripts/heatmap-page.mjs bundles: reads the embedded data (../heatmap-data.ts),
// draws the canvas and the axes, and answers the user: hover for a tooltip, click
// or the arrow keys to select a cell (announced in the status line), and zoom.
// Any failure is shown on the page. When it is drawn, <html data-ready="true">.

import type { HeatmapData } from "../heatmap-data.js";
import { buildAxes, div } from "./axes.js";
import { type Cells, readCells } from "./cells.js";
import { drawCells, FIT_WIDTH, type Geometry, geometry } from "./draw.js";

/** The zoom's lower limit: the plot at least this many CSS pixels wide. */
const MIN_SIDE = 120;
/** The zoom's upper limit: a cell at most this many CSS pixels wide. */
const MAX_CELL = 64;

function element(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`the page has no #${id}`);
  return el;
}

function fail(err: unknown): void {
  const el = element("error");
  el.textContent = `The heatmap could not be drawn: ${String(err)}`;
  el.hidden = false;
  console.error(err);
}

/** The elements the script fills in. */
interface Parts {
  readonly canvas: HTMLCanvasElement;
  readonly overlay: HTMLElement;
  readonly tooltip: HTMLElement;
  readonly status: HTMLElement;
  readonly zoomLevel: HTMLElement;
}

/** Zoom, selection and input over a drawn heatmap. */
function interact(
  { canvas, overlay, tooltip, status, zoomLevel }: Parts,
  cells: Cells,
  { width: W }: Geometry,
  place: (side: number) => void,
): void {
  const { n } = cells;
  let zoom = 1;
  let side = 0;
  let selection: [row: number, column: number] | null = null;
  const selBox = div("selection", overlay);
  selBox.hidden = true;

  const showSelection = (): void => {
    if (selection === null) {
      selBox.hidden = true;
      return;
    }
    const cs = side / n;
    const s = selBox.style;
    selBox.hidden = false;
    s.left = `${selection[1] * cs}px`;
    s.top = `${selection[0] * cs}px`;
    s.width = `${Math.max(cs, 2)}px`;
    s.height = `${Math.max(cs, 2)}px`;
  };

  const setZoom = (z: number): void => {
    const min = W === 0 ? 1 : MIN_SIDE / W;
    const max = W === 0 ? 1 : (MAX_CELL * n) / W;
    zoom = Math.min(max, Math.max(min, z));
    side = W * zoom;
    zoomLevel.textContent = `${Math.round(zoom * 100)}%`;
    canvas.style.width = `${side}px`;
    canvas.style.height = `${side}px`;
    place(side);
    showSelection();
  };

  const fitted = (): number => (W === 0 ? 1 : Math.min(1, FIT_WIDTH / W));

  const select = (r: number, c: number): void => {
    selection = [Math.min(n - 1, Math.max(0, r)), Math.min(n - 1, Math.max(0, c))];
    showSelection();
    status.textContent = cells.describe(selection[0], selection[1]);
  };

  /** The cell under the pointer, or null off the plot. */
  const cellAt = (ev: MouseEvent): [number, number] | null => {
    const rect = canvas.getBoundingClientRect();
    const c = Math.floor(((ev.clientX - rect.left) / rect.width) * n);
    const r = Math.floor(((ev.clientY - rect.top) / rect.height) * n);
    if (r < 0 || c < 0 || r >= n || c >= n) return null;
    return [r, c];
  };

  setZoom(fitted());

  canvas.addEventListener("mousemove", (ev) => {
    const at = cellAt(ev);
    if (at === null) {
      tooltip.hidden = true;
      return;
    }
    tooltip.textContent = cells.describe(at[0], at[1]);
    tooltip.hidden = false;
    let x = ev.clientX + 14;
    let y = ev.clientY + 14;
    if (x + tooltip.offsetWidth > window.innerWidth) x = Math.max(0, ev.clientX - tooltip.offsetWidth - 8);
    if (y + tooltip.offsetHeight > window.innerHeight) y = Math.max(0, ev.clientY - tooltip.offsetHeight - 8);
    tooltip.style.left = `${x}px`;
    tooltip.style.top = `${y}px`;
  });
  canvas.addEventListener("mouseleave", () => {
    tooltip.hidden = true;
  });
  canvas.addEventListener("click", (ev) => {
    const at = cellAt(ev);
    if (at !== null) select(at[0], at[1]);
  });
  canvas.addEventListener("focus", () => {
    if (selection === null && n > 0) select(0, 0);
  });
  canvas.addEventListener("keydown", (ev) => {
    if (selection === null) return;
    let [r, c] = selection;
    const page = Math.max(1, Math.round(n / 10));
    switch (ev.key) {
      case "ArrowUp":
        r--;
        break;
      case "ArrowDown":
        r++;
        break;
      case "ArrowLeft":
        c--;
        break;
      case "ArrowRight":
        c++;
        break;
      case "PageUp":
        r -= page;
        break;
      case "PageDown":
        r += page;
        break;
      case "Home":
        c = 0;
        break;
      case "End":
        c = n - 1;
        break;
      default:
        return;
    }
    ev.preventDefault();
    select(r, c);
  });
  element("zoom-in").addEventListener("click", () => setZoom(zoom * 2));
  element("zoom-out").addEventListener("click", () => setZoom(zoom / 2));
  element("zoom-fit").addEventListener("click", () => setZoom(fitted()));
}

async function main(): Promise<void> {
  const data = JSON.parse(element("heatmap-data").textContent ?? "") as HeatmapData;
  const canvas = element("cells");
  if (!(canvas instanceof HTMLCanvasElement)) throw new Error("#cells is not a canvas");
  const overlay = element("overlay");
  const cells = await readCells(data);
  const shape = geometry(cells.n);
  drawCells(canvas, data, cells, shape);
  const axes = buildAxes(data, element("top"), element("left"), overlay);
  const parts = {
    canvas,
    overlay,
    tooltip: element("tooltip"),
    status: element("status"),
    zoomLevel: element("zoom-level"),
  };
  interact(parts, cells, shape, axes.place);
  document.documentElement.dataset.ready = "true";
}

main().catch(fail);
