// Ports valid for the API server: numbers (the edges often), ranges and IANA service names.

import fc from "fast-check";
import { DIGIT, LOWER, stringOf } from "./text.js";

/**
 * Port number 1..65535, with the edges often.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbPortNumber } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbPortNumber(), (port) => port >= 1 && port <= 65535));
 * ```
 */
export function arbPortNumber(): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 65535 }) },
    { weight: 1, arbitrary: fc.constantFrom(1, 80, 443, 8080, 65535) },
  );
}

/**
 * `[port, endPort]` with 1 <= port <= endPort <= 65535.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbPortRange } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbPortRange(), ([from, to]) => from <= to));
 * ```
 */
export function arbPortRange(): fc.Arbitrary<[number, number]> {
  return fc
    .tuple(arbPortNumber(), fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)))
    .map(([p, n]) => [p, n === Number.MAX_SAFE_INTEGER ? 65535 : p + (n % (65536 - p))]);
}

/**
 * IANA service (port) name: <= 15 characters of `[-a-z0-9]`, at least one
 * letter, no `--`, no leading or trailing `-`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbPortName } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbPortName(), (name) => name.length <= 15));
 * ```
 */
export function arbPortName(): fc.Arbitrary<string> {
  return fc.array(stringOf(LOWER + DIGIT, 1, 6), { minLength: 1, maxLength: 4 }).map((parts) => {
    let s = parts.join("-");
    if (s.length > 15) s = s.slice(0, 15).replace(/-+$/, "");
    if (!/[a-z]/.test(s)) s = `a${s.slice(1)}`;
    return s;
  });
}
