// API error bodies.

import fc from "fast-check";
import {
  PACKAGE_DELETE_ERRORS,
  PACKAGE_TRANSFER_ERRORS,
  PACKAGE_UPLOAD_ERRORS,
  type ApiErrorBody,
} from "../../storage/index.js";
import { all, maybe } from "./shared.js";

const ERROR_EXAMPLES = [
  { code: "2", message: 'Field "uuid" must be a string.', target: "uuid" },
  { code: "4", message: "Entry doesn't exist.", target: "uuid" },
  { code: "6", message: "Not authorized: valid credentials are required." },
  { code: "262197", message: "Value out of range, allowed <0..120>.", target: "return_timeout" },
  { code: "2621573", message: "SVM is temporarily locked while recording the configuration baseline." },
] as const;

const TABLE_ERRORS = [
  ...Object.values(PACKAGE_TRANSFER_ERRORS),
  ...Object.values(PACKAGE_UPLOAD_ERRORS),
  ...Object.values(PACKAGE_DELETE_ERRORS),
];

/**
 * API error bodies `{error: {message, code, target?, arguments?}}`:
 * `code` a string of digits (upstream examples and the spec's tables), optional `target` (a
 * field path) and `arguments` `{code, message}`. `apiError.decode` returns each unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbApiErrorModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbApiErrorModel(), 2));
 * ```
 */
export function arbApiErrorModel(): fc.Arbitrary<ApiErrorBody> {
  const detail = fc.oneof(
    fc.constantFrom(...ERROR_EXAMPLES).map((e) => ({ ...e })),
    fc.constantFrom(...TABLE_ERRORS).map((e) => ({ code: String(e.code), message: e.meaning })),
  );
  return fc
    .tuple(
      detail,
      maybe(fc.constantFrom("svm.name", "space.size", "name", "origins[0].volume.name", "stabilize_minutes")),
      fc.array(
        all({ code: fc.nat({ max: 99_999_999 }).map(String), message: fc.constantFrom("vs1", "vol1", "9.16.1") }),
        { maxLength: 2 },
      ),
    )
    .map(([d, target, args]): ApiErrorBody => {
      const error: ApiErrorBody["error"] = { message: d.message, code: d.code };
      const t = "target" in d ? d.target : target;
      if (t !== undefined) error.target = t;
      if (args.length > 0) error.arguments = args;
      return { error };
    });
}
