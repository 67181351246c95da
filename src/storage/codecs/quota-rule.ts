// Quota rules: /api/storage/quota/rules.

import type { ReferenceInput, SizeInput } from "./common.js";
import { StorageCodecError } from "./errors.js";
import {
  arr,
  bool,
  decodeBody,
  encodeBody,
  enm,
  f,
  has,
  int,
  links,
  obj,
  requireField,
  requireOneOf,
  size,
  sizeWithFloor,
  str,
  type InferModel,
  type JsonObject,
  type JsonValue,
} from "./schema.js";
import { showValue } from "./units.js";

/**
 * The values the API defines for a quota rule's `type`.
 *
 * @example
 * ```ts
 * import { QUOTA_RULE_TYPES, type QuotaRuleType } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (QUOTA_RULE_TYPES as readonly unknown[]).includes(value);
 * const first: QuotaRuleType = QUOTA_RULE_TYPES[0];
 * ```
 */
export const QUOTA_RULE_TYPES = ["tree", "user", "group"] as const;
/**
 * A quota rule's `type`: one of {@link QUOTA_RULE_TYPES}.
 *
 * @example
 * ```ts
 * import { QUOTA_RULE_TYPES, type QuotaRuleType } from "clusterwire/storage";
 *
 * const known = (value: unknown): boolean => (QUOTA_RULE_TYPES as readonly unknown[]).includes(value);
 * const first: QuotaRuleType = QUOTA_RULE_TYPES[0];
 * ```
 */
export type QuotaRuleType = (typeof QUOTA_RULE_TYPES)[number];

/**
 * Smallest space limit the API keeps: values below are rounded up to it.
 *
 * @example
 * ```ts
 * import { QUOTA_MIN_SPACE_LIMIT, quotaRule } from "clusterwire/storage";
 *
 * console.log(quotaRule.encodePatch({ space: { hard_limit: 10 } })); // hard_limit raised to QUOTA_MIN_SPACE_LIMIT (1024)
 * ```
 */
export const QUOTA_MIN_SPACE_LIMIT = 1024;
/**
 * The "no limit" sentinel of `space.*` and `files.*` limits (on PATCH it clears the limit).
 *
 * @example
 * ```ts
 * import { QUOTA_UNLIMITED, quotaRule } from "clusterwire/storage";
 *
 * const body = quotaRule.encodePatch({ files: { hard_limit: QUOTA_UNLIMITED } }); // clears the file limit
 * ```
 */
export const QUOTA_UNLIMITED = -1;

/**
 * A space limit on input: a Size (raised to 1024 when below), or -1 for no limit.
 *
 * @example
 * ```ts
 * import { quotaRule, type QuotaSpaceLimitInput } from "clusterwire/storage";
 *
 * const limit: QuotaSpaceLimitInput = "500M";
 * const body = quotaRule.encodePatch({ space: { hard_limit: limit } });
 * ```
 */
export type QuotaSpaceLimitInput = SizeInput;
/**
 * A file-count limit on input: a non-negative integer, or -1 for no limit. Not raised.
 *
 * @example
 * ```ts
 * import { type QuotaFilesLimitInput, quotaRule } from "clusterwire/storage";
 *
 * const files: QuotaFilesLimitInput = 100_000;
 * const body = quotaRule.encodePatch({ files: { hard_limit: files } });
 * ```
 */
export type QuotaFilesLimitInput = number;
/**
 * `user_mapping` on input: a boolean, or the string "on" ("off"), sent as true (false).
 *
 * @example
 * ```ts
 * import { quotaRule, type UserMappingInput } from "clusterwire/storage";
 *
 * const mapping: UserMappingInput = "on";
 * console.log(quotaRule.encodePatch({ user_mapping: mapping })); // { user_mapping: true }
 * ```
 */
export type UserMappingInput = boolean | "on" | "off";

/**
 * A hard and a soft limit, as quota rule bodies take them.
 *
 * @example
 * ```ts
 * import { type QuotaLimitsInput, type QuotaSpaceLimitInput } from "clusterwire/storage";
 *
 * const space: QuotaLimitsInput<QuotaSpaceLimitInput> = { hard_limit: "10G", soft_limit: "9G" };
 * ```
 */
export interface QuotaLimitsInput<T> {
  /** The limit writes fail at. */
  hard_limit?: T;
  /** The limit past which a warning is raised. */
  soft_limit?: T;
}

/**
 * One target of a user rule: a name or an id (a numeric user id or a SID), not both.
 *
 * @example
 * ```ts
 * import { quotaRule, type QuotaUserInput } from "clusterwire/storage";
 *
 * const users: QuotaUserInput[] = [{ name: "alice" }, { id: "1001" }];
 * const body = quotaRule.encodePost({ svm: { name: "svm1" }, volume: { name: "vol1" }, type: "user", qtree: { name: "" }, users });
 * ```
 */
export type QuotaUserInput = { name: string; id?: undefined } | { id: string; name?: undefined };

/**
 * The body of a quota rule creation (POST), as {@link quotaRule}.encodePost takes it.
 *
 * @example
 * ```ts
 * import { quotaRule, type QuotaRulePostInput } from "clusterwire/storage";
 *
 * const input: QuotaRulePostInput = { svm: { name: "svm1" }, volume: { name: "vol1" }, type: "tree", qtree: { name: "q1" }, space: { hard_limit: "10G", soft_limit: "8G" } };
 * const body = quotaRule.encodePost(input);
 * ```
 */
export interface QuotaRulePostInput {
  /** The SVM of the volume. */
  svm: ReferenceInput;
  /** The volume the rule applies in. */
  volume: ReferenceInput;
  /** Whether the rule limits a qtree, a user or a group. */
  type: QuotaRuleType;
  /** `name` required; `""` is the volume level (default tree rule). */
  qtree: { name: string };
  /** User rules only (required there). */
  users?: QuotaUserInput[];
  /** Group rules only (required there). */
  group?: { name?: string; id?: string };
  /** Space limits: Sizes, or -1 for none. */
  space?: QuotaLimitsInput<QuotaSpaceLimitInput>;
  /** File-count limits, or -1 for none. */
  files?: QuotaLimitsInput<QuotaFilesLimitInput>;
  /** User rules only. */
  user_mapping?: UserMappingInput;
}

/**
 * The body of a quota rule change (PATCH), as {@link quotaRule}.encodePatch takes it.
 *
 * @example
 * ```ts
 * import { QUOTA_UNLIMITED, quotaRule, type QuotaRulePatchInput } from "clusterwire/storage";
 *
 * const patch: QuotaRulePatchInput = { space: { hard_limit: "20G", soft_limit: QUOTA_UNLIMITED } };
 * const body = quotaRule.encodePatch(patch);
 * ```
 */
export interface QuotaRulePatchInput {
  /** New space limits; -1 clears one. */
  space?: QuotaLimitsInput<QuotaSpaceLimitInput>;
  /** New file-count limits; -1 clears one. */
  files?: QuotaLimitsInput<QuotaFilesLimitInput>;
  /** User rules only: whether to map users. */
  user_mapping?: UserMappingInput;
}

/** A user identifier: a numeric user id, or a security identifier (`S-1-5-21-…`). */
const USER_ID = /^(?:[0-9]+|S-1-[0-9]+(?:-[0-9]+)+)$/;

/**
 * The spec's rules for the targets of a user rule: "an identifier is a numeric user id or a
 * security identifier"; several users may be "separated by commas" in one name (an unquoted
 * name with commas names several users, none of them empty); "a default rule uses the empty
 * string as name", so the empty name cannot be one of several users.
 */
function checkUsers(users: JsonValue[]): void {
  let count = 0;
  let hasDefault = false;
  users.forEach((u, i) => {
    const user = u as JsonObject;
    const name = user["name"];
    const id = user["id"];
    if (typeof id === "string") {
      if (!USER_ID.test(id))
        throw new StorageCodecError(
          `users[${i}].id`,
          `must be a numeric user id or a security identifier (S-1-…), got ${showValue(id)}`,
        );
      count++;
    } else if (typeof name === "string" && !name.startsWith('"') && name.includes(",")) {
      for (const part of name.split(",")) {
        if (part.trim() === "")
          throw new StorageCodecError(`users[${i}].name`, "holds an empty user name between commas");
        count++;
      }
    } else {
      if (name === "") hasDefault = true;
      count++;
    }
  });
  if (hasDefault && count > 1)
    throw new StorageCodecError("users", "the empty name (the default user rule) cannot be one of several users");
}

function encodeFilesLimit(value: unknown, path: string): JsonValue {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < QUOTA_UNLIMITED) {
    throw new StorageCodecError(
      path,
      `must be a non-negative integer file count or -1 (no limit), got ${showValue(value)}`,
    );
  }
  return value;
}

function encodeUserMapping(value: unknown, path: string): JsonValue {
  if (typeof value === "boolean") return value;
  if (value === "on") return true;
  if (value === "off") return false;
  throw new StorageCodecError(path, `must be a boolean or "on"/"off", got ${showValue(value)}`);
}

const spaceLimit = sizeWithFloor(QUOTA_MIN_SPACE_LIMIT, true);
const ref = obj({ uuid: str, name: str, _links: f("G", links) });

/** The schema (exported for type-level tests; not part of the public surface). */
export const schema = obj({
  uuid: f("G", str),
  svm: f("GP", ref),
  volume: f("GP", ref),
  type: f("GP", enm(QUOTA_RULE_TYPES)),
  qtree: f("GP", obj({ id: f("G", int()), name: str, _links: f("G", links) })),
  users: f("GP", arr(obj({ name: str, id: str }))),
  group: f("GP", obj({ name: str, id: str })),
  space: f(
    "GPU",
    obj({ hard_limit: f("GPU", size, { encode: spaceLimit }), soft_limit: f("GPU", size, { encode: spaceLimit }) }),
  ),
  files: f(
    "GPU",
    obj({
      hard_limit: f("GPU", int(), { encode: encodeFilesLimit }),
      soft_limit: f("GPU", int(), { encode: encodeFilesLimit }),
    }),
  ),
  user_mapping: f("GPU", bool, { encode: encodeUserMapping }),
  _links: f("G", links),
});

/**
 * A quota rule as the API returns it, inferred from the schema. `space.*` limits are bytes and `files.*` counts; -1 = no limit.
 *
 * @example
 * ```ts
 * import { type QuotaRule, type StorageClient } from "clusterwire/storage";
 *
 * const limits = async (client: StorageClient): Promise<QuotaRule[]> => client.quotaRules.all({ fields: "space,files", type: "tree" });
 * ```
 */
export type QuotaRule = InferModel<typeof schema>;

/**
 * The codec of quota rules: decodes records and encodes POST and PATCH bodies, checking each field.
 *
 * @example
 * ```ts
 * import { quotaRule } from "clusterwire/storage";
 *
 * const body = quotaRule.encodePost({ svm: { name: "svm1" }, volume: { name: "vol1" }, type: "tree", qtree: { name: "q1" }, space: { hard_limit: "10G", soft_limit: "8G" } });
 * console.log(body["space"]); // { hard_limit: 10737418240, soft_limit: 8589934592 }
 * ```
 */
export const quotaRule = {
  /** A quota rule record. Space limits are bytes, files limits counts; -1 = no limit. */
  decode(json: unknown): QuotaRule {
    const rule = decodeBody(schema, json);
    return rule;
  },
  /**
   * POST body. Requires `svm`, `volume`, `type` and `qtree.name`; a user rule needs
   * `users`, a group rule `group`; a tree rule must have neither; `users` and
   * `user_mapping` are for user rules only. Space limits below 1024 become 1024
   * (-1 passes through); files limits are sent as given.
   */
  encodePost(input: QuotaRulePostInput): JsonObject {
    const body = encodeBody(schema, input, "POST");
    requireField(body, "svm");
    requireOneOf(body, "svm", ["uuid", "name"]);
    requireField(body, "volume");
    requireOneOf(body, "volume", ["uuid", "name"]);
    requireField(body, "type");
    requireField(body, "qtree.name", 'is required ("" for the volume level)');
    const type = body["type"] as QuotaRuleType;
    const users = body["users"];
    if (Array.isArray(users)) {
      users.forEach((u, i) => {
        const user = u as JsonObject;
        const hasName = user["name"] !== undefined;
        const hasId = user["id"] !== undefined;
        if (hasName && hasId) throw new StorageCodecError(`users[${i}]`, "holds a name or an id, not both");
        if (!hasName && !hasId) throw new StorageCodecError(`users[${i}]`, "needs a name or an id");
      });
      checkUsers(users);
    }
    if (has(body, "group") && !has(body, "group.name") && !has(body, "group.id")) {
      throw new StorageCodecError("group", "`group.name` or `group.id` is required");
    }
    if (type === "user") {
      if (!Array.isArray(users) || users.length === 0) {
        throw new StorageCodecError("users", "is required for a user rule (at least one user)");
      }
    } else {
      if (users !== undefined)
        throw new StorageCodecError("users", `is valid only on a user rule, not on a ${type} rule`);
      if (has(body, "user_mapping")) {
        throw new StorageCodecError("user_mapping", `is valid only on a user rule, not on a ${type} rule`);
      }
    }
    if (type === "group") requireField(body, "group", "is required for a group rule");
    if (type === "tree" && has(body, "group")) throw new StorageCodecError("group", "must not be given on a tree rule");
    return body;
  },
  /** PATCH body: `space`, `files`, `user_mapping` (same conversions as POST). */
  encodePatch(input: QuotaRulePatchInput): JsonObject {
    return encodeBody(schema, input, "PATCH");
  },
} as const;
