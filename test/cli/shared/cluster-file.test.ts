import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clusterEngine, loadClusterFile, parseClusterFile, parsePath } from "../../../src/cli/shared/cluster-file.js";
import { CliError, EXIT_USAGE } from "../../../src/cli/shared/io.js";
import { fromYaml, type NetworkPolicy } from "../../../src/networking/index.js";
import { REPO } from "../../support/cli/harness.js";

// The cluster description format; its errors through clusterwire reach are in test/cli/reach/command.test.ts.

describe("cluster files", () => {
  it("a file that is not UTF-8, or cannot be read, is an unreadable cluster file: exit 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clusterwire-cluster-file-"));
    try {
      const io = { stdout: { write: () => {} }, stderr: { write: () => {} }, cwd: dir };
      const failure = async (path: string): Promise<CliError> => {
        const e = await loadClusterFile(io, path).catch((x: unknown) => x);
        expect(e).toBeInstanceOf(CliError);
        expect((e as CliError).exitCode).toBe(EXIT_USAGE);
        return e as CliError;
      };
      const latin1 = join(dir, "latin1.yaml");
      writeFileSync(latin1, Uint8Array.of(0x6e, 0x3a, 0x20, 0xe9, 0x0a));
      expect((await failure(latin1)).message).toMatch(/latin1\.yaml: not valid UTF-8, so not YAML text/);
      expect((await failure(join(dir, "missing.yaml"))).message).toMatch(/missing\.yaml: cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the manual's example (docs/cli.md) parses, and behaves as the rules say", () => {
    const manual = readFileSync(join(REPO, "docs", "cli.md"), "utf8");
    const section = manual.slice(manual.indexOf("### Cluster descriptions"));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    const cluster = parseClusterFile("docs/cli.md", yaml);
    expect(cluster.pods.map((p) => `${p.namespace}/${p.name}`)).toEqual(["shop/web", "kube-system/node-exporter"]);
    expect(cluster.policies.map((p) => p.metadata?.name)).toEqual(["default-deny", "dns"]);
    const engine = clusterEngine(cluster);
    const tcp = engine.matrix({ port: 80 });
    // web may send only UDP 53; node-exporter shares web's node, so it gets in (E11).
    expect([tcp.allowed(0, 0), tcp.allowed(0, 1), tcp.allowed(1, 0), tcp.allowed(1, 1)]).toEqual([
      true,
      false,
      true,
      true,
    ]);
    // The DNS rule's namespaceSelector never matches a hostNetwork pod (E6).
    expect(engine.matrix({ protocol: "UDP", port: 53 }).allowed(0, 1)).toBe(false);
  });

  it("splits engine paths into segments", () => {
    expect(parsePath('pods[3].labels["a.b/c"]')).toEqual(["pods", 3, "labels", "a.b/c"]);
    expect(parsePath("namespaces[0].name")).toEqual(["namespaces", 0, "name"]);
  });

  it("an engine input error is located in the cluster file, or named by the --policies file it came from", () => {
    const cluster = parseClusterFile(
      "c.yaml",
      "namespaces: [{name: shop}]\npods: []\npolicies:\n  - metadata: {name: p, namespace: shop}\n",
    );
    const [policy] = fromYaml(
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: q}\nspec: {podSelector: {}}\n",
    ) as NetworkPolicy[];
    const message = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(CliError);
        return (e as CliError).message;
      }
      throw new Error("expected a CliError");
    };
    // Without a namespace the extra policy is in default, which the file does not list.
    expect(message(() => clusterEngine(cluster, [{ policy: policy!, source: "more.yaml (document 2)" }]))).toBe(
      'more.yaml (document 2): NetworkPolicy default/q: metadata.namespace: namespace "default" (a policy without a namespace is in default) is not listed in namespaces (in c.yaml)',
    );
    const inFile = parseClusterFile(
      "c.yaml",
      "namespaces: []\npods: []\npolicies:\n  - metadata: {name: p, namespace: shop}\n",
    );
    expect(message(() => clusterEngine(inFile))).toBe(
      'c.yaml:4:36: policies[0].metadata.namespace: namespace "shop" is not listed in namespaces',
    );
  });
});
