// Shared helpers of the storage codec tests.

import { expect } from "vitest";
import { StorageCodecError } from "../../../src/storage/index.js";

/** Runs `fn`, expects a StorageCodecError and returns it. */
export function codecError(fn: () => unknown): StorageCodecError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StorageCodecError);
    return error as StorageCodecError;
  }
  throw new Error("expected a StorageCodecError, nothing was thrown");
}

/** Expects `fn` to throw a StorageCodecError at `path` whose reason matches `reason`. */
export function expectCodecError(fn: () => unknown, path: string, reason?: RegExp): StorageCodecError {
  const error = codecError(fn);
  expect(error.path).toBe(path);
  if (reason !== undefined) expect(error.reason).toMatch(reason);
  expect(error.message).toBe(path === "" ? error.reason : `${path}: ${error.reason}`);
  return error;
}

/** Untyped input, to feed the codecs what a JavaScript caller or a server might. */
export const raw = <T>(value: unknown): T => value as T;
