/** The committed bundle, src/cli/reach/heatmap-page-bundle.ts. */
export const BUNDLE_FILE: string;

/** Bundles the heatmap page in memory: its script, its style, and the text of the module that holds them. */
export function bundleHeatmapPage(): Promise<{ script: string; style: string; module: string }>;
