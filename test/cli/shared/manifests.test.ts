// Loading the objects route and reach answer from: files, directories and stdin read as validate
// reads them, other kinds passed over with a note, Lists expanded, watch streams set apart, and
// any document that cannot be read failing the whole load.
import { describe, expect, it } from "vitest";
import { CliError, EXIT_USAGE } from "../../../src/cli/shared/io.js";
import { loadManifestObjects } from "../../../src/cli/shared/manifests.js";
import { kindOf } from "../../../src/networking/index.js";
import {
  ingressClassYaml,
  memorySink,
  netpolYaml,
  otherKindYaml,
  stream,
  tempTrees,
  v1List,
} from "../../support/cli/validate.js";

const tree = tempTrees("manifests");

function io(cwd: string, stdin?: string) {
  const stderr = memorySink(false);
  return {
    io: {
      stdout: memorySink(false),
      stderr,
      cwd,
      ...(stdin === undefined ? {} : { stdin: { chunks: [new TextEncoder().encode(stdin)] } }),
    },
    stderr,
  };
}

const watchLine = (name: string) =>
  `${JSON.stringify({ type: "ADDED", object: { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name } } })}\n`;

const nameOf = (o: unknown) => (o as { metadata?: { name?: string } }).metadata?.name;

describe("loadManifestObjects", () => {
  const dir = tree({
    "a.yaml": stream(ingressClassYaml("a"), otherKindYaml("v1", "Service", "s"), netpolYaml()),
    "one.yaml": ingressClassYaml("one"),
    "list.yaml": v1List(ingressClassYaml("l1"), ingressClassYaml("l2")),
    "typed-list.json": JSON.stringify({
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClassList",
      metadata: {},
      items: [{ metadata: { name: "t1" } }, { metadata: { name: "t2" } }],
    }),
    "package.json": '{"name":"x"}',
    "w/watch.jsonl": watchLine("w1") + watchLine("w2"),
  });

  it("reads each input in order, naming where each object came from", async () => {
    const { io: x, stderr } = io(dir, ingressClassYaml("in"));
    const r = await loadManifestObjects(x, ["a.yaml", "one.yaml", "list.yaml", "typed-list.json", "-"], "route", true);
    expect(r.objects.map((o) => [o.source, kindOf(o.object).kind, nameOf(o.object)])).toEqual([
      ["a.yaml (document 1)", "IngressClass", "a"],
      ["a.yaml (document 3)", "NetworkPolicy", "web"],
      ["one.yaml", "IngressClass", "one"],
      ["list.yaml (document 1) items[0]", "IngressClass", "l1"],
      ["list.yaml (document 1) items[1]", "IngressClass", "l2"],
      ["typed-list.json items[0]", "IngressClass", "t1"],
      ["typed-list.json items[1]", "IngressClass", "t2"],
      ["<stdin>", "IngressClass", "in"],
    ]);
    expect(r.watchEvents).toEqual([]);
    expect(stderr.text()).toBe("");
  });

  it("sets watch streams apart, and notes the other kinds and non-manifests it passes over unless quiet", async () => {
    const { io: x, stderr } = io(dir);
    const r = await loadManifestObjects(x, ["w", "a.yaml", "package.json"], "reach", false);
    expect(r.watchEvents).toEqual(["w/watch.jsonl (event 1)", "w/watch.jsonl (event 2)"]);
    expect(r.objects.map((o) => o.source)).toEqual(["a.yaml (document 1)", "a.yaml (document 3)"]);
    expect(stderr.text()).toBe(
      [
        "clusterwire: a.yaml:8 Service s: skipped: v1 Service is not a networking.k8s.io/v1 kind",
        "clusterwire: package.json: skipped: no kind: not a Kubernetes manifest",
        "",
      ].join("\n"),
    );
  });

  it("reports every input it cannot read, then fails the load with the last one (exit 2)", async () => {
    const bad = tree({
      "typo.yaml": "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: x\n  nmae: y\n",
      "good.yaml": ingressClassYaml("good"),
      "empty/readme.txt": "",
    });
    const { io: x, stderr } = io(bad);
    const e = await loadManifestObjects(x, ["typo.yaml", "good.yaml", "nope", "empty"], "route", true).catch(
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(CliError);
    expect(e).toMatchObject({
      exitCode: EXIT_USAGE,
      message: "empty: no .yaml, .yml, .json, .jsonl or .pb files found",
    });
    // Quiet silences the notes, not the failures.
    expect(stderr.text()).toBe(
      [
        'clusterwire: typo.yaml:5:9 IngressClass x: error: strict decoding error: unknown field "metadata.nmae"',
        "clusterwire: nope: cannot read: no such file or directory",
        "",
      ].join("\n"),
    );
  });

  it("takes - only once", async () => {
    const e = await loadManifestObjects(io(dir, "").io, ["-", "one.yaml", "-"], "reach", true).catch(
      (err: unknown) => err,
    );
    expect(e).toMatchObject({
      message: "- (standard input) can be given only once",
      exitCode: EXIT_USAGE,
      help: "clusterwire reach --help",
    });
  });
});
