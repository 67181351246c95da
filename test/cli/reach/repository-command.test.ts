// clusterwire reach over repositories of manifests, run in-process: every line of `reach DIR` and
// of `reach --diff BASE HEAD` on the three real repositories of test/fixtures/connectivity
// (SOURCES.md) checked against the plainly written reference (test/support/connectivity/
// reference.ts), then the example shop: its list, one connection explained, its change as text,
// Markdown, JSON, SARIF and DOT, its expectations passing and failing, lint, and the mistakes a
// user makes.

import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTopology, type ManifestFile } from "../../../src/connectivity/index.js";
import { type ConnectivityLine, formatConnectionSet } from "../../../src/networking/index.js";
import { REPO, cli, expectNoStack } from "../../support/cli/harness.js";
import { referenceDiff, referenceLines } from "../../support/connectivity/reference.js";
import { nonEmpty } from "../../support/non-empty.js";
import { parseSarif } from "../../support/sarif.js";

const FIXTURES = "test/fixtures/connectivity";
const SHOP = "examples/connectivity/main";
const NEXT = "examples/connectivity/pull-request";
const tmp = mkdtempSync(join(tmpdir(), "clusterwire-reach-repo-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");
const text = (l: ConnectivityLine): string => `${l.from.key} => ${l.to.key} : ${formatConnectionSet(l.connections)}`;

function filesUnder(dir: string, prefix = ""): ManifestFile[] {
  const out: ManifestFile[] = [];
  for (const d of readdirSync(join(REPO, dir, prefix), { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const name = `${prefix}${d.name}`;
    if (d.isDirectory()) out.push(...filesUnder(dir, `${name}/`));
    else out.push({ name, text: readFileSync(join(REPO, dir, name), "utf8") });
  }
  return out;
}

const repositories = nonEmpty(
  readdirSync(join(REPO, FIXTURES), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort(),
  FIXTURES,
  3,
);

describe("reach on real repositories, line by line against the reference", () => {
  for (const repo of repositories) {
    const revisions = nonEmpty(readdirSync(join(REPO, FIXTURES, repo)).sort(), `${FIXTURES}/${repo}`, 2);
    const input = (rev: string) => readTopology(filesUnder(`${FIXTURES}/${repo}/${rev}`)).input;
    for (const rev of revisions) {
      it(`${repo} at ${rev}: reach lists every connection the reference finds, and no other`, async () => {
        const r = await cli(["reach", "-q", `${FIXTURES}/${repo}/${rev}`]);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        const want = referenceLines(input(rev)).map(text);
        expect(nonEmpty(lines(r.stdout), "lines")).toEqual(want);
      });
    }
    const [base, head] = revisions as [string, string];
    it(`${repo}: reach --diff ${base} ${head} lists every change the reference finds`, async () => {
      const r = await cli([
        "reach",
        "-q",
        "--diff",
        `${FIXTURES}/${repo}/${base}`,
        `${FIXTURES}/${repo}/${head}`,
        "-o",
        "json",
      ]);
      expect(r.stderr).toBe("");
      const got = JSON.parse(r.stdout) as {
        changes: {
          kind: string;
          from: { key: string };
          to: { key: string };
          before: { text: string };
          after: { text: string };
        }[];
      };
      const want = referenceDiff(input(base), input(head));
      expect(r.code).toBe(want.changes.length > 0 ? 3 : 0);
      const key = (c: { kind: string; from: { key: string }; to: { key: string } }) =>
        `${c.kind} ${c.from.key} => ${c.to.key}`;
      expect(nonEmpty(got.changes.map(key), "changes")).toEqual(want.changes.map(key));
      // Before and after, each as the reference words it.
      expect(got.changes.map((c) => `${c.before.text} -> ${c.after.text}`)).toEqual(
        want.changes.map((c) => `${formatConnectionSet(c.before)} -> ${formatConnectionSet(c.after)}`),
      );
    });
  }
});

describe("reach on the example shop", () => {
  it("lists the shop's connections, the ingress controller on the port the Ingress routes to", async () => {
    const r = await cli(["reach", SHOP]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const out = lines(r.stdout);
    expect(out).toContain("shop/Deployment/api => shop/StatefulSet/db : TCP 5432");
    expect(out).toContain("shop/Deployment/web => shop/Deployment/api : TCP 8080");
    expect(out).toContain("ingress-controller/IngressController/ingress-controller => shop/Deployment/web : TCP 8080");
    expect(out).toContain(
      "payments/Deployment/payments => 0.0.0.0/5,8.0.0.0/7,11.0.0.0/8,12.0.0.0/6,16.0.0.0/4,32.0.0.0/3,64.0.0.0/2,128.0.0.0/1 : TCP 443",
    );
    expect(out.filter((l) => l.includes("=> shop/StatefulSet/db"))).toEqual([
      "shop/Deployment/api => shop/StatefulSet/db : TCP 5432",
    ]);
  });

  it("explains one connection by namespace/name", async () => {
    const r = await cli(["reach", SHOP, "-q", "--from", "shop/web", "--to", "shop/db"]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      "shop/Deployment/web => shop/StatefulSet/db : No connections",
      "  ingress denied, isolated by shop/db-from-api, shop/default-deny",
    ]);
  });

  it("shows what the change opens, with the policy that explains it, and exits 3", async () => {
    const r = await cli(["reach", "-q", "--diff", SHOP, NEXT]);
    expect(r.code).toBe(3);
    expect(lines(r.stdout)).toEqual([
      "+ dev/Pod/debug => shop/Deployment/api : All connections",
      "    before: ingress denied, isolated by shop/api-from-web, shop/default-deny",
      "    after: egress not isolated; ingress allowed by shop/api-from-web ingress[1]",
      "+ shop/CronJob/report => dev/Pod/debug : All connections",
      "    before: shop/CronJob/report did not exist yet",
      "    after: egress not isolated; ingress not isolated",
      "+ shop/CronJob/report => shop/Deployment/web : TCP 8080",
      "    before: shop/CronJob/report did not exist yet",
      "    after: egress not isolated; ingress allowed by shop/web-from-ingress ingress[0]",
      "+ shop/CronJob/report => 0.0.0.0/0,::/0 : All connections",
      "    before: shop/CronJob/report did not exist yet",
      "    after: egress not isolated; ingress not isolated",
      "+ workload shop/CronJob/report",
      "4 connections added, 0 removed, 0 changed; 1 workload added, 0 removed.",
    ]);
    expect((await cli(["reach", "-q", "--diff", SHOP, SHOP])).code).toBe(0);
  });

  it("writes the change as Markdown for a pull request, and as SARIF located in the files", async () => {
    const md = await cli(["reach", "-q", "--diff", SHOP, NEXT, "-o", "md"]);
    expect(md.stdout).toContain("| dev/Pod/debug | shop/Deployment/api | All connections |");
    expect(md.stdout).toContain("<details>");
    const sarif = await cli(["reach", "-q", "--diff", SHOP, NEXT, "-o", "sarif"]);
    const log = parseSarif(sarif.stdout);
    const uris = log.runs[0]!.results!.flatMap((res) =>
      (res.locations ?? []).map((l) => l.physicalLocation?.artifactLocation?.uri),
    );
    expect(uris).toContain("examples/connectivity/pull-request/api.yaml");
    const dot = await cli(["reach", "-q", "--diff", SHOP, NEXT, "-o", "dot"]);
    expect(dot.stdout).toMatch(/^digraph /);
  });

  it("judges the expectations: all hold on the shop, one fails on the change, with JUnit", async () => {
    const junit = join(tmp, "expectations.xml");
    const ok = await cli([
      "reach",
      "-q",
      "--expect",
      "examples/connectivity/expectations.yaml",
      "--junit",
      junit,
      SHOP,
    ]);
    expect(ok.code).toBe(0);
    expect(lines(ok.stdout).at(-1)).toBe("5 expectations passed.");
    expect(readFileSync(junit, "utf8")).toContain('tests="5" failures="0"');
    const bad = await cli([
      "reach",
      "-q",
      "--expect",
      "examples/connectivity/expectations.yaml",
      "--junit",
      junit,
      NEXT,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("FAIL  nothing but the storefront calls the api (1 of 5 pairs failed)");
    expect(bad.stdout).toContain("dev/Pod/debug => shop/Deployment/api: All connections allowed");
    expect(readFileSync(junit, "utf8")).toContain('tests="5" failures="1"');
  });

  it("refuses an expectations file with a pattern that matches nothing, naming its line and column", async () => {
    const file = join(tmp, "typo.yaml");
    writeFileSync(file, "expectations:\n  - allow: {from: shop/webb, to: shop/api, port: 8080}\n");
    const r = await cli(["reach", "-q", "--expect", file, SHOP]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/typo\.yaml:2:\d+: expectations\[0\]\.allow\.from: .*shop\/webb/);
    expectNoStack(r);
  });

  it("lints the policies, and silences a warning everywhere or on its object", async () => {
    const r = await cli(["reach", "-q", "--lint", SHOP]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "warning CW1004 namespace-without-default-deny: namespace dev has no default-deny policy for ingress",
    );
    expect(r.stdout).not.toContain("ingress-controller");
    const quiet = await cli(["reach", "-q", "--lint", "--lint-ignore", "CW1004", SHOP]);
    expect(quiet.stdout).not.toContain("CW1004");
    const dir = join(tmp, "annotated");
    cpSync(join(REPO, SHOP), dir, { recursive: true });
    const ns = readFileSync(join(dir, "namespaces.yaml"), "utf8").replace(
      "  name: dev\n",
      '  name: dev\n  annotations: {clusterwire.io/lint-ignore: "CW1004,CW1005,CW1006"}\n',
    );
    writeFileSync(join(dir, "namespaces.yaml"), ns);
    const annotated = await cli(["reach", "-q", "--lint", dir]);
    expect(annotated.stdout).not.toContain("namespace dev has no default-deny");
    const sarif = parseSarif((await cli(["reach", "-q", "--lint", SHOP, "-o", "sarif"])).stdout);
    expect(sarif.runs[0]!.results!.map((res) => res.ruleId)).toContain("CW1004");
    expect((await cli(["reach", "--lint", "--lint-ignore", "CW9999", SHOP])).code).toBe(2);
  });

  it("says what is wrong with the command line", async () => {
    for (const [argv, message] of [
      [["reach", "--diff", SHOP], "--diff takes two paths, BASE and HEAD, got 1"],
      [["reach", "--junit", "x.xml", SHOP], "--junit goes with --expect"],
      [["reach", "--port", "80", SHOP], "--port is for a cluster description"],
      [["reach", SHOP, "--from", "shop/nope", "--to", "shop/api"], "--from shop/nope: no such workload"],
      [["reach", SHOP, "-o", "sarif"], "--output sarif is for --diff"],
      [["reach", "--git", "a...b"], "A...B (a merge base) is not supported"],
    ] as const) {
      const r = await cli([...argv]);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
      expectNoStack(r);
    }
  });

  it("names every document it cannot read, with line and column, and gives no answer", async () => {
    const dir = join(tmp, "broken");
    cpSync(join(REPO, SHOP), dir, { recursive: true });
    writeFileSync(
      join(dir, "bad.yaml"),
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  template:\n    metadata: {labels: [a]}\n",
    );
    const r = await cli(["reach", dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/1 document could not be read, so no answer is given:\n {2}.*bad\.yaml:6:\d+: /);
    expectNoStack(r);
  });
});

describe("reach --git", () => {
  it("compares two revisions of a repository without checking either out", async () => {
    const repo = join(tmp, "git");
    cpSync(join(REPO, SHOP), join(repo, "deploy"), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: repo,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@example.com",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@example.com",
        },
      });
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-q", "-m", "shop");
    cpSync(join(REPO, NEXT), join(repo, "deploy"), { recursive: true });
    git("commit", "-q", "-am", "next");
    const r = await cli(["reach", "-q", "--git", "HEAD~1..HEAD", "deploy"], { cwd: repo });
    expect(r.code).toBe(3);
    expect(lines(r.stdout)[0]).toBe("+ dev/Pod/debug => shop/Deployment/api : All connections");
    // A revision alone is compared with the files on disk.
    expect((await cli(["reach", "-q", "--git", "HEAD", "deploy"], { cwd: repo })).code).toBe(0);
    const sarif = parseSarif(
      (await cli(["reach", "-q", "--git", "HEAD~1..HEAD", "deploy", "-o", "sarif"], { cwd: repo })).stdout,
    );
    // Located by the path in the repository, as code scanning reads it.
    const uris = sarif.runs[0]!.results!.flatMap((res) =>
      (res.locations ?? []).map((l) => l.physicalLocation?.artifactLocation?.uri),
    );
    expect(uris).toContain("deploy/api.yaml");
    const missing = await cli(["reach", "--git", "nope..HEAD", "deploy"], { cwd: repo });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('"nope" is not a revision of this repository');
  });
});
