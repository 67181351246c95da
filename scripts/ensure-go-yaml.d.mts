/** Types for scripts/ensure-go-yaml.mjs, which test/scripts/ensure-go-yaml.test.ts imports. */
export declare const MIN_GO: string;
export declare const ORACLE_MODULE: string;
export declare function parseGoVersion(text: string): [number, number, number] | undefined;
export declare function moduleGoVersion(root?: string): string;
export interface FoundGo {
  /** The `go version` line, or undefined when Go does not run. */
  readonly go: string | undefined;
  /** The `go` line of the oracle's go.mod. */
  readonly required: string;
  /** `go env GOTOOLCHAIN`, asked only when Go is older than `required`. */
  readonly toolchain?: string;
  /** Why the oracle cannot be built; undefined when it can. */
  readonly problem?: string;
  /** How it will be built when Go must fetch a newer toolchain first. */
  readonly note?: string;
}
export declare function findGo(env?: Readonly<Record<string, string | undefined>>, required?: string): FoundGo;
