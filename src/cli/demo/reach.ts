import { join } from "node:path";
import type { DirectionDecision } from "../../networking/index.js";
import { clusterEngine, loadClusterFile } from "../shared/cluster-file.js";
import type { CliIO } from "../shared/io.js";
import { ALLOWED_GLYPH, DENIED_GLYPH, explainDecision, skippedNotes, truthGrid } from "../shared/reach-text.js";
import type { ReachExpectations } from "./expectations.js";
import { present } from "./files.js";
import { describeError } from "./steps.js";

// The main job's reach section: truth tables and explained connections of the
// bundled cluster file, each checked against examples/demo/expected.yaml.

/** `allowed-by-rule shop/egress[0]`, `denied shop/default-deny[] shop/egress[]`, `self`. */
function directionKey(d: DirectionDecision): string {
  return [d.verdict, ...d.policies.map((p) => `${p.policy}[${p.rules.join(",")}]`)].join(" ");
}

/** Checks the cluster file (clusters/shop.yaml) under `dir` against the expected tables and connections; undefined when it is not there. */
export async function runReachSection(
  io: CliIO,
  dir: string,
  expected: ReachExpectations,
): Promise<boolean | undefined> {
  const file = join(...expected.file.split("/"));
  if ((await present(io, dir, [file])) === undefined) return undefined;
  const path = join(dir, file);
  io.stdout.write(`reach: ${path}\n`);
  let cluster: Awaited<ReturnType<typeof loadClusterFile>>;
  let engine: ReturnType<typeof clusterEngine>;
  try {
    cluster = await loadClusterFile(io, path);
    engine = clusterEngine(cluster);
  } catch (e) {
    io.stdout.write(`FAILED: reach: ${describeError(e)}\n`);
    return false;
  }
  const problems: string[] = skippedNotes(engine, cluster, []).map((n) => `unexpected: ${n}`);
  if (engine.pods.join(" ") !== expected.pods.join(" "))
    problems.push(`pods are ${engine.pods.join(", ")}; expected ${expected.pods.join(", ")}`);
  for (const p of problems) io.stdout.write(`    - ${p}\n`);
  let failed = problems.length;
  let cells = 0;
  for (const want of expected.tables) {
    const matrix = engine.matrix({ protocol: want.protocol, port: want.port });
    const hostNetwork = new Set(
      cluster.pods.filter((p) => p.hostNetwork === true).map((p) => `${p.namespace}/${p.name}`),
    );
    for (const line of truthGrid(matrix, hostNetwork)) io.stdout.write(`  ${line}\n`);
    const wrong: string[] = [];
    expected.pods.forEach((from, f) => {
      const row = [...(want.rows[f] ?? "")];
      expected.pods.forEach((to, t) => {
        cells++;
        const expected = row[t] === ALLOWED_GLYPH ? true : row[t] === DENIED_GLYPH ? false : undefined;
        const got = f < matrix.pods.length && t < matrix.pods.length ? matrix.allowed(f, t) : undefined;
        if (expected !== got) wrong.push(`${from} -> ${to}: expected ${word(expected)}, got ${word(got)}`);
      });
    });
    io.stdout.write(
      wrong.length === 0
        ? `  table ok\n`
        : `  table FAILED: ${wrong.length} ${wrong.length === 1 ? "cell differs" : "cells differ"}\n`,
    );
    for (const w of wrong) io.stdout.write(`    - ${w}\n`);
    failed += wrong.length;
  }
  for (const want of expected.connections) {
    let lines: string[];
    const wrong: string[] = [];
    try {
      const d = engine.evaluate({
        from: endpointOf(want.from),
        to: endpointOf(want.to),
        protocol: want.protocol,
        port: want.port,
      });
      lines = explainDecision(cluster, want.from, want.to, want.port, d);
      if (d.allowed !== want.allowed) wrong.push(`expected ${want.allowed ? "allow" : "deny"}`);
      if (directionKey(d.egress) !== want.egress)
        wrong.push(`expected egress ${want.egress}, got ${directionKey(d.egress)}`);
      if (directionKey(d.ingress) !== want.ingress)
        wrong.push(`expected ingress ${want.ingress}, got ${directionKey(d.ingress)}`);
    } catch (e) {
      lines = [`${want.from} -> ${want.to}`];
      wrong.push(e instanceof Error ? e.message : String(e));
    }
    io.stdout.write(`  ${lines[0] ?? ""}  ${wrong.length === 0 ? "ok" : "FAILED"}\n`);
    for (const l of lines.slice(1)) io.stdout.write(`  ${l}\n`);
    for (const w of wrong) io.stdout.write(`    - ${w}\n`);
    failed += wrong.length;
  }
  const summary = `${expected.tables.length} tables (${cells} cells) and ${expected.connections.length} connections`;
  io.stdout.write(
    failed === 0
      ? `ok: reach ${summary} as expected\n`
      : `FAILED: reach ${summary}: ${failed} ${failed === 1 ? "difference" : "differences"}\n`,
  );
  return failed === 0;
}

function endpointOf(s: string): { pod: string } | { ip: string } {
  return s.includes("/") ? { pod: s } : { ip: s };
}

function word(v: boolean | undefined): string {
  return v === undefined ? "nothing" : v ? "allow" : "deny";
}
