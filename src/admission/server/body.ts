// Reading a request body under a size limit, refusing before reading it all.

import type { IncomingMessage } from "node:http";

/** Why a body was not read: too large (413), or the client went away. */
export class BodyError extends Error {
  override readonly name = "BodyError";
  readonly status: 413 | 400;

  constructor(status: 413 | 400, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * The body of `req`, at most `limit` bytes. A Content-Length over the limit is
 * refused before any of the body is read; a chunked body as soon as it passes
 * the limit. The rest of a refused body is left unread (the caller closes the
 * connection).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(new BodyError(413, `the body is ${declared} bytes; the limit is ${limit}`));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(new BodyError(413, `the body is over the limit of ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onAbort = (): void => {
      cleanup();
      reject(new BodyError(400, "the client closed the connection before the body was read"));
    };
    const cleanup = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onAbort);
      req.off("aborted", onAbort);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onAbort);
    req.on("aborted", onAbort);
  });
}
