import { create } from "@bufbuild/protobuf";
import {
  StatusCauseSchema,
  StatusDetailsSchema,
  StatusSchema,
  ListMetaSchema,
  type ObjectMeta,
  type Status,
} from "../../../gen/k8s/io/apimachinery/pkg/apis/meta/v1/meta_pb.js";
import { kindOf, type NetworkingObject } from "../model/kinds.js";
import { formatFieldError, formatFieldErrorBody, goQuote, type FieldError } from "./field-error.js";
import { generateName } from "./rules/object-meta.js";

/**
 * The 422 Status the API server returns for these errors, e.g.
 * `Ingress.networking.k8s.io "shop" is invalid: spec.rules[0].host: Invalid value: ...`.
 * Print it with toJsonString() for the exact response body.
 *
 * @example
 * ```ts
 * import { IngressClassSchema, create, toJsonString, toStatus, validate } from "clusterwire/networking";
 *
 * const ingressClass = create(IngressClassSchema, { metadata: { name: "Not_A_Name" }, spec: { controller: "example.com/lb" } });
 * const errors = validate(ingressClass);
 * if (errors.length > 0) console.log(toJsonString(toStatus(ingressClass, errors)));
 * ```
 */
export function toStatus(obj: NetworkingObject, errors: readonly FieldError[]): Status {
  const info = kindOf(obj);
  // A List's metadata is a ListMeta, with no name.
  const meta = info.list ? undefined : (obj as { metadata?: ObjectMeta }).metadata;
  const name =
    meta === undefined || meta.name === undefined
      ? ""
      : meta.name !== "" || meta.generateName === ""
        ? meta.name
        : generateName(meta.generateName);
  const group = info.apiVersion.includes("/") ? info.apiVersion.slice(0, info.apiVersion.indexOf("/")) : "";
  const qualified = group === "" ? info.kind : `${info.kind}.${group}`;
  const aggregate = aggregateMessage(errors);
  return create(StatusSchema, {
    metadata: create(ListMetaSchema),
    status: "Failure",
    // The API server formats the name with %q.
    message:
      aggregate === ""
        ? `${qualified} ${goQuote(name)} is invalid`
        : `${qualified} ${goQuote(name)} is invalid: ${aggregate}`,
    reason: "Invalid",
    details: create(StatusDetailsSchema, {
      name,
      group,
      kind: info.kind,
      causes: errors.map((e) =>
        create(StatusCauseSchema, { reason: e.type, message: formatFieldErrorBody(e), field: e.field }),
      ),
    }),
    code: 422,
  });
}

// ErrorList.ToAggregate: duplicates (by text) dropped, one error bare, several in brackets.
function aggregateMessage(errors: readonly FieldError[]): string {
  const seen = new Set<string>();
  const msgs: string[] = [];
  for (const e of errors) {
    const m = formatFieldError(e);
    if (seen.has(m)) continue;
    seen.add(m);
    msgs.push(m);
  }
  if (msgs.length === 0) return "";
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(", ")}]`;
}
