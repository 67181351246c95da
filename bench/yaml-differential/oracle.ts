/**
 * A client for scripts/yaml-oracle in its -lines batch mode: one Go process
 * for a whole campaign, one JSON line out and one back per text, answers in
 * order. Built against Debian's Go packages (docs/yaml-differential.md).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
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
   * in sigs.k8s.io/yaml, e.g. `1` and `1.0` (scripts/yaml-oracle/ambiguous.go).
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
   * in sigs.k8s.io/yaml, e.g. `1` and `1.0` (scripts/yaml-oracle/ambiguous.go).
   */
  readonly ambiguousKeys?: string;
}

export interface OracleAnswer {
  /** kubectl's reading: the text split as its YAMLReader splits it, each piece read. */
  readonly docs: readonly OracleDoc[];
  readonly splitError?: string;
  /** The API server's reading of the text as a request body. */
  readonly body: OracleBody;
}

const APT = "apt-get install -y golang-go golang-gopkg-yaml.v2-dev golang-k8s-sigs-yaml-dev";

/** Builds the oracle binary into a temporary directory; throws with the apt line if Go is missing. */
export function buildOracle(root: string): string {
  const out = join(mkdtempSync(join(tmpdir(), "yaml-oracle-")), "yaml-oracle");
  const r = spawnSync("go", ["build", "-o", out, "."], {
    cwd: join(root, "scripts", "yaml-oracle"),
    env: {
      ...process.env,
      GO111MODULE: "off",
      GOPATH: process.env.CLUSTERWIRE_GOPATH ?? "/usr/share/gocode",
      GOCACHE: process.env.GOCACHE ?? join(tmpdir(), "clusterwire-gocache"),
    },
    encoding: "utf8",
  });
  if (r.error !== undefined || r.status !== 0)
    throw new Error(`cannot build scripts/yaml-oracle (${r.error?.message ?? r.stderr.trim()}); install Go: ${APT}`);
  return out;
}

export class Oracle {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((a: OracleAnswer) => void)[] = [];
  private failure: Error | undefined;

  constructor(binary: string) {
    this.child = spawn(binary, ["-lines"], { stdio: "pipe" });
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
