import type { Sink } from "../shared/io.js";

// A progress line on a terminal, for runs long enough to leave the user
// wondering: shown after a second, redrawn at most ten times a second, and
// erased when the run ends. Nothing is written when stderr is not a TTY.

const SHOW_AFTER_MS = 1000;
const REDRAW_EVERY_MS = 100;

export interface Progress {
  update(text: string): void;
  done(): void;
}

export function progressLine(sink: Sink, now: () => number = Date.now): Progress {
  if (sink.isTTY !== true) return { update() {}, done() {} };
  const started = now();
  let drawn = 0;
  let shown = false;
  return {
    update(text) {
      const t = now();
      if (t - started < SHOW_AFTER_MS || t - drawn < REDRAW_EVERY_MS) return;
      drawn = t;
      shown = true;
      // \r and erase-line redraw in place; the text is cut to stay on one line.
      sink.write(`\r\x1b[K${text.slice(0, 100)}`);
    },
    done() {
      if (shown) sink.write("\r\x1b[K");
    },
  };
}
