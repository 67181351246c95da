// String arbitraries for properties about text encodings. fast-check's own
// `fc.string({ unit: "binary" })` takes seconds to set up on first use; these
// draw code points directly, each UTF-8 length as often as the others.

import fc from "fast-check";

/** Any Unicode scalar value (never a lone surrogate): 1-, 2-, 3- and 4-byte UTF-8 alike. */
export const codePoint: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0x80, max: 0x7ff }),
  fc.integer({ min: 0x800, max: 0xd7ff }),
  fc.integer({ min: 0xe000, max: 0xffff }),
  fc.integer({ min: 0x10000, max: 0x10ffff }),
);

/** A well-formed string of up to `maxLength` code points. */
export function wellFormedString(maxLength = 20): fc.Arbitrary<string> {
  return fc.array(codePoint, { maxLength }).map((cps) => String.fromCodePoint(...cps));
}

/** Any string of UTF-16 code units, lone surrogates included. */
export function codeUnitString(maxLength = 20): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })), { maxLength })
    .map((units) => String.fromCharCode(...units));
}
