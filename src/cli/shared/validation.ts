import {
  DEFAULT_NAMESPACE,
  validate,
  type FeatureGates,
  type FieldError,
  type NetworkingObject,
  type ValidateOptions,
} from "../../networking/index.js";

// Validation as the API server runs it on a request, shared by validate and the demo's validate step.

/** What `validateObject` passes to the validator besides the object. */
export interface ValidateSettings {
  readonly old?: NetworkingObject;
  readonly subresource?: "status";
  readonly featureGates?: FeatureGates;
  /** The request namespace; default: the object's own metadata.namespace, else "default". */
  readonly namespace?: string;
}

/**
 * Validates one object as the API server would on create (or update, with
 * `old`). Without an explicit namespace the request goes to the object's own
 * namespace, as kubectl sends it.
 */
export function validateObject(obj: NetworkingObject, settings: ValidateSettings): FieldError[] {
  const options: ValidateOptions = {
    namespace: requestNamespace(obj, settings.namespace),
    ...(settings.old !== undefined ? { old: settings.old } : {}),
    ...(settings.subresource !== undefined ? { subresource: settings.subresource } : {}),
    ...(settings.featureGates !== undefined ? { featureGates: settings.featureGates } : {}),
  };
  return validate(obj, options);
}

/** --namespace, else the object's metadata.namespace, else "default" (kubectl's rule). */
export function requestNamespace(obj: NetworkingObject, given: string | undefined): string {
  if (given !== undefined) return given;
  const own = objectMeta(obj)?.namespace ?? "";
  return own === "" ? DEFAULT_NAMESPACE : own;
}

/** The object's metadata, for a kind that has one (not a List). */
export function objectMeta(
  obj: NetworkingObject,
): { name: string; namespace: string; generateName: string } | undefined {
  if ("items" in obj || !("metadata" in obj) || obj.metadata === undefined || !("generateName" in obj.metadata))
    return undefined;
  return obj.metadata;
}
