/** Types for scripts/ensure-chromium.mjs, which test/support/chromium.ts imports. */
export declare const DEBIAN_CHROMIUM: readonly string[];
export type FoundChromium =
  | { readonly skip: true }
  | { readonly skip: false; readonly path: string; readonly found: boolean; readonly explicit: boolean };
export declare function findChromium(env?: Readonly<Record<string, string | undefined>>): FoundChromium;
