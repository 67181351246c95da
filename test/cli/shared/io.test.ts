// The CLI's input and output: reading files and stdin, writing output, picking formats, and the
// usage checks every codec command shares.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DecodeError, EncodeError, MAGIC, fromYaml } from "../../../src/networking/index.js";
import {
  CliError,
  EXIT_FAILURE,
  EXIT_USAGE,
  FORMATS,
  STDIN_NAME,
  asText,
  bytesEqual,
  checkOutPath,
  codecFailure,
  detectFormat,
  errnoMessage,
  hasMagic,
  inputPath,
  openInputStream,
  parseFormat,
  parseIndent,
  parseText,
  readInput,
  refuseBinaryToTerminal,
  single,
  usageError,
  writeOutput,
  yamlStream,
  type CliIO,
} from "../../../src/cli/shared/io.js";
import { memorySink, tempTrees } from "../../support/cli/validate.js";

const tree = tempTrees("io");
const enc = new TextEncoder();
const bytes = (s: string): Uint8Array => enc.encode(s);

/** An io rooted at `cwd`, with stdin made of `chunks` (none: no stdin at all). */
function io(cwd: string, chunks?: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, isTTY = false) {
  const stdout = memorySink(false);
  const value: CliIO = {
    stdout,
    stderr: memorySink(false),
    cwd,
    ...(chunks === undefined ? {} : { stdin: { chunks, isTTY } }),
  };
  return { io: value, stdout };
}

/** What `f` throws, which must be a CliError. */
function cliError(f: () => unknown): CliError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    return e as CliError;
  }
  throw new Error("did not throw");
}

async function rejected(p: Promise<unknown>): Promise<CliError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(CliError);
  return e as CliError;
}

const CLASS =
  "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: a\nspec:\n  controller: x.io/c\n";

describe("usageError and codecFailure", () => {
  it("a usage error exits 2 and points at the command's help, or the global one", () => {
    expect(usageError("bad", "convert")).toMatchObject({
      message: "bad",
      exitCode: EXIT_USAGE,
      help: "clusterwire convert --help",
      name: "CliError",
    });
    expect(usageError("bad").help).toBe("clusterwire --help");
  });

  it("a codec error names the input and exits 1; a CliError passes through; anything else is rethrown", () => {
    const decodeError = new DecodeError("json", "unexpected end", { line: 1, column: 2 });
    expect(codecFailure("a.json", decodeError)).toMatchObject({
      message: `a.json: ${decodeError.message}`,
      exitCode: EXIT_FAILURE,
    });
    expect(codecFailure("a.yaml", new EncodeError("too big", "spec.x"))).toMatchObject({
      message: "a.yaml: encode error: spec.x: too big",
      exitCode: EXIT_FAILURE,
    });
    const own = new CliError("mine", EXIT_USAGE);
    expect(codecFailure("a", own)).toBe(own);
    const bug = new TypeError("a bug");
    expect(() => codecFailure("a", bug)).toThrow(bug);
  });
});

describe("readInput", () => {
  it("reads a file relative to io.cwd, and stdin for -, chunk after chunk", async () => {
    const dir = tree({ "sub/a.yaml": CLASS });
    expect(await readInput(io(dir).io, "sub/a.yaml")).toEqual({ name: "sub/a.yaml", bytes: bytes(CLASS) });
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield bytes("ab");
      yield bytes("");
      yield bytes("c");
    }
    const r = await readInput(io(dir, chunks()).io, "-");
    expect(r.name).toBe(STDIN_NAME);
    expect(Buffer.from(r.bytes).toString()).toBe("abc");
  });

  it("is a usage failure (exit 2) when the file or stdin cannot be read", async () => {
    const dir = tree({ "d/x.yaml": "" });
    expect(await rejected(readInput(io(dir).io, "missing.yaml"))).toMatchObject({
      message: "missing.yaml: cannot read: no such file or directory",
      exitCode: EXIT_USAGE,
    });
    expect((await rejected(readInput(io(dir).io, "d"))).message).toBe("d: cannot read: is a directory");
    expect(await rejected(readInput(io(dir).io, "-"))).toMatchObject({
      message: "<stdin>: no standard input",
      exitCode: EXIT_USAGE,
    });
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield bytes("a");
      throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
    }
    expect((await rejected(readInput(io(dir, broken()).io, "-"))).message).toBe("<stdin>: cannot read: EIO: i/o error");
  });
});

describe("openInputStream", () => {
  async function collect(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<string> {
    const parts: Uint8Array[] = [];
    for await (const c of chunks) parts.push(c);
    return Buffer.concat(parts).toString();
  }

  it("streams a file, or stdin's own chunks", async () => {
    const dir = tree({ "w.jsonl": "line 1\nline 2\n" });
    const file = await openInputStream(io(dir).io, "w.jsonl");
    expect(file.name).toBe("w.jsonl");
    expect(await collect(file.chunks)).toBe("line 1\nline 2\n");
    const stdin = [bytes("x"), bytes("y")];
    const s = await openInputStream(io(dir, stdin).io, "-");
    expect(s).toEqual({ name: STDIN_NAME, chunks: stdin });
  });

  it("fails up front for a missing file, and as a usage failure when reading fails midway", async () => {
    const dir = tree({ "d/x": "" });
    expect(await rejected(openInputStream(io(dir).io, "none.pb"))).toMatchObject({
      message: "none.pb: cannot read: no such file or directory",
      exitCode: EXIT_USAGE,
    });
    expect((await rejected(openInputStream(io(dir).io, "-"))).message).toBe("<stdin>: no standard input");
    // A directory opens, then fails on the first read.
    const opened = await openInputStream(io(dir).io, "d");
    expect(await rejected(collect(opened.chunks))).toMatchObject({
      message: "d: cannot read: is a directory",
      exitCode: EXIT_USAGE,
    });
  });
});

describe("writeOutput and refuseBinaryToTerminal", () => {
  it("writes to stdout for no -o or -o -, else to the file relative to io.cwd", async () => {
    const dir = tree({ "out/.keep": "" });
    for (const out of [undefined, "-"]) {
      const { io: x, stdout } = io(dir);
      await writeOutput(x, out, "text");
      expect(stdout.writes).toEqual(["text"]);
    }
    const { io: x, stdout } = io(dir);
    await writeOutput(x, "out/o.pb", Uint8Array.of(1, 2));
    expect(stdout.writes).toEqual([]);
    expect(new Uint8Array(readFileSync(join(dir, "out/o.pb")))).toEqual(Uint8Array.of(1, 2));
    expect(await rejected(writeOutput(x, "no/such/dir.pb", "x"))).toMatchObject({
      message: "no/such/dir.pb: cannot write: no such file or directory",
      exitCode: EXIT_USAGE,
    });
  });

  it("refuses protobuf for a terminal stdout only", () => {
    const tty: CliIO = { stdout: { write: () => {}, isTTY: true }, stderr: memorySink(false) };
    expect(cliError(() => refuseBinaryToTerminal(tty, undefined, "encode"))).toMatchObject({
      message: "refusing to write binary protobuf to a terminal; use -o FILE or redirect stdout",
      help: "clusterwire encode --help",
    });
    expect(() => refuseBinaryToTerminal(tty, "-", "encode")).toThrow(CliError);
    expect(() => refuseBinaryToTerminal(tty, "x.pb", "encode")).not.toThrow();
    expect(() => refuseBinaryToTerminal(io("/").io, undefined, "encode")).not.toThrow();
  });
});

describe("detectFormat and hasMagic", () => {
  const pb = Uint8Array.from([...MAGIC, 0x0a]);

  it("takes the magic first, then the extension in any case, then the first non-blank byte", () => {
    expect(detectFormat("x.json", pb)).toBe("pb");
    expect(detectFormat("x.PB", bytes("{"))).toBe("pb");
    expect(detectFormat("x.bin", bytes("a: b"))).toBe("pb");
    expect(detectFormat("x.Json", bytes("a: b"))).toBe("json");
    expect(detectFormat("x.yml", bytes("{}"))).toBe("yaml");
    expect(detectFormat("x.YAML", bytes("[]"))).toBe("yaml");
    expect(detectFormat(STDIN_NAME, bytes(" \t\r\n{}"))).toBe("json");
    expect(detectFormat("x.txt", bytes("\n[1]"))).toBe("json");
    expect(detectFormat("x", bytes("  kind: Ingress"))).toBe("yaml");
    expect(detectFormat("x", bytes(" \n"))).toBe("yaml");
    expect(detectFormat("x", new Uint8Array())).toBe("yaml");
  });

  it("needs all four magic bytes", () => {
    expect(hasMagic(pb)).toBe(true);
    expect(hasMagic(Uint8Array.from(MAGIC))).toBe(true);
    expect(hasMagic(pb.subarray(0, 3))).toBe(false);
    expect(hasMagic(Uint8Array.from([0x6b, 0x38, 0x73, 0x01]))).toBe(false);
  });
});

describe("asText and parseText", () => {
  it("refuses input that is not UTF-8, naming the format it is not", () => {
    const input = { name: "x.json", bytes: Uint8Array.of(0xff, 0xfe) };
    expect(cliError(() => asText(input, "json"))).toMatchObject({
      message: "x.json: not valid UTF-8, so not JSON text (protobuf must start with k8s\\0)",
      exitCode: EXIT_FAILURE,
    });
    expect(cliError(() => asText(input, "yaml")).message).toContain("so not YAML text");
    expect(asText({ name: "a", bytes: bytes("é") }, "yaml")).toBe("é");
  });

  it("reads one JSON object, or one object per YAML document, strictly when asked", () => {
    const two = yamlStream([CLASS, CLASS.replace("name: a", "name: b")]);
    expect(parseText({ name: "a.yaml", bytes: bytes(two) }, "yaml", { strict: false })).toEqual(fromYaml(two));
    expect(parseText({ name: "a.yaml", bytes: bytes(two) }, "yaml", { strict: false })).toHaveLength(2);
    const json = JSON.stringify({ apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "a" } });
    expect(parseText({ name: "a.json", bytes: bytes(json) }, "json", { strict: true })).toHaveLength(1);
    const typo = bytes(`${CLASS}  contoller: y\n`);
    expect(parseText({ name: "t.yaml", bytes: typo }, "yaml", { strict: false })).toHaveLength(1);
    expect(cliError(() => parseText({ name: "t.yaml", bytes: typo }, "yaml", { strict: true }))).toMatchObject({
      message: expect.stringMatching(/^t\.yaml: yaml decode error at .*spec\.contoller/),
      exitCode: EXIT_FAILURE,
    });
  });
});

describe("single", () => {
  const objects = fromYaml(yamlStream([CLASS, CLASS]));

  it("is the one object, else a usage error counting them, worded for the output", () => {
    expect(single(objects.slice(0, 1), "a", "encode")).toBe(objects[0]);
    expect(cliError(() => single([], "a.yaml", "encode"))).toMatchObject({
      message: "a.yaml: no object found (empty input)",
      exitCode: EXIT_USAGE,
      help: "clusterwire encode --help",
    });
    expect(cliError(() => single(objects, "a.yaml", "convert", "JSON")).message).toBe(
      "a.yaml: 2 YAML documents, but JSON output holds one object; put one object per file, or use a List kind",
    );
    expect(cliError(() => single(objects, "a.yaml", "encode")).message).toContain("but protobuf output holds");
  });
});

describe("option values", () => {
  it("parseFormat: any case, yml for yaml, only the allowed ones", () => {
    expect(parseFormat(undefined, "--to", FORMATS, "convert")).toBeUndefined();
    expect(parseFormat("JSON", "--to", FORMATS, "convert")).toBe("json");
    expect(parseFormat("yml", "--to", FORMATS, "convert")).toBe("yaml");
    expect(parseFormat("Pb", "--to", FORMATS, "convert")).toBe("pb");
    expect(cliError(() => parseFormat("pb", "--from", ["json", "yaml"], "encode"))).toMatchObject({
      message: '--from must be one of json, yaml, got "pb"',
      help: "clusterwire encode --help",
    });
  });

  it("parseIndent: a whole number from 0 to 10, else the fallback when absent", () => {
    expect(parseIndent(undefined, 2, "convert")).toBe(2);
    expect(parseIndent("0", 2, "convert")).toBe(0);
    expect(parseIndent("10", 2, "convert")).toBe(10);
    expect(parseIndent("07", 2, "convert")).toBe(7);
    for (const bad of ["11", "-1", "1.5", "", "100", " 2"])
      expect(cliError(() => parseIndent(bad, 2, "convert")).message).toBe(
        `--indent must be a whole number from 0 to 10, got ${JSON.stringify(bad)}`,
      );
  });

  it("checkOutPath: a bare format name is taken for a kubectl habit, with the hint that fits", () => {
    expect(() => checkOutPath(undefined, "--to", "convert")).not.toThrow();
    expect(() => checkOutPath("out.json", "--to", "convert")).not.toThrow();
    expect(() => checkOutPath("./json", "--to", "convert")).not.toThrow();
    expect(cliError(() => checkOutPath("yml", "--output", "decode")).message).toBe(
      '-o takes a file name, got "yml"; for the output format use --output yml',
    );
    expect(cliError(() => checkOutPath("pb", undefined, "encode")).message).toBe(
      '-o takes a file name, got "pb" (write ./pb if you mean that file)',
    );
  });

  it("inputPath: the argument, else - when stdin is piped, never a terminal", () => {
    expect(inputPath(io("/").io, "a.yaml", "encode")).toBe("a.yaml");
    expect(inputPath(io("/", []).io, undefined, "encode")).toBe("-");
    for (const x of [io("/").io, io("/", [], true).io])
      expect(cliError(() => inputPath(x, undefined, "encode"))).toMatchObject({
        message: "no input: give a file, or - to read standard input",
        help: "clusterwire encode --help",
      });
  });
});

describe("small helpers", () => {
  it("yamlStream joins documents with ---", () => {
    expect(yamlStream(["a: 1\n", "b: 2\n"])).toBe("a: 1\n---\nb: 2\n");
    expect(yamlStream([])).toBe("");
  });

  it("bytesEqual compares content and length", () => {
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true);
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false);
    expect(bytesEqual(Uint8Array.of(1), Uint8Array.of(1, 0))).toBe(false);
  });

  it("errnoMessage words the common codes without the path, and falls back to the message", () => {
    const coded = (code: string) => Object.assign(new Error(`${code}: /abs/path`), { code });
    expect(errnoMessage(coded("ENOENT"))).toBe("no such file or directory");
    expect(errnoMessage(coded("EACCES"))).toBe("permission denied");
    expect(errnoMessage(coded("EPERM"))).toBe("permission denied");
    expect(errnoMessage(coded("EISDIR"))).toBe("is a directory");
    expect(errnoMessage(coded("ENOTDIR"))).toBe("a path component is not a directory");
    expect(errnoMessage(coded("EMFILE"))).toBe("EMFILE: /abs/path");
    expect(errnoMessage({ code: 1 })).toBe("[object Object]");
    expect(errnoMessage("plain")).toBe("plain");
    expect(errnoMessage(null)).toBe("null");
  });

  it("a path under a file is ENOTDIR, worded as such when read", async () => {
    const dir = tree({ "f.yaml": CLASS });
    expect((await rejected(readInput(io(dir).io, "f.yaml/x"))).message).toBe(
      "f.yaml/x: cannot read: a path component is not a directory",
    );
  });
});
