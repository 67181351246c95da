import type { FieldErrorType } from "../../src/networking/index.js";

/** Every apimachinery field.ErrorType the validators may report; `satisfies` makes a missing or unknown one a compile error. */
export const FIELD_ERROR_TYPES = Object.keys({
  FieldValueRequired: 0,
  FieldValueInvalid: 0,
  FieldValueNotSupported: 0,
  FieldValueForbidden: 0,
  FieldValueTooLong: 0,
  FieldValueTooMany: 0,
  FieldValueDuplicate: 0,
  FieldValueNotFound: 0,
  FieldValueTypeInvalid: 0,
  InternalError: 0,
} satisfies Record<FieldErrorType, 0>) as readonly FieldErrorType[];
