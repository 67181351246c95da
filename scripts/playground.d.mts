import type { Server } from "node:http";

/** The browsers the bundles are written for (esbuild targets). */
export const BROWSER_TARGETS: string[];

/** The default output directory, dist/playground/. */
export const DEFAULT_OUT: string;

/** Builds the playground site into `outDir` (emptied first). */
export function buildPlayground(options?: { outDir?: string }): Promise<{
  outDir: string;
  files: string[];
  bundleBytes: number;
}>;

/** Serves a built site on loopback; port 0 picks a free port. */
export function servePlayground(options?: { dir?: string; port?: number; host?: string }): Promise<Server>;
