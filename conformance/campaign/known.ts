// Differences the campaign knows and documents instead of failing on: each has a reason (the
// README's "Checked against a real API server" lists them), and compare() names the rule.

/** A documented difference: its id, and why clusterwire answers otherwise. */
export interface KnownDifference {
  readonly id: string;
  readonly reason: string;
}

export const EMPTY_LIST: KnownDifference = {
  id: "empty-list",
  reason:
    "a list sent as [] where the API server prints the bad value []: clusterwire's objects do not keep an empty list apart from an absent one, so it prints null",
};

export const YAML_CONTROL_CHARACTERS: KnownDifference = {
  id: "yaml-control-characters",
  reason:
    "a YAML body with a control character: both refuse it with 400 BadRequest; the API server says `the object provided is unrecognized` with the body's first bytes in hex",
};

export const MAP_ORDER: KnownDifference = {
  id: "map-order",
  reason:
    "several errors in one map (labels, annotations, selector labels): the API server reports them in Go's map iteration order, which is random and differs from one request to the next; clusterwire reports them in key order. The same errors, in another order",
};

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [EMPTY_LIST, YAML_CONTROL_CHARACTERS, MAP_ORDER];

/**
 * A Status body with the order of its errors taken away: causes sorted, and the message's
 * characters sorted (the aggregate message lists the same errors in the causes' order).
 */
export function orderFree(text: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== "object" || (v as { kind?: unknown }).kind !== "Status") return undefined;
  const status = v as { message?: string; details?: { causes?: unknown[] } };
  const causes = (status.details?.causes ?? []).map((c) => JSON.stringify(c)).sort();
  const message = [...(status.message ?? "")].sort().join("");
  return JSON.stringify({ ...status, message, details: { ...status.details, causes } });
}

/**
 * The known difference that explains why the server's text and clusterwire's differ, if one
 * does: each rule rewrites the server's text as clusterwire would have it and must then match.
 */
export function explain(server: string, ours: string): KnownDifference | undefined {
  if (server.replaceAll("Invalid value: []:", "Invalid value: null:") === ours) return EMPTY_LIST;
  const a = orderFree(server);
  if (a !== undefined && a === orderFree(ours)) return MAP_ORDER;
  if (server.includes("the object provided is unrecognized") && server.includes("control characters are not allowed"))
    return YAML_CONTROL_CHARACTERS;
  return undefined;
}
