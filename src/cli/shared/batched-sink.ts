import type { Sink } from "./io.js";

// Log lines gathered into fewer, larger writes. process.stderr writes to a
// file or a pipe synchronously, one system call per write: a line per review
// at thousands of reviews a second was about 4% of the webhook's CPU time.

/** How long a written line may wait before it reaches the sink, in ms. */
export const BATCH_DELAY_MS = 50;
/** How many characters are gathered before they are written at once. */
export const BATCH_CHARS = 16 * 1024;

/** A Sink that gathers what is written to it; {@link batchedSink}. */
export interface BatchedSink extends Sink {
  /** Writes what is gathered now. */
  flush(): void;
  /** Flushes, and from now on writes straight through (nothing waits, nothing is lost at exit). */
  close(): void;
}

/**
 * Gathers writes to `sink` and writes them in one piece when `maxChars` are
 * gathered or `delayMs` after the first of them, whichever comes first; and at
 * once on flush(), on close(), and when the process exits (the 'exit' event,
 * which comes after process.exit() and after an uncaught exception, where a
 * synchronous write such as process.stderr's to a file or pipe still happens).
 * What is written keeps its order. The timer does not keep the process alive.
 */
export function batchedSink(sink: Sink, delayMs = BATCH_DELAY_MS, maxChars = BATCH_CHARS): BatchedSink {
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const flush = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending === "") return;
    const out = pending;
    pending = "";
    sink.write(out);
  };
  process.on("exit", flush);
  return {
    ...(sink.isTTY === undefined ? {} : { isTTY: sink.isTTY }),
    write(chunk) {
      if (closed) return sink.write(chunk);
      if (typeof chunk !== "string") {
        // Bytes (never a log line) go out in order, after what is gathered.
        flush();
        return sink.write(chunk);
      }
      pending += chunk;
      if (pending.length >= maxChars) flush();
      else if (timer === undefined) {
        timer = setTimeout(flush, delayMs);
        timer.unref();
      }
      return true;
    },
    flush,
    close() {
      flush();
      closed = true;
      process.off("exit", flush);
    },
  };
}
