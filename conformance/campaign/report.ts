// The campaign's report: counts per kind, operation, body format and field validation, the
// status codes the server gave, the time on each side, the documented differences met, and each
// disagreement minimised, with the request, both answers and a command that replays it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { KubernetesVersion } from "../../src/networking/index.js";
import { allKnown, signatureOf } from "./compare.js";
import { repoRoot } from "./controlplane.js";
import type { ApiClient } from "./http.js";
import { KNOWN_DIFFERENCES } from "./known.js";
import { minimise } from "./minimise.js";
import type { Outcome } from "./run.js";

export interface CampaignReport {
  readonly version: string;
  readonly seed: number;
  readonly objects: number;
  readonly requests: number;
  readonly agreeing: number;
  /** Requests per kind / operation / body format / fieldValidation / Accept / server status / source. */
  readonly counts: Record<string, Record<string, number>>;
  readonly serverSeconds: number;
  readonly serverRequestsPerSecond: number;
  readonly clusterwirePredictionsPerSecond: number;
  /** Documented differences met, by id: how many requests, and one of them. */
  readonly known: readonly {
    readonly id: string;
    readonly reason: string;
    readonly count: number;
    readonly example: Outcome;
  }[];
  readonly disagreements: readonly {
    readonly signature: string;
    readonly count: number;
    readonly example: Outcome;
    readonly minimised?: Outcome;
    readonly replay?: string;
  }[];
}

const MAX_MINIMISED = 12;

export async function report(args: {
  version: string;
  kubernetesVersion: KubernetesVersion;
  seed: number;
  inputs: number;
  outcomes: readonly Outcome[];
  timing: { serverMs: number; predictMs: number };
  client: ApiClient;
  log: (line: string) => void;
}): Promise<CampaignReport> {
  const { outcomes, log } = args;
  const counts: Record<string, Record<string, number>> = {
    kind: {},
    operation: {},
    format: {},
    fieldValidation: {},
    accept: {},
    status: {},
    source: {},
  };
  const bump = (table: string, key: string): void => {
    const t = counts[table]!;
    t[key] = (t[key] ?? 0) + 1;
  };
  const groups = new Map<string, Outcome[]>();
  const known = new Map<string, Outcome[]>();
  let agreeing = 0;
  for (const o of outcomes) {
    const r = o.request;
    bump("kind", r.kind);
    bump("operation", r.operation);
    bump("format", r.format);
    bump("fieldValidation", r.fieldValidation);
    bump("accept", r.accept);
    bump("status", String(o.answer.status));
    bump("source", r.source.split(" ")[0]!);
    if (o.differences.length === 0) agreeing++;
    else if (allKnown(o.differences)) {
      const id = o.differences[0]!.known!;
      known.set(id, [...(known.get(id) ?? []), o]);
    } else {
      const s = signatureOf(o.differences);
      groups.set(s, [...(groups.get(s) ?? []), o]);
    }
  }
  const disagreements: CampaignReport["disagreements"][number][] = [];
  const dir = join(repoRoot(), ".cache", "conformance", `${args.version}-${args.seed}`);
  let n = 0;
  for (const [signature, members] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    const example = members[0]!;
    if (n >= MAX_MINIMISED) {
      disagreements.push({ signature, count: members.length, example });
      continue;
    }
    const minimised = await minimise(args.client, example, args.kubernetesVersion);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `disagreement-${++n}.json`);
    writeFileSync(file, `${JSON.stringify(minimised.request, null, 2)}\n`);
    const replay = `npm run conformance -- --version ${args.version} --replay ${file}`;
    disagreements.push({ signature, count: members.length, example, minimised, replay });
  }
  const serverSeconds = args.timing.serverMs / 1000;
  const summary: CampaignReport = {
    version: args.version,
    seed: args.seed,
    objects: args.inputs,
    requests: outcomes.length,
    agreeing,
    counts,
    serverSeconds,
    serverRequestsPerSecond: outcomes.length / serverSeconds,
    clusterwirePredictionsPerSecond: outcomes.length / (args.timing.predictMs / 1000),
    known: [...known].map(([id, members]) => ({
      id,
      reason: KNOWN_DIFFERENCES.find((k) => k.id === id)?.reason ?? "",
      count: members.length,
      example: members[0]!,
    })),
    disagreements,
  };
  printReport(summary, log);
  return summary;
}

function printReport(s: CampaignReport, log: (line: string) => void): void {
  const knownCount = s.known.reduce((a, k) => a + k.count, 0);
  const disagreeing = s.disagreements.reduce((a, d) => a + d.count, 0);
  log(`\n${s.version}, seed ${s.seed}: ${s.objects} objects, ${s.requests} requests`);
  log(`  agreeing ${s.agreeing}, documented differences ${knownCount}, disagreeing ${disagreeing}`);
  for (const [table, t] of Object.entries(s.counts)) {
    const cells = Object.entries(t).sort((a, b) => b[1] - a[1]);
    log(`  ${table}: ${cells.map(([k, v]) => `${k} ${v}`).join(", ")}`);
  }
  log(
    `  server: ${s.serverSeconds.toFixed(1)} s, ${s.serverRequestsPerSecond.toFixed(0)} requests/s; ` +
      `clusterwire predicted and compared ${s.clusterwirePredictionsPerSecond.toFixed(0)} requests/s`,
  );
  for (const k of s.known) {
    log(`\n  documented: ${k.id} (${k.count}×): ${k.reason}`);
    const d = k.example.differences[0];
    if (d !== undefined) log(`    e.g. ${d.detail.slice(0, 400)}`);
  }
  for (const d of s.disagreements) {
    const shown = d.minimised ?? d.example;
    const r = shown.request;
    log(`\n  DISAGREEMENT [${d.count}×] ${d.signature}`);
    log(
      `    request: ${r.operation} ${r.kind} (${r.source}) as ${r.format}, accept ${r.accept}, fieldValidation=${r.fieldValidation}`,
    );
    log(`    body: ${r.format === "protobuf" ? "(protobuf, base64) " : ""}${r.body.slice(0, 600)}`);
    for (const diff of shown.differences) log(`    ${diff.what}: ${diff.detail.slice(0, 1500)}`);
    if (d.replay !== undefined) log(`    replay: ${d.replay}`);
  }
}
