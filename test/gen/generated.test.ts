import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PLUGIN_NAME, PLUGIN_VERSION } from "../../plugin/emitter.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

// gen/ is committed and must be exactly what buf and protoc-gen-es produce now;
// the proto definitions must not break the wire or JSON form of the saved image.
describe("proto definitions and generated code", () => {
  it("gen/ is what `buf generate` produces", () => {
    const r = spawnSync(process.execPath, ["scripts/check-generated.mjs"], { cwd: root, encoding: "utf8" });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });

  it("buf lint passes and buf breaking finds no change against buf/image.binpb", () => {
    const buf = (args: string[]) =>
      spawnSync(process.execPath, ["scripts/buf.mjs", ...args], { cwd: root, encoding: "utf8" });
    const lint = buf(["lint"]);
    expect(lint.status, `${lint.stdout}\n${lint.stderr}`).toBe(0);
    const breaking = buf(["breaking", "--against", "buf/image.binpb"]);
    expect(breaking.status, `${breaking.stdout}\n${breaking.stderr}`).toBe(0);
  });

  it("the generated files name the pinned generator version", () => {
    const lacking = (header: string, include: string, exclude?: string) => {
      const args = ["-rL", "--include", include, ...(exclude === undefined ? [] : ["--exclude", exclude])];
      const r = spawnSync("grep", [...args, header, "gen"], { cwd: root, encoding: "utf8" });
      return r.stdout.trim();
    };
    // protoc-gen-es writes *_pb.ts; our own plugin (plugin/) writes everything else.
    expect(lacking("protoc-gen-es v2.17.0", "*_pb.ts"), "files without the pinned generator header").toBe("");
    expect(lacking(`${PLUGIN_NAME} ${PLUGIN_VERSION}`, "*.ts", "*_pb.ts"), "files without our plugin's header").toBe(
      "",
    );
    const ours = spawnSync("grep", ["-rl", PLUGIN_NAME, "gen"], { cwd: root, encoding: "utf8" });
    expect(ours.stdout.trim(), "the plugin generated nothing").not.toBe("");
  });
});
