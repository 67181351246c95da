// How a manifest is read: the k8s\0 magic, then .jsonl, then a leading NUL (a protobuf watch
// stream), then detectFormat's extension and content rules.
import { describe, expect, it } from "vitest";
import { MAGIC } from "../../../src/networking/index.js";
import { manifestFormat } from "../../../src/cli/shared/manifest-format.js";

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("manifestFormat", () => {
  it("reads the magic as one protobuf object, whatever the name", () => {
    const pb = Uint8Array.from([...MAGIC, 0x0a, 0x00]);
    for (const name of ["x.pb", "x.jsonl", "x.yaml", "<stdin>"]) expect(manifestFormat(name, pb)).toBe("pb");
  });

  it("reads .jsonl in any case as a JSON watch stream", () => {
    expect(manifestFormat("events.jsonl", text('{"type":"ADDED"}\n'))).toBe("jsonl");
    expect(manifestFormat("EVENTS.JSONL", text(""))).toBe("jsonl");
    // Not for its content alone: JSON lines on stdin are JSON values one after another.
    expect(manifestFormat("<stdin>", text('{"type":"ADDED"}\n{"type":"DELETED"}\n'))).toBe("json");
  });

  it("reads a leading NUL byte as a protobuf watch stream (a frame length under 16 MiB)", () => {
    expect(manifestFormat("<stdin>", Uint8Array.of(0x00, 0x00, 0x01, 0x00))).toBe("pb");
    expect(manifestFormat("watch.yaml", Uint8Array.of(0x00, 0x00, 0x00, 0x10))).toBe("pb");
  });

  it("otherwise goes by extension, then by the first non-blank character", () => {
    expect(manifestFormat("a.json", text("kind: x"))).toBe("json");
    expect(manifestFormat("a.yml", text("{}"))).toBe("yaml");
    expect(manifestFormat("a.bin", text("kind: x"))).toBe("pb");
    expect(manifestFormat("<stdin>", text("\n  [ ]"))).toBe("json");
    expect(manifestFormat("<stdin>", text("kind: Ingress\n"))).toBe("yaml");
    expect(manifestFormat("<stdin>", new Uint8Array())).toBe("yaml");
  });
});
