/**
 * Text that no UTF-8 can hold: a surrogate that is not half of a pair, as JavaScript strings (and JSON's `\ud800`)
 * allow. WTF-8 writes each such surrogate as the three bytes UTF-8 would give its code point, so the text
 * survives a round trip through bytes (Python reads them back with `errors="surrogatepass"`).
 */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The WTF-8 bytes of `text`: its UTF-8, with each lone surrogate encoded as its code point. */
export function wtf8Bytes(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    const point = char.codePointAt(0)!;
    if (point < 0x80) bytes.push(point);
    else if (point < 0x800) bytes.push(0xc0 | (point >> 6), 0x80 | (point & 0x3f));
    else if (point < 0x10000) bytes.push(0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f));
    else
      bytes.push(
        0xf0 | (point >> 18),
        0x80 | ((point >> 12) & 0x3f),
        0x80 | ((point >> 6) & 0x3f),
        0x80 | (point & 0x3f),
      );
  }
  return Uint8Array.from(bytes);
}

/** The text of WTF-8 (or UTF-8) bytes; a byte that starts no sequence, or a cut sequence, reads as U+FFFD. */
export function wtf8Text(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; ) {
    const lead = bytes[at]!;
    const length = lead < 0x80 ? 1 : lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    const tail = bytes.subarray(at + 1, at + length);
    if (length === 0 || tail.length < length - 1 || tail.some((b) => (b & 0xc0) !== 0x80)) {
      text += '\ufffd';
      at += 1;
      continue;
    }
    let point = length === 1 ? lead : lead & (0xff >> (length + 1));
    for (const b of tail) point = (point << 6) | (b & 0x3f);
    text += String.fromCodePoint(Math.min(point, 0x10ffff));
    at += length;
  }
  return text;
}
