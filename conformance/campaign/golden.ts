// Golden answers: the server's answers to a fixed campaign (a seed and a count), committed under
// test/fixtures/apiserver/ so that npm test checks clusterwire against the real server without
// Go. `npm run conformance -- --golden write` makes them; `--golden check` (in .ci/run) makes
// them again and fails when the server answers anything differently, beyond the fields only a
// server fills (uid, timestamps, resourceVersion of stored objects).
import { gunzipSync, gzipSync } from "node:zlib";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { decode, toJson, type KubernetesVersion } from "../../src/networking/index.js";
import { orderFree } from "./known.js";
import type { Outcome } from "./run.js";
import type { CampaignRequest, ServerAnswer } from "./request.js";

/** The campaign the golden answers come from. */
export const GOLDEN_SEED = 1;
export const GOLDEN_COUNT = 2200;
/** The servers whose golden answers are committed. */
export const GOLDEN_SERVERS = ["v1.35.4", "v1.37.2"] as const;

export interface GoldenRecord {
  readonly request: CampaignRequest;
  readonly answer: ServerAnswer;
}

export interface GoldenFile {
  /** The server's gitVersion, e.g. v1.35.4. */
  readonly server: string;
  readonly kubernetesVersion: KubernetesVersion;
  readonly seed: number;
  readonly count: number;
  readonly records: readonly GoldenRecord[];
}

export function goldenPath(root: string, server: string): string {
  return join(root, "test", "fixtures", "apiserver", `${server}.json.gz`);
}

export function writeGolden(path: string, file: GoldenFile): void {
  mkdirSync(dirname(path), { recursive: true });
  // One record a line, so that a decompressed diff reads well; gzip's header has no time in it.
  const lines = [
    `{"server":${JSON.stringify(file.server)},"kubernetesVersion":${JSON.stringify(file.kubernetesVersion)},"seed":${file.seed},"count":${file.count},"records":[`,
    file.records.map((r) => JSON.stringify(r)).join(",\n"),
    "]}",
  ];
  writeFileSync(path, gzipSync(`${lines.join("\n")}\n`, { level: 9 }));
}

export function readGolden(path: string): GoldenFile {
  return JSON.parse(gunzipSync(readFileSync(path)).toString("utf8")) as GoldenFile;
}

export function goldenRecords(outcomes: readonly Outcome[]): GoldenRecord[] {
  return outcomes.map((o) => ({ request: o.request, answer: o.answer }));
}

const SERVER_FILLED = new Set(["uid", "creationTimestamp", "resourceVersion", "time"]);

/** The JSON of a body (protobuf decoded) with the values only a server fills blanked. */
function normalisedBody(contentType: string, body: string): unknown {
  let value: unknown;
  try {
    value = contentType.startsWith("application/vnd.kubernetes.protobuf")
      ? toJson(decode(Buffer.from(body, "base64")))
      : (JSON.parse(body) as unknown);
  } catch {
    return body;
  }
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return typeof v === "bigint" ? v.toString() : v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = SERVER_FILLED.has(k) && typeof x === "string" ? "*" : walk(x);
    return out;
  };
  return walk(value);
}

/** A body to compare: normalised, and for a Status without the order of its errors. */
function comparable(answer: ServerAnswer): string {
  const text = JSON.stringify(normalisedBody(answer.contentType, answer.body));
  return orderFree(text) ?? text;
}

/** The request with its stored object's server-filled values blanked. */
function normalisedRequest(r: CampaignRequest): unknown {
  return { ...r, ...(r.old !== undefined ? { old: normalisedBody("application/json", r.old) } : {}) };
}

/** How a new run's records differ from the golden ones, beyond server-filled values: one line each. */
export function goldenChanges(before: readonly GoldenRecord[], after: readonly GoldenRecord[]): string[] {
  const out: string[] = [];
  if (before.length !== after.length) out.push(`${before.length} records before, ${after.length} now`);
  const n = Math.min(before.length, after.length);
  for (let i = 0; i < n; i++) {
    const a = before[i]!;
    const b = after[i]!;
    if (JSON.stringify(normalisedRequest(a.request)) !== JSON.stringify(normalisedRequest(b.request))) {
      out.push(`record ${i}: the request differs (a different plan: was the code that makes inputs changed?)`);
      continue;
    }
    // The order of errors in one map is Go's random map order: compared without it.
    const x = { ...a.answer, body: comparable(a.answer) };
    const y = { ...b.answer, body: comparable(b.answer) };
    const sx = JSON.stringify(x);
    const sy = JSON.stringify(y);
    if (sx !== sy)
      out.push(
        `record ${i} (${a.request.operation} ${a.request.kind}, ${a.request.source}): was ${sx.slice(0, 400)} ; now ${sy.slice(0, 400)}`,
      );
  }
  return out;
}
