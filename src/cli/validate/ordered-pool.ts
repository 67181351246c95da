// Running jobs concurrently while reporting their results in input order,
// with a bounded window so memory does not grow with the number of jobs.

/** Runs one job; `close` releases whatever the executor holds (worker threads). */
export interface Executor<I, O> {
  run(input: I): Promise<O>;
  close(): Promise<void>;
}

interface Slot<I, O> {
  readonly input: I;
  state: "running" | "done" | "failed";
  value?: O;
  error?: unknown;
}

/**
 * Feeds `inputs` to `executor` with up to `concurrency` jobs running, and
 * calls `emit` with each result in input order. At most `window` jobs are
 * started but not yet emitted, so a slow job holds back at most that many
 * finished results; inputs are pulled only as the window allows. A job that
 * fails stops the run with its error once the results before it are emitted.
 */
export async function runInOrder<I, O>(
  inputs: AsyncIterable<I> | Iterable<I>,
  executor: Executor<I, O>,
  options: { readonly concurrency: number; readonly window?: number },
  emit: (output: O, input: I) => void,
): Promise<void> {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const window = Math.max(concurrency, Math.floor(options.window ?? concurrency * 4));
  const it: AsyncIterator<I> | Iterator<I> =
    Symbol.asyncIterator in inputs ? inputs[Symbol.asyncIterator]() : inputs[Symbol.iterator]();
  const slots: Slot<I, O>[] = [];
  let running = 0;
  let exhausted = false;
  let wake: (() => void) | undefined;
  const start = (input: I): void => {
    const slot: Slot<I, O> = { input, state: "running" };
    slots.push(slot);
    running++;
    executor.run(input).then(
      (value) => {
        slot.state = "done";
        slot.value = value;
        running--;
        wake?.();
      },
      (error: unknown) => {
        slot.state = "failed";
        slot.error = error;
        running--;
        wake?.();
      },
    );
  };
  for (;;) {
    while (!exhausted && running < concurrency && slots.length < window) {
      const next = await it.next();
      if (next.done === true) exhausted = true;
      else start(next.value);
    }
    for (let head = slots[0]; head !== undefined && head.state !== "running"; head = slots[0]) {
      if (head.state === "failed") throw head.error;
      slots.shift();
      emit(head.value as O, head.input);
    }
    if (slots.length === 0 && exhausted) return;
    const canStart = !exhausted && running < concurrency && slots.length < window;
    if (!canStart) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
}
