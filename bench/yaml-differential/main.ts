/**
 * npm run yaml-oracle -- --count N --seed S [--out FILE] [--budget B] [--probes P] [--kubernetes V]
 *
 * A differential campaign (issue 17): N seeded YAML variants of the valid
 * networking objects in examples/ and bench/corpus/, plus every one of those
 * YAML files as written, each read by clusterwire and by the YAML code
 * kubectl and the API server link (conformance/yaml-oracle, one Go process,
 * built against Kubernetes V's modules, default v1.35.4: apimachinery's
 * YAMLReader, sigs.k8s.io/yaml, go-yaml v2), in non-strict and
 * strict mode, each as kubectl reads a file and as the API server reads a
 * request body, compared as objects (after fromJson) and as raw YAML-to-JSON
 * values (differential.ts MODES); and P value probes (value-probes.ts, default
 * N / 10), seeded texts for the raw modes' value areas the generator never
 * reaches, counted apart. A text whose Go answer in a mode depends on Go's
 * random map order (differential.ts ambiguity) is not compared in that mode
 * and is counted apart ("ambiguous in Go"). A text kubectl takes for JSON
 * (first non-space byte `{`) is also read the way kubectl's YAMLOrJSONDecoder
 * reads it, and the ones where that differs from clusterwire's YAML reading
 * are counted apart, by kind (differential.ts jsonStreamDifference): a
 * documented difference, not a failure. Prints counts, the disagreement rate
 * and one minimised reproduction per class; exits 1 on any disagreement.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fromYaml, toJson, type JsonValue } from "../../src/networking/index.js";
import {
  MODES,
  ambiguity,
  canonical,
  compare,
  jsonStreamDifference,
  type Disagreement,
  type Mode,
} from "./differential.js";
import { renderVariant } from "./generator.js";
import { minimise } from "./minimise.js";
import { DEFAULT_KUBERNETES, Oracle, buildOracle, oracleVersion, type OracleAnswer } from "./oracle.js";
import { renderValueProbe } from "./value-probes.js";
import { visible } from "./visible.js";

const root = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "..");
const BATCH = 500;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  return v ?? fallback;
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** Per-document seed: the campaign seed and the index, mixed. */
export function documentSeed(seed: number, index: number): number {
  return (Math.imul(seed, 0x9e3779b1) + index) >>> 0;
}

interface ClassRecord {
  cls: string;
  rule: string;
  mode: Mode;
  count: number;
  example: string;
  where: string;
  ours: string;
  go: string;
  minimal?: string;
}

async function main(): Promise<void> {
  const count = Number(arg("--count", "1000"));
  const seed = Number(arg("--seed", "1"));
  const out = arg("--out", "");
  const budget = Number(arg("--budget", "1500"));
  const probes = Number(arg("--probes", String(Math.ceil(count / 10))));
  const kubernetes = arg("--kubernetes", DEFAULT_KUBERNETES);
  if (!Number.isSafeInteger(count) || count < 0 || !Number.isSafeInteger(seed))
    throw new Error("--count and --seed are integers");
  if (!Number.isSafeInteger(probes) || probes < 0) throw new Error("--probes is a non-negative integer");

  const files = [...yamlFiles(join(root, "examples")), ...yamlFiles(join(root, "bench", "corpus"))];
  const seeds: JsonValue[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    if (f.includes(`${join("examples", "invalid")}`)) continue;
    try {
      for (const o of fromYaml(readFileSync(f, "utf8"), { strict: true })) {
        const j = toJson(o);
        const key = canonical(j);
        if (!seen.has(key)) {
          seen.add(key);
          seeds.push(JSON.parse(key) as JsonValue);
        }
      }
    } catch {
      // A file clusterwire cannot read is no source of valid objects; it is still compared below.
    }
  }
  const binary = buildOracle(root, kubernetes);
  console.log(`yaml-oracle: Kubernetes ${kubernetes}'s YAML code: ${oracleVersion(binary)}`);
  const oracle = new Oracle(binary);
  try {
    await campaign(oracle, { count, seed, out, budget, probes, kubernetes, files, seeds });
  } finally {
    oracle.close();
  }
}

interface Plan {
  readonly count: number;
  readonly seed: number;
  readonly out: string;
  readonly budget: number;
  readonly probes: number;
  readonly kubernetes: string;
  readonly files: readonly string[];
  readonly seeds: readonly JsonValue[];
}

async function campaign(
  oracle: Oracle,
  { count, seed, out, budget, probes, kubernetes, files, seeds }: Plan,
): Promise<void> {
  const classes = new Map<string, ClassRecord>();
  const disagreeing = Object.fromEntries([...MODES, "either", "files", "probes"].map((k) => [k, 0])) as Record<
    Mode | "either" | "files" | "probes",
    number
  >;
  const note = (d: Disagreement, text: string, where: string): void => {
    const r = classes.get(d.cls);
    if (r !== undefined) r.count++;
    else
      classes.set(d.cls, {
        cls: d.cls,
        rule: d.rule,
        mode: d.mode,
        count: 1,
        example: text,
        where,
        ours: d.ours,
        go: d.go,
      });
  };
  type Texts = readonly { text: string; where: string }[];
  /** Generated texts count per mode and in the rate; files and probes are counted apart. */
  type Source = "generated" | "files" | "probes";
  /** Texts left uncompared in at least one mode because Go's answer there is a coin toss. */
  const ambiguous: Record<Source, number> = { generated: 0, files: 0, probes: 0 };
  /** Texts kubectl takes for JSON, and those it then reads otherwise than our YAML reading, by kind. */
  let jsonTexts = 0;
  const jsonDiffers = new Map<string, { count: number; example: string; where: string }>();
  const judge = (texts: Texts, answers: readonly OracleAnswer[], source: Source): void => {
    texts.forEach((t, i) => {
      const answer = answers[i];
      if (answer === undefined) return;
      let any = false;
      let skipped = false;
      for (const mode of MODES) {
        if (ambiguity(answer, mode) !== undefined) {
          skipped = true;
          continue;
        }
        const d = compare(t.text, answer, mode);
        if (d === undefined) continue;
        any = true;
        if (source === "generated") disagreeing[mode]++;
        note(d, t.text, t.where);
      }
      if (any) disagreeing[source === "generated" ? "either" : source]++;
      if (skipped) ambiguous[source]++;
      if (answer.jsonStream !== undefined) {
        jsonTexts++;
        const kind = jsonStreamDifference(t.text, answer);
        if (kind !== undefined) {
          const r = jsonDiffers.get(kind);
          if (r !== undefined) r.count++;
          else jsonDiffers.set(kind, { count: 1, example: t.text, where: t.where });
        }
      }
    });
  };
  const ask = (texts: Texts): Promise<OracleAnswer[]> => Promise.all(texts.map((t) => oracle.ask(t.text)));
  /** A batch of generated texts, already sent to the oracle. */
  const launch = (start: number): { texts: Texts; answers: Promise<OracleAnswer[]> } => {
    const texts: { text: string; where: string }[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++)
      texts.push({ text: renderVariant(seeds, documentSeed(seed, i)).text, where: `seed ${seed} index ${i}` });
    return { texts, answers: ask(texts) };
  };

  const started = Date.now();
  const fileTexts = files.map((f) => ({ text: readFileSync(f, "utf8"), where: f.slice(root.length + 1) }));
  judge(fileTexts, await ask(fileTexts), "files");
  // Pipelined: Go answers batch k + 1 while this process compares batch k.
  let pending = count > 0 ? launch(0) : undefined;
  for (let start = 0; pending !== undefined; start += BATCH) {
    const current = pending;
    pending = start + BATCH < count ? launch(start + BATCH) : undefined;
    judge(current.texts, await current.answers, "generated");
    if ((start / BATCH) % 20 === 0) process.stderr.write(`${Math.min(count, start + BATCH)}/${count}\r`);
  }
  for (let start = 0; start < probes; start += BATCH) {
    const texts: { text: string; where: string }[] = [];
    for (let i = start; i < Math.min(probes, start + BATCH); i++)
      texts.push({ text: renderValueProbe(documentSeed(seed, i)).text, where: `value probe, seed ${seed} index ${i}` });
    judge(texts, await ask(texts), "probes");
  }
  const campaignMs = Date.now() - started;

  const sorted = [...classes.values()].sort((a, b) => b.count - a.count || a.cls.localeCompare(b.cls));
  for (const r of sorted) {
    r.minimal = await minimise(
      r.example,
      async (t) => {
        const answer = await oracle.ask(t);
        return ambiguity(answer, r.mode) === undefined && compare(t, answer, r.mode)?.cls === r.cls;
      },
      { budget },
    );
  }

  const pct = (n: number): string => (count === 0 ? "0" : ((100 * n) / count).toFixed(2));
  console.log(
    `yaml-oracle: seed ${seed}, ${count} generated documents from ${seeds.length} valid objects, ${files.length} YAML files`,
  );
  console.log(`  documents disagreeing (any mode): ${disagreeing.either} (${pct(disagreeing.either)}%)`);
  for (const mode of MODES)
    console.log(`  disagreements in mode ${`${mode}:`.padEnd(19)} ${disagreeing[mode]} (${pct(disagreeing[mode])}%)`);
  console.log(`  files disagreeing:        ${disagreeing.files} of ${files.length}`);
  console.log(`  value probes disagreeing: ${disagreeing.probes} of ${probes}`);
  console.log(
    `  ambiguous in Go: ${ambiguous.generated + ambiguous.files + ambiguous.probes} texts, not compared (${ambiguous.generated} generated, ${ambiguous.files} files, ${ambiguous.probes} probes)`,
  );
  const jsonDiffering = [...jsonDiffers.values()].reduce((n, r) => n + r.count, 0);
  console.log(
    `  kubectl reads as JSON (first non-space byte {): ${jsonTexts} texts, ${jsonDiffering} of them otherwise than fromYaml (documented, not compared)`,
  );
  for (const [kind, r] of [...jsonDiffers].sort((a, b) => b[1].count - a[1].count))
    console.log(`    ${kind}: ${r.count} (first at ${r.where}): ${visible(r.example).slice(0, 160)}`);
  console.log(`  classes: ${sorted.length}; campaign ${(campaignMs / 1000).toFixed(1)} s`);
  for (const r of sorted) {
    console.log(`\n${r.cls}  (${r.count}; first at ${r.where})`);
    console.log(`  rule: ${r.rule}`);
    console.log(`  repro: ${visible(r.minimal ?? "")}`);
  }
  if (out !== "")
    writeFileSync(
      out,
      `${JSON.stringify(
        {
          seed,
          count,
          probes,
          kubernetes,
          objects: seeds.length,
          files: files.length,
          disagreeing,
          ambiguous,
          kubectlJson: { texts: jsonTexts, differing: Object.fromEntries(jsonDiffers) },
          classes: sorted,
        },
        null,
        2,
      )}\n`,
    );
  process.exitCode = sorted.length > 0 ? 1 : 0;
}

main().catch((e: unknown) => {
  console.error(`yaml-oracle: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 2;
});
