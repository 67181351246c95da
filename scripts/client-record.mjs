#!/usr/bin/env node
// npm run client-record
//
// Records the client scenario (test/support/client/scenario.ts) against each kube-apiserver this
// repository builds, into test/fixtures/client/<version>.json.gz, which npm test replays
// (test/suites/client-recorded.test.ts). Builds a missing control plane first (Go and the Go
// module proxy; minutes the first time), then runs the live suite
// test/suites/apiserver/client-scenario.test.ts with CLUSTERWIRE_CLIENT_RECORD=1: it starts each
// server, puts the recording proxy in front, runs the scenario through it (its assertions must
// hold), checks the recording holds no token and replays, and only then writes the file.
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildControlPlane, ROOT, VERSIONS } from "./controlplane.mjs";

const { values } = parseArgs({ options: { help: { type: "boolean", short: "h", default: false } } });
if (values.help) {
  console.log(
    `usage: npm run client-record\nwrites test/fixtures/client/<version>.json.gz for ${Object.keys(VERSIONS).join(", ")}`,
  );
  process.exit(0);
}

for (const version of Object.keys(VERSIONS)) {
  try {
    buildControlPlane(version);
  } catch (e) {
    console.error(`client-record: cannot build the control plane ${version}: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}

const run = spawnSync(
  process.execPath,
  [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "test/suites/apiserver/client-scenario.test.ts"],
  { cwd: ROOT, stdio: "inherit", env: { ...process.env, CLUSTERWIRE_CLIENT_RECORD: "1" } },
);
if (run.status !== 0) {
  console.error("client-record: the live scenario failed; a version whose run failed keeps its old recording");
  process.exit(run.status ?? 1);
}
for (const version of Object.keys(VERSIONS)) {
  const file = join("test", "fixtures", "client", `${version}.json.gz`);
  console.log(`${file}: ${statSync(join(ROOT, file)).size} bytes`);
}
