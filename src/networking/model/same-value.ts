// Whether two decoded values are the same, as Go's reflect.DeepEqual sees the Go values behind
// them: fields are read through the message (so a proto2 field left unset equals one set to
// its default, as a Go value field does), a missing message is not an empty one (a nil pointer
// is not a pointer to a zero struct), and maps compare by their entries. Hand-written, not
// @bufbuild/protobuf's equals(), so that validation needs no schema at run time (the browser
// bundle of validate() carries no protobuf runtime).

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.length !== b.length) return false;
    return a.every((x, i) => x === b[i]);
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const k of keys) if (!sameValue(x[k], y[k])) return false;
  return true;
}
