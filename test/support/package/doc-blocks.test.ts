// The pack-and-install test's harness, on made-up Markdown and help texts: it
// must find every block with its line, read the convention's info strings, and
// fail (with file, line, command, exit status and output) when a command does.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { classify, extractBlocks, helpExamples, listedCommands, shellCommands } from "./doc-blocks.js";
import {
  cleanEnv,
  formatFailure,
  isInstallOfInstalled,
  type Place,
  runDocBlocks,
  runHelpExamples,
  tail,
} from "./doc-runner.js";

describe("extractBlocks", () => {
  it("finds each fenced block with the line of its fence, its info string and its text", () => {
    const md = [
      "# Title", // 1
      "", // 2
      "```sh", // 3
      "npx clusterwire --version", // 4
      "```", // 5
      "text ```not a fence``` here", // 6
      "~~~ts fragment", // 7
      "type A = 1;", // 8
      "~~~", // 9
      "- a list item:", // 10
      "", // 11
      "   ```sh exit=1", // 12
      "   false", // 13
      "    indented more", // 14
      "   ```", // 15
    ].join("\n");
    const blocks = extractBlocks(md, "README.md");
    expect(blocks.map((b) => [b.line, b.info, b.code, b.codeLine, b.closed])).toEqual([
      [3, "sh", "npx clusterwire --version\n", 4, true],
      [7, "ts fragment", "type A = 1;\n", 8, true],
      [12, "sh exit=1", "false\n indented more\n", 13, true],
    ]);
    expect(blocks.map((b) => b.run)).toEqual([
      { kind: "sh", exit: 0 },
      { kind: "none", why: "fragment" },
      { kind: "sh", exit: 1 },
    ]);
    expect(blocks.every((b) => b.file === "README.md")).toBe(true);
  });

  it("a longer fence holds a shorter one, a closing fence matches the opening character, and an unclosed block is marked", () => {
    const md = ["````md", "```sh", "echo inner", "```", "````", "", "~~~sh", "echo a", "```", "echo b"].join("\n");
    const blocks = extractBlocks(md, "x.md");
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatchObject({ info: "md", code: "```sh\necho inner\n```\n", closed: true });
    expect(blocks[1]).toMatchObject({ line: 7, info: "sh", code: "echo a\n```\necho b\n", closed: false });
  });

  it("an empty block has empty code, and a block with no info string is not run", () => {
    const [block] = extractBlocks("```\n```\n", "x.md");
    expect(block).toMatchObject({ code: "", info: "", closed: true, run: { kind: "none" } });
  });
});

describe("classify", () => {
  it.each([
    ["sh", { kind: "sh", exit: 0 }],
    ["bash", { kind: "sh", exit: 0 }],
    ["sh exit=2", { kind: "sh", exit: 2 }],
    ["sh serve", { kind: "serve" }],
    ["sh cluster", { kind: "none", why: "needs a cluster" }],
    ["sh contrib", { kind: "none", why: "contributor command" }],
    ["ts", { kind: "module", language: "ts" }],
    ["typescript", { kind: "module", language: "ts" }],
    ["js", { kind: "module", language: "js" }],
    ["ts fragment", { kind: "none", why: "fragment" }],
    ["console", { kind: "none", why: "console is not run" }],
    ["yaml", { kind: "none", why: "yaml is not run" }],
  ])("```%s", (info, run) => {
    expect(classify(info)).toEqual(run);
  });

  it.each(["sh exits=1", "sh exit=1 serve", "sh Serve", "ts fragmnet", "ts serve"])(
    "```%s is a mistake, not a block silently skipped",
    (info) => {
      expect(classify(info).kind).toBe("invalid");
    },
  );
});

describe("shellCommands", () => {
  it("one command a line, with backslash continuations and here-documents; comments and blank lines dropped", () => {
    const code = [
      "# a comment", // 10
      "npx clusterwire decode \\", // 11
      "  node_modules/clusterwire/examples/ingress.pb", // 12
      "", // 13
      "cat > a.yaml <<'EOF'", // 14
      "kind: Ingress", // 15
      "EOF", // 16
      "echo done   # trailing comment", // 17
    ].join("\n");
    expect(shellCommands(`${code}\n`, 10)).toEqual([
      { text: "npx clusterwire decode \\\n  node_modules/clusterwire/examples/ingress.pb", line: 11 },
      { text: "cat > a.yaml <<'EOF'\nkind: Ingress\nEOF", line: 14 },
      { text: "echo done   # trailing comment", line: 17 },
    ]);
  });
});

const HELP = `Usage: clusterwire thing [options] FILE
       clusterwire thing --other FILE

Prose that mentions clusterwire thing in passing.

Options:
  -h, --help   show this help

Examples:
  clusterwire thing node_modules/clusterwire/examples/a.yaml
  $ clusterwire thing --long \\
      node_modules/clusterwire/examples/b.yaml   # exit 1: b is invalid on purpose
  STORAGE_PASSWORD=... clusterwire thing serve
  clusterwire storage serve --port 0
Exit status: 0 ok.
  clusterwire not-an-example`;

describe("helpExamples", () => {
  it("takes the example lines of the Examples section, not the usage lines, with their exit status and whether they serve", () => {
    expect(helpExamples(HELP)).toEqual([
      { text: "clusterwire thing node_modules/clusterwire/examples/a.yaml", exit: 0, serve: false, line: 10 },
      {
        text: "clusterwire thing --long \\\n      node_modules/clusterwire/examples/b.yaml   # exit 1: b is invalid on purpose",
        exit: 1,
        serve: false,
        line: 11,
      },
      { text: "clusterwire storage serve --port 0", exit: 0, serve: true, line: 14 },
    ]);
  });

  it("a help with no Examples section has none", () => {
    expect(helpExamples("Usage: clusterwire x\n  clusterwire x y\n")).toEqual([]);
  });
});

describe("listedCommands", () => {
  it("reads the names under Commands: or Subcommands:", () => {
    const help = "Usage: x\n\nCommands:\n  decode    to YAML\n  webhook   the webhook\n\nOptions:\n  -h  help\n";
    expect(listedCommands(help)).toEqual(["decode", "webhook"]);
    expect(listedCommands("Subcommands:\n  serve  run it\n  certs  make them\n")).toEqual(["serve", "certs"]);
  });
});

describe("isInstallOfInstalled", () => {
  it.each([
    ["npm install clusterwire", true],
    ["npm i -D clusterwire fast-check", true],
    ["npm install clusterwire@0.1.0", true],
    ["npm install --save-dev fast-check", true],
    ["npm install clusterwire left-pad", false],
    ["npm install", false],
    ["npm install -g clusterwire", false],
    ["npm ci", false],
  ])("%s: %s", (text, expected) => {
    expect(isInstallOfInstalled(text)).toBe(expected);
  });
});

describe("running blocks (made-up Markdown in a temporary directory)", () => {
  const root = mkdtempSync(join(tmpdir(), "doc-blocks-"));
  const cwd = mkdtempSync(join(root, "project-"));
  const scratch = mkdtempSync(join(root, "scratch-"));
  const place: Place = { cwd, scratch, env: cleanEnv(), timeoutMs: 15_000 };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const SERVER = (host: string) =>
    `node -e 'const s = require("node:http").createServer((q, r) => r.end("hi")); s.listen(0, "${host}", () => console.log("listening on http://" + (s.address().family === "IPv6" ? "[::1]" : s.address().address) + ":" + s.address().port)); process.on("SIGTERM", () => s.close())'`;

  it("passing blocks give no failures; files, cd and exports carry over within a block; a server keeps running past its block", async () => {
    const md = [
      "```sh",
      "echo hello > out.txt",
      "export GREETING=hi",
      'test "$GREETING" = hi && grep -q hello out.txt',
      "```",
      "```sh exit=3",
      "true",
      "bash -c 'exit 3'",
      "```",
      "```sh serve",
      SERVER("127.0.0.1"),
      "```",
      "```ts",
      "const n: number = 40 + 2;",
      "await new Promise((r) => setTimeout(r, 1));",
      'if (n !== 42) throw new Error("arithmetic");',
      "```",
      "```sh cluster",
      "kubectl apply -f nothing.yaml",
      "```",
      "```text",
      "not run",
      "```",
    ].join("\n");
    const failures = await runDocBlocks(extractBlocks(md, "docs/ok.md"), place);
    expect(failures.map(formatFailure)).toEqual([]);
  });

  it("a failing command is reported with its file, line, command, exit status and output, and the blocks after it still run", async () => {
    const md = [
      "# Doc", // 1
      "```sh", // 2
      "echo first", // 3
      "echo 'something broke' >&2; exit 3", // 4
      "echo never", // 5
      "```", // 6
      "```sh exit=1", // 7
      "true", // 8
      "```", // 9
      "```js", // 10
      "console.log('from the module'); process.exit(4);", // 11
      "```", // 12
      "```ts", // 13
      "const x: = 1;", // 14
      "```", // 15
      "```sh exits=1", // 16
      "true", // 17
      "```", // 18
      "```sh", // 19
      "echo unclosed", // 20
    ].join("\n");
    const failures = await runDocBlocks(extractBlocks(md, "docs/bad.md"), place);
    expect(failures.map((f) => [f.where, f.got, f.expected])).toEqual([
      ["docs/bad.md:4", "exit 3", "exit 0"],
      ["docs/bad.md:8", "exit 0", "exit 1"],
      ["docs/bad.md:10", "exit 4", "exit 0"],
      ["docs/bad.md:13", "a syntax error", "TypeScript"],
      ["docs/bad.md:16", expect.stringContaining('unknown word "exits=1"'), "the convention"],
      ["docs/bad.md:19", "no closing fence", "one"],
    ]);
    const first = formatFailure(failures[0] ?? expect.fail("no failure"));
    expect(first).toContain("docs/bad.md:4 (```sh): echo 'something broke' >&2; exit 3");
    expect(first).toContain("exit 3, expected exit 0");
    expect(first).toContain("something broke");
    expect(formatFailure(failures[2] ?? expect.fail("no failure"))).toContain("from the module");
  });

  it("a server that listens on every interface, or exits instead of listening, fails; a slow command times out, but the timeout is per command", async () => {
    const md = [
      "```sh serve", // 1
      SERVER("0.0.0.0"), // 2
      "```", // 3
      "```sh serve", // 4
      "echo no server here", // 5
      "```", // 6
      "```sh", // 7
      "sleep 20", // 8
      "```", // 9
      "```sh", // 10
      "sleep 2", // 11
      "sleep 2", // 12
      "```", // 13
    ].join("\n");
    const failures = await runDocBlocks(extractBlocks(md, "docs/servers.md"), { ...place, timeoutMs: 3_000 });
    expect(failures.map((f) => [f.where, f.got])).toEqual([
      ["docs/servers.md:1", expect.stringMatching(/^listens on http:\/\/0\.0\.0\.0:\d+, not on 127\.0\.0\.1/)],
      ["docs/servers.md:4", "exit 0"],
      ["docs/servers.md:8", "timed out after 3 s"],
    ]);
  });

  it("help examples run one by one with their expected exit status; a failure names the help and its line", async () => {
    const help = [
      "Usage: clusterwire x", // 1
      "", // 2
      "Examples:", // 3
      "  clusterwire ok", // 4
      "  clusterwire fails   # exit 1", // 5
      "  clusterwire fails", // 6
    ].join("\n");
    // A stand-in for npx: runs its arguments with "clusterwire" as a shell function.
    const bin = join(scratch, "bin");
    const { mkdirSync, writeFileSync, chmodSync } = await import("node:fs");
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, "npx"),
      '#!/usr/bin/env bash\nif [ "$1 $2" = "clusterwire fails" ]; then echo "it failed" >&2; exit 1; fi\nexit 0\n',
    );
    chmodSync(join(bin, "npx"), 0o755);
    const env = { ...place.env, PATH: `${bin}:${place.env.PATH ?? ""}` };
    const failures = await runHelpExamples(helpExamples(help), "clusterwire x --help", { ...place, env });
    expect(failures.map((f) => [f.where, f.command, f.got, f.output.trim()])).toEqual([
      ["clusterwire x --help, line 6", "npx clusterwire fails", "exit 1", "it failed"],
    ]);
  });

  it("tail keeps the last lines and says how many it left out", () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    expect(tail(text, 3)).toBe("… (27 lines before)\nline 28\nline 29\nline 30");
  });
});
