/**
 * A client for the YAML oracle (conformance/yaml-oracle, a Go module of its
 * own): one Go process for a whole campaign, one JSON line out and one back
 * per text, answers in order. The oracle is built in module mode against the
 * exact YAML modules a Kubernetes release links (docs/yaml-differential.md).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface OracleDoc {
  /** The document as kubectl's reader split it. */
  readonly text: string;
  /** sigs.k8s.io/yaml YAMLToJSON output, or `error`. */
  readonly json?: string;
  readonly error?: string;
  /** The YAMLToJSONStrict error, if any. */
  readonly strictError?: string;
  /**
   * Set when `json` depends on Go's random map order: the JSON key that two
   * distinct go-yaml keys of one mapping (with unequal values) both become
   * in sigs.k8s.io/yaml, e.g. `1` and `1.0` (conformance/yaml-oracle/ambiguous.go).
   */
  readonly ambiguousKeys?: string;
}

/** The whole raw text read as one request body, as the API server reads it (no split). */
export interface OracleBody {
  /** sigs.k8s.io/yaml YAMLToJSON output (its first YAML document only), or `error`. */
  readonly json?: string;
  readonly error?: string;
  /** The YAMLToJSONStrict error, if any. */
  readonly strictError?: string;
  /**
   * Set when `json` depends on Go's random map order: the JSON key that two
   * distinct go-yaml keys of one mapping (with unequal values) both become
   * in sigs.k8s.io/yaml, e.g. `1` and `1.0` (conformance/yaml-oracle/ambiguous.go).
   */
  readonly ambiguousKeys?: string;
}

/**
 * What kubectl's YAMLOrJSONDecoder decodes from a text whose first non-space
 * byte (within 4,096) is `{`: it reads such a text as a stream of JSON values,
 * and as YAML only when the JSON decoder fails before it has decoded two values.
 */
export interface OracleJsonStream {
  /** Each value kubectl hands on, as raw JSON text (trimmed; empty and `null` values left out). */
  readonly values: readonly string[];
  /** The error that stopped the decoder, if any. */
  readonly error?: string;
}

export interface OracleAnswer {
  /** kubectl's reading of a YAML file: the text cut by apimachinery's YAMLReader, each piece read. */
  readonly docs: readonly OracleDoc[];
  readonly splitError?: string;
  /** The API server's reading of the text as a request body. */
  readonly body: OracleBody;
  /** Set only for a text kubectl takes for JSON (see OracleJsonStream). */
  readonly jsonStream?: OracleJsonStream;
}

/**
 * The Kubernetes releases whose YAML code the oracle can be built against, each
 * with the go.mod file (in conformance/yaml-oracle/) that pins what it links.
 */
export const ORACLE_KUBERNETES: Readonly<Record<string, string>> = {
  "v1.35.4": "go.mod",
  "v1.37.2": "v1.37.2.mod",
};
/** The release the golden files are generated against. */
export const DEFAULT_KUBERNETES = "v1.35.4";

/**
 * Builds the oracle for `kubernetes` into .cache/yaml-oracle/<release>/ (git
 * ignores .cache/) and returns the binary's path. `go build` in module mode,
 * never changing go.mod or go.sum; Go's build cache makes a rebuild quick.
 * Throws with Go's output when Go is missing or the build fails.
 */
export function buildOracle(root: string, kubernetes: string = DEFAULT_KUBERNETES): string {
  const modfile = ORACLE_KUBERNETES[kubernetes];
  if (modfile === undefined)
    throw new Error(`no YAML oracle for Kubernetes ${kubernetes}; known: ${Object.keys(ORACLE_KUBERNETES).join(", ")}`);
  const outDir = join(root, ".cache", "yaml-oracle", kubernetes);
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, "yaml-oracle");
  const r = spawnSync("go", ["build", `-modfile=${modfile}`, "-o", out, "."], {
    cwd: join(root, "conformance", "yaml-oracle"),
    // Module mode whatever the caller's environment says; -mod=readonly: go.mod and go.sum are the pins.
    env: { ...process.env, GO111MODULE: "on", GOFLAGS: "-mod=readonly -buildvcs=false" },
    encoding: "utf8",
  });
  if (r.error !== undefined || r.status !== 0)
    throw new Error(
      `cannot build conformance/yaml-oracle for Kubernetes ${kubernetes}: ${r.error?.message ?? r.stderr.trim()}\n` +
        "It needs Go (node scripts/ensure-go-yaml.mjs says which) and the module proxy or a module cache that holds its modules.",
    );
  return out;
}

/** The oracle's `-version` line: the Go it was built with and the YAML modules it links. */
export function oracleVersion(binary: string): string {
  const r = spawnSync(binary, ["-version"], { encoding: "utf8" });
  if (r.error !== undefined || r.status !== 0)
    throw new Error(`${binary} -version failed: ${r.error?.message ?? r.stderr.trim()}`);
  return r.stdout.trim();
}

export class Oracle {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((a: OracleAnswer) => void)[] = [];
  private failure: Error | undefined;

  constructor(binary: string) {
    this.child = spawn(binary, [], { stdio: "pipe" });
    let stderr = "";
    this.child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    this.child.on("exit", (code) => {
      if (code !== 0 && this.waiting.length > 0)
        this.failure = new Error(`yaml-oracle exited ${code}: ${stderr.trim()}`);
    });
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const resolve = this.waiting.shift();
      resolve?.(JSON.parse(line) as OracleAnswer);
    });
  }

  ask(text: string): Promise<OracleAnswer> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(`${JSON.stringify(text)}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}
