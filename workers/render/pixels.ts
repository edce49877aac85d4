/**
 * Pixel operations on straight-alpha RGBA buffers, in plain typed-array code:
 * drawing pictures into the pin with rounded corners and opacity, and laying
 * a transparent layer over the pin. Used by the worker's compositor
 * (render-pin.ts); fills, resampling and JPEG live in WebAssembly (pixel-module.ts).
 */
import type { Rgba } from "./colors.ts";

export interface Bitmap {
  width: number;
  height: number;
  /** Straight (not premultiplied) RGBA, row by row. */
  data: Uint8Array | Uint8ClampedArray;
  /** Whether every pixel is opaque, when known (a decoded JPEG is). */
  opaque?: boolean;
}

export function createBitmap(width: number, height: number): Bitmap {
  return { width, height, data: new Uint8ClampedArray(width * height * 4) };
}

/** True when every pixel is fully opaque (bitmaps carry the answer in `opaque` when known). */
export function isOpaque(bitmap: Bitmap): boolean {
  if (bitmap.opaque !== undefined) return bitmap.opaque;
  const d = bitmap.data;
  for (let i = 3; i < d.length; i += 4) if (d[i] !== 255) return (bitmap.opaque = false);
  return (bitmap.opaque = true);
}

/** How much of a pixel lies inside a rounded rectangle (0-1, anti-aliased edges). */
function roundedCoverage(px: number, py: number, w: number, h: number, radius: number): number {
  if (radius <= 0) return 1;
  const r = Math.min(radius, w / 2, h / 2);
  const cx = px < r ? r : px > w - r ? w - r : px;
  const cy = py < r ? r : py > h - r ? h - r : py;
  const dx = px - cx;
  const dy = py - cy;
  if (dx === 0 && dy === 0) return 1;
  const distance = Math.sqrt(dx * dx + dy * dy);
  return Math.max(0, Math.min(1, r - distance + 0.5));
}

function ellipseCoverage(px: number, py: number, w: number, h: number): number {
  const nx = (px - w / 2) / (w / 2);
  const ny = (py - h / 2) / (h / 2);
  const d = Math.sqrt(nx * nx + ny * ny);
  // Distance to the edge, in pixels along the smaller radius.
  const edge = (1 - d) * Math.min(w, h) * 0.5;
  return Math.max(0, Math.min(1, edge + 0.5));
}

export interface DrawOptions {
  opacity?: number;
  radius?: number;
  ellipse?: boolean;
}

/** Lays `top` (straight alpha) over `canvas` at (x, y), clipped to the canvas. */
export function drawBitmap(canvas: Bitmap, top: Bitmap, x: number, y: number, options: DrawOptions = {}) {
  const opacity = options.opacity ?? 1;
  const radius = options.radius ?? 0;
  const x0 = Math.max(0, Math.round(x));
  const y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(canvas.width, Math.round(x) + top.width);
  const y1 = Math.min(canvas.height, Math.round(y) + top.height);
  const ox = Math.round(x);
  const oy = Math.round(y);
  const dst = canvas.data;
  const src = top.data;
  const masked = radius > 0 || options.ellipse;
  if (!masked && opacity >= 1 && x1 > x0 && isOpaque(top)) {
    // Opaque, unmasked: whole rows are copied.
    for (let cy = y0; cy < y1; cy++) {
      const from = ((cy - oy) * top.width + (x0 - ox)) * 4;
      dst.set(src.subarray(from, from + (x1 - x0) * 4), (cy * canvas.width + x0) * 4);
    }
    return;
  }
  const cornerSize = options.ellipse ? Infinity : Math.ceil(Math.min(radius, top.width / 2, top.height / 2)) + 1;
  // Opaque with rounded corners: rows (or the stretch between the corners) are copied, only the corners blended.
  const copyable = !options.ellipse && opacity >= 1 && x1 > x0 && isOpaque(top);
  for (let cy = y0; cy < y1; cy++) {
    const ty = cy - oy;
    const inCornerRows = ty < cornerSize || ty >= top.height - cornerSize;
    // Runs of pixels to blend one by one: the whole row, or (when the middle is copied) the two corners.
    let firstRun: [number, number] = [x0, x1];
    let secondRun: [number, number] = [x1, x1];
    if (copyable) {
      const left = inCornerRows ? Math.min(x1, Math.max(x0, ox + cornerSize)) : x0;
      const right = inCornerRows ? Math.max(left, Math.min(x1, ox + top.width - cornerSize)) : x1;
      if (right > left) {
        const at = ((cy - oy) * top.width + (left - ox)) * 4;
        dst.set(src.subarray(at, at + (right - left) * 4), (cy * canvas.width + left) * 4);
      }
      if (!inCornerRows) continue;
      firstRun = [x0, left];
      secondRun = [right, x1];
    }
    for (const [from, to] of [firstRun, secondRun]) {
      for (let cx = from; cx < to; cx++) {
        const tx = cx - ox;
        const s = (ty * top.width + tx) * 4;
        let a = (src[s + 3] / 255) * opacity;
        if (masked) {
          if (options.ellipse) a *= ellipseCoverage(tx + 0.5, ty + 0.5, top.width, top.height);
          else if (inCornerRows && (tx < cornerSize || tx >= top.width - cornerSize)) a *= roundedCoverage(tx + 0.5, ty + 0.5, top.width, top.height, radius);
        }
        if (a <= 0) continue;
        const d = (cy * canvas.width + cx) * 4;
        if (a >= 1) {
          dst[d] = src[s];
          dst[d + 1] = src[s + 1];
          dst[d + 2] = src[s + 2];
          dst[d + 3] = 255;
        } else {
          const ia = 1 - a;
          dst[d] = src[s] * a + dst[d] * ia;
          dst[d + 1] = src[s + 1] * a + dst[d + 1] * ia;
          dst[d + 2] = src[s + 2] * a + dst[d + 2] * ia;
          dst[d + 3] = 255;
        }
      }
    }
  }
}

/**
 * Lays a transparent layer of `width` x `height` over the canvas at (x, y).
 * The layer is resvg's output: its pixmap is premultiplied (colour already
 * multiplied by alpha), so a pixel adds its colour and lets through
 * (255 - alpha) of what is under it.
 */
export function drawLayer(canvas: Bitmap, layer: Uint8Array | Uint8ClampedArray, x = 0, y = 0, width = canvas.width, height = canvas.height) {
  const dst = canvas.data;
  for (let ly = 0; ly < height; ly++) {
    const cy = y + ly;
    if (cy < 0 || cy >= canvas.height) continue;
    let i = ly * width * 4;
    let d = (cy * canvas.width + x) * 4;
    for (let lx = 0; lx < width; lx++, i += 4, d += 4) {
      const a = layer[i + 3];
      if (a === 0 || x + lx < 0 || x + lx >= canvas.width) continue;
      if (a === 255) {
        dst[d] = layer[i];
        dst[d + 1] = layer[i + 1];
        dst[d + 2] = layer[i + 2];
      } else {
        const ia = (255 - a) / 255;
        dst[d] = layer[i] + dst[d] * ia;
        dst[d + 1] = layer[i + 1] + dst[d + 1] * ia;
        dst[d + 2] = layer[i + 2] + dst[d + 2] * ia;
      }
      dst[d + 3] = 255;
    }
  }
}

export interface LinearGradient {
  from: Rgba;
  to: Rgba;
  /** CSS angle in degrees (180 = top to bottom). */
  angle: number;
}

/** The source region and output size for drawing a picture into a box with CSS object-fit. */
export function fitGeometry(
  image: { width: number; height: number },
  box: { width: number; height: number },
  fit: "cover" | "contain",
): { crop: { x: number; y: number; width: number; height: number }; width: number; height: number; offsetX: number; offsetY: number } {
  const scale = fit === "cover" ? Math.max(box.width / image.width, box.height / image.height) : Math.min(box.width / image.width, box.height / image.height);
  if (fit === "cover") {
    const cropW = box.width / scale;
    const cropH = box.height / scale;
    return {
      crop: { x: (image.width - cropW) / 2, y: (image.height - cropH) / 2, width: cropW, height: cropH },
      width: Math.round(box.width),
      height: Math.round(box.height),
      offsetX: 0,
      offsetY: 0,
    };
  }
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  return {
    crop: { x: 0, y: 0, width: image.width, height: image.height },
    width,
    height,
    offsetX: (box.width - width) / 2,
    offsetY: (box.height - height) / 2,
  };
}

/** True when every pixel of the canvas has the same colour (an empty pin). */
export function isUniform(canvas: Bitmap): boolean {
  const d = canvas.data;
  for (let i = 4; i < d.length; i += 4) {
    if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) return false;
  }
  return true;
}

/** Tints the canvas through an alpha plane (0-255) placed at (x, y): a shadow of `color` (its alpha 0-1) at the plane's coverage. */
export function drawShadow(canvas: Bitmap, alpha: Uint8Array, x: number, y: number, width: number, height: number, color: Rgba) {
  const dst = canvas.data;
  const strength = color.a / 255;
  for (let ly = 0; ly < height; ly++) {
    const cy = y + ly;
    if (cy < 0 || cy >= canvas.height) continue;
    for (let lx = 0; lx < width; lx++) {
      const cx = x + lx;
      const a = alpha[ly * width + lx] * strength;
      if (a <= 0 || cx < 0 || cx >= canvas.width) continue;
      const d = (cy * canvas.width + cx) * 4;
      const ia = 1 - a;
      dst[d] = color.r * a + dst[d] * ia;
      dst[d + 1] = color.g * a + dst[d + 1] * ia;
      dst[d + 2] = color.b * a + dst[d + 2] * ia;
    }
  }
}
