#!/usr/bin/env node
// The link and reference check (`npm run docs:check`): no dangling file, anchor or rule id in
// what users read. It prints FILE:LINE: PROBLEM for each problem and exits 1 when there is any
// (0 when there is none, 2 when it cannot run). No network: http(s) links are allowed, never fetched.
//
// What is read, from the repository root:
//   Markdown  README.md, CONTRIBUTING.md, CHANGELOG.md, docs/**/*.md, examples/**/*.md
//   shipped   src/**, bin/**, proto/**, gen/**, examples/** (comments, strings, help text, data)
//   built     dist/src/**/*.d.ts (the comments that ship in the type declarations), and the help
//             of every command: `node bin/clusterwire.js --help`, then `<command> --help` for each
//             command it lists and `<command> <subcommand> --help` for each subcommand. Both need
//             `npm run build` first; `--skip-dist` leaves them out.
//
// The checks:
//   links    Every relative Markdown link (inline `[x](path#anchor)`, reference definitions,
//            HTML href/src) names a file or folder inside the repository, and its #anchor
//            exists in the target: a heading's GitHub slug (lower case, punctuation other than
//            - and _ dropped, spaces to -, repeats get -1, -2, ...) or an explicit id="..." /
//            name="...". Links that leave the repository (../shared/...) are problems.
//   shared   Nothing above, except CONTRIBUTING.md, mentions the private sibling folder
//            `shared/`. A path that merely has a folder named shared in it, and exists (the
//            CLI's src/cli/shared/, an import of ./shared/io.js), is fine.
//   rules    Every rule id, a whole word R1..R99 or E1..E99, optionally with a step (R7.3,
//            read as anchor r7-3) or as a range (R1-R11, E1–E15: every id in it), has its
//            anchor: R ids in docs/ingress-routing.md, E ids in docs/network-policy.md.
//   paths    Every path-looking reference in text, `docs/....md`, `examples/...` or `*.md`
//            (a `node_modules/clusterwire/` prefix is dropped; #anchors are checked too), names
//            an existing file or folder; Markdown link targets are left to the link check. A bare
//            file name (`SOURCES.md`) may also be the name of a .md file anywhere in the repository.
//   shipping A reference to docs/ or examples/, or to a .md file at the root other than
//            CONTRIBUTING.md, made from something that ships (README.md, docs/, examples/, src/, bin/, proto/,
//            gen/, help text) also has to be in the package: package.json `files`, plus what
//            npm always packs (package.json, README.md, LICENSE) and CHANGELOG.md.
//
// False positives: add `check-docs-ignore` to the line (in a comment), or an entry to ALLOW
// below ({ file: RegExp for the repository-relative path, text: RegExp for the line }).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Lines the checks skip (beyond `check-docs-ignore`): { file, text } regular expressions. */
export const ALLOW = [
  // A made-up file name in the examples of a message format (src/cli/shared/verdict.ts).
  { file: /^(src|dist\/src)\/cli\/shared\/verdict\./, text: /examples\/x\.yaml/ },
];

/** Where each family of rule ids lives. */
export const RULE_PAGES = { R: "docs/ingress-routing.md", E: "docs/network-policy.md" };

const MARKDOWN_ROOT_FILES = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"];
const MARKDOWN_DIRS = ["docs", "examples"];
const SHIPPED_DIRS = ["src", "bin", "proto", "gen", "examples"];
const TEXT_EXTENSIONS = /\.(?:ts|mts|cts|js|mjs|cjs|json|jsonc|ya?ml|md|txt|proto|html|css|sh|jsonl)$/;
/** Shipped whatever `files` says (npm packs the first three always). */
const ALWAYS_SHIPPED = ["package.json", "README.md", "LICENSE", "CHANGELOG.md"];
/** A root .md file that may be named from shipped text although it stays in the repository. */
const REPOSITORY_ONLY_MD = new Set(["CONTRIBUTING.md"]);
const IGNORE_MARKER = "check-docs-ignore";

// ------------------------------------------------------------------ Markdown

/**
 * The lines of a Markdown text with fenced code blocks marked, so headings and links are
 * only looked for outside them. Returns `{ text, inCode }[]`.
 */
export function markdownLines(text) {
  const out = [];
  let fence = null;
  for (const line of text.split("\n")) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null) {
      if (m) {
        fence = m[1];
        out.push({ text: line, inCode: true });
      } else out.push({ text: line, inCode: false });
    } else {
      out.push({ text: line, inCode: true });
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = null;
    }
  }
  return out;
}

/** The text a heading renders to: inline code, emphasis, links and HTML tags reduced to their text. */
function headingText(raw) {
  return raw
    .replace(/<[^>]+>/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, "$1")
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[^\w])[*_](\S(?:.*?\S)?)[*_](?=[^\w]|$)/g, "$1$2")
    .trim();
}

/** GitHub's slug of a heading's text (before de-duplication). */
export function githubSlug(text) {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown text defines: heading slugs (with -1, -2 for repeats) and explicit ids. */
export function markdownAnchors(text) {
  const anchors = new Set();
  // As github-slugger counts: a repeat of `x` becomes x-1, x-2, ..., skipping slugs already taken.
  const occurrences = new Map();
  const addSlug = (heading) => {
    const base = githubSlug(heading);
    let slug = base;
    while (occurrences.has(slug)) {
      const n = occurrences.get(base) + 1;
      occurrences.set(base, n);
      slug = `${base}-${n}`;
    }
    occurrences.set(slug, 0);
    anchors.add(slug);
  };
  const lines = markdownLines(text);
  lines.forEach((l, i) => {
    if (l.inCode) return;
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(l.text);
    if (atx) addSlug(atx[1] ?? "");
    else {
      const next = lines[i + 1];
      if (
        next !== undefined &&
        !next.inCode &&
        /^ {0,3}(=+|-+)[ \t]*$/.test(next.text) &&
        l.text.trim() !== "" &&
        !/^ {0,3}([-*+]|\d+[.)]|>)\s/.test(l.text) &&
        (i === 0 || lines[i - 1].text.trim() === "" || lines[i - 1].inCode || /^ {0,3}#/.test(lines[i - 1].text))
      ) {
        addSlug(l.text.trim());
      }
    }
    for (const m of l.text.matchAll(/\b(?:id|name)\s*=\s*["']([^"']+)["']/g)) anchors.add(m[1]);
  });
  return anchors;
}

/** Inline code spans blanked out (same length), so what they hold is never read as a link. */
function blankCodeSpans(line) {
  return line.replace(/(`+)([\s\S]*?)\1/g, (m) => " ".repeat(m.length));
}

/**
 * The link targets of a Markdown text, outside code: `{ line, target }` (line is 1-based).
 * Inline links and images (their text may span lines), reference definitions, HTML href/src.
 */
export function markdownLinks(text) {
  const lines = markdownLines(text);
  const prose = lines.map((l) => (l.inCode ? "" : blankCodeSpans(l.text))).join("\n");
  const starts = [0];
  for (let i = 0; i < prose.length; i++) if (prose[i] === "\n") starts.push(i + 1);
  const lineAt = (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const links = [];
  const inline = /\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
  for (const m of prose.matchAll(inline)) {
    let target = m[1];
    if (target.startsWith("<")) target = target.slice(1, -1);
    links.push({ line: lineAt(m.index + m[0].indexOf(m[1])), target });
  }
  for (const m of prose.matchAll(/^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)/gm)) {
    links.push({ line: lineAt(m.index), target: m[1].replace(/^<|>$/g, "") });
  }
  for (const m of prose.matchAll(/<(?:a|img|source)\b[^>]*?\s(?:href|src)\s*=\s*["']([^"']+)["']/g)) {
    links.push({ line: lineAt(m.index), target: m[1] });
  }
  return links;
}

// ------------------------------------------------------------------ text references

/** Whole-word rule ids in a line: `{ family, rule, step?, text }`, a range giving every id in it. */
export function ruleIds(line) {
  const ids = [];
  const re = /(?<![\w.#-])([RE])(\d{1,2})(?:\.(\d{1,2}))?(?:\s*[-–]\s*\1?(\d{1,2}))?(?![\w-]|\.\d)/g;
  for (const m of line.matchAll(re)) {
    const family = m[1];
    const from = Number(m[2]);
    const to = m[4] === undefined ? undefined : Number(m[4]);
    if (to !== undefined && m[3] === undefined && to > from) {
      for (let r = from; r <= to; r++) ids.push({ family, rule: r, text: m[0] });
    } else {
      ids.push({
        family,
        rule: from,
        ...(m[3] === undefined ? {} : { step: Number(m[3]) }),
        text: `${family}${m[2]}${m[3] === undefined ? "" : `.${m[3]}`}`,
      });
      if (to !== undefined) ids.push({ family, rule: to, text: `${family}${to}` });
    }
  }
  return ids;
}

/** The anchor a rule id resolves to: r7, or r7-3 for a step. */
export function ruleAnchor(id) {
  const base = `${id.family.toLowerCase()}${id.rule}`;
  return id.step === undefined ? base : `${base}-${id.step}`;
}

/**
 * Path-looking tokens of a line: runs of path characters that mention shared/, start with
 * docs/ or examples/ (after an optional node_modules/clusterwire/), or end in .md; with an
 * optional #anchor. Tokens whose first segment looks like a host name (k8s.io/..., a URL)
 * are not paths. Returns `{ token, path, anchor?, shared }`.
 */
export function pathTokens(line) {
  const out = [];
  for (const m of line.matchAll(/[\w@.*/-]+(?:#[\w-]+)?/g)) {
    let token = m[0];
    const before = line.slice(Math.max(0, m.index - 3), m.index);
    if (before.endsWith(":") || before.endsWith("://") || token.startsWith("//")) continue;
    if (/^[\w-]+@/.test(token)) continue;
    token = token.replace(/[.]+$/, "");
    let [path, anchor] = token.split("#");
    path = path.replace(/[.]+$/, "");
    const first = path.split("/")[0];
    if (path.includes("/") && first.includes(".") && first !== "." && first !== "..") continue;
    const shared = /(^|\/)shared\//.test(path);
    const stripped = path.replace(/^(\.\/)?node_modules\/clusterwire\//, "");
    const isDocs = /^(\.\/)?(docs|examples)\//.test(stripped);
    const isMd = /\.md$/i.test(stripped) && stripped.length > 3;
    if (!shared && !isDocs && !isMd) continue;
    out.push({ token: m[0], path: stripped, ...(anchor ? { anchor } : {}), shared });
  }
  return out;
}

// ------------------------------------------------------------------ the package

/** A matcher for package.json `files` (path prefixes and simple globs; `!` negates). */
export function packageFilter(files) {
  const escapeRe = (text) => text.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  const toRe = (pattern) => {
    const body = pattern
      .replace(/^\.?\//, "")
      .replace(/\/$/, "")
      .split("**")
      .map((part) =>
        part
          .split("*")
          .map((piece) => piece.split("?").map(escapeRe).join("[^/]"))
          .join("[^/]*"),
      )
      .join(".*");
    return new RegExp(`^${body}(?:/.*)?$`);
  };
  const include = (files ?? []).filter((f) => !f.startsWith("!")).map(toRe);
  const exclude = (files ?? []).filter((f) => f.startsWith("!")).map((f) => toRe(f.slice(1)));
  return (path) => {
    const p = path.replace(/^\.\//, "").replace(/\/$/, "");
    if (ALWAYS_SHIPPED.includes(p)) return true;
    if (files === undefined) return true;
    return include.some((r) => r.test(p)) && !exclude.some((r) => r.test(p));
  };
}

// ------------------------------------------------------------------ the checker

/**
 * Checks a repository. `root` is its folder; `options.dist` (default true) includes the
 * .d.ts files and the help text; `options.help` replaces running the CLI (tests):
 * `[{ name, text }]`. Returns `{ problems: [{ file, line, message }], checked }`.
 */
export function checkRepository(root, options = {}) {
  const problems = [];
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const shipped = packageFilter(pkg.files);
  const anchorCache = new Map();
  const checked = { markdown: 0, text: 0, declarations: 0, help: 0 };

  const report = (file, line, message, text = "", kind = "reference") => {
    if (text.includes(IGNORE_MARKER)) return;
    if (ALLOW.some((a) => a.file.test(file) && a.text.test(text))) return;
    problems.push({ file, line, message, kind });
  };
  const inRepo = (abs) => {
    const rel = relative(root, abs);
    return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
  };
  const exists = (abs) => inRepo(abs) && existsSync(abs);
  const repoPath = (abs) => relative(root, abs).split(sep).join("/");
  const anchorsOf = (abs) => {
    let a = anchorCache.get(abs);
    if (a === undefined) {
      a = markdownAnchors(readFileSync(abs, "utf8"));
      anchorCache.set(abs, a);
    }
    return a;
  };
  /** Whether an existing repository path has to ship, and does not. */
  const missingFromPackage = (rel) => {
    const mustShip = /^(docs|examples)\//.test(rel) || (/^[^/]+\.md$/i.test(rel) && !REPOSITORY_ONLY_MD.has(rel));
    return mustShip && !shipped(rel);
  };
  let mdNames;
  /** Whether a bare .md name is the name of some .md file in the repository. */
  const mdNameExists = (name) => {
    mdNames ??= new Set(
      walk(root, ".", (dir) => !["dist", "node_modules"].includes(dir)).map((f) => f.slice(f.lastIndexOf("/") + 1)),
    );
    return mdNames.has(name);
  };
  const checkAnchor = (file, line, abs, anchor, text, what) => {
    if (!/\.md$/i.test(abs) || statSync(abs).isDirectory()) return;
    if (!anchorsOf(abs).has(anchor)) report(file, line, `${what}: no anchor #${anchor} in ${repoPath(abs)}`, text);
  };

  const ruleAnchors = {};
  for (const [family, page] of Object.entries(RULE_PAGES)) {
    const abs = join(root, page);
    ruleAnchors[family] = existsSync(abs) ? anchorsOf(abs) : new Set();
  }
  const checkRules = (file, lineNo, text) => {
    for (const id of ruleIds(text)) {
      const anchor = ruleAnchor(id);
      if (!ruleAnchors[id.family].has(anchor)) {
        report(file, lineNo, `rule ${id.text}: no anchor #${anchor} in ${RULE_PAGES[id.family]}`, text);
      }
    }
  };

  /**
   * shared/ mentions, rule ids and path references in one text. `bases`: folders a relative
   * path may be read from; `isShipped`: whether the text ships; `skipPaths`: tokens already
   * checked as links; `sharedAllowed`: CONTRIBUTING.md.
   */
  const checkText = (
    file,
    text,
    { bases, isShipped, skipTargets = new Set(), sharedAllowed = false, rules = true },
  ) => {
    text.split("\n").forEach((line, i) => {
      const lineNo = i + 1;
      if (rules) checkRules(file, lineNo, line);
      for (const t of pathTokens(line)) {
        if (t.shared) {
          if (sharedAllowed) continue;
          const dir = t.path.includes("*") ? t.path.slice(0, t.path.indexOf("*")) : t.path;
          const resolves = bases.some((b) => {
            const abs = normalize(join(b, dir));
            return exists(abs) || exists(abs.replace(/\.js$/, ".ts")) || exists(abs.replace(/\.d\.ts$/, ".ts"));
          });
          if (!resolves) report(file, lineNo, `mentions the private shared/ folder: ${t.path}`, line);
          continue;
        }
        if (skipTargets.has(`${lineNo}:${t.path}`) || t.path.includes("*")) continue;
        const candidates = [...bases, root].map((b) => normalize(join(b, t.path)));
        const found = candidates.find((abs) => exists(abs));
        if (found === undefined && !t.path.includes("/") && mdNameExists(t.path)) continue;
        if (found === undefined) {
          const outside = candidates.every((abs) => !inRepo(abs));
          report(
            file,
            lineNo,
            outside ? `${t.path} is outside the repository` : `${t.path}: no such file in the repository`,
            line,
          );
          continue;
        }
        if (isShipped && missingFromPackage(repoPath(found))) {
          report(
            file,
            lineNo,
            `${repoPath(found)} is in the repository but not in the package (package.json files)`,
            line,
            "package",
          );
        }
        if (t.anchor !== undefined) checkAnchor(file, lineNo, found, t.anchor, line, t.path);
      }
    });
  };

  // Markdown: links, then the text checks.
  const markdown = [
    ...MARKDOWN_ROOT_FILES.filter((f) => existsSync(join(root, f))),
    ...MARKDOWN_DIRS.flatMap((d) => walk(root, d).filter((f) => f.endsWith(".md"))),
  ];
  for (const file of markdown) {
    const abs = join(root, file);
    const text = readFileSync(abs, "utf8");
    const lines = text.split("\n");
    const isShipped = file !== "CONTRIBUTING.md" && shipped(file);
    const skipTargets = new Set();
    checked.markdown++;
    for (const { line, target } of markdownLinks(text)) {
      const lineText = lines[line - 1] ?? "";
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      let [path, anchor] = target.split("#");
      try {
        path = decodeURI(path);
      } catch {}
      skipTargets.add(`${line}:${path.replace(/^(\.\/)?node_modules\/clusterwire\//, "")}`);
      const dest = path === "" ? abs : path.startsWith("/") ? join(root, path) : join(dirname(abs), path);
      if (!inRepo(dest)) {
        report(file, line, `link ${target} leaves the repository`, lineText);
        continue;
      }
      if (!existsSync(dest)) {
        report(file, line, `link ${target}: no such file ${repoPath(dest)}`, lineText);
        continue;
      }
      if (isShipped && missingFromPackage(repoPath(dest))) {
        report(
          file,
          line,
          `link ${target}: ${repoPath(dest)} is not in the package (package.json files)`,
          lineText,
          "package",
        );
      }
      if (anchor !== undefined && anchor !== "") checkAnchor(file, line, dest, anchor, lineText, `link ${target}`);
    }
    checkText(file, text, {
      bases: [dirname(abs)],
      isShipped,
      skipTargets,
      sharedAllowed: file === "CONTRIBUTING.md",
    });
  }

  // What ships as source, data and comments.
  for (const dir of SHIPPED_DIRS) {
    for (const file of walk(root, dir)) {
      if (file.endsWith(".md") || !TEXT_EXTENSIONS.test(file)) continue;
      const abs = join(root, file);
      checked.text++;
      checkText(file, readFileSync(abs, "utf8"), { bases: [dirname(abs), join(root, "src")], isShipped: true });
    }
  }

  if (options.dist !== false) {
    // Type declarations: shared/ and rule ids (their paths are the sources', checked above).
    const declarations = walk(root, "dist/src").filter((f) => f.endsWith(".d.ts"));
    if (declarations.length === 0) report("dist/src", 0, "no .d.ts files: run npm run build first (or --skip-dist)");
    for (const file of declarations) {
      const abs = join(root, file);
      checked.declarations++;
      readFileSync(abs, "utf8")
        .split("\n")
        .forEach((line, i) => {
          checkRules(file, i + 1, line);
          for (const t of pathTokens(line)) {
            if (!t.shared) continue;
            const target = normalize(join(dirname(abs), t.path));
            if (!exists(target) && !exists(target.replace(/\.js$/, ".d.ts"))) {
              report(file, i + 1, `mentions the private shared/ folder: ${t.path}`, line);
            }
          }
        });
    }
    // Help text: what users read after `clusterwire <command> --help`.
    const help = options.help ?? helpTexts(root, (line, message) => report("bin/clusterwire.js", line, message));
    for (const { name, text } of help) {
      checked.help++;
      checkText(`help: clusterwire ${name}`, text, { bases: [], isShipped: true });
    }
  }
  const order = new Map();
  for (const p of problems) if (!order.has(p.file)) order.set(p.file, order.size);
  problems.sort((a, b) => order.get(a.file) - order.get(b.file) || a.line - b.line);
  return { problems, checked };
}

/** The help of the CLI and of every command and subcommand it lists. */
/**
 * The command names a help text lists under `Commands:` or `Subcommands:` (two-space indented,
 * name first). The pack-and-install test walks the installed CLI's help with it too.
 */
export function listedCommands(help) {
  const names = [];
  let inList = false;
  for (const line of help.split(/\r?\n/)) {
    if (/^(Sub)?[Cc]ommands:\s*$/.test(line)) {
      inList = true;
      continue;
    }
    if (!inList) continue;
    if (line.trim() === "" || !/^\s/.test(line)) {
      inList = false;
      continue;
    }
    const m = /^ {2}([a-z][a-z0-9-]*)(?: {2,}|\t)/.exec(line);
    if (m?.[1] !== undefined) names.push(m[1]);
  }
  return names;
}

export function helpTexts(root, fail) {
  const bin = join(root, "bin", "clusterwire.js");
  const run = (args) => {
    const r = spawnSync(process.execPath, [bin, ...args, "--help"], { cwd: root, encoding: "utf8" });
    if (r.status !== 0) {
      fail(0, `clusterwire ${[...args, "--help"].join(" ")} exited ${r.status}: ${(r.stderr ?? "").trim()}`);
      return undefined;
    }
    return r.stdout;
  };
  const out = [];
  const top = run([]);
  if (top === undefined) return out;
  out.push({ name: "--help", text: top });
  for (const command of listedCommands(top)) {
    const text = run([command]);
    if (text === undefined) continue;
    out.push({ name: `${command} --help`, text });
    for (const sub of listedCommands(text)) {
      const subText = run([command, sub]);
      if (subText !== undefined) out.push({ name: `${command} ${sub} --help`, text: subText });
    }
  }
  return out;
}

/**
 * Files under `dir` (repository-relative, / separated), without node_modules and dot folders;
 * with `only`, the .md files of the folders it accepts.
 */
function walk(root, dir, only) {
  const out = [];
  const visit = (rel) => {
    const abs = join(root, rel);
    if (!existsSync(abs)) return;
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const child = rel === "." ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (only === undefined || only(child)) visit(child);
      } else if (entry.isFile() && (only === undefined || entry.name.endsWith(".md"))) out.push(child);
    }
  };
  visit(dir);
  return out.sort();
}

// ------------------------------------------------------------------ command line

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== "--skip-dist");
  if (unknown.length > 0) {
    console.error(`check-docs: unknown argument ${unknown[0]} (usage: node scripts/check-docs.mjs [--skip-dist])`);
    process.exit(2);
  }
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const { problems, checked } = checkRepository(root, { dist: !args.includes("--skip-dist") });
  for (const p of problems) console.log(`${p.file}:${p.line}: ${p.message}`);
  const what = `${checked.markdown} Markdown files, ${checked.text} shipped files, ${checked.declarations} .d.ts files, ${checked.help} help texts`;
  const packaging = problems.filter((p) => p.kind === "package").length;
  console.log(
    `check-docs: ${problems.length} problem(s) in ${what}` +
      (packaging === 0 ? "" : `; ${packaging} of them only because package.json files leaves the file out`),
  );
  process.exit(problems.length === 0 ? 0 : 1);
}
