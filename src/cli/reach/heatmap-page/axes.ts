// The axes beside the canvas: a band per namespace along the top and the left
// (alternately shaded), the pod names up to LABEL_LIMIT pods, and a line over the
// plot at each boundary between namespaces. All of it is placed again at every zoom.

import type { HeatmapData } from "../heatmap-data.js";

/** Up to this many pods the axes carry pod names. */
const LABEL_LIMIT = 100;
/** The namespace bands' thickness, in CSS pixels. */
const BAND = 18;

/** A div of class `cls` in `parent`, with `text` as its content and its title (shown in full on hover). */
export function div(cls: string, parent: HTMLElement, text?: string): HTMLDivElement {
  const el = document.createElement("div");
  el.className = cls;
  if (text !== undefined) {
    el.textContent = text;
    el.title = text;
  }
  parent.appendChild(el);
  return el;
}

export interface Axes {
  /** Lays the axes out for a plot `side` CSS pixels wide and high. */
  place(side: number): void;
}

/** Builds the bands, labels and boundary lines into `top`, `left` and `overlay`. */
export function buildAxes(data: HeatmapData, top: HTMLElement, left: HTMLElement, overlay: HTMLElement): Axes {
  const n = data.pods.length;
  const labels = n <= LABEL_LIMIT;
  // Label room from the longest pod name (about 6.5px per character at 11px), capped.
  const longest = data.pods.reduce((m, key) => Math.max(m, key.length - key.indexOf("/") - 1), 0);
  const LABEL = labels ? Math.min(130, Math.ceil(longest * 6.5) + 8) : 0;
  const topBands: HTMLDivElement[] = [];
  const leftBands: HTMLDivElement[] = [];
  const topLabels: HTMLDivElement[] = [];
  const leftLabels: HTMLDivElement[] = [];
  /** [the display position the namespace starts at, its horizontal line, its vertical line] */
  const lines: [number, HTMLDivElement, HTMLDivElement][] = [];

  data.namespaces.forEach(([ns, start], i) => {
    const name = ns === "" ? "(no namespace)" : ns;
    topBands.push(div(`band${i % 2 ? " odd" : ""}`, top, name));
    leftBands.push(div(`band${i % 2 ? " odd" : ""}`, left, name));
    if (i > 0) lines.push([start, div("boundary", overlay), div("boundary", overlay)]);
  });
  if (labels) {
    for (const key of data.pods) {
      const name = key.slice(key.indexOf("/") + 1);
      topLabels.push(div("label", top, name));
      leftLabels.push(div("label", left, name));
    }
  }

  const place = (side: number): void => {
    const cs = n === 0 ? 0 : side / n;
    top.style.width = `${side}px`;
    top.style.height = `${BAND + LABEL}px`;
    left.style.width = `${BAND + LABEL}px`;
    left.style.height = `${side}px`;
    data.namespaces.forEach(([, start, count], i) => {
      const a = topBands[i]!.style;
      const b = leftBands[i]!.style;
      // Bands sit next to the pod labels, or next to the plot when there are none.
      a.left = `${start * cs}px`;
      a.width = `${count * cs}px`;
      a.bottom = `${LABEL}px`;
      a.height = `${BAND}px`;
      b.top = `${start * cs}px`;
      b.height = `${count * cs}px`;
      b.right = `${LABEL}px`;
      b.width = `${BAND}px`;
      b.writingMode = "vertical-rl";
      b.transform = "rotate(180deg)";
    });
    const fontSize = `${Math.min(11, cs * 0.8)}px`;
    topLabels.forEach((label, i) => {
      const t = label.style;
      const l = leftLabels[i]!.style;
      t.left = `${i * cs}px`;
      t.width = `${cs}px`;
      t.bottom = "0";
      t.height = `${LABEL}px`;
      t.fontSize = fontSize;
      l.top = `${i * cs}px`;
      l.height = `${cs}px`;
      l.lineHeight = `${cs}px`;
      l.right = "0";
      l.width = `${LABEL}px`;
      l.fontSize = fontSize;
    });
    for (const [start, horizontal, vertical] of lines) {
      const at = start * cs;
      const h = horizontal.style;
      const v = vertical.style;
      h.left = "0";
      h.width = `${side}px`;
      h.top = `${at - 0.5}px`;
      h.height = "1px";
      v.top = "0";
      v.height = `${side}px`;
      v.left = `${at - 0.5}px`;
      v.width = "1px";
    }
  };

  return { place };
}
