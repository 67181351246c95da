// Bad values that more than one kind's mutations draw from.

/** Label keys failing IsQualifiedName with exactly one message. */
export const BAD_LABEL_KEYS = [
  "a/b/c",
  "-a",
  "a_",
  "has space",
  "example.com/-x",
  "Example_.com/x",
  "a".repeat(64),
  "/x",
];
/** Label values failing IsValidLabelValue with exactly one message. */
export const BAD_LABEL_VALUES = ["-a", "a-", "_", "a b", "a/b", "a".repeat(64), "é"];
/** Port names IsValidPortName refuses (Ingress backends, NetworkPolicy ports). */
export const BAD_PORT_NAMES = ["80", "-http", "http-", "a--b", "abcdefghijklmnop", "http_x", "web.1"];
/** Names ValidatePathSegmentName refuses (IngressClass parameters, IPAddress parent references). */
export const BAD_SEGMENT_NAMES = [".", "..", "a/b", "a%b", "%", "/"];
/** Values that are not DNS-1123 subdomains, the empty string included (API groups). */
export const BAD_SUBDOMAINS_INCL_EMPTY = ["", "Bad_Group", "example.com.", "UPPER.io", "a".repeat(254)];
