// Mutations of metadata (name, labels, annotations) every kind shares.

import fc from "fast-check";
import { arbAnnotationValue, arbLabelKey, arbLabelValue } from "../building-blocks/labels.js";
import type { ValidatedKind } from "../valid-objects.js";
import { type Mutation, REQUIRED, INVALID, TOO_LONG, mutation, err, ensureObj } from "./mutation.js";
import { BAD_LABEL_KEYS, BAD_LABEL_VALUES } from "./bad-values.js";

/** Names that fail NameIsDNSSubdomain with exactly one message. */
const BAD_SUBDOMAIN_NAMES = [
  "Bad_Name",
  "UPPER",
  "-lead",
  "trail-",
  "a..b",
  "a b",
  "x.",
  "a".repeat(254),
  `${"a".repeat(200)}.${"b".repeat(54)}`,
];
/** Annotation keys failing IsQualifiedName (after lower-casing) with exactly one message. */
const BAD_ANNOTATION_KEYS = ["a b", "-a", "a/b/c", "_x", "Example.COM/-X"];

export function metaMutations(kind: ValidatedKind): Mutation[] {
  const out: Mutation[] = [
    mutation(`${kind}.meta.name-missing`, kind, "metadata.name Required", fc.boolean(), (o, explicit) => {
      const m = ensureObj(o, "metadata");
      if (explicit) m["name"] = "";
      else delete m["name"];
      delete m["generateName"];
      return err(REQUIRED, "metadata.name");
    }),
    mutation(
      `${kind}.meta.label-value`,
      kind,
      "metadata.labels value",
      fc.tuple(fc.constantFrom(...BAD_LABEL_VALUES), arbLabelKey()),
      (o, [v, k]) => {
        const labels = ensureObj(ensureObj(o, "metadata"), "labels");
        labels[k] = v;
        return err(INVALID, "metadata.labels");
      },
    ),
    mutation(
      `${kind}.meta.label-key`,
      kind,
      "metadata.labels key",
      fc.tuple(fc.constantFrom(...BAD_LABEL_KEYS), arbLabelValue()),
      (o, [k, v]) => {
        ensureObj(ensureObj(o, "metadata"), "labels")[k] = v;
        return err(INVALID, "metadata.labels");
      },
    ),
    mutation(
      `${kind}.meta.annotation-key`,
      kind,
      "metadata.annotations key",
      fc.tuple(fc.constantFrom(...BAD_ANNOTATION_KEYS), arbAnnotationValue()),
      (o, [k, v]) => {
        ensureObj(ensureObj(o, "metadata"), "annotations")[k] = v;
        return err(INVALID, "metadata.annotations");
      },
    ),
    mutation(`${kind}.meta.annotations-too-long`, kind, "metadata.annotations > 256 KiB", fc.nat(100), (o, extra) => {
      const annotations = ensureObj(ensureObj(o, "metadata"), "annotations");
      annotations["example.com/big"] = "x".repeat(262144 + extra);
      return err(TOO_LONG, "metadata.annotations");
    }),
  ];
  if (kind !== "IPAddress") {
    out.push(
      mutation(
        `${kind}.meta.name-invalid`,
        kind,
        "metadata.name DNS-1123 subdomain",
        fc.constantFrom(...BAD_SUBDOMAIN_NAMES),
        (o, name) => {
          ensureObj(o, "metadata")["name"] = name;
          return err(INVALID, "metadata.name");
        },
      ),
    );
  }
  return out;
}
