// multipart/form-data bodies (RFC 7578) as the software upload reads them: the file parts only.

/** Largest header block of one multipart part: the part-header regexes are quadratic at worst. */
export const MAX_PART_HEADER_BYTES = 8 * 1024;

/** The file parts (with a filename, or named `file`) of a multipart body; undefined if malformed. */
export function parseMultipart(raw: Buffer, boundary: string): { name: string; filename: string }[] | undefined {
  const text = raw.toString("latin1");
  const delimiter = `--${boundary}`;
  const segments = text.split(delimiter);
  if (segments.length < 3) return undefined;
  const files: { name: string; filename: string }[] = [];
  for (const seg of segments.slice(1)) {
    if (seg.startsWith("--")) break;
    const headerEnd = seg.indexOf("\r\n\r\n");
    if (headerEnd < 0 || headerEnd > MAX_PART_HEADER_BYTES) return undefined;
    const headers = seg.slice(0, headerEnd);
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? "";
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    if (filename !== undefined || name === "file") files.push({ name, filename: filename ?? "" });
  }
  return files;
}
