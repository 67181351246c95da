/** Types for scripts/np-guard.mjs, which test/support/np-guard/run.test.ts imports. */
export declare const ROOT: string;
/** The Go module that builds np-guard, from the repository root (`conformance/np-guard`). */
export declare const MODULE_DIR: string;
/** `github.com/np-guard/netpol-analyzer`. */
export declare const ANALYZER_MODULE: string;
/** `k8snetpolicy`. */
export declare const BINARY_NAME: string;
/** The analyzer version conformance/np-guard/go.mod requires (`v1.4.2`). */
export declare function npGuardVersion(root?: string): string;
/** Where the binary of the pinned version is (or will be) built: `.cache/np-guard/<version>/k8snetpolicy`. */
export declare function binaryPath(root?: string): string;
/** Whether the binary of the pinned version is built. */
export declare function isBuilt(root?: string): boolean;
/** The `go` line of conformance/np-guard/go.mod: the oldest Go that builds it. */
export declare function moduleGoVersion(root?: string): string;
/** Why Go cannot build np-guard here (missing, or too old to build or fetch the module's Go), or undefined when it can. */
export declare function missingGo(root?: string): string | undefined;
/** Builds the binary when missing (or always, with `force`); returns its path; throws without Go or on a failed build. */
export declare function buildNpGuard(options?: { root?: string; log?: (line: string) => void; force?: boolean }): string;
