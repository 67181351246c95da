import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run, type CliIO } from "../../../src/cli/main.js";
import { REPO, cli, expectNoStack } from "../../support/cli/harness.js";
import { HEADER, LABELS, grid } from "../../support/cli/shop.js";
import { notManifestLine } from "../../support/cli/validate.js";

// clusterwire reach and the cluster file format, run in-process. The expected
// tables and verdicts are worked out from ../shared/docs/semantics.md §1.2 for
// examples/clusters/shop.yaml and the small files written here.

const EXAMPLES = join(REPO, "examples");
const SHOP = "examples/clusters/shop.yaml";
const tmp = mkdtempSync(join(tmpdir(), "clusterwire-reach-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

/** Runs the CLI with a chosen environment and terminal-ness of stdout. */
async function cliEnv(argv: string[], env: Record<string, string>, isTTY: boolean): Promise<string> {
  let out = "";
  const io: CliIO = {
    stdout: { write: (c) => (out += String(c)), isTTY },
    stderr: { write: () => undefined },
    cwd: REPO,
    env,
  };
  expect(await run(argv, io)).toBe(0);
  return out;
}

describe("reach: truth table", () => {
  it("prints TCP 8080 for the shop: rows are sources, columns destinations", async () => {
    const r = await cli(["reach", SHOP, "--port", "8080"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      "TCP port 8080: rows are sources, columns destinations; ✓ allowed, · denied",
      HEADER,
      ...grid([
        "✓✓····✓✓", // not isolated for egress; the storefront admits the controller on its "http" port (E8)
        "·✓✓✓····", // shop egress: only shop pods on 8080; the backends admit the storefront
        "··✓·····", // the storefront admits only the controller, checkout only the storefront
        "···✓····",
        "✓···✓·✓✓", // data admits only 5432/9200, so not itself on 8080 (self aside, E13)
        "✓····✓✓✓",
        "✓·····✓✓",
        "✓✓····✓✓", // hostNetwork: node-local to the storefront on its node (E11), selectors never match it (E12)
      ]),
      "24 of 64 pairs allowed",
    ]);
  });

  it("defaults to TCP port 80 and takes --protocol in any case", async () => {
    const tcp80 = await cli(["reach", SHOP]);
    expect(lines(tcp80.stdout)[0]).toBe("TCP port 80: rows are sources, columns destinations; ✓ allowed, · denied");
    // UDP 53: shop pods reach coredns by the DNS rule; kube-system and ingress-nginx admit everything.
    const udp = await cli(["reach", SHOP, "--protocol", "udp", "--port", "53"]);
    expect(lines(udp.stdout).slice(2, 10)).toEqual(
      grid(["✓·····✓✓", "·✓····✓·", "··✓···✓·", "···✓··✓·", "✓···✓·✓✓", "✓····✓✓✓", "✓·····✓✓", "✓✓····✓✓"]),
    );
    expect(lines(udp.stdout).at(-1)).toBe("24 of 64 pairs allowed");
  });

  it("colours glyphs on a terminal only, and never with NO_COLOR", async () => {
    const argv = ["reach", SHOP, "--port", "8080"];
    const coloured = await cliEnv(argv, {}, true);
    expect(coloured).toContain("\u001b[32m✓\u001b[0m");
    expect(coloured).toContain("\u001b[2m·\u001b[0m");
    expect(await cliEnv(argv, { NO_COLOR: "1" }, true)).not.toContain("\u001b[");
    expect(await cliEnv(argv, { TERM: "dumb" }, true)).not.toContain("\u001b[");
    expect(await cliEnv(argv, {}, false)).not.toContain("\u001b[");
  });

  it("prints JSON: protocol, port, pods, table[from][to] and skipped", async () => {
    const r = await cli(["reach", SHOP, "--port", "5432", "-o", "json"]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as {
      protocol: string;
      port: number;
      pods: string[];
      table: Record<string, Record<string, string>>;
      skipped: unknown[];
    };
    expect(Object.keys(body)).toEqual(["protocol", "port", "pods", "table", "skipped"]);
    expect(body).toMatchObject({ protocol: "TCP", port: 5432, skipped: [] });
    expect(body.pods).toEqual(LABELS.map((l) => l.trim().split(/\s+/)[1]));
    // The except block 10.0.1.0/24 keeps the storefront out of data even though its egress allows it (E7).
    expect(body.table["shop/storefront-6c5d"]?.["data/postgres-0"]).toBe("deny");
    expect(body.table["shop/catalog-5f7b"]?.["data/postgres-0"]).toBe("allow");
    expect(body.table["kube-system/coredns-5d78"]?.["data/opensearch-0"]).toBe("allow");
    expect(body.table["kube-system/node-exporter-n1"]?.["data/postgres-0"]).toBe("deny");
    const count = Object.values(body.table)
      .flatMap((row) => Object.values(row))
      .filter((c) => c === "allow").length;
    expect(count).toBe(29);
  });

  it("writes the HTML heatmap to --out, with every pod and the reasons", async () => {
    const out = join(mkdtempSync(join(tmp, "html-")), "shop.html");
    const r = await cli(["reach", SHOP, "--port", "8080", "--output", "html", "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`clusterwire: wrote ${out}: 24 of 64 pairs allowed\n`);
    const html = readFileSync(out, "utf8");
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain("examples/clusters/shop.yaml: TCP port 8080");
    for (const l of LABELS) expect(html).toContain(l.trim().split(/\s+/)[1]);
    const data = JSON.parse(
      /<script type="application\/json" id="heatmap-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "null",
    ) as { explain: unknown; port: number };
    expect(data.port).toBe(8080);
    expect(data.explain).not.toBeNull();
    // --out - writes the page to standard output.
    const piped = await cli(["reach", SHOP, "--port", "8080", "-o", "html", "--out", "-"]);
    expect(piped.stdout).toBe(html);
  });
});

describe("reach: one connection", () => {
  it.each([
    [
      ["--from", "shop/catalog-5f7b", "--to", "kube-system/coredns-5d78", "--protocol", "UDP", "--port", "dns"],
      [
        "shop/catalog-5f7b -> kube-system/coredns-5d78, UDP port 53 (dns): allow",
        "  egress   allowed by spec.egress[0] of shop/egress",
        "  ingress  not isolated: no NetworkPolicy in kube-system selects kube-system/coredns-5d78 for ingress, so all ingress is allowed",
      ],
    ],
    [
      ["--from", "shop/checkout-84c2", "--to", "10.20.0.5", "--port", "443"],
      [
        "shop/checkout-84c2 -> 10.20.0.5, TCP port 443: deny",
        "  egress   denied: shop/checkout-84c2 is isolated for egress by shop/default-deny, shop/egress, and no egress rule of theirs matches",
        "  ingress  not applicable: 10.20.0.5 is an address, not a pod",
      ],
    ],
    [
      ["--from", "kube-system/node-exporter-n1", "--to", "shop/storefront-6c5d", "--port", "http"],
      [
        "kube-system/node-exporter-n1 -> shop/storefront-6c5d, TCP port 8080 (http): allow",
        "  egress   not applicable: kube-system/node-exporter-n1 is a hostNetwork pod, which no policy selects (E12)",
        "  ingress  node-local: kube-system/node-exporter-n1 is shop/storefront-6c5d's node (192.168.0.11), so the ingress check is skipped (E11)",
      ],
    ],
    [
      ["--from", "shop/storefront-6c5d", "--to", "shop/storefront-6c5d", "--port", "1"],
      [
        "shop/storefront-6c5d -> shop/storefront-6c5d, TCP port 1: allow",
        "  egress   self: a pod's traffic to itself is always allowed (E13)",
        "  ingress  self: a pod's traffic to itself is always allowed (E13)",
      ],
    ],
    [
      ["--from", "shop/storefront-6c5d", "--to", "data/postgres-0", "--port", "postgres"],
      [
        "shop/storefront-6c5d -> data/postgres-0, TCP port 5432 (postgres): deny",
        "  egress   allowed by spec.egress[2] of shop/egress",
        "  ingress  denied: data/postgres-0 is isolated for ingress by data/from-backends, and no ingress rule of it matches",
      ],
    ],
  ])("%j", async (args, expected) => {
    const r = await cli(["reach", SHOP, ...args]);
    expect(r.code).toBe(0); // a deny is an answer, not a failure
    expect(r.stderr).toBe("");
    expect(lines(r.stdout)).toEqual(expected);
  });

  it("prints the Decision as JSON", async () => {
    const r = await cli([
      "reach",
      SHOP,
      "--from",
      "ingress-nginx/controller-7d9f",
      "--to",
      "shop/storefront-6c5d",
      "--port",
      "http",
      "-o",
      "json",
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      allowed: true,
      protocol: "TCP",
      port: 8080,
      egress: { verdict: "not-isolated", policies: [] },
      ingress: { verdict: "allowed-by-rule", policies: [{ policy: "shop/storefront-from-ingress", rules: [0] }] },
      skipped: [],
    });
  });

  it.each([
    [["--from", "shop/nope", "--to", "1.2.3.4", "--port", "80"], '--from: no pod "shop/nope" in the cluster'],
    [
      ["--from", "shop/catalog-5f7b", "--to", "web", "--port", "80"],
      '--to: "web" is not an IP address; give a pod as namespace/name, or an IP address',
    ],
    [
      ["--from", "shop/catalog-5f7b", "--to", "1.2.3.4", "--port", "http"],
      '--port: the port name "http" needs a pod destination to resolve on',
    ],
    [
      ["--from", "shop/catalog-5f7b", "--to", "data/postgres-0", "--port", "http"],
      '--port: pod "data/postgres-0" declares no TCP port named "http"',
    ],
    [
      ["--from", "shop/catalog-5f7b", "--port", "80"],
      "--from and --to go together: give both to explain one connection",
    ],
    [
      ["--from", "a/b", "--to", "c/d", "-o", "html", "--out", "x.html"],
      "--output html draws the truth table; leave out --from/--to",
    ],
    [
      ["--port", "http"],
      '--port must be a number for the truth table, got "http"; a port name is resolved on one destination pod, so it needs --from and --to',
    ],
    [["--port", "65536"], "--port must be from 1 to 65535, got 65536"],
    [["--protocol", "ICMP"], '--protocol must be one of TCP, UDP, SCTP, got "ICMP"'],
    [["-o", "html"], "--output html needs --out FILE (or --out - for standard output)"],
    [["-o", "csv"], '--output must be text, json or html, got "csv"'],
  ])("usage error %j", async (args, message) => {
    const r = await cli(["reach", SHOP, ...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toEqual([`clusterwire: ${message}`, "Run 'clusterwire reach --help' for usage."]);
  });
});

describe("reach: cluster files", () => {
  const POD = (ns: string, name: string, ip: string) => `  - namespace: ${ns}\n    name: ${name}\n    ip: ${ip}\n`;

  it.each([
    [
      "an unknown key, at the key",
      "namespaces:\n  - name: shop\n    lables: {app: web}\npods: []\n",
      'x.yaml:3:5: namespaces[0].lables: unknown field "lables"; known fields: name, labels',
    ],
    [
      "a bad IP",
      `namespaces:\n  - name: shop\npods:\n${POD("shop", "web", "10.0.0.300")}`,
      'x.yaml:6:9: pods[0].ip: "10.0.0.300" is not an IP address',
    ],
    [
      "bad YAML",
      "namespaces:\n  - name: shop\npods:\n  - namespace: [shop\n",
      "x.yaml:5:1: yaml: did not find expected ',' or ']'",
    ],
    [
      "a namespace that is not listed",
      `namespaces:\n  - name: shop\npods:\n${POD("data", "db", "10.0.0.1")}`,
      'x.yaml:4:16: pods[0].namespace: namespace "data" is not listed in namespaces',
    ],
    [
      "a missing namespace field",
      "namespaces: []\npods:\n  - name: db\n    ip: 10.0.0.1\n",
      'x.yaml:3:5: pods[0]: missing required field "namespace"',
    ],
    [
      "a duplicate pod",
      `namespaces:\n  - name: shop\npods:\n${POD("shop", "a", "10.0.0.1")}${POD("shop", "a", "10.0.0.2")}`,
      'x.yaml:8:11: pods[1].name: duplicate pod "shop/a"',
    ],
    [
      "a hostIP that differs on a hostNetwork pod",
      `namespaces:\n  - name: ns\npods:\n${POD("ns", "h", "10.0.0.1")}    hostNetwork: true\n    hostIP: 10.0.0.2\n`,
      "x.yaml:8:13: pods[0].hostIP: a hostNetwork pod's ip is its node's IP, so hostIP must equal ip",
    ],
    [
      "a misspelt policy field",
      "namespaces: []\npods: []\npolicies:\n  - metadata: {name: p}\n    spec:\n      podSelectr: {}\n",
      'x.yaml:6:7: policies[0].spec.podSelectr: unknown field "podSelectr"',
    ],
    [
      "a policy of another kind",
      "namespaces: []\npods: []\npolicies:\n  - kind: Ingress\n",
      'x.yaml:4:11: policies[0].kind: must be NetworkPolicy (or left out), got "Ingress"',
    ],
    [
      "a label that is not a string",
      "namespaces:\n  - name: ns\n    labels:\n      tier: 1\npods: []\n",
      "x.yaml:4:13: namespaces[0].labels.tier: a label value must be a string, got 1 (quote it)",
    ],
    // YAML 1.1, as the API server reads it: a bare n is false.
    [
      "a YAML 1.1 boolean where a string belongs",
      "namespaces:\n  - name: n\npods: []\n",
      "x.yaml:2:11: namespaces[0].name: must be a string, got false (quote it)",
    ],
    [
      "a top level that is a list",
      "- a\n",
      // Without namespaces, pods or policies at its top level a file is read as manifests.
      `x.yaml: no kind: not a Kubernetes manifest; reach reads Kubernetes manifests, or one cluster description (a map with namespaces, pods and policies)`,
    ],
    [
      "two documents",
      "namespaces: []\npods: []\n---\nnamespaces: []\n",
      "x.yaml:4:1: 2 YAML documents; a cluster description is one document",
    ],
    [
      "an empty file",
      "# nothing\n",
      `x.yaml: no documents: empty, or comments only; reach reads Kubernetes manifests, or one cluster description (a map with namespaces, pods and policies)`,
    ],
  ])("%s", async (_what, text, message) => {
    const d = mkdtempSync(join(tmp, "cluster-"));
    writeFileSync(join(d, "x.yaml"), text);
    const r = await cli(["reach", "x.yaml"], { cwd: d });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`clusterwire: ${message}\n`);
    expectNoStack(r);
  });

  it("lists several errors at once, each with its place", async () => {
    const text = [
      "namespaces:",
      "  - name: shop",
      "pods:",
      "  - namespace: shop",
      "    name: web",
      "    ip: 10.0.0.1",
      '    hostNetwork: "yes"',
      "    ports:",
      "      - containerPort: 70000",
      "        protocol: tcp",
      "extra: 1",
      "",
    ].join("\n");
    const r = await cli(["reach", "x.yaml"], { cwd: dirWith("x.yaml", text) });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      "clusterwire: x.yaml: 4 errors in the cluster description:",
      '  x.yaml:11:1: extra: unknown field "extra"; known fields: namespaces, pods, policies',
      '  x.yaml:7:18: pods[0].hostNetwork: must be true or false, got "yes"',
      "  x.yaml:9:24: pods[0].ports[0].containerPort: must be a port number from 1 to 65535, got 70000",
      '  x.yaml:10:19: pods[0].ports[0].protocol: must be one of TCP, UDP, SCTP, got "tcp"',
    ]);
  });

  it("reports a policy the API server would reject on stderr, with its place, and leaves it out, as every answer says", async () => {
    const text = [
      "namespaces:",
      "  - name: ns",
      "pods:",
      "  - {namespace: ns, name: a, ip: 10.0.0.1}",
      "  - {namespace: ns, name: b, ip: 10.0.0.2}",
      "policies:",
      "  - metadata: {name: broken, namespace: ns}",
      "    spec:",
      "      podSelector: {}",
      "      ingress:",
      "        - ports:",
      "            - port: 70000",
      "",
    ].join("\n");
    const d = dirWith("x.yaml", text);
    const r = await cli(["reach", "x.yaml"], { cwd: d });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "clusterwire: skipped NetworkPolicy ns/broken (x.yaml:7:5): spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive\n",
    );
    // Left out, so nothing is isolated; the table says it was computed without it.
    const leftOut = "left out: NetworkPolicy ns/broken (x.yaml:7:5): the API server would reject it (1 error)";
    expect(lines(r.stdout).slice(-2)).toEqual(["4 of 4 pairs allowed", leftOut]);
    // -q silences stderr, not the answer.
    expect(lines((await cli(["reach", "x.yaml", "-q"], { cwd: d })).stdout).at(-1)).toBe(leftOut);
    const explained = await cli(["reach", "x.yaml", "-q", "--from", "ns/a", "--to", "ns/b"], { cwd: d });
    expect(lines(explained.stdout)).toEqual([
      "ns/a -> ns/b, TCP port 80: allow",
      "  egress   not isolated: no NetworkPolicy in ns selects ns/a for egress, so all egress is allowed",
      "  ingress  not isolated: no NetworkPolicy in ns selects ns/b for ingress, so all ingress is allowed",
      leftOut,
    ]);
    const skipped = [
      {
        kind: "NetworkPolicy",
        name: "ns/broken",
        source: "x.yaml:7:5",
        errors: ["spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive"],
      },
    ];
    const json = await cli(["reach", "x.yaml", "-o", "json", "-q"], { cwd: d });
    expect(json.stderr).toBe("");
    expect((JSON.parse(json.stdout) as { skipped: unknown }).skipped).toEqual(skipped);
    const decision = await cli(["reach", "x.yaml", "-o", "json", "-q", "--from", "ns/a", "--to", "ns/b"], { cwd: d });
    expect(JSON.parse(decision.stdout)).toEqual({
      allowed: true,
      protocol: "TCP",
      port: 80,
      egress: { verdict: "not-isolated", policies: [] },
      ingress: { verdict: "not-isolated", policies: [] },
      skipped,
    });
    const html = await cli(["reach", "x.yaml", "-q", "-o", "html", "--out", "-"], { cwd: d });
    expect(html.stdout).toContain("1 input left out:");
    expect(html.stdout).toContain("skipped NetworkPolicy ns/broken (x.yaml:7:5)");
  });

  it("names a second policy of the same namespace/name as left out, and takes the first", async () => {
    const text = [
      "namespaces: [{name: ns}]",
      "pods:",
      "  - {namespace: ns, name: a, ip: 10.0.0.1}",
      "  - {namespace: ns, name: b, ip: 10.0.0.2}",
      "policies:",
      "  - metadata: {name: p, namespace: ns}",
      "    spec: {podSelector: {}, policyTypes: [Ingress]}",
      "  - metadata: {name: p, namespace: ns}",
      "    spec: {podSelector: {}, policyTypes: [Ingress], ingress: [{}]}",
      "",
    ].join("\n");
    const r = await cli(["reach", "x.yaml"], { cwd: dirWith("x.yaml", text) });
    expect(r.code).toBe(0);
    expect(lines(r.stdout).slice(-2)).toEqual([
      "2 of 4 pairs allowed",
      "left out: NetworkPolicy ns/p (x.yaml:8:5): an earlier NetworkPolicy has the same namespace/name",
    ]);
  });

  it("refuses a policy in a namespace the file does not list, as it refuses a pod there", async () => {
    const cluster = "namespaces: [{name: shop}]\npods:\n  - {namespace: shop, name: a, ip: 10.0.0.1}\n";
    const inFile = await cli(["reach", "x.yaml"], {
      cwd: dirWith("x.yaml", `${cluster}policies:\n  - metadata: {name: p, namespace: data}\n`),
    });
    expect(inFile.code).toBe(2);
    expect(inFile.stdout).toBe("");
    expect(inFile.stderr).toBe(
      'clusterwire: x.yaml:5:36: policies[0].metadata.namespace: namespace "data" is not listed in namespaces\n',
    );
    // From --policies it is named by its file and object, not by its place in the engine's list.
    const d = dirWith("c.yaml", cluster);
    writeFileSync(
      join(d, "extra.yaml"),
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: q, namespace: other}\nspec: {podSelector: {}}\n",
    );
    const extra = await cli(["reach", "c.yaml", "--policies", "extra.yaml"], { cwd: d });
    expect(extra.code).toBe(2);
    expect(extra.stderr).toBe(
      'clusterwire: extra.yaml: NetworkPolicy other/q: metadata.namespace: namespace "other" is not listed in namespaces (in c.yaml)\n',
    );
    expectNoStack(extra);
  });

  it("adds policies from --policies files, ignoring other kinds", async () => {
    const cluster =
      "namespaces:\n  - name: shop\npods:\n  - {namespace: shop, name: a, ip: 10.0.0.1}\n  - {namespace: shop, name: b, ip: 10.0.0.2}\n";
    const d = dirWith("c.yaml", cluster);
    cpSync(join(EXAMPLES, "netpol-default-deny.yaml"), join(d, "deny.yaml"));
    cpSync(join(EXAMPLES, "ingress-shop.yaml"), join(d, "ing.yaml"));
    const r = await cli(["reach", "c.yaml", "--policies", "deny.yaml", "--policies", "ing.yaml"], { cwd: d });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("clusterwire: ignored 1 Ingress object in --policies: reach reads NetworkPolicies\n");
    // shop/default-deny-all isolates both pods both ways: only self traffic.
    expect(lines(r.stdout).at(-1)).toBe("2 of 4 pairs allowed");
    const explained = await cli(
      ["reach", "c.yaml", "--policies", "deny.yaml", "--from", "shop/a", "--to", "shop/b", "--port", "80"],
      { cwd: d },
    );
    expect(lines(explained.stdout)[1]).toBe(
      "  egress   denied: shop/a is isolated for egress by shop/default-deny-all, and no egress rule of it matches",
    );
  });

  it("is not a manifest: validate reads it and skips it, and the run stays valid", async () => {
    const r = await cli(["validate", "examples/clusters"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(lines(r.stdout)).toEqual([
      notManifestLine("examples/clusters/shop-expectations.yaml"),
      notManifestLine("examples/clusters/shop.yaml"),
      "Summary: 2 documents in 2 files: 0 valid, 0 invalid, 2 skipped, 0 errors",
    ]);
  });

  it("prints its help", async () => {
    const r = await cli(["reach", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: clusterwire reach \[options\] DIR\|FILE\.\.\./);
    expect(r.stdout).toContain("       clusterwire reach [options] CLUSTER.yaml\n");
    expect((await cli(["--help"])).stdout).toContain(
      "  reach     who may connect to whom under NetworkPolicies: a repository's connectivity, its changes, expectations and lint\n",
    );
  });
});

function dirWith(name: string, content: string): string {
  const d = mkdtempSync(join(tmp, "cluster-"));
  writeFileSync(join(d, name), content);
  return d;
}
