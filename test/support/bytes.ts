/** Bytes as lowercase hex, for comparisons that print readably on failure. */
export const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
