// The ObjectMeta rules as they apply to an Ingress (names, namespace,
// labels, annotations, owner references, finalizers, update immutability).

import { describe, expect, it } from "vitest";
import { formatFieldError } from "../../../../src/networking/index.js";
import {
  type J,
  R,
  I,
  F,
  TL,
  ing,
  storedIngress,
  updatedIngress,
  check,
  lines,
  SUBDOMAIN,
  LABEL_KEY_NAME,
  LABEL_VALUE,
  IMMUTABLE,
  NOT_FINALIZER,
  maxLen,
  contentMaxLen,
} from "../../../support/ingress-validation.js";

describe("§4 ObjectMeta (Ingress)", () => {
  it("no name and no generateName → Required", () => {
    const errs = check(
      ing((o) => delete o.metadata.name),
      [[R, "metadata.name", "name or generateName is required"]],
    );
    expect(lines(errs)).toEqual(["metadata.name: Required value: name or generateName is required"]);
  });

  it("a name that is not a DNS-1123 subdomain → Invalid", () => {
    const errs = check(
      ing((o) => (o.metadata.name = "Web_1")),
      [[I, "metadata.name", SUBDOMAIN]],
    );
    expect(lines(errs)).toEqual([`metadata.name: Invalid value: "Web_1": ${SUBDOMAIN}`]);
  });

  it("a name longer than 253 bytes → one length message", () => {
    check(
      ing((o) => (o.metadata.name = "a".repeat(254))),
      [[I, "metadata.name", maxLen(253)]],
    );
  });

  it("a 253-byte dotted name is valid", () => {
    check(
      ing((o) => (o.metadata.name = `${"a".repeat(63)}.`.repeat(3) + "a".repeat(61))),
      [],
    );
  });

  it("generateName with a trailing dash is a valid prefix", () => {
    check(
      ing((o) => {
        delete o.metadata.name;
        o.metadata.generateName = "web-";
      }),
      [],
    );
  });

  it("a bad generateName prefix → Invalid on generateName and on the generated name", () => {
    const errs = check(
      ing((o) => {
        delete o.metadata.name;
        o.metadata.generateName = "Web_";
      }),
      [
        [I, "metadata.generateName", SUBDOMAIN],
        [I, "metadata.name", SUBDOMAIN],
      ],
    );
    expect(formatFieldError(errs.find((e) => e.field === "metadata.generateName")!)).toBe(
      `metadata.generateName: Invalid value: "Web_": ${SUBDOMAIN}`,
    );
    const gen = errs.find((e) => e.field === "metadata.name")!;
    expect(gen.badValue).toMatch(/^Web_[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it("the generated name uses the prefix cut to 58 characters: a bad character past 58 only fails generateName", () => {
    check(
      ing((o) => {
        delete o.metadata.name;
        o.metadata.generateName = `${"a".repeat(58)}_x-`;
      }),
      [[I, "metadata.generateName", SUBDOMAIN]],
    );
  });

  it("a bad character at position 58 is kept in the generated name", () => {
    check(
      ing((o) => {
        delete o.metadata.name;
        o.metadata.generateName = `${"a".repeat(57)}_`;
      }),
      [
        [I, "metadata.generateName", SUBDOMAIN],
        [I, "metadata.name", SUBDOMAIN],
      ],
    );
  });

  it("a very long generateName fails the length rule, the generated (63-char) name is fine", () => {
    check(
      ing((o) => {
        delete o.metadata.name;
        o.metadata.generateName = `${"a".repeat(300)}-`;
      }),
      [[I, "metadata.generateName", maxLen(253)]],
    );
  });

  it("an empty namespace is filled from the request: no error", () => {
    check(
      ing((o) => delete o.metadata.namespace),
      [],
    );
    check(
      ing((o) => delete o.metadata.namespace),
      [],
      { namespace: "team-a" },
    );
  });

  it("label key and label value errors are reported at metadata.labels", () => {
    const errs = check(
      ing((o) => (o.metadata.labels = { "a b": "ok", good: "bad value!", fine: "" })),
      [
        [I, "metadata.labels", LABEL_KEY_NAME],
        [I, "metadata.labels", LABEL_VALUE],
      ],
    );
    expect(lines(errs).sort()).toEqual(
      [
        `metadata.labels: Invalid value: "a b": ${LABEL_KEY_NAME}`,
        `metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE}`,
      ].sort(),
    );
    for (const e of errs) expect(e.path).toEqual(["metadata", "labels"]);
  });

  it("a 64-character label value → length message", () => {
    check(
      ing((o) => (o.metadata.labels = { app: "v".repeat(64) })),
      [[I, "metadata.labels", contentMaxLen(63)]],
    );
  });

  it('an empty label key → two messages ("must be non-empty" + regex)', () => {
    check(
      ing((o) => (o.metadata.labels = { "": "v" })),
      [
        [I, "metadata.labels", "name part must be non-empty"],
        [I, "metadata.labels", LABEL_KEY_NAME],
      ],
    );
  });

  it("a label key with an empty prefix → prefix part must be non-empty", () => {
    check(
      ing((o) => (o.metadata.labels = { "/app": "v" })),
      [[I, "metadata.labels", "prefix part must be non-empty"]],
    );
  });

  it("a label key with three parts → one error", () => {
    check(
      ing((o) => (o.metadata.labels = { "a/b/c": "v" })),
      [[I, "metadata.labels"]],
    );
  });

  it("a label key with an upper-case prefix is invalid (labels are case-sensitive)", () => {
    check(
      ing((o) => (o.metadata.labels = { "Example.COM/app": "v" })),
      [[I, "metadata.labels", `prefix part ${SUBDOMAIN}`]],
    );
  });

  it("annotation keys are checked lower-cased: an upper-case prefix is fine", () => {
    check(
      ing((o) => (o.metadata.annotations = { "Example.COM/App": "anything at all ✓" })),
      [],
    );
  });

  it("an invalid annotation key → Invalid at metadata.annotations, value is the original key", () => {
    const errs = check(
      ing((o) => (o.metadata.annotations = { "Bad Key": "v" })),
      [[I, "metadata.annotations", LABEL_KEY_NAME]],
    );
    expect(lines(errs)).toEqual([`metadata.annotations: Invalid value: "Bad Key": ${LABEL_KEY_NAME}`]);
  });

  it("annotations totalling 256 KiB are accepted", () => {
    check(
      ing((o) => (o.metadata.annotations = { a: "x".repeat(262143) })),
      [],
    );
  });

  it("annotations over 256 KiB (keys + values) → TooLong at metadata.annotations", () => {
    const errs = check(
      ing((o) => (o.metadata.annotations = { a: "x".repeat(131072), b: "y".repeat(131072) })),
      [[TL, "metadata.annotations", "may not be more than 262144 bytes"]],
    );
    expect(lines(errs)).toEqual(["metadata.annotations: Too long: may not be more than 262144 bytes"]);
  });

  it("annotation size counts UTF-8 bytes", () => {
    // 131072 × "é" is 262144 bytes in UTF-8 (131072 UTF-16 units); with the key that is one byte over.
    check(
      ing((o) => (o.metadata.annotations = { a: "é".repeat(131072) })),
      [[TL, "metadata.annotations"]],
    );
  });

  it("an unqualified non-standard finalizer → Invalid at metadata.finalizers[i]", () => {
    const errs = check(
      ing((o) => (o.metadata.finalizers = ["example.com/ok", "custom"])),
      [[I, "metadata.finalizers[1]", NOT_FINALIZER]],
    );
    expect(lines(errs)).toEqual([`metadata.finalizers[1]: Invalid value: "custom": ${NOT_FINALIZER}`]);
  });

  it("standard finalizer names are accepted unqualified", () => {
    check(
      ing((o) => (o.metadata.finalizers = ["kubernetes", "orphan"])),
      [],
    );
    check(
      ing((o) => (o.metadata.finalizers = ["foregroundDeletion"])),
      [],
    );
  });

  it("a finalizer that is not a qualified name → Invalid at metadata.finalizers (no index) plus the [i] check", () => {
    const errs = check(
      ing((o) => (o.metadata.finalizers = ["a b"])),
      [
        [I, "metadata.finalizers", LABEL_KEY_NAME],
        [I, "metadata.finalizers[0]", NOT_FINALIZER],
      ],
    );
    expect(lines(errs)).toEqual([
      `metadata.finalizers: Invalid value: "a b": ${LABEL_KEY_NAME}`,
      `metadata.finalizers[0]: Invalid value: "a b": ${NOT_FINALIZER}`,
    ]);
  });

  it("orphan together with foregroundDeletion → Invalid at metadata.finalizers", () => {
    check(
      ing((o) => (o.metadata.finalizers = ["orphan", "foregroundDeletion"])),
      [[I, "metadata.finalizers", "finalizer orphan and foregroundDeletion cannot be both set"]],
    );
  });

  it("ownerReferences: empty apiVersion/kind/name/uid → Invalid, paths without an index", () => {
    check(
      ing((o) => (o.metadata.ownerReferences = [{ apiVersion: "", kind: "", name: "", uid: "" }])),
      [
        [I, "metadata.ownerReferences.apiVersion", "version must not be empty"],
        [I, "metadata.ownerReferences.kind", "must not be empty"],
        [I, "metadata.ownerReferences.name", "must not be empty"],
        [I, "metadata.ownerReferences.uid", "must not be empty"],
      ],
    );
  });

  it("ownerReferences: two controllers → Invalid on metadata.ownerReferences", () => {
    const ref = (name: string, uid: string): J => ({
      apiVersion: "apps/v1",
      kind: "Deployment",
      name,
      uid,
      controller: true,
    });
    const errs = check(
      ing((o) => (o.metadata.ownerReferences = [ref("a", "1"), ref("b", "2")])),
      [[I, "metadata.ownerReferences"]],
    );
    expect(errs[0]!.detail).toBe(
      'Only one reference can have Controller set to true. Found "true" in references for Deployment/a and Deployment/b',
    );
  });

  it("create: a negative generation is not reported (PrepareForCreate sets generation to 1)", () => {
    check(
      ing((o) => (o.metadata.generation = -3)),
      [],
    );
  });

  // Update: the generic registry (rest.BeforeUpdate → validateCommonFields) runs
  // ValidateObjectMetaAccessor and ValidateObjectMetaAccessorUpdate itself, and
  // then the Ingress strategy runs ValidateObjectMetaUpdate and ValidateObjectMeta
  // again, so update metadata errors come out more than once.

  it("update: a changed name → Invalid field is immutable (generic registry + strategy)", () => {
    const old = storedIngress();
    const errs = check(
      updatedIngress((o) => (o.metadata.name = "web2")),
      [
        [I, "metadata.name", IMMUTABLE],
        [I, "metadata.name", IMMUTABLE],
      ],
      { old },
    );
    expect(formatFieldError(errs[0]!)).toBe('metadata.name: Invalid value: "web2": field is immutable');
  });

  it("update: a changed uid → Invalid field is immutable", () => {
    const old = storedIngress();
    const errs = check(
      updatedIngress((o) => (o.metadata.uid = "other-uid")),
      [
        [I, "metadata.uid", IMMUTABLE],
        [I, "metadata.uid", IMMUTABLE],
      ],
      { old },
    );
    expect(formatFieldError(errs[0]!)).toBe('metadata.uid: Invalid value: "other-uid": field is immutable');
  });

  it("update: a changed namespace → Invalid field is immutable", () => {
    const old = storedIngress();
    check(
      updatedIngress((o) => (o.metadata.namespace = "other")),
      [
        [I, "metadata.namespace", IMMUTABLE],
        [I, "metadata.namespace", IMMUTABLE],
      ],
      { old, namespace: "other" },
    );
  });

  it("update: an omitted uid is taken from the stored object", () => {
    const old = storedIngress();
    check(
      updatedIngress((o) => delete o.metadata.uid),
      [],
      { old },
    );
  });

  it("update: an omitted resourceVersion is filled by the store (unconditional update)", () => {
    const old = storedIngress();
    check(
      updatedIngress((o) => delete o.metadata.resourceVersion),
      [],
      { old },
    );
  });

  it("update: an omitted namespace is filled from the request", () => {
    const old = storedIngress();
    check(
      updatedIngress((o) => delete o.metadata.namespace),
      [],
      { old },
    );
  });

  it("update: bad labels are reported by all four metadata checks", () => {
    const old = storedIngress();
    check(
      updatedIngress((o) => (o.metadata.labels = { "a b": "v" })),
      [
        [I, "metadata.labels", LABEL_KEY_NAME],
        [I, "metadata.labels", LABEL_KEY_NAME],
        [I, "metadata.labels", LABEL_KEY_NAME],
        [I, "metadata.labels", LABEL_KEY_NAME],
      ],
      { old },
    );
  });

  it("update: an unqualified finalizer is reported by the strategy's update and create meta checks", () => {
    const old = storedIngress();
    check(
      updatedIngress((o) => (o.metadata.finalizers = ["custom"])),
      [
        [I, "metadata.finalizers[0]", NOT_FINALIZER],
        [I, "metadata.finalizers[0]", NOT_FINALIZER],
      ],
      { old },
    );
  });

  it("update: no new finalizers once deletion has started → Forbidden", () => {
    const deleting = (o: J) => {
      o.metadata.deletionTimestamp = "2025-01-02T03:04:05Z";
      o.metadata.deletionGracePeriodSeconds = 0;
      o.metadata.finalizers = ["example.com/a"];
    };
    const old = storedIngress(deleting);
    const detail =
      'no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}';
    check(
      updatedIngress((o) => {
        deleting(o);
        o.metadata.finalizers.push("example.com/b");
      }),
      [
        [F, "metadata.finalizers", detail],
        [F, "metadata.finalizers", detail],
      ],
      { old },
    );
  });

  it("update: removing a finalizer while deleting is fine", () => {
    const deleting = (o: J) => {
      o.metadata.deletionTimestamp = "2025-01-02T03:04:05Z";
      o.metadata.deletionGracePeriodSeconds = 0;
      o.metadata.finalizers = ["example.com/a", "example.com/b"];
    };
    const old = storedIngress(deleting);
    check(
      updatedIngress((o) => {
        deleting(o);
        o.metadata.finalizers = ["example.com/b"];
      }),
      [],
      { old },
    );
  });

  it("status update: metadata is checked by the generic registry and ValidateObjectMetaUpdate (no create meta)", () => {
    const old = storedIngress();
    check(
      updatedIngress((o) => (o.metadata.labels = { "a b": "v" })),
      [
        [I, "metadata.labels", LABEL_KEY_NAME],
        [I, "metadata.labels", LABEL_KEY_NAME],
        [I, "metadata.labels", LABEL_KEY_NAME],
      ],
      { old, subresource: "status" },
    );
  });
});

// ======================================================================
// Multi-error objects and the 422 Status
// ======================================================================
