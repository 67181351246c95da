/** Types for scripts/check-docs.mjs, which test/docs/check-docs.test.ts imports. */
export interface Problem {
  /** Repository-relative path, or `help: clusterwire <command> --help` for help text. */
  readonly file: string;
  /** 1-based; 0 when the problem is not on one line. */
  readonly line: number;
  readonly message: string;
  /** `package` when the file exists in the repository and only package.json `files` leaves it out. */
  readonly kind: "reference" | "package";
}
export interface CheckResult {
  readonly problems: Problem[];
  readonly checked: { markdown: number; text: number; declarations: number; help: number };
}
export interface CheckOptions {
  /** Check dist/src/**\/*.d.ts and the help text (default true). */
  readonly dist?: boolean;
  /** Help texts to check instead of running bin/clusterwire.js. */
  readonly help?: readonly { readonly name: string; readonly text: string }[];
}
export declare const ALLOW: readonly { readonly file: RegExp; readonly text: RegExp }[];
export declare const RULE_PAGES: { readonly R: string; readonly E: string };
export declare function markdownLines(text: string): { text: string; inCode: boolean }[];
export declare function githubSlug(text: string): string;
export declare function markdownAnchors(text: string): Set<string>;
export declare function markdownLinks(text: string): { line: number; target: string }[];
export interface RuleId {
  readonly family: "R" | "E";
  readonly rule: number;
  readonly step?: number;
  readonly text: string;
}
export declare function ruleIds(line: string): RuleId[];
export declare function ruleAnchor(id: RuleId): string;
export declare function pathTokens(
  line: string,
): { token: string; path: string; anchor?: string; shared: boolean }[];
export declare function packageFilter(files: readonly string[] | undefined): (path: string) => boolean;
export declare function listedCommands(help: string): string[];
export declare function checkRepository(root: string, options?: CheckOptions): CheckResult;
export declare function helpTexts(
  root: string,
  fail: (line: number, message: string) => void,
): { name: string; text: string }[];
