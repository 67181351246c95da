import { expect } from "vitest";
import { DecodeError, EncodeError } from "../../src/networking/index.js";

/** Runs `f` and returns the DecodeError it throws (fails on anything else). */
export function decodeError(f: () => unknown): DecodeError {
  let thrown: unknown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  if (thrown === undefined) throw new Error("expected a DecodeError, but nothing was thrown");
  if (!(thrown instanceof DecodeError)) {
    throw new Error(
      `expected a DecodeError, got ${String(thrown)}${thrown instanceof Error ? `\n${thrown.stack}` : ""}`,
    );
  }
  expect(thrown.name).toBe("DecodeError");
  expect(thrown).toBeInstanceOf(Error);
  expect(thrown.reason.length).toBeGreaterThan(0);
  expect(thrown.message).toContain(thrown.reason);
  return thrown;
}

export function encodeError(f: () => unknown): EncodeError {
  let thrown: unknown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  if (thrown === undefined) throw new Error("expected an EncodeError, but nothing was thrown");
  if (!(thrown instanceof EncodeError)) throw new Error(`expected an EncodeError, got ${String(thrown)}`);
  expect(thrown.name).toBe("EncodeError");
  expect(thrown.reason.length).toBeGreaterThan(0);
  expect(thrown.message).toBe(thrown.path === "" ? thrown.reason : `${thrown.path}: ${thrown.reason}`);
  return thrown;
}

/** What a decode gave: its value, or every public field of the DecodeError it threw (anything else is rethrown). */
export type DecodeOutcome = { value: unknown } | { error: Record<string, unknown> };

/** Runs `f` and returns its value or its DecodeError's fields, so two decoders' outcomes compare with toEqual. */
export function decodeOutcome(f: () => unknown): DecodeOutcome {
  try {
    return { value: f() };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    const { reason, offset, line, column, path, segments, format } = e;
    return { error: { reason, offset, line, column, path, segments, format, message: e.message } };
  }
}
