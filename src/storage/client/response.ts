// Reading an answer body: a size cap that cancels the transfer, and the JSON media-type test.

import type { FetchResponse } from "./transport.js";

/**
 * The largest answer body a {@link StorageClient} reads by default (64 MiB); larger is refused with
 * StorageProtocolError.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_RESPONSE_BYTES, StorageClient } from "clusterwire/storage";
 *
 * const client = new StorageClient({ baseUrl: "https://cluster.example.com", username: "admin", password: "secret", maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES * 2 });
 * ```
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Thrown inside #send when an answer passes maxResponseBytes; it becomes a StorageProtocolError. */
export class ResponseTooLarge extends Error {
  constructor(
    readonly status: number,
    readonly limit: number,
  ) {
    super(`answer larger than ${limit} bytes`);
  }
}

/** Reads an answer body, stopping (and cancelling the transfer) once it passes `limit` bytes. */
export async function readCapped(res: FetchResponse, limit: number): Promise<string> {
  const body = res.body ?? undefined;
  const stream = body !== undefined && typeof body[Symbol.asyncIterator] === "function" ? body : undefined;
  const declared = Number(res.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) {
    if (stream !== undefined) cancelBody(stream);
    throw new ResponseTooLarge(res.status, limit);
  }
  if (stream === undefined) {
    const text = await res.text();
    if (Buffer.byteLength(text, "utf8") > limit) throw new ResponseTooLarge(res.status, limit);
    return text;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop by throwing cancels the stream (and with it the connection).
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > limit) throw new ResponseTooLarge(res.status, limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Stops a body nobody will read, closing its connection. Explicitly: `return()` on a Node
 * stream's iterator that was never started does not destroy the stream.
 */
function cancelBody(body: AsyncIterable<Uint8Array>): void {
  const b = body as { destroy?: () => void; cancel?: () => Promise<void> };
  if (typeof b.destroy === "function") b.destroy();
  else if (typeof b.cancel === "function") b.cancel().catch(() => {});
  else
    void body[Symbol.asyncIterator]()
      .return?.()
      ?.catch(() => {});
}

/** JSON media types: application/json and application/*+json (hal+json). */
export function isJsonContentType(value: string): boolean {
  const media = (value.split(";")[0] ?? "").trim().toLowerCase();
  return /^application\/(?:[a-z0-9.+-]*\+)?json$/.test(media);
}
