// Checks one of src/testing/recorded/'s generated modules on its own: its cases decode, there are
// as many as its header says, and each has the shape recorded-admission.ts reads. That the cases
// are what the golden answers make is test/conformance/campaign/admission-cases.test.ts's job.
import { readFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";
import { expect } from "vitest";
import type { StoredCase } from "../../src/testing/recorded-admission.js";

const NAMESPACED = new Set(["Ingress", "NetworkPolicy"]);
const KINDS = new Set(["Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"]);
const KEYS = new Set([
  "kind",
  "operation",
  "subResource",
  "namespace",
  "name",
  "source",
  "object",
  "oldObject",
  "allowed",
  "warnings",
  "status",
]);

type Json = Record<string, unknown>;

/** The module at `path` (from the repository root), whose RECORDED is `recorded`, recorded from `server`. */
export function checkRecordedModule(recorded: string, path: string, server: string): StoredCase[] {
  const header = /^\/\/ kube-apiserver (v\d+\.\d+\.\d+): (\d+) admission cases,/m.exec(
    readFileSync(new URL(`../../${path}`, import.meta.url), "utf8"),
  );
  expect(header?.[1], `${path}'s header names its server`).toBe(server);
  const cases = (
    JSON.parse(brotliDecompressSync(Buffer.from(recorded, "base64")).toString("utf8")) as { cases: StoredCase[] }
  ).cases;
  expect(cases.length, "the header's count").toBe(Number(header?.[2]));
  // Plain checks gathered into one list: an expect() per field of a thousand cases costs seconds.
  const wrong: string[] = [];
  const check = (ok: boolean, at: string, what: string): void => {
    if (!ok) wrong.push(`${at}: ${what}`);
  };
  for (const [i, c] of cases.entries()) {
    const at = `${server} case ${i} (${c.source})`;
    const extra = Object.keys(c).filter((k) => !KEYS.has(k));
    check(extra.length === 0, at, `unknown keys ${extra.join(", ")}`);
    check(KINDS.has(c.kind), at, `kind ${c.kind}`);
    const object = c.object as Json;
    check(
      object["apiVersion"] === "networking.k8s.io/v1" && object["kind"] === c.kind,
      at,
      "object's apiVersion and kind",
    );
    check(((object["metadata"] as Json | undefined)?.["name"] ?? "") === c.name, at, "name is the object's");
    check(typeof c.source === "string", at, "source");
    // A namespaced kind carries the request's namespace; a cluster-scoped one none.
    check((c.namespace !== undefined) === NAMESPACED.has(c.kind), at, "namespace iff namespaced");
    // Updates, and only they, carry the stored object, and may go through /status.
    check(c.operation === "CREATE" || c.operation === "UPDATE", at, `operation ${c.operation}`);
    check((c.oldObject !== undefined) === (c.operation === "UPDATE"), at, "oldObject iff UPDATE");
    check(c.subResource === undefined || (c.subResource === "status" && c.operation === "UPDATE"), at, "subResource");
    // Admitted with its warnings, or refused by validation with a 422 and no warnings.
    check(typeof c.allowed === "boolean", at, "allowed");
    if (c.allowed) check(c.status === undefined, at, "admitted with a Status");
    else {
      check((c.warnings ?? []).length === 0, at, "refused with warnings");
      check(c.status?.code === 422 && c.status.reason === "Invalid", at, "refused without a 422 Invalid");
      check((c.status?.causes.length ?? 0) > 0, at, "refused without causes");
    }
  }
  expect(wrong).toEqual([]);
  return cases;
}
