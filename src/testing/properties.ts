// Ready-made fast-check properties. Each returns an async property to run
// with `fc.assert(property, { numRuns })`; a failure throws an Error that says
// what disagreed, on which input. The callbacks users pass in may be sync or
// async.

import fc from "fast-check";
import {
  create,
  createPolicyEngine,
  createRouter,
  decode,
  encode,
  fromJson,
  fromYaml,
  kindOf,
  toJson,
  toJsonString,
  toYaml,
  validate,
  IngressSchema,
  type Connection,
  type FieldError,
  type IngressBackend,
  type JsonObject,
  type JsonValue,
  type NetworkingObject,
  type NetworkPolicy,
  type PolicyEngineInput,
  type RouteRequest,
  type RouterInput,
} from "../networking/index.js";
import { arbObject } from "./any-shape.js";
import { arbCluster, type ClusterOptions, type GeneratedCluster } from "./clusters/cluster.js";
import { arbConnection } from "./clusters/connections.js";
import { arbRouteRequest, arbRouterInput, type RoutingSizes } from "./routing.js";
import { targetedMutations, type ExpectedError } from "./targeted-invalid/index.js";
import { arbValidJson, VALIDATED_KINDS, type ValidatedKind } from "./valid-objects.js";

type MaybePromise<T> = T | Promise<T>;

/**
 * Where a round trip may pass through the caller's own system, per format.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { type RoundTripStages, propRoundTrip } from "clusterwire/testing";
 *
 * const stages: RoundTripStages = {
 *   wire: async (bytes) => new Uint8Array(bytes),
 *   yaml: (text) => text.replace(/\n$/, "\n"),
 * };
 * await fc.assert(propRoundTrip(stages), { numRuns: 20 });
 * ```
 */
export interface RoundTripStages {
  /** Gets the protobuf envelope bytes clusterwire wrote; returns the bytes to decode. */
  readonly wire?: (bytes: Uint8Array, object: NetworkingObject) => MaybePromise<Uint8Array>;
  /** Gets the Kubernetes JSON text; returns the text to read back. */
  readonly json?: (text: string, object: NetworkingObject) => MaybePromise<string>;
  /** Gets the YAML text; returns the text to read back. */
  readonly yaml?: (text: string, object: NetworkingObject) => MaybePromise<string>;
}

/**
 * Options of {@link propRoundTrip}: the objects, and the stages they pass through.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbObjectOf, propRoundTrip } from "clusterwire/testing";
 *
 * await fc.assert(propRoundTrip({ arbitrary: arbObjectOf("Ingress", { json: true }) }), { numRuns: 20 });
 * ```
 */
export interface RoundTripOptions extends RoundTripStages {
  /**
   * The objects to send round. Default: any-shape objects of every kind that
   * Kubernetes JSON can carry (`arbObject({ json: true })`).
   */
  readonly arbitrary?: fc.Arbitrary<NetworkingObject>;
}

/**
 * wire -> JSON -> YAML -> wire is the identity: the bytes written at the end
 * equal the bytes written at the start. With `wire`, `json` or `yaml`, each
 * text or byte form passes through the caller's code (a cache, a proxy, a
 * store) on the way, and must come back meaning the same object.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { propRoundTrip } from "clusterwire/testing";
 *
 * // The JSON text passes through the caller's store on the way (here a Map).
 * const store = new Map<string, string>();
 * await fc.assert(
 *   propRoundTrip({
 *     json: (text) => {
 *       store.set("k", text);
 *       return store.get("k")!;
 *     },
 *   }),
 *   { numRuns: 50 },
 * );
 * ```
 */
export function propRoundTrip(options: RoundTripOptions = {}): fc.IAsyncPropertyWithHooks<[NetworkingObject]> {
  const arbitrary = options.arbitrary ?? arbObject({ json: true });
  return fc.asyncProperty(arbitrary, async (object) => {
    const start = encode(object);
    const wire = options.wire === undefined ? start : await options.wire(start.slice(), object);
    const fromWire = decode(wire);
    const json = toJsonString(fromWire);
    const fromJsonText = fromJson(options.json === undefined ? json : await options.json(json, fromWire));
    const yaml = toYaml(fromJsonText);
    const docs = fromYaml(options.yaml === undefined ? yaml : await options.yaml(yaml, fromJsonText));
    if (docs.length !== 1) throw new Error(`the YAML read back holds ${docs.length} documents, not 1:\n${yaml}`);
    const end = encode(docs[0]!);
    if (!sameBytes(start, end)) {
      throw new Error(
        `the round trip changed the object:\n  before: ${hex(start)}\n  after:  ${hex(end)}\n  JSON: ${json}`,
      );
    }
  });
}

/**
 * Options of {@link propNeverThrows}: the inputs, and the errors the handler may throw.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { propNeverThrows } from "clusterwire/testing";
 *
 * await fc.assert(
 *   propNeverThrows((text: string) => JSON.parse(text), { arbitrary: fc.string(), expected: (e) => e instanceof SyntaxError }),
 *   { numRuns: 50 },
 * );
 * ```
 */
export interface NeverThrowsOptions<T> {
  /** The inputs. Default: any-shape objects of every networking kind, Lists included. */
  readonly arbitrary?: fc.Arbitrary<T>;
  /** Errors the code under test may throw on purpose (a typed refusal); default none. */
  readonly expected?: (error: unknown) => boolean;
}

/**
 * The caller's handler returns (or resolves) for every input, however odd,
 * and throws nothing but the errors it declares in `expected`. For
 * admission webhooks and controllers that must survive whatever is stored.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { DecodeError, type NetworkingObject, toYaml } from "clusterwire/networking";
 * import { propNeverThrows } from "clusterwire/testing";
 *
 * // The handler under test: here it renders every object it is given.
 * const handler = (object: NetworkingObject): string => toYaml(object);
 * await fc.assert(propNeverThrows(handler, { expected: (e) => e instanceof DecodeError }), { numRuns: 50 });
 * ```
 */
export function propNeverThrows<T = NetworkingObject>(
  handler: (input: T) => unknown,
  options: NeverThrowsOptions<T> = {},
): fc.IAsyncPropertyWithHooks<[T]> {
  const arbitrary = options.arbitrary ?? (arbObject() as unknown as fc.Arbitrary<T>);
  return fc.asyncProperty(arbitrary, async (input) => {
    try {
      await handler(input);
    } catch (error) {
      if (options.expected?.(error) === true) return;
      throw new Error(`the handler threw ${describeError(error)}`, { cause: error });
    }
  });
}

/**
 * `validate` returns a list of field errors for every object of any shape,
 * on create and, for single objects, as an update of itself and (for the
 * kinds with status) as a status update; it never throws and never changes
 * its input.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { propValidateNeverThrows } from "clusterwire/testing";
 *
 * await fc.assert(propValidateNeverThrows(), { numRuns: 50 });
 * ```
 */
export function propValidateNeverThrows(
  options: { readonly arbitrary?: fc.Arbitrary<NetworkingObject> } = {},
): fc.IAsyncPropertyWithHooks<[NetworkingObject]> {
  const arbitrary = options.arbitrary ?? arbObject();
  return fc.asyncProperty(arbitrary, async (object) => {
    const before = encode(object);
    const kind = kindOf(object).kind;
    const runs: [string, () => FieldError[]][] = [["create", () => validate(object)]];
    // Updates take single objects; a List with `old` is a caller's mistake (a TypeError).
    if (!kind.endsWith("List")) runs.push(["update", () => validate(object, { old: object })]);
    if (HAS_STATUS.has(kind))
      runs.push(["status update", () => validate(object, { old: object, subresource: "status" })]);
    for (const [what, run] of runs) {
      let errors: unknown;
      try {
        errors = run();
      } catch (error) {
        throw new Error(`validate (${what}) threw ${describeError(error)}`, { cause: error });
      }
      if (!Array.isArray(errors)) throw new Error(`validate (${what}) returned ${typeof errors}, not a list`);
    }
    if (!sameBytes(before, encode(object))) throw new Error("validate changed its input");
  });
}

const HAS_STATUS = new Set(["Ingress", "ServiceCIDR"]);

/**
 * What an admission function decides: a bare verdict, or a verdict with field errors.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { propAdmissionAgreesWithValidate } from "clusterwire/testing";
 *
 * // The admission function under test; a real one would call the webhook.
 * const admit = (object: Parameters<typeof validate>[0]) => {
 *   const errors = validate(object);
 *   return { allowed: errors.length === 0, errors };
 * };
 * await fc.assert(propAdmissionAgreesWithValidate(admit, { kinds: ["Ingress"] }), { numRuns: 50 });
 * ```
 */
export type AdmissionVerdict =
  | boolean
  | {
      readonly allowed: boolean;
      /** The errors behind a denial; when given, they must include the expected one. */
      readonly errors?: readonly { readonly type?: string; readonly field: string }[];
    };

/**
 * One object put to the admission function: as decoded, and as Kubernetes JSON.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbAdmissionCase } from "clusterwire/testing";
 *
 * for (const c of fc.sample(arbAdmissionCase(), 3)) console.log(c.json["kind"], c.mutation, c.expected);
 * ```
 */
export interface AdmissionCase {
  /** The object, decoded. */
  readonly object: NetworkingObject;
  /** The same object as Kubernetes JSON, as an AdmissionReview carries it. */
  readonly json: JsonObject;
  /** The error the API server reports for it, or null when it is valid. */
  readonly expected: ExpectedError | null;
  /** For invalid objects, the violation applied, e.g. `ingress.host.wildcard-inside`. */
  readonly mutation: string | null;
}

/**
 * Options of {@link arbAdmissionCase} and {@link propAdmissionAgreesWithValidate}: which objects to put to the
 * admission function.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { propAdmissionAgreesWithValidate } from "clusterwire/testing";
 *
 * // The admission function under test; a real one would call the webhook.
 * const admit = (object: Parameters<typeof validate>[0]) => {
 *   const errors = validate(object);
 *   return { allowed: errors.length === 0, errors };
 * };
 * await fc.assert(propAdmissionAgreesWithValidate(admit, {
 *   kinds: ["Ingress"],
 *   mutations: (m) => m.startsWith("ingress.path."),
 *   invalidShare: 0.8,
 * }), { numRuns: 50 });
 * ```
 */
export interface AdmissionOptions {
  /** Kinds to generate; default all five validated kinds. */
  readonly kinds?: readonly ValidatedKind[];
  /**
   * Which targeted violations to generate, by mutation name (e.g.
   * `(m) => m.startsWith("ingress.path.")`), for code that implements only
   * some of the API server's rules; default all of them.
   */
  readonly mutations?: (name: string) => boolean;
  /** Share of invalid objects, 0..1; default 0.5. */
  readonly invalidShare?: number;
  /** Check the returned errors name the expected field (when errors are returned); default true. */
  readonly checkErrors?: boolean;
}

/**
 * Valid objects and targeted invalid ones, each with the API server's verdict.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { arbAdmissionCase } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbAdmissionCase(), (c) => (validate(c.object).length === 0) === (c.expected === null)));
 * ```
 */
export function arbAdmissionCase(options: AdmissionOptions = {}): fc.Arbitrary<AdmissionCase> {
  const kinds = options.kinds ?? VALIDATED_KINDS;
  if (kinds.length === 0) throw new TypeError("arbAdmissionCase: kinds is empty");
  const share = options.invalidShare ?? 0.5;
  if (!(share >= 0 && share <= 1)) throw new TypeError("arbAdmissionCase: invalidShare must be within 0..1");
  const valid = fc
    .oneof(...kinds.map((k) => arbValidJson(k)))
    .map((json): AdmissionCase => ({ object: fromJson(json), json, expected: null, mutation: null }));
  const chosen = targetedMutations().filter((m) => kinds.includes(m.kind) && (options.mutations?.(m.name) ?? true));
  if (chosen.length === 0) throw new TypeError("arbAdmissionCase: no targeted mutation matches kinds and mutations");
  const invalid = fc
    .oneof(...chosen.map((m) => m.arbitrary))
    .map((t): AdmissionCase => ({ object: t.object, json: t.json, expected: t.expected, mutation: t.mutation }));
  const weight = Math.round(share * 100);
  if (weight === 0) return valid;
  if (weight === 100) return invalid;
  return fc.oneof({ weight: 100 - weight, arbitrary: valid }, { weight, arbitrary: invalid });
}

/**
 * The caller's admission function agrees with `validate`: it admits every
 * valid object and denies every object with exactly one violation. When it
 * returns field errors for a denial, one of them must name the field the API
 * server names (and its type, when the caller gives one).
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validate } from "clusterwire/networking";
 * import { propAdmissionAgreesWithValidate } from "clusterwire/testing";
 *
 * // The admission function under test; a real one would call the webhook.
 * const admit = (object: Parameters<typeof validate>[0]) => {
 *   const errors = validate(object);
 *   return { allowed: errors.length === 0, errors };
 * };
 * await fc.assert(propAdmissionAgreesWithValidate(admit, { kinds: ["Ingress"] }), { numRuns: 50 });
 * ```
 */
export function propAdmissionAgreesWithValidate(
  admit: (object: NetworkingObject, json: JsonObject) => MaybePromise<AdmissionVerdict>,
  options: AdmissionOptions = {},
): fc.IAsyncPropertyWithHooks<[AdmissionCase]> {
  const checkErrors = options.checkErrors ?? true;
  return fc.asyncProperty(arbAdmissionCase(options), async (c) => {
    const verdict = await admit(c.object, structuredClone(c.json));
    const allowed = typeof verdict === "boolean" ? verdict : verdict.allowed;
    const where = `${c.json["kind"] as string} ${JSON.stringify(c.json)}`;
    if (c.expected === null) {
      if (!allowed) throw new Error(`denied a valid object: ${where}`);
      return;
    }
    const want = `${c.expected.type} ${c.expected.field}`;
    if (allowed)
      throw new Error(`admitted an invalid object (${c.mutation}; the API server reports ${want}): ${where}`);
    if (!checkErrors || typeof verdict === "boolean" || verdict.errors === undefined) return;
    const named = verdict.errors.some(
      (e) => e.field === c.expected!.field && (e.type === undefined || e.type === c.expected!.type),
    );
    if (!named) {
      const got = verdict.errors.map((e) => `${e.type ?? "?"} ${e.field}`).join(", ");
      throw new Error(
        `denied for other reasons (${got || "no errors"}); the API server reports ${want} (${c.mutation}): ${where}`,
      );
    }
  });
}

/**
 * What the caller's router answers: a backend (the decoded message, or its
 * Kubernetes JSON) and the Ingress it came from as "namespace/name", or null.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createRouter } from "clusterwire/networking";
 * import { propRouterAgrees } from "clusterwire/testing";
 *
 * // The router under test; here clusterwire's own, so the property holds.
 * const route = (input: Parameters<typeof createRouter>[0], request: Parameters<ReturnType<typeof createRouter>["route"]>[0]) => {
 *   const r = createRouter(input).route(request);
 *   return r === null ? null : { backend: r.backend, ingress: r.ingress };
 * };
 * await fc.assert(propRouterAgrees(route), { numRuns: 20 });
 * ```
 */
export type RouteAnswer = { readonly backend: IngressBackend | JsonValue; readonly ingress: string } | null;

/**
 * Options of {@link propRouterAgrees}: input sizes and requests per input.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createRouter } from "clusterwire/networking";
 * import { LARGE_ROUTING, propRouterAgrees } from "clusterwire/testing";
 *
 * // The router under test; here clusterwire's own, so the property holds.
 * const route = (input: Parameters<typeof createRouter>[0], request: Parameters<ReturnType<typeof createRouter>["route"]>[0]) => {
 *   const r = createRouter(input).route(request);
 *   return r === null ? null : { backend: r.backend, ingress: r.ingress };
 * };
 * await fc.assert(propRouterAgrees(route, { sizes: LARGE_ROUTING, requests: 4 }), { numRuns: 10 });
 * ```
 */
export interface RouterAgreementOptions {
  /** Input sizes; default the small, collision-heavy vocabulary. */
  readonly sizes?: RoutingSizes;
  /** Requests per input; default 8. */
  readonly requests?: number;
}

/**
 * The caller's router (an ingress controller's model, a gateway translation)
 * picks the same backend and Ingress as clusterwire's router, which follows
 * the rules of docs/ingress-routing.md, for every request.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createRouter } from "clusterwire/networking";
 * import { propRouterAgrees } from "clusterwire/testing";
 *
 * // The router under test; here clusterwire's own, so the property holds.
 * const route = (input: Parameters<typeof createRouter>[0], request: Parameters<ReturnType<typeof createRouter>["route"]>[0]) => {
 *   const r = createRouter(input).route(request);
 *   return r === null ? null : { backend: r.backend, ingress: r.ingress };
 * };
 * await fc.assert(propRouterAgrees(route), { numRuns: 50 });
 * ```
 */
export function propRouterAgrees(
  route: (input: RouterInput, request: RouteRequest) => MaybePromise<RouteAnswer>,
  options: RouterAgreementOptions = {},
): fc.IAsyncPropertyWithHooks<[RouterInput, RouteRequest[]]> {
  const requests = fc.array(arbRouteRequest(), { minLength: 1, maxLength: options.requests ?? 8 });
  return fc.asyncProperty(arbRouterInput(options.sizes), requests, async (input, reqs) => {
    const router = createRouter(input);
    for (const request of reqs) {
      const want = router.route(request);
      const got = await route(input, request);
      const wantAnswer = want === null ? null : { backend: want.backend, ingress: want.ingress };
      if (!sameRoute(got, wantAnswer)) {
        throw new Error(
          `${JSON.stringify(request)}: got ${describeRoute(got)}, want ${describeRoute(wantAnswer)} (${want?.via ?? "no route"})`,
        );
      }
    }
  });
}

/**
 * Options of {@link propPolicyEngineAgrees}: cluster sizes and connections per cluster.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createPolicyEngine } from "clusterwire/networking";
 * import { propPolicyEngineAgrees } from "clusterwire/testing";
 *
 * // The model under test; here clusterwire's own engine, so the property holds.
 * const allows = (cluster: Parameters<typeof createPolicyEngine>[0], connection: Parameters<ReturnType<typeof createPolicyEngine>["evaluate"]>[0]) =>
 *   createPolicyEngine(cluster).evaluate(connection).allowed;
 * await fc.assert(propPolicyEngineAgrees(allows, { maxPods: 4, connections: 20 }), { numRuns: 20 });
 * ```
 */
export interface PolicyAgreementOptions extends ClusterOptions {
  /** Connections per cluster; default 10. */
  readonly connections?: number;
}

/**
 * The caller's policy engine (a CNI's model, a policy linter) allows exactly
 * the connections clusterwire's evaluator allows, on random clusters, for
 * pods and addresses, numeric and named ports, every protocol.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createPolicyEngine } from "clusterwire/networking";
 * import { propPolicyEngineAgrees } from "clusterwire/testing";
 *
 * // The model under test; here clusterwire's own engine, so the property holds.
 * const allows = (cluster: Parameters<typeof createPolicyEngine>[0], connection: Parameters<ReturnType<typeof createPolicyEngine>["evaluate"]>[0]) =>
 *   createPolicyEngine(cluster).evaluate(connection).allowed;
 * await fc.assert(propPolicyEngineAgrees(allows), { numRuns: 50 });
 * ```
 */
export function propPolicyEngineAgrees(
  allows: (cluster: PolicyEngineInput, connection: Connection) => MaybePromise<boolean>,
  options: PolicyAgreementOptions = {},
): fc.IAsyncPropertyWithHooks<[[GeneratedCluster, Connection[]]]> {
  const arb = arbCluster(options).chain((cluster) =>
    fc.tuple(
      fc.constant(cluster),
      fc.array(arbConnection(cluster), { minLength: 1, maxLength: options.connections ?? 10 }),
    ),
  );
  return fc.asyncProperty(arb, async ([cluster, connections]) => {
    const engine = createPolicyEngine(cluster);
    for (const connection of connections) {
      const want = engine.evaluate(connection);
      const got = await allows(cluster, connection);
      if (got !== want.allowed) {
        throw new Error(
          `${JSON.stringify(connection)}: got ${got ? "allow" : "deny"}, want ${want.allowed ? "allow" : "deny"} ` +
            `(egress ${want.egress.verdict}, ingress ${want.ingress.verdict}; policies ${policyNames(cluster.policies)})`,
        );
      }
    }
  });
}

function policyNames(policies: readonly NetworkPolicy[]): string {
  return policies.map((p) => `${p.metadata?.namespace ?? ""}/${p.metadata?.name ?? ""}`).join(", ") || "none";
}

function sameRoute(a: RouteAnswer, b: RouteAnswer): boolean {
  if (a === null || b === null) return a === b;
  return a.ingress === b.ingress && backendText(a.backend) === backendText(b.backend);
}

function describeRoute(r: RouteAnswer): string {
  return r === null ? "no route" : `${backendText(r.backend)} from ${r.ingress}`;
}

/** A backend as JSON text with sorted keys, whether given as a message or as JSON. */
function backendText(b: IngressBackend | JsonValue): string {
  // A message goes through an Ingress, so it gets exactly the Kubernetes JSON rules.
  const json =
    b !== null && typeof b === "object" && "$typeName" in b
      ? (
          toJson(create(IngressSchema, { spec: { defaultBackend: b as IngressBackend } })) as {
            spec: { defaultBackend: JsonValue };
          }
        ).spec.defaultBackend
      : b;
  return JSON.stringify(json, (_k, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
