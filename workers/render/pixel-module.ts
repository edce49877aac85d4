import pixelsModule from "./wasm/pixels.wasm";
import type { Rgba } from "./colors.ts";
import { noteLoad } from "./load-stats.ts";
import { createBitmap, type Bitmap, type DrawOptions, type LinearGradient } from "./pixels.ts";

/**
 * The renderer's WebAssembly pixel module (wasm/pixels.c and wasm/fills.c):
 * JPEG encoding (4:2:0, about three times faster than photon's), baseline JPEG
 * decoding, picture resampling, the blur of text shadows, outlines' coverage
 * and the blending of fills (path data is flattened by vector.ts alone:
 * decision 070). One instance per isolate; its memory
 * is reused between calls.
 */

interface PixelExports {
  memory: WebAssembly.Memory;
  jpeg_input(width: number, height: number): number;
  jpeg_encode(width: number, height: number, quality: number): number;
  jpeg_output(): number;
  scratch_alloc(size: number): number;
  scratch_reset(): void;
  rgba_resize(src: number, sw: number, sh: number, rx: number, ry: number, rw: number, rh: number, dst: number, dw: number, dh: number, opaque: number): void;
  resize_begin(src: number, sw: number, sh: number, rx: number, ry: number, rw: number, rh: number, dw: number, dh: number, opaque: number): void;
  resize_rows(y0: number, y1: number, dst: number): void;
  alpha_box_blur(alpha: number, width: number, height: number, radius: number): void;
  shape_coverage(lines: number, count: number, ox: number, oy: number, width: number, height: number, out: number): void;
  jpeg_decode(bytes: number, length: number): number;
  jpeg_decode_refusal(): number;
  jpeg_decoded_width(): number;
  jpeg_decoded_height(): number;
  box_blend(
    region: number,
    rx0: number,
    ry0: number,
    rx1: number,
    ry1: number,
    bx: number,
    by: number,
    w: number,
    h: number,
    solid: number,
    steps: number,
    blend: number,
    sin: number,
    cos: number,
    length: number,
    opacity: number,
    radius: number,
    ellipse: number,
  ): void;
  coverage_blend(
    cover: number,
    coverWidth: number,
    coverX: number,
    coverY: number,
    region: number,
    rx0: number,
    ry0: number,
    rx1: number,
    ry1: number,
    r: number,
    g: number,
    b: number,
    alpha: number,
  ): void;
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
    const dst = resizedInModule(wasm, source, region, width, height);
    return bitmapAt(wasm, dst, width, height, source.opaque ?? false);
  } finally {
    wasm.scratch_reset();
  }
}

/** The resampled region, left in the module's scratch memory (the caller resets it): its address. */
function resizedInModule(
  wasm: PixelExports,
  source: Bitmap,
  region: { x: number; y: number; width: number; height: number },
  width: number,
  height: number,
): number {
  const src = wasm.scratch_alloc(source.data.length);
  new Uint8Array(wasm.memory.buffer, src, source.data.length).set(source.data);
  const dst = wasm.scratch_alloc(width * height * 4);
  wasm.rgba_resize(src, source.width, source.height, region.x, region.y, region.width, region.height, dst, width, height, source.opaque ? 1 : 0);
  return dst;
}

/** Bytes of the band resizeInto takes the resized picture in (a few dozen rows of a pin). */
const RESIZE_BAND_BYTES = 256 * 1024;

/**
 * Resamples a region of an opaque `source` (as resizeRegion does) and writes
 * the result straight into the canvas at (x, y), clipped: for a photo drawn
 * without opacity or rounded corners, the pixels drawBitmap would have copied.
 * The module makes the rows a band at a time (and only those that land on the
 * canvas), so neither JavaScript nor the module holds the whole resized
 * picture: on a fresh isolate, each megabyte of memory touched for the first
 * time costs about a millisecond, and a full-page photo is 6 MB.
 */
export function resizeInto(
  canvas: Bitmap,
  source: Bitmap,
  region: { x: number; y: number; width: number; height: number },
  width: number,
  height: number,
  x: number,
  y: number,
) {
  const ox = Math.round(x);
  const oy = Math.round(y);
  const x0 = Math.max(0, ox);
  const y0 = Math.max(0, oy);
  const x1 = Math.min(canvas.width, ox + width);
  const y1 = Math.min(canvas.height, oy + height);
  if (x1 <= x0 || y1 <= y0) return;
  const wasm = pixels();
  try {
    const src = wasm.scratch_alloc(source.data.length);
    new Uint8Array(wasm.memory.buffer, src, source.data.length).set(source.data);
    wasm.resize_begin(src, source.width, source.height, region.x, region.y, region.width, region.height, width, height, 1);
    const bandRows = Math.max(1, Math.floor(RESIZE_BAND_BYTES / (width * 4)));
    const band = wasm.scratch_alloc(bandRows * width * 4);
    // resize_rows allocates nothing, so the memory (and this view of it) stays as it is.
    const memory = new Uint8Array(wasm.memory.buffer);
    for (let from = y0 - oy; from < y1 - oy; from += bandRows) {
      const to = Math.min(y1 - oy, from + bandRows);
      wasm.resize_rows(from, to, band);
      for (let row = from; row < to; row++) {
        const at = band + ((row - from) * width + (x0 - ox)) * 4;
        canvas.data.set(memory.subarray(at, at + (x1 - x0) * 4), ((oy + row) * canvas.width + x0) * 4);
      }
    }
  } finally {
    wasm.scratch_reset();
  }
}

/**
 * Why the module did not decode a JPEG: "unsupported" for a kind it leaves to
 * photon (progressive, arithmetic-coded, 12-bit, CMYK, an Adobe RGB
 * transform, sampling beyond 2x2), "damaged" for a file that is cut short or
 * inconsistent, which is a skipped picture and is not given to photon.
 */
export type JpegRefusal = "unsupported" | "damaged";

/**
 * Decodes a baseline JPEG (the usual kind: sequential, 8-bit, greyscale or
 * YCbCr, any common chroma subsampling, restart intervals) to opaque RGBA, in
 * this module: cheap on an isolate's first picture, where photon's first call
 * costs more than the decoding itself. Pixels match photon's within one level
 * (same IDCT, upsampling and colour conversion). A picture longer than
 * `maxSide` is shrunk to it here (as resizeRegion would) without its full-size
 * pixels ever leaving the module.
 */
export function decodeJpeg(bytes: Uint8Array, maxSide = Infinity): Bitmap | JpegRefusal {
  const wasm = pixels();
  try {
    const at = wasm.scratch_alloc(bytes.length);
    new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
    const decoded = wasm.jpeg_decode(at, bytes.length);
    if (!decoded) return wasm.jpeg_decode_refusal() === 1 ? "unsupported" : "damaged";
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

const TABLE_SIZE = 1024;

/** A gradient's colours at TABLE_SIZE steps (straight alpha). */
function gradientSteps(gradient: LinearGradient): Rgba[] {
  const steps: Rgba[] = [];
  for (let i = 0; i < TABLE_SIZE; i++) {
    const t = i / (TABLE_SIZE - 1);
    steps.push({
      r: gradient.from.r + (gradient.to.r - gradient.from.r) * t,
      g: gradient.from.g + (gradient.to.g - gradient.from.g) * t,
      b: gradient.from.b + (gradient.to.b - gradient.from.b) * t,
      a: gradient.from.a + (gradient.to.a - gradient.from.a) * t,
    });
  }
  return steps;
}

/** Colours ready for blending in 16-bit fixed point (see fillBox). */
function blendTable(colours: Rgba[], opacity: number): Uint32Array {
  const table = new Uint32Array(colours.length * 4);
  colours.forEach((colour, i) => {
    const a = Math.max(0, Math.min(1, colour.a * opacity));
    const k = Math.round(a * 65536);
    table[i * 4] = Math.round(colour.r * k) + 32768;
    table[i * 4 + 1] = Math.round(colour.g * k) + 32768;
    table[i * 4 + 2] = Math.round(colour.b * k) + 32768;
    table[i * 4 + 3] = 65536 - k;
  });
  return table;
}

/** A pixel as the 32-bit word of little-endian RGBA memory. */
function packRgba(r: number, g: number, b: number, a = 255): number {
  return ((a << 24) | (Math.round(b) << 16) | (Math.round(g) << 8) | Math.round(r)) >>> 0;
}

/** A gradient's colours at TABLE_SIZE steps: as words (opaque fills) and as floats. */
function gradientTable(gradient: LinearGradient) {
  const words = new Uint32Array(TABLE_SIZE);
  const rgba = new Float32Array(TABLE_SIZE * 4);
  for (let i = 0; i < TABLE_SIZE; i++) {
    const t = i / (TABLE_SIZE - 1);
    const r = gradient.from.r + (gradient.to.r - gradient.from.r) * t;
    const g = gradient.from.g + (gradient.to.g - gradient.from.g) * t;
    const b = gradient.from.b + (gradient.to.b - gradient.from.b) * t;
    const a = gradient.from.a + (gradient.to.a - gradient.from.a) * t;
    words[i] = packRgba(r, g, b);
    rgba.set([r, g, b, a], i * 4);
  }
  return { words, rgba };
}

/** The canvas's rows y0..y1, columns x0..x1, copied into the module's memory at `at` row after row, or back from there. */
function copyRegion(wasm: PixelExports, canvas: Bitmap, at: number, x0: number, y0: number, x1: number, y1: number, into: "module" | "canvas") {
  const memory = new Uint8Array(wasm.memory.buffer);
  const whole = x0 === 0 && x1 === canvas.width;
  const rows = whole ? 1 : y1 - y0;
  const rowBytes = (whole ? canvas.width * (y1 - y0) : x1 - x0) * 4;
  for (let row = 0; row < rows; row++) {
    const from = ((y0 + row) * canvas.width + x0) * 4;
    const to = at + row * rowBytes;
    if (into === "module") memory.set(canvas.data.subarray(from, from + rowBytes), to);
    else canvas.data.set(memory.subarray(to, to + rowBytes), from);
  }
}

/**
 * Fills a box with a colour or a CSS linear-gradient (same geometry as CSS:
 * the gradient line passes through the centre at `angle`, long enough that
 * the corners get the end colours), with opacity, rounded corners or an
 * ellipse mask. An opaque box without a mask is written as whole 32-bit words
 * here; anything else is blended in the module (wasm/fills.c), where a rounded
 * box of one colour blends pixel by pixel only in its corners. Translucent
 * colours blend in 16-bit fixed point: per colour, red, green and blue times
 * alpha (x 65536, plus a half for rounding), and what of the pixel under it
 * shows through (x 65536).
 */
export function fillBox(canvas: Bitmap, box: { x: number; y: number; width: number; height: number }, paint: Rgba | LinearGradient, options: DrawOptions = {}) {
  const opacity = options.opacity ?? 1;
  const radius = options.radius ?? 0;
  const bx = Math.round(box.x);
  const by = Math.round(box.y);
  const w = Math.round(box.width);
  const h = Math.round(box.height);
  const x0 = Math.max(0, bx);
  const y0 = Math.max(0, by);
  const x1 = Math.min(canvas.width, bx + w);
  const y1 = Math.min(canvas.height, by + h);
  if (x1 <= x0 || y1 <= y0) return;
  const gradient = "angle" in paint ? paint : null;
  const solid = gradient ? null : (paint as Rgba);
  let sin = 0;
  let cos = 0;
  let length = 1;
  if (gradient) {
    const rad = (gradient.angle * Math.PI) / 180;
    sin = Math.sin(rad);
    cos = Math.cos(rad);
    length = Math.abs(w * sin) + Math.abs(h * cos) || 1;
  }
  const masked = radius > 0 || options.ellipse;
  const table = gradient ? gradientTable(gradient) : null;
  const opaqueFill = !masked && opacity >= 1 && (solid ? solid.a >= 1 : gradient!.from.a >= 1 && gradient!.to.a >= 1);
  if (opaqueFill && (canvas.data.byteOffset & 3) === 0) {
    // Opaque and unmasked: whole rows of one 32-bit word (or a gradient's table).
    const words = new Uint32Array(canvas.data.buffer, canvas.data.byteOffset, canvas.width * canvas.height);
    if (solid) {
      const word = packRgba(solid.r, solid.g, solid.b);
      for (let cy = y0; cy < y1; cy++) words.fill(word, cy * canvas.width + x0, cy * canvas.width + x1);
      return;
    }
    const step = (sin / length) * (TABLE_SIZE - 1);
    for (let cy = y0; cy < y1; cy++) {
      const ty = cy - by + 0.5;
      let t = (((x0 - bx + 0.5 - w / 2) * sin - (ty - h / 2) * cos) / length + 0.5) * (TABLE_SIZE - 1);
      let i = cy * canvas.width + x0;
      for (let cx = x0; cx < x1; cx++, i++, t += step) words[i] = table!.words[t <= 0 ? 0 : t >= TABLE_SIZE - 1 ? TABLE_SIZE - 1 : t | 0];
    }
    return;
  }
  const wasm = pixels();
  try {
    const blend = blendTable(solid ? [solid] : gradientSteps(gradient!), opacity);
    const region = wasm.scratch_alloc((x1 - x0) * (y1 - y0) * 4);
    const solidAt = solid ? wasm.scratch_alloc(32) : 0;
    const stepsAt = table ? wasm.scratch_alloc(table.rgba.byteLength) : 0;
    const blendAt = wasm.scratch_alloc(blend.byteLength);
    if (solid) new Float64Array(wasm.memory.buffer, solidAt, 4).set([solid.r, solid.g, solid.b, solid.a]);
    if (table) new Float32Array(wasm.memory.buffer, stepsAt, table.rgba.length).set(table.rgba);
    new Uint32Array(wasm.memory.buffer, blendAt, blend.length).set(blend);
    copyRegion(wasm, canvas, region, x0, y0, x1, y1, "module");
    wasm.box_blend(region, x0, y0, x1, y1, bx, by, w, h, solidAt, stepsAt, blendAt, sin, cos, length, opacity, radius, options.ellipse ? 1 : 0);
    copyRegion(wasm, canvas, region, x0, y0, x1, y1, "canvas");
  } finally {
    wasm.scratch_reset();
  }
}

/**
 * Lays a colour over the canvas through a coverage (0-1 per pixel of the box
 * at x, y; straight alpha, as a layer of resvg's would be), in the module.
 */
export function blendCoverage(canvas: Bitmap, coverage: { x: number; y: number; width: number; height: number; values: Float32Array }, color: Rgba) {
  const x0 = Math.max(0, coverage.x);
  const y0 = Math.max(0, coverage.y);
  const x1 = Math.min(canvas.width, coverage.x + coverage.width);
  const y1 = Math.min(canvas.height, coverage.y + coverage.height);
  if (x1 <= x0 || y1 <= y0) return;
  const wasm = pixels();
  try {
    const cover = wasm.scratch_alloc(coverage.values.byteLength);
    const region = wasm.scratch_alloc((x1 - x0) * (y1 - y0) * 4);
    new Float32Array(wasm.memory.buffer, cover, coverage.values.length).set(coverage.values);
    copyRegion(wasm, canvas, region, x0, y0, x1, y1, "module");
    wasm.coverage_blend(cover, coverage.width, coverage.x, coverage.y, region, x0, y0, x1, y1, color.r, color.g, color.b, color.a);
    copyRegion(wasm, canvas, region, x0, y0, x1, y1, "canvas");
  } finally {
    wasm.scratch_reset();
  }
}

let warmed = false;

/**
 * Runs each of the module's functions once on tiny inputs, once per isolate,
 * while the first pin's fonts and pictures are being fetched: V8 compiles a
 * WebAssembly function (Liftoff, its baseline compiler) on its first call, and
 * the module's memory takes its first growth here rather than during the
 * render. Optimised code (TurboFan) is not waited for: the long loops run one
 * row per call (decoded_row, encode_mcu_row, filter_row, ...), so V8 moves
 * them to optimised code after their first rows of real work. Eight rounds,
 * as before that, cost more than they saved (decision 068).
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
  const canvas = createBitmap(side, side);
  const translucent = { r: 40, g: 90, b: 160, a: 0.8 };
  decodeJpeg(jpeg);
  resizeInto(canvas, picture, { x: 3.3, y: 1.7, width: 50.5, height: 44.2 }, 120, 100, -20, -10);
  resizeRegion(picture, { x: 0, y: 0, width: side, height: side }, 40, 28);
  blurAlpha(rgba.subarray(0, side * side), side, side, 3);
  const cover = shapeCoverage(outline, 0, 0, 48, 48);
  blendCoverage(canvas, { x: 3, y: 2, width: 48, height: 48, values: cover }, translucent);
  fillBox(canvas, { x: 1, y: 2, width: 60, height: 50 }, translucent, { radius: 9, opacity: 0.9 });
  noteLoad("warmUpMs", performance.now() - started);
}

/** Bytes the pixel module's WebAssembly memory holds (it grows to the largest job and stays). */
export function pixelModuleMemoryBytes(): number {
  return instance ? instance.memory.buffer.byteLength : 0;
}
