// Packed bytes (../heatmap-data.ts) back to bytes: base64, then gunzip with
// the browser's own DecompressionStream when the writer gzipped them.

import type { PackedBytes } from "../heatmap-data.js";

export async function unpack(blob: PackedBytes): Promise<Uint8Array> {
  const bin = atob(blob.base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  if (blob.encoding === "raw") return bytes;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
