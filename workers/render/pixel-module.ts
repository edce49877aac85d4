import pixelsModule from "./wasm/pixels.wasm";
import { noteLoad } from "./load-stats.ts";
import { createBitmap, type Bitmap } from "./pixels.ts";

/**
 * The renderer's WebAssembly pixel module (wasm/pixels.c): JPEG encoding
 * (4:2:0, about three times faster than photon's), picture resampling and the
 * blur of text shadows. One
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
    const out = createBitmap(width, height);
    out.data.set(new Uint8Array(wasm.memory.buffer, dst, width * height * 4));
    out.opaque = opaque;
    return out;
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

/** Bytes the pixel module's WebAssembly memory holds (it grows to the largest job and stays). */
export function pixelModuleMemoryBytes(): number {
  return instance ? instance.memory.buffer.byteLength : 0;
}
