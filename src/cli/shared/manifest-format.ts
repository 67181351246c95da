import { extname } from "node:path";
import { detectFormat, hasMagic } from "./io.js";

/**
 * How a manifest is read:
 * - `pb`: one k8s\0 object, or (without the magic) a protobuf watch stream;
 * - `jsonl`: a JSON watch stream;
 * - `json`: JSON values one after another, usually one (a List kind counts as one);
 * - `yaml`: a YAML stream, one object per non-empty document.
 */
export type ManifestFormat = "pb" | "jsonl" | "json" | "yaml";

/**
 * Picks how to read a manifest: the k8s\0 magic first, then the extension,
 * then the content. Text never starts with a NUL byte, while a protobuf watch
 * stream does (its big-endian frame length is under 16 MiB), so that is how a
 * watch stream on stdin is recognised.
 */
export function manifestFormat(name: string, bytes: Uint8Array): ManifestFormat {
  if (hasMagic(bytes)) return "pb";
  if (extname(name).toLowerCase() === ".jsonl") return "jsonl";
  if (bytes[0] === 0x00) return "pb";
  return detectFormat(name, bytes);
}
