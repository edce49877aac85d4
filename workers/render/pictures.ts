import { guardedFetch, type GuardedFetchEnv } from "../http/guarded-fetch.ts";
import { noteLoad } from "./load-stats.ts";
import { decodeWithPhoton } from "./photon-decode.ts";
import { decodeJpeg, resizeInto, resizeRegion } from "./pixel-module.ts";
import { drawBitmap, type Bitmap } from "./pixels.ts";

/**
 * Pictures for the renderer: fetched within limits, checked before decoding,
 * decoded once (baseline JPEGs by the pixel module, anything else by photon), shrunk to a working size and kept in a small
 * cache (a user's batch of pins reuses the same few photos with different
 * templates). A picture that cannot be had leaves its layer empty.
 */

/** The time limit of fetching one picture. */
const PICTURE_TIMEOUT_MS = 10_000;
/** Largest file we fetch for a picture. */
export const MAX_PICTURE_BYTES = 15 * 1024 * 1024;
/** Largest picture we decode (48 MB of pixels); bigger ones are refused before decoding. */
export const MAX_PICTURE_PIXELS = 12_000_000;
/** Pictures are kept at most this wide or tall after decoding (a pin is 1000 x 1500). */
export const WORKING_SIZE = 1600;
/** Decoded pictures, and the sizes they were resized to for pins, kept in memory, by bytes. */
const CACHE_BUDGET_BYTES = 40 * 1024 * 1024;

export interface PictureSource {
  /** The picture's bytes, or null when it cannot be fetched. */
  fetch(url: string): Promise<Uint8Array | null>;
  /** Skip shrinking to the working size (design setting bypassResize). */
  bypassResize?: boolean;
}

export type PictureType = "jpeg" | "png" | "webp" | "gif";

/** The format and size a picture claims in its header, without decoding it. */
export function pictureHeader(bytes: Uint8Array): { type: PictureType; width: number; height: number } | null {
  const at = (i: number) => bytes[i] ?? 0;
  const u16be = (i: number) => (at(i) << 8) | at(i + 1);
  const u16le = (i: number) => at(i) | (at(i + 1) << 8);
  const u32be = (i: number) => ((at(i) << 24) | (at(i + 1) << 16) | (at(i + 2) << 8) | at(i + 3)) >>> 0;
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return { type: "png", width: u32be(16), height: u32be(20) };
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46) return { type: "gif", width: u16le(6), height: u16le(8) };
  if (at(0) === 0x52 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x46 && at(8) === 0x57 && at(9) === 0x45 && at(10) === 0x42 && at(11) === 0x50) {
    const chunk = String.fromCharCode(at(12), at(13), at(14), at(15));
    if (chunk === "VP8X") return { type: "webp", width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)), height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)) };
    if (chunk === "VP8 ") return { type: "webp", width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    if (chunk === "VP8L") {
      const b = [at(21), at(22), at(23), at(24)];
      return { type: "webp", width: 1 + (((b[1] & 0x3f) << 8) | b[0]), height: 1 + (((b[3] & 0x0f) << 10) | (b[2] << 2) | ((b[1] & 0xc0) >> 6)) };
    }
    return null;
  }
  if (at(0) === 0xff && at(1) === 0xd8) {
    let offset = 2;
    while (offset + 9 < bytes.length) {
      if (at(offset) !== 0xff) {
        offset += 1;
        continue;
      }
      const marker = at(offset + 1);
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        offset += 2;
        continue;
      }
      const length = u16be(offset + 2);
      if (
        (marker >= 0xc0 && marker <= 0xc3) ||
        (marker >= 0xc5 && marker <= 0xc7) ||
        (marker >= 0xc9 && marker <= 0xcb) ||
        (marker >= 0xcd && marker <= 0xcf)
      ) {
        return { type: "jpeg", height: u16be(offset + 5), width: u16be(offset + 7) };
      }
      offset += 2 + length;
    }
    return null;
  }
  return null;
}

/** Whether a picture's bytes run to the format's own end (a truncated upload does not). */
export function pictureIsComplete(bytes: Uint8Array, type: PictureType): boolean {
  const n = bytes.length;
  if (type === "jpeg") {
    // EOI (FF D9), allowing a little padding after it.
    for (let i = n - 2; i >= Math.max(2, n - 64); i -= 1) if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
    return false;
  }
  if (type === "png") {
    // The IEND chunk: length 0, "IEND", CRC AE 42 60 82.
    const end = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
    return n >= 12 && end.every((byte, i) => bytes[n - 12 + i] === byte);
  }
  if (type === "gif") return bytes[n - 1] === 0x3b;
  // WebP: the RIFF size covers the rest of the file.
  const riffSize = (bytes[4] | (bytes[5] << 8) | (bytes[6] << 16) | (bytes[7] << 24)) >>> 0;
  return riffSize + 8 <= n;
}

/** Samples per pixel of each PNG colour type. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * Whether a picture has fewer bytes than any complete one of its declared size (decision 078). In a JPEG every
 * 8x8 block takes at least one bit (its DC difference), even in a progressive file; deflate packs at most 1032
 * bytes into one, so a PNG's IDAT chunks hold at least its pixel bytes / 1032. photon allocates the declared size
 * before it finds the data missing (a JPEG of a few kilobytes that declared 9 megapixels took it 1.3 s, gaps
 * filled; a 4 KB PNG declaring 12 megapixels of 16-bit colour, 72 MB, over a second on a busy machine).
 */
function cutShort(header: { type: PictureType; width: number; height: number }, bytes: Uint8Array): boolean {
  if (header.type === "jpeg") return Math.ceil(header.width / 8) * Math.ceil(header.height / 8) > bytes.length * 8;
  if (header.type !== "png") return false;
  const pixelBytes = (header.width * header.height * (PNG_CHANNELS[bytes[25]] ?? 1) * (bytes[24] || 1)) / 8;
  let data = 0;
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
    if (bytes[at + 4] === 0x49 && bytes[at + 5] === 0x44 && bytes[at + 6] === 0x41 && bytes[at + 7] === 0x54) data += Math.min(length, bytes.length - at);
    at += 12 + length;
  }
  return data * 1032 < pixelBytes;
}

/** The largest side of a picture we accept. */
export const MAX_PICTURE_SIDE = 20_000;

/**
 * Reads an uploaded picture for real: its format, that it is complete, and its
 * size as decoded (not as its header claims). Null when it is not a picture we
 * can use; a reason when it is damaged.
 */
export function readPicture(bytes: Uint8Array): { type: PictureType; width: number; height: number } | { unreadable: string } | null {
  const header = pictureHeader(bytes);
  if (!header) return null;
  if (!pictureIsComplete(bytes, header.type)) return { unreadable: "This image is incomplete (the file was cut short). Please upload it again." };
  if (
    header.width < 1 ||
    header.height < 1 ||
    header.width > MAX_PICTURE_SIDE ||
    header.height > MAX_PICTURE_SIDE ||
    header.width * header.height > MAX_PICTURE_PIXELS
  ) {
    return { unreadable: `This image is too large or says it has no size. Images may be up to ${MAX_PICTURE_PIXELS / 1_000_000} megapixels.` };
  }
  if (cutShort(header, bytes)) return { unreadable: "This image is incomplete (the file was cut short). Please upload it again." };
  const image = decodeWithPhoton(bytes);
  if (!image || image.width !== header.width || image.height !== header.height) return { unreadable: "This image could not be read. It may be damaged." };
  return { type: header.type, width: image.width, height: image.height };
}

interface CacheEntry {
  bitmap: Promise<Bitmap | null>;
  bytes: number;
}
const cache = new Map<string, CacheEntry>();
let cachedBytes = 0;

/** Counts a decoded picture against the budget and evicts the least recently used beyond it. */
function account(key: string, entry: CacheEntry, bytes: number) {
  if (cache.get(key) !== entry) return;
  entry.bytes = bytes;
  cachedBytes += bytes;
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= CACHE_BUDGET_BYTES || oldKey === key) break;
    cache.delete(oldKey);
    cachedBytes -= old.bytes;
  }
}

/** Forgets every cached picture (tests and benchmarks measure cold renders with it). */
export function clearPictureCache() {
  cache.clear();
  cachedBytes = 0;
  resized.clear();
  resizedBytes = 0;
  seenCuts.clear();
}

async function decode(source: PictureSource, url: string): Promise<Bitmap | null> {
  const fetchStarted = performance.now();
  const bytes = await source.fetch(url);
  noteLoad("pictureFetchMs", performance.now() - fetchStarted);
  if (!bytes || bytes.length > MAX_PICTURE_BYTES) return null;
  const started = performance.now();
  try {
    return decodePictureBytes(bytes, { bypassResize: source.bypassResize });
  } finally {
    noteLoad("pictureDecodeMs", performance.now() - started);
    noteLoad("picturesDecoded", 1);
  }
}

/** A fetched picture's bytes decoded (and shrunk to the working size unless `bypassResize`), or null: a skipped picture. */
export function decodePictureBytes(bytes: Uint8Array, options: { bypassResize?: boolean } = {}): Bitmap | null {
  const header = pictureHeader(bytes);
  if (!header || header.width < 1 || header.height < 1 || header.width * header.height > MAX_PICTURE_PIXELS || cutShort(header, bytes)) return null;
  if (header.type === "jpeg") {
    // Baseline JPEGs (most photos) by the pixel module; other kinds by photon below; a damaged one is skipped.
    const decoded = decodeJpeg(bytes, options.bypassResize ? Infinity : WORKING_SIZE);
    if (decoded === "damaged") return null;
    if (decoded !== "unsupported") return decoded;
  }
  const image = decodeWithPhoton(bytes);
  if (!image) return null;
  const full: Bitmap = { ...image, opaque: header.type === "jpeg" ? true : undefined };
  const longest = Math.max(full.width, full.height);
  if (options.bypassResize || longest <= WORKING_SIZE) return full;
  const scale = WORKING_SIZE / longest;
  return resizeRegion(full, { x: 0, y: 0, width: full.width, height: full.height }, Math.round(full.width * scale), Math.round(full.height * scale));
}

/** The decoded picture at `url` (cached), or null when it cannot be fetched or read. */
export function decodedPicture(source: PictureSource, url: string): Promise<Bitmap | null> {
  const key = `${source.bypassResize ? "full" : "work"}|${url}`;
  const hit = cache.get(key);
  if (hit) {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, hit);
    return hit.bitmap;
  }
  const bitmap = decode(source, url).catch(() => null);
  const entry: CacheEntry = { bitmap, bytes: 0 };
  cache.set(key, entry);
  bitmap.then((b) => {
    if (b) account(key, entry, b.width * b.height * 4);
    else if (cache.get(key) === entry) cache.delete(key); // try again next time
  });
  return bitmap;
}

/** Where and at what size a picture is drawn: the region of the decoded picture and the output size. */
export interface PictureCut {
  crop: { x: number; y: number; width: number; height: number };
  width: number;
  height: number;
}

function cutKey(source: PictureSource, url: string, { crop, width, height }: PictureCut): string {
  return `${source.bypassResize ? "full" : "work"}|${width}x${height}|${crop.x},${crop.y},${crop.width},${crop.height}|${url}`;
}

/** Pictures already cut and resized for a box, kept apart from the decoded ones (so they never push those out), by bytes. */
const RESIZED_BUDGET_BYTES = 24 * 1024 * 1024;
const resized = new Map<string, Bitmap>();
let resizedBytes = 0;

/**
 * `image` (the decoded picture at `url`) cut and resized to `cut`. Cached: the
 * same photo drawn into the same box again (the next pin of a batch, a
 * preview and its download) is resized once and kept. Callers must not
 * change the bitmap they get.
 */
export function resizedPicture(source: PictureSource, url: string, image: Bitmap, cut: PictureCut): Bitmap {
  const key = cutKey(source, url, cut);
  const hit = resized.get(key);
  if (hit) {
    resized.delete(key);
    resized.set(key, hit);
    return hit;
  }
  const bitmap = resizeRegion(image, cut.crop, cut.width, cut.height);
  const bytes = bitmap.data.byteLength;
  if (bytes > RESIZED_BUDGET_BYTES / 2) return bitmap;
  resized.set(key, bitmap);
  resizedBytes += bytes;
  for (const [oldKey, old] of resized) {
    if (resizedBytes <= RESIZED_BUDGET_BYTES) break;
    resized.delete(oldKey);
    resizedBytes -= old.data.byteLength;
  }
  return bitmap;
}

/** Cuts drawn once straight into a pin (see drawResizedPicture); a cut seen again is kept. */
const seenCuts = new Set<string>();
const SEEN_CUTS_LIMIT = 1000;

/**
 * Draws `image` (the decoded picture at `url`, opaque) cut and resized to
 * `cut` into the canvas at (x, y), without opacity or rounded corners. A cut
 * kept by resizedPicture is copied from there. The first time a cut is seen
 * (an isolate's first pin, a photo new to a batch) it is resized straight
 * into the canvas, without a copy of its own. A cut seen again (the next pin
 * of a batch, a preview's download) is resized once more and kept.
 */
export function drawResizedPicture(source: PictureSource, url: string, image: Bitmap, cut: PictureCut, canvas: Bitmap, x: number, y: number) {
  const key = cutKey(source, url, cut);
  if (!resized.has(key) && !seenCuts.has(key)) {
    if (seenCuts.size >= SEEN_CUTS_LIMIT) seenCuts.clear();
    seenCuts.add(key);
    resizeInto(canvas, image, cut.crop, cut.width, cut.height, x, y);
    return;
  }
  drawBitmap(canvas, resizedPicture(source, url, image, cut), x, y);
}

/**
 * A picture source for the worker: through the guarded fetch (public
 * addresses only, a time limit and a size limit). A picture refused, failed or
 * answered with an error is null, like one that cannot be reached: its layer
 * stays empty.
 */
export function httpPictureSource(env: GuardedFetchEnv, options: { bypassResize?: boolean } = {}): PictureSource {
  return {
    bypassResize: options.bypassResize,
    async fetch(url) {
      try {
        const fetched = await guardedFetch(env, url, { timeoutMs: PICTURE_TIMEOUT_MS, maxBytes: MAX_PICTURE_BYTES });
        if (!fetched.ok) {
          await fetched.discard();
          return null;
        }
        return await fetched.bytes();
      } catch {
        return null;
      }
    },
  };
}
