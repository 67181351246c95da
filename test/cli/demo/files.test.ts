// Which of a section's files the demo directory holds: the routes and reach sections run only when some do.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { present } from "../../../src/cli/demo/files.js";
import { memorySink, tempTrees } from "../../support/cli/validate.js";

const tree = tempTrees("demo-files");

describe("present", () => {
  const dir = tree({ "demo/expected.yaml": "", "clusters/shop.yaml": "" });
  const io = (cwd: string) => ({ stdout: memorySink(false), stderr: memorySink(false), cwd });

  it("lists the files that exist under the directory, in the order asked, relative to io.cwd", async () => {
    const files = ["clusters/shop.yaml", "demo/missing.yaml", "demo/expected.yaml"];
    expect(await present(io(dir), ".", files)).toEqual(["clusters/shop.yaml", "demo/expected.yaml"]);
    expect(await present(io(join(dir, "demo")), "..", files)).toEqual(["clusters/shop.yaml", "demo/expected.yaml"]);
    expect(await present(io("/"), dir, ["demo"])).toEqual(["demo"]);
  });

  it("is undefined when none exists, or none is asked for", async () => {
    expect(await present(io(dir), ".", ["a.yaml", "demo/b.yaml"])).toBeUndefined();
    expect(await present(io(dir), "no-such-dir", ["demo/expected.yaml"])).toBeUndefined();
    expect(await present(io(dir), ".", [])).toBeUndefined();
  });
});
