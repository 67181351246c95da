// HTTP paths valid for an Ingress (Exact and Prefix, ImplementationSpecific) and path segment
// names (parameters, resource kinds and names).

import fc from "fast-check";
import { DIGIT, LOWER, UPPER, lengthMix, stringOf } from "./text.js";

// Exact/Prefix paths only forbid //, /./, /../, %2f, %2F and the /. and /..
// suffixes; regex syntax, spaces and non-ASCII are all accepted.
const PATH_SEGMENT_SET = LOWER + UPPER + DIGIT + "-._~%!$&'()*+,;=:@[]{}^|?\\ é日";

export function arbPathSegment(): fc.Arbitrary<string> {
  return stringOf(PATH_SEGMENT_SET, 1, 8).map((s) => (s === "." || s === ".." ? `${s}x` : s.replace(/%2f/gi, "%2e")));
}

/**
 * A path valid for pathType Exact and Prefix.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbAbsolutePath } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbAbsolutePath(), (p) => p.startsWith("/")));
 * ```
 */
export function arbAbsolutePath(): fc.Arbitrary<string> {
  return fc.tuple(fc.array(arbPathSegment(), { maxLength: 4 }), fc.boolean()).map(([segs, trailing]) => {
    const p = `/${segs.join("/")}`;
    return trailing && segs.length > 0 ? `${p}/` : p;
  });
}

/**
 * A path valid for pathType ImplementationSpecific: empty, or anything starting with `/`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbImplementationSpecificPath } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbImplementationSpecificPath(), 3));
 * ```
 */
export function arbImplementationSpecificPath(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(""),
    fc.string({ maxLength: 12 }).map((s) => `/${s}`),
    fc.constantFrom("//", "/../..", "/a%2Fb", "/foo[", "/(.*)", "/api/v[0-9]+/.*", "/./"),
  );
}

/**
 * A path segment name (parameters and resource kind/name): not `.`/`..`, no `/` or `%`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbPathSegmentName } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbPathSegmentName(), 3));
 * ```
 */
export function arbPathSegmentName(): fc.Arbitrary<string> {
  const set = LOWER + UPPER + DIGIT + "-._~:@!$&'()*+,;= é";
  return lengthMix(set, 1, 30).map((s) => (s === "." || s === ".." ? `${s}x` : s));
}
