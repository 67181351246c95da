/** Types for scripts/controlplane-gomod.mjs, which test/scripts/controlplane-gomod.test.ts imports. */
export declare const BEGIN_MARKER: string;
export declare const END_MARKER: string;
export declare function apiserverModuleDir(version: string, root?: string): string;
export declare function stagingVersion(version: string): string;
export declare function stagingModules(goMod: string): string[];
export declare function replaceBlock(modules: readonly string[], staging: string): string;
export declare function goDirectives(goMod: string): string[];
export declare function consumerGoMod(upstreamGoMod: string, version: string, existing?: string): string;
export declare function goModDownload(
  modulePath: string,
  version: string,
  cwd: string,
): { GoMod: string; Info: string; Origin?: { Hash?: string } };
export declare function writeApiserverModule(
  version: string,
  options?: { tidy?: boolean; log?: (line: string) => void },
): string;
