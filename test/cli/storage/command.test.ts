import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadInventory } from "../../../src/cli/storage/inventory.js";
import { StorageClient } from "../../../src/storage/index.js";
import { DEFAULT_INVENTORY } from "../../../src/storage/server/index.js";
import { REPO, type Serving, cli, expectNoStack, serve as serveCli } from "../../support/cli/harness.js";
import { notManifestLine } from "../../support/cli/validate.js";

// `clusterwire storage serve` runs in-process like every CLI test: it stops when
// io.signal aborts, and the test reads the URL from what it printed.

const tmp = mkdtempSync(join(tmpdir(), "clusterwire-storage-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Starts `storage serve ARGS` and waits for its URL line (or its early exit). */
const serve = (args: string[], env: Record<string, string> = {}): Promise<Serving> =>
  serveCli(["storage", "serve", ...args], { env });

const basic = (user: string, pass: string): string => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

describe("storage serve", () => {
  it("starts, answers an authenticated request, logs it, and stops on abort with exit 0", async () => {
    const s = await serve(["--port", "0", "--job-ms", "50"]);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await fetch(`${s.url}/api/cluster/nodes`, { headers: { authorization: basic("admin", "clusterwire") } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { records: { name: string }[] }).records.map((r) => r.name)).toEqual([
      "node1",
      "node2",
    ]);
    const denied = await fetch(`${s.url}/api/cluster/nodes`, { headers: { authorization: basic("admin", "wrong") } });
    expect(denied.status).toBe(401);
    await denied.text();
    expect(await s.stop()).toBe(0);
    expect(s.stdout()).toBe(
      [
        `Storage reference server listening on ${s.url} (API under ${s.url}/api)`,
        "username: admin",
        "password: clusterwire (the well-known default; use --password-env VAR to set your own)",
        "Stop it with Ctrl-C (SIGINT) or SIGTERM.",
        "",
      ].join("\n"),
    );
    expect(s.stderr()).toBe(
      "GET /api/cluster/nodes 200\nGET /api/cluster/nodes 401\nclusterwire storage serve: stopping\n",
    );
    // Stopped means stopped: the port no longer answers.
    await expect(fetch(`${s.url}/api/cluster/nodes`)).rejects.toThrow();
  });

  it("serves the inventory file, and never prints a password from --password-env", async () => {
    const secret = "Sh0p-Adm1n-pw!";
    const s = await serve(
      ["--inventory", "examples/storage/inventory.yaml", "--username", "ops", "--password-env", "SHOP_PW"],
      { SHOP_PW: secret },
    );
    const auth = { authorization: basic("ops", secret) };
    const svms = await fetch(`${s.url}/api/svm/svms`, { headers: auth });
    expect(((await svms.json()) as { records: { name: string }[] }).records.map((r) => r.name)).toEqual([
      "shop",
      "shop-dr",
    ]);
    // A request that carries the password in its path and query: the log shows neither.
    const odd = await fetch(`${s.url}/api/${encodeURIComponent(secret)}?password=${encodeURIComponent(secret)}`, {
      headers: auth,
    });
    expect(odd.status).toBe(404);
    await odd.text();
    expect(await s.stop()).toBe(0);
    expect(s.stdout()).toContain("username: ops\npassword: from $SHOP_PW (not shown)\n");
    for (const text of [s.stdout(), s.stderr()]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
      expect(text).not.toContain(Buffer.from(`ops:${secret}`).toString("base64"));
    }
    expect(s.stderr()).toContain("GET /api/svm/svms 200\n");
  });

  it("refuses a missing --password-env variable and half an HTTPS pair with exit 2", async () => {
    const unset = await cli(["storage", "serve", "--password-env", "CLUSTERWIRE_TEST_UNSET_VARIABLE"]);
    expect(unset).toMatchObject({ code: 2, stdout: "" });
    expect(unset.stderr).toContain(
      "--password-env CLUSTERWIRE_TEST_UNSET_VARIABLE: the environment variable is not set or empty",
    );
    const half = await cli(["storage", "serve", "--https-key", "key.pem"]);
    expect(half.code).toBe(2);
    expect(half.stderr).toContain("--https-key and --https-cert go together");
    for (const [args, want] of [
      [["--port", "70000"], /--port must be a whole number from 0 to 65535, got "70000"/],
      [["--job-ms", "-1"], /--job-ms/],
      [["--username", "a:b"], /--username must be non-empty and without ':'/],
      [["extra"], /unexpected argument "extra"/],
    ] as const) {
      const r = await cli(["storage", "serve", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(want);
      expectNoStack(r);
    }
  });

  it("exits 1 when the port is taken", async () => {
    const s = await serve([]);
    const port = new URL(s.url).port;
    const r = await cli(["storage", "serve", "--port", port]);
    await s.stop();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`clusterwire: cannot listen on 127.0.0.1:${port}: the port is in use\n`);
  });
});

describe("storage serve --inventory", () => {
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

  it("is not a manifest: validate skips it with a note, the demo passes storage/ by", async () => {
    const v = await cli(["validate", "examples/storage"]);
    expect(v).toMatchObject({ code: 0, stderr: "" });
    expect(v.stdout).toContain(`${notManifestLine("examples/storage/inventory.yaml")}\n`);
    const d = await cli(["demo", "--no-storage", "examples"]);
    expect(d.code).toBe(0);
    expect(d.stdout).not.toContain("storage/");
  });
});

describe("storage serve: the seeded inventory", () => {
  const GiB = 1024 ** 3;

  it("the help describes what the server seeds: names, sizes, uuids and software versions", async () => {
    const help = (await cli(["storage", "serve", "--help"])).stdout;
    const flat = help.replace(/\s+/g, " ");
    const inv = DEFAULT_INVENTORY;
    expect(flat).toContain(`cluster ${inv.cluster.name}`);
    expect(flat).toContain(`nodes ${inv.nodes.map((n) => n.name).join(", ")} (model sim)`);
    expect(flat).toContain(`SVMs ${inv.svms.map((n) => n.name).join(", ")}`);
    for (const a of inv.aggregates) expect(flat).toContain(`${a.name} (on ${a.node})`);
    for (const v of inv.volumes) {
      const at = flat.indexOf(`${v.name} (${v.svm}, ${(v.size ?? 0) / GiB} GiB`);
      expect(at, v.name).toBeGreaterThan(0);
      if (v.path !== undefined) expect(flat.slice(at, at + 60)).toContain(v.path);
    }
    for (const l of inv.luns) expect(flat).toContain(l.name);
    expect(inv.luns.every((l) => l.size === GiB && l.svm === "svm1")).toBe(true);
    expect(flat).toContain("node1 is ...-a00000000001");
    expect(inv.nodes[0]?.uuid).toMatch(/-a00000000001$/);
    expect(flat).toContain("9.14.1 installed; packages 9.15.1");
    expect(help).not.toMatch(/interface spec|shared\//);
  });

  it("serves that inventory over the API, as a StorageClient lists it", async () => {
    const s = await serve(["--port", "0"]);
    const client = new StorageClient({
      baseUrl: s.url,
      username: "admin",
      password: "clusterwire",
      allowInsecureHttp: true,
    });
    try {
      expect((await client.svms.all()).map((x) => x.name)).toEqual(DEFAULT_INVENTORY.svms.map((x) => x.name));
      expect((await client.nodes.all({ fields: "*" })).map((x) => [x.name, x.uuid, x.model])).toEqual(
        DEFAULT_INVENTORY.nodes.map((x) => [x.name, x.uuid, "sim"]),
      );
      const volumes = await client.request("GET", "/api/storage/volumes", { query: { fields: "name,size,svm.name" } });
      expect(
        (volumes as { records: { name: string; size: number; svm: { name: string } }[] }).records.map((v) => [
          v.name,
          v.svm.name,
          v.size / GiB,
        ]),
      ).toEqual([
        ["vol1", "svm1", 100],
        ["vol2", "svm1", 20],
        ["vol3", "svm2", 50],
        ["fg1", "svm1", 200],
        ["vol_offline", "svm1", 10],
      ]);
      const versions = await client.software.packages.all();
      expect(versions.map((p) => p.version)).toEqual(["9.15.1", "9.16.1"]);
      expect((await client.software.get()).version).toBe("9.14.1");
    } finally {
      client.close();
      expect(await s.stop()).toBe(0);
    }
  });
});

describe("storage command group", () => {
  it("prints its help, and usage errors for a missing or unknown subcommand", async () => {
    const help = await cli(["storage", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: clusterwire storage <subcommand>/);
    expect(help.stdout).toContain("\n  serve  run the storage REST API reference server until stopped\n");
    expect((await cli(["help", "storage"])).stdout).toBe(help.stdout);
    const serveHelp = await cli(["storage", "serve", "--help"]);
    expect(serveHelp.stdout).toMatch(/^Usage: clusterwire storage serve \[options\]/);
    expect((await cli(["help", "storage", "serve"])).stdout).toBe(serveHelp.stdout);
    expect((await cli(["storage", "help", "serve"])).stdout).toBe(serveHelp.stdout);
    const none = await cli(["storage"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`${help.stdout}`);
    const bad = await cli(["storage", "frob"]);
    expect(bad).toMatchObject({
      code: 2,
      stderr:
        "clusterwire: unknown subcommand \"frob\"; subcommands: serve\nRun 'clusterwire storage --help' for usage.\n",
    });
  });
});
