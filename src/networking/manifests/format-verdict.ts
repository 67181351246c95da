import type { ManifestVerdict, TextPosition } from "./verdict.js";

// A verdict as `clusterwire validate` prints it: a line per finding, worded
// as the API server words it, led by FILE:LINE[:COLUMN] so editors and CI
// logs link to it.

/**
 * Options of {@link formatVerdict}.
 *
 * @example
 * import type { FormatVerdictOptions } from "clusterwire/networking";
 *
 * const options: FormatVerdictOptions = { quiet: true };
 */
export interface FormatVerdictOptions {
  /** Only what needs fixing: no `ok` or `skipped` lines (warnings are kept). */
  readonly quiet?: boolean;
}

/**
 * The lines `clusterwire validate` prints for a verdict, joined by `\n`
 * (no final line break; "" when there is nothing to print): `FILE:LINE KIND
 * NAMESPACE/NAME: ok`, `...: skipped: REASON`, a line per field error or
 * refusal at its `FILE:LINE:COLUMN`, worded as the API server words it,
 * `...: error: MESSAGE` for a document that cannot be decoded, and a line
 * per warning. Without a `file` the lines start with `LINE` or
 * `LINE:COLUMN`.
 *
 * @example
 * import { checkManifests, formatVerdict } from "clusterwire/networking";
 * const text = "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: edge\nspec:\n  controller: nginx\n";
 * for (const v of checkManifests(text, { file: "class.yaml" })) console.log(formatVerdict(v));
 * // class.yaml:6:15 IngressClass edge: spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")
 */
export function formatVerdict(verdict: ManifestVerdict, options: FormatVerdictOptions = {}): string {
  return verdictLines(verdict, options.quiet === true).join("\n");
}

/** The lines for one verdict; `quiet` keeps only what needs fixing. */
export function verdictLines(v: ManifestVerdict, quiet: boolean): string[] {
  const lines: string[] = [];
  // `WHERE: message`, or the message alone when nothing names the document.
  const at = (position?: TextPosition): string => {
    const where = describeVerdict(v, position);
    return where === "" ? "" : `${where}: `;
  };
  switch (v.status) {
    case "valid":
      if (!quiet) lines.push(`${at()}ok`);
      break;
    case "skipped":
      if (!quiet) lines.push(`${at()}skipped: ${v.reason ?? ""}`);
      break;
    case "error": {
      const f = v.failure;
      // A strict decoding error already names its fields in quotes.
      const field = f?.field !== undefined && !f.message.includes(`"${f.field}"`) ? `${f.field}: ` : "";
      lines.push(`${at(f?.position)}error: ${field}${f?.message ?? ""}`);
      break;
    }
    case "invalid":
      for (const r of v.refusals) {
        const word = r.reason === "" ? `refused (${r.code})` : r.reason;
        lines.push(
          `${at(r.position)}${word}: ${r.field !== undefined && r.code !== 400 ? `${r.field}: ` : ""}${r.message}`,
        );
      }
      for (const e of v.errors) lines.push(`${at(e.position)}${e.message}`);
      break;
  }
  for (const w of v.warnings) lines.push(`${at(w.position)}warning: ${w.message}`);
  return lines;
}

/**
 * How a verdict names its document in messages, compiler style so editors
 * can jump to it: `x.yaml:12 NetworkPolicy shop/web`, or with `at` (a
 * field's position) `x.yaml:14:9 NetworkPolicy shop/web`. Binary input has
 * no lines: `watch.pb (event 3 MODIFIED) Ingress shop/web`.
 *
 * @example
 * import { checkManifests, describeVerdict } from "clusterwire/networking";
 * const [v] = checkManifests("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n", { file: "svc.yaml" });
 * console.log(describeVerdict(v!)); // svc.yaml:1 Service web
 */
export function describeVerdict(v: ManifestVerdict, at?: TextPosition): string {
  const line = at !== undefined ? `${at.line}:${at.column}` : v.line !== undefined ? `${v.line}` : "";
  const where = v.file === undefined ? line : line === "" ? v.file : `${v.file}:${line}`;
  const event = v.event !== undefined ? ` (event ${v.document ?? 0} ${v.event})` : "";
  const item = v.item !== undefined ? ` items[${v.item}]` : "";
  const label = objectLabel(v);
  const text = `${where}${event}${item}${label === "" ? "" : ` ${label}`}`;
  return where === "" ? text.trimStart() : text;
}

/**
 * How a verdict names its object: `Ingress shop/web`, `IngressClass nginx`
 * (cluster-scoped), `Ingress shop/web-(generated)` (generateName), `Ingress
 * shop/(no name)`, `Ingress` (a List, or nothing read), or "" (nothing known).
 *
 * @example
 * import { objectLabel } from "clusterwire/networking";
 * console.log(objectLabel({ status: "valid", kind: "Ingress", namespace: "shop", name: "web", errors: [], refusals: [], warnings: [] }));
 * // Ingress shop/web
 */
export function objectLabel(v: ManifestVerdict): string {
  const shown =
    v.name ??
    (v.generateName !== undefined ? `${v.generateName}(generated)` : v.unnamed === true ? "(no name)" : undefined);
  const name = shown === undefined ? undefined : v.namespace === undefined ? shown : `${v.namespace}/${shown}`;
  if (v.kind === undefined) return name ?? "";
  return name === undefined ? v.kind : `${v.kind} ${name}`;
}
