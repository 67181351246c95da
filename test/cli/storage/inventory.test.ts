// The inventory of `clusterwire storage serve --inventory FILE`: JSON or YAML checked by the
// library's checkInventory, each problem located by line and column.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CliError, EXIT_USAGE } from "../../../src/cli/shared/io.js";
import { loadInventory } from "../../../src/cli/storage/inventory.js";
import { MAGIC } from "../../../src/networking/index.js";
import { REPO, cli, expectNoStack } from "../../support/cli/harness.js";

const tmp = mkdtempSync(join(tmpdir(), "clusterwire-inventory-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const io = { stdout: { write: () => {} }, stderr: { write: () => {} }, cwd: REPO };

describe("loadInventory", () => {
  const write = (name: string, text: string): string => {
    const path = join(tmp, name);
    writeFileSync(path, text);
    return path;
  };

  it("reads the example inventory, sizes with suffixes as bytes", async () => {
    const inv = await loadInventory(
      { stdout: { write: () => {} }, stderr: { write: () => {} }, cwd: REPO },
      "examples/storage/inventory.yaml",
    );
    expect(inv.svms?.map((s) => s.name)).toEqual(["shop", "shop-dr"]);
    expect(inv.volumes?.[0]).toMatchObject({
      name: "catalog",
      size: 500 * 1024 ** 3,
      qtrees: ["images", "thumbnails"],
    });
  });

  it.each([
    [
      "typo.yaml",
      "svms:\n  - name: a\nvolumes:\n  - name: v\n    svm: a\n    sise: 10G\n",
      /typo\.yaml: inventory error at line 6, column 5, field volumes\[0\]\.sise: unknown field "sise"/,
    ],
    [
      "ref.yaml",
      "svms:\n  - name: a\nvolumes:\n  - name: v\n    svm: b\n",
      /ref\.yaml: inventory error at line 5, column 10, field volumes\[0\]\.svm: SVM "b" is not in svms \(a\)/,
    ],
    [
      "size.yaml",
      "luns:\n  - name: /vol/vol1/l\n    svm: svm1\n    os_type: linux\n    size: 1.5G\n",
      /line 5, column 11, field luns\[0\]\.size: must be a size/,
    ],
    [
      "aggr.yaml",
      "volumes:\n  - name: v\n    svm: svm1\n    aggregates: [aggr1, aggr9]\n",
      /aggr\.yaml: inventory error at line 4, column 25, field volumes\[0\]\.aggregates\[1\]: aggregate "aggr9" is not in aggregates/,
    ],
    [
      "dup.yaml",
      "svms:\n  - name: a\n  - name: a\n",
      /dup\.yaml: inventory error at line 3, column 11, field svms\[1\]\.name: duplicate name "a"/,
    ],
    [
      "lun.yaml",
      "luns:\n  - name: lun1\n    svm: svm1\n    os_type: linux\n    size: 1G\n",
      /lun\.yaml: inventory error at line 2, column 11, field luns\[0\]\.name: must be a LUN path/,
    ],
    ["top.yaml", "- nodes\n", /top\.yaml: inventory error at line 1, column 1: the inventory must be a mapping/],
    [
      "syntax.yaml",
      "svms: [a\nb: 1\n",
      /syntax\.yaml: inventory error at line 2, column 2: yaml: did not find expected/,
    ],
    ["two.yaml", "svms: []\n---\nnodes: []\n", /two\.yaml: inventory error at line 3: 2 YAML documents/],
    ["empty.yaml", "# nothing\n", /empty\.yaml: the inventory file is empty/],
    [
      "deep.json",
      "[".repeat(100_000),
      /deep\.json: inventory error at line 1, column \d+: json: nesting deeper than \d+/,
    ],
    [
      "comma.json",
      '{"svms": [{"name": "a"},\n ]}',
      /comma\.json: inventory error at line 2, column 2: json: invalid character "]" looking for beginning of value/,
    ],
    [
      "ref.json",
      '{"svms": [{"name": "a"}],\n "volumes": [{"name": "v", "svm": "zz"}]}',
      /ref\.json: inventory error at line 2, column 35, field volumes\[0\]\.svm: SVM "zz"/,
    ],
  ])("rejects %s with exit 2 and a located error", async (name, text, want) => {
    const r = await cli(["storage", "serve", "--inventory", write(name, text)]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(want);
    expectNoStack(r);
  });

  it("lists every problem, one per line", async () => {
    const r = await cli(["storage", "serve", "--inventory", write("many.yaml", "foo: 1\nnodes:\n  - model: x\n")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `clusterwire: ${join(tmp, "many.yaml")}: 2 inventory errors:\n` +
        '  line 1, column 1, field foo: unknown field "foo"; expected cluster, nodes, svms, aggregates, volumes, luns\n' +
        '  line 3, column 5, field nodes[0]: missing required field "name"\n',
    );
  });

  it("reads JSON as it reads YAML", async () => {
    const path = write("inv.json", '{"svms": [{"name": "a"}], "volumes": [{"name": "v", "svm": "a", "size": "1G"}]}');
    const inv = await loadInventory(io, path);
    expect(inv.svms?.map((s) => s.name)).toEqual(["a"]);
    expect(inv.volumes?.[0]).toMatchObject({ name: "v", svm: "a", size: 1024 ** 3 });
  });

  it("refuses protobuf, text that is not UTF-8, and a file it cannot read, with exit 2", async () => {
    const failure = async (path: string): Promise<CliError> => {
      const e = await loadInventory(io, path).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(CliError);
      expect((e as CliError).exitCode).toBe(EXIT_USAGE);
      return e as CliError;
    };
    const pb = join(tmp, "inv.pb");
    writeFileSync(pb, Uint8Array.from([...MAGIC, 1, 2]));
    expect((await failure(pb)).message).toBe(`${pb}: an inventory is JSON or YAML, not protobuf`);
    const latin1 = join(tmp, "latin1.yaml");
    writeFileSync(latin1, Uint8Array.of(0x6e, 0x3a, 0x20, 0xe9, 0x0a));
    expect((await failure(latin1)).message).toMatch(/latin1\.yaml: not valid UTF-8, so not YAML text/);
    // The command exits 2 for it, as its help says of an unreadable file.
    const r = await cli(["storage", "serve", "--inventory", latin1]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not valid UTF-8");
    expect((await failure("no/such.yaml")).message).toBe("no/such.yaml: cannot read: no such file or directory");
  });
});
