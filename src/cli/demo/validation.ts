import { checkManifests, type NetworkingObject } from "../../networking/index.js";

// Create validation as `clusterwire validate` runs it, for the demo's validate step.

/**
 * The field errors the API server would report on creating `obj` in its own
 * namespace (else "default"), worded as it words them.
 */
export function fieldErrorMessages(obj: NetworkingObject): string[] {
  const [verdict] = checkManifests([{ type: "object", object: obj, warnings: [], locate: () => undefined }]);
  return verdict?.errors.map((e) => e.message) ?? [];
}
