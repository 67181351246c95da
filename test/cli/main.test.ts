import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  decode,
  decodeWatchStream,
  encode,
  encodeJsonWatchEvent,
  encodeWatchEvent,
  fromYaml,
  toJsonString,
  type WatchEventType,
} from "../../src/networking/index.js";
import { loadCommands } from "../../src/cli/main.js";
import { REPO, cli, expectNoStack } from "../support/cli/harness.js";
import { nonEmpty } from "../support/non-empty.js";

// The CLI runs in-process through run(argv, io), so these tests need no build.

const EXAMPLES = join(REPO, "examples");
const FIXTURES = fileURLToPath(new URL("../../../shared/testdata/k8s-api/HEAD/", import.meta.url));
const KINDS = ["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"];
const fixture = (kind: string, ext: string) => join(FIXTURES, `networking.k8s.io.v1.${kind}.${ext}`);

const tmp = mkdtempSync(join(tmpdir(), "clusterwire-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("help and version", () => {
  it("finds each command loaded by name alone: help for it is its own help, and its name is listed", async () => {
    const commands = await loadCommands();
    expect(commands.map((c) => c.name)).toEqual([
      "decode",
      "encode",
      "convert",
      "validate",
      "route",
      "reach",
      "demo",
      "storage",
      "webhook",
    ]);
    const global = (await cli(["--help"])).stdout;
    for (const c of commands) {
      expect((await cli(["help", c.name])).stdout).toBe(`${c.help}\n`);
      expect(global).toContain(`  ${c.name}`);
    }
  });

  it("prints global help with every command", async () => {
    const r = await cli(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["decode", "encode", "convert", "validate", "demo", "storage"])
      expect(r.stdout).toContain(`  ${c}`);
  });

  it.each(["decode", "encode", "convert", "validate", "demo", "storage"])("prints %s --help", async (cmd) => {
    const r = await cli([cmd, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: clusterwire ${cmd}`));
    expect((await cli(["help", cmd])).stdout).toBe(r.stdout);
  });

  it("prints the package.json version", async () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
    const r = await cli(["--version"]);
    expect(r).toMatchObject({ code: 0, stdout: `clusterwire ${pkg.version}\n` });
  });

  it("exits 2 with usage on stderr when given nothing", async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Usage: clusterwire");
  });
});

describe("usage errors exit 2", () => {
  it.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [["--frob"], /unknown option --frob/],
    [["decode", "--bogus", "x.pb"], /Unknown option '--bogus'/],
    [["decode", "--output", "xml", "examples/ingress.pb"], /--output must be one of yaml, json/],
    [["decode", "--indent", "2", "examples/ingress.pb"], /--indent applies to --output json only/],
    [["decode", "--output", "json", "--indent", "eleven", "examples/ingress.pb"], /--indent must be a whole number/],
    [
      ["decode", "-o", "json", "examples/ingress.pb"],
      /-o takes a file name, got "json"; for the output format use --output json/,
    ],
    [["decode", "a.pb", "b.pb"], /expected one input file, got 2/],
    [["convert", "examples/ingress.pb"], /--to json\|yaml\|pb is required/],
    [["convert", "examples/ingress.pb", "--to", "xml"], /--to must be one of json, yaml, pb/],
    [["encode", "examples/ingress.pb"], /already protobuf/],
    [["decode", "examples/no-such-file.pb"], /examples\/no-such-file\.pb: cannot read: no such file or directory/],
    [["decode", "examples"], /examples: cannot read: is a directory/],
    [["demo", "no-such-dir"], /no-such-dir: cannot read directory: no such file or directory/],
  ])("%j", async (argv, message) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
    expectNoStack(r);
  });

  it("will not wait on a terminal for stdin", async () => {
    const r = await cli(["decode"], { stdinIsTTY: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no input: give a file, or - to read standard input");
  });

  it("refuses to write protobuf to a terminal", async () => {
    for (const argv of [
      ["encode", "examples/netpol-default-deny.yaml"],
      ["convert", "examples/ingress-shop.yaml", "--to", "pb"],
    ]) {
      const r = await cli(argv, { stdoutIsTTY: true });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("refusing to write binary protobuf to a terminal");
      expect(r.bytes.length).toBe(0);
    }
  });
});

describe("processing failures exit 1 and say where", () => {
  const ingressPb = new Uint8Array(readFileSync(fixture("Ingress", "pb")));

  it("reports a truncated protobuf with its byte offset", async () => {
    const bad = join(tmp, "truncated.pb");
    writeFileSync(bad, ingressPb.subarray(0, 100));
    const r = await cli(["decode", bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^clusterwire: ${bad.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: protobuf decode error at byte \\d+`),
    );
    expect(r.stdout).toBe("");
    expectNoStack(r);
  });

  it("reports a wrong magic and hints at the real format", async () => {
    const r = await cli(["decode", "examples/netpol-named-ports.json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "examples/netpol-named-ports.json: protobuf decode error at byte 0: missing k8s\\0 prefix",
    );
    expect(r.stderr).toContain("this looks like JSON; use clusterwire convert or encode");
    const w = await cli(["decode", "examples/ingress-watch.pb"]);
    expect(w.code).toBe(1);
    expect(w.stderr).toContain("this looks like a watch stream; add --watch");
  });

  it("drops unknown fields by default and rejects them with --strict", async () => {
    const json = JSON.stringify({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name: "x" },
      spec: { controler: "typo" },
    });
    const lax = await cli(["encode", "-"], { stdin: json });
    expect(lax.code).toBe(0);
    expect(toJsonString(decode(lax.bytes))).toBe(
      '{"kind":"IngressClass","apiVersion":"networking.k8s.io/v1","metadata":{"name":"x"},"spec":{}}',
    );
    const strict = await cli(["encode", "-", "--strict"], { stdin: json });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("spec.controler");
    const yamlStrict = await cli(["convert", "-", "--from", "yaml", "--to", "json", "--strict"], {
      stdin: "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: x\n  nmae: y\n",
    });
    expect(yamlStrict.code).toBe(1);
    expect(yamlStrict.stderr).toContain("metadata.nmae");
  });

  it("does not create the output file when decoding fails", async () => {
    const out = join(tmp, "never.yaml");
    const r = await cli(["decode", "-", "-o", out], { stdin: ingressPb.subarray(0, 50) });
    expect(r.code).toBe(1);
    expect(() => readFileSync(out)).toThrow();
  });
});

// The upstream fixtures are byte-exact for the library; the CLI must not add or lose a byte.
describe.each(KINDS)("HEAD fixture %s through the CLI", (kind) => {
  const pb = new Uint8Array(readFileSync(fixture(kind, "pb")));
  const json = readFileSync(fixture(kind, "json"), "utf8");
  const yaml = readFileSync(fixture(kind, "yaml"), "utf8");

  it("decodes .pb to the fixture YAML and JSON", async () => {
    expect(await cli(["decode", fixture(kind, "pb")])).toMatchObject({ code: 0, stdout: yaml, stderr: "" });
    expect(await cli(["decode", fixture(kind, "pb"), "--output", "json"])).toMatchObject({
      code: 0,
      stdout: `${json}\n`,
    });
    expect((await cli(["decode", "-", "--output", "json", "--indent", "0"], { stdin: pb })).stdout).toBe(
      `${toJsonString(decode(pb))}\n`,
    );
  });

  it("encodes JSON and YAML to the fixture .pb", async () => {
    expect((await cli(["encode", fixture(kind, "json")])).bytes).toEqual(pb);
    expect((await cli(["encode", fixture(kind, "yaml")])).bytes).toEqual(pb);
    // From stdin the format is sniffed from the content.
    expect((await cli(["encode"], { stdin: json })).bytes).toEqual(pb);
    expect(
      (
        await cli(["encode", "-"], {
          stdin: [new TextEncoder().encode(yaml.slice(0, 10)), new TextEncoder().encode(yaml.slice(10))],
        })
      ).bytes,
    ).toEqual(pb);
    const out = join(tmp, `${kind}.pb`);
    expect((await cli(["encode", fixture(kind, "yaml"), "-o", out])).code).toBe(0);
    expect(new Uint8Array(readFileSync(out))).toEqual(pb);
  });

  it("converts between all three formats byte for byte", async () => {
    expect((await cli(["convert", fixture(kind, "json"), "--to", "yaml"])).stdout).toBe(yaml);
    expect((await cli(["convert", fixture(kind, "yaml"), "--to", "json"])).stdout).toBe(`${json}\n`);
    expect((await cli(["convert", fixture(kind, "pb"), "--to", "pb"])).bytes).toEqual(pb);
    expect((await cli(["convert", fixture(kind, "json"), "--to", "pb"])).bytes).toEqual(pb);
    const out = join(tmp, `${kind}.yaml`);
    expect((await cli(["convert", fixture(kind, "pb"), "-o", out])).code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(yaml);
  });
});

describe("examples through the CLI", () => {
  // convert and encode take networking objects only, so a file that mixes in other kinds (shop-deploy.yaml) is left out.
  const manifests = nonEmpty(
    readdirSync(EXAMPLES).filter(
      (f) =>
        /\.(ya?ml|json)$/.test(f) &&
        !/^apiVersion: (?!networking\.k8s\.io\/v1$)/m.test(readFileSync(join(EXAMPLES, f), "utf8")),
    ),
    "networking manifests in examples/",
  );

  it.each(manifests)("%s: text → pb → text → pb is stable", async (file) => {
    const toYaml = await cli(["convert", `examples/${file}`, "--to", "yaml", "--strict"]);
    expect(toYaml.code).toBe(0);
    const docs = toYaml.stdout.split(/^---\n/m);
    for (const doc of docs) {
      const pb = await cli(["encode", "-", "--from", "yaml", "--strict"], { stdin: doc });
      expect(pb.code).toBe(0);
      const back = await cli(["decode", "-"], { stdin: pb.bytes });
      expect(back.stdout).toBe(doc);
      const viaJson = await cli(["convert", "-", "--to", "json"], { stdin: pb.bytes });
      expect((await cli(["encode", "-"], { stdin: viaJson.stdout })).bytes).toEqual(pb.bytes);
    }
  });

  it("examples/ingress.pb is examples/ingress-shop.yaml encoded", async () => {
    const r = await cli(["encode", "examples/ingress-shop.yaml"]);
    expectExample("ingress.pb", r.bytes);
  });

  it("examples/ingress-watch.pb frames examples/ingress-lifecycle.yaml as ADDED, MODIFIED, DELETED", () => {
    const objects = fromYaml(readFileSync(join(EXAMPLES, "ingress-lifecycle.yaml"), "utf8"));
    const types: WatchEventType[] = ["ADDED", "MODIFIED", "DELETED"];
    expect(objects).toHaveLength(types.length);
    expectExample(
      "ingress-watch.pb",
      Buffer.concat(objects.map((object, i) => encodeWatchEvent({ type: types[i] as WatchEventType, object }))),
    );
  });

  it("examples/ingress-watch.jsonl is the same stream as the API server writes it in JSON", () => {
    const objects = fromYaml(readFileSync(join(EXAMPLES, "ingress-lifecycle.yaml"), "utf8"));
    const types: WatchEventType[] = ["ADDED", "MODIFIED", "DELETED"];
    expectExample(
      "ingress-watch.jsonl",
      Buffer.from(
        objects.map((object, i) => encodeJsonWatchEvent({ type: types[i] as WatchEventType, object })).join(""),
      ),
    );
  });

  it("decode --watch reads a JSON watch stream too, with the same output as the protobuf one", async () => {
    for (const output of ["yaml", "json"]) {
      const fromPb = await cli(["decode", "--watch", "--output", output, "examples/ingress-watch.pb"]);
      const fromJsonl = await cli(["decode", "--watch", "--output", output, "examples/ingress-watch.jsonl"]);
      expect(fromJsonl.code).toBe(0);
      expect(fromJsonl.stdout).toBe(fromPb.stdout);
    }
    // With --output json, the lines are exactly the JSON stream.
    const lines = await cli(["decode", "--watch", "--output", "json", "examples/ingress-watch.jsonl"]);
    expect(lines.stdout).toBe(readFileSync(join(EXAMPLES, "ingress-watch.jsonl"), "utf8"));
  });

  it("decodes the watch example as YAML documents and JSON lines", async () => {
    const yaml = await cli(["decode", "--watch", "examples/ingress-watch.pb"]);
    expect(yaml.code).toBe(0);
    const docs = yaml.stdout.split(/^---\n/m);
    expect(docs.map((d) => d.split("\n", 1)[0])).toEqual(["type: ADDED", "type: MODIFIED", "type: DELETED"]);
    expect(docs[0]).toMatch(/^type: ADDED\nobject:\n {2}apiVersion: networking.k8s.io\/v1\n {2}kind: Ingress\n/);

    const lines = await cli(["decode", "--watch", "--output", "json", "examples/ingress-watch.pb"]);
    const events = lines.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: { resourceVersion: string } } });
    expect(events.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([
      ["ADDED", "48121"],
      ["MODIFIED", "48133"],
      ["DELETED", "48290"],
    ]);
    // Each line's object is exactly the library's JSON.
    const bytes = readFileSync(join(EXAMPLES, "ingress-watch.pb"));
    const decoded = [];
    for await (const ev of decodeWatchStream([bytes])) decoded.push(ev);
    expect(lines.stdout).toBe(decoded.map((e) => `{"type":"${e.type}","object":${toJsonString(e.object)}}\n`).join(""));

    const pretty = await cli(["decode", "--watch", "--output", "json", "--indent", "2", "examples/ingress-watch.pb"]);
    const first = pretty.stdout.slice(0, pretty.stdout.indexOf("\n}\n") + 3);
    expect(JSON.parse(first)).toEqual(JSON.parse(lines.stdout.split("\n")[0] as string));
  });

  it("decodes a watch stream from stdin split at awkward places", async () => {
    const bytes = new Uint8Array(readFileSync(join(EXAMPLES, "ingress-watch.pb")));
    const chunks = [bytes.subarray(0, 2), bytes.subarray(2, 3), bytes.subarray(3, 250), bytes.subarray(250)];
    const r = await cli(["decode", "--watch", "-"], { stdin: chunks });
    expect(r.stdout).toBe((await cli(["decode", "--watch", "examples/ingress-watch.pb"])).stdout);
  });

  it("reports a truncated watch stream with exit 1 after the events before it", async () => {
    const bytes = new Uint8Array(readFileSync(join(EXAMPLES, "ingress-watch.pb")));
    const r = await cli(["decode", "--watch", "-", "--output", "json"], { stdin: bytes.subarray(0, bytes.length - 5) });
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(r.stderr).toMatch(
      /^clusterwire: <stdin>: protobuf decode error at byte \d+: watch stream ended inside a frame/,
    );
  });
});

/**
 * Checks a committed example file against what the encoder makes now.
 * UPDATE_EXAMPLES=1 rewrites it instead.
 */
function expectExample(name: string, bytes: Uint8Array): void {
  const path = join(EXAMPLES, name);
  if (process.env["UPDATE_EXAMPLES"] === "1") writeFileSync(path, bytes);
  expect(new Uint8Array(readFileSync(path))).toEqual(new Uint8Array(bytes));
  // And it is what decode + encode reproduce.
  if (name === "ingress.pb") expect(encode(decode(bytes))).toEqual(new Uint8Array(bytes));
}
