// Helpers for the malformed-input tests: envelopes built byte by byte, error
// catchers, and mutations of valid fixtures.

import fc from "fast-check";
import { expect } from "vitest";
import {
  DecodeError,
  EncodeError,
  MAGIC,
  decode,
  encode,
  fromJson,
  toJsonString,
  toYaml,
} from "../../src/networking/index.js";
import type { NetworkingObject } from "../../src/networking/index.js";
import { fixtureFolders, loadFixtures } from "./fixtures.js";
import { ld, readVarint } from "./protobuf-wire.js";
import { hex } from "./bytes.js";
import { decodeError } from "./errors.js";

// ------------------------------------------------------------ helpers

export const utf8 = new TextEncoder();

export const str = (no: number, s: string): number[] => ld(no, utf8.encode(s));

export function typeMeta(apiVersion: string, kind: string): number[] {
  return [...str(1, apiVersion), ...str(2, kind)];
}

/** The head of an envelope up to the raw bytes' length prefix. */
export function envelopeHead(kind: string, apiVersion = "networking.k8s.io/v1"): number[] {
  return [...MAGIC, ...ld(1, typeMeta(apiVersion, kind))];
}

/** A Go-shaped envelope around `raw`; `rawStart(kind)` is where raw begins. */
export function envelope(kind: string, raw: readonly number[], apiVersion = "networking.k8s.io/v1"): Uint8Array {
  return Uint8Array.from([...envelopeHead(kind, apiVersion), ...ld(2, raw), ...str(3, ""), ...str(4, "")]);
}

/** Offset of the first raw byte in `envelope(kind, raw)` for raws shorter than 128 bytes. */
export function rawStart(kind: string, apiVersion = "networking.k8s.io/v1"): number {
  return envelopeHead(kind, apiVersion).length + 2;
}

export const ING = rawStart("Ingress"); // 39

export function pbError(bytes: Uint8Array | readonly number[]): DecodeError {
  const e = decodeError(() => decode(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes)));
  expect(e.format).toBe("protobuf");
  expect(typeof e.offset).toBe("number");
  return e;
}

export const allFixtures = fixtureFolders().flatMap((folder) =>
  loadFixtures(folder).flatMap((fx) => {
    const out = [{ name: `${folder}/${fx.kind}`, pb: fx.pb, json: fx.json, yaml: fx.yaml }];
    if (fx.after?.pb !== undefined)
      out.push({
        name: `${folder}/${fx.kind} (after_roundtrip)`,
        pb: fx.after.pb,
        json: fx.after.json ?? fx.json,
        yaml: fx.after.yaml ?? fx.yaml,
      });
    return out;
  }),
);
export const headIngress = (() => {
  const f = loadFixtures("HEAD").find((x) => x.kind === "Ingress");
  if (f === undefined) throw new Error("HEAD Ingress fixture missing");
  return f;
})();

/** End offsets of the top-level fields of the runtime.Unknown in a Go envelope. */
export function envelopeFieldEnds(pb: Uint8Array): number[] {
  const ends: number[] = [];
  let i = MAGIC.length;
  while (i < pb.length) {
    i = readVarint(pb, i).next; // every Unknown field Go writes is length-delimited
    const len = readVarint(pb, i);
    i = len.next + Number(len.value);
    ends.push(i);
  }
  return ends;
}

// ------------------------------------------------------------ protobuf

// ------------------------------------------------------------ protobuf fuzzing

export type Mutation = { op: "flip" | "set" | "insert" | "delete"; at: number; value: number };
export const arbMutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom("flip", "set", "insert", "delete"),
  at: fc.nat(),
  value: fc.integer({ min: 0, max: 255 }),
});

export function mutate(input: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  const b = [...input];
  for (const m of mutations) {
    const at = b.length === 0 ? 0 : m.at % (b.length + (m.op === "insert" ? 1 : 0));
    switch (m.op) {
      case "flip":
        if (b.length > 0) b[at] = (b[at] as number) ^ (1 << (m.value % 8));
        break;
      case "set":
        if (b.length > 0) b[at] = m.value;
        break;
      case "insert":
        b.splice(at, 0, m.value);
        break;
      case "delete":
        b.splice(at, 1);
        break;
    }
  }
  return Uint8Array.from(b);
}

/**
 * decode either returns or throws DecodeError; a result re-encodes stably,
 * and prints as JSON/YAML or throws EncodeError (e.g. an IntOrString of type
 * 7, or a fieldsV1 that is not JSON: Go's marshaller refuses those too).
 */
export function decodeOrDecodeError(bytes: Uint8Array): void {
  let result: NetworkingObject | undefined;
  try {
    result = decode(bytes);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw new Error(`decode(${hex(bytes)}) threw ${String(e)}`);
    expect(e.offset).toBeGreaterThanOrEqual(0);
    expect(e.offset).toBeLessThanOrEqual(bytes.length);
  }
  if (result !== undefined) {
    const again = encode(result);
    expect(hex(encode(decode(again)))).toBe(hex(again));
    for (const print of [() => toJsonString(result), () => toYaml(result)]) {
      try {
        print();
      } catch (e) {
        if (!(e instanceof EncodeError)) throw new Error(`printing decode(${hex(bytes)}) threw ${String(e)}`);
      }
    }
  }
}

export const NP = '"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1"';

/** Renders DecodeError.segments the way DecodeError.path is written. */
export function renderSegments(segments: readonly (string | number)[]): string {
  return segments.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

export function jsonError(input: string | unknown, options: { strict?: boolean } = {}): DecodeError {
  const e = decodeError(() => fromJson(input as string, options));
  expect(e.format).toBe("json");
  return e;
}

export function mutateText(text: string, muts: readonly Mutation[]): string {
  const alphabet = "{}[]\",:0123456789-.eE tfnul\\\n#&*!|>'?@%`a";
  let s = text;
  for (const m of muts) {
    const at = s.length === 0 ? 0 : m.at % (s.length + 1);
    const ch = alphabet[m.value % alphabet.length] as string;
    switch (m.op) {
      case "flip":
      case "set":
        s = s.slice(0, at) + ch + s.slice(at + 1);
        break;
      case "insert":
        s = s.slice(0, at) + ch + s.slice(at);
        break;
      case "delete":
        s = s.slice(0, at) + s.slice(at + 1);
        break;
    }
  }
  return s;
}

export function onlyDecodeError(f: () => unknown, what: string): void {
  try {
    f();
  } catch (e) {
    if (!(e instanceof DecodeError)) throw new Error(`${what} threw ${String(e)}`);
  }
}
