import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { batchedSink } from "../../../src/cli/shared/batched-sink.js";
import { REPO } from "../../support/cli/harness.js";

/** A sink that records each write it gets. */
function recorder(): { writes: (string | Uint8Array)[]; write(c: string | Uint8Array): boolean } {
  const writes: (string | Uint8Array)[] = [];
  return { writes, write: (c) => writes.push(c) > 0 };
}

describe("batchedSink", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes the lines gathered since the first one, in one piece and in order, once the delay is over", () => {
    const out = recorder();
    const s = batchedSink(out, 50, 1000);
    s.write("a\n");
    s.write("b\n");
    vi.advanceTimersByTime(49);
    expect(out.writes).toEqual([]);
    s.write("c\n");
    vi.advanceTimersByTime(1);
    expect(out.writes).toEqual(["a\nb\nc\n"]);
    // The next line starts a new delay.
    s.write("d\n");
    vi.advanceTimersByTime(50);
    expect(out.writes).toEqual(["a\nb\nc\n", "d\n"]);
    s.close();
  });

  it("writes at once when the gathered characters reach the limit", () => {
    const out = recorder();
    const s = batchedSink(out, 50, 10);
    s.write("12345\n");
    expect(out.writes).toEqual([]);
    s.write("6789\n");
    expect(out.writes).toEqual(["12345\n6789\n"]);
    // Nothing is left waiting: the timer went with the write.
    vi.advanceTimersByTime(100);
    expect(out.writes).toHaveLength(1);
    s.close();
  });

  it("keeps bytes in order after the gathered text, and writes everything on flush and close", () => {
    const out = recorder();
    const s = batchedSink(out, 50, 1000);
    const bytes = new Uint8Array([1, 2]);
    s.write("x\n");
    s.write(bytes);
    s.write("y\n");
    s.flush();
    s.write("z\n");
    s.close();
    expect(out.writes).toEqual(["x\n", bytes, "y\n", "z\n"]);
    // Closed: straight through.
    s.write("after\n");
    expect(out.writes.at(-1)).toBe("after\n");
  });

  it("keeps isTTY", () => {
    expect(batchedSink({ write: () => true, isTTY: true }).isTTY).toBe(true);
    expect(batchedSink({ write: () => true }).isTTY).toBeUndefined();
  });
});

describe("batchedSink at the process's end", () => {
  const dir = mkdtempSync(join(tmpdir(), "clusterwire-batched-sink-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const module = join(dir, "batched-sink.mjs");
  buildSync({
    entryPoints: [join(REPO, "src/cli/shared/batched-sink.ts")],
    absWorkingDir: REPO,
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: module,
    logLevel: "silent",
  });

  /** Runs `body` in a child node with `sink`, a batchedSink on process.stderr (a pipe) holding lines 1..3 for a minute. */
  const child = (body: string) => {
    const script = join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(
      script,
      `import { batchedSink } from ${JSON.stringify(module)};
const sink = batchedSink({ write: (c) => process.stderr.write(c) }, 60_000, 1_000_000);
setTimeout(() => {}, 60_000);
for (const n of [1, 2, 3]) sink.write("line " + n + "\\n");
${body}`,
    );
    return spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 30_000 });
  };

  it("writes what is gathered before an uncaught exception's report", () => {
    const r = child('setImmediate(() => { throw new Error("crash"); });');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^line 1\nline 2\nline 3\n[\s\S]*Error: crash/);
  });

  it("writes what is gathered when the process exits on process.exit()", () => {
    const r = child("setImmediate(() => process.exit(3));");
    expect([r.status, r.stderr]).toEqual([3, "line 1\nline 2\nline 3\n"]);
  });
});
