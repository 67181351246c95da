// One document through both: clusterwire's verdict, the kubectl output it implies, and kubectl's.
import { parse } from "yaml";
import type { KubernetesVersion, NetworkingObject } from "../../src/networking/index.js";
import { expectedPrinted, objectOf, type JsonVerdict, type Printed, validateFile } from "./expect.js";

export interface ClusterwireSide {
  readonly verdicts: readonly JsonVerdict[];
  /** What kubectl should print; undefined where clusterwire skips a document (another kind). */
  readonly expected: Printed | undefined;
}

/** The networking objects of a document's text (a List's items), for their API warnings. */
export function objectsOf(text: string): (NetworkingObject | undefined)[] {
  let value: unknown;
  try {
    value = parse(text, { version: "1.1", uniqueKeys: false });
  } catch {
    return [];
  }
  const obj = value as { kind?: unknown; items?: unknown } | null;
  if (obj !== null && typeof obj === "object" && obj.kind === "List" && Array.isArray(obj.items)) {
    return obj.items.map(objectOf);
  }
  return [objectOf(value)];
}

/** Runs `clusterwire validate -o json` on `path` (which holds `text`); kubectl's messages name the file `fileLabel`. */
export async function clusterwireSide(
  path: string,
  text: string,
  version: KubernetesVersion,
  fileLabel: string,
): Promise<ClusterwireSide> {
  const { documents } = await validateFile(path, version);
  return { verdicts: documents, expected: expectedPrinted(documents, fileLabel, objectsOf(text)) };
}

/** Both answers the same, line for line. */
export function samePrinted(a: Printed, b: Printed): boolean {
  return (
    a.code === b.code &&
    a.stdout.length === b.stdout.length &&
    a.stderr.length === b.stderr.length &&
    a.stdout.every((l, i) => l === b.stdout[i]) &&
    a.stderr.every((l, i) => l === b.stderr[i])
  );
}

/** A skip notice is honest when it says the document was not checked, and never that it is valid. */
export function honestSkip(v: JsonVerdict): boolean {
  const reason = v.reason ?? "";
  return v.status === "skipped" && reason !== "" && !/\bvalid\b/i.test(reason);
}
