import pixelsModule from "./wasm/pixels.wasm";
import { noteLoad } from "./load-stats.ts";
import { createBitmap, type Bitmap } from "./pixels.ts";

/**
 * The renderer's WebAssembly pixel module (wasm/pixels.c): JPEG encoding
 * (4:2:0, about three times faster than photon's), baseline JPEG decoding,
 * picture resampling and the blur of text shadows. One
 * instance per isolate; its memory is reused between calls.
 */

interface PixelExports {
  memory: WebAssembly.Memory;
  jpeg_input(width: number, height: number): number;
  jpeg_encode(width: number, height: number, quality: number): number;
  jpeg_output(): number;
  scratch_alloc(size: number): number;
  scratch_reset(): void;
  rgba_resize(src: number, sw: number, sh: number, rx: number, ry: number, rw: number, rh: number, dst: number, dw: number, dh: number, opaque: number): void;
  alpha_box_blur(alpha: number, width: number, height: number, radius: number): void;
  shape_coverage(lines: number, count: number, ox: number, oy: number, width: number, height: number, out: number): void;
  jpeg_decode(bytes: number, length: number): number;
  jpeg_decoded_width(): number;
  jpeg_decoded_height(): number;
}

let instance: PixelExports | null = null;
function pixels(): PixelExports {
  if (!instance) {
    const started = performance.now();
    instance = new WebAssembly.Instance(pixelsModule, {}).exports as unknown as PixelExports;
    noteLoad("wasmMs", performance.now() - started);
  }
  return instance;
}

export function encodeJpeg(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, quality = 88): Uint8Array {
  if (rgba.length !== width * height * 4) throw new Error("encodeJpeg needs width x height RGBA pixels");
  const wasm = pixels();
  const input = wasm.jpeg_input(width, height);
  new Uint8Array(wasm.memory.buffer, input, rgba.length).set(rgba);
  const length = wasm.jpeg_encode(width, height, Math.round(quality));
  return new Uint8Array(wasm.memory.buffer, wasm.jpeg_output(), length).slice();
}

/** A copy, as a Bitmap, of the RGBA pixels the module holds at `at`. */
function bitmapAt(wasm: ReturnType<typeof pixels>, at: number, width: number, height: number, opaque: boolean): Bitmap {
  const out = createBitmap(width, height);
  out.data.set(new Uint8Array(wasm.memory.buffer, at, width * height * 4));
  out.opaque = opaque;
  return out;
}

/**
 * Resamples a region of `source` to `width` x `height`: a box filter (area
 * average) when shrinking, bilinear when enlarging; transparent pictures are
 * averaged with premultiplied alpha so edges do not darken.
 */
export function resizeRegion(source: Bitmap, region: { x: number; y: number; width: number; height: number }, width: number, height: number): Bitmap {
  const wasm = pixels();
  try {
    const src = wasm.scratch_alloc(source.data.length);
    new Uint8Array(wasm.memory.buffer, src, source.data.length).set(source.data);
    const dst = wasm.scratch_alloc(width * height * 4);
    const opaque = source.opaque ?? false;
    wasm.rgba_resize(src, source.width, source.height, region.x, region.y, region.width, region.height, dst, width, height, opaque ? 1 : 0);
    return bitmapAt(wasm, dst, width, height, opaque);
  } finally {
    wasm.scratch_reset();
  }
}

/**
 * Decodes a baseline JPEG (the usual kind: sequential, 8-bit, greyscale or
 * YCbCr, any common chroma subsampling, restart intervals) to opaque RGBA, in
 * this module: cheap on an isolate's first picture, where photon's first call
 * costs more than the decoding itself. Pixels match photon's within one level
 * (same IDCT, upsampling and colour conversion). A picture longer than
 * `maxSide` is shrunk to it here (as resizeRegion would) without its full-size
 * pixels ever leaving the module. Answers null for anything it does not
 * decode (progressive, arithmetic-coded, CMYK, damaged): use photon then.
 */
export function decodeJpeg(bytes: Uint8Array, maxSide = Infinity): Bitmap | null {
  const wasm = pixels();
  try {
    const at = wasm.scratch_alloc(bytes.length);
    new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
    const decoded = wasm.jpeg_decode(at, bytes.length);
    if (!decoded) return null;
    const width = wasm.jpeg_decoded_width();
    const height = wasm.jpeg_decoded_height();
    const longest = Math.max(width, height);
    if (longest <= maxSide) return bitmapAt(wasm, decoded, width, height, true);
    const scale = maxSide / longest;
    const w = Math.round(width * scale);
    const h = Math.round(height * scale);
    const dst = wasm.scratch_alloc(w * h * 4);
    wasm.rgba_resize(decoded, width, height, 0, 0, width, height, dst, w, h, 1);
    return bitmapAt(wasm, dst, w, h, true);
  } finally {
    wasm.scratch_reset();
  }
}

/** Blurs an alpha plane with three box passes of `radius` each way (close to a Gaussian); answers a new plane. */
export function blurAlpha(alpha: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const wasm = pixels();
  try {
    const at = wasm.scratch_alloc(alpha.length);
    new Uint8Array(wasm.memory.buffer, at, alpha.length).set(alpha);
    wasm.alpha_box_blur(at, width, height, Math.max(0, Math.round(radius)));
    return new Uint8Array(wasm.memory.buffer, at, alpha.length).slice();
  } finally {
    wasm.scratch_reset();
  }
}

/**
 * How much of each pixel of the `width` x `height` box at (x, y) the closed
 * outline `lines` (x0, y0, x1, y1 per line) covers, 0-1, nonzero rule.
 */
export function shapeCoverage(lines: Float32Array, x: number, y: number, width: number, height: number): Float32Array {
  const wasm = pixels();
  try {
    const at = wasm.scratch_alloc(lines.byteLength);
    new Float32Array(wasm.memory.buffer, at, lines.length).set(lines);
    const out = wasm.scratch_alloc(width * height * 4);
    wasm.shape_coverage(at, lines.length, x, y, width, height, out);
    return new Float32Array(wasm.memory.buffer, out, width * height).slice();
  } finally {
    wasm.scratch_reset();
  }
}

let warmed = false;

/**
 * Runs each of the module's functions a few times on tiny inputs, once per
 * isolate. V8 first compiles WebAssembly functions with its baseline compiler
 * (Liftoff) and only optimises (TurboFan) a function after it has done some
 * work: without this, a fresh isolate's first pin decodes, resizes and encodes
 * with baseline code, at about half the speed. The renderer calls it while its
 * first fonts and pictures are being fetched, when the isolate has nothing
 * else to do. About 5 ms on a quiet machine.
 */
export function warmPixelModule() {
  if (warmed) return;
  warmed = true;
  const started = performance.now();
  const side = 64;
  const rgba = new Uint8Array(side * side * 4);
  for (let i = 0; i < rgba.length; i++) rgba[i] = (i & 3) === 3 ? 255 : (i * 37 + (i >> 8) * 11) & 255;
  const picture: Bitmap = { width: side, height: side, data: rgba, opaque: true };
  const jpeg = encodeJpeg(rgba, side, side);
  const outline = new Float32Array([2.5, 1, 30.25, 8.5, 30.25, 8.5, 12, 40.75, 12, 40.75, 2.5, 1]);
  for (let round = 0; round < 8; round++) {
    encodeJpeg(rgba, side, side);
    decodeJpeg(jpeg);
    resizeRegion(picture, { x: 3.3, y: 1.7, width: 50.5, height: 44.2 }, 120, 100);
    resizeRegion(picture, { x: 0, y: 0, width: side, height: side }, 40, 28);
    blurAlpha(rgba.subarray(0, side * side), side, side, 3);
    shapeCoverage(outline, 0, 0, 48, 48);
  }
  noteLoad("warmUpMs", performance.now() - started);
}

/** Bytes the pixel module's WebAssembly memory holds (it grows to the largest job and stays). */
export function pixelModuleMemoryBytes(): number {
  return instance ? instance.memory.buffer.byteLength : 0;
}
