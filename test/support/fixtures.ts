import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { nonEmpty } from "./non-empty.js";

/** The upstream round-trip fixtures, read directly from ../shared. */
export const FIXTURE_ROOT = fileURLToPath(new URL("../../../shared/testdata/k8s-api/", import.meta.url));

export interface Fixture {
  readonly folder: string;
  readonly kind: string;
  readonly pb: Uint8Array;
  readonly json: string;
  readonly yaml: string;
  /** The after_roundtrip files, where upstream has them. */
  readonly after?: { readonly pb?: Uint8Array; readonly json?: string; readonly yaml?: string };
}

const NAME = /^networking\.k8s\.io\.v1\.([A-Za-z]+)\.pb$/;

/** The fixture folders (HEAD and one per release); throws when fewer than ten are there. */
export function fixtureFolders(): string[] {
  return nonEmpty(
    readdirSync(FIXTURE_ROOT, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort(),
    `fixture folders in ${FIXTURE_ROOT}`,
    10,
  );
}

/** The fixtures of one folder, by kind; throws when the folder has none. */
export function loadFixtures(folder: string): Fixture[] {
  const dir = `${FIXTURE_ROOT}${folder}/`;
  const out: Fixture[] = [];
  for (const file of readdirSync(dir).sort()) {
    const m = NAME.exec(file);
    if (m === null) continue;
    const kind = m[1] as string;
    const base = `${dir}networking.k8s.io.v1.${kind}`;
    const after: { pb?: Uint8Array; json?: string; yaml?: string } = {};
    if (existsSync(`${base}.after_roundtrip.pb`)) after.pb = new Uint8Array(readFileSync(`${base}.after_roundtrip.pb`));
    if (existsSync(`${base}.after_roundtrip.json`)) after.json = readFileSync(`${base}.after_roundtrip.json`, "utf8");
    if (existsSync(`${base}.after_roundtrip.yaml`)) after.yaml = readFileSync(`${base}.after_roundtrip.yaml`, "utf8");
    out.push({
      folder,
      kind,
      pb: new Uint8Array(readFileSync(`${base}.pb`)),
      json: readFileSync(`${base}.json`, "utf8"),
      yaml: readFileSync(`${base}.yaml`, "utf8"),
      ...(Object.keys(after).length > 0 ? { after } : {}),
    });
  }
  return nonEmpty(out, `fixtures (networking.k8s.io.v1.<Kind>.pb) in ${dir}`);
}

/** Folders whose files must round-trip byte for byte with current code (v1.30.0 up to HEAD). */
export function currentFolders(): string[] {
  return fixtureFolders().filter((f) => f === "HEAD" || versionAtLeast(f, [1, 30, 0]));
}

function versionAtLeast(folder: string, min: [number, number, number]): boolean {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(folder);
  if (m === null) return false;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) {
    const have = v[i] as number;
    const want = min[i] as number;
    if (have !== want) return have > want;
  }
  return true;
}
