// Quota rules (/api/storage/quota/rules): request bodies and models.

import fc from "fast-check";
import {
  QUOTA_RULE_TYPES,
  QUOTA_UNLIMITED,
  type QuotaRule,
  type QuotaRulePatchInput,
  type QuotaRulePostInput,
  type QuotaRuleType,
  type QuotaUserInput,
} from "../../storage/index.js";
import type { StorageModelOptions, StorageBodyOptions } from "./options.js";
import {
  KiB,
  TiB,
  REF_FORMS,
  some,
  maybe,
  isEmpty,
  refTo,
  selfLink,
  halOrPlain,
  enumOf,
  withNewer,
  need,
  targetVolumes,
  QUOTA_RULES,
  SVMS,
  VOLUMES,
} from "./shared.js";
import {
  arbStorageSize,
  SIZE_SPELLINGS,
  spellSize,
  arbStorageName,
  arbStorageUuid,
  arbStorageReference,
  modelRef,
} from "./building-blocks.js";

const PEOPLE = ["alice", "bob", "carol", "dave", "erin", "frank", "svc_backup", "jürgen", "zoë"] as const;
const userName = fc.oneof(
  fc.constantFrom(...PEOPLE),
  fc.tuple(fc.constantFrom("CORP", "LAB"), fc.constantFrom(...PEOPLE)).map(([d, u]) => `${d}\\${u}`),
  fc.tuple(fc.constantFrom(...PEOPLE), fc.constantFrom("corp.example", "lab.example")).map(([u, d]) => `${u}@${d}`),
  // A name with a space is quoted (the spec's rule), so it is one user.
  fc.tuple(fc.constantFrom("Ann", "Raj"), fc.constantFrom("Lee", "Kumar")).map(([a, b]) => `"${a} ${b}"`),
);
const userId = fc.oneof(
  fc.integer({ min: 0, max: 65_534 }).map(String),
  fc
    .array(fc.nat({ max: 4_000_000_000 }), { minLength: 3, maxLength: 3 })
    .map(([a, b, c]) => `S-1-5-21-${a}-${b}-${c}`),
);
const quotaUser: fc.Arbitrary<QuotaUserInput> = fc.oneof(
  userName.map((name) => ({ name })),
  userId.map((id) => ({ id })),
);

/** A limits object with hard ≥ soft when both are set; -1 (no limit) anywhere. */
function limits<T>(
  value: fc.Arbitrary<{ bytes: number; spelled: T }>,
): fc.Arbitrary<{ hard_limit?: T | -1; soft_limit?: T | -1 }> {
  type Limit = { bytes: number; spelled: T | -1 };
  const unlimited: fc.Arbitrary<Limit> = fc.constant({ bytes: QUOTA_UNLIMITED, spelled: QUOTA_UNLIMITED });
  const limit = fc.oneof({ arbitrary: value as fc.Arbitrary<Limit>, weight: 4 }, { arbitrary: unlimited, weight: 1 });
  return some({ hard_limit: limit, soft_limit: limit }).map(({ hard_limit: h, soft_limit: s }) => {
    const swap =
      h !== undefined &&
      s !== undefined &&
      h.bytes !== QUOTA_UNLIMITED &&
      s.bytes !== QUOTA_UNLIMITED &&
      s.bytes > h.bytes;
    const [hard, soft] = swap ? [s, h] : [h, s];
    return {
      ...(hard === undefined ? {} : { hard_limit: hard.spelled }),
      ...(soft === undefined ? {} : { soft_limit: soft.spelled }),
    };
  });
}

const nonEmptyLimits = <T>(arb: fc.Arbitrary<{ hard_limit?: T | -1; soft_limit?: T | -1 }>) =>
  arb.map((l) => (isEmpty(l) ? { hard_limit: QUOTA_UNLIMITED } : l));
const spaceLimits = nonEmptyLimits(
  limits(
    fc
      .tuple(arbStorageSize({ max: 10 * TiB }), fc.constantFrom(...SIZE_SPELLINGS))
      .map(([bytes, how]) => ({ bytes, spelled: spellSize(bytes, how) })),
  ),
);
const filesLimits = nonEmptyLimits(limits(fc.nat({ max: 10_000_000 }).map((n) => ({ bytes: n, spelled: n }))));
const userMapping = fc.oneof(fc.boolean(), fc.constantFrom("on" as const, "off" as const));

/**
 * Quota-rule POST bodies that `quotaRule.encodePost` accepts, by type: every rule has `svm`,
 * `volume` and `qtree.name` (`""` = volume level); a user rule has `users` (the default
 * `[{name: ""}]`, or 1..3 distinct users each by name or by id, never both) and maybe
 * `user_mapping` (boolean or `"on"`/`"off"`); a group rule has `group` (`{name: ""}` for the
 * default, else name and/or id); a tree rule has neither. Optional `space` limits (Sizes or -1)
 * and `files` limits (counts or -1), each object with at least one limit, soft ≤ hard when both
 * are set. With targets the volume is online, belongs to the SVM named, and the qtree exists in it.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { quotaRule } from "clusterwire/storage";
 * import { arbQuotaRulePost } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbQuotaRulePost(), (input) => typeof quotaRule.encodePost(input) === "object"));
 * ```
 */
export function arbQuotaRulePost(options: StorageBodyOptions = {}): fc.Arbitrary<QuotaRulePostInput> {
  const t = options.targets;
  const where =
    t === undefined
      ? fc
          .tuple(arbStorageReference(), arbStorageReference(), maybe(arbStorageName()))
          .map(([svm, volume, qtree]) => ({ svm, volume, qtree: qtree ?? "" }))
      : fc
          .tuple(
            fc.constantFrom(
              ...need(
                targetVolumes(t).filter((v) => v.online),
                "online volume",
                "arbQuotaRulePost",
              ),
            ),
            fc.constantFrom(...REF_FORMS),
            fc.constantFrom(...REF_FORMS),
            fc.nat(),
          )
          .map(([v, svmForm, volForm, q]) => ({
            svm: refTo(v.svm, svmForm),
            volume: refTo(v, volForm),
            qtree: q % (v.qtrees.length + 1) === 0 ? "" : (v.qtrees[(q % (v.qtrees.length + 1)) - 1] as string),
          }));
  const users = fc.oneof(
    fc.constant(null).map((): QuotaUserInput[] => [{ name: "" }]),
    fc.uniqueArray(quotaUser, { minLength: 1, maxLength: 3, selector: (u) => JSON.stringify(u) }),
  );
  const group = fc.oneof(
    fc.constant(null).map(() => ({ name: "" })),
    some({
      name: fc.constantFrom("staff", "eng", "wheel", "finance"),
      id: fc.integer({ min: 0, max: 65_534 }).map(String),
    }).map((g) => (isEmpty(g) ? { name: "staff" } : g)),
  );
  return fc
    .tuple(
      fc.constantFrom(...QUOTA_RULE_TYPES),
      where,
      users,
      group,
      some({ space: spaceLimits, files: filesLimits }),
      maybe(userMapping),
    )
    .map(([type, w, us, g, lim, mapping]): QuotaRulePostInput => {
      const common = { svm: w.svm, volume: w.volume, qtree: { name: w.qtree }, ...lim };
      switch (type) {
        case "tree":
          return { ...common, type };
        case "group":
          return { ...common, type, group: g };
        case "user":
          return { ...common, type, users: us, ...(mapping === undefined ? {} : { user_mapping: mapping }) };
      }
      throw new Error(`unknown quota rule type ${JSON.stringify(type satisfies never)}`);
    });
}

/**
 * Quota-rule PATCH bodies that `quotaRule.encodePatch` accepts: at least one of `space` and
 * `files` limits (soft ≤ hard when both are set, -1 clears) and, unless `type` is `tree` or
 * `group`, `user_mapping`.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { quotaRule } from "clusterwire/storage";
 * import { arbQuotaRulePatch } from "clusterwire/testing";
 *
 * fc.assert(fc.property(arbQuotaRulePatch(), (input) => typeof quotaRule.encodePatch(input) === "object"));
 * ```
 */
export function arbQuotaRulePatch(options: { readonly type?: QuotaRuleType } = {}): fc.Arbitrary<QuotaRulePatchInput> {
  const mapping = options.type === undefined || options.type === "user";
  const base = some({ space: spaceLimits, files: filesLimits });
  const body = mapping
    ? fc.tuple(base, maybe(userMapping)).map(([b, m]) => (m === undefined ? b : { ...b, user_mapping: m }))
    : base;
  return body.map((b): QuotaRulePatchInput => (isEmpty(b) ? { files: { hard_limit: QUOTA_UNLIMITED } } : b));
}

/**
 * Quota rules as a server returns them: `uuid` always; `type` with its target (`users` on user
 * rules, each a name or an id; `group` on group rules; neither on tree rules), `qtree`
 * (`{name: ""}` or absent at volume level, else name and id), `space` limits ≥ 1024 bytes and `files`
 * limits ≥ 0 with soft ≤ hard, `user_mapping` on user rules only. `quotaRule.decode` returns
 * each value unchanged.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbQuotaRuleModel } from "clusterwire/testing";
 *
 * console.log(fc.sample(arbQuotaRuleModel({ newerServer: true }), 2));
 * ```
 */
export function arbQuotaRuleModel(o: StorageModelOptions = {}): fc.Arbitrary<QuotaRule> {
  const ordered = (value: fc.Arbitrary<number>) =>
    some({ hard_limit: value, soft_limit: value }).map(({ hard_limit: h, soft_limit: s }) =>
      h !== undefined && s !== undefined && s > h
        ? { hard_limit: s, soft_limit: h }
        : { ...(h === undefined ? {} : { hard_limit: h }), ...(s === undefined ? {} : { soft_limit: s }) },
    );
  const rule = fc
    .tuple(
      arbStorageUuid(),
      enumOf(QUOTA_RULE_TYPES, o),
      maybe(fc.tuple(arbStorageName(), fc.integer({ min: 1, max: 30 }))),
      fc.uniqueArray(
        fc.oneof(
          userName.map((name) => ({ name })),
          userId.map((id) => ({ id })),
        ),
        { minLength: 1, maxLength: 3, selector: (u) => JSON.stringify(u) },
      ),
      some({ name: fc.constantFrom("", "staff", "eng"), id: fc.integer({ min: 0, max: 65_534 }).map(String) }),
      some({
        svm: modelRef(SVMS),
        volume: modelRef(VOLUMES),
        space: ordered(arbStorageSize({ min: KiB, max: 10 * TiB })),
        files: ordered(fc.nat({ max: 10_000_000 })),
      }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(
      ([uuid, type, qtree, users, group, rest, mapping, volumeLevelShown]): QuotaRule => ({
        uuid,
        ...rest,
        type,
        // "In reads of a volume-level rule it may be absent."
        ...(qtree !== undefined
          ? { qtree: { id: qtree[1], name: qtree[0] } }
          : volumeLevelShown
            ? { qtree: { name: "" } }
            : {}),
        ...(type === "user" ? { users, user_mapping: mapping } : {}),
        ...(type === "group" ? { group: isEmpty(group) ? { name: "" } : group } : {}),
        _links: selfLink(`${QUOTA_RULES}/${uuid}`),
      }),
    );
  return withNewer(halOrPlain(rule), o);
}
