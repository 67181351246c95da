// What the Ingress router and the NetworkPolicy engine share in their answers
// (docs/ingress-routing.md, docs/network-policy.md): the inputs each left out.
// Their own shapes are router/types.ts and policy/types.ts.

import type { FieldError } from "../validation/field-error.js";

/**
 * An input the router or engine left out because `validate` rejects it, or
 * because an earlier input has the same name. Every answer carries the list.
 *
 * @example
 * ```ts
 * import { IngressSchema, create, createRouter } from "clusterwire/networking";
 *
 * const router = createRouter({
 *   ingresses: [
 *     create(IngressSchema, {
 *       metadata: { name: "shop", namespace: "web" },
 *       spec: { defaultBackend: { service: { name: "shop", port: { number: 80 } } } },
 *     }),
 *   ],
 * });
 * for (const s of router.skipped) console.log(s.kind, s.name, s.errors.length);
 * ```
 */
export interface SkippedObject {
  /** The kind of the object left out. */
  readonly kind: "Ingress" | "IngressClass" | "NetworkPolicy";
  /** `namespace/name` (or `name` for IngressClass); `[i]` when the object has no name. */
  readonly name: string;
  /** Position in the input list. */
  readonly index: number;
  /** Why it was skipped: the API server's errors, or a duplicate name. */
  readonly errors: readonly FieldError[];
}
