// One campaign against a running control plane: the inputs from a seed, the namespaces and
// stored objects they need, every request sent and compared.
import { join } from "node:path";
import type { KubernetesVersion } from "../../src/networking/index.js";
import { allKnown } from "./compare.js";
import { repoRoot } from "./controlplane.js";
import { existingNames, markExisting } from "./existing.js";
import type { ApiClient } from "./http.js";
import { fixtureInputs, generatedInputs, manifestInputs, type CampaignInput } from "./inputs.js";
import { namespacesOf, planCreates, planUpdates } from "./plan.js";
import { probeRequests } from "./probes.js";
import { createRng } from "./rng.js";
import { ensureNamespaces, planUpdateRequests, runRequests, type Outcome } from "./run.js";

/** Share of the count sent as updates and /status updates of stored objects. */
const UPDATE_SHARE = 0.05;

export interface CampaignResult {
  readonly inputs: readonly CampaignInput[];
  readonly outcomes: readonly Outcome[];
  readonly timing: { readonly serverMs: number; readonly predictMs: number };
}

/** The fixtures, the real-manifest corpora and the examples: sent in every campaign. */
export function fixedInputs(): CampaignInput[] {
  const root = repoRoot();
  return [
    ...fixtureInputs(join(root, "..", "shared", "testdata", "k8s-api")),
    ...manifestInputs("corpus", root, [join(root, "bench", "corpus"), join(root, "test", "fixtures", "real-world")]),
    ...manifestInputs("example", root, [join(root, "examples")]),
  ];
}

export async function runCampaign(args: {
  client: ApiClient;
  kubernetesVersion: KubernetesVersion;
  count: number;
  seed: number;
  concurrency: number;
  log: (line: string) => void;
}): Promise<CampaignResult> {
  const { client, log } = args;
  const rng = createRng(args.seed);
  const fixed = fixedInputs();
  const generated = generatedInputs(Math.max(0, args.count - fixed.length), args.seed, rng, args.kubernetesVersion);
  const inputs = [...fixed, ...generated];
  log(`inputs: ${fixed.length} fixtures, corpus documents and examples, ${generated.length} generated`);
  const creates = planCreates(inputs, rng);
  const updatePlans = planUpdates(inputs, Math.round(args.count * UPDATE_SHARE), rng);
  await ensureNamespaces(client, namespacesOf(creates));
  const updates = await planUpdateRequests(client, updatePlans, rng, log);
  // The type probes last, made without the seed: the seeded requests stay what they were.
  const probes = probeRequests();
  const requests = markExisting([...creates, ...updates, ...probes], await existingNames(client));
  log(`requests: ${creates.length} creates, ${updates.length} updates, ${probes.length} type probes`);
  const outcomes: Outcome[] = new Array(requests.length);
  let done = 0;
  let disagreeing = 0;
  const step = Math.max(1, Math.floor(requests.length / 10));
  const timing = await runRequests(client, requests, args.concurrency, args.kubernetesVersion, (o, i) => {
    outcomes[i] = o;
    done++;
    if (o.differences.length > 0 && !allKnown(o.differences)) disagreeing++;
    if (done % step === 0) log(`  ${done}/${requests.length} sent, ${disagreeing} disagreeing`);
  });
  return { inputs, outcomes, timing };
}
