import type { Failure } from "./campaign.js";
import { TARGETS, type FuzzInput, type TargetName } from "./targets.js";

/*
 * A failing input on disk: `key: value` header lines, then the input as
 * `hex ...` or `text <JSON string>` lines (one line, or one per stream
 * chunk). Text goes through JSON so newlines and lone surrogates survive.
 */

export function formatFailure(f: Failure): string {
  const lines = [
    `# clusterwire fuzz failure; replay with: npm run fuzz -- --replay <this file>`,
    `kind: ${f.kind}`,
    `seed: ${f.seed}`,
    `index: ${f.index}`,
    `strategy: ${f.strategy}`,
    `target: ${f.target}`,
    `options: ${JSON.stringify(f.input.options)}`,
    `detail: ${JSON.stringify(f.detail)}`,
  ];
  for (const s of (f.stack ?? "").split("\n").slice(1, 12)) lines.push(`# ${s.trim()}`);
  const data = f.input.data;
  const chunks = typeof data === "string" || data instanceof Uint8Array ? [data] : data;
  lines.push(`input: ${typeof data === "string" || data instanceof Uint8Array ? "single" : "chunks"}`);
  for (const c of chunks)
    lines.push(
      typeof c === "string"
        ? `text ${JSON.stringify(c)}`
        : `hex ${Buffer.from(c.buffer, c.byteOffset, c.byteLength).toString("hex")}`,
    );
  return lines.join("\n") + "\n";
}

export interface ParsedFailure {
  readonly target: TargetName;
  readonly input: FuzzInput;
  readonly header: Readonly<Record<string, string>>;
}

export function parseFailure(text: string): ParsedFailure {
  const header: Record<string, string> = {};
  const chunks: (Uint8Array | string)[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("hex ")) chunks.push(Uint8Array.from(Buffer.from(line.slice(4), "hex")));
    else if (line === "hex") chunks.push(new Uint8Array(0));
    else if (line.startsWith("text ")) chunks.push(JSON.parse(line.slice(5)) as string);
    else {
      const at = line.indexOf(": ");
      if (at < 0) throw new Error(`bad line in failure file: ${line.slice(0, 80)}`);
      header[line.slice(0, at)] = line.slice(at + 2);
    }
  }
  const target = header["target"];
  if (target === undefined || !(TARGETS as readonly string[]).includes(target))
    throw new Error(`failure file names no known target (got ${String(target)})`);
  const single = header["input"] === "single";
  if (single && chunks.length !== 1) throw new Error(`failure file has ${chunks.length} inputs, want 1`);
  const options = JSON.parse(header["options"] ?? "{}") as Record<string, number | boolean>;
  return {
    target: target as TargetName,
    input: { data: single ? (chunks[0] as Uint8Array | string) : chunks, options },
    header,
  };
}
