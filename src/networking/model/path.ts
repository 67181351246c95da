// Field paths and their rendering, kept together as apimachinery keeps
// `Path` and `Path.String()` in one file.

/**
 * A field path under construction. Validators extend it as they descend and
 * only render it when an error is reported, so valid objects cost no strings.
 */
export class FieldPath {
  private constructor(
    readonly parent: FieldPath | undefined,
    readonly segment: string | number,
  ) {}

  static root(name: string): FieldPath {
    return new FieldPath(undefined, name);
  }

  child(name: string): FieldPath {
    return new FieldPath(this, name);
  }

  index(i: number): FieldPath {
    return new FieldPath(this, i);
  }

  segments(): (string | number)[] {
    const out: (string | number)[] = [];
    for (let p: FieldPath | undefined = this; p !== undefined; p = p.parent) out.push(p.segment);
    return out.reverse();
  }
}

/** Kubernetes' rendering of a field path: `spec.rules[0].host`. */
export function renderPath(segments: readonly (string | number)[]): string {
  let out = "";
  for (const s of segments) out += typeof s === "number" ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}
