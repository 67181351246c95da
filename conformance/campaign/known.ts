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
    "a list sent as [] (or a map as {}): the API server keeps it apart from an absent one, clusterwire's decoded objects do not. Where an error prints it, the server writes [] and clusterwire null; where an update's spec differs from the stored one only by it, the server counts a change and bumps metadata.generation",
};

export const YAML_SYNTAX: KnownDifference = {
  id: "yaml-syntax",
  reason:
    "a YAML body that does not parse (a control character, or a U+2028 that go-yaml takes for a line break): both refuse it with 400 BadRequest; the API server says `the object provided is unrecognized (must be of type Ingress): yaml: line 7: could not find expected ':'` and the body's first 30 bytes in hex, clusterwire says what is wrong in its own words, with the line and column",
};

export const MAP_ORDER: KnownDifference = {
  id: "map-order",
  reason:
    "several errors in one map (labels, annotations, selector labels): the API server reports them in Go's map iteration order, which is random and differs from one request to the next; clusterwire reports them in key order. The same errors, in another order",
};

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [EMPTY_LIST, YAML_SYNTAX, MAP_ORDER];

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
export function explain(server: string, ours: string, requestBody = ""): KnownDifference | undefined {
  if (server.replaceAll("Invalid value: []:", "Invalid value: null:") === ours) return EMPTY_LIST;
  // An update whose new spec holds an empty list (or an empty matchLabels, the one map in a spec):
  // the server's generation is one more than clusterwire's, and nothing else differs.
  const generation = /"generation":(\d+)/.exec(ours)?.[1];
  if (
    generation !== undefined &&
    /\[\s*\]|matchLabels"?:\s*\{\s*\}/.test(requestBody) &&
    server.replace(`"generation":${Number(generation) + 1}`, `"generation":${generation}`) === ours
  )
    return EMPTY_LIST;
  const a = orderFree(server);
  if (a !== undefined && a === orderFree(ours)) return MAP_ORDER;
  if (
    server.includes("the object provided is unrecognized (must be of type ") &&
    server.includes('"code":400') &&
    /cannot be handled as a? ?\w+: /.test(ours) &&
    ours.includes('"code":400')
  )
    return YAML_SYNTAX;
  return undefined;
}
