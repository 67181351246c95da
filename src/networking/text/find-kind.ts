/*
 * apimachinery's JSON serializer reads a body's kind and apiVersion first,
 * with encoding/json into an anonymous struct of the two strings (its
 * SimpleMetaFactory). That decoder matches keys regardless of case, so a
 * top-level `Kind` or `APIVERSION` counts too; a type error there comes
 * before any other, and is worded with this prefix and reflect's name of the
 * struct.
 */

export const FIND_KIND_ERROR = "couldn't get version/kind; json parse error: ";
export const FIND_KIND_TYPE =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * The field of that struct encoding/json decodes a top-level `key` into, if
 * any: exactly, or when no key matches exactly as bytes.EqualFold matches
 * (ASCII letters in either case, and the two other letters Unicode folds
 * onto ASCII ones, U+212A KELVIN SIGN for k and U+017F LONG S for s).
 */
export function findKindField(key: string): "kind" | "apiVersion" | undefined {
  if (foldsTo(key, "kind")) return "kind";
  if (foldsTo(key, "apiversion")) return "apiVersion";
  return undefined;
}

function foldsTo(key: string, lower: string): boolean {
  if (key.length !== lower.length) return false;
  for (let i = 0; i < key.length; i++) {
    let c = key.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    else if (c === 0x212a) c = 0x6b;
    else if (c === 0x17f) c = 0x73;
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}
