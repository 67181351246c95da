// The documented commands and snippets the pack-and-install test runs
// (test/package/pack-install.test.ts): fenced code blocks of Markdown files,
// classified by their info string, and the example lines of --help texts.
// Pure text work, no processes: see doc-runner.ts for running them.
//
// The convention:
//   ```sh             each command runs with bash in the project directory; must exit 0
//   ```sh exit=N      the same, but the block's last command must exit N
//   ```sh serve       a long-running server, started in the background; the file's later
//                     blocks run while it listens, then it is stopped (SIGTERM)
//   ```sh cluster     needs a Kubernetes cluster, docker or kubectl: not run
//   ```sh contrib     a contributor's command, run from a clone of the repository: not run
//   ```ts, ```js      a complete ES module, run with node in the project (ts type-stripped)
//   ```ts fragment    an excerpt of types or shapes: not run
//   anything else     (text, console, yaml, json, ...) data or output: not run
// bash and shell are read as sh; typescript, javascript and mjs as ts and js.

/** What the test does with a block. */
export type BlockRun =
  | { readonly kind: "sh"; readonly exit: number }
  | { readonly kind: "serve" }
  | { readonly kind: "module"; readonly language: "ts" | "js" }
  | { readonly kind: "none"; readonly why: string }
  | { readonly kind: "invalid"; readonly problem: string };

export interface DocBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The info string after the fence, trimmed. */
  readonly info: string;
  /** The block's text, the fence's indentation removed, ending with a newline unless empty. */
  readonly code: string;
  /** 1-based line of the block's first line of code. */
  readonly codeLine: number;
  /** False when the file ends before the closing fence. */
  readonly closed: boolean;
  readonly run: BlockRun;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/** The fenced code blocks of a Markdown text, in order, each with its line and what to do with it. */
export function extractBlocks(markdown: string, file: string): DocBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: DocBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const open = FENCE.exec(lines[i] ?? "");
    // A backtick fence's info string may not hold a backtick (CommonMark): that is inline code.
    if (open === null || (open[2]?.startsWith("`") === true && open[3]?.includes("`") === true)) {
      i++;
      continue;
    }
    const indent = open[1]?.length ?? 0;
    const fence = open[2] ?? "";
    const info = (open[3] ?? "").trim();
    const start = i;
    const body: string[] = [];
    let closed = false;
    i++;
    for (; i < lines.length; i++) {
      const text = lines[i] ?? "";
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(text);
      if (close !== null && close[1]?.[0] === fence[0] && (close[1]?.length ?? 0) >= fence.length) {
        closed = true;
        i++;
        break;
      }
      body.push(stripIndent(text, indent));
    }
    blocks.push({
      file,
      line: start + 1,
      info,
      code: body.length === 0 ? "" : `${body.join("\n")}\n`,
      codeLine: start + 2,
      closed,
      run: classify(info),
    });
  }
  return blocks;
}

function stripIndent(line: string, indent: number): string {
  let n = 0;
  while (n < indent && line[n] === " ") n++;
  return line.slice(n);
}

const SHELLS = new Set(["sh", "bash", "shell"]);
const MODULES: Record<string, "ts" | "js"> = { ts: "ts", typescript: "ts", js: "js", javascript: "js", mjs: "js" };

/** What an info string asks for; unknown words on a runnable language are a mistake, not a silent skip. */
export function classify(info: string): BlockRun {
  const [language = "", ...words] = info.split(/\s+/).filter((w) => w !== "");
  const lang = language.toLowerCase();
  if (SHELLS.has(lang)) {
    let exit = 0;
    let mode: "sh" | "serve" | "cluster" | "contrib" = "sh";
    const seen: string[] = [];
    for (const w of words) {
      const m = /^exit=(\d{1,3})$/.exec(w);
      if (m !== null) exit = Number(m[1]);
      else if (w === "serve" || w === "cluster" || w === "contrib") mode = w;
      else
        return {
          kind: "invalid",
          problem: `unknown word "${w}" in \`\`\`${info} (known: exit=N, serve, cluster, contrib)`,
        };
      seen.push(w);
    }
    if (seen.length > 1)
      return { kind: "invalid", problem: `\`\`\`${info}: give at most one of exit=N, serve, cluster, contrib` };
    if (mode === "cluster") return { kind: "none", why: "needs a cluster" };
    if (mode === "contrib") return { kind: "none", why: "contributor command" };
    if (mode === "serve") return { kind: "serve" };
    return { kind: "sh", exit };
  }
  const module = MODULES[lang];
  if (module !== undefined) {
    if (words.length === 0) return { kind: "module", language: module };
    if (words.length === 1 && words[0] === "fragment") return { kind: "none", why: "fragment" };
    return { kind: "invalid", problem: `unknown words in \`\`\`${info} (known: fragment)` };
  }
  return { kind: "none", why: lang === "" ? "no language" : `${lang} is not run` };
}

/** One command of a shell block: its text (continuation lines and here-document included) and where it starts. */
export interface ShellCommand {
  readonly text: string;
  /** 1-based line in the file. */
  readonly line: number;
}

/**
 * Splits a shell block into commands: one per line, a line ending in a backslash
 * continuing onto the next, and a here-document (<<EOF, <<-'EOF') running to its
 * terminator. Blank lines and comment lines are dropped.
 */
export function shellCommands(code: string, firstLine: number): ShellCommand[] {
  const lines = code.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const commands: ShellCommand[] = [];
  let i = 0;
  while (i < lines.length) {
    const first = lines[i] ?? "";
    const trimmed = first.trim();
    if (trimmed === "" || trimmed.startsWith("#")) {
      i++;
      continue;
    }
    const start = i;
    const parts = [first];
    while (/(^|[^\\])(\\\\)*\\$/.test(lines[i] ?? "") && i + 1 < lines.length) {
      i++;
      parts.push(lines[i] ?? "");
    }
    i++;
    const heredocs = [...parts.join("\n").matchAll(/<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/g)];
    for (const h of heredocs) {
      const tabs = h[1] === "-";
      while (i < lines.length) {
        const body = lines[i] ?? "";
        parts.push(body);
        i++;
        if ((tabs ? body.replace(/^\t+/, "") : body) === h[3]) break;
      }
    }
    commands.push({ text: parts.join("\n"), line: firstLine + start });
  }
  return commands;
}

/** An example command line of a --help text. */
export interface HelpExample {
  /** The command as written (continuation lines joined with their backslashes), without a leading "$ ". */
  readonly text: string;
  /** The exit status a trailing "# exit N" comment gives it, else 0. */
  readonly exit: number;
  /** True for `clusterwire ... serve` commands (storage serve, webhook serve): servers. */
  readonly serve: boolean;
  /** 1-based line in the help text. */
  readonly line: number;
}

/**
 * The example commands of a --help text: in its Example: or Examples: section (to the
 * next line that is not indented), each line that starts with `clusterwire ` or
 * `$ clusterwire `, with the lines its trailing backslashes continue onto. Other lines
 * there (VAR=... clusterwire, prose) are not commands.
 */
export function helpExamples(help: string): HelpExample[] {
  const lines = help.split(/\r?\n/);
  const examples: HelpExample[] = [];
  let inExamples = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (/^Examples?( \(.*\))?:\s*$/.test(line)) {
      inExamples = true;
      continue;
    }
    if (!inExamples) continue;
    if (line !== "" && !/^\s/.test(line)) {
      inExamples = false;
      continue;
    }
    const m = /^\s*(?:\$ )?(clusterwire .*)$/.exec(line);
    if (m === null) continue;
    const start = i;
    const parts = [m[1] ?? ""];
    while (/\\$/.test(lines[i] ?? "") && i + 1 < lines.length) {
      i++;
      parts.push(lines[i] ?? "");
    }
    const text = parts.join("\n");
    const exit = /#\s*exit\s+(\d{1,3})\b[^\n]*$/.exec(text);
    examples.push({
      text,
      exit: exit === null ? 0 : Number(exit[1]),
      serve: /^clusterwire\s+(?:\S+\s+)?serve\b/.test(text),
      line: start + 1,
    });
  }
  return examples;
}

// The command names a help text lists: one parser, shared with the link check.
export { listedCommands } from "../../../scripts/check-docs.mjs";
