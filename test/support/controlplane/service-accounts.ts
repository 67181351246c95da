// Service-account tokens for the client's end-to-end suite, which a test can rotate and revoke: a
// ServiceAccount bound (ClusterRoleBinding) to a ClusterRole allowing every verb on every
// networking.k8s.io resource, and tokens minted with the TokenRequest API, each bound to a Secret
// of its own (boundObjectRef kind Secret). kube-apiserver checks that the bound object still
// exists when it authenticates such a token, so deleting the Secret revokes the token: it then
// gets 401, though not at once: kube-apiserver keeps a successful token authentication for 10 s,
// so a token used just before its Secret is deleted still works for up to 10 s (seen on v1.35.4
// and v1.37.2: revoke() of a token just used took 10.0 s). Minting another token for the same
// account is a rotation.
import { type ApiResponse, apiRequest, type ControlPlane } from "./start.js";

/** The part of a control plane this needs (its admin token makes the objects). */
export type AdminPlane = Pick<ControlPlane, "url" | "token" | "caPem">;

/** A ServiceAccount allowed everything in networking.k8s.io, cluster-wide. */
export interface NetworkingServiceAccount {
  readonly namespace: string;
  readonly name: string;
  /** The user name its tokens authenticate as: system:serviceaccount:NAMESPACE:NAME. */
  readonly user: string;
  /** The ClusterRole and the ClusterRoleBinding made for it (same name). */
  readonly clusterRole: string;
}

/** One token of a NetworkingServiceAccount, bound to its own Secret. */
export interface RevocableToken {
  /** The bearer token (a JWT). Never print it. */
  readonly token: string;
  /** The Secret it is bound to, in the account's namespace. */
  readonly secretName: string;
  /** When the token expires, as the TokenRequest answered. */
  readonly expirationTimestamp: string;
  /** The plane as this token sees it: for apiRequest. */
  readonly plane: AdminPlane;
  /**
   * Deletes the Secret, then waits (polling, up to `timeoutMs`, default 30 s) until the token is
   * refused with 401; resolves with how many ms that took. Throws if it is still accepted then.
   */
  revoke(timeoutMs?: number): Promise<number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function expectStatus(res: ApiResponse, want: readonly number[], what: string): void {
  if (!want.includes(res.status)) throw new Error(`${what}: HTTP ${res.status}: ${res.body.slice(0, 1000)}`);
}

/**
 * Polls `check` every 100 ms until it returns true, or throws after `timeoutMs` naming `what`.
 */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * Creates the namespace (if missing), the ServiceAccount, and a ClusterRole
 * `clusterwire-networking-NAMESPACE-NAME` allowing every verb on every networking.k8s.io resource
 * (subresources such as ingresses/status included) with its ClusterRoleBinding; then waits until
 * the authorizer allows the account to list Ingresses (RBAC reads its objects through informers,
 * so a binding takes a moment to count).
 */
export async function createNetworkingServiceAccount(
  plane: AdminPlane,
  namespace: string,
  name: string,
  timeoutMs = 30_000,
): Promise<NetworkingServiceAccount> {
  const ns = await apiRequest(plane, "POST", "/api/v1/namespaces", {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: namespace },
  });
  expectStatus(ns, [201, 409], `namespace ${namespace}`);
  const sa = await apiRequest(plane, "POST", `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name },
  });
  expectStatus(sa, [201], `ServiceAccount ${namespace}/${name}`);
  const clusterRole = `clusterwire-networking-${namespace}-${name}`;
  const role = await apiRequest(plane, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name: clusterRole },
    rules: [{ apiGroups: ["networking.k8s.io"], resources: ["*"], verbs: ["*"] }],
  });
  expectStatus(role, [201], `ClusterRole ${clusterRole}`);
  const binding = await apiRequest(plane, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: clusterRole },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: clusterRole },
    subjects: [{ kind: "ServiceAccount", name, namespace }],
  });
  expectStatus(binding, [201], `ClusterRoleBinding ${clusterRole}`);
  const user = `system:serviceaccount:${namespace}:${name}`;
  await until(
    async () => {
      const review = await apiRequest(plane, "POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        spec: {
          user,
          groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`, "system:authenticated"],
          resourceAttributes: { group: "networking.k8s.io", resource: "ingresses", verb: "list" },
        },
      });
      expectStatus(review, [201], "SubjectAccessReview");
      return (JSON.parse(review.body) as { status?: { allowed?: boolean } }).status?.allowed === true;
    },
    timeoutMs,
    `RBAC allowing ${user} to list ingresses`,
  );
  return { namespace, name, user, clusterRole };
}

/**
 * Mints a token for `account` with the TokenRequest API, bound to a new Secret (generateName
 * `NAME-token-`) in the account's namespace: deleting that Secret (`revoke()`) revokes the token.
 * `expirationSeconds` defaults to 3600 (kube-apiserver's minimum is 600).
 */
export async function mintRevocableToken(
  plane: AdminPlane,
  account: NetworkingServiceAccount,
  expirationSeconds = 3600,
): Promise<RevocableToken> {
  const secrets = `/api/v1/namespaces/${account.namespace}/secrets`;
  const created = await apiRequest(plane, "POST", secrets, {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { generateName: `${account.name}-token-` },
    type: "Opaque",
  });
  expectStatus(created, [201], `Secret for a token of ${account.user}`);
  const secret = JSON.parse(created.body) as { metadata: { name: string; uid: string } };
  const answer = await apiRequest(
    plane,
    "POST",
    `/api/v1/namespaces/${account.namespace}/serviceaccounts/${account.name}/token`,
    {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenRequest",
      spec: {
        expirationSeconds,
        boundObjectRef: { kind: "Secret", apiVersion: "v1", name: secret.metadata.name, uid: secret.metadata.uid },
      },
    },
  );
  expectStatus(answer, [201], `TokenRequest for ${account.user}`);
  const status = (JSON.parse(answer.body) as { status?: { token?: string; expirationTimestamp?: string } }).status;
  if (typeof status?.token !== "string" || status.token === "") {
    throw new Error(`TokenRequest for ${account.user}: no token in the answer`);
  }
  const tokenPlane: AdminPlane = { url: plane.url, caPem: plane.caPem, token: status.token };
  const secretName = secret.metadata.name;
  return {
    token: status.token,
    secretName,
    expirationTimestamp: status.expirationTimestamp ?? "",
    plane: tokenPlane,
    async revoke(timeoutMs = 30_000): Promise<number> {
      const deleted = await apiRequest(plane, "DELETE", `${secrets}/${secretName}`);
      expectStatus(deleted, [200, 404], `delete Secret ${account.namespace}/${secretName}`);
      return until(
        async () =>
          (await apiRequest(tokenPlane, "GET", "/apis/networking.k8s.io/v1/ingresses?limit=1")).status === 401,
        timeoutMs,
        `the token bound to Secret ${account.namespace}/${secretName} refused with 401`,
      );
    },
  };
}
