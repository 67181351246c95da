// SVMs (storage virtual machines): /api/svm/svms and /api/svm/svms/<uuid>, read-only. A
// record is an SVM reference as the API embeds it elsewhere: `uuid`, `name` and `_links`.

import { decodeBody, links, obj, str, type InferModel } from "./schema.js";

const svmSchema = obj({ uuid: str, name: str, _links: links });

/**
 * An SVM record from `GET /api/svm/svms` or `GET /api/svm/svms/<uuid>`: every member
 * optional, as `fields` may leave any out; members the model does not name are kept.
 *
 * @example
 * import type { Svm } from "clusterwire/storage";
 *
 * const svm: Svm = { uuid: "00000000-0000-4000-8000-b00000000001", name: "svm1" };
 */
export type Svm = InferModel<typeof svmSchema>;

/**
 * The SVM codec: decodes a record, checking each member's type (`StorageCodecError` names
 * the member that is wrong). SVMs are read-only here, so there is nothing to encode.
 *
 * @example
 * import { svm } from "clusterwire/storage";
 * svm.decode({ uuid: "00000000-0000-4000-8000-b00000000001", name: "svm1" }).name; // "svm1"
 */
export const svm = {
  /** An SVM record from `GET /api/svm/svms[/<uuid>]`. */
  decode(json: unknown): Svm {
    return decodeBody(svmSchema, json);
  },
} as const;
