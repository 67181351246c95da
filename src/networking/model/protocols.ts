// The protocols a NetworkPolicy port and a pod's container port may name: one list for the
// validation (which refuses any other) and the policy engine (which evaluates per protocol).

/**
 * A NetworkPolicy port protocol.
 *
 * @example
 * ```ts
 * import { NetworkPolicySchema, create, createPolicyEngine } from "clusterwire/networking";
 *
 * const engine = createPolicyEngine({
 *   namespaces: [{ name: "web" }],
 *   pods: [
 *     { namespace: "web", name: "a", ip: "10.0.0.1", labels: { app: "a" } },
 *     { namespace: "web", name: "b", ip: "10.0.0.2", labels: { app: "b" }, ports: [{ name: "http", containerPort: 8080 }] },
 *   ],
 *   policies: [
 *     create(NetworkPolicySchema, {
 *       metadata: { name: "deny-in", namespace: "web" },
 *       spec: { podSelector: {}, policyTypes: ["Ingress"] },
 *     }),
 *   ],
 * });
 * const protocol: import("clusterwire/networking").Protocol = "UDP";
 * console.log(engine.evaluate({ from: { pod: "web/a" }, to: { pod: "web/b" }, protocol, port: 53 }).allowed);
 * ```
 */
export type Protocol = "TCP" | "UDP" | "SCTP";

/**
 * Every {@link Protocol}, in the order the API server lists them: the values a
 * NetworkPolicy port and a pod's container port may name, frozen. For checking
 * user input (a `--protocol` flag, a field of a file) before handing it to the
 * policy engine.
 *
 * @example
 * ```ts
 * import { PROTOCOLS, type Protocol } from "clusterwire/networking";
 *
 * const isProtocol = (s: string): s is Protocol => (PROTOCOLS as readonly string[]).includes(s);
 * console.log(PROTOCOLS.join(", "), isProtocol("UDP"), isProtocol("udp")); // "TCP, UDP, SCTP" true false
 * ```
 */
export const PROTOCOLS: readonly Protocol[] = Object.freeze(["TCP", "UDP", "SCTP"]);

/** Whether `s` is one of {@link PROTOCOLS}, exactly as written (case matters, as for the API server). */
export function isProtocol(s: string | undefined): s is Protocol {
  return s !== undefined && (PROTOCOLS as readonly string[]).includes(s);
}
