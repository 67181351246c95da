/** A decoding failure; path segments are prepended while unwinding. */
export class PathError {
  /** For each path segment, which occurrence of a repeated key it was (undefined: the only one). */
  readonly occurrences: (number | undefined)[];
  constructor(
    readonly reason: string,
    /** Keys (strings) and list indexes (numbers). */
    readonly path: (string | number)[] = [],
    occurrences?: (number | undefined)[],
  ) {
    this.occurrences = occurrences ?? path.map(() => undefined);
  }
  prefix(seg: string | number, occurrence?: number): void {
    this.path.unshift(seg);
    this.occurrences.unshift(occurrence);
  }
}
