// Why kubectl's output and the one clusterwire's verdict implies may differ, where the difference
// is understood: the API server's known differences (conformance/campaign/known.ts) as kubectl
// prints them, and what kubectl and the dry run do apart from validation.
import { EMPTY_LIST, type KnownDifference, MAP_ORDER } from "../campaign/known.js";
import type { Printed } from "./expect.js";

export { EMPTY_LIST, MAP_ORDER };

export const MISSING_NAMESPACE: KnownDifference = {
  id: "missing-namespace",
  reason:
    "the object's namespace does not exist, and cannot be made (the corpus's YOUR_NAMESPACE is no valid name): the API server looks the namespace up before it validates, and answers 404 NotFound; clusterwire, which knows no cluster, validates",
};

export const DRY_RUN_RESOURCE_VERSION: KnownDifference = {
  id: "dry-run-resource-version",
  reason:
    "metadata.resourceVersion on a create: only the storage layer refuses it (500, what clusterwire reports, as a real create answers: test/conformance/campaign/real-create.test.ts); a dry run stops before storage and accepts it",
};

export const KUBECTL_CLIENT_SIDE: KnownDifference = {
  id: "kubectl-client-side",
  reason:
    "kubectl apply reads the object's metadata itself and GETs the object by name before it sends anything: a metadata or name of another JSON type, or a name missing or one it cannot put in a URL, stops kubectl with its own error; the API server never validates the object. Both refuse it",
};

export const KUBECTL_YAML: KnownDifference = {
  id: "kubectl-yaml",
  reason:
    "a YAML text that does not parse: kubectl turns YAML into JSON itself and stops with `error: error parsing FILE: error converting YAML to JSON: yaml: line N: ...`; clusterwire reports the document as an error in its own words, at its line and column. Both refuse it",
};

export const KNOWN: readonly KnownDifference[] = [
  KUBECTL_YAML,
  EMPTY_LIST,
  MAP_ORDER,
  MISSING_NAMESPACE,
  DRY_RUN_RESOURCE_VERSION,
  KUBECTL_CLIENT_SIDE,
];

const sorted = (lines: readonly string[]) => JSON.stringify([...lines].sort());

/** The known difference that explains kubectl's output against clusterwire's expected output, if one does. */
export function explain(
  kubectl: Printed,
  expected: Printed,
  namespaces: ReadonlySet<string>,
): KnownDifference | undefined {
  const nullForEmpty = (l: string) => l.replaceAll("Invalid value: []:", "Invalid value: null:");
  if (
    kubectl.code === expected.code &&
    JSON.stringify(kubectl.stdout) === JSON.stringify(expected.stdout) &&
    JSON.stringify(kubectl.stderr.map(nullForEmpty)) === JSON.stringify(expected.stderr)
  )
    return EMPTY_LIST;
  if (kubectl.code === expected.code && sorted(kubectl.stderr.map(nullForEmpty)) === sorted(expected.stderr))
    return MAP_ORDER;
  const [line] = kubectl.stderr;
  const missing = /^Error from server \(NotFound\): error when creating "[^"]*": namespaces "([^"]*)" not found$/.exec(
    line ?? "",
  );
  if (kubectl.stderr.length === 1 && missing?.[1] !== undefined && !namespaces.has(missing[1]))
    return MISSING_NAMESPACE;
  if (
    kubectl.code === 0 &&
    expected.stderr.length === 1 &&
    /^Error from server: error when creating "[^"]*": resourceVersion should not be set on objects to be created$/.test(
      expected.stderr[0] ?? "",
    )
  )
    return DRY_RUN_RESOURCE_VERSION;
  if (
    kubectl.code === 1 &&
    expected.code === 1 &&
    /^error: (error when retrieving current configuration of:|unable to decode ")/.test(line ?? "")
  )
    return KUBECTL_CLIENT_SIDE;
  if (
    kubectl.code === 1 &&
    expected.code === 1 &&
    /^error: error parsing .*: error converting YAML to JSON: /.test(line ?? "")
  )
    return KUBECTL_YAML;
  return undefined;
}
