// Scrubbing secrets (the password, the Authorization value, per-call secrets) from every
// text and value the client puts into an error.

import { isObject } from "./objects.js";

export const REDACTED = "<redacted>";
export const MIN_SECRET_LENGTH = 3;

export function redactString(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === "string") return redactString(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, secrets)) as T;
  if (isObject(value)) {
    // fromEntries defines members: an assignment of a "__proto__" key from the server's JSON
    // would replace the copy's prototype instead (and, e.g., make `state` read "success").
    // Names are scrubbed too: the server chooses them, and they travel with the value.
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [redactString(k, secrets), redactDeep(v, secrets)]),
    ) as T;
  }
  return value;
}
