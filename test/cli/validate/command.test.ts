import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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
import { parseSarif } from "../../support/sarif.js";
import {
  NOT_MANIFEST,
  RESULT_KEYS,
  ingressClassYaml,
  ingressYaml,
  lines,
  netpolYaml,
  notManifestLine,
  otherKindYaml,
  stream,
  tempTrees,
  v1List,
  wholeFileResult,
} from "../../support/cli/validate.js";
import { nonEmpty } from "../../support/non-empty.js";

const EXAMPLES = join(REPO, "examples");
const tree = tempTrees("validate");

// Upstream's messages, spelled out once.
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const RV_ON_CREATE =
  "refused (500): metadata.resourceVersion: resourceVersion should not be set on objects to be created";
const SENDS_LAST = "kubectl sends the last value";
const MISMATCH = "BadRequest: the namespace of the provided object does not match the namespace sent on the request";

/** What `clusterwire validate` prints for each file in examples/invalid, checked against the catalogue. */
const INVALID_EXAMPLE_LINES = [
  // Ingress: §5.2 wildcard host, §5.3 absolute path and missing pathType, §5.4 both port forms (on the backend path).
  `examples/invalid/ingress-bad-routes.yaml:12:13 Ingress shop/promo: spec.rules[0].host: Invalid value: "deals.*.example.com": ${WILDCARD_MSG}`,
  `examples/invalid/ingress-bad-routes.yaml:16:19 Ingress shop/promo: spec.rules[0].http.paths[0].path: Invalid value: "deals": must be an absolute path`,
  `examples/invalid/ingress-bad-routes.yaml:24:13 Ingress shop/promo: spec.rules[0].http.paths[1].pathType: Required value: pathType must be specified`,
  `examples/invalid/ingress-bad-routes.yaml:34:15 Ingress shop/promo: spec.rules[0].http.paths[2].backend: Invalid value: "": cannot set both port name & port number`,
  // IngressClass: §4 name, §6 controller, §6 defaulted Cluster scope with a namespace.
  `examples/invalid/ingressclass-bad.yaml:7:9 IngressClass Public_Edge: metadata.name: Invalid value: "Public_Edge": ${SUBDOMAIN_MSG}`,
  `examples/invalid/ingressclass-bad.yaml:10:15 IngressClass Public_Edge: spec.controller: Invalid value: "ingress-nginx": must be a domain-prefixed path (such as "acme.io/foo")`,
  "examples/invalid/ingressclass-bad.yaml:17:16 IngressClass Public_Edge: spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'",
  // NetworkPolicy: §7.4 except outside cidr, §7.3 ipBlock with a selector (on the peer), §7.2 port range and named port with endPort.
  'examples/invalid/netpol-bad-rules.yaml:20:17 NetworkPolicy shop/payments-egress-broken: spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "198.51.100.0/25": must be a strict subset of `cidr`',
  "examples/invalid/netpol-bad-rules.yaml:23:11 NetworkPolicy shop/payments-egress-broken: spec.egress[0].to[1]: Forbidden: may not specify both ipBlock and another peer",
  "examples/invalid/netpol-bad-rules.yaml:45:17 NetworkPolicy shop/media-relay-broken: spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
  "examples/invalid/netpol-bad-rules.yaml:49:20 NetworkPolicy shop/media-relay-broken: spec.ingress[0].ports[1].endPort: Invalid value: 60999: may not be specified when `port` is non-numeric",
];

/** The message of a finding line: what follows `FILE:LINE:COLUMN Kind ns/name: `. */
const message = (line: string): string => line.slice(line.indexOf(": ") + 2);

/** A JSON result as -o json writes it. */
type Result = Record<string, unknown> & { status: string; errors: Record<string, unknown>[] };
type JsonRun = { documents: Result[]; summary: Record<string, number> };
const json = (stdout: string): JsonRun => JSON.parse(stdout) as JsonRun;

describe("validate: the examples", () => {
  // ingress-lifecycle.yaml holds stored objects (with resourceVersion): on create they are refused, see below.
  const valid = nonEmpty(
    readdirSync(EXAMPLES).filter((f) => /\.(ya?ml|json|jsonl|pb)$/.test(f) && f !== "ingress-lifecycle.yaml"),
    "manifests in examples/",
  );

  it.each(valid)("examples/%s is valid", async (file) => {
    const r = await cli(["validate", `examples/${file}`]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    const head = `^examples/${file.replace(".", "\\.")}[: ]`;
    // Every networking object is ok; documents of other kinds (shop-deploy.yaml's Deployment) are named and skipped.
    const ok = out.filter((l) => new RegExp(`${head}.*: ok$`).test(l)).length;
    const skipped = out.filter((l) =>
      new RegExp(`${head}.*: skipped: \\S+ \\w+ is not a networking.k8s.io/v1 kind$`).test(l),
    );
    expect(ok).toBeGreaterThan(0);
    expect(ok + skipped.length).toBe(out.length - 1);
    const documents = ok + skipped.length;
    expect(out.at(-1)).toBe(
      `Summary: ${documents} document${documents === 1 ? "" : "s"} in 1 file: ${ok} valid, 0 invalid, ${skipped.length} skipped, 0 errors`,
    );
  });

  it("prints the API server's errors for examples/invalid, one per line at the field's FILE:LINE:COLUMN, and exits 1", async () => {
    const r = await cli(["validate", "examples/invalid"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      ...INVALID_EXAMPLE_LINES,
      "Summary: 4 documents in 3 files: 0 valid, 4 invalid, 0 skipped, 0 errors",
    ]);
  });

  it("each LINE:COLUMN points at the bad value in the file", () => {
    let checked = 0;
    for (const l of INVALID_EXAMPLE_LINES) {
      const [, file, line, column] = /^(\S+):(\d+):(\d+) /.exec(l) ?? [];
      const value = /Invalid value: ("(?:[^"\\]|\\.)+"|\d+): /.exec(l)?.[1];
      if (value === undefined) continue;
      const text = readFileSync(join(REPO, file ?? ""), "utf8").split("\n")[Number(line) - 1] ?? "";
      const literal = value.startsWith('"') ? (JSON.parse(value) as string) : value;
      expect(text.slice(Number(column) - 1), l).toMatch(new RegExp(`^["']?${literal.replace(/[.*]/g, "\\$&")}`));
      checked++;
    }
    expect(checked).toBe(7);
  });

  it("matches the library: each line is formatFieldError of validate() in the object's namespace", async () => {
    for (const file of nonEmpty(readdirSync(join(EXAMPLES, "invalid")), "examples/invalid/")) {
      const objects = fromYaml(readFileSync(join(EXAMPLES, "invalid", file), "utf8"));
      const r = await cli(["validate", `examples/invalid/${file}`]);
      const messages = lines(r.stdout).slice(0, -1).map(message);
      expect(messages.length).toBeGreaterThan(0);
      expect(messages).toEqual(objects.flatMap((o) => validate(o, { namespace: "shop" }).map(formatFieldError)));
    }
  });

  it("ingress-lifecycle.yaml holds stored objects: each is refused on create for its resourceVersion", async () => {
    const r = await cli(["validate", "examples/ingress-lifecycle.yaml"]);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      `examples/ingress-lifecycle.yaml:10:20 Ingress shop/promo: ${RV_ON_CREATE}`,
      `examples/ingress-lifecycle.yaml:33:20 Ingress shop/promo: ${RV_ON_CREATE}`,
      `examples/ingress-lifecycle.yaml:64:20 Ingress shop/promo: ${RV_ON_CREATE}`,
      "Summary: 3 documents in 1 file: 0 valid, 3 invalid, 0 skipped, 0 errors",
    ]);
  });

  it("recurses into examples: every file named, the files that are not manifests skipped with a note", async () => {
    const r = await cli(["validate", "examples"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    const out = lines(r.stdout);
    for (const l of INVALID_EXAMPLE_LINES) expect(out).toContain(l);
    for (const l of [
      "examples/ingress-shop.yaml:3 Ingress shop/storefront: ok",
      "examples/catalog-stack.yaml:51 NetworkPolicy shop/catalog-egress: ok",
      "examples/ingress-watch.pb (event 3 DELETED) Ingress shop/promo: ok",
      "examples/ingress-watch.jsonl (event 1 ADDED) Ingress shop/promo: ok",
      "examples/ingressclass-public.yaml:3 IngressClass nginx-public: ok",
      "examples/netpol-named-ports.json:1 NetworkPolicy shop/checkout-from-storefront: ok",
      // Storage inventories, cluster files, the demo's answers and expectations are YAML without apiVersion or kind.
      notManifestLine("examples/clusters/shop.yaml"),
      notManifestLine("examples/clusters/shop-expectations.yaml"),
      notManifestLine("examples/connectivity/expectations.yaml"),
      notManifestLine("examples/demo/expected.yaml"),
      notManifestLine("examples/storage/inventory.yaml"),
    ])
      expect(out).toContain(l);
    // The summary agrees with the lines: one line per valid or skipped document, files counted once.
    const files = new Set(out.slice(0, -1).map((l) => l.slice(0, l.search(/[: ]/))));
    const ok = out.filter((l) => l.endsWith(": ok")).length;
    const skipped = out.filter((l) => l.includes(": skipped: ")).length;
    expect(out.at(-1)).toBe(
      `Summary: ${ok + skipped + 4 + 3} documents in ${files.size} files: ${ok} valid, 7 invalid, ${skipped} skipped, 0 errors`,
    );
    // Files come in walk order: sorted, a directory's files where its name sorts.
    expect([...files]).toEqual([...files].sort());
  });
});

describe("validate: documents of other kinds, and Lists", () => {
  it("skips and names a Deployment, Service and Namespace next to an Ingress, and validates the Ingress", async () => {
    const d = tree({
      "app.yaml": stream(
        otherKindYaml("apps/v1", "Deployment", "web", "shop"),
        otherKindYaml("v1", "Service", "web", "shop"),
        otherKindYaml("v1", "Namespace", "shop"),
        ingressYaml({ secretName: "Web_TLS" }),
      ),
    });
    const r = await cli(["validate", "app.yaml"], { cwd: d });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      "app.yaml:1 Deployment shop/web: skipped: apps/v1 Deployment is not a networking.k8s.io/v1 kind",
      "app.yaml:7 Service shop/web: skipped: v1 Service is not a networking.k8s.io/v1 kind",
      "app.yaml:13 Namespace shop: skipped: v1 Namespace is not a networking.k8s.io/v1 kind",
      `app.yaml:26:19 Ingress shop/web: spec.tls[0].secretName: Invalid value: "Web_TLS": ${SUBDOMAIN_MSG}`,
      "Summary: 4 documents in 1 file: 0 valid, 1 invalid, 3 skipped, 0 errors",
    ]);
  });

  it("a file of other kinds only is valid: exit 0, skipped documents do not count", async () => {
    const d = tree({
      "app.yaml": stream(otherKindYaml("apps/v1", "Deployment", "web"), otherKindYaml("v1", "Service", "web")),
    });
    const r = await cli(["validate", "app.yaml"], { cwd: d });
    expect(r.code).toBe(0);
    expect(lines(r.stdout).at(-1)).toBe("Summary: 2 documents in 1 file: 0 valid, 0 invalid, 2 skipped, 0 errors");
  });

  it("reads a v1 List item by item, items[i] in the head and each line at its item", async () => {
    const list = v1List(
      otherKindYaml("v1", "Service", "web"),
      ingressClassYaml("Bad_Name"),
      netpolYaml("  podSelector: {}\n", "  name: np\n"),
    );
    const r = await cli(["validate", "-"], { stdin: list });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      "<stdin>:4 items[0] Service web: skipped: v1 Service is not a networking.k8s.io/v1 kind",
      `<stdin>:11:13 items[1] IngressClass Bad_Name: metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MSG}`,
      "<stdin>:14 items[2] NetworkPolicy default/np: ok",
      "Summary: 3 documents in 1 file: 1 valid, 1 invalid, 1 skipped, 0 errors",
    ]);
    const j = json((await cli(["validate", "-o", "json", "-"], { stdin: list })).stdout);
    expect(j.documents.map((x) => [x.document, x.item, x.line, x.kind, x.status])).toEqual([
      [1, 0, 4, "Service", "skipped"],
      [1, 1, 8, "IngressClass", "invalid"],
      [1, 2, 14, "NetworkPolicy", "valid"],
    ]);
  });

  it("validates networking List kinds whole, with paths under items[i]", async () => {
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
      '<stdin>:1:212 NetworkPolicyList: items[1].spec.policyTypes: Invalid value: ["Ingress","Egress","Ingress"]: may not specify more than two policyTypes',
    );
  });

  it("refuses removed API versions with kubectl's words, and skips networking.k8s.io/v1beta1 IPAddress, still served", async () => {
    const d = tree({
      "old.yaml": stream(
        otherKindYaml("extensions/v1beta1", "Ingress", "old"),
        otherKindYaml("networking.k8s.io/v1beta1", "Ingress", "old2"),
        otherKindYaml("networking.k8s.io/v1beta1", "IPAddress", "10.0.0.1"),
      ),
    });
    const r = await cli(["validate", "old.yaml"], { cwd: d });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      'old.yaml:1:13 Ingress old: error: apiVersion: no matches for kind "Ingress" in version "extensions/v1beta1": removed in Kubernetes 1.22; use networking.k8s.io/v1',
      'old.yaml:6:13 Ingress old2: error: apiVersion: no matches for kind "Ingress" in version "networking.k8s.io/v1beta1": removed in Kubernetes 1.22; use networking.k8s.io/v1',
      "old.yaml:11 IPAddress 10.0.0.1: skipped: networking.k8s.io/v1beta1 IPAddress is not a networking.k8s.io/v1 kind",
      "Summary: 3 documents in 1 file: 0 valid, 0 invalid, 1 skipped, 2 errors",
    ]);
  });
});

describe("validate: a bad document never hides another", () => {
  const ingressWith = (name: string, body: string) =>
    `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: ${name}\n  namespace: shop\n${body}`;

  it.each([
    [
      "an unknown field (the old serviceName backend)",
      ingressWith("old-backend", "spec:\n  defaultBackend:\n    serviceName: web\n    servicePort: 80\n"),
      'm.yaml:15:18 Ingress shop/old-backend: error: strict decoding error: unknown field "spec.defaultBackend.serviceName", unknown field "spec.defaultBackend.servicePort"',
    ],
    [
      "broken indentation",
      ingressWith("broken", " spec:\n  rules: []\n"),
      "m.yaml:13:2 Ingress: error: did not find expected key",
    ],
    [
      "a wrong type",
      ingressWith("typed", "spec:\n  rules: 3\n"),
      "m.yaml:14:10 Ingress shop/typed: error: spec.rules: json: cannot unmarshal number into Go struct field IngressSpec.spec.rules of type []v1.IngressRule",
    ],
  ])("%s: an error at FILE:LINE:COLUMN, the documents before and after validated", async (_, bad, errorLine) => {
    const d = tree({ "m.yaml": stream(ingressClassYaml("a"), bad, ingressClassYaml("Bad_B")) });
    const r = await cli(["validate", "m.yaml"], { cwd: d });
    expect(r.code).toBe(1);
    expectNoStack(r);
    const out = lines(r.stdout);
    expect(out[0]).toBe("m.yaml:1 IngressClass a: ok");
    expect(out[1]).toBe(errorLine);
    expect(out[2]).toMatch(/^m\.yaml:\d+:9 IngressClass Bad_B: metadata\.name: Invalid value: "Bad_B": /);
    expect(out[3]).toBe("Summary: 3 documents in 1 file: 1 valid, 1 invalid, 0 skipped, 1 error");
  });

  it("an invalid separator line is an error at its line; the documents on both sides are read", async () => {
    const d = tree({ "m.yaml": `${ingressClassYaml("a")}---foo\n${ingressClassYaml("b")}` });
    const r = await cli(["validate", "m.yaml"], { cwd: d });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      "m.yaml:1 IngressClass a: ok",
      "m.yaml:7:1: error: invalid Yaml document separator: foo",
      "m.yaml:8 IngressClass b: ok",
      "Summary: 3 documents in 1 file: 2 valid, 0 invalid, 0 skipped, 1 error",
    ]);
  });

  it("files that cannot be decoded are errors with their location; the other files are still validated", async () => {
    const d = tree({
      "good.yaml": netpolYaml("  podSelector: {}\n", "  name: good\n  namespace: shop\n"),
      "typo.yaml": netpolYaml("  podSelectr: {}\n"),
      "cut.pb": encode(fromYaml(netpolYaml())[0]!).subarray(0, 30),
      "bad.json":
        '{\n  "apiVersion": "networking.k8s.io/v1",\n  "kind": "IngressClass",\n  "metadata": {"name": }\n}\n',
      "binary.yaml": new Uint8Array([0xff, 0xfe, 0x00, 0x61]),
      "invalid.yaml": ingressClassYaml("edge", "nginx"),
    });
    const r = await cli(["validate", "."], { cwd: d });
    expect(r.code).toBe(1);
    expectNoStack(r);
    expect(r.stderr).toBe("");
    expect(lines(r.stdout)).toEqual([
      // The kind a broken JSON document names is shown, as for broken YAML.
      'bad.json:4:24 IngressClass: error: invalid character "}" looking for beginning of value',
      "binary.yaml: error: not valid UTF-8, so not YAML text (protobuf must start with k8s\\0)",
      expect.stringMatching(/^cut\.pb: error: .*runs past the end of the input$/),
      "good.yaml:1 NetworkPolicy shop/good: ok",
      'invalid.yaml:6:15 IngressClass edge: spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
      'typo.yaml:6:15 NetworkPolicy web: error: strict decoding error: unknown field "spec.podSelectr"',
      "Summary: 6 documents in 6 files: 1 valid, 1 invalid, 0 skipped, 4 errors",
    ]);
    const j = json((await cli(["validate", "-o", "json", "."], { cwd: d })).stdout);
    expect(j.documents.find((x) => x.file === "typo.yaml")).toEqual({
      ...wholeFileResult("typo.yaml", {}),
      document: 1,
      line: 1,
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      name: "web",
      status: "error",
      error: {
        message: 'strict decoding error: unknown field "spec.podSelectr"',
        field: "spec.podSelectr",
        position: { line: 6, column: 15 },
      },
    });
    expect(j.documents.find((x) => x.file === "cut.pb")).toMatchObject({
      status: "error",
      document: null,
      error: { offset: expect.any(Number) },
    });
  });
});

describe("validate: files that are not manifests", () => {
  const files = {
    "package.json": '{"name": "app", "version": "1.0.0"}\n',
    "values.yaml": "replicas: 3\nimage:\n  tag: latest\n",
    "templates/ingress.yaml":
      '{{- if .Values.ingress.enabled }}\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {{ include "app.fullname" . }}\n  labels:\n    {{- include "app.labels" . | nindent 4 }}\n{{- end }}\n',
    "z.yaml": ingressClassYaml("z"),
  };
  const TEMPLATE = "holds {{ }} and does not parse: a template, not a manifest (render it first, e.g. helm template)";

  it("package.json, a Helm values file and an unrendered template are skipped with a note", async () => {
    const r = await cli(["validate", "."], { cwd: tree(files) });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      notManifestLine("package.json"),
      `templates/ingress.yaml: skipped: ${TEMPLATE}`,
      notManifestLine("values.yaml"),
      "z.yaml:1 IngressClass z: ok",
      "Summary: 4 documents in 4 files: 1 valid, 0 invalid, 3 skipped, 0 errors",
    ]);
  });

  it("--non-manifests error makes them errors, and the run exit 1", async () => {
    const r = await cli(["validate", "--non-manifests", "error", "-q", "."], { cwd: tree(files) });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      `package.json: error: ${NOT_MANIFEST}`,
      `templates/ingress.yaml: error: ${TEMPLATE}`,
      `values.yaml: error: ${NOT_MANIFEST}`,
      "Summary: 4 documents in 4 files: 1 valid, 0 invalid, 0 skipped, 3 errors",
    ]);
    const bad = await cli(["validate", "--non-manifests", "warn", "."], { cwd: tree(files) });
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toContain('--non-manifests must be skip or error, got "warn"');
  });

  it("input that is empty or only comments holds no documents, and is skipped with a note", async () => {
    const r = await cli(["validate", "-"], { stdin: "# nothing\n---\n" });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      "<stdin>: skipped: no documents: empty, or comments only",
      "Summary: 1 document in 1 file: 0 valid, 0 invalid, 1 skipped, 0 errors",
    ]);
  });
});

describe("validate: create-time refusals", () => {
  const withRv = ingressClassYaml("edge", "example.com/a", '  resourceVersion: "7"\n');

  it("metadata.resourceVersion on create: a 500 refusal, apart from field errors in -o json", async () => {
    const r = await cli(["validate", "-"], { stdin: withRv });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      `<stdin>:5:20 IngressClass edge: ${RV_ON_CREATE}`,
      "Summary: 1 document in 1 file: 0 valid, 1 invalid, 0 skipped, 0 errors",
    ]);
    const [doc] = json((await cli(["validate", "-o", "json", "-"], { stdin: withRv })).stdout).documents;
    expect(doc).toMatchObject({
      status: "invalid",
      errors: [],
      refusals: [
        {
          code: 500,
          reason: "",
          message: "resourceVersion should not be set on objects to be created",
          field: "metadata.resourceVersion",
          position: { line: 5, column: 20 },
        },
      ],
      response: {
        kind: "Status",
        apiVersion: "v1",
        status: "Failure",
        message: "resourceVersion should not be set on objects to be created",
        code: 500,
      },
    });
    expect(doc?.response).not.toHaveProperty("reason");
  });

  it("not for watch events (already stored), nor for an update with --old", async () => {
    const [obj] = fromYaml(withRv);
    const watch = await cli(["validate", "-"], { stdin: encodeJsonWatchEvent({ type: "ADDED", object: obj! }) });
    expect(watch.code).toBe(0);
    const d = tree({ "stored.yaml": withRv });
    const update = await cli(["validate", "--old", "stored.yaml", "-"], { stdin: withRv, cwd: d });
    expect(update.code).toBe(0);
    expect(lines(update.stdout)[0]).toBe("<stdin>:1 IngressClass edge: ok");
  });

  it("--namespace other than the object's: 400 BadRequest before validation", async () => {
    const r = await cli([
      "validate",
      "--namespace",
      "prod",
      "examples/netpol-ipblock.yaml",
      "examples/ingressclass-public.yaml",
    ]);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      `examples/netpol-ipblock.yaml:7:14 NetworkPolicy prod/payments-egress-processor: ${MISMATCH}`,
      "examples/ingressclass-public.yaml:3 IngressClass nginx-public: ok",
      "Summary: 2 documents in 2 files: 1 valid, 1 invalid, 0 skipped, 0 errors",
    ]);
    const [doc] = json(
      (await cli(["validate", "--namespace", "prod", "-o", "json", "examples/netpol-ipblock.yaml"])).stdout,
    ).documents;
    expect(doc).toMatchObject({
      status: "invalid",
      errors: [],
      refusals: [{ code: 400, reason: "BadRequest", field: "metadata.namespace" }],
      response: { kind: "Status", code: 400, reason: "BadRequest" },
    });
    // In its own namespace it is fine.
    expect((await cli(["validate", "--namespace", "shop", "examples/netpol-ipblock.yaml"])).code).toBe(0);
  });
});

describe("validate: --field-validation", () => {
  const unknown = netpolYaml("  podSelector: {}\n  a: 1\n  b: 2\n", "  name: np\n  namespace: shop\n");
  const repeated = netpolYaml(
    "  podSelector: {}\n",
    '  name: np\n  namespace: shop\n  labels:\n    x: "1"\n    x: "2"\n',
  );

  it("Strict (the default): all unknown fields in one strict decoding error", async () => {
    for (const args of [[], ["--field-validation", "Strict"], ["--field-validation=strict"]]) {
      const r = await cli(["validate", ...args, "-"], { stdin: unknown });
      expect(r.code).toBe(1);
      expect(lines(r.stdout)[0]).toBe(
        '<stdin>:8:6 NetworkPolicy shop/np: error: strict decoding error: unknown field "spec.a", unknown field "spec.b"',
      );
    }
  });

  it("Warn: the object is validated, each unknown field and a repeated key a warning at its position", async () => {
    for (const mode of ["Warn", "warn", "WARN"]) {
      const r = await cli(["validate", "--field-validation", mode, "-"], { stdin: unknown });
      expect(r.code).toBe(0);
      expect(lines(r.stdout)).toEqual([
        "<stdin>:1 NetworkPolicy shop/np: ok",
        '<stdin>:8:6 NetworkPolicy shop/np: warning: unknown field "spec.a"',
        '<stdin>:9:6 NetworkPolicy shop/np: warning: unknown field "spec.b"',
        "Summary: 1 document in 1 file: 1 valid, 0 invalid, 0 skipped, 0 errors, 2 warnings",
      ]);
    }
    // kubectl reads the file and sends the last value: under Warn as under Strict, a warning saying so.
    const r = await cli(["validate", "--field-validation", "Warn", "-q", "-o", "json", "-"], { stdin: repeated });
    const j = json(r.stdout);
    expect(j.documents[0]).toMatchObject({
      status: "valid",
      warnings: [{ message: `key "x" already set in map; ${SENDS_LAST}`, position: { line: 8, column: 5 } }],
    });
    expect(j.summary).toMatchObject({ valid: 1, warnings: 1 });
  });

  it("a repeated key (kubectl reads files non-strictly and sends the last value) is a warning under Strict, the verdict kubectl's", async () => {
    const strict = await cli(["validate", "-"], { stdin: repeated });
    expect(strict.code).toBe(0);
    expect(lines(strict.stdout)).toEqual([
      "<stdin>:1 NetworkPolicy shop/np: ok",
      `<stdin>:8:5 NetworkPolicy shop/np: warning: key "x" already set in map; ${SENDS_LAST}`,
      "Summary: 1 document in 1 file: 1 valid, 0 invalid, 0 skipped, 0 errors, 1 warning",
    ]);
    // The last value is the one validated: a bad first value is no error, a bad last one is.
    const d = tree({
      "dup.yaml": stream(
        ingressClassYaml("first", '"c d"\n  controller: example.com/ingress'),
        ingressClassYaml("second", 'example.com/ingress\n  controller: "c d"', "  name: again\n"),
        ingressClassYaml("third", "example.com/ingress\n  controllr: x\n  controller: example.com/ingress"),
      ),
      "dup.json": `${JSON.stringify({ apiVersion: "networking.k8s.io/v1", kind: "IngressClass" }).slice(0, -1)},"metadata":{"name":"j1","name":"j2"},"spec":{"controller":"c d","controller":"example.com/ingress"}}\n{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"j3"},"spec":{"controller":"example.com/ingress","controller":"c d"}}\n`,
    });
    const r = await cli(["validate", "dup.yaml", "dup.json"], { cwd: d });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      "dup.yaml:1 IngressClass first: ok",
      `dup.yaml:7:3 IngressClass first: warning: key "controller" already set in map; ${SENDS_LAST}`,
      `dup.yaml:16:15 IngressClass again: spec.controller: Invalid value: "c d": must be a domain-prefixed path (such as "acme.io/foo")`,
      `dup.yaml:13:3 IngressClass again: warning: key "name" already set in map; ${SENDS_LAST}`,
      `dup.yaml:16:3 IngressClass again: warning: key "controller" already set in map; ${SENDS_LAST}`,
      // An unknown field stays an error: the API server sees it.
      'dup.yaml:24:14 IngressClass third: error: strict decoding error: unknown field "spec.controllr"',
      "dup.json:1 IngressClass j2: ok",
      `dup.json:1:91 IngressClass j2: warning: duplicate field "metadata.name"; ${SENDS_LAST}`,
      `dup.json:1:137 IngressClass j2: warning: duplicate field "spec.controller"; ${SENDS_LAST}`,
      `dup.json:2:141 IngressClass j3: spec.controller: Invalid value: "c d": must be a domain-prefixed path (such as "acme.io/foo")`,
      `dup.json:2:141 IngressClass j3: warning: duplicate field "spec.controller"; ${SENDS_LAST}`,
      "Summary: 5 documents in 2 files: 2 valid, 2 invalid, 0 skipped, 1 error, 6 warnings",
    ]);
    const sarif = parseSarif((await cli(["validate", "-o", "sarif", "dup.yaml", "dup.json"], { cwd: d })).stdout);
    const warnings = sarif.runs[0]?.results.filter((x) => x.level === "warning") ?? [];
    expect(warnings.map((x) => x.ruleId)).toEqual(Array(6).fill("duplicate-field-warning"));
    expect(warnings.map((x) => x.locations[0]?.physicalLocation.region?.startLine)).toEqual([7, 13, 16, 1, 1, 2]);
    const j = json((await cli(["validate", "-o", "json", "dup.yaml"], { cwd: d })).stdout);
    expect(j.documents.map((x) => [x.status, (x["warnings"] as unknown[]).length])).toEqual([
      ["valid", 1],
      ["invalid", 2],
      ["error", 0],
    ]);
  });

  it("Ignore: no warnings", async () => {
    for (const stdin of [unknown, repeated]) {
      const r = await cli(["validate", "--field-validation", "ignore", "-"], { stdin });
      expect(r.code).toBe(0);
      expect(lines(r.stdout)).toEqual([
        "<stdin>:1 NetworkPolicy shop/np: ok",
        "Summary: 1 document in 1 file: 1 valid, 0 invalid, 0 skipped, 0 errors",
      ]);
    }
  });

  it("a bad value is a usage error", async () => {
    const r = await cli(["validate", "--field-validation", "lenient", "-"], { stdin: unknown });
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toBe(
      "clusterwire: --field-validation must be one of Strict, Warn, Ignore, got \"lenient\"\nRun 'clusterwire validate --help' for usage.\n",
    );
  });
});

describe("validate: --kinds and --skip-kinds", () => {
  const catalog = "examples/catalog-stack.yaml";
  const NOT_SELECTED = "skipped: not selected by --kinds or --skip-kinds";

  it("--kinds Ingress (or networking.k8s.io/v1/Ingress) validates Ingresses only, naming the rest", async () => {
    for (const kinds of ["Ingress", "networking.k8s.io/v1/Ingress"]) {
      const r = await cli(["validate", "--kinds", kinds, catalog]);
      expect(r.code).toBe(0);
      expect(lines(r.stdout)).toEqual([
        "examples/catalog-stack.yaml:3 Ingress shop/catalog: ok",
        `examples/catalog-stack.yaml:27 NetworkPolicy shop/catalog-from-ingress: ${NOT_SELECTED}`,
        `examples/catalog-stack.yaml:51 NetworkPolicy shop/catalog-egress: ${NOT_SELECTED}`,
        "Summary: 3 documents in 1 file: 1 valid, 0 invalid, 2 skipped, 0 errors",
      ]);
    }
  });

  it("a kind selects its List too", async () => {
    const list = '{"apiVersion":"networking.k8s.io/v1","kind":"IngressList","metadata":{},"items":[]}';
    expect(lines((await cli(["validate", "--kinds", "Ingress", "-"], { stdin: list })).stdout)[0]).toBe(
      "<stdin>:1 IngressList: ok",
    );
    expect(lines((await cli(["validate", "--kinds", "NetworkPolicy", "-"], { stdin: list })).stdout)[0]).toBe(
      `<stdin>:1 IngressList: ${NOT_SELECTED}`,
    );
  });

  it("--skip-kinds, repeatable and comma-separated; an invalid object skipped does not fail the run", async () => {
    const r = await cli([
      "validate",
      "--skip-kinds",
      "NetworkPolicy",
      "--skip-kinds",
      "Ingress,IngressClass",
      "examples/invalid",
    ]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout).at(-1)).toBe("Summary: 4 documents in 3 files: 0 valid, 0 invalid, 4 skipped, 0 errors");
    const some = await cli(["validate", "--skip-kinds", "NetworkPolicy", catalog]);
    expect(lines(some.stdout).at(-1)).toBe("Summary: 3 documents in 1 file: 1 valid, 0 invalid, 2 skipped, 0 errors");
  });

  it("an unknown kind in --kinds is a usage error", async () => {
    for (const kinds of ["Ingresses", "Ingress,Deployment", "networking.k8s.io/v1beta1/Ingress"]) {
      const r = await cli(["validate", "--kinds", kinds, catalog]);
      expect(r).toMatchObject({ code: 2, stdout: "" });
      expect(r.stderr).toMatch(
        /^clusterwire: --kinds: \S+ is not a kind clusterwire validates; kinds: Ingress, IngressClass, /,
      );
    }
  });
});

describe("validate: directories, --include and --exclude", () => {
  const files = {
    "deploy/app.yaml": ingressClassYaml("app"),
    "deploy/templates/t.yaml": ingressClassYaml("t"),
    "charts/x/templates/t.yaml": ingressClassYaml("chart-t"),
    "charts/x/values.yaml": "replicas: 1\n",
    "b/deep/np.yaml": netpolYaml("  podSelector: {}\n", "  name: deep\n  namespace: shop\n"),
    "a.json": JSON.stringify({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name: "a" },
      spec: { controller: "example.com/a" },
    }),
    "notes.txt": "not a manifest",
    ".hidden/x.yaml": ingressClassYaml("Hidden_Bad"),
    ".x.yaml": ingressClassYaml("Dot_Bad"),
    "node_modules/pkg/x.yaml": ingressClassYaml("Module_Bad"),
  };
  const names = (stdout: string): string[] =>
    lines(stdout)
      .slice(0, -1)
      .map((l) => l.slice(0, l.search(/[: ]/)));

  it("recurses in sorted order, skipping other extensions, dot-entries and node_modules", async () => {
    const d = tree(files);
    const r = await cli(["validate", d]);
    expect(r.code).toBe(0);
    expect(names(r.stdout)).toEqual(
      [
        "a.json",
        "b/deep/np.yaml",
        "charts/x/templates/t.yaml",
        "charts/x/values.yaml",
        "deploy/app.yaml",
        "deploy/templates/t.yaml",
      ].map((f) => join(d, f)),
    );
    // Named on the command line, a file is read whatever its name or place.
    const named = await cli(["validate", ".hidden/x.yaml", "node_modules/pkg/x.yaml", "notes.txt"], { cwd: d });
    expect(named.code).toBe(1);
    expect(names(named.stdout)).toEqual([".hidden/x.yaml", "node_modules/pkg/x.yaml", "notes.txt"]);
  });

  it("--exclude prunes directories, --include keeps only what it matches; named files are read regardless", async () => {
    const d = tree(files);
    const excluded = await cli(["validate", "--exclude", "**/templates/**", "."], { cwd: d });
    expect(names(excluded.stdout)).toEqual(["a.json", "b/deep/np.yaml", "charts/x/values.yaml", "deploy/app.yaml"]);
    const included = await cli(["validate", "--include", "deploy/**", ".", "charts/x/templates/t.yaml"], { cwd: d });
    expect(names(included.stdout)).toEqual(["deploy/app.yaml", "deploy/templates/t.yaml", "charts/x/templates/t.yaml"]);
    const both = await cli(
      ["validate", "--include", "deploy/**", "--exclude", "**/templates/**", "--exclude", "*.json", "."],
      {
        cwd: d,
      },
    );
    expect(names(both.stdout)).toEqual(["deploy/app.yaml"]);
  });

  it("names files under a directory as it was given", async () => {
    const r = await cli(["validate", "invalid/ingressclass-bad.yaml"], { cwd: EXAMPLES });
    expect(lines(r.stdout)[0]).toMatch(
      /^invalid\/ingressclass-bad\.yaml:7:9 IngressClass Public_Edge: metadata\.name: /,
    );
    const dir = await cli(["validate", "./invalid/"], { cwd: EXAMPLES });
    expect(lines(dir.stdout)[0]).toMatch(/^invalid\/ingress-bad-routes\.yaml:12:13 /);
  });

  it("a directory with nothing to read is an error, and exits 2 as a missing path does", async () => {
    const d = tree({ "empty/readme.txt": "", "x.yaml": ingressClassYaml("x") });
    const r = await cli(["validate", "--exclude", "x.yaml", "empty", "."], { cwd: d });
    expect(r.code).toBe(2);
    expect(lines(r.stdout)).toEqual([
      "empty: error: no .yaml, .yml, .json, .jsonl or .pb files found (after --include and --exclude)",
      ".: error: no .yaml, .yml, .json, .jsonl or .pb files found (after --include and --exclude)",
      "Summary: 2 documents in 2 files: 0 valid, 0 invalid, 0 skipped, 2 errors",
    ]);
  });

  it("empty standard input is an error, exit 2: a pipeline that failed upstream must not pass", async () => {
    const r = await cli(["validate", "-"], { stdin: "\n  \n" });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("<stdin>: error: no input: standard input is empty\n");
  });
});

describe("validate: exit status", () => {
  it("0 when every networking object is valid, 1 when one is invalid, refused or cannot be decoded", async () => {
    const d = tree({
      "ok.yaml": ingressClassYaml("ok"),
      "other.yaml": otherKindYaml("v1", "Service", "s"),
      "invalid.yaml": ingressClassYaml("Bad"),
      "refused.yaml": ingressClassYaml("r", "example.com/a", '  resourceVersion: "1"\n'),
      "error.yaml": netpolYaml("  podSelectr: {}\n"),
    });
    expect((await cli(["validate", "ok.yaml", "other.yaml"], { cwd: d })).code).toBe(0);
    for (const f of ["invalid.yaml", "refused.yaml", "error.yaml"])
      expect((await cli(["validate", "ok.yaml", f], { cwd: d })).code, f).toBe(1);
  });

  it("2 for an input path that cannot be read, after the other inputs are reported", async () => {
    const r = await cli(["validate", "examples/no-such.yaml", "examples/invalid/ingressclass-bad.yaml", "no-dir/"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("");
    expect(lines(r.stdout)).toEqual([
      "examples/no-such.yaml: error: cannot read: no such file or directory",
      ...INVALID_EXAMPLE_LINES.filter((l) => l.includes("ingressclass-bad")),
      "no-dir/: error: cannot read: no such file or directory",
      "Summary: 3 documents in 3 files: 0 valid, 1 invalid, 0 skipped, 2 errors",
    ]);
    const j = json((await cli(["validate", "-o", "json", "examples/no-such.yaml"])).stdout);
    expect(j.documents).toEqual([
      wholeFileResult("examples/no-such.yaml", {
        status: "error",
        error: { message: "cannot read: no such file or directory" },
      }),
    ]);
  });
});

describe("validate: output", () => {
  it("--quiet prints nothing when everything is valid or skipped", async () => {
    const r = await cli([
      "validate",
      "--quiet",
      "examples/ingress-shop.yaml",
      "examples/catalog-stack.yaml",
      "examples/clusters",
    ]);
    expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(await cli(["validate", "-q", "examples/ingress-shop.yaml"])).toMatchObject({ code: 0, stdout: "" });
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
      "Summary: 3 documents in 2 files: 1 valid, 2 invalid, 0 skipped, 0 errors",
    ]);
  });

  it("says document, error and file in the singular when there is one", async () => {
    const r = await cli(["validate", "-"], {
      stdin: netpolYaml("  podSelector: {}\n  ingress:\n    - ports:\n        - port: 0\n"),
    });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      "<stdin>:9:17 NetworkPolicy default/web: spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
      "Summary: 1 document in 1 file: 0 valid, 1 invalid, 0 skipped, 0 errors",
    ]);
  });

  it("--output json: a result per document with fixed keys, the errors, the 422 Status and the counts", async () => {
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
      const doc = json(r.stdout);
      expect(Object.keys(doc)).toEqual(["documents", "summary"]);
      expect(doc.summary).toEqual({
        files: 2,
        documents: 3,
        valid: 1,
        invalid: 2,
        skipped: 0,
        errors: 0,
        problems: 4,
        warnings: 0,
      });
      for (const d of doc.documents) expect(Object.keys(d)).toEqual(RESULT_KEYS);
      expect(doc.documents[0]).toEqual(
        wholeFileResult("examples/ingressclass-public.yaml", {
          document: 1,
          line: 3,
          apiVersion: "networking.k8s.io/v1",
          kind: "IngressClass",
          name: "nginx-public",
          status: "valid",
        }),
      );
      const media = doc.documents[2] as Result & {
        response: { code: number; message: string; details: { causes: unknown[] } };
      };
      expect({ ...media, errors: media.errors.length, response: media.response.code }).toEqual(
        wholeFileResult("examples/invalid/netpol-bad-rules.yaml", {
          document: 2,
          line: 32,
          apiVersion: "networking.k8s.io/v1",
          kind: "NetworkPolicy",
          namespace: "shop",
          name: "media-relay-broken",
          status: "invalid",
          errors: 2,
          response: 422,
        }),
      );
      expect(media.errors[0]).toEqual({
        type: "FieldValueInvalid",
        field: "spec.ingress[0].ports[0].port",
        path: ["spec", "ingress", 0, "ports", 0, "port"],
        badValue: 70000,
        detail: "must be between 1 and 65535, inclusive",
        message: "spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
        position: { line: 45, column: 17 },
      });
      // The response is exactly toStatus as the API server's JSON.
      const obj = fromYaml(readFileSync(join(EXAMPLES, "invalid/netpol-bad-rules.yaml"), "utf8"))[1]!;
      expect(media.response).toEqual(JSON.parse(toJsonString(toStatus(obj, validate(obj, { namespace: "shop" })))));
      expect(media.response.message).toMatch(
        /^NetworkPolicy\.networking\.k8s\.io "media-relay-broken" is invalid: \[spec\.ingress\[0\]\.ports\[0\]\.port: /,
      );
      expect(media.response.details.causes).toHaveLength(2);
    }
  });

  it("--output json --quiet leaves out the valid and skipped documents but still counts them", async () => {
    const r = await cli([
      "validate",
      "-o",
      "json",
      "--quiet",
      "examples/ingressclass-public.yaml",
      "examples/clusters",
      "examples/invalid/ingressclass-bad.yaml",
    ]);
    const doc = json(r.stdout);
    expect(doc.documents.map((o) => o.file)).toEqual(["examples/invalid/ingressclass-bad.yaml"]);
    expect(doc.summary).toMatchObject({ documents: 4, valid: 1, skipped: 2, invalid: 1 });
  });

  it("--output json names watch events", async () => {
    const doc = json((await cli(["validate", "-o", "json", "examples/ingress-watch.pb"])).stdout);
    expect(doc.documents.map((o) => [o.document, o.event, o.line])).toEqual([
      [1, "ADDED", null],
      [2, "MODIFIED", null],
      [3, "DELETED", null],
    ]);
  });

  it("--output json with nothing to read is still one JSON document", async () => {
    const r = await cli(["validate", "-o", "json", "--include", "none/**", "examples"]);
    expect(r.code).toBe(2);
    const out = json(r.stdout) as { documents: { status: string }[]; summary: Record<string, number> };
    expect(out.documents.map((d) => d.status)).toEqual(["error"]);
    expect(out.summary).toEqual({
      files: 1,
      documents: 1,
      valid: 0,
      invalid: 0,
      skipped: 0,
      errors: 1,
      problems: 0,
      warnings: 0,
    });
  });

  it("--jobs takes auto or 1 to 64, and does not change the output", async () => {
    const base = await cli(["validate", "examples"]);
    for (const jobs of ["1", "auto", "64"])
      expect((await cli(["validate", "--jobs", jobs, "examples"])).stdout).toBe(base.stdout);
    for (const jobs of ["0", "65", "two", "1.5"]) {
      const r = await cli(["validate", "--jobs", jobs, "examples"]);
      expect(r).toMatchObject({ code: 2, stdout: "" });
      expect(r.stderr).toContain(`--jobs must be auto or a whole number from 1 to 64, got ${JSON.stringify(jobs)}`);
    }
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
      expect(lines(r.stdout)).toEqual([
        ...badLines,
        "Summary: 1 document in 1 file: 0 valid, 1 invalid, 0 skipped, 0 errors",
      ]);
    }
  });

  it("reads JSON and protobuf (k8s\\0 object or watch stream) from stdin", async () => {
    const [obj] = fromYaml(bad);
    const asJson = await cli(["validate", "-"], { stdin: toJsonString(obj!, 2) });
    const asPb = await cli(["validate", "-"], { stdin: encode(obj!) });
    // Protobuf has no lines; the messages are the same.
    expect(lines(asPb.stdout).slice(0, -1)).toEqual(badLines.map((l) => l.replace(/^<stdin>:\d+:\d+/, "<stdin>")));
    expect(lines(asJson.stdout).slice(0, -1).map(message)).toEqual(badLines.map(message));
    expect(lines(asJson.stdout)[0]).toMatch(/^<stdin>:5:13 IngressClass Public_Edge: metadata\.name: /);
    const watch = await cli(["validate", "-"], {
      stdin: [encodeWatchEvent({ type: "ADDED", object: obj! }), encodeWatchEvent({ type: "DELETED", object: obj! })],
    });
    expect(watch.code).toBe(1);
    expect(lines(watch.stdout)[0]).toBe(badLines[0]!.replace(/^<stdin>:\d+:\d+/, "<stdin> (event 1 ADDED)"));
    expect(lines(watch.stdout).at(-1)).toBe("Summary: 2 documents in 1 file: 0 valid, 2 invalid, 0 skipped, 0 errors");
  });

  it("reads a file whatever its extension, and a .jsonl watch stream", async () => {
    const [obj] = fromYaml(bad);
    const d = tree({ "manifest.txt": bad, "events.jsonl": encodeJsonWatchEvent({ type: "MODIFIED", object: obj! }) });
    const r = await cli(["validate", "manifest.txt", "events.jsonl"], { cwd: d });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("events.jsonl (event 1 MODIFIED) IngressClass Public_Edge: spec.controller: ");
    expect(r.stdout).toContain("manifest.txt:10:15 IngressClass Public_Edge: spec.controller: ");
  });

  it("will not wait on a terminal, and reads stdin only once", async () => {
    const tty = await cli(["validate"], { stdinIsTTY: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toContain("no input: give a file, or - to read standard input");
    const twice = await cli(["validate", "-", "-"], { stdin: bad });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("- (standard input) can be given only once");
  });
});

describe("validate: --old (updates) and --subresource status", () => {
  /** An Ingress as stored: with its resourceVersion, which an update carries. */
  const stored = (opts: Parameters<typeof ingressYaml>[0] = {}) =>
    ingressYaml({ ...opts, meta: `  resourceVersion: "12"\n${opts.meta ?? ""}` });
  const classWith = (controller: string, extra = "") =>
    ingressClassYaml("edge", controller, `  resourceVersion: "7"\n${extra}`);

  it("checks immutable fields against the stored object", async () => {
    const d = tree({ "old.yaml": classWith("k8s.io/a"), "new.yaml": ingressClassYaml("edge", "k8s.io/b") });
    expect((await cli(["validate", "new.yaml"], { cwd: d })).code).toBe(0);
    const r = await cli(["validate", "--old", "old.yaml", "new.yaml"], { cwd: d });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)[0]).toBe(
      'new.yaml:6:15 IngressClass edge: spec.controller: Invalid value: "k8s.io/b": field is immutable',
    );
  });

  it("applies the update ratchets: an already invalid TLS secretName may stay", async () => {
    const d = tree({
      "old.yaml": stored({ secretName: "Web_TLS" }),
      "new.yaml": stored({ secretName: "Web_TLS", meta: "  labels:\n    tier: web\n" }),
    });
    const create = await cli(["validate", "new.yaml"], { cwd: d });
    expect(create.code).toBe(1);
    expect(create.stdout).toContain(`spec.tls[0].secretName: Invalid value: "Web_TLS": ${SUBDOMAIN_MSG}`);
    const update = await cli(["validate", "--old", "old.yaml", "new.yaml"], { cwd: d });
    expect(update.stdout).toBe(
      "new.yaml:1 Ingress shop/web: ok\nSummary: 1 document in 1 file: 1 valid, 0 invalid, 0 skipped, 0 errors\n",
    );
    expect(update.code).toBe(0);
  });

  it("--old reads the stored object in any format, including protobuf; the input may hold other kinds", async () => {
    const old = fromYaml(stored({ secretName: "Web_TLS" }))[0]!;
    const d = tree({ "old.pb": encode(old) });
    const r = await cli(["validate", "--old", "old.pb", "-"], {
      stdin: stream(otherKindYaml("v1", "Service", "web"), stored({ secretName: "Web_TLS" })),
      cwd: d,
    });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      "<stdin>:1 Service web: skipped: v1 Service is not a networking.k8s.io/v1 kind",
      "<stdin>:6 Ingress shop/web: ok",
      "Summary: 2 documents in 1 file: 1 valid, 0 invalid, 1 skipped, 0 errors",
    ]);
  });

  it("--output json writes an int64 bad value as an exact JSON number", async () => {
    const grace = (n: string) => classWith("k8s.io/a", `  deletionGracePeriodSeconds: ${n}\n`);
    const d = tree({ "old.yaml": grace("30"), "new.yaml": grace("9007199254740993") });
    const r = await cli(["validate", "-o", "json", "--old", "old.yaml", "new.yaml"], { cwd: d });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('"badValue": 9007199254740993,\n');
    expect(r.stdout).toContain(
      '"message": "metadata.deletionGracePeriodSeconds: Invalid value: 9007199254740993: field is immutable"',
    );
  });

  it("--subresource status validates the status and ignores the spec", async () => {
    const status = "status:\n  loadBalancer:\n    ingress:\n      - ip: 300.1.2.3\n";
    const d = tree({ "old.yaml": stored(), "new.yaml": stored({ secretName: "Web_TLS", status }) });
    // On create and on a main-resource update the status is wiped or kept from storage.
    expect((await cli(["validate", "--old", "old.yaml", "new.yaml"], { cwd: d })).stdout).toContain(
      "spec.tls[0].secretName",
    );
    const r = await cli(["validate", "--old", "old.yaml", "--subresource", "status", "new.yaml"], { cwd: d });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      'new.yaml:25:13 Ingress shop/web: status.loadBalancer.ingress[0].ip: Invalid value: "300.1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      "Summary: 1 document in 1 file: 0 valid, 1 invalid, 0 skipped, 0 errors",
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
      /--old examples\/catalog-stack\.yaml: holds 3 networking objects; give the one stored object/,
    ],
    [
      ["--old", "examples/ingress-watch.pb", "examples/ingress-shop.yaml"],
      /--old examples\/ingress-watch\.pb: holds a watch stream/,
    ],
    [
      ["--old", "examples/clusters/shop.yaml", "examples/ingress-shop.yaml"],
      /--old examples\/clusters\/shop\.yaml: holds no Kubernetes object/,
    ],
    [
      ["--old", "examples/no-such.yaml", "examples/ingress-shop.yaml"],
      /examples\/no-such\.yaml: cannot read: no such file or directory/,
    ],
    [
      ["--old", "examples/ingress-shop.yaml", "examples/no-such.yaml"],
      /examples\/no-such\.yaml: cannot read: no such file or directory/,
    ],
    [
      ["--old", "examples/ingress-shop.yaml", "examples"],
      /--old compares one object with its stored version: give a file, not the directory examples/,
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
  ])("usage error: %j", async (args, pattern) => {
    const r = await cli(["validate", ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stdout).toBe("");
    expectNoStack(r);
  });

  it("--old with a stored object that does not decode names the file and the place", async () => {
    const d = tree({ "old.yaml": "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: [\n" });
    const r = await cli(["validate", "--old", "old.yaml", "examples/ingressclass-public.yaml"], { cwd: d });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^clusterwire: --old old\.yaml:\d+:\d+: /);
  });

  it("refuses --old with a List", async () => {
    const list = JSON.stringify({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClassList",
      metadata: {},
      items: [],
    });
    const d = tree({ "list.json": list });
    const r = await cli(["validate", "--old", "list.json", "list.json"], { cwd: d });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--old: an update validates one object, not a IngressClassList");
  });
});

describe("validate: --feature-gates", () => {
  const leadingDigit = ingressYaml({ service: "1-web" });

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
    const np = netpolYaml(
      "  podSelector: {}\n  egress:\n    - to:\n        - ipBlock:\n            cidr: 10.0.0.1/8\n",
    );
    expect((await cli(["validate", "-"], { stdin: np })).code).toBe(0);
    const r = await cli(["validate", "--feature-gates=StrictIPCIDRValidation=true", "-"], { stdin: np });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)[0]).toMatch(
      /^<stdin>:10:19 NetworkPolicy default\/web: spec\.egress\[0\]\.to\[0\]\.ipBlock\.cidr: Invalid value: "10\.0\.0\.1\/8": /,
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
  ])("usage error for %j", async (gates, text) => {
    const r = await cli(["validate", "--feature-gates", gates, "examples/ingress-shop.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`clusterwire: ${text}\nRun 'clusterwire validate --help' for usage.\n`);
    expect(r.stdout).toBe("");
  });
});

describe("validate: --namespace", () => {
  it('fills an empty metadata.namespace, "default" unless given', async () => {
    const noNamespace = netpolYaml();
    expect(lines((await cli(["validate", "-"], { stdin: noNamespace })).stdout)[0]).toBe(
      "<stdin>:1 NetworkPolicy default/web: ok",
    );
    const r = await cli(["validate", "--namespace", "prod", "-o", "json", "-"], { stdin: noNamespace });
    expect(r.code).toBe(0);
    expect(json(r.stdout).documents[0]?.namespace).toBe("prod");
  });

  it("rejects an empty --namespace", async () => {
    const r = await cli(["validate", "--namespace=", "examples/netpol-ipblock.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--namespace must not be empty");
  });
});

describe("validate: usage errors and help", () => {
  it.each([
    [["--output", "yaml", "examples"], /--output must be one of text, json, junit, sarif, got "yaml"/],
    [["--bogus", "examples"], /Unknown option '--bogus'/],
    [["--old"], /Option '--old <value>' argument missing/],
  ])("%j", async (args, pattern) => {
    const r = await cli(["validate", ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stdout).toBe("");
  });

  it("prints its help, naming every option", async () => {
    const r = await cli(["validate", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: clusterwire validate \[options\] FILE\|DIR\|- \.\.\./);
    for (const flag of [
      "--output",
      "--field-validation",
      "--kinds",
      "--skip-kinds",
      "--include",
      "--exclude",
      "--non-manifests",
      "--jobs",
      "--old",
      "--subresource",
      "--feature-gates",
      "--namespace",
      "--quiet",
    ])
      expect(r.stdout).toMatch(new RegExp(`^  (-\\w, )?${flag} `, "m"));
  });
});

describe("validate: edges the API server draws", () => {
  it("a meta/v1 Status is another kind (skipped), and an unknown networking.k8s.io/v1 kind is an error", async () => {
    const r = await cli(["validate", "-"], {
      stdin: stream(
        "apiVersion: v1\nkind: Status\nstatus: Failure\n",
        "apiVersion: networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: g\n",
      ),
    });
    expect(r.code).toBe(1);
    expect(lines(r.stdout).slice(0, 2)).toEqual([
      "<stdin>:1 Status: skipped: v1 Status is not a networking.k8s.io/v1 kind",
      expect.stringMatching(
        /^<stdin>:6:7 Gateway g: error: kind: unsupported apiVersion\/kind "networking.k8s.io\/v1\/Gateway"/,
      ),
    ]);
  });

  it("refuses each item of a networking List that is in another namespace than --namespace", async () => {
    const list = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicyList
items:
- metadata:
    name: a
    namespace: shop
  spec:
    podSelector: {}
- metadata:
    name: b
    namespace: prod
  spec:
    podSelector: {}
`;
    const j = json((await cli(["validate", "-o", "json", "--namespace", "prod", "-"], { stdin: list })).stdout);
    const [doc] = j.documents as unknown as { status: string; refusals: unknown[] }[];
    expect(doc?.status).toBe("invalid");
    expect(doc?.refusals).toEqual([
      {
        code: 400,
        reason: "BadRequest",
        message: "the namespace of the provided object does not match the namespace sent on the request",
        field: "items[0].metadata.namespace",
        position: { line: 6, column: 16 },
      },
    ]);
  });

  it("lists at most 100 unknown fields, then says there are more", async () => {
    const fields = Array.from({ length: 120 }, (_, i) => `  f${i}: 1\n`).join("");
    const r = await cli(["validate", "-o", "json", "-"], { stdin: ingressClassYaml("x", "example.com/c", fields) });
    const [doc] = json(r.stdout).documents as unknown as { error: { message: string } }[];
    const message = doc?.error.message ?? "";
    // In the order the API server reads them: the JSON it makes of YAML has its keys sorted.
    const sorted = Array.from({ length: 120 }, (_, i) => `f${i}`).sort();
    expect(
      message.startsWith(
        'strict decoding error: unknown field "metadata.f0", unknown field "metadata.f1", unknown field "metadata.f10", ',
      ),
    ).toBe(true);
    expect(message.endsWith(`unknown field "metadata.${sorted[99]}", and more`)).toBe(true);
    expect(message.match(/unknown field/g)).toHaveLength(100);
  });

  it("--old needs a networking object among the inputs", async () => {
    const d = tree({ "old.yaml": ingressClassYaml("x"), "svc.yaml": otherKindYaml("v1", "Service", "s") });
    const r = await cli(["validate", "--old", "old.yaml", "svc.yaml"], { cwd: d });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the inputs hold no networking object");
  });
});
