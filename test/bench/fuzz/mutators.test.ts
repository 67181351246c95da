// The fuzz campaign's building blocks do what they claim: determinism per
// seed, exact varints, lossless protobuf trees, edits that land where they
// say, and nesting generators that really nest N levels.

import { describe, expect, it } from "vitest";
import { inputFor } from "../../../bench/fuzz/campaign.js";
import { docOf, frame, loadCorpus } from "../../../bench/fuzz/corpus.js";
import { formatFailure, parseFailure } from "../../../bench/fuzz/failure-file.js";
import {
  BYTE_OPS,
  INTERESTING_BYTES,
  INTERESTING_VARINTS,
  applyByteOp,
  boundaries,
  chunk,
  deepGroups,
  deepJson,
  deepMessages,
  deepYaml,
  hugeLengths,
  jsonSpans,
  mutateJsonValues,
  spliceDocs,
  structuralEdit,
  truncationPoints,
} from "../../../bench/fuzz/mutators.js";
import {
  WT,
  paddedVarint,
  readVarint,
  serialize,
  varint,
  type Edit,
  type PbDoc,
  type PbNode,
} from "../../support/protobuf-wire.js";
import { Rng, inputRng } from "../../../bench/fuzz/rng.js";
import { STRATEGIES, strategyKey } from "../../../bench/fuzz/strategies.js";
import { hex } from "../../support/bytes.js";

const corpus = loadCorpus();
const docs = [...corpus.pb, ...corpus.watchFrames].map(docOf);

describe("Rng", () => {
  it("is a function of its seed", () => {
    const a = new Rng(1, 2);
    const b = new Rng(1, 2);
    const xs = Array.from({ length: 100 }, () => a.u32());
    expect(Array.from({ length: 100 }, () => b.u32())).toEqual(xs);
    const c = new Rng(1, 3);
    expect(Array.from({ length: 100 }, () => c.u32()).filter((x, i) => x === xs[i]).length).toBeLessThan(3);
    // Neighbouring input indexes get unrelated streams.
    expect(inputRng(5, 0).u32()).not.toBe(inputRng(5, 1).u32());
  });

  it("int, range and pick stay in bounds and reach both ends", () => {
    const r = new Rng(9);
    const seen = new Set<number>();
    for (let i = 0; i < 5000; i++) {
      const x = r.range(3, 7);
      expect(x).toBeGreaterThanOrEqual(3);
      expect(x).toBeLessThanOrEqual(7);
      seen.add(x);
      expect(r.int(1)).toBe(0);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
    expect(r.bytes(7).length).toBe(7);
  });
});

describe("strategies are deterministic per (seed, index)", () => {
  for (const s of STRATEGIES) {
    it(strategyKey(s), () => {
      const n = s.name === "large-event" ? 2 : 12;
      const draws = Array.from({ length: n }, (_, i) => inputFor(s, corpus, 42, i));
      const again = Array.from({ length: n }, (_, i) => inputFor(s, corpus, 42, i));
      expect(again).toEqual(draws);
      // And they vary (a generator that ignores its rng would not).
      if (n > 2)
        expect(new Set(draws.map((d) => JSON.stringify([d.options, render(d.data)]))).size).toBeGreaterThan(n / 3);
    });
  }
});

describe("varints", () => {
  it("minimal encodings, including 10- and 11-byte ones", () => {
    expect(varint(0)).toEqual([0]);
    expect(varint(300)).toEqual([0xac, 0x02]);
    expect(varint(2n ** 63n).length).toBe(10);
    expect(varint(2n ** 64n - 1n)).toEqual([...Array<number>(9).fill(0xff), 0x01]);
    expect(varint(2n ** 64n).length).toBe(10); // 65 bits: a 10th byte above 1, which Go calls overflow
    expect(varint(2n ** 70n).length).toBe(11);
    expect(varint(-1)).toEqual(varint(2n ** 64n - 1n));
    for (const v of [...INTERESTING_VARINTS, ...hugeLengths(12345)])
      expect(readVarint(Uint8Array.from(varint(v)), 0).value).toBe(v);
  });

  it("padded encodings read back as the same value", () => {
    expect(paddedVarint(5, 4)).toEqual([0x85, 0x80, 0x80, 0x00]);
    for (let size = 1; size <= 11; size++) {
      const b = paddedVarint(300, size);
      expect(b.length).toBe(Math.max(2, size));
      expect(readVarint(Uint8Array.from(b), 0).value).toBe(300n);
    }
  });

  it("2^32 + k has low 32 bits k: what a 32-bit length reader would see", () => {
    const huge = hugeLengths(77);
    expect(huge).toContain(2n ** 32n + 77n);
    expect(Number(BigInt.asUintN(32, 2n ** 32n + 77n))).toBe(77);
    expect(huge.some((v) => varint(v).length === 11)).toBe(true);
  });
});

describe("protobuf trees", () => {
  it("parse every seed and write it back byte for byte", () => {
    for (const d of docs) expect(hex(serialize(d, new Map()))).toBe(hex(d.bytes));
  });

  it("nodes nest inside their parents and follow each other without gaps", () => {
    for (const d of docs) {
      const check = (nodes: readonly PbNode[], start: number, end: number): void => {
        let at = start;
        for (const n of nodes) {
          expect(n.start).toBe(at);
          expect(n.end).toBeLessThanOrEqual(end);
          if (n.children !== undefined) check(n.children, n.dataStart + (n.magic ? 4 : 0), n.end);
          at = n.end;
        }
        expect(at).toBe(end);
      };
      check(d.fields, d.prefix, d.bytes.length);
    }
    // The enveloped object inside a watch event is parsed too.
    expect(docs.some((d) => d.all.some((n) => n.magic))).toBe(true);
  });

  it("a huge length lands on the chosen nested field, with the enclosing lengths recomputed", () => {
    const d = corpus.pb.map(docOf).reduce((a, b) => (b.all.length > a.all.length ? b : a));
    const deep = d.all.filter((n) => n.wt === WT.LEN && n.depth >= 2);
    expect(deep.length).toBeGreaterThan(10);
    for (const node of deep.slice(0, 40)) {
      for (const value of [2n ** 63n, 2n ** 32n + 3n, 0n]) {
        const out = serialize(d, new Map<PbNode, Edit[]>([[node, [{ op: "length", bytes: varint(value) }]]]));
        expect(readLengthAt(out, d, node)).toBe(value);
      }
    }
  });

  it("a wire-type edit writes a tag with the same field number and another wire type", () => {
    const rng = new Rng(3);
    for (let i = 0; i < 200; i++) {
      const d = rng.pick(docs);
      const e = structuralEdit(rng, d, "wire-type");
      if (e === undefined) continue;
      const [node, edit] = e;
      if (edit.op !== "tag") throw new Error(`expected a tag edit, got ${edit.op}`);
      const t = readVarint(Uint8Array.from(edit.bytes), 0).value;
      expect(Number(t >> 3n)).toBe(node.no);
      expect(Number(t & 7n)).not.toBe(node.wt);
      // A top-level field starts where it did; the new tag is there.
      if (node.parent === undefined) {
        const out = serialize(d, new Map([[node, [edit]]]));
        expect(Number(readVarint(out, node.start).value & 7n)).toBe(Number(t & 7n));
      }
    }
  });

  it("truncation points cover every field's edges and stay inside the input", () => {
    for (const d of docs) {
      const pts = truncationPoints(d);
      expect([...pts].sort((a, b) => a - b)).toEqual(pts);
      expect(new Set(pts).size).toBe(pts.length);
      for (const p of pts) expect(p >= 0 && p <= d.bytes.length).toBe(true);
      for (const n of d.all) {
        expect(pts).toContain(n.start);
        expect(pts).toContain(n.valueStart);
        expect(pts).toContain(n.end);
      }
    }
  });

  it("a splice is a prefix of one seed followed by a suffix of the other", () => {
    const rng = new Rng(4);
    for (let i = 0; i < 100; i++) {
      const a = rng.pick(docs);
      const b = rng.pick(docs);
      const out = spliceDocs(rng, a, b);
      let ok = false;
      for (let k = 0; k <= Math.min(out.length, a.bytes.length) && !ok; k++) {
        const tail = out.length - k;
        ok =
          tail <= b.bytes.length &&
          hex(out.subarray(0, k)) === hex(a.bytes.subarray(0, k)) &&
          hex(out.subarray(k)) === hex(b.bytes.subarray(b.bytes.length - tail));
      }
      expect(ok).toBe(true);
    }
    expect(boundaries(docs[0] as PbDoc)).toContain((docs[0] as PbDoc).bytes.length);
  });
});

describe("byte mutations", () => {
  const input = Uint8Array.from({ length: 100 }, (_, i) => i);
  const rng = new Rng(5);

  it("each op does what its name says, and never touches the input", () => {
    for (let round = 0; round < 50; round++) {
      for (const op of BYTE_OPS) {
        const out = applyByteOp(rng, input, op);
        const diff = [...out].flatMap((b, i) => (i < input.length && b !== input[i] ? [i] : []));
        switch (op) {
          case "flip":
            expect(out.length).toBe(100);
            expect(diff.length).toBe(1);
            expect(popcount((out[diff[0] as number] as number) ^ (input[diff[0] as number] as number))).toBe(1);
            break;
          case "interesting":
          case "random":
            expect(out.length).toBe(100);
            expect(diff.length).toBeLessThanOrEqual(1);
            if (op === "interesting" && diff.length === 1) expect(INTERESTING_BYTES).toContain(out[diff[0] as number]);
            break;
          case "insert":
          case "duplicate":
          case "delete": {
            const grow = out.length - input.length;
            if (op === "delete") expect(grow >= -16 && grow <= -1).toBe(true);
            else expect(grow >= 1 && grow <= (op === "insert" ? 8 : 64)).toBe(true);
            // Same prefix and suffix, with one changed run between them.
            expect(commonPrefix(out, input) + commonSuffix(out, input)).toBeGreaterThanOrEqual(
              Math.min(out.length, input.length),
            );
            break;
          }
          case "truncate":
            expect(out.length).toBeLessThan(100);
            expect(hex(out)).toBe(hex(input.subarray(0, out.length)));
            break;
          case "varint-run":
            expect(out.length).toBe(100);
            expect(diff.every((i) => (out[i] as number) >= 0x80 || diff.indexOf(i) === diff.length - 1)).toBe(true);
            break;
        }
      }
    }
    expect(hex(input)).toBe(hex(Uint8Array.from({ length: 100 }, (_, i) => i)));
  });
});

describe("deep nesting generators really nest N levels", () => {
  it.each([1, 64, 65, 1000, 100_000])("groups, %i levels", (n) => {
    expect(groupDepth(deepGroups(n, 5, true))).toEqual({ max: n, open: 0 });
    expect(groupDepth(deepGroups(n, 20, false))).toEqual({ max: n, open: n });
  });

  it.each([1, 100, 100_000])("length-delimited messages, %i levels", (n) => {
    const core = Uint8Array.of(0x08, 0x01);
    const b = deepMessages(n, 2, core, "test-core");
    let at = 0;
    let levels = 0;
    while (at < b.length && b[at] === 0x12) {
      const len = readVarint(b, at + 1);
      expect(Number(len.value)).toBe(b.length - len.next); // each level holds everything after it
      at = len.next;
      levels++;
    }
    expect(levels).toBe(n);
    expect(hex(b.subarray(at))).toBe("0801");
  });

  it.each([1, 100, 101, 100_000])("JSON, %i levels", (n) => {
    expect(jsonDepth(deepJson(n, "array"))).toEqual({ max: n, end: 0 });
    expect(jsonDepth(deepJson(n, "object"))).toEqual({ max: n, end: 0 });
    expect(jsonDepth(deepJson(n, "mixed")).max).toBeGreaterThanOrEqual(n);
    expect(jsonDepth(deepJson(n, "unclosed")).end).toBeGreaterThanOrEqual(n);
    expect(() => JSON.parse(deepJson(Math.min(n, 1000), "array"))).not.toThrow();
  });

  it.each([1, 100, 5000])("YAML, %i levels", (n) => {
    expect(jsonDepth(deepYaml(n, "flow")).max).toBe(n);
    expect(deepYaml(n, "block-seq").split("- ").length - 1).toBe(n);
    const map = deepYaml(n, "block-map").split("\n");
    expect(map.filter((l) => /^ *a:$/.test(l)).length).toBe(Math.min(n, 2000));
  });
});

describe("JSON value mutations", () => {
  it("spans of a fixture are values and members", () => {
    for (const text of corpus.json.slice(0, 8)) {
      const s = jsonSpans(text);
      for (const [a, b] of s.values) expect(() => JSON.parse(text.slice(a, b))).not.toThrow();
      for (const [a, b] of s.members) expect(() => JSON.parse(`{${text.slice(a, b)}}`)).not.toThrow();
      expect(s.objectStarts.every((p) => text[p - 1] === "{")).toBe(true);
    }
  });

  it("keep the text valid JSON (so the decoder, not the parser, meets the hostile values)", () => {
    const rng = new Rng(6);
    let valid = 0;
    for (let i = 0; i < 300; i++) {
      const out = mutateJsonValues(rng, rng.pick(corpus.json), rng.range(1, 3));
      try {
        JSON.parse(out);
        valid++;
      } catch {
        // overlapping edits may break it, rarely
      }
    }
    expect(valid).toBeGreaterThanOrEqual(285);
  });
});

describe("streams and failure files", () => {
  it("chunk() splits without losing or reordering anything", () => {
    const rng = new Rng(7);
    const bytes = rng.bytes(1000);
    for (let i = 0; i < 50; i++) {
      const parts = chunk(rng, bytes);
      expect(hex(Buffer.concat(parts))).toBe(hex(bytes));
    }
    const every = chunk(rng, "abcdefghij", 3);
    expect(every).toEqual(["abc", "def", "ghi", "j"]);
  });

  it("frame() writes a big-endian length, the real or the declared one", () => {
    const body = Uint8Array.of(1, 2, 3);
    expect(hex(frame(body))).toBe("00000003010203");
    expect(hex(frame(body, 0xffffffff))).toBe("ffffffff010203");
  });

  it("a failure file gives back the exact input", () => {
    const inputs = [
      { data: Uint8Array.of(0, 255, 0x6b), options: { maxDepth: 5 } },
      { data: 'a\n"b"\ud800\u2028', options: { strict: true } },
      { data: [Uint8Array.of(1), new Uint8Array(0), "x\ny", Uint8Array.of(2)], options: {} },
    ];
    for (const input of inputs) {
      const text = formatFailure({
        kind: "crash",
        seed: 9,
        index: 3,
        strategy: "s",
        target: "json-watch-stream",
        detail: "TypeError: x\ny",
        stack: "E\n  at f\n  at g",
        input,
      });
      const back = parseFailure(text);
      expect(back.target).toBe("json-watch-stream");
      expect(back.input).toEqual(input);
      expect(back.header["seed"]).toBe("9");
    }
  });
});

// ------------------------------------------------------------------ independent readers

/** Reads the length prefix of `target` in `out`, walking down from the top through the recomputed lengths. */
function readLengthAt(out: Uint8Array, d: PbDoc, target: PbNode): bigint {
  const path: PbNode[] = [];
  for (let n: PbNode | undefined = target; n !== undefined; n = n.parent) path.unshift(n);
  let at = d.prefix;
  let end = out.length;
  let siblings = d.fields;
  for (const node of path) {
    // Skip the siblings before `node` by their (unchanged) sizes.
    for (const s of siblings) {
      if (s === node) break;
      at += s.end - s.start;
    }
    const tagEnd = readVarint(out, at).next;
    const len = readVarint(out, tagEnd);
    if (node === target) return len.value;
    expect(len.next + Number(len.value)).toBeLessThanOrEqual(end);
    at = len.next + (node.magic ? 4 : 0);
    end = len.next + Number(len.value);
    siblings = node.children ?? [];
  }
  throw new Error("unreachable");
}

/** Deepest group nesting, and how many groups are left open, read tag by tag. */
function groupDepth(b: Uint8Array): { max: number; open: number } {
  let at = 0;
  let depth = 0;
  let max = 0;
  while (at < b.length) {
    const t = readVarint(b, at);
    at = t.next;
    const wt = Number(t.value & 7n);
    if (wt === WT.SGROUP) max = Math.max(max, ++depth);
    else if (wt === WT.EGROUP) depth--;
    else throw new Error(`unexpected wire type ${wt}`);
  }
  return { max, open: depth };
}

/** Deepest bracket nesting outside strings, and the depth at the end. */
function jsonDepth(text: string): { max: number; end: number } {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") max = Math.max(max, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return { max, end: depth };
}

function popcount(x: number): number {
  let n = 0;
  for (; x !== 0; x &= x - 1) n++;
  return n;
}

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function commonSuffix(a: Uint8Array, b: Uint8Array): number {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

function render(d: string | Uint8Array | readonly (string | Uint8Array)[]): string {
  if (typeof d === "string") return d;
  if (d instanceof Uint8Array) return hex(d);
  return d.map(render).join("|");
}
