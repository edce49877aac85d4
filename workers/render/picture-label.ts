import { concatBytes, pngChunk } from "./overlay.ts";

/**
 * A label written into a rendered pin's picture as a standard text field: in a PNG a `tEXt` chunk (keyword, a zero
 * byte, the text), in a JPEG a comment segment (`COM`, "keyword: text"). Pinterest keeps the file it copies, so the
 * sandbox's stand-in can tell a pin's template family from the picture alone (issue 41), as any reader of the file
 * could. The pixels are untouched.
 */

/** The keyword the template family is written under. */
export const TEMPLATE_FAMILY_KEYWORD = "Pinboard-Template-Family";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The picture with `keyword: text` written into it (PNG or JPEG; anything else is answered unchanged). Latin-1 text only, as tEXt requires. */
export function labelPicture(bytes: Uint8Array, keyword: string, text: string): Uint8Array {
  const latin1 = (value: string) => Uint8Array.from([...value].map((ch) => (ch.charCodeAt(0) < 256 ? ch.charCodeAt(0) : 0x3f)));
  if (PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    // After IHDR (8 signature bytes, then the 25-byte IHDR chunk), before the image data.
    const at = 8 + 12 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(8);
    const chunk = pngChunk("tEXt", concatBytes(latin1(keyword), new Uint8Array([0]), latin1(text)));
    return concatBytes(bytes.subarray(0, at), chunk, bytes.subarray(at));
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    const comment = latin1(`${keyword}: ${text}`).subarray(0, 65_000);
    const segment = new Uint8Array(4 + comment.length);
    segment.set([0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 0xff]);
    segment.set(comment, 4);
    // Right after the start-of-image marker.
    return concatBytes(bytes.subarray(0, 2), segment, bytes.subarray(2));
  }
  return bytes;
}

/** The text written under `keyword` (tEXt chunk or JPEG comment), or null. */
export function pictureLabel(bytes: Uint8Array, keyword: string): string | null {
  const decode = (part: Uint8Array) => String.fromCharCode(...part);
  if (PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 8; at + 12 <= bytes.length; ) {
      const length = view.getUint32(at);
      const type = decode(bytes.subarray(at + 4, at + 8));
      if (type === "IDAT" || type === "IEND") return null;
      if (type === "tEXt") {
        const data = bytes.subarray(at + 8, at + 8 + length);
        const zero = data.indexOf(0);
        if (zero > 0 && decode(data.subarray(0, zero)) === keyword) return decode(data.subarray(zero + 1));
      }
      at += 12 + length;
    }
    return null;
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    // Walk the segments before the scan: each is FF, a marker, a two-byte length (that counts itself).
    for (let at = 2; at + 4 <= bytes.length && bytes[at] === 0xff; ) {
      const marker = bytes[at + 1];
      if (marker === 0xda || marker === 0xd9) return null;
      const length = (bytes[at + 2] << 8) | bytes[at + 3];
      if (marker === 0xfe) {
        const text = decode(bytes.subarray(at + 4, at + 2 + length));
        if (text.startsWith(`${keyword}: `)) return text.slice(keyword.length + 2);
      }
      at += 2 + length;
    }
  }
  return null;
}
