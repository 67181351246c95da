// How many inputs each fast-check property of the suite tries: one variable, one meaning.
//
// CLUSTERWIRE_PROPERTY_RUNS=N runs every property N times, in place of its own default (so it
// raises or lowers them all alike). Unset, each property keeps the default written beside it,
// sized for CI. Any other value, the empty string included, is a mistake: the test file that
// reads it fails to load with an error naming the variable, rather than running a silent 0, NaN
// or default number of times.

/** The environment variable that sets every property's run count. */
export const PROPERTY_RUNS_VARIABLE = "CLUSTERWIRE_PROPERTY_RUNS";

/**
 * The run count `value` asks for: undefined when unset; a whole number from 1 to 999999999 written
 * in decimal digits; otherwise an Error that names the variable and the value.
 */
export function parsePropertyRuns(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,8}$/.test(value)) {
    throw new Error(
      `${PROPERTY_RUNS_VARIABLE} must be a whole number of runs per property, from 1 to 999999999, got ${JSON.stringify(value)}; unset it to keep each property's default`,
    );
  }
  return Number(value);
}

/**
 * The number of runs for one property: `CLUSTERWIRE_PROPERTY_RUNS` when set, else `defaultRuns`.
 * Throws (naming the variable) when the variable is set to anything but a positive whole number.
 */
export function propertyRuns(defaultRuns: number, env: NodeJS.ProcessEnv = process.env): number {
  if (!Number.isSafeInteger(defaultRuns) || defaultRuns < 1)
    throw new RangeError(`a property's default run count must be a positive whole number, got ${defaultRuns}`);
  return parsePropertyRuns(env[PROPERTY_RUNS_VARIABLE]) ?? defaultRuns;
}
