/**
 * A parsed JSON (or YAML) value. Integers outside the safe range are bigint so
 * int64 fields stay exact; objects never have a prototype-polluting key path
 * because parsers create them with `Object.create(null)` or define keys as own
 * properties.
 *
 * @example
 * ```ts
 * import { type JsonValue, toJson, create, IngressSchema } from "clusterwire/networking";
 *
 * const value: JsonValue = toJson(create(IngressSchema, { metadata: { name: "shop" } }));
 * console.log(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));
 * ```
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;
/**
 * A JSON object: string keys to {@link JsonValue}s.
 *
 * @example
 * ```ts
 * import { type JsonObject, fromJson } from "clusterwire/networking";
 *
 * const manifest: JsonObject = { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "nginx" } };
 * const ingressClass = fromJson(manifest);
 * ```
 */
export interface JsonObject {
  [key: string]: JsonValue;
}
