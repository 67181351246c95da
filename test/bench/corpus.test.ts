// The bench corpus: it loads, every file has its provenance, and clusterwire
// keeps at least the objects per kind that bench/corpus/SOURCES.md reports.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { decode, encode, fromJson, toJsonString, validate } from "../../src/networking/index.js";
import { corpusDir, corpusFiles, countByKind, dropReasons, loadCorpus, type Corpus } from "../../bench/corpus.js";

let corpus: Corpus;
let sources: string;

beforeAll(() => {
  corpus = loadCorpus();
  sources = readFileSync(join(corpusDir(), "SOURCES.md"), "utf8");
});

/** The files SOURCES.md lists: the first cell of each row of its file table. */
function listedFiles(md: string): string[] {
  return [...md.matchAll(/^\| `([^`]+)` \| [^|]+ \| `[^`]+` \| `[0-9a-f]{40}` \|/gm)].map((m) => m[1] as string);
}

/** "Kept at least: NetworkPolicy 10, Ingress 5" from SOURCES.md. */
function reportedMinimums(md: string): Record<string, number> {
  const line = /^Kept at least: (.+)$/m.exec(md)?.[1];
  if (line === undefined) throw new Error("SOURCES.md has no 'Kept at least:' line");
  return Object.fromEntries(
    line.split(", ").map((part) => {
      const [kind, n] = part.split(" ");
      return [kind, Number(n)];
    }),
  );
}

describe("bench corpus", () => {
  it("every manifest file is listed in SOURCES.md with its repository and commit, and every listed file exists", () => {
    const files = corpusFiles();
    expect(files.length).toBeGreaterThan(0);
    expect([...listedFiles(sources)].sort()).toEqual(files);
  });

  it("keeps at least the objects per kind that SOURCES.md reports", () => {
    const kept = countByKind(corpus.objects);
    for (const [kind, min] of Object.entries(reportedMinimums(sources))) {
      expect(kept[kind] ?? 0, kind).toBeGreaterThanOrEqual(min);
    }
  });

  it("keeps only objects that validate and round-trip through protobuf and JSON", () => {
    for (const o of corpus.objects) {
      const obj = decode(o.envelope);
      expect(validate(obj), o.id).toEqual([]);
      expect(Buffer.compare(encode(fromJson(o.json)), o.envelope), o.id).toBe(0);
      expect(toJsonString(obj), o.id).toBe(o.json);
    }
  });

  it("keeps no object twice", () => {
    expect(new Set(corpus.objects.map((o) => o.json)).size).toBe(corpus.objects.length);
  });

  it("drops a document with a typed decode or validation reason, never because clusterwire threw", () => {
    for (const d of corpus.dropped) expect(d.reason, d.id).toMatch(/^(decode|validate): |^duplicate of |differs/);
    const total = dropReasons(corpus.dropped).reduce((n, r) => n + r.count, 0);
    expect(total).toBe(corpus.dropped.length);
  });
});
