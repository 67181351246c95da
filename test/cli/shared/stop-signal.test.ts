// How a serving command learns to stop: io.signal when given, else SIGINT or SIGTERM.
import { describe, expect, it } from "vitest";
import { aborted, stopSignal } from "../../../src/cli/shared/stop-signal.js";
import { memorySink } from "../../support/cli/validate.js";

const io = (signal?: AbortSignal) => ({
  stdout: memorySink(false),
  stderr: memorySink(false),
  ...(signal === undefined ? {} : { signal }),
});

/** The listeners stopSignal added for `name`. */
const added = (name: "SIGINT" | "SIGTERM", before: readonly unknown[]) =>
  process.listeners(name).filter((l) => !before.includes(l));

describe("stopSignal", () => {
  it("uses io.signal as it is, and installs no handler", () => {
    const controller = new AbortController();
    const before = [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
    const s = stopSignal(io(controller.signal));
    expect(s.signal).toBe(controller.signal);
    expect([process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")]).toEqual(before);
    s.dispose();
    expect(controller.signal.aborted).toBe(false);
  });

  it.each(["SIGINT", "SIGTERM"] as const)(
    "without io.signal, %s aborts with the signal's name, and dispose removes both handlers",
    (name) => {
      const before = { SIGINT: process.listeners("SIGINT"), SIGTERM: process.listeners("SIGTERM") };
      const s = stopSignal(io());
      const mine = { SIGINT: added("SIGINT", before.SIGINT), SIGTERM: added("SIGTERM", before.SIGTERM) };
      expect(mine.SIGINT).toHaveLength(1);
      expect(mine.SIGTERM).toHaveLength(1);
      expect(s.signal.aborted).toBe(false);
      // Called as Node would call it, without raising a real signal in the test process.
      (mine[name][0] as () => void)();
      expect(s.signal.aborted).toBe(true);
      expect(s.signal.reason).toBe(name);
      s.dispose();
      expect(added("SIGINT", before.SIGINT)).toEqual([]);
      expect(added("SIGTERM", before.SIGTERM)).toEqual([]);
    },
  );
});

describe("aborted", () => {
  it("resolves to the reason at once for an aborted signal, else when it aborts", async () => {
    expect(await aborted(AbortSignal.abort("done"))).toBe("done");
    const controller = new AbortController();
    let settled = false;
    const p = aborted(controller.signal).then((r) => {
      settled = true;
      return r;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    controller.abort("later");
    expect(await p).toBe("later");
  });
});
