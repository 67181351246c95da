// The public surface of clusterwire/testing, pinned: every name the entry point exports and what
// it is. A name added, dropped or renamed here is a change to the package's API (CHANGELOG.md,
// docs/testing.md): users reach these modules only through this entry point.
import { describe, expect, it } from "vitest";
import * as kit from "../../src/testing/index.js";

/** The functions and classes, sorted. */
const FUNCTIONS = [
  "AdmissionCheckError",
  "arbAbsolutePath",
  "arbAdmissionCase",
  "arbAnnotationKey",
  "arbAnnotationValue",
  "arbAnnotations",
  "arbAnyValidJson",
  "arbApiErrorModel",
  "arbCacheModel",
  "arbCachePatch",
  "arbCachePost",
  "arbCanonicalCidr",
  "arbCanonicalIP",
  "arbCloneTokenLifetime",
  "arbCloneTokenModel",
  "arbCloneTokenPatch",
  "arbCloneTokenPost",
  "arbCluster",
  "arbClusterPair",
  "arbCollectionModel",
  "arbConnection",
  "arbControllerName",
  "arbDns1035Label",
  "arbDns1123Label",
  "arbDns1123Subdomain",
  "arbDnsHost",
  "arbFieldsV1Text",
  "arbHttpIngressPath",
  "arbIPAddressJson",
  "arbIPBlock",
  "arbIPNet",
  "arbIPValue",
  "arbImplementationSpecificPath",
  "arbIngressBackend",
  "arbIngressClassJson",
  "arbIngressHost",
  "arbIngressJson",
  "arbIngressRule",
  "arbIngressTLS",
  "arbInt32",
  "arbInt64",
  "arbJobAcceptedModel",
  "arbJobModel",
  "arbLabelKey",
  "arbLabelName",
  "arbLabelSelector",
  "arbLabelSelectorRequirement",
  "arbLabelValue",
  "arbLabels",
  "arbLegacyOnlyCidr",
  "arbMessage",
  "arbNetworkPolicyJson",
  "arbNetworkPolicyPeer",
  "arbNetworkPolicyPort",
  "arbNvmeNamespaceModel",
  "arbNvmeNamespaceName",
  "arbNvmeNamespacePatch",
  "arbNvmeNamespacePost",
  "arbObject",
  "arbObjectMeta",
  "arbObjectOf",
  "arbPathSegmentName",
  "arbPortName",
  "arbPortNumber",
  "arbPortRange",
  "arbQuotaRuleModel",
  "arbQuotaRulePatch",
  "arbQuotaRulePost",
  "arbRouteRequest",
  "arbRouterInput",
  "arbRoutingInputJson",
  "arbServiceCIDRJson",
  "arbSoftwareDownloadPost",
  "arbSoftwareDownloadProgressModel",
  "arbSoftwareHistoryModel",
  "arbSoftwarePackageModel",
  "arbSoftwarePatch",
  "arbSoftwarePatchQuery",
  "arbSoftwareProfileModel",
  "arbStorageDateTime",
  "arbStorageDuration",
  "arbStorageName",
  "arbStoragePath",
  "arbStorageReference",
  "arbStorageSize",
  "arbStorageSizeInput",
  "arbStorageUuid",
  "arbStorageVersion",
  "arbString",
  "arbTargetedInvalid",
  "arbValidJson",
  "arbValidObject",
  "arbWildcardHost",
  "checkAdmission",
  "expectedOnSelfUpdate",
  "formatCidr",
  "formatIP",
  "propAdmissionAgreesWithValidate",
  "propNeverThrows",
  "propPolicyEngineAgrees",
  "propRoundTrip",
  "propRouterAgrees",
  "propValidateNeverThrows",
  "recordedAdmissionCases",
  "targetedMutations",
  "toRouterInput",
];

/** The constants, with their types. */
const CONSTANTS: Record<string, string> = {
  LARGE_ROUTING: "object",
  NETWORKING_KINDS: "object",
  RECORDED_SERVERS: "object",
  ROUTING_CONTROLLER: "string",
  SELECTOR_OPERATORS: "object",
  SMALL_ROUTING: "object",
  TRICKY_STRINGS: "object",
  VALIDATED_KINDS: "object",
};

describe("clusterwire/testing's exports", () => {
  it("are exactly these names, each a function or a constant of its type", () => {
    const exported = Object.keys(kit).sort();
    expect(exported).toEqual([...FUNCTIONS, ...Object.keys(CONSTANTS)].sort());
    const types = Object.fromEntries(exported.map((k) => [k, typeof (kit as Record<string, unknown>)[k]]));
    expect(types).toEqual({
      ...Object.fromEntries(FUNCTIONS.map((f) => [f, "function"])),
      ...CONSTANTS,
    });
  });

  it("names each kind it generates once, and the releases it has recordings of", () => {
    expect(kit.VALIDATED_KINDS).toEqual(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"]);
    expect(new Set(kit.NETWORKING_KINDS).size).toBe(kit.NETWORKING_KINDS.length);
    for (const k of kit.VALIDATED_KINDS) {
      expect(kit.NETWORKING_KINDS).toContain(k);
      expect(kit.NETWORKING_KINDS).toContain(`${k}List`);
    }
    expect(Object.keys(kit.RECORDED_SERVERS)).toEqual(["1.35", "1.37"]);
    expect(kit.ROUTING_CONTROLLER).toMatch(/^[a-z0-9.-]+\/[a-z0-9-]+$/);
  });
});
