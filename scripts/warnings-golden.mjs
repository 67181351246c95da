#!/usr/bin/env node
// Regenerates test/support/golden/ip-warnings.json: IP and CIDR values in the
// forms the API server warns about (leading zeros in octets and prefix
// lengths, IPv4-mapped IPv6 in dotted and hex form, host bits past the prefix,
// IPv6 in upper case, uncompressed, compressed at the wrong run, padded
// fields), canonical values, and values the parser refuses, each with the
// warnings our own Go program, scripts/warnings-oracle, gives on Go's net and
// net/netip:
//
//   apt-get install -y golang-go
//   node scripts/warnings-golden.mjs
//
// test/networking/validation/warnings.test.ts checks clusterwire against the
// file without needing Go.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "test/support/golden/ip-warnings.json");

// A fixed-seed generator (mulberry32), so the corpus is the same on every run.
let seed = 0x5eed1;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n) => Math.floor(random() * n);
const pick = (xs) => xs[int(xs.length)];

function octets(zeros) {
  return Array.from({ length: 4 }, () => {
    const n = pick([0, 1, 10, 255, int(256)]);
    return "0".repeat(zeros ? pick([0, 0, 1, 2]) : 0) + String(n);
  }).join(".");
}

function ipv6() {
  const fields = Array.from({ length: 8 }, () => (random() < 0.45 ? 0 : pick([1, 0xff, 0xffff, int(0x10000)])));
  const upper = random() < 0.2;
  const written = fields.map((f) => {
    const hex = f.toString(16);
    const padded = "0".repeat(Math.min(pick([0, 0, 0, 1, 2]), 5 - hex.length)) + hex;
    return upper && random() < 0.5 ? padded.toUpperCase() : padded;
  });
  const runs = [];
  for (let i = 0; i < 8; i++) for (let j = i; j < 8 && fields[j] === 0; j++) runs.push([i, j + 1]);
  const run = random() < 0.2 || runs.length === 0 ? undefined : pick(runs);
  if (run === undefined) return written.join(":");
  return `${written.slice(0, run[0]).join(":")}::${written.slice(run[1]).join(":")}`;
}

function address() {
  switch (int(5)) {
    case 0:
    case 1:
      return { text: octets(random() < 0.5), bits: 32 };
    case 2:
      return { text: `::${pick(["ffff", "FFFF", "ffff"])}:${octets(random() < 0.3)}`, bits: 128 };
    case 3:
      return {
        text: pick(["::ffff:", "0:0:0:0:0:ffff:", "::"]) + `${int(0x10000).toString(16)}:${int(0x10000).toString(16)}`,
        bits: 128,
      };
    default:
      return { text: ipv6(), bits: 128 };
  }
}

function prefix(bits) {
  const n = pick([0, bits, int(bits + 1), int(bits + 1), Math.max(bits - 8, 0)]);
  return (random() < 0.15 ? "0" : "") + String(n);
}

const values = [];
const seen = new Set();
const add = (kind, value) => {
  const key = `${kind} ${value}`;
  if (seen.has(key)) return;
  seen.add(key);
  values.push({ kind, value });
};

for (let i = 0; i < 700; i++) {
  const a = address();
  add("ip", a.text);
  add("cidr", `${a.text}/${prefix(a.bits)}`);
  // A full-length prefix has no host bits, so the other warnings show on their own.
  add("cidr", `${a.text}/${a.bits}`);
}
for (const edge of [
  "",
  "1.2.3",
  "1.2.3.4.5",
  "256.1.1.1",
  "[::1]",
  " 1.2.3.4",
  "1.2.3.4 ",
  "0x1.2.3.4",
  "fe80::1%eth0",
  "::ffff:1.2.3.4%eth0",
  "1::2::3",
  "12345::1",
  "1:2:3:4:5:6:7:8:9",
  "::1.2.3.4",
  "1:2:3:4:5:6:1.2.3.4",
  "::ffff:0:1.2.3.4",
  "0.0.0.0",
  "::",
]) {
  add("ip", edge);
  for (const p of ["", "/", "/0", "/00", "/8", "/32", "/33", "/96", "/128", "/129", "/-1", "/+8", "/ 8", "/8/8"]) {
    add("cidr", edge + p);
  }
}

const go = spawnSync("go", ["run", "./scripts/warnings-oracle"], {
  cwd: root,
  input: JSON.stringify(values),
  env: { ...process.env, GO111MODULE: "off", GOCACHE: process.env.GOCACHE ?? "/tmp/clusterwire-gocache" },
  maxBuffer: 64 * 1024 * 1024,
});
if (go.status !== 0) {
  console.error(`warnings-golden: go run failed (is golang-go installed?): ${go.stderr?.toString() ?? go.error}`);
  process.exit(1);
}
const answers = JSON.parse(go.stdout.toString());
const golden = values.map((v, i) => ({ ...v, warnings: answers[i] }));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `[\n${golden.map((g) => JSON.stringify(g)).join(",\n")}\n]\n`);
const warned = golden.filter((g) => g.warnings.length > 0).length;
console.log(`warnings-golden: ${golden.length} values, ${warned} with warnings -> ${out}`);
