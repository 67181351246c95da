// Tests that need a program beside Node (openssl, to make TLS certificates) and cannot find it.
// On a developer's machine such a test is skipped, with the reason in the report
// (`↓ ... [needs openssl: ...]`). Under CI (the CI variable set, as every CI service and .ci/run
// do) it fails instead: CI must run every test, so a tool missing there is a broken environment,
// not a reason to pass. Chromium has its own rule (scripts/ensure-chromium.mjs); the control-plane
// tests skip without built binaries by design (CONTRIBUTING.md).
import { beforeEach } from "vitest";

/** True when the CI variable is set to anything but "", "0" or "false". */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env["CI"];
  return v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
}

/** The part of a test context this needs: vitest's `skip(note)`. */
export interface Skippable {
  skip(note?: string): never;
}

/**
 * Ends a test that cannot run because `tool` is missing or failed (`problem` says how): skips it
 * with the reason, or, under CI, throws an Error naming the tool, so the test fails.
 */
export function skipWithout(
  ctx: Skippable,
  tool: string,
  problem: string,
  env: NodeJS.ProcessEnv = process.env,
): never {
  if (inCi(env)) {
    throw new Error(`this test needs ${tool}, and ${problem}; CI is set, so it fails instead of being skipped`);
  }
  return ctx.skip(`needs ${tool}: ${problem}`);
}

/**
 * In a describe block: before each of its tests, `problem()` says whether `tool` is missing (a
 * reason) or not (undefined); each test is then skipped, or under CI failed, as by
 * {@link skipWithout}.
 */
export function eachNeeds(tool: string, problem: () => string | undefined): void {
  beforeEach((ctx) => {
    const p = problem();
    if (p !== undefined) skipWithout(ctx, tool, p);
  });
}
