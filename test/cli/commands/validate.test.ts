import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  encode,
  encodeJsonWatchEvent,
  encodeWatchEvent,
  formatFieldError,
  fromYaml,
  toJsonString,
  toStatus,
  validate,
} from "../../../src/networking/index.js";
import { REPO, cli, expectNoStack } from "../../support/cli/harness.js";

const EXAMPLES = join(REPO, "examples");
const tmp = mkdtempSync(join(tmpdir(), "clusterwire-validate-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes files into a fresh directory under tmp and returns its path. */
function dir(files: Record<string, string | Uint8Array>): string {
  const d = mkdtempSync(join(tmp, "case-"));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(d, name, ".."), { recursive: true });
    writeFileSync(join(d, name), content);
  }
  return d;
}

const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

// Upstream's messages, spelled out once.
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** What `clusterwire validate` prints for each file in examples/invalid, checked against the catalogue. */
const INVALID_EXAMPLE_LINES = [
  // Ingress: §5.2 wildcard host, §5.3 absolute path and missing pathType, §5.4 both port forms (on the backend path).
  `examples/invalid/ingress-bad-routes.yaml Ingress shop/promo: spec.rules[0].host: Invalid value: "deals.*.example.com": ${WILDCARD_MSG}`,
  `examples/invalid/ingress-bad-routes.yaml Ingress shop/promo: spec.rules[0].http.paths[0].path: Invalid value: "deals": must be an absolute path`,
  `examples/invalid/ingress-bad-routes.yaml Ingress shop/promo: spec.rules[0].http.paths[1].pathType: Required value: pathType must be specified`,
  `examples/invalid/ingress-bad-routes.yaml Ingress shop/promo: spec.rules[0].http.paths[2].backend: Invalid value: "": cannot set both port name & port number`,
  // IngressClass: §4 name, §6 controller, §6 defaulted Cluster scope with a namespace.
  `examples/invalid/ingressclass-bad.yaml IngressClass Public_Edge: metadata.name: Invalid value: "Public_Edge": ${SUBDOMAIN_MSG}`,
  `examples/invalid/ingressclass-bad.yaml IngressClass Public_Edge: spec.controller: Invalid value: "ingress-nginx": must be a domain-prefixed path (such as "acme.io/foo")`,
  "examples/invalid/ingressclass-bad.yaml IngressClass Public_Edge: spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'",
  // NetworkPolicy: §7.4 except outside cidr, §7.3 ipBlock with a selector (on the peer), §7.2 port range and named port with endPort.
  'examples/invalid/netpol-bad-rules.yaml (document 1) NetworkPolicy shop/payments-egress-broken: spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "198.51.100.0/25": must be a strict subset of `cidr`',
  "examples/invalid/netpol-bad-rules.yaml (document 1) NetworkPolicy shop/payments-egress-broken: spec.egress[0].to[1]: Forbidden: may not specify both ipBlock and another peer",
  "examples/invalid/netpol-bad-rules.yaml (document 2) NetworkPolicy shop/media-relay-broken: spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
  "examples/invalid/netpol-bad-rules.yaml (document 2) NetworkPolicy shop/media-relay-broken: spec.ingress[0].ports[1].endPort: Invalid value: 60999: may not be specified when `port` is non-numeric",
];

const NETPOL = (spec: string, meta = "  name: web\n") =>
  `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n${meta}spec:\n${spec}`;
const INGRESS_CLASS = (controller: string, extra = "") =>
  `apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: edge\n  resourceVersion: "7"\n${extra}spec:\n  controller: ${controller}\n`;
const INGRESS = (opts: { service?: string; secretName?: string; labels?: string; status?: string } = {}) =>
  `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  namespace: shop
  resourceVersion: "12"
${opts.labels ?? ""}spec:
  tls:
    - hosts: [web.example.com]
      secretName: ${opts.secretName ?? "web-tls"}
  rules:
    - host: web.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: ${opts.service ?? "web"}
                port:
                  number: 80
${opts.status ?? ""}`;

describe("validate: the examples", () => {
  const valid = readdirSync(EXAMPLES).filter((f) => /\.(ya?ml|json|jsonl|pb)$/.test(f));

  it.each(valid)("examples/%s is valid", async (file) => {
    const r = await cli(["validate", `examples/${file}`]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(
      out.slice(0, -1).every((l) => l.startsWith(`examples/${file}`) && l.endsWith(": ok")),
      r.stdout,
    ).toBe(true);
    expect(out.at(-1)).toMatch(/^(\d+) objects?: \1 valid, 0 invalid \(0 errors\) in 1 file$/);
  });

  it("prints the API server's errors for examples/invalid, one per line, and exits 1", async () => {
    const r = await cli(["validate", "examples/invalid"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([...INVALID_EXAMPLE_LINES, "4 objects: 0 valid, 4 invalid (11 errors) in 3 files"]);
  });

  it("matches the library: each line is formatFieldError of validate() in the object's namespace", async () => {
    for (const file of readdirSync(join(EXAMPLES, "invalid"))) {
      const objects = fromYaml(readFileSync(join(EXAMPLES, "invalid", file), "utf8"));
      const r = await cli(["validate", `examples/invalid/${file}`]);
      const messages = lines(r.stdout)
        .slice(0, -1)
        .map((l) => l.slice(l.indexOf(": ") + 2));
      expect(messages.length).toBeGreaterThan(0);
      expect(messages).toEqual(objects.flatMap((o) => validate(o, { namespace: "shop" }).map(formatFieldError)));
    }
  });

  it("recurses into directories: examples holds both, and the invalid ones make it exit 1", async () => {
    const r = await cli(["validate", "examples"]);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    for (const l of INVALID_EXAMPLE_LINES) expect(out).toContain(l);
    expect(out).toContain("examples/ingress-shop.yaml Ingress shop/storefront: ok");
    expect(out).toContain("examples/catalog-stack.yaml (document 3) NetworkPolicy shop/catalog-egress: ok");
    expect(out).toContain("examples/ingress-watch.pb (event 3 DELETED) Ingress shop/promo: ok");
    expect(out).toContain("examples/ingress-watch.jsonl (event 1 ADDED) Ingress shop/promo: ok");
    expect(out).toContain("examples/ingressclass-public.yaml IngressClass nginx-public: ok");
    const files = valid.length + readdirSync(join(EXAMPLES, "invalid")).length;
    expect(out.at(-1)).toMatch(
      new RegExp(`^(\\d+) objects: (\\d+) valid, 4 invalid \\(11 errors\\) in ${files} files$`),
    );
    const [, objects, ok] = /^(\d+) objects: (\d+) valid/.exec(out.at(-1) ?? "") ?? [];
    expect(Number(objects) - Number(ok)).toBe(4);
    // The storage inventory directory is skipped, and the run says so.
    expect(r.stderr).toContain("clusterwire: skipped examples/storage/: storage-API files, not Kubernetes manifests");
  });
});

describe("validate: output", () => {
  it("--quiet prints nothing when everything is valid", async () => {
    const r = await cli(["validate", "--quiet", "examples/ingress-shop.yaml", "examples/catalog-stack.yaml"]);
    expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const q = await cli(["validate", "-q", "examples/ingress-shop.yaml"]);
    expect(q).toMatchObject({ code: 0, stdout: "" });
  });

  it("--quiet prints only the errors and the summary when something is invalid", async () => {
    const r = await cli([
      "validate",
      "--quiet",
      "examples/ingress-shop.yaml",
      "examples/invalid/netpol-bad-rules.yaml",
    ]);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      ...INVALID_EXAMPLE_LINES.filter((l) => l.includes("netpol-bad-rules")),
      "3 objects: 1 valid, 2 invalid (4 errors) in 2 files",
    ]);
  });

  it("says object, error and file in the singular when there is one", async () => {
    const r = await cli(["validate", "-"], {
      stdin: NETPOL("  podSelector: {}\n  ingress:\n    - ports:\n        - port: 0\n"),
    });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      "<stdin> NetworkPolicy default/web: spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
      "1 object: 0 valid, 1 invalid (1 error) in 1 file",
    ]);
  });

  it("--output json: one document with an entry per object, the errors, the 422 Status and the counts", async () => {
    for (const flag of ["--output", "-o"]) {
      const r = await cli([
        "validate",
        flag,
        "json",
        "examples/ingressclass-public.yaml",
        "examples/invalid/netpol-bad-rules.yaml",
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe("");
      const doc = JSON.parse(r.stdout) as {
        objects: Record<string, unknown>[];
        unreadable: unknown[];
        summary: unknown;
      };
      expect(Object.keys(doc)).toEqual(["objects", "unreadable", "summary"]);
      expect(doc.summary).toEqual({ files: 2, objects: 3, valid: 1, invalid: 2, errors: 4, unreadable: 0 });
      expect(doc.unreadable).toEqual([]);
      expect(doc.objects[0]).toEqual({
        file: "examples/ingressclass-public.yaml",
        document: 1,
        kind: "IngressClass",
        namespace: null,
        name: "nginx-public",
        valid: true,
        errors: [],
      });
      const media = doc.objects[2] as {
        errors: unknown[];
        status: { code: number; message: string; details: { causes: unknown[] } };
      };
      expect({ ...media, errors: media.errors.length, status: media.status.code }).toEqual({
        file: "examples/invalid/netpol-bad-rules.yaml",
        document: 2,
        kind: "NetworkPolicy",
        namespace: "shop",
        name: "media-relay-broken",
        valid: false,
        errors: 2,
        status: 422,
      });
      expect(media.errors[0]).toEqual({
        type: "FieldValueInvalid",
        field: "spec.ingress[0].ports[0].port",
        path: ["spec", "ingress", 0, "ports", 0, "port"],
        badValue: 70000,
        detail: "must be between 1 and 65535, inclusive",
        message: "spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
      });
      // The status is exactly toStatus as the API server's JSON.
      const obj = fromYaml(readFileSync(join(EXAMPLES, "invalid/netpol-bad-rules.yaml"), "utf8"))[1]!;
      expect(media.status).toEqual(JSON.parse(toJsonString(toStatus(obj, validate(obj, { namespace: "shop" })))));
      expect(media.status.message).toMatch(
        /^NetworkPolicy\.networking\.k8s\.io "media-relay-broken" is invalid: \[spec\.ingress\[0\]\.ports\[0\]\.port: /,
      );
      expect(media.status.details.causes).toHaveLength(2);
    }
  });

  it("--output json --quiet leaves out the valid objects but still counts them", async () => {
    const r = await cli([
      "validate",
      "-o",
      "json",
      "--quiet",
      "examples/ingressclass-public.yaml",
      "examples/invalid/ingressclass-bad.yaml",
    ]);
    const doc = JSON.parse(r.stdout) as { objects: { file: string }[]; summary: { objects: number } };
    expect(doc.objects.map((o) => o.file)).toEqual(["examples/invalid/ingressclass-bad.yaml"]);
    expect(doc.summary.objects).toBe(2);
  });

  it("--output json names watch events", async () => {
    const r = await cli(["validate", "-o", "json", "examples/ingress-watch.pb"]);
    const doc = JSON.parse(r.stdout) as { objects: { document: number; event: string }[] };
    expect(doc.objects.map((o) => [o.document, o.event])).toEqual([
      [1, "ADDED"],
      [2, "MODIFIED"],
      [3, "DELETED"],
    ]);
  });

  it("validates List kinds item by item, with paths under items[i]", async () => {
    const list = JSON.stringify({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicyList",
      metadata: {},
      items: [
        { metadata: { name: "ok", namespace: "shop" }, spec: {} },
        { metadata: { name: "bad", namespace: "shop" }, spec: { policyTypes: ["Ingress", "Egress", "Ingress"] } },
      ],
    });
    const r = await cli(["validate", "-"], { stdin: list });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)[0]).toBe(
      '<stdin> NetworkPolicyList: items[1].spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes',
    );
  });
});

describe("validate: inputs", () => {
  const bad = readFileSync(join(EXAMPLES, "invalid/ingressclass-bad.yaml"), "utf8");
  const badLines = INVALID_EXAMPLE_LINES.filter((l) => l.includes("ingressclass-bad")).map((l) =>
    l.replace("examples/invalid/ingressclass-bad.yaml", "<stdin>"),
  );

  it("reads YAML from stdin with -, or when no file is given and stdin is piped", async () => {
    for (const argv of [["validate", "-"], ["validate"]]) {
      const r = await cli(argv, { stdin: bad });
      expect(r.code).toBe(1);
      expect(lines(r.stdout)).toEqual([...badLines, "1 object: 0 valid, 1 invalid (3 errors) in 1 file"]);
    }
  });

  it("reads JSON and protobuf (k8s\\0 object or watch stream) from stdin", async () => {
    const [obj] = fromYaml(bad);
    const asJson = await cli(["validate", "-"], { stdin: toJsonString(obj!) });
    const asPb = await cli(["validate", "-"], { stdin: encode(obj!) });
    expect(asJson.stdout).toBe(asPb.stdout);
    expect(lines(asPb.stdout).slice(0, -1)).toEqual(badLines);
    const watch = await cli(["validate", "-"], {
      stdin: [encodeWatchEvent({ type: "ADDED", object: obj! }), encodeWatchEvent({ type: "DELETED", object: obj! })],
    });
    expect(watch.code).toBe(1);
    expect(lines(watch.stdout)[0]).toBe(badLines[0]!.replace("<stdin>", "<stdin> (event 1 ADDED)"));
    expect(lines(watch.stdout).at(-1)).toBe("2 objects: 0 valid, 2 invalid (6 errors) in 1 file");
  });

  it("reads a file whatever its extension, and a .jsonl watch stream", async () => {
    const [obj] = fromYaml(bad);
    const d = dir({ "manifest.txt": bad, "events.jsonl": encodeJsonWatchEvent({ type: "MODIFIED", object: obj! }) });
    const r = await cli(["validate", join(d, "manifest.txt"), join(d, "events.jsonl")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `${join(d, "events.jsonl")} (event 1 MODIFIED) IngressClass Public_Edge: spec.controller: `,
    );
    expect(r.stdout).toContain(`${join(d, "manifest.txt")} IngressClass Public_Edge: spec.controller: `);
  });

  it("will not wait on a terminal, and reads stdin only once", async () => {
    const tty = await cli(["validate"], { stdinIsTTY: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toContain("no input: give a file, or - to read standard input");
    const twice = await cli(["validate", "-", "-"], { stdin: bad });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("- (standard input) can be given only once");
  });

  it("recurses into nested directories, in sorted order, skipping other files", async () => {
    const d = dir({
      "b/deep/np.yaml": NETPOL("  podSelector: {}\n", "  name: deep\n  namespace: shop\n"),
      "a.json": JSON.stringify({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: { name: "a" },
        spec: { controller: "example.com/a" },
      }),
      "notes.txt": "not a manifest",
      ".hidden/x.yaml": "not: read",
    });
    const r = await cli(["validate", d]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `${join(d, "a.json")} IngressClass a: ok`,
      `${join(d, "b/deep/np.yaml")} NetworkPolicy shop/deep: ok`,
      "2 objects: 2 valid, 0 invalid (0 errors) in 2 files",
    ]);
  });

  it("names a directory relative to how it was given", async () => {
    const r = await cli(["validate", "invalid/ingressclass-bad.yaml"], { cwd: EXAMPLES });
    expect(lines(r.stdout)[0]).toMatch(/^invalid\/ingressclass-bad\.yaml IngressClass Public_Edge: metadata\.name: /);
  });
});

describe("validate: unreadable input exits 2, after validating the rest", () => {
  it("reports a decode error with its file and location, and still validates the other files", async () => {
    const d = dir({
      "good.yaml": NETPOL("  podSelector: {}\n", "  name: good\n  namespace: shop\n"),
      "typo.yaml": NETPOL("  podSelectr: {}\n"),
      "cut.pb": encode(fromYaml(NETPOL("  podSelector: {}\n"))[0]!).subarray(0, 30),
      "bad.json":
        '{\n  "apiVersion": "networking.k8s.io/v1",\n  "kind": "IngressClass",\n  "metadata": {"name": }\n}\n',
      "invalid.yaml": INGRESS_CLASS("nginx"),
    });
    const r = await cli(["validate", d]);
    expect(r.code).toBe(2);
    expectNoStack(r);
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(`^clusterwire: ${escapeRegExp(join(d, "bad.json"))}: json decode error at line 4, column \\d+: `),
      ),
      expect.stringMatching(
        new RegExp(`^clusterwire: ${escapeRegExp(join(d, "cut.pb"))}: protobuf decode error at byte \\d+: `),
      ),
      `clusterwire: ${join(d, "typo.yaml")}: yaml decode error at document 1, line 6, column 15, field spec.podSelectr: unknown field "podSelectr"`,
    ]);
    expect(lines(r.stdout)).toEqual([
      `${join(d, "good.yaml")} NetworkPolicy shop/good: ok`,
      `${join(d, "invalid.yaml")} IngressClass edge: spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")`,
      "2 objects: 1 valid, 1 invalid (1 error) in 5 files; 3 unreadable",
    ]);

    const json = await cli(["validate", "-o", "json", d]);
    expect(json.code).toBe(2);
    const doc = JSON.parse(json.stdout) as { unreadable: Record<string, unknown>[]; summary: { unreadable: number } };
    expect(doc.summary.unreadable).toBe(3);
    expect(doc.unreadable[2]).toEqual({
      file: join(d, "typo.yaml"),
      message: 'yaml decode error at document 1, line 6, column 15, field spec.podSelectr: unknown field "podSelectr"',
      format: "yaml",
      reason: 'unknown field "podSelectr"',
      document: 1,
      line: 6,
      column: 15,
      offset: expect.any(Number),
      field: "spec.podSelectr",
    });
    expect(doc.unreadable[1]).toMatchObject({ format: "protobuf", offset: expect.any(Number) });
  });

  it("exits 2 for a missing file or an empty directory, even when other objects are invalid", async () => {
    const empty = dir({ "readme.txt": "nothing" });
    const r = await cli(["validate", "examples/no-such.yaml", empty, "examples/invalid/ingressclass-bad.yaml"]);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      "clusterwire: examples/no-such.yaml: cannot read: no such file or directory",
      `clusterwire: ${empty}: no .yaml, .yml, .json, .jsonl or .pb files found`,
    ]);
    expect(lines(r.stdout).at(-1)).toBe("1 object: 0 valid, 1 invalid (3 errors) in 2 files; 2 unreadable");
  });

  it("exits 2 for a file without objects", async () => {
    const r = await cli(["validate", "-"], { stdin: "# nothing\n---\n" });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("clusterwire: <stdin>: no object found (empty input)\n");
  });
});

describe("validate: --old (updates) and --subresource status", () => {
  it("checks immutable fields against the stored object", async () => {
    const d = dir({ "old.yaml": INGRESS_CLASS("k8s.io/a"), "new.yaml": INGRESS_CLASS("k8s.io/b") });
    expect((await cli(["validate", join(d, "new.yaml")])).code).toBe(0);
    const r = await cli(["validate", "--old", join(d, "old.yaml"), join(d, "new.yaml")]);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)[0]).toBe(
      `${join(d, "new.yaml")} IngressClass edge: spec.controller: Invalid value: "k8s.io/b": field is immutable`,
    );
  });

  it("applies the update ratchets: an already invalid TLS secretName may stay", async () => {
    const d = dir({
      "old.yaml": INGRESS({ secretName: "Web_TLS" }),
      "new.yaml": INGRESS({ secretName: "Web_TLS", labels: "  labels:\n    tier: web\n" }),
    });
    const create = await cli(["validate", join(d, "new.yaml")]);
    expect(create.code).toBe(1);
    expect(create.stdout).toContain(`spec.tls[0].secretName: Invalid value: "Web_TLS": ${SUBDOMAIN_MSG}`);
    const update = await cli(["validate", "--old", join(d, "old.yaml"), join(d, "new.yaml")]);
    expect(update.stdout).toBe(
      `${join(d, "new.yaml")} Ingress shop/web: ok\n1 object: 1 valid, 0 invalid (0 errors) in 1 file\n`,
    );
    expect(update.code).toBe(0);
  });

  it("--old reads the stored object in any format, including protobuf", async () => {
    const old = fromYaml(INGRESS({ secretName: "Web_TLS" }))[0]!;
    const d = dir({ "old.pb": encode(old) });
    const r = await cli(["validate", "--old", join(d, "old.pb"), "-"], { stdin: INGRESS({ secretName: "Web_TLS" }) });
    expect(r.code).toBe(0);
  });

  it("--output json writes an int64 bad value as an exact JSON number", async () => {
    const grace = (n: string) => INGRESS_CLASS("k8s.io/a", `  deletionGracePeriodSeconds: ${n}\n`);
    const d = dir({ "old.yaml": grace("30"), "new.yaml": grace("9007199254740993") });
    const r = await cli(["validate", "-o", "json", "--old", join(d, "old.yaml"), join(d, "new.yaml")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('"badValue": 9007199254740993,\n');
    expect(r.stdout).toContain(
      '"message": "metadata.deletionGracePeriodSeconds: Invalid value: 9007199254740993: field is immutable"',
    );
  });

  it("--subresource status validates the status and ignores the spec", async () => {
    const status = "status:\n  loadBalancer:\n    ingress:\n      - ip: 300.1.2.3\n";
    const d = dir({ "old.yaml": INGRESS(), "new.yaml": INGRESS({ secretName: "Web_TLS", status }) });
    // On create and on a main-resource update the status is wiped or kept from storage.
    expect((await cli(["validate", "--old", join(d, "old.yaml"), join(d, "new.yaml")])).stdout).toContain(
      "spec.tls[0].secretName",
    );
    const r = await cli(["validate", "--old", join(d, "old.yaml"), "--subresource", "status", join(d, "new.yaml")]);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      `${join(d, "new.yaml")} Ingress shop/web: status.loadBalancer.ingress[0].ip: Invalid value: "300.1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
      "1 object: 0 valid, 1 invalid (1 error) in 1 file",
    ]);
  });

  it.each([
    [
      ["--old", "examples/ingress-shop.yaml", "examples/catalog-stack.yaml"],
      /--old compares one object with its stored version, but the inputs hold 3 objects/,
    ],
    [
      ["--old", "examples/ingressclass-public.yaml", "examples/ingress-shop.yaml"],
      /--old examples\/ingressclass-public\.yaml holds an IngressClass, but examples\/ingress-shop\.yaml holds an Ingress/,
    ],
    [
      ["--old", "examples/catalog-stack.yaml", "examples/ingress-shop.yaml"],
      /--old examples\/catalog-stack\.yaml: holds 3 objects; give the one stored object/,
    ],
    [
      ["--old", "examples/ingress-watch.pb", "examples/ingress-shop.yaml"],
      /--old examples\/ingress-watch\.pb: holds a watch stream/,
    ],
    [
      ["--old", "examples/no-such.yaml", "examples/ingress-shop.yaml"],
      /examples\/no-such\.yaml: cannot read: no such file or directory/,
    ],
    [["--old", "-", "examples/ingress-shop.yaml"], /--old must name a file, not standard input/],
    [
      ["--subresource", "status", "examples/ingress-shop.yaml"],
      /--subresource status validates an update: give the stored object with --old FILE/,
    ],
    [
      ["--subresource", "scale", "--old", "examples/ingress-shop.yaml", "examples/ingress-shop.yaml"],
      /--subresource must be status, got "scale"/,
    ],
    [
      ["--subresource", "status", "--old", "examples/netpol-ipblock.yaml", "examples/netpol-ipblock.yaml"],
      /--subresource status: NetworkPolicy has no status subresource \(only Ingress and ServiceCIDR\)/,
    ],
  ])("usage error: %j", async (args, message) => {
    const r = await cli(["validate", ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
    expectNoStack(r);
  });

  it("refuses --old with a List", async () => {
    const list = JSON.stringify({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClassList",
      metadata: {},
      items: [],
    });
    const d = dir({ "list.json": list });
    const r = await cli(["validate", "--old", join(d, "list.json"), join(d, "list.json")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--old: an update validates one object, not a IngressClassList");
  });
});

describe("validate: --feature-gates", () => {
  const leadingDigit = INGRESS({ service: "1-web" });

  it("RelaxedServiceNameValidation=true allows a DNS-1123 label service name", async () => {
    const off = await cli(["validate", "-"], { stdin: leadingDigit });
    expect(off.code).toBe(1);
    expect(off.stdout).toContain(
      "spec.rules[0].http.paths[0].backend.service.name: Invalid value: \"1-web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character",
    );
    for (const gates of [
      "RelaxedServiceNameValidation=true",
      " RelaxedServiceNameValidation = True ,",
      "StrictIPCIDRValidation=false,RelaxedServiceNameValidation=1",
    ]) {
      const on = await cli(["validate", "--feature-gates", gates, "-"], { stdin: leadingDigit });
      expect(on.code, gates).toBe(0);
    }
    // Repeated flags merge; the last value of a gate wins.
    const last = await cli(
      [
        "validate",
        "--feature-gates",
        "RelaxedServiceNameValidation=true",
        "--feature-gates",
        "RelaxedServiceNameValidation=false",
        "-",
      ],
      { stdin: leadingDigit },
    );
    expect(last.code).toBe(1);
  });

  it("StrictIPCIDRValidation=true rejects host bits in an ipBlock cidr", async () => {
    const np = NETPOL("  podSelector: {}\n  egress:\n    - to:\n        - ipBlock:\n            cidr: 10.0.0.1/8\n");
    expect((await cli(["validate", "-"], { stdin: np })).code).toBe(0);
    const r = await cli(["validate", "--feature-gates=StrictIPCIDRValidation=true", "-"], { stdin: np });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)[0]).toMatch(
      /^<stdin> NetworkPolicy default\/web: spec\.egress\[0\]\.to\[0\]\.ipBlock\.cidr: Invalid value: "10\.0\.0\.1\/8": /,
    );
  });

  it.each([
    [
      "Bogus=true",
      "--feature-gates: unrecognized feature gate: Bogus; known gates: RelaxedServiceNameValidation, StrictIPCIDRValidation",
    ],
    ["StrictIPCIDRValidation", "--feature-gates: missing bool value for StrictIPCIDRValidation"],
    [
      "StrictIPCIDRValidation=yes",
      "--feature-gates: invalid value of StrictIPCIDRValidation=yes, must be true or false",
    ],
  ])("usage error for %j", async (gates, message) => {
    const r = await cli(["validate", "--feature-gates", gates, "examples/ingress-shop.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`clusterwire: ${message}\nRun 'clusterwire validate --help' for usage.\n`);
    expect(r.stdout).toBe("");
  });
});

describe("validate: --namespace", () => {
  const noNamespace = NETPOL("  podSelector: {}\n");

  it('fills an empty metadata.namespace, "default" unless given', async () => {
    expect(lines((await cli(["validate", "-"], { stdin: noNamespace })).stdout)[0]).toBe(
      "<stdin> NetworkPolicy default/web: ok",
    );
    const r = await cli(["validate", "--namespace", "prod", "-o", "json", "-"], { stdin: noNamespace });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { objects: { namespace: string }[] }).objects[0]?.namespace).toBe("prod");
  });

  it("refuses an object in another namespace as the API server does (400, before validation)", async () => {
    const r = await cli([
      "validate",
      "--namespace",
      "prod",
      "examples/netpol-ipblock.yaml",
      "examples/ingressclass-public.yaml",
    ]);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      "examples/netpol-ipblock.yaml NetworkPolicy shop/payments-egress-processor: BadRequest: the namespace of the provided object does not match the namespace sent on the request",
      "examples/ingressclass-public.yaml IngressClass nginx-public: ok",
      "2 objects: 1 valid, 1 invalid (1 error) in 2 files",
    ]);
    const json = await cli(["validate", "--namespace", "prod", "-o", "json", "examples/netpol-ipblock.yaml"]);
    const entry = (JSON.parse(json.stdout) as { objects: Record<string, unknown>[] }).objects[0];
    expect(entry).toMatchObject({
      valid: false,
      errors: [],
      rejected: { reason: "BadRequest" },
      status: { kind: "Status", code: 400, reason: "BadRequest" },
    });
    // In its own namespace it is fine.
    expect((await cli(["validate", "--namespace", "shop", "examples/netpol-ipblock.yaml"])).code).toBe(0);
  });

  it("rejects an empty --namespace", async () => {
    const r = await cli(["validate", "--namespace=", "examples/netpol-ipblock.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--namespace must not be empty");
  });
});

describe("validate: usage errors", () => {
  it.each([
    [["--output", "yaml", "examples"], /--output must be text or json, got "yaml"/],
    [["--bogus", "examples"], /Unknown option '--bogus'/],
    [["--old"], /Option '--old <value>' argument missing/],
  ])("%j", async (args, message) => {
    const r = await cli(["validate", ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  it("prints its help", async () => {
    const r = await cli(["validate", "--help"]);
    expect(r.code).toBe(0);
    for (const flag of ["--output", "--old", "--subresource", "--feature-gates", "--namespace", "--quiet"])
      expect(r.stdout).toContain(flag);
  });
});

function escapeRegExp(s: string): string {
  return s.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
