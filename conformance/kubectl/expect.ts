// What kubectl would print for a document, worked out from what `clusterwire validate -o json`
// says of it. The CLI runs in-process (src/cli/main.ts run()), on the same file kubectl reads.
//
// How kubectl (apply --dry-run=server, its error handling in cmd/util) renders an answer:
// - an accepted object: `<kind lower case>.<group>/<name> created (server dry run)` on stdout,
//   after a `Warning: <text>` line on stderr for each Warning header the server sent;
// - a 422 Invalid Status with causes: `The <details.kind> "<details.name>" is invalid: ` then,
//   with one cause, `<field>: <message>` on the same line, or with several, a `* <field>: <message>`
//   line each;
// - any other Status: `Error from server (<reason>): error when creating "<FILE>": <message>`
//   (`Error from server: ...` when the reason is empty);
// - a body the server cannot decode is a 400 BadRequest whose message is
//   `<Kind> in version "v1" cannot be handled as a <Kind>: <decoder's message>`.
// Exit status 1 when any object failed, else 0.
import type { ManifestVerdict, NetworkingObject } from "../../src/networking/index.js";
import { fromJson, warnings } from "../../src/networking/index.js";
import { run } from "../../src/cli/main.js";
import type { KubernetesVersion } from "../../src/networking/index.js";

/** A command's result as lines: what kubectl printed, or what it is expected to print. */
export interface Printed {
  readonly code: number;
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
}

/** One result of `clusterwire validate -o json` (the fields used here). */
export type JsonVerdict = Pick<ManifestVerdict, "apiVersion" | "kind" | "name" | "status" | "reason" | "response"> & {
  readonly error: { readonly message: string } | null;
  readonly refusals: readonly { readonly code: number; readonly reason: string; readonly message: string }[];
};

/** Runs `clusterwire validate -o json --kubernetes-version V FILE` in-process. */
export async function validateFile(
  path: string,
  version: KubernetesVersion,
): Promise<{ code: number; documents: JsonVerdict[] }> {
  let out = "";
  let err = "";
  const code = await run(["validate", "-o", "json", "--jobs", "1", "--kubernetes-version", version, path], {
    stdout: { write: (c) => (out += typeof c === "string" ? c : Buffer.from(c).toString("utf8")) },
    stderr: { write: (c) => (err += typeof c === "string" ? c : Buffer.from(c).toString("utf8")) },
  });
  if (code === 2) throw new Error(`clusterwire validate ${path}: exit 2: ${err}`);
  return { code, documents: (JSON.parse(out) as { documents: JsonVerdict[] }).documents };
}

interface StatusBody {
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
  readonly details?: {
    readonly kind?: string;
    readonly name?: string;
    readonly causes?: readonly { field?: string; message?: string }[];
  };
}

/** kubectl's lines for a refused create, from the Status the server sends. */
export function statusLines(status: StatusBody, file: string): string[] {
  const causes = status.details?.causes ?? [];
  if (status.reason === "Invalid" && causes.length > 0) {
    const head = `The ${status.details?.kind ?? ""} "${status.details?.name ?? ""}" is invalid: `;
    const text = causes.map((c) => (c.field ? `${c.field}: ${c.message ?? ""}` : (c.message ?? "")));
    return causes.length === 1 ? [`${head}${text[0]}`] : [head, ...text.map((t) => `* ${t}`)];
  }
  const prefix = status.reason ? `Error from server (${status.reason})` : "Error from server";
  return `${prefix}: error when creating "${file}": ${status.message ?? ""}`.split("\n");
}

/** `ingress.networking.k8s.io/web`, as kubectl names an object in its output. */
export function objectLabel(apiVersion: string, kind: string, name: string): string {
  const slash = apiVersion.indexOf("/");
  return `${kind.toLowerCase()}${slash < 0 ? "" : `.${apiVersion.slice(0, slash)}`}/${name}`;
}

/**
 * What kubectl should print for `file`, from clusterwire's verdicts on it; undefined when a
 * verdict is one clusterwire does not judge (a skipped kind: only kubectl's verdict is recorded).
 * `objects` are the decoded networking objects, in verdict order, for their API warnings.
 */
export function expectedPrinted(
  verdicts: readonly JsonVerdict[],
  file: string,
  objects: readonly (NetworkingObject | undefined)[],
): Printed | undefined {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let failed = false;
  for (const [i, v] of verdicts.entries()) {
    if (v.status === "skipped") return undefined;
    if (v.status === "valid") {
      for (const w of objects[i] === undefined ? [] : warnings(objects[i])) stderr.push(`Warning: ${w}`);
      stdout.push(`${objectLabel(v.apiVersion ?? "", v.kind ?? "", v.name ?? "")} created (server dry run)`);
      continue;
    }
    failed = true;
    if (v.status === "invalid") {
      stderr.push(...statusLines((v.response ?? {}) as StatusBody, file));
    } else {
      const kind = v.kind ?? "";
      stderr.push(
        ...statusLines(
          {
            reason: "BadRequest",
            message: `${kind} in version "v1" cannot be handled as a ${kind}: ${v.error?.message ?? ""}`,
          },
          file,
        ),
      );
    }
  }
  return { code: failed ? 1 : 0, stdout, stderr };
}

/** The networking object a JSON text holds, or undefined. */
export function objectOf(json: unknown): NetworkingObject | undefined {
  try {
    return fromJson(JSON.stringify(json));
  } catch {
    return undefined;
  }
}
