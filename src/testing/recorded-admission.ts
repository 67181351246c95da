// The admission cases recorded from a real kube-apiserver, shipped with clusterwire/testing:
// each object an admission webhook could be asked about, and the server's own verdict on it.
// Read on first use (the data is a module of its own, loaded then), so importing the kit costs
// nothing.
import { DEFAULT_KUBERNETES_VERSION, type JsonObject, type KubernetesVersion } from "../networking/index.js";

/**
 * The kube-apiserver release each Kubernetes version's cases were recorded from.
 *
 * @example
 * ```ts
 * import { RECORDED_SERVERS } from "clusterwire/testing";
 *
 * console.log(RECORDED_SERVERS["1.37"]); // "v1.37.2"
 * ```
 */
export const RECORDED_SERVERS: Readonly<Record<KubernetesVersion, string>> = {
  "1.35": "v1.35.4",
  "1.37": "v1.37.2",
};

/**
 * The Status the API server refused an object with, as the client received it.
 *
 * @example
 * ```ts
 * import { recordedAdmissionCases } from "clusterwire/testing";
 *
 * const refused = (await recordedAdmissionCases()).filter((c) => !c.expected.allowed);
 * console.log(refused[0]?.expected.status?.causes[0]?.field);
 * ```
 */
export interface RecordedStatus {
  /** The HTTP status code: 422 for a refusal by the API server's validation. */
  readonly code: number;
  /** The machine-readable reason, `Invalid` for 422. */
  readonly reason: string;
  /** The whole message, as kubectl prints it. */
  readonly message: string;
  /** One cause per field error: its reason (e.g. `FieldValueInvalid`), message and field path. */
  readonly causes: readonly { readonly reason: string; readonly message: string; readonly field: string }[];
}

/**
 * What the API server answered: admitted (with the Warning headers it sent) or refused.
 *
 * @example
 * ```ts
 * import { recordedAdmissionCases } from "clusterwire/testing";
 *
 * const warned = (await recordedAdmissionCases()).filter((c) => c.expected.warnings.length > 0);
 * console.log(warned.length > 0, warned[0]?.expected.allowed); // true true
 * ```
 */
export interface ExpectedAdmission {
  /** Whether the API server admitted the object. */
  readonly allowed: boolean;
  /** The refusal's Status; absent when admitted. */
  readonly status?: RecordedStatus;
  /** The warnings the API server sent (empty for a refusal: it warns only about objects it accepts). */
  readonly warnings: readonly string[];
}

/**
 * One object an admission webhook could be asked about, with the API server's own verdict on it.
 * `object` is the body the client sent (JSON, with the request's namespace and a generated name
 * filled in as the API server does before admission); the API server would also have applied its
 * defaults to it. UPDATE cases carry the stored object as `oldObject`.
 *
 * @example
 * ```ts
 * import { recordedAdmissionCases } from "clusterwire/testing";
 *
 * for (const c of (await recordedAdmissionCases({ version: "1.37" })).slice(0, 3)) {
 *   console.log(c.id, c.operation, c.kind, c.expected.allowed);
 * }
 * ```
 */
export interface RecordedAdmissionCase {
  /** A stable name: the server and the case's index, e.g. `v1.35.4#17`. */
  readonly id: string;
  /** What the object is (a fixture, a targeted mutation, an update made of another object). */
  readonly source: string;
  /** The networking.k8s.io/v1 kind, e.g. `Ingress`. */
  readonly kind: string;
  /** The plural resource name, e.g. `ingresses`. */
  readonly resource: string;
  /** `CREATE`, or `UPDATE` of a stored object. */
  readonly operation: "CREATE" | "UPDATE";
  /** `status` for an update through the status subresource, `""` otherwise. */
  readonly subResource: "" | "status";
  /** The namespace of a namespaced kind, `""` for cluster-scoped kinds. */
  readonly namespace: string;
  /** The object's name. */
  readonly name: string;
  /** The object as the webhook would be sent it. */
  readonly object: JsonObject;
  /** For UPDATE: the stored object, as the API server returned it when it was created. */
  readonly oldObject?: JsonObject;
  /** The API server's answer. */
  readonly expected: ExpectedAdmission;
}

/**
 * Options of {@link recordedAdmissionCases}.
 *
 * @example
 * ```ts
 * import { type RecordedCasesOptions, recordedAdmissionCases } from "clusterwire/testing";
 *
 * const options: RecordedCasesOptions = { version: "1.37" };
 * console.log((await recordedAdmissionCases(options)).length > 900); // true
 * ```
 */
export interface RecordedCasesOptions {
  /** The Kubernetes version whose API server's answers to use; default 1.35. */
  readonly version?: KubernetesVersion;
}

/**
 * A bad argument to {@link recordedAdmissionCases} or `checkAdmission`: an unknown version, an
 * option of the wrong type, a target that is neither a function nor a webhook URL; or a target
 * or API server that cannot be reached or refuses the checker. `code` says which.
 *
 * @example
 * ```ts
 * import { AdmissionCheckError, checkAdmission } from "clusterwire/testing";
 *
 * try {
 *   await checkAdmission({ url: "http://127.0.0.1:1/validate" });
 * } catch (e) {
 *   if (e instanceof AdmissionCheckError) console.log(e.code); // "bad-option": the URL must be https
 * }
 * ```
 */
export class AdmissionCheckError extends Error {
  /** Always `"AdmissionCheckError"`. */
  override readonly name = "AdmissionCheckError";
  /**
   * `bad-option`: an argument is not what it must be; `unreachable`: the webhook or the API
   * server did not answer (connection refused, TLS failure, timeout); `api-server`: the API
   * server answered the checker's own requests with an error (401, 403, a missing namespace).
   */
  readonly code: "bad-option" | "unreachable" | "api-server";

  constructor(code: AdmissionCheckError["code"], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** One case as the recorded modules hold it (written by the conformance campaign's generator). */
export interface StoredCase {
  readonly kind: string;
  readonly operation: "CREATE" | "UPDATE";
  readonly subResource?: "status";
  readonly namespace?: string;
  readonly name: string;
  readonly source: string;
  readonly object: JsonObject;
  readonly oldObject?: JsonObject;
  readonly allowed: boolean;
  readonly warnings?: readonly string[];
  readonly status?: RecordedStatus;
}

const PLURALS: Readonly<Record<string, string>> = {
  Ingress: "ingresses",
  IngressClass: "ingressclasses",
  NetworkPolicy: "networkpolicies",
  IPAddress: "ipaddresses",
  ServiceCIDR: "servicecidrs",
};

/** The plural resource name of a kind the cases hold. */
export function resourceOf(kind: string): string {
  return PLURALS[kind] ?? `${kind.toLowerCase()}s`;
}

const loaded = new Map<KubernetesVersion, Promise<readonly RecordedAdmissionCase[]>>();

/** The version asked for, checked. */
export function recordedVersion(version: unknown): KubernetesVersion {
  if (version === undefined) return DEFAULT_KUBERNETES_VERSION;
  if (typeof version === "string" && Object.hasOwn(RECORDED_SERVERS, version)) return version as KubernetesVersion;
  throw new AdmissionCheckError(
    "bad-option",
    `version: cases are recorded for ${Object.keys(RECORDED_SERVERS).join(", ")}, not ${JSON.stringify(version)}`,
  );
}

async function load(version: KubernetesVersion): Promise<readonly RecordedAdmissionCase[]> {
  const [{ RECORDED }, { brotliDecompressSync }] = await Promise.all([
    version === "1.37" ? import("./recorded/v1-37-2.js") : import("./recorded/v1-35-4.js"),
    import("node:zlib"),
  ]);
  const server = RECORDED_SERVERS[version];
  const file = JSON.parse(brotliDecompressSync(Buffer.from(RECORDED, "base64")).toString("utf8")) as {
    cases: StoredCase[];
  };
  return Object.freeze(
    file.cases.map(
      (c, i): RecordedAdmissionCase =>
        Object.freeze({
          id: `${server}#${i}`,
          source: c.source,
          kind: c.kind,
          resource: resourceOf(c.kind),
          operation: c.operation,
          subResource: c.subResource ?? "",
          namespace: c.namespace ?? "",
          name: c.name,
          object: c.object,
          ...(c.oldObject !== undefined ? { oldObject: c.oldObject } : {}),
          expected: {
            allowed: c.allowed,
            ...(c.status !== undefined ? { status: c.status } : {}),
            warnings: c.warnings ?? [],
          },
        }),
    ),
  );
}

/**
 * The admission cases recorded from a real kube-apiserver of `version` (see
 * {@link RECORDED_SERVERS}): every JSON create and update it decoded, one per distinct object,
 * with its verdict: admitted (201 or 200, with its warnings) or refused by its own validation
 * (422 Invalid, with the Status). Requests it refused before validation (a value of the wrong
 * type, an unknown field under `fieldValidation=Strict`) are not among them: a webhook never sees
 * those. Loaded on the first call (Node's zlib decompresses them) and shared after; treat the
 * objects as read-only (copy one before changing it).
 *
 * @example
 * ```ts
 * import { recordedAdmissionCases } from "clusterwire/testing";
 *
 * const cases = await recordedAdmissionCases({ version: "1.35" });
 * const refused = cases.filter((c) => !c.expected.allowed);
 * console.log(cases.length, refused[0]?.expected.status?.message);
 * ```
 */
export function recordedAdmissionCases(options: RecordedCasesOptions = {}): Promise<readonly RecordedAdmissionCase[]> {
  let version: KubernetesVersion;
  try {
    version = recordedVersion(options.version);
  } catch (e) {
    return Promise.reject(e);
  }
  let cases = loaded.get(version);
  if (cases === undefined) {
    cases = load(version);
    loaded.set(version, cases);
  }
  return cases;
}
