/**
 * `clusterwire` has no root export: import one of its entry points instead.
 *
 * - `clusterwire/networking`: decode, encode, validate, route and reach for networking.k8s.io/v1
 * - `clusterwire/client`: a protobuf client, watch and informer for the networking kinds (Node only)
 * - `clusterwire/connectivity`: connectivity of a repository of manifests: diffs, expectations, lint, reports
 * - `clusterwire/storage`: the storage REST API's codecs and client
 * - `clusterwire/storage/server`: the storage reference server (Node only)
 * - `clusterwire/admission`: admission review and guards, without a server
 * - `clusterwire/admission/server`: the validating admission webhook's HTTPS server (Node only)
 * - `clusterwire/testing`: fast-check arbitraries and properties
 *
 * Importing `clusterwire` itself throws an Error that lists them. No other entry point
 * imports this module.
 *
 * @packageDocumentation
 */

/** The entry points, as `import ... from "<entry point>"` names them. */
const ENTRY_POINTS = [
  "clusterwire/networking",
  "clusterwire/client",
  "clusterwire/connectivity",
  "clusterwire/storage",
  "clusterwire/storage/server",
  "clusterwire/admission",
  "clusterwire/admission/server",
  "clusterwire/testing",
] as const;

throw new Error(
  `clusterwire has no root export; import one of its entry points instead: ${ENTRY_POINTS.join(", ")} (for example: import { decode } from "clusterwire/networking")`,
);
