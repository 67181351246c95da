// Service-account tokens bound to Secrets against a real control plane: a minted token lists and
// writes networking.k8s.io objects and nothing else; a second one works beside it (rotation);
// deleting the first one's Secret makes it 401 while the second still works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createNetworkingServiceAccount,
  mintRevocableToken,
  type NetworkingServiceAccount,
  type RevocableToken,
} from "./service-accounts.js";
import { apiRequest, type ControlPlane, controlPlaneBuilt, startControlPlane, VERSIONS } from "./start.js";

const NS = "tokens";
const policy = (name: string) => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "NetworkPolicy",
  metadata: { name },
  spec: { podSelector: {} },
});

for (const version of Object.keys(VERSIONS)) {
  describe.skipIf(!controlPlaneBuilt(version))(`revocable service-account tokens on ${version}`, () => {
    let plane: ControlPlane;
    let account: NetworkingServiceAccount;
    let first: RevocableToken;
    let second: RevocableToken;

    beforeAll(async () => {
      plane = await startControlPlane({ version });
      account = await createNetworkingServiceAccount(plane, NS, "client");
      first = await mintRevocableToken(plane, account);
      second = await mintRevocableToken(plane, account);
    }, 90_000);
    afterAll(async () => {
      await plane?.stop();
    }, 30_000);

    it("a minted token is the service account's: networking.k8s.io allowed, other groups forbidden", async () => {
      expect(account.user).toBe(`system:serviceaccount:${NS}:client`);
      expect(first.token).not.toBe(second.token);
      expect(first.secretName).not.toBe(second.secretName);
      expect(Date.parse(first.expirationTimestamp)).toBeGreaterThan(Date.now());
      const list = await apiRequest(first.plane, "GET", "/apis/networking.k8s.io/v1/ingresses");
      expect(list.status, list.body).toBe(200);
      const create = await apiRequest(
        first.plane,
        "POST",
        `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies`,
        policy("by-token"),
      );
      expect(create.status, create.body).toBe(201);
      const review = await apiRequest(first.plane, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", {
        apiVersion: "authentication.k8s.io/v1",
        kind: "SelfSubjectReview",
      });
      expect(review.status, review.body).toBe(201);
      expect(JSON.parse(review.body)).toMatchObject({ status: { userInfo: { username: account.user } } });
      for (const path of ["/api/v1/namespaces", `/api/v1/namespaces/${NS}/secrets`]) {
        const res = await apiRequest(first.plane, "GET", path);
        expect(res.status, `${path}: ${res.body}`).toBe(403);
      }
    });

    it("deleting a token's Secret makes that token 401; a token bound to another Secret keeps working", async () => {
      await first.revoke();
      const refused = await apiRequest(first.plane, "GET", "/apis/networking.k8s.io/v1/ingresses");
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toMatchObject({ kind: "Status", code: 401, reason: "Unauthorized" });
      const still = await apiRequest(second.plane, "GET", "/apis/networking.k8s.io/v1/ingresses");
      expect(still.status, still.body).toBe(200);
      // The Secret is gone, not merely unreadable to the token.
      const secret = await apiRequest(plane, "GET", `/api/v1/namespaces/${NS}/secrets/${first.secretName}`);
      expect(secret.status).toBe(404);
    });
  });
}
