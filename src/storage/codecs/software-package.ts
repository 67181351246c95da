import { datetime, decodeBody, f, links, obj, str, type InferModel } from "./schema.js";

const packageSchema = obj({
  version: f("G", str),
  /** Present when the package is read individually. */
  create_time: f("G", datetime),
  _links: f("G", links),
});

/**
 * A software package: `/api/cluster/software/packages/<version>`.
 *
 * @example
 * ```ts
 * import { type SoftwarePackage, type StorageClient } from "clusterwire/storage";
 *
 * const versions = async (client: StorageClient): Promise<(string | undefined)[]> => (await client.software.packages.all()).map((p: SoftwarePackage) => p.version);
 * ```
 */
export type SoftwarePackage = InferModel<typeof packageSchema>;

/**
 * The codec of software package records.
 *
 * @example
 * ```ts
 * import { softwarePackage } from "clusterwire/storage";
 *
 * console.log(softwarePackage.decode({ version: "9.15.1", create_time: "2026-01-01T00:00:00Z" }).version);
 * ```
 */
export const softwarePackage = {
  decode(json: unknown): SoftwarePackage {
    return decodeBody(packageSchema, json);
  },
} as const;
