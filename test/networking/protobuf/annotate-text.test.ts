// formatWireAnnotation: one line per span, and each line's offset and hex are
// the input's bytes at that span (checked against the bytes, not the code).

import { describe, expect, it } from "vitest";
import { annotateWire, formatWireAnnotation, type WireSpan } from "../../../src/networking/index.js";
import { headIngress } from "../../support/bad-input.js";

const LINE = /^([0-9a-f]{6,}) {2}((?:[0-9a-f]{2} )*(?:[0-9a-f]{2}…)?)/;

describe("formatWireAnnotation", () => {
  const bytes = headIngress.pb;
  const a = annotateWire(bytes);

  it("a header, then one line per span with its offset, own bytes (cut) and indentation by depth", () => {
    const lines = formatWireAnnotation(a, bytes, { hexBytes: 8 }).split("\n");
    expect(lines[0]).toBe(`# networking.k8s.io/v1 Ingress (k8s.io.api.networking.v1.Ingress), ${bytes.length} bytes`);
    expect(lines.at(-1)).toBe("");
    const body = lines.slice(1, -1);
    expect(body).toHaveLength(a.spans.length);
    body.forEach((line, i) => {
      const span = a.spans[i] as WireSpan;
      const m = LINE.exec(line);
      if (m === null) throw new Error(`line ${i + 1} does not parse: ${line}`);
      expect(Number.parseInt(m[1] as string, 16)).toBe(span.offset);
      const own = span.nested ? span.valueOffset : span.valueOffset + span.valueLength;
      const shown = Math.min(own - span.offset, 8);
      const want = Buffer.from(bytes.subarray(span.offset, span.offset + shown))
        .toString("hex")
        .replace(/(..)(?!$)/g, "$1 ");
      const hex = (m[2] as string).trimEnd();
      expect(hex).toBe(own - span.offset > 8 ? `${want}…` : want);
      // The annotation column starts after the offset (6), 2 spaces, 8 bytes of hex (8 * 3 + 1) and a space.
      const annotation = line.slice(6 + 2 + 25 + 1);
      expect(annotation.startsWith("  ".repeat(span.depth))).toBe(true);
      expect(annotation.charAt(span.depth * 2)).not.toBe(" ");
    });
  });

  it("names fields by path with number, wire type and value", () => {
    const text = formatWireAnnotation(a, bytes);
    expect(text).toMatch(/ {2}1:LEN typeMeta\.apiVersion = "networking\.k8s\.io\/v1"$/m);
    expect(text).toMatch(
      /^\S+ {2}.* {10}2:VARINT spec\.rules\[0\]\.http\.paths\[0\]\.backend\.service\.port\.number = 2$/m,
    );
    expect(text).toMatch(/11:LEN metadata\.labels\["labelsKey"\] \(24 bytes\) = "labelsKey": "labelsValue"$/m);
    expect(text).toMatch(/ {6}1:LEN key = "labelsKey"$/m);
    expect(text).toMatch(/^000000 {2}6b 38 73 00 +magic "k8s\\u0000"$/m);
  });
});
