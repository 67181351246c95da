// A loop over the files of a folder passes on an empty folder: it checks nothing. A test that
// reads fixtures, corpora or golden files passes its list through nonEmpty first, so a folder
// that is missing, empty or renamed fails the file instead of passing it.

/**
 * `list` itself when it holds at least `min` items (default 1); otherwise throws an Error naming
 * `what` (a folder, or what was looked for in it), so the test that reads it fails.
 */
export function nonEmpty<T>(list: readonly T[], what: string, min = 1): T[] {
  if (list.length < min) {
    throw new Error(
      `${what}: found ${list.length} (${min === 1 ? "expected at least one" : `expected at least ${min}`}); is the folder missing or empty?`,
    );
  }
  return [...list];
}
