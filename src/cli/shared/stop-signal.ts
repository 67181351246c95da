import type { CliIO } from "./io.js";

// How a serving command learns it should stop: io.signal (tests, embedders), or
// SIGINT and SIGTERM.

/** io.signal, or an AbortSignal for SIGINT and SIGTERM; a second signal after dispose() gets Node's default handling. */
export function stopSignal(io: CliIO): { signal: AbortSignal; dispose(): void } {
  if (io.signal !== undefined) return { signal: io.signal, dispose: () => {} };
  const controller = new AbortController();
  const handlers = (["SIGINT", "SIGTERM"] as const).map((name) => [name, () => controller.abort(name)] as const);
  for (const [name, handler] of handlers) process.once(name, handler);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}

/** Resolves to the signal's reason once it aborts (at once when it already has). */
export function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener("abort", () => resolve(signal.reason), { once: true });
  });
}
