import { zlibSync } from "fflate";
import type { Bitmap } from "./pixels.ts";

/**
 * Transparent overlays for video pins. The renderer composites onto an opaque
 * pin, so the layers over a video are rendered twice, once on black and once
 * on white, and their straight-alpha RGBA is recovered from the pair (the
 * classic difference matte): over black a pixel is c·a, over white
 * c·a + 255·(1 − a), so a = 1 − (white − black) / 255 and c = black / a.
 * Exact for everything the engine draws (it blends with "over"), up to rounding.
 */
export function differenceMatte(onBlack: Bitmap, onWhite: Bitmap): Bitmap {
  if (onBlack.width !== onWhite.width || onBlack.height !== onWhite.height) throw new Error("The two renders differ in size");
  const b = onBlack.data;
  const w = onWhite.data;
  const out = new Uint8ClampedArray(b.length);
  for (let i = 0; i < b.length; i += 4) {
    const spread = (w[i] - b[i] + (w[i + 1] - b[i + 1]) + (w[i + 2] - b[i + 2])) / 3;
    const alpha = Math.max(0, Math.min(255, Math.round(255 - spread)));
    if (alpha === 0) continue;
    const scale = 255 / alpha;
    out[i] = b[i] * scale;
    out[i + 1] = b[i + 1] * scale;
    out[i + 2] = b[i + 2] * scale;
    out[i + 3] = alpha;
  }
  return { width: onBlack.width, height: onBlack.height, data: out };
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 a PNG chunk ends with (ISO 3309, as zlib's crc32). */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A PNG chunk: the data's length, the type, the data, the CRC of type and data. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** An RGBA PNG (8 bits per channel; each row filtered "Sub", which suits flat graphics). */
export function encodePng(bitmap: Bitmap, level: 1 | 6 = 6): Uint8Array {
  const { width, height, data } = bitmap;
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    const from = y * stride;
    raw[row] = 1; // Sub
    for (let x = 0; x < stride; x++) raw[row + 1 + x] = (data[from + x] - (x >= 4 ? data[from + x - 4] : 0)) & 0xff;
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit, RGBA, deflate, no filter method variants, no interlace
  return concatBytes(
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlibSync(raw, { level })),
    pngChunk("IEND", new Uint8Array(0)),
  );
}

/** The parts one after another, in one array. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Rounds a video box's corners: where the rounded box does not cover a pixel
 * (anti-aliased at the edge), what lies under the video (`base`) shows
 * through, laid under the overlay's own pixels there. ffmpeg then draws the
 * video as a plain rectangle.
 */
export function roundVideoCorners(overlay: Bitmap, base: Bitmap, box: { x: number; y: number; width: number; height: number }, radius: number) {
  const r = Math.min(radius, box.width / 2, box.height / 2);
  if (!(r > 0)) return;
  const o = overlay.data;
  const b = base.data;
  const size = Math.ceil(r) + 1;
  const x0 = Math.round(box.x);
  const y0 = Math.round(box.y);
  const w = Math.round(box.width);
  const h = Math.round(box.height);
  for (let ty = 0; ty < h; ty++) {
    if (ty >= size && ty < h - size) continue;
    const cy = y0 + ty;
    if (cy < 0 || cy >= overlay.height) continue;
    for (let tx = 0; tx < w; tx++) {
      if (tx >= size && tx < w - size) continue;
      const cx = x0 + tx;
      if (cx < 0 || cx >= overlay.width) continue;
      // Coverage of the pixel centre by the rounded box (1 px anti-aliasing).
      const px = tx + 0.5;
      const py = ty + 0.5;
      const ccx = px < r ? r : px > w - r ? w - r : px;
      const ccy = py < r ? r : py > h - r ? h - r : py;
      const coverage = Math.max(0, Math.min(1, r - Math.hypot(px - ccx, py - ccy) + 0.5));
      const under = 1 - coverage;
      if (under <= 0) continue;
      const i = (cy * overlay.width + cx) * 4;
      const top = o[i + 3] / 255;
      const alpha = top + under * (1 - top);
      for (let c = 0; c < 3; c++) o[i + c] = (o[i + c] * top + b[i + c] * under * (1 - top)) / alpha;
      o[i + 3] = alpha * 255;
    }
  }
}
