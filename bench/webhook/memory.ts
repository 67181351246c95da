// `npm run bench:webhook-memory`: the webhook's memory over a long run. The
// server (`clusterwire webhook serve`, a child process) answers 1,000,000
// reviews of the bench mix at 16 keep-alive connections; its RSS is read from
// /proc/<pid>/status after a warm-up and after every slice of reviews, and the
// run passes when every sample stays within 10% of the first. The server's
// V8 heap in use (from its /metrics, after the slice) is printed beside it, to
// tell a leak (the heap grows) from the allocator keeping pages. Outside
// `npm test` because it takes minutes. See `--help`.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { makeCert } from "../../test/support/storage/cert.js";
import { loadCorpus } from "../corpus.js";
import { repoRoot } from "../fixtures.js";
import { fix, int, table } from "../text.js";
import { runClosedLoop } from "./load.js";
import { buildMix } from "./mix.js";
import { scrape } from "./scrape.js";
import { startServerProcess } from "./server-process.js";

const USAGE = `usage: node dist/bench/webhook/memory.js [--reviews N] [--samples K] [--warmup N] [--connections C]
  --reviews N      reviews answered after the warm-up (default 1000000)
  --samples K      RSS samples over those reviews, one after each N/K (default 20)
  --warmup N       reviews answered before the first sample (default 50000)
  --connections C  keep-alive connections (default 16)`;

const LIMIT = 0.1;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reviews: { type: "string", default: "1000000" },
      samples: { type: "string", default: "20" },
      warmup: { type: "string", default: "50000" },
      connections: { type: "string", default: "16" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const whole = (s: string, name: string, min: number): number => {
    if (!/^\d+$/.test(s) || Number(s) < min) throw new Error(`--${name} must be a whole number ≥ ${min}, got ${s}`);
    return Number(s);
  };
  const reviews = whole(values.reviews, "reviews", 1);
  const samples = Math.min(whole(values.samples, "samples", 1), reviews);
  const warmup = whole(values.warmup, "warmup", 0);
  const connections = whole(values.connections, "connections", 1);
  const slice = Math.max(connections, Math.ceil(reviews / samples));

  const mix = buildMix(loadCorpus().objects);
  const made = makeCert();
  if (made === undefined) throw new Error("openssl is needed to make the bench's serving certificate");
  made.dispose();
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-bench-webhook-memory-"));
  const certFile = join(dir, "tls.crt");
  const keyFile = join(dir, "tls.key");
  writeFileSync(certFile, made.cert);
  writeFileSync(keyFile, made.key, { mode: 0o600 });
  const server = await startServerProcess({
    cli: join(repoRoot(), "dist", "src", "cli", "main.js"),
    certFile,
    keyFile,
    // The log of a million reviews is a few hundred MB: /dev/null keeps the cost of writing it, not the file.
    logFile: "/dev/null",
  });
  let failures = 0;
  try {
    console.log(
      `webhook memory: ${int.format(reviews)} reviews of the ${mix.length}-review mix at ${connections} keep-alive connections, ` +
        `after a warm-up of ${int.format(warmup)}; RSS of the server (pid ${server.pid}) from /proc after every ${int.format(slice)}; ` +
        `load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")}`,
    );
    console.log(`RSS at start (idle): ${fix(server.rss() / 2 ** 20, 1)} MiB`);
    if (warmup > 0) {
      const w = await runClosedLoop(server.url, mix, connections, { reviews: warmup }, "warm-up");
      failures += w.errors + w.non2xx + w.mismatches;
    }
    const rows: string[][] = [];
    const ca = made.cert;
    const heapUsed = async (): Promise<number> =>
      (await scrape(server.url, ca)).get("nodejs_heap_size_used_bytes") ?? Number.NaN;
    const rss: number[] = [server.rss()];
    const heap: number[] = [await heapUsed()];
    rows.push(["0", fix(rss[0]! / 2 ** 20, 1), fix(heap[0]! / 2 ** 20, 1), "-", "-"]);
    let done = 0;
    while (done < reviews) {
      const n = Math.max(connections, Math.min(slice, reviews - done));
      const r = await runClosedLoop(server.url, mix, connections, { reviews: n });
      done += r.ok + r.non2xx;
      failures += r.errors + r.non2xx + r.mismatches;
      rss.push(server.rss());
      heap.push(await heapUsed());
      rows.push([
        int.format(done),
        fix(rss.at(-1)! / 2 ** 20, 1),
        fix(heap.at(-1)! / 2 ** 20, 1),
        int.format(r.reviewsPerSecond),
        String(r.errors + r.non2xx + r.mismatches),
      ]);
      // Progress as it goes (the table follows at the end).
      console.log(`  ${rows.at(-1)!.join("  ")}`);
      // A run that answers nothing would loop for ever.
      if (r.ok + r.non2xx === 0) throw new Error("the server answered no review in a slice");
    }
    console.log(
      table(["reviews", "RSS MiB", "heap used MiB", "reviews/s", "failures"], rows, [true, true, true, true, true]),
    );
    const first = rss[0]!;
    const last = rss.at(-1)!;
    const max = Math.max(...rss);
    const growth = (v: number): string => `${v >= first ? "+" : ""}${fix(((v - first) / first) * 100, 1)}%`;
    const flat = max <= first * (1 + LIMIT) && last >= first * (1 - LIMIT);
    console.log(
      `RSS first ${fix(first / 2 ** 20, 1)} MiB, last ${fix(last / 2 ** 20, 1)} MiB (${growth(last)}), ` +
        `max ${fix(max / 2 ** 20, 1)} MiB (${growth(max)}); failures ${failures}`,
    );
    const heapGrowth = ((heap.at(-1)! - heap[0]!) / heap[0]!) * 100;
    console.log(
      `V8 heap used (after each slice): first ${fix(heap[0]! / 2 ** 20, 1)} MiB, last ${fix(heap.at(-1)! / 2 ** 20, 1)} MiB ` +
        `(${heapGrowth >= 0 ? "+" : ""}${fix(heapGrowth, 1)}%), max ${fix(Math.max(...heap) / 2 ** 20, 1)} MiB`,
    );
    console.log(
      `goal: RSS flat within ${LIMIT * 100}% over ${int.format(reviews)} reviews: ${flat ? "met" : "NOT met"}`,
    );
    if (!flat || failures > 0) process.exitCode = 1;
  } finally {
    const code = await server.stop();
    rmSync(dir, { recursive: true, force: true });
    if (code !== 0) process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
});
