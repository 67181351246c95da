// npm run conformance -- --version V --count N --seed S
//
// The differential conformance campaign: a real kube-apiserver (built from pinned sources, see
// conformance/controlplane/) answers every request, and clusterwire predicts each answer. Any
// difference is minimised and reported with the request, both answers and a command that
// replays it; the exit status is 1 when one is not a documented difference.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import {
  isKubernetesVersion,
  KUBERNETES_VERSIONS,
  type JsonObject,
  type KubernetesVersion,
} from "../../src/networking/index.js";
import { admissionCases, readRecordedModule, recordedModule, recordedModulePath } from "./admission-cases.js";
import { runCampaign } from "./campaign.js";
import { allKnown } from "./compare.js";
import { controlPlane, repoRoot } from "./controlplane.js";
import {
  GOLDEN_COUNT,
  GOLDEN_SEED,
  GOLDEN_SERVERS,
  goldenChanges,
  goldenPath,
  goldenRecords,
  readGolden,
  writeGolden,
} from "./golden.js";
import { ApiClient } from "./http.js";
import { isNamespaced, STORED_NAMESPACE, withoutServerFields } from "./plan.js";
import { report } from "./report.js";
import { pluralOf, type CampaignRequest } from "./request.js";
import { check, ensureNamespaces, send } from "./run.js";

const help = (defaultVersion: string): string => `Usage: npm run conformance -- [options]

Sends networking.k8s.io/v1 objects to a real kube-apiserver (dry-run creates in JSON, YAML and
protobuf bodies under each fieldValidation, updates and /status updates of stored objects, and
the same type probes every time: each field given values of the other JSON types) and compares every answer with clusterwire's: status code, Status body, Warning headers, and
the returned object's JSON or protobuf bytes. Builds the control plane first if it is missing
(minutes on a fresh machine; needs Go).

Options:
  --version V       Kubernetes release to build and run (default ${defaultVersion})
  --count N         objects to send, at least the fixtures, corpora and examples (default 100000)
  --seed S          seed of the generated objects and of every choice (default: the time)
  --concurrency C   requests in flight (default 8)
  --out FILE        also write the report as JSON
  --golden MODE     write: the golden answers (seed ${GOLDEN_SEED}, count ${GOLDEN_COUNT}) into
                    test/fixtures/apiserver/<version>.json.gz; check: make them again and fail on
                    any difference from the committed ones
  --admission-cases MODE
                    write: the admission cases clusterwire/testing ships, made from the committed
                    golden answers into src/testing/recorded/ (no server started); check: fail
                    when the committed ones differ from what the golden answers make
  --replay FILE     send one request saved by a report (disagreement-N.json) again
  -h, --help        this text

Exit status: 0 when every answer agrees or differs only as documented, 1 otherwise, 2 on bad usage.
`;

async function main(): Promise<number> {
  const { DEFAULT_VERSION, buildControlPlane, isBuilt, startControlPlane } = await controlPlane();
  const { values } = parseArgs({
    options: {
      version: { type: "string", default: DEFAULT_VERSION },
      count: { type: "string", default: "100000" },
      seed: { type: "string" },
      concurrency: { type: "string", default: "8" },
      out: { type: "string" },
      golden: { type: "string" },
      replay: { type: "string" },
      "admission-cases": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    process.stdout.write(help(DEFAULT_VERSION));
    return 0;
  }
  const cases = values["admission-cases"];
  if (cases !== undefined) {
    if (cases !== "write" && cases !== "check") {
      process.stderr.write(`conformance: --admission-cases takes write or check, not ${JSON.stringify(cases)}\n`);
      return 2;
    }
    return admissionCasesMode(cases);
  }
  const golden = values.golden;
  if (golden !== undefined && golden !== "write" && golden !== "check") {
    process.stderr.write(`conformance: --golden takes write or check, not ${JSON.stringify(golden)}\n`);
    return 2;
  }
  const count = golden !== undefined ? GOLDEN_COUNT : Number(values.count);
  const seed =
    golden !== undefined
      ? GOLDEN_SEED
      : values.seed !== undefined
        ? Number(values.seed)
        : Math.floor(Date.now() / 1000);
  const concurrency = Number(values.concurrency);
  if (
    !Number.isSafeInteger(count) ||
    count < 0 ||
    !Number.isSafeInteger(seed) ||
    !Number.isSafeInteger(concurrency) ||
    concurrency < 1
  ) {
    process.stderr.write(`conformance: --count, --seed and --concurrency take integers\n\n${help(DEFAULT_VERSION)}`);
    return 2;
  }
  const version = values.version;
  // The release clusterwire validates as: the server's minor (v1.37.2 -> 1.37).
  const minor = /^v(\d+\.\d+)\.\d+$/.exec(version)?.[1];
  if (!isKubernetesVersion(minor)) {
    process.stderr.write(`conformance: clusterwire validates as ${KUBERNETES_VERSIONS.join(", ")}, not ${version}\n`);
    return 2;
  }
  const kubernetesVersion: KubernetesVersion = minor;
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  if (!isBuilt(version)) buildControlPlane(version, { log });
  const plane = await startControlPlane({ version, log: () => {} });
  log(`kube-apiserver ${plane.version} ready in ${(plane.startupMs / 1000).toFixed(1)} s`);
  const client = new ApiClient(plane, concurrency * 2);
  try {
    if (values.replay !== undefined) return await replay(client, values.replay, kubernetesVersion, log);
    log(
      `conformance: ${version}, count ${count}, seed ${seed} (again: npm run conformance -- --version ${version} --count ${count} --seed ${seed})`,
    );
    const started = performance.now();
    const result = await runCampaign({ client, kubernetesVersion, count, seed, concurrency, log });
    const summary = await report({
      version: plane.version,
      kubernetesVersion,
      seed,
      inputs: result.inputs.length,
      outcomes: result.outcomes,
      timing: result.timing,
      client,
      log,
    });
    log(`  whole campaign: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (values.out !== undefined) writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`);
    if (golden !== undefined) {
      const path = goldenPath(repoRoot(), plane.version);
      const records = goldenRecords(result.outcomes);
      if (golden === "write") {
        writeGolden(path, { server: plane.version, kubernetesVersion, seed, count, records });
        log(`wrote ${records.length} golden answers to ${path}`);
      } else {
        const changes = goldenChanges(readGolden(path).records, records);
        if (changes.length > 0) {
          log(
            `\nthe server answers ${changes.length} golden requests differently (npm run conformance -- --version ${version} --golden write, then commit):`,
          );
          for (const c of changes.slice(0, 40)) log(`  ${c}`);
          return 1;
        }
        log(`the server still gives all ${records.length} golden answers`);
      }
    }
    return summary.disagreements.length > 0 ? 1 : 0;
  } finally {
    client.close();
    await plane.stop();
  }
}

/** Writes or checks src/testing/recorded/ from the committed golden answers of every server. */
function admissionCasesMode(mode: "write" | "check"): number {
  const root = repoRoot();
  let stale = 0;
  for (const server of GOLDEN_SERVERS) {
    const made = admissionCases(readGolden(goldenPath(root, server)));
    const path = recordedModulePath(root, server);
    if (mode === "write") {
      mkdirSync(dirname(path), { recursive: true });
      const text = recordedModule(made);
      writeFileSync(path, text);
      process.stderr.write(`wrote ${made.cases.length} admission cases (${text.length} bytes) to ${path}\n`);
    } else if (
      !existsSync(path) ||
      JSON.stringify(readRecordedModule(readFileSync(path, "utf8"))) !== JSON.stringify(made)
    ) {
      process.stderr.write(
        `${path} is not what the golden answers make (npm run conformance -- --admission-cases write)\n`,
      );
      stale++;
    }
  }
  if (mode === "check" && stale === 0) process.stderr.write("the admission cases are what the golden answers make\n");
  return stale > 0 ? 1 : 0;
}

/** Sends a saved request again (creating its stored object first, for an update) and compares. */
async function replay(
  client: ApiClient,
  file: string,
  version: KubernetesVersion,
  log: (line: string) => void,
): Promise<number> {
  let r = JSON.parse(readFileSync(file, "utf8")) as CampaignRequest;
  if (r.namespace !== undefined) await ensureNamespaces(client, [r.namespace]);
  if (r.old !== undefined) {
    const stored = JSON.parse(r.old) as JsonObject;
    const meta = stored.metadata as JsonObject;
    withoutServerFields(meta);
    const ns = isNamespaced(r.kind) ? `/namespaces/${STORED_NAMESPACE}` : "";
    await ensureNamespaces(client, [STORED_NAMESPACE]);
    const a = await client.send(
      "POST",
      `/apis/networking.k8s.io/v1${ns}/${pluralOf(r.kind)}?fieldManager=clusterwire-conformance`,
      JSON.stringify(stored),
      "application/json",
      "application/json",
    );
    if (a.status !== 201)
      throw new Error(`creating the stored object: ${a.status} ${Buffer.from(a.body).toString("utf8")}`);
    r = { ...r, old: Buffer.from(a.body).toString("utf8") };
  }
  const answer = await send(client, r);
  const differences = check(r, answer, version);
  log(
    `server: ${answer.status} ${answer.warnings.length > 0 ? `warnings ${JSON.stringify(answer.warnings)} ` : ""}${r.accept === "json" ? answer.body.slice(0, 2000) : "(protobuf)"}`,
  );
  if (differences.length === 0) log("clusterwire agrees");
  for (const d of differences) log(`${d.known !== undefined ? `documented (${d.known}) ` : ""}${d.what}: ${d.detail}`);
  return differences.length > 0 && !allKnown(differences) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`conformance: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
