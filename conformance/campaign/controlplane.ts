// The control plane of scripts/controlplane.mjs, loaded from the repository root at run time:
// this file is compiled into dist/conformance/, where a relative import of scripts/ would not
// resolve.
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { repoRoot } from "../../bench/fixtures.js";

export type ControlPlaneModule = typeof import("../../scripts/controlplane.mjs");

let loaded: Promise<ControlPlaneModule> | undefined;

export function controlPlane(): Promise<ControlPlaneModule> {
  loaded ??= import(pathToFileURL(join(repoRoot(), "scripts", "controlplane.mjs")).href) as Promise<ControlPlaneModule>;
  return loaded;
}

export { repoRoot };
