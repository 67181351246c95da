// Colour arithmetic for the tests of the heatmap's and the playground's
// palettes: WCAG 2 contrast, and how far apart two colours look to someone
// with a dichromacy, simulated with the matrices of Machado, Oliveira and
// Fernandes (2009) at full severity, compared as CIE76 distances in CIELAB.

export type Vision = "normal" | "protanopia" | "deuteranopia" | "tritanopia";
export const VISIONS: readonly Vision[] = ["normal", "protanopia", "deuteranopia", "tritanopia"];

type Matrix = readonly [readonly number[], readonly number[], readonly number[]];

/** Machado et al. 2009, severity 1.0, on linear RGB. */
const MATRICES: Record<Vision, Matrix> = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

/** `#rrggbb` (or `rgb(r, g, b)`, as getComputedStyle gives it) as 0-255 channels. */
export function channels(colour: string): [number, number, number] {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour);
  if (hex !== null) {
    const v = Number.parseInt(hex[1]!, 16);
    return [v >> 16, (v >> 8) & 0xff, v & 0xff];
  }
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour);
  if (rgb !== null) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`not a colour: ${colour}`);
}

const toLinear = (c: number): number => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

function linear(colour: string): [number, number, number] {
  const [r, g, b] = channels(colour);
  return [toLinear(r), toLinear(g), toLinear(b)];
}

/** WCAG 2 relative luminance. */
export function luminance(colour: string): number {
  const [r, g, b] = linear(colour);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** The colour as `vision` sees it, in linear RGB. */
function simulate(colour: string, vision: Vision): [number, number, number] {
  const c = linear(colour);
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const m = MATRICES[vision];
  return [0, 1, 2].map((i) => clamp(m[i]![0]! * c[0] + m[i]![1]! * c[1] + m[i]![2]! * c[2])) as [
    number,
    number,
    number,
  ];
}

/** Linear RGB (sRGB primaries, D65) to CIELAB. */
function lab([r, g, b]: [number, number, number]): [number, number, number] {
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** How far apart two colours look to `vision`: the CIE76 ΔE of the simulated colours (about 2.3 is just noticeable). */
export function difference(a: string, b: string, vision: Vision): number {
  const [p, q] = [lab(simulate(a, vision)), lab(simulate(b, vision))];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}
