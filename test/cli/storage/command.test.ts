import { describe, expect, it } from "vitest";
import { StorageClient } from "../../../src/storage/index.js";
import { DEFAULT_INVENTORY } from "../../../src/storage/server/index.js";
import { type Serving, cli, expectNoStack, serve as serveCli } from "../../support/cli/harness.js";
import { notManifestLine } from "../../support/cli/validate.js";

// `clusterwire storage serve` runs in-process like every CLI test: it stops when
// io.signal aborts, and the test reads the URL from what it printed.

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
