import { DecodeError } from "../../model/errors.js";

/**
 * One document of a YAML stream, as kubectl's reader cuts it, and where it starts.
 *
 * @example
 * ```ts
 * import { splitYamlDocuments } from "clusterwire/networking";
 *
 * for (const doc of splitYamlDocuments("a: 1\n---\nb: 2\n")) console.log(doc.line, JSON.stringify(doc.text));
 * ```
 */
export interface YamlDocumentText {
  /**
   * The document's text. The separator line that ends a document belongs to
   * neither; a separator line with nothing gathered before it (the stream's
   * first line, or one right after another separator) stays at the start of
   * the next document, as kubectl's reader keeps it.
   */
  readonly text: string;
  /** 1-based line of the stream where `text` starts. */
  readonly line: number;
  /** Character offset of the stream where `text` starts. */
  readonly offset: number;
  /**
   * Set when the separator line that ends this document is not one kubectl
   * accepts (`--- foo`): kubectl stops reading the stream there.
   */
  readonly separatorError?: DecodeError;
}

/**
 * Splits a multi-document YAML stream the way kubectl and the API machinery
 * reader do (apimachinery util/yaml YAMLReader), before any YAML parsing: a
 * line that starts with `---` ends the document; only spaces or a `#`
 * comment may follow the dashes. Documents holding nothing are left out.
 * Line breaks are `\n` (a `\r` before it belongs to the break), as Go's
 * bufio line reader takes them; a lone `\r` ends no line.
 *
 * A separator line that would end a document holding nothing (the stream's
 * first line, or a separator right after another) is not dropped but kept
 * as the first line of the next document, as kubectl's reader keeps it. The
 * YAML reader then takes it as a document start, which matters when a
 * byte-order mark follows it (content, no longer the stream's first
 * character) or when its line runs on through lone `\r` breaks.
 *
 * Cutting by lines, not by parsing, is what lets one malformed document be
 * reported while the others are still read, as kubectl applies them.
 *
 * @example
 * ```ts
 * import { splitYamlDocuments } from "clusterwire/networking";
 *
 * const docs = splitYamlDocuments("kind: Ingress\n---\nkind: Deployment\n");
 * console.log(docs.map((d) => d.line)); // [ 1, 3 ]
 * ```
 */
export function splitYamlDocuments(text: string): YamlDocumentText[] {
  const out: YamlDocumentText[] = [];
  let start = 0;
  let startLine = 1;
  let lineNo = 1;
  let at = 0;
  const flush = (end: number, separatorError?: DecodeError): void => {
    if (end > start) {
      const doc = text.slice(start, end);
      out.push(
        separatorError === undefined
          ? { text: doc, line: startLine, offset: start }
          : { text: doc, line: startLine, offset: start, separatorError },
      );
    } else if (separatorError !== undefined) {
      out.push({ text: "", line: startLine, offset: start, separatorError });
    }
  };
  while (at < text.length) {
    const nl = text.indexOf("\n", at);
    const next = nl < 0 ? text.length : nl + 1;
    if (text.startsWith("---", at)) {
      const lineEnd = nl < 0 ? text.length : nl > at && text[nl - 1] === "\r" ? nl - 1 : nl;
      const rest = goTrimSpace(text.slice(at + 3, lineEnd));
      const error =
        rest !== "" && !rest.startsWith("#")
          ? new DecodeError("yaml", `invalid Yaml document separator: ${rest}`, { line: lineNo, column: 1, offset: at })
          : undefined;
      // Nothing gathered since the last cut: kubectl's reader keeps the separator line as content.
      if (error !== undefined || at > start) {
        flush(at, error);
        start = next;
        startLine = lineNo + 1;
      }
    }
    at = next;
    lineNo++;
  }
  flush(text.length);
  return out;
}

/** Go's unicode.IsSpace: what strings.TrimSpace trims (NEL yes, BOM no, unlike String.prototype.trim). */
function isGoSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Go's strings.TrimSpace. */
function goTrimSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isGoSpace(s.charCodeAt(a))) a++;
  while (b > a && isGoSpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/**
 * A document as kubectl's reader hands it to the YAML decoder: its lines
 * read by Go's bufio line reader, each given back ending in a single `\n`, so
 * a CRLF becomes LF and a last line without a break gains one.
 */
export function kubectlDocumentBody(text: string): string {
  const lf = text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
  return lf.endsWith("\n") ? lf : `${lf}\n`;
}

/**
 * The offset in `text` of offset `at` of `kubectlDocumentBody(text)`: each
 * CR dropped before it counts again; the added final break maps to the end.
 */
export function kubectlBodyOffset(text: string, at: number): number {
  let shift = 0;
  for (let i = text.indexOf("\r\n"); i >= 0 && i - shift < at; i = text.indexOf("\r\n", i + 2)) shift++;
  return Math.min(at + shift, text.length);
}
