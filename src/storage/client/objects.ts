// The one plain-object test of the client layer (JSON answers, job references, errors).

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
