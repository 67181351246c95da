// The error-code tables of the API definition: cluster error codes of the
// software package download / upload and package delete operations, with their
// meanings. Codes are integers here; the error body carries them as decimal
// strings ("10551807") and jobs as integers — `describeErrorCode` takes both.

/**
 * Package download and upload error codes (both operations).
 *
 * @example
 * ```ts
 * import { PACKAGE_TRANSFER_ERRORS, type PackageTransferErrorName } from "clusterwire/storage";
 *
 * for (const name of Object.keys(PACKAGE_TRANSFER_ERRORS) as PackageTransferErrorName[]) console.log(PACKAGE_TRANSFER_ERRORS[name].code, name);
 * ```
 */
export const PACKAGE_TRANSFER_ERRORS = {
  REMOTE_ZIP_ACCESS_FAILED: { code: 2228324, meaning: "Failed to access the remote zip file on the node." },
  LOCAL_STAGING_OPEN_FAILED: { code: 2228325, meaning: "Cannot open the local staging zip file." },
  LOCAL_STAGING_COPY_FAILED: { code: 2228326, meaning: "Copy to local staging failed." },
  FIRMWARE_FILE_EXISTS: { code: 2228327, meaning: "Firmware file already exists." },
  FIRMWARE_UPDATE_FAILED: { code: 2228328, meaning: "Firmware update of the node failed." },
  WORKER_START_FAILED: { code: 2228329, meaning: "Attempt to start the worker on the node failed." },
  FIRMWARE_FILE_MISSING: { code: 2228330, meaning: "Uploaded firmware file is not present." },
  WEB_SERVER_COPY_FAILED: { code: 2228331, meaning: "Copy of the file from the web server failed." },
  FIRMWARE_UPDATE_COMPLETED_WITH_ERRORS: { code: 2228428, meaning: "Firmware update completed with errors." },
  FIRMWARE_UPDATE_COMPLETED: { code: 2228429, meaning: "Firmware update completed." },
  UPLOAD_ENABLED_CHECK_FAILED: {
    code: 10551797,
    meaning: "Internal error: failed to check whether file upload is enabled.",
  },
} as const;

/**
 * Error codes of the package upload only.
 *
 * @example
 * ```ts
 * import { PACKAGE_UPLOAD_ERRORS, type PackageUploadErrorName } from "clusterwire/storage";
 *
 * for (const name of Object.keys(PACKAGE_UPLOAD_ERRORS) as PackageUploadErrorName[]) console.log(PACKAGE_UPLOAD_ERRORS[name].code, name);
 * ```
 */
export const PACKAGE_UPLOAD_ERRORS = {
  UPLOAD_DISABLED: {
    code: 10551798,
    meaning: "File upload is disabled; it is enabled by a web-services configuration setting.",
  },
  UPLOAD_PERMISSION_DENIED: { code: 10551800, meaning: "Internal error: access permissions restrict file upload." },
  UPLOAD_IO_ERROR: { code: 10551801, meaning: "Internal error: read/write error while uploading." },
  INVALID_FILE_HANDLE_ARGUMENT: { code: 10551802, meaning: "Invalid argument when creating a file handle." },
  UPLOAD_UNKNOWN_ERROR: { code: 10551803, meaning: "Unknown error; retry the upload." },
  UPLOAD_INSUFFICIENT_SPACE: { code: 10551804, meaning: "Insufficient space in the upload directory." },
  UPLOAD_DIRECTORY_SETUP_ERROR: { code: 10551805, meaning: "Internal error in the isolated web directory setup." },
  UPLOAD_WRITE_FAILED: { code: 10551806, meaning: "Internal error: failed to write to a file in that directory." },
  MULTIPLE_FILES: {
    code: 10551807,
    meaning: "The request contains more than one file; only a single file is supported.",
  },
} as const;

/**
 * Error codes of the package delete.
 *
 * @example
 * ```ts
 * import { PACKAGE_DELETE_ERRORS, type PackageDeleteErrorName } from "clusterwire/storage";
 *
 * for (const name of Object.keys(PACKAGE_DELETE_ERRORS) as PackageDeleteErrorName[]) console.log(PACKAGE_DELETE_ERRORS[name].code, name);
 * ```
 */
export const PACKAGE_DELETE_ERRORS = {
  PACKAGE_STORE_EMPTY: { code: 10551315, meaning: "Package store is empty." },
  CLEANUP_STATUS_ERROR: { code: 10551322, meaning: "Error retrieving package cleanup status." },
  CLEANUP_NODE_ERROR: { code: 10551323, meaning: "Error cleaning up package information on a node." },
  CLEANUP_BOTH_NODES_ERROR: { code: 10551324, meaning: "Error cleaning up package information on both nodes." },
  PACKAGE_NOT_FOUND: { code: 10551325, meaning: "Package does not exist on the system." },
  CLEANUP_TASK_DELETE_ERROR: { code: 10551326, meaning: "Error deleting older package cleanup tasks." },
  VALIDATION_IN_PROGRESS: { code: 10551346, meaning: "Delete failed because a validation is in progress." },
  UPDATE_IN_PROGRESS: { code: 10551347, meaning: "Delete failed because an update is in progress." },
  SYNC_IN_PROGRESS: { code: 10551367, meaning: "A package synchronization is in progress." },
  DELETE_TIMED_OUT: { code: 10551388, meaning: "Package delete operation timed out." },
} as const;

/**
 * Which spec table a code comes from.
 *
 * @example
 * ```ts
 * import { type StorageErrorTable, describeErrorCode } from "clusterwire/storage";
 *
 * const table: StorageErrorTable | undefined = describeErrorCode("10551807")?.table;
 * ```
 */
export type StorageErrorTable = "package_transfer" | "package_upload" | "package_delete";

/**
 * The name of a code in {@link PACKAGE_TRANSFER_ERRORS}.
 *
 * @example
 * ```ts
 * import { PACKAGE_TRANSFER_ERRORS, type PackageTransferErrorName } from "clusterwire/storage";
 *
 * for (const name of Object.keys(PACKAGE_TRANSFER_ERRORS) as PackageTransferErrorName[]) console.log(PACKAGE_TRANSFER_ERRORS[name].code, name);
 * ```
 */
export type PackageTransferErrorName = keyof typeof PACKAGE_TRANSFER_ERRORS;
/**
 * The name of a code in {@link PACKAGE_UPLOAD_ERRORS}.
 *
 * @example
 * ```ts
 * import { PACKAGE_UPLOAD_ERRORS, type PackageUploadErrorName } from "clusterwire/storage";
 *
 * for (const name of Object.keys(PACKAGE_UPLOAD_ERRORS) as PackageUploadErrorName[]) console.log(PACKAGE_UPLOAD_ERRORS[name].code, name);
 * ```
 */
export type PackageUploadErrorName = keyof typeof PACKAGE_UPLOAD_ERRORS;
/**
 * The name of a code in {@link PACKAGE_DELETE_ERRORS}.
 *
 * @example
 * ```ts
 * import { PACKAGE_DELETE_ERRORS, type PackageDeleteErrorName } from "clusterwire/storage";
 *
 * for (const name of Object.keys(PACKAGE_DELETE_ERRORS) as PackageDeleteErrorName[]) console.log(PACKAGE_DELETE_ERRORS[name].code, name);
 * ```
 */
export type PackageDeleteErrorName = keyof typeof PACKAGE_DELETE_ERRORS;
/**
 * The name of a code in any of the three error tables.
 *
 * @example
 * ```ts
 * import { type StorageErrorName, describeErrorCode } from "clusterwire/storage";
 *
 * const name: StorageErrorName | undefined = describeErrorCode("10551807")?.name;
 * ```
 */
export type StorageErrorName = PackageTransferErrorName | PackageUploadErrorName | PackageDeleteErrorName;

/**
 * Every code of the three tables, e.g. `10551807`.
 *
 * @example
 * ```ts
 * import { type StorageErrorCode, describeErrorCode } from "clusterwire/storage";
 *
 * const code: StorageErrorCode | undefined = describeErrorCode(10551807)?.code;
 * ```
 */
export type StorageErrorCode =
  | (typeof PACKAGE_TRANSFER_ERRORS)[PackageTransferErrorName]["code"]
  | (typeof PACKAGE_UPLOAD_ERRORS)[PackageUploadErrorName]["code"]
  | (typeof PACKAGE_DELETE_ERRORS)[PackageDeleteErrorName]["code"];

/**
 * One row of a spec error table.
 *
 * @example
 * ```ts
 * import { type StorageErrorCodeInfo, describeErrorCode } from "clusterwire/storage";
 *
 * const info: StorageErrorCodeInfo | undefined = describeErrorCode(10551807);
 * console.log(info?.code, info?.name, info?.table);
 * ```
 */
export interface StorageErrorCodeInfo {
  /** The numeric code. */
  readonly code: StorageErrorCode;
  /** The code's name in its table. */
  readonly name: StorageErrorName;
  /** What the code means. */
  readonly meaning: string;
  /** Which table the code is from. */
  readonly table: StorageErrorTable;
}

/**
 * All rows of the three tables, in spec order, keyed by numeric code.
 *
 * @example
 * ```ts
 * import { STORAGE_ERROR_CODES } from "clusterwire/storage";
 *
 * for (const [code, info] of STORAGE_ERROR_CODES) console.log(code, info.name);
 * ```
 */
export const STORAGE_ERROR_CODES: ReadonlyMap<number, StorageErrorCodeInfo> = (() => {
  const map = new Map<number, StorageErrorCodeInfo>();
  const add = (table: StorageErrorTable, rows: Record<string, { code: number; meaning: string }>): void => {
    for (const [name, row] of Object.entries(rows)) {
      map.set(
        row.code,
        Object.freeze({
          code: row.code as StorageErrorCode,
          name: name as StorageErrorName,
          meaning: row.meaning,
          table,
        }),
      );
    }
  };
  add("package_transfer", PACKAGE_TRANSFER_ERRORS);
  add("package_upload", PACKAGE_UPLOAD_ERRORS);
  add("package_delete", PACKAGE_DELETE_ERRORS);
  return map;
})();

/**
 * The table row of a code from any of the three tables, or undefined. Accepts the
 * integer form (jobs) and the decimal-string form (error bodies: `"10551807"`).
 *
 * @example
 * ```ts
 * import { describeErrorCode } from "clusterwire/storage";
 *
 * const info = describeErrorCode("10551807");
 * if (info) console.log(info.name, info.table, info.meaning);
 * ```
 */
export function describeErrorCode(code: number | string): StorageErrorCodeInfo | undefined {
  const n = typeof code === "number" ? code : /^[0-9]{1,15}$/.test(code) ? Number(code) : Number.NaN;
  return STORAGE_ERROR_CODES.get(n);
}
