// `npm run bench:capture`: the Ingress capture guard's checks (IngressCaptureIndex.check)
// on a cluster of 10,000 Ingresses (bench/evaluator-inputs.ts, one host each) plus a host
// shared by 100 Ingresses of 100 namespaces and a host with 5,000 paths, and how long
// replaceAll takes to index them. Each case runs in interleaved rounds; a rate is the median
// of its rounds. The cases' answers are checked before timing, so a faster guard that
// answers differently fails here.

import { parseArgs } from "node:util";
import { IngressCaptureIndex } from "../src/admission/index.js";
import { fromJson, type Ingress } from "../src/networking/index.js";
import { benchIngresses } from "./evaluator-inputs.js";
import { int, table } from "./text.js";

const USAGE = `usage: node dist/bench/capture.js [--rounds N] [--round-ms MS]
  --rounds N     interleaved rounds (default 9); a case's rate is the median of its rounds
  --round-ms MS  time per case and round (default 200)`;

const backend = { service: { name: "web", port: { number: 80 } } };

function ingress(ns: string, name: string, host: string, paths: [string, string][]): Ingress {
  return fromJson({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name, namespace: ns, creationTimestamp: "2026-02-01T00:00:00Z" },
    spec: { rules: [{ host, http: { paths: paths.map(([path, pathType]) => ({ path, pathType, backend })) } }] },
  } as never) as Ingress;
}

function main(): void {
  const { values } = parseArgs({
    options: { rounds: { type: "string" }, "round-ms": { type: "string" }, help: { type: "boolean" } },
  });
  if (values.help === true) {
    console.log(USAGE);
    return;
  }
  const rounds = Number(values.rounds ?? 9);
  const roundMs = Number(values["round-ms"] ?? 200);

  const cluster = benchIngresses(10_000);
  for (let i = 0; i < 100; i++) {
    cluster.push(
      ingress(`shared${i}`, "ing", "shared.example.com", [
        [`/t${i}`, "Prefix"],
        [`/t${i}/x`, "Exact"],
      ]),
    );
  }
  const big: [string, string][] = Array.from({ length: 5000 }, (_, i) => [`/a/${i}/x`, i % 2 ? "Exact" : "Prefix"]);
  cluster.push(ingress("bigns", "big", "big.example.com", big));
  const index = new IngressCaptureIndex();
  const t0 = performance.now();
  index.replaceAll(cluster);
  const indexMs = performance.now() - t0;

  const shifted: [string, string][] = big.map(([p, t], i) => [p.replace(/\d+/, String(i + 4998)), t]);
  const cases: { name: string; candidate: Ingress; victims: number }[] = [
    {
      name: "longer path on a taken host",
      candidate: ingress("evil", "a", "svc42.example.com", [["/api/v2", "Prefix"]]),
      victims: 1,
    },
    { name: "fresh host", candidate: ingress("evil", "b", "fresh.example.com", [["/", "Prefix"]]), victims: 0 },
    {
      name: "precise host under a wildcard",
      candidate: ingress("evil", "c", "x.tenant49.example.com", [["/", "Prefix"]]),
      victims: 1,
    },
    {
      name: "host of 100 Ingresses",
      candidate: ingress("evil", "d", "shared.example.com", [
        ["/t7/y", "Exact"],
        ["/", "Prefix"],
      ]),
      victims: 1,
    },
    { name: "5,000 paths against 5,000", candidate: ingress("evil", "e", "big.example.com", shifted), victims: 1 },
  ];
  for (const c of cases) {
    const got = index.check(c.candidate).length;
    if (got !== c.victims) throw new Error(`bench: ${c.name}: ${got} victims, expected ${c.victims}`);
  }

  const rates: number[][] = cases.map(() => []);
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < cases.length; k++) {
      const i = (r + k) % cases.length;
      const c = cases[i]!;
      let n = 0;
      const start = performance.now();
      let elapsed = 0;
      while (elapsed < roundMs) {
        sink += index.check(c.candidate).length;
        n++;
        elapsed = performance.now() - start;
      }
      rates[i]!.push((n * 1000) / elapsed);
    }
  }
  if (sink < 0) console.log("unreachable");
  console.log(`capture: ${int.format(index.size)} Ingresses indexed by replaceAll in ${indexMs.toFixed(0)} ms.`);
  console.log(`IngressCaptureIndex.check, ${rounds} interleaved rounds of ${roundMs} ms per case:\n`);
  const rows = cases.map((c, i) => {
    const sorted = [...rates[i]!].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    return [
      c.name,
      int.format(median),
      (1000 / median).toFixed(3),
      `${int.format(sorted[0]!)}..${int.format(sorted[sorted.length - 1]!)}`,
    ];
  });
  console.log(table(["case", "checks/s (median)", "ms/check", "range of rounds"], rows, [false, true, true, true]));
}

main();
