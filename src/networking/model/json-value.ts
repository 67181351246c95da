/**
 * A parsed JSON (or YAML) value. Integers outside the safe range are bigint so
 * int64 fields stay exact; objects never have a prototype-polluting key path
 * because parsers create them with `Object.create(null)` or define keys as own
 * properties.
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}
