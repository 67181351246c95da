import { KINDS, NETWORKING_API_VERSION } from "../../networking/index.js";

// --kinds and --skip-kinds: which networking kinds a run validates.

/**
 * A kind as the flags name it: `Ingress` (also selecting IngressList), or
 * `networking.k8s.io/v1/Ingress` with its API version.
 */
function matches(token: string, apiVersion: string, kind: string): boolean {
  const slash = token.lastIndexOf("/");
  const wantKind = slash < 0 ? token : token.slice(slash + 1);
  if (slash >= 0 && token.slice(0, slash) !== apiVersion) return false;
  return kind === wantKind || kind === `${wantKind}List`;
}

/** Tokens of --kinds that name no networking kind, for a usage error. */
export function unknownKinds(tokens: readonly string[]): string[] {
  return tokens.filter((t) => !VALIDATED_KINDS.some((k) => matches(t, k.apiVersion, k.kind)));
}

/** The kinds validate checks: networking.k8s.io/v1's, not the meta/v1 Status the decoders also know. */
export const VALIDATED_KINDS = KINDS.filter((k) => k.apiVersion === NETWORKING_API_VERSION);

/** Splits repeated, comma-separated flag values into tokens. */
export function kindTokens(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(","))
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

/** A selector for the document reader, or undefined when every kind is selected. */
export function kindSelector(
  kinds: readonly string[],
  skipKinds: readonly string[],
): ((apiVersion: string, kind: string) => boolean) | undefined {
  if (kinds.length === 0 && skipKinds.length === 0) return undefined;
  return (apiVersion, kind) =>
    (kinds.length === 0 || kinds.some((t) => matches(t, apiVersion, kind))) &&
    !skipKinds.some((t) => matches(t, apiVersion, kind));
}
