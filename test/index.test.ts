// The root entry point (src/index.ts): `clusterwire` has no exports of its own. Importing it
// throws an Error that names every entry point, and those are exactly the package's exports.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const exportsField = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    exports: Record<string, unknown>;
  }
).exports;

/** The package's entry points as `import` names them: every export but the root and package.json. */
const ENTRY_POINTS = Object.keys(exportsField)
  .filter((k) => k !== "." && k !== "./package.json")
  .map((k) => `clusterwire/${k.slice(2)}`);

async function rootImportError(): Promise<Error> {
  try {
    await import("../src/index.js");
  } catch (e) {
    if (e instanceof Error) return e;
    throw new Error(`importing the root threw a non-Error: ${String(e)}`);
  }
  throw new Error("importing the root entry point did not throw");
}

describe("clusterwire (the root entry point)", () => {
  it("throws a plain Error on import, saying there is no root export", async () => {
    const e = await rootImportError();
    expect(e.constructor).toBe(Error);
    expect(e.message).toMatch(/^clusterwire has no root export; import one of its entry points instead: /);
  });

  it("lists exactly the package's entry points, in the order package.json gives them", async () => {
    expect(ENTRY_POINTS.length).toBeGreaterThanOrEqual(6);
    const { message } = await rootImportError();
    const listed = /instead: (.*) \(for example/.exec(message)?.[1]?.split(", ");
    expect(listed).toEqual(ENTRY_POINTS);
  });

  it("gives an example that names a real export of a listed entry point", async () => {
    const { message } = await rootImportError();
    const m = /import \{ (\w+) \} from "(clusterwire\/[\w/]+)"/.exec(message);
    expect(m?.slice(1)).toEqual(["decode", "clusterwire/networking"]);
    expect(ENTRY_POINTS).toContain(m?.[2]);
    // The example's name is a function of that entry point (read from its source, not loaded).
    const source = readFileSync(new URL("../src/networking/index.ts", import.meta.url), "utf8");
    expect(source).toMatch(/^export \{ decode, /m);
  });

  it("is what package.json's root export points at, once compiled", () => {
    const root = exportsField["."] as { types: string; default: string };
    expect(root).toEqual({ types: "./dist/src/index.d.ts", default: "./dist/src/index.js" });
  });
});
