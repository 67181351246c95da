// UTF-8 helpers shared by the codecs and the text formats.

const utf8Strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * `bytes[start, stop)` as a string, or undefined if it is not valid UTF-8.
 * Go does not check UTF-8, but a JS string cannot hold invalid bytes without
 * altering them, so callers refuse instead.
 */
export function utf8OrUndefined(bytes: Uint8Array, start = 0, stop = bytes.length): string | undefined {
  // Short ASCII strings (most Kubernetes names) skip TextDecoder.
  if (stop - start <= 32) {
    let s = "";
    let i = start;
    for (; i < stop; i++) {
      const b = bytes[i] as number;
      if (b > 0x7f) break;
      s += String.fromCharCode(b);
    }
    if (i === stop) return s;
  }
  try {
    return utf8Strict.decode(bytes.subarray(start, stop));
  } catch {
    return undefined;
  }
}

/** Go's sort.Strings order: by UTF-8 bytes, which differs from UTF-16 order for astral characters. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate starts a code point above 0xFFFF, which sorts after every
    // BMP character in UTF-8, though 0xE000-0xFFFF sort after it in UTF-16.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
