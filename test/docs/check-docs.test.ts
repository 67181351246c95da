// scripts/check-docs.mjs, the link and reference check: first its rules on small made-up
// inputs (so a broken rule fails here, not only as a silent pass on the repository), then the
// repository itself, which must have no dangling link, anchor, rule id or shared/ mention in
// what users read (README, docs/, examples/, src/, the .d.ts files and every --help).
import { buildIsStale } from "../support/global-build.js";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkRepository,
  githubSlug,
  markdownAnchors,
  markdownLinks,
  packageFilter,
  pathTokens,
  ruleAnchor,
  ruleIds,
} from "../../scripts/check-docs.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "clusterwire-check-docs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A made-up repository: each key a path, each value the file's text. */
function repo(name: string, files: Record<string, string>): string {
  const root = join(work, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const RULE_PAGES = {
  "docs/ingress-routing.md":
    '# Routing\n\n<a id="r1"></a>\n### R1. One\n\n<a id="r2"></a>\n### R2. Two\n\n1. <a id="r2-1"></a>first\n',
  "docs/network-policy.md": '# Policy\n\n<a id="e1"></a>\n### E1. One\n',
};

describe("GitHub heading slugs", () => {
  it.each([
    ["R1. One controller", "r1-one-controller"],
    ["Inputs the rules leave open, and what clusterwire does", "inputs-the-rules-leave-open-and-what-clusterwire-does"],
    ["`createRouter` and `route()`", "createrouter-and-route"],
    ["Foo & Bar", "foo--bar"],
    ["C++ API", "c-api"],
    ["1.2 Paths and shapes", "12-paths-and-shapes"],
    ["**Bold**, _emphasis_ and snake_case", "bold-emphasis-and-snake_case"],
    ["[A link](other.md) in a heading", "a-link-in-a-heading"],
    ["Über café", "über-café"],
  ])("%s -> %s", (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  it("numbers repeats, reads explicit ids, and skips fenced code", () => {
    const text = [
      "# Setup",
      "## Setup",
      "## Setup",
      "```sh",
      "# not a heading",
      "```",
      '<a id="r7-3"></a>',
      '<span name="old-name"></span>',
      "",
      "Underlined",
      "----------",
      "## Setup-1",
    ].join("\n");
    expect([...markdownAnchors(text)].sort()).toEqual(
      ["setup", "setup-1", "setup-2", "r7-3", "old-name", "underlined", "setup-1-1"].sort(),
    );
  });
});

describe("Markdown links", () => {
  it("finds inline, wrapped, reference and HTML links, but none in code", () => {
    const text = [
      "See [the rules](docs/rules.md#r2) and [a long",
      "link text](../up.md 'title').",
      "`[not a link](nowhere.md)` and ![an image](img.png)",
      "```md",
      "[also not](code.md)",
      "```",
      "[ref]: <docs/with space.md>",
      '<a href="examples/">examples</a>',
    ].join("\n");
    expect(markdownLinks(text)).toEqual([
      { line: 1, target: "docs/rules.md#r2" },
      { line: 2, target: "../up.md" },
      { line: 3, target: "img.png" },
      { line: 7, target: "docs/with space.md" },
      { line: 8, target: "examples/" },
    ]);
  });
});

describe("rule ids", () => {
  it("reads ids, steps and ranges as whole words only", () => {
    const ids = ruleIds("R7.3/R7.4, R9 and E1–E3; not E2E, #E5, 0xE5, R2s, HTTP/2; R4-R5").map(
      (id) => `${id.text}:${ruleAnchor(id)}`,
    );
    expect(ids).toEqual([
      "R7.3:r7-3",
      "R7.4:r7-4",
      "R9:r9",
      "E1–E3:e1",
      "E1–E3:e2",
      "E1–E3:e3",
      "R4-R5:r4",
      "R4-R5:r5",
    ]);
  });
});

describe("path references", () => {
  it("takes docs/, examples/ and .md paths, and shared/ mentions; not hosts or URLs", () => {
    const tokens = pathTokens(
      "docs/a.md#r2, k8s.io/ingress-nginx, https://example.com/docs/b.md, node_modules/clusterwire/examples/x.yaml, ../shared/io.js, README.md.",
    );
    expect(tokens).toEqual([
      { token: "docs/a.md#r2", path: "docs/a.md", anchor: "r2", shared: false },
      { token: "node_modules/clusterwire/examples/x.yaml", path: "examples/x.yaml", shared: false },
      { token: "../shared/io.js", path: "../shared/io.js", shared: true },
      { token: "README.md.", path: "README.md", shared: false },
    ]);
  });

  it("reads package.json files as npm does, with what npm always packs", () => {
    const shipped = packageFilter(["dist/src", "examples/demo", "docs/*.md", "!docs/draft.md"]);
    expect(
      [
        "dist/src/a.js",
        "examples/demo/x.yaml",
        "examples/x.yaml",
        "docs/a.md",
        "docs/draft.md",
        "LICENSE",
        "README.md",
      ].map(shipped),
    ).toEqual([true, true, false, true, false, true, true]);
  });
});

describe("checkRepository on made-up repositories", () => {
  it("finds nothing wrong in a clean one", () => {
    const root = repo("clean", {
      "package.json": JSON.stringify({ files: ["dist/src", "docs", "examples"] }),
      "README.md":
        "# Tool\n\nRead [routing](docs/ingress-routing.md#r2-1), [R1](docs/ingress-routing.md#r1) and [below](#tool).\n",
      "CONTRIBUTING.md": "The private notes live in the sibling folder ../shared/docs/ (not linked).\n",
      "src/cli/main.ts": 'import { io } from "./shared/io.js"; // R2, E1: see docs/network-policy.md#e1\n',
      "src/cli/shared/io.ts": "export const io = 1;\n",
      "examples/a.yaml": "# R1-R2 apply here\n",
      ...RULE_PAGES,
    });
    const help = [
      {
        name: "route --help",
        text: "Routes requests (R1, see docs/ingress-routing.md).\n  tool route examples/a.yaml\n",
      },
    ];
    expect(checkRepository(root, { dist: true, help }).problems).toEqual([
      {
        file: "dist/src",
        line: 0,
        message: "no .d.ts files: run npm run build first (or --skip-dist)",
        kind: "reference",
      },
    ]);
    expect(checkRepository(root, { dist: false }).problems).toEqual([]);
  });

  it("reports each kind of problem at its file and line", () => {
    const root = repo("broken", {
      "package.json": JSON.stringify({ files: ["dist/src", "examples/demo"] }),
      "README.md": [
        "# Tool",
        "[gone](docs/missing.md) [anchor](docs/ingress-routing.md#r9) [up](../shared/docs/x.md)",
        "Rules R12 and E1.",
        "Try `examples/demo/a.yaml` and examples/b.yaml. [ok](#tool) [bad](#nope)",
        "Copy from shared/testdata/ first. check-docs-ignore: shared/ here is fine",
      ].join("\n"),
      "src/a.ts": "// See shared/docs/semantics.md §1 and docs/ingress-routing.md#r3.\nexport const R9 = 1;\n",
      "examples/demo/a.yaml": "a: 1\n",
      "examples/b.yaml": "b: 1\n",
      "dist/src/a.d.ts": "/** The router of R1; shared/docs/x.md. */\nexport {};\n",
      ...RULE_PAGES,
    });
    const help = [{ name: "reach --help", text: "Usage: tool reach\n(see docs/network-policy.md, E16)\n" }];
    const lines = checkRepository(root, { help }).problems.map((p) => `${p.file}:${p.line}: ${p.kind}: ${p.message}`);
    expect(lines).toEqual([
      "README.md:2: reference: link docs/missing.md: no such file docs/missing.md",
      "README.md:2: package: link docs/ingress-routing.md#r9: docs/ingress-routing.md is not in the package (package.json files)",
      "README.md:2: reference: link docs/ingress-routing.md#r9: no anchor #r9 in docs/ingress-routing.md",
      "README.md:2: reference: link ../shared/docs/x.md leaves the repository",
      "README.md:2: reference: mentions the private shared/ folder: ../shared/docs/x.md",
      "README.md:3: reference: rule R12: no anchor #r12 in docs/ingress-routing.md",
      "README.md:4: reference: link #nope: no anchor #nope in README.md",
      "README.md:4: package: examples/b.yaml is in the repository but not in the package (package.json files)",
      "src/a.ts:1: reference: mentions the private shared/ folder: shared/docs/semantics.md",
      "src/a.ts:1: package: docs/ingress-routing.md is in the repository but not in the package (package.json files)",
      "src/a.ts:1: reference: docs/ingress-routing.md: no anchor #r3 in docs/ingress-routing.md",
      "src/a.ts:2: reference: rule R9: no anchor #r9 in docs/ingress-routing.md",
      "dist/src/a.d.ts:1: reference: mentions the private shared/ folder: shared/docs/x.md",
      "help: clusterwire reach --help:2: reference: rule E16: no anchor #e16 in docs/network-policy.md",
      "help: clusterwire reach --help:2: package: docs/network-policy.md is in the repository but not in the package (package.json files)",
    ]);
  });
});

describe("the repository", () => {
  beforeAll(() => {
    // The help and the .d.ts files come from dist/, which vitest's global setup
    // (test/support/global-build.ts) brings up to date before any test file starts.
    if (buildIsStale(ROOT)) throw new Error("dist/ is older than src/: run npm run build");
  });

  it("has no dangling link, anchor, rule id, shared/ mention or unshipped reference", () => {
    const { problems, checked } = checkRepository(ROOT);
    expect(checked.help).toBeGreaterThan(5);
    expect(checked.declarations).toBeGreaterThan(50);
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([]);
  }, 120_000);
});
