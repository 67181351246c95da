/** Types for scripts/ensure-go-yaml.mjs, which test/scripts/ensure-go-yaml.test.ts imports. */
export declare const DEBIAN_GO_PACKAGES: readonly string[];
export declare const GO_YAML_IMPORTS: readonly string[];
export interface FoundGoYaml {
  /** The `go version` line, or undefined when Go does not run. */
  readonly go: string | undefined;
  readonly gopath: string;
  /** Entries of GO_YAML_IMPORTS missing under gopath/src. */
  readonly missing: readonly string[];
  /** Whether CLUSTERWIRE_GOPATH chose a GOPATH other than Debian's. */
  readonly explicit: boolean;
}
export declare function findGoYaml(env?: Readonly<Record<string, string | undefined>>): FoundGoYaml;
