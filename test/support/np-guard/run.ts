// np-guard's netpol-analyzer (k8snetpolicy), run on directories of manifests as a peer and oracle
// for clusterwire's connectivity analysis, and its answers parsed. `npm run np-guard` builds it
// (scripts/np-guard.mjs) into .cache/np-guard/<version>/k8snetpolicy; CLUSTERWIRE_NP_GUARD names
// another binary. Nothing in the package needs it: tests check npGuardBuilt() first and skip.
//
// What its lines mean, and where its semantics differ from clusterwire's, is written up for the
// comparison in bench/connectivity/np-guard-compare.ts.
//
// Its output, as read here:
// - `list -o json`: `[{"src", "dst", "conn"}]` (with --exposure, `{"connlist_results": [...],
//   "exposure_results": {"egress_exposure": [...], "ingress_exposure": [...]}}`); `list -o csv`:
//   `src,dst,conn`, then a row a line; `list` (txt): `SRC => DST : CONN` a line, and about three
//   times the CPU of the others on a big list (np-guard v1.4.2). Sorted by source, then
//   destination, as strings.
// - `diff -o csv` (diff has no JSON): `diff-type,source,destination,dir1,dir2,workloads-diff-info`,
//   nothing at all when nothing changed.
// - A peer is `namespace/name[Kind]` (a Pod with a controlling owner is named by its owner),
//   `{ingress-controller}`, or IPv4 ranges `A-B` joined by `, `.
// - A connection set is `All Connections`, `No Connections` (diff only) or `PROTO ports` items
//   joined by `,`, protocols in alphabetical order: `SCTP 7,TCP 80,9000-9010,UDP 53`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { ConnectionSet, PortRange } from "../../../src/networking/evaluate/connectivity/types.js";

/** One line of `list`: source, destination and the connections, as np-guard prints them. */
export interface NpGuardLine {
  readonly src: string;
  readonly dst: string;
  readonly conn: string;
}

/** One line of `diff`. `before`/`after` are `No Connections` on the side that has none. */
export interface NpGuardDiffLine {
  readonly diffType: "added" | "removed" | "changed";
  readonly src: string;
  readonly dst: string;
  readonly before: string;
  readonly after: string;
  /** `workload NS/NAME[KIND] added` (or `... and ...`, `removed`) when an end exists on one side only; "" otherwise. */
  readonly workloads: string;
}

/** `list --exposure`: the connections and the exposure sections (peers may be `entire-cluster` or selectors). */
export interface NpGuardExposure {
  readonly lines: readonly NpGuardLine[];
  readonly egress: readonly NpGuardLine[];
  readonly ingress: readonly NpGuardLine[];
}

/** A peer of an np-guard line. */
export type NpGuardPeer =
  | { readonly type: "workload"; readonly namespace: string; readonly name: string; readonly kind: string }
  | { readonly type: "external"; readonly ranges: readonly { readonly first: string; readonly last: string }[] }
  | { readonly type: "ingress-controller" };

/** A run that failed (exit status, signal) or printed what cannot be read; `stderr` holds np-guard's own words. */
export class NpGuardError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly stderr: string,
  ) {
    super(stderr.trim() === "" ? message : `${message}\n${tail(stderr, 40)}`);
    this.name = "NpGuardError";
  }
}

function tail(text: string, lines: number): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** The repository root: the folder above this file that holds conformance/np-guard/go.mod. */
export function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "conformance", "np-guard", "go.mod"))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no conformance/np-guard/go.mod above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** The netpol-analyzer version conformance/np-guard/go.mod pins (`v1.4.2`). */
export function npGuardVersion(root: string = repositoryRoot()): string {
  const goMod = readFileSync(join(root, "conformance", "np-guard", "go.mod"), "utf8");
  const m = /^require\s+github\.com\/np-guard\/netpol-analyzer\s+(v\S+)/m.exec(goMod);
  if (m?.[1] === undefined)
    throw new Error("conformance/np-guard/go.mod does not require github.com/np-guard/netpol-analyzer");
  return m[1];
}

/** The binary: CLUSTERWIRE_NP_GUARD, or what `npm run np-guard` builds (scripts/np-guard.mjs's binaryPath). */
export function npGuardBinary(root: string = repositoryRoot(), env: NodeJS.ProcessEnv = process.env): string {
  const named = env["CLUSTERWIRE_NP_GUARD"];
  if (named !== undefined && named !== "") return named;
  return join(root, ".cache", "np-guard", npGuardVersion(root), "k8snetpolicy");
}

/** Whether the binary is there. */
export function npGuardBuilt(root: string = repositoryRoot()): boolean {
  return existsSync(npGuardBinary(root));
}

/** How to run np-guard: another binary, or a command to run it under (`/usr/bin/time -o FILE`). */
export interface NpGuardOptions {
  readonly binary?: string;
  readonly prefix?: readonly string[];
}

function command(args: readonly string[], options: NpGuardOptions): [string, string[]] {
  const argv = [...(options.prefix ?? []), options.binary ?? npGuardBinary(), ...args];
  return [argv[0] ?? "", argv.slice(1)];
}

/** What a run printed. */
export interface NpGuardRun {
  readonly stdout: string;
  readonly stderr: string;
}

// list's output is one string in np-guard's memory, printed at once: a big repository's list is
// hundreds of MB of text.
const MAX_BUFFER = 1 << 30;

/** Runs np-guard with `args`; throws NpGuardError unless it exits 0. Its log lines go to stderr. */
export function runNpGuard(args: readonly string[], options: NpGuardOptions = {}): NpGuardRun {
  const [file, argv] = command(args, options);
  const r = spawnSync(file, argv, { encoding: "utf8", maxBuffer: MAX_BUFFER });
  if (r.error !== undefined) throw new NpGuardError(`${file} ${argv.join(" ")}: ${r.error.message}`, null, "");
  if (r.status !== 0) {
    const how = r.signal === null ? `exit status ${r.status}` : `signal ${r.signal}`;
    throw new NpGuardError(`${file} ${argv.join(" ")}: ${how}`, r.status, r.stderr);
  }
  return { stdout: r.stdout, stderr: r.stderr };
}

/** `list --dirpath DIR -o json`: every allowed connection, workloads, address ranges and the ingress controller. */
export function npGuardList(dir: string, options: NpGuardOptions = {}): NpGuardLine[] {
  const run = runNpGuard(["list", "--dirpath", dir, "-o", "json"], options);
  return parseNpGuardListJson(run.stdout, run.stderr);
}

/** `list --dirpath DIR --exposure -o json`: the connections, and what is exposed to whole namespaces or the cluster. */
export function npGuardExposure(dir: string, options: NpGuardOptions = {}): NpGuardExposure {
  const run = runNpGuard(["list", "--dirpath", dir, "--exposure", "-o", "json"], options);
  const value = parseJson(run.stdout, run.stderr);
  if (Array.isArray(value)) return { lines: lineArray(value, run.stderr), egress: [], ingress: [] };
  const top = record(value, "the exposure output", run.stderr);
  const exposure = record(top["exposure_results"] ?? {}, "exposure_results", run.stderr);
  return {
    lines: lineArray(top["connlist_results"] ?? [], run.stderr),
    egress: lineArray(exposure["egress_exposure"] ?? [], run.stderr),
    ingress: lineArray(exposure["ingress_exposure"] ?? [], run.stderr),
  };
}

/**
 * `list --dirpath DIR -o csv`, each row handed to `onLine` as np-guard prints it, for lists too big
 * to hold as one JSON text. Resolves with np-guard's log (stderr).
 */
export function npGuardListStream(
  dir: string,
  onLine: (line: NpGuardLine) => void,
  options: NpGuardOptions = {},
): Promise<string> {
  const [file, argv] = command(["list", "--dirpath", dir, "-o", "csv"], options);
  const what = `${file} ${argv.join(" ")}`;
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let failure: Error | undefined;
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    let header = true;
    createInterface({ input: child.stdout }).on("line", (text) => {
      if (failure !== undefined || text === "") return;
      try {
        if (header) {
          header = false;
          if (text !== "src,dst,conn")
            throw new NpGuardError(`not np-guard's list header: ${JSON.stringify(text)}`, 0, "");
          return;
        }
        onLine(parseNpGuardCsvLine(text));
      } catch (e) {
        failure = e instanceof Error ? e : new Error(String(e));
        child.kill();
      }
    });
    child.on("error", (e) => reject(new NpGuardError(`${what}: ${e.message}`, null, "")));
    child.on("close", (status, signal) => {
      if (failure !== undefined) reject(failure);
      else if (status !== 0) {
        const how = signal === null ? `exit status ${status}` : `signal ${signal}`;
        reject(new NpGuardError(`${what}: ${how}`, status, stderr));
      } else resolve(stderr);
    });
  });
}

/** `diff --dir1 BEFORE --dir2 AFTER -o csv`: the connections added, removed and changed. */
export function npGuardDiff(before: string, after: string, options: NpGuardOptions = {}): NpGuardDiffLine[] {
  const run = runNpGuard(["diff", "--dir1", before, "--dir2", after, "-o", "csv"], options);
  return parseNpGuardDiffCsv(run.stdout, run.stderr);
}

function parseJson(text: string, stderr: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new NpGuardError(
      `np-guard printed what is not JSON: ${e instanceof Error ? e.message : String(e)}`,
      0,
      stderr,
    );
  }
}

function record(value: unknown, what: string, stderr: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new NpGuardError(`np-guard's ${what} is not an object`, 0, stderr);
  return value as Record<string, unknown>;
}

function lineArray(value: unknown, stderr: string): NpGuardLine[] {
  if (!Array.isArray(value)) throw new NpGuardError("np-guard's list is not an array", 0, stderr);
  return value.map((item: unknown, i) => {
    const o = record(item, `line ${i}`, stderr);
    const { src, dst, conn } = o;
    if (typeof src !== "string" || typeof dst !== "string" || typeof conn !== "string")
      throw new NpGuardError(`np-guard's line ${i} lacks src, dst or conn: ${JSON.stringify(item)}`, 0, stderr);
    return { src, dst, conn };
  });
}

/** The lines of `list -o json` (an empty list prints `[]`, or nothing when there is no workload). */
export function parseNpGuardListJson(text: string, stderr = ""): NpGuardLine[] {
  if (text.trim() === "") return [];
  return lineArray(parseJson(text, stderr), stderr);
}

/** One row of `list -o csv` (after its `src,dst,conn` header). */
export function parseNpGuardCsvLine(text: string): NpGuardLine {
  const rows = parseCsv(text);
  const [src, dst, conn] = rows[0] ?? [];
  if (rows.length !== 1 || rows[0]?.length !== 3 || src === undefined || dst === undefined || conn === undefined)
    throw new NpGuardError(`not an np-guard list row: ${JSON.stringify(text)}`, 0, "");
  return { src, dst, conn };
}

/** One line of `list` in the text format: `SRC => DST : CONN`. */
export function parseNpGuardTextLine(text: string): NpGuardLine {
  const arrow = text.indexOf(" => ");
  const colon = text.indexOf(" : ", arrow + 4);
  if (arrow < 0 || colon < 0) throw new NpGuardError(`not an np-guard list line: ${JSON.stringify(text)}`, 0, "");
  return { src: text.slice(0, arrow), dst: text.slice(arrow + 4, colon), conn: text.slice(colon + 3) };
}

const DIFF_TYPES = new Set(["added", "removed", "changed"]);

/** The lines of `diff -o csv` (RFC 4180: fields holding commas are quoted). */
export function parseNpGuardDiffCsv(text: string, stderr = ""): NpGuardDiffLine[] {
  const rows = parseCsv(text);
  const header = rows.shift();
  if (header === undefined) return [];
  if (header[0] !== "diff-type" || header.length !== 6)
    throw new NpGuardError(`not np-guard's diff header: ${JSON.stringify(header)}`, 0, stderr);
  return rows.map((row) => {
    const [diffType, src, dst, before, after, workloads] = row;
    if (
      diffType === undefined ||
      !DIFF_TYPES.has(diffType) ||
      src === undefined ||
      dst === undefined ||
      before === undefined ||
      after === undefined ||
      workloads === undefined ||
      row.length !== 6
    )
      throw new NpGuardError(`not an np-guard diff row: ${JSON.stringify(row)}`, 0, stderr);
    return { diffType: diffType as NpGuardDiffLine["diffType"], src, dst, before, after, workloads };
  });
}

/** Rows of a CSV text (quoted fields, `""` for a quote, LF or CRLF); a final newline ends the last row. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  let started = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === "") {
      quoted = true;
      started = true;
    } else if (c === ",") {
      row.push(field);
      field = "";
      started = true;
    } else if (c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      started = false;
      if (c === "\r") i++;
    } else {
      field += c;
      started = true;
    }
    i++;
  }
  if (quoted) throw new Error("CSV: a quoted field is not closed");
  if (started || field !== "") {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const WORKLOAD = /^([^/[\]]+)\/([^/[\]]+)\[([A-Za-z]+)\]$/;
const IPV4 = String.raw`(?:\d{1,3}\.){3}\d{1,3}`;
const RANGE = new RegExp(`^(${IPV4})-(${IPV4})$`);

/** A peer of a list or diff line; throws NpGuardError on anything else (exposure's `entire-cluster`, selectors). */
export function parseNpGuardPeer(text: string): NpGuardPeer {
  if (text === "{ingress-controller}") return { type: "ingress-controller" };
  const w = WORKLOAD.exec(text);
  if (w !== null) return { type: "workload", namespace: w[1] ?? "", name: w[2] ?? "", kind: w[3] ?? "" };
  const ranges = text.split(", ").map((part) => {
    const m = RANGE.exec(part);
    if (m === null || !ipv4(m[1]) || !ipv4(m[2])) return undefined;
    return { first: m[1] ?? "", last: m[2] ?? "" };
  });
  if (ranges.length > 0 && ranges.every((r) => r !== undefined)) return { type: "external", ranges };
  throw new NpGuardError(`not an np-guard peer: ${JSON.stringify(text)}`, 0, "");
}

function ipv4(text: string | undefined): boolean {
  const parts = text?.split(".") ?? [];
  return parts.length === 4 && parts.every((octet) => Number(octet) <= 255 && String(Number(octet)) === octet);
}

/** An IPv4 address as a number, 0 to 2^32 - 1. */
export function ipv4Number(address: string): number {
  const parts = address.split(".").map(Number);
  if (parts.length !== 4 || !ipv4(address)) throw new Error(`not an IPv4 address: ${address}`);
  return parts.reduce((n, octet) => n * 256 + octet, 0);
}

const PROTOCOLS = ["TCP", "UDP", "SCTP"] as const;
const ALL_PORTS: readonly PortRange[] = [{ from: 1, to: 65535 }];

/**
 * np-guard's connections as clusterwire's ConnectionSet: `All Connections` is every port of the
 * three protocols, `No Connections` none. Named ports (exposure output only) are an NpGuardError.
 */
export function parseNpGuardConnections(text: string): ConnectionSet {
  if (text === "All Connections") return { TCP: ALL_PORTS, UDP: ALL_PORTS, SCTP: ALL_PORTS };
  const ports: Record<(typeof PROTOCOLS)[number], PortRange[]> = { TCP: [], UDP: [], SCTP: [] };
  if (text === "No Connections") return ports;
  let current: PortRange[] | undefined;
  for (const item of text.split(",")) {
    const m = /^(TCP|UDP|SCTP) (.+)$/.exec(item);
    const range = m === null ? item : (m[2] ?? "");
    if (m !== null) current = ports[m[1] as (typeof PROTOCOLS)[number]];
    const r = /^(\d+)(?:-(\d+))?$/.exec(range);
    if (current === undefined || r === null)
      throw new NpGuardError(
        `cannot read np-guard's connections ${JSON.stringify(text)} at ${JSON.stringify(item)}`,
        0,
        "",
      );
    const from = Number(r[1]);
    const to = r[2] === undefined ? from : Number(r[2]);
    if (!(from >= 1 && from <= to && to <= 65535))
      throw new NpGuardError(`np-guard's connections ${JSON.stringify(text)} hold the range ${range}`, 0, "");
    current.push({ from, to });
  }
  return { TCP: normalise(ports.TCP), UDP: normalise(ports.UDP), SCTP: normalise(ports.SCTP) };
}

/** Sorted, merged where ranges overlap or touch. */
function normalise(ranges: readonly PortRange[]): PortRange[] {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const out: { from: number; to: number }[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else out.push({ from: r.from, to: r.to });
  }
  return out;
}

/** A workload peer under clusterwire's key, `namespace/kind/name`. */
export function clusterwireKey(peer: Extract<NpGuardPeer, { type: "workload" }>): string {
  return `${peer.namespace}/${peer.kind}/${peer.name}`;
}
