// npm run kubectl-compare -- --version V [--mutants N --seed S] [--golden write|check]
//
// `clusterwire validate` beside `kubectl apply --dry-run=server --validate=strict`, document by
// document, over the real-world corpora (bench/corpus/, test/fixtures/real-world/) and mutated
// copies of their networking documents, against a real kube-apiserver and the kubectl of the
// same release. For networking documents, kubectl's exit status and every line it prints must be
// what clusterwire's verdict implies (conformance/kubectl/expect.ts); for other kinds, clusterwire
// must say it skipped them, and kubectl's verdict is only counted.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { isKubernetesVersion, type KubernetesVersion } from "../../src/networking/index.js";
import { controlPlane, repoRoot } from "../campaign/controlplane.js";
import { type ClusterwireSide, clusterwireSide, honestSkip, samePrinted } from "./compare.js";
import { type CorpusDocument, corpusDocuments, describeDocument, mutants, repeatedKeyDocuments } from "./documents.js";
import type { Printed } from "./expect.js";
import { FILE, type GoldenRecord, goldenPath, readGolden, withFileLabel, writeGolden } from "./golden.js";
import { explain, KNOWN } from "./known.js";
import { dryRunApply, type Kubectl, pool } from "./kubectl.js";

const HELP = `Usage: npm run kubectl-compare -- [options]

Options:
  --version V       the control plane and kubectl release (default v1.35.4)
  --mutants N       mutated copies of each networking document (default 2)
  --seed S          seed of the mutations (default 1)
  --concurrency C   kubectl processes at once (default 3)
  --out FILE        also write every disagreement as JSON
  --golden MODE     write: store kubectl's answers for a fixed selection in
                    test/fixtures/kubectl/<version>.json; check: ask kubectl again about the
                    stored documents and fail on any difference
Exit status: 0 when every networking document agrees, 1 otherwise, 2 on bad usage.`;

interface Outcome {
  readonly doc: CorpusDocument;
  readonly path: string;
  readonly cw: ClusterwireSide;
  readonly kubectl: Printed;
}

const ms = (since: bigint) => Number((process.hrtime.bigint() - since) / 1_000_000n);

/** A difference's class: both exit codes and kubectl's first line, values blanked. */
function signature(o: Outcome): string {
  const first = o.kubectl.stderr.find((l) => !l.startsWith("Warning:")) ?? o.kubectl.stdout[0] ?? "";
  const cwFirst = o.cw.expected?.stderr[0] ?? o.cw.expected?.stdout[0] ?? "";
  const blank = (s: string) =>
    s
      .replace(/"[^"]*"/g, '"…"')
      .replace(/\d+/g, "N")
      .slice(0, 140);
  return `kubectl ${o.kubectl.code} / clusterwire ${o.cw.expected?.code}: ${blank(first)} <> ${blank(cwFirst)}`;
}

async function main(): Promise<number> {
  const { DEFAULT_VERSION, isBuilt, startControlPlane, binaryPaths, apiRequest } = await controlPlane();
  const { values } = parseArgs({
    options: {
      version: { type: "string", default: DEFAULT_VERSION },
      mutants: { type: "string", default: "2" },
      seed: { type: "string", default: "1" },
      concurrency: { type: "string", default: "3" },
      out: { type: "string" },
      golden: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    console.log(HELP);
    return 0;
  }
  const version = values.version;
  const minor = /^v(\d+\.\d+)\.\d+$/.exec(version)?.[1];
  const perDocument = Number(values.mutants);
  const seed = Number(values.seed);
  const concurrency = Number(values.concurrency);
  if (!isKubernetesVersion(minor) || !Number.isInteger(perDocument) || !Number.isInteger(seed) || !(concurrency >= 1)) {
    console.error(HELP);
    return 2;
  }
  if (values.golden !== undefined && values.golden !== "write" && values.golden !== "check") {
    console.error(`--golden must be write or check\n${HELP}`);
    return 2;
  }
  const kubernetesVersion: KubernetesVersion = minor;
  const root = repoRoot();
  if (!isBuilt(version)) {
    console.error(
      `the control plane ${version} is not built: run npm run apiserver -- --version ${version} --build-only`,
    );
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-kubectl-"));
  const plane = await startControlPlane({ version });
  try {
    const k: Kubectl = {
      binary: binaryPaths(version).kubectl,
      kubeconfig: plane.kubeconfigPath,
      cacheDir: join(dir, "cache"),
    };
    const ensureNamespace = async (name: string): Promise<boolean> => {
      const res = await apiRequest(plane, "POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name },
      });
      return res.status === 201 || res.status === 409;
    };
    if (values.golden === "check") return await checkGolden(k, root, version, dir, ensureNamespace);

    const started = process.hrtime.bigint();
    const originals = corpusDocuments(root);
    const planted = mutants(originals, perDocument, seed);
    const docs = [...originals, ...planted, ...repeatedKeyDocuments()];
    // Namespaced objects need their namespace; objects without one go to default.
    const namespaces = [...new Set(docs.flatMap((d) => (d.namespace !== undefined ? [d.namespace] : [])))];
    const made = new Set<string>(["default"]);
    for (const name of namespaces) if (await ensureNamespace(name)) made.add(name);
    const paths = docs.map((d, i) => {
      const path = join(dir, `${i}${d.extension}`);
      writeFileSync(path, d.text);
      return path;
    });
    let t = process.hrtime.bigint();
    const cw: ClusterwireSide[] = [];
    for (const [i, d] of docs.entries())
      cw.push(await clusterwireSide(paths[i] as string, d.text, kubernetesVersion, paths[i] as string));
    const cwMs = ms(t);
    t = process.hrtime.bigint();
    let done = 0;
    const kc = await pool(docs, concurrency, async (_d, i) => {
      const r = await dryRunApply(k, paths[i] as string);
      if (++done % 250 === 0) console.error(`kubectl: ${done}/${docs.length}`);
      return r;
    });
    const kcMs = ms(t);
    const outcomes: Outcome[] = docs.map((doc, i) => ({
      doc,
      path: paths[i] as string,
      cw: cw[i] as ClusterwireSide,
      kubectl: kc[i] as Printed,
    }));
    const failures = report(
      outcomes,
      made,
      {
        version,
        seed,
        perDocument,
        originals: originals.length,
        mutants: planted.length,
        cwMs,
        kcMs,
        totalMs: ms(started),
      },
      values.out,
    );
    if (values.golden === "write") {
      const path = goldenPath(root, version);
      writeGolden(path, { version, seed, mutants: perDocument, records: selectGolden(outcomes, made) });
      console.log(`golden: ${path}`);
    }
    return failures > 0 ? 1 : 0;
  } finally {
    await plane.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Figures {
  readonly version: string;
  readonly seed: number;
  readonly perDocument: number;
  readonly originals: number;
  readonly mutants: number;
  readonly cwMs: number;
  readonly kcMs: number;
  readonly totalMs: number;
}

/** Prints the counts and every class of difference (its smallest document); returns how many networking documents disagree. */
function report(
  outcomes: readonly Outcome[],
  namespaces: ReadonlySet<string>,
  f: Figures,
  out: string | undefined,
): number {
  const byKind = new Map<
    string,
    { docs: number; verdict: number; lines: number; kubectlAccepted: number; statuses: Map<string, number> }
  >();
  const differences = new Map<string, Outcome[]>();
  let dishonest = 0;
  let networking = 0;
  let failures = 0;
  const explained = new Map<string, number>();
  for (const o of outcomes) {
    const key = `${o.doc.networking ? "" : "(skipped) "}${o.doc.apiVersion ?? "?"} ${o.doc.kind ?? "?"}${o.doc.mutation !== undefined ? " (mutants)" : ""}`;
    const row = byKind.get(key) ?? { docs: 0, verdict: 0, lines: 0, kubectlAccepted: 0, statuses: new Map() };
    byKind.set(key, row);
    row.docs++;
    if (o.kubectl.code === 0) row.kubectlAccepted++;
    for (const v of o.cw.verdicts) row.statuses.set(v.status, (row.statuses.get(v.status) ?? 0) + 1);
    if (!o.doc.networking) {
      for (const v of o.cw.verdicts) {
        if (v.status === "skipped" && !honestSkip(v)) dishonest++;
      }
      continue;
    }
    networking++;
    const expected = o.cw.expected;
    if (expected !== undefined && expected.code === o.kubectl.code) row.verdict++;
    if (expected !== undefined && samePrinted(expected, o.kubectl)) {
      row.lines++;
      continue;
    }
    const known = expected === undefined ? undefined : explain(o.kubectl, expected, namespaces);
    if (known !== undefined) explained.set(known.id, (explained.get(known.id) ?? 0) + 1);
    else failures++;
    const sig = `${known === undefined ? "UNEXPLAINED" : `known: ${known.id}`} ${signature(o)}`;
    differences.set(sig, [...(differences.get(sig) ?? []), o]);
  }
  console.log(
    `kubectl ${f.version}: ${outcomes.length} documents (${f.originals} from the corpora, ${f.mutants} mutants: ${f.perDocument} per networking document, seed ${f.seed}); ${networking} networking`,
  );
  console.log(`time: clusterwire validate in-process ${f.cwMs} ms, kubectl ${f.kcMs} ms, total ${f.totalMs} ms`);
  console.log("kind | documents | verdict agrees | lines agree | kubectl accepted | clusterwire's statuses");
  for (const [key, r] of [...byKind].sort()) {
    const judged = !key.startsWith("(skipped)");
    console.log(
      `${key} | ${r.docs} | ${judged ? r.verdict : "-"} | ${judged ? r.lines : "-"} | ${r.kubectlAccepted} | ${[...r.statuses].map(([k, n]) => `${k} ${n}`).join(", ")}`,
    );
  }
  console.log(`skip notices that do not say the document was not checked: ${dishonest}`);
  const explainedCount = [...explained.values()].reduce((a, b) => a + b, 0);
  console.log(
    `networking documents that differ: ${failures + explainedCount}, of which ${explainedCount} as known and ${failures} unexplained`,
  );
  for (const k of KNOWN) if (explained.has(k.id)) console.log(`  ${k.id}: ${explained.get(k.id)} (${k.reason})`);
  const list = [...differences].map(([sig, os]) => {
    const smallest = [...os].sort((a, b) => a.doc.text.length - b.doc.text.length)[0] as Outcome;
    return {
      signature: sig,
      count: os.length,
      id: smallest.doc.id,
      mutation: smallest.doc.mutation,
      text: smallest.doc.text,
      kubectl: withFileLabel(smallest.kubectl, smallest.path),
      clusterwire: smallest.cw.expected && withFileLabel(smallest.cw.expected, smallest.path),
    };
  });
  for (const d of [...list].sort((a, b) => a.signature.localeCompare(b.signature))) {
    console.log(`\n${d.count}× ${d.signature}\n  e.g. ${d.id}${d.mutation ? ` (${d.mutation})` : ""}`);
    console.log(`  kubectl:     ${JSON.stringify(d.kubectl)}\n  clusterwire: ${JSON.stringify(d.clusterwire)}`);
  }
  if (out !== undefined) writeFileSync(out, `${JSON.stringify({ figures: f, differences: list }, null, 2)}\n`);
  return failures + dishonest;
}

/**
 * The golden selection: every mutant kubectl refused with output no earlier one had (quoted
 * values blanked), and every tenth networking document it accepted, up to 120 records; only
 * those clusterwire agrees with, or differs from as a known difference kubectl alone shows
 * (not a missing namespace, which depends on the cluster), with that difference named; and,
 * beyond the 120, every pinned document (the repeated keys) on those same terms.
 */
function selectGolden(outcomes: readonly Outcome[], namespaces: ReadonlySet<string>): GoldenRecord[] {
  const seen = new Set<string>();
  const picked: GoldenRecord[] = [];
  let accepted = 0;
  for (const o of outcomes) {
    const expected = o.cw.expected;
    if (!o.doc.networking || expected === undefined || (picked.length >= 120 && o.doc.pinned !== true)) continue;
    const known = samePrinted(expected, o.kubectl) ? undefined : explain(o.kubectl, expected, namespaces);
    if (!samePrinted(expected, o.kubectl) && (known === undefined || known.id === "missing-namespace")) continue;
    const printed = withFileLabel(o.kubectl, o.path);
    if (o.doc.pinned === true) {
      // Kept whatever kubectl answered.
    } else if (o.kubectl.code !== 0) {
      const key = JSON.stringify(printed.stderr.map((l) => l.replace(/"[^"]*"/g, '"…"')));
      if (o.doc.mutation === undefined || seen.has(key)) continue;
      seen.add(key);
    } else if (accepted++ % 10 !== 0) continue;
    picked.push({
      id: o.doc.id,
      ...(o.doc.mutation !== undefined ? { mutation: o.doc.mutation } : {}),
      ...(known !== undefined ? { known: known.id } : {}),
      extension: o.doc.extension,
      text: o.doc.text,
      ...printed,
    });
  }
  return picked;
}

/** Asks kubectl again about every stored document; fails on any difference. */
async function checkGolden(
  k: Kubectl,
  root: string,
  version: string,
  dir: string,
  ensureNamespace: (name: string) => Promise<boolean>,
): Promise<number> {
  const golden = readGolden(goldenPath(root, version));
  // The namespaces the run that wrote the records had made.
  for (const r of golden.records) {
    const namespace = describeDocument(r.id, r.text, r.extension).namespace;
    if (namespace !== undefined) await ensureNamespace(namespace);
  }
  const answers = await pool(golden.records, 3, async (r, i) => {
    const path = join(dir, `golden-${i}${r.extension}`);
    writeFileSync(path, r.text);
    return withFileLabel(await dryRunApply(k, path), path);
  });
  let differ = 0;
  for (const [i, r] of golden.records.entries()) {
    const now = answers[i] as Printed;
    if (!samePrinted(now, r)) {
      differ++;
      console.log(
        `${r.id}: stored ${JSON.stringify({ code: r.code, stdout: r.stdout, stderr: r.stderr })}\n  now ${JSON.stringify(now)}`,
      );
    }
  }
  console.log(
    `golden ${version}: ${golden.records.length} records, ${differ} differ from kubectl's answers now (${FILE} stands for the path)`,
  );
  return differ > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
