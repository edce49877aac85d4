/**
 * Pixel operations on straight-alpha RGBA buffers, in plain typed-array code:
 * resizing photos, drawing them into the pin with rounded corners and opacity,
 * filling shapes with colours and CSS-style linear gradients, and laying a
 * transparent layer over the pin. Used by the worker's compositor (raster.ts).
 */
import type { Rgba } from "./colors.ts";

export interface Bitmap {
  width: number;
  height: number;
  /** Straight (not premultiplied) RGBA, row by row. */
  data: Uint8Array | Uint8ClampedArray;
}

export function createBitmap(width: number, height: number): Bitmap {
  return { width, height, data: new Uint8ClampedArray(width * height * 4) };
}

/**
 * Resamples a region of `source` to `width` x `height` with a separable box
 * filter (area averaging) when shrinking and bilinear interpolation when
 * enlarging: sharp, alias-free and fast.
 */
export function resizeRegion(
  source: Bitmap,
  region: { x: number; y: number; width: number; height: number },
  width: number,
  height: number,
): Bitmap {
  // Horizontal pass into a float buffer of width x region.height, then vertical.
  const srcW = source.width;
  const rowsStart = Math.max(0, Math.floor(region.y));
  const rowsEnd = Math.min(source.height, Math.ceil(region.y + region.height));
  const rows = rowsEnd - rowsStart;
  const horizontal = new Float32Array(width * rows * 4);
  const xWeights = weights(region.x, region.width, width, srcW);
  const src = source.data;
  for (let r = 0; r < rows; r++) {
    const srcRow = (rowsStart + r) * srcW * 4;
    const outRow = r * width * 4;
    for (let x = 0; x < width; x++) {
      const { start, values } = xWeights[x];
      let rr = 0;
      let gg = 0;
      let bb = 0;
      let aa = 0;
      for (let k = 0; k < values.length; k++) {
        const w = values[k];
        const i = srcRow + (start + k) * 4;
        const a = src[i + 3] * w;
        rr += src[i] * a;
        gg += src[i + 1] * a;
        bb += src[i + 2] * a;
        aa += a;
      }
      const o = outRow + x * 4;
      // Kept premultiplied until the vertical pass.
      horizontal[o] = rr;
      horizontal[o + 1] = gg;
      horizontal[o + 2] = bb;
      horizontal[o + 3] = aa;
    }
  }
  const out = createBitmap(width, height);
  const yWeights = weights(region.y - rowsStart, region.height, height, rows);
  const dst = out.data;
  for (let y = 0; y < height; y++) {
    const { start, values } = yWeights[y];
    for (let x = 0; x < width; x++) {
      let rr = 0;
      let gg = 0;
      let bb = 0;
      let aa = 0;
      for (let k = 0; k < values.length; k++) {
        const w = values[k];
        const i = ((start + k) * width + x) * 4;
        rr += horizontal[i] * w;
        gg += horizontal[i + 1] * w;
        bb += horizontal[i + 2] * w;
        aa += horizontal[i + 3] * w;
      }
      const o = (y * width + x) * 4;
      if (aa > 0) {
        dst[o] = rr / aa;
        dst[o + 1] = gg / aa;
        dst[o + 2] = bb / aa;
      }
      dst[o + 3] = aa;
    }
  }
  return out;
}

/** Sampling weights for each output pixel along one axis (box filter down, tent up). */
function weights(start: number, span: number, outSize: number, limit: number): { start: number; values: Float32Array }[] {
  const scale = span / outSize;
  const radius = Math.max(1, scale);
  const result: { start: number; values: Float32Array }[] = [];
  for (let i = 0; i < outSize; i++) {
    const center = start + (i + 0.5) * scale;
    const lo = Math.max(0, Math.floor(center - radius));
    const hi = Math.min(limit - 1, Math.ceil(center + radius));
    const values = new Float32Array(hi - lo + 1);
    let sum = 0;
    for (let s = lo; s <= hi; s++) {
      const distance = Math.abs(s + 0.5 - center) / radius;
      const w = Math.max(0, 1 - distance);
      values[s - lo] = w;
      sum += w;
    }
    if (sum === 0) {
      const nearest = Math.min(limit - 1, Math.max(0, Math.floor(center)));
      result.push({ start: nearest, values: Float32Array.of(1) });
      continue;
    }
    for (let k = 0; k < values.length; k++) values[k] /= sum;
    result.push({ start: lo, values });
  }
  return result;
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
  for (let cy = y0; cy < y1; cy++) {
    const ty = cy - oy;
    for (let cx = x0; cx < x1; cx++) {
      const tx = cx - ox;
      const s = (ty * top.width + tx) * 4;
      let a = (src[s + 3] / 255) * opacity;
      if (masked) {
        a *= options.ellipse ? ellipseCoverage(tx + 0.5, ty + 0.5, top.width, top.height) : roundedCoverage(tx + 0.5, ty + 0.5, top.width, top.height, radius);
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

/** Lays a full-canvas transparent layer (resvg's output, straight alpha) over the canvas. */
export function drawLayer(canvas: Bitmap, layer: Uint8Array | Uint8ClampedArray) {
  const dst = canvas.data;
  for (let i = 0; i < dst.length; i += 4) {
    const a = layer[i + 3];
    if (a === 0) continue;
    if (a === 255) {
      dst[i] = layer[i];
      dst[i + 1] = layer[i + 1];
      dst[i + 2] = layer[i + 2];
    } else {
      const ia = 255 - a;
      dst[i] = (layer[i] * a + dst[i] * ia) / 255;
      dst[i + 1] = (layer[i + 1] * a + dst[i + 1] * ia) / 255;
      dst[i + 2] = (layer[i + 2] * a + dst[i + 2] * ia) / 255;
    }
    dst[i + 3] = 255;
  }
}

export interface LinearGradient {
  from: Rgba;
  to: Rgba;
  /** CSS angle in degrees (180 = top to bottom). */
  angle: number;
}

/**
 * Fills a box with a colour or a CSS linear-gradient (same geometry as CSS:
 * the gradient line passes through the centre at `angle`, long enough that
 * the corners get the end colours), with rounded corners or an ellipse mask.
 */
export function fillBox(
  canvas: Bitmap,
  box: { x: number; y: number; width: number; height: number },
  paint: Rgba | LinearGradient,
  options: DrawOptions = {},
) {
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
  const dst = canvas.data;
  for (let cy = y0; cy < y1; cy++) {
    const ty = cy - by + 0.5;
    for (let cx = x0; cx < x1; cx++) {
      const tx = cx - bx + 0.5;
      let r: number;
      let g: number;
      let b: number;
      let a: number;
      if (gradient) {
        const t = Math.max(0, Math.min(1, ((tx - w / 2) * sin - (ty - h / 2) * cos) / length + 0.5));
        r = gradient.from.r + (gradient.to.r - gradient.from.r) * t;
        g = gradient.from.g + (gradient.to.g - gradient.from.g) * t;
        b = gradient.from.b + (gradient.to.b - gradient.from.b) * t;
        a = gradient.from.a + (gradient.to.a - gradient.from.a) * t;
      } else {
        r = solid!.r;
        g = solid!.g;
        b = solid!.b;
        a = solid!.a;
      }
      a *= opacity;
      if (masked) a *= options.ellipse ? ellipseCoverage(tx, ty, w, h) : roundedCoverage(tx, ty, w, h, radius);
      if (a <= 0) continue;
      const d = (cy * canvas.width + cx) * 4;
      const ia = 1 - a;
      dst[d] = r * a + dst[d] * ia;
      dst[d + 1] = g * a + dst[d + 1] * ia;
      dst[d + 2] = b * a + dst[d + 2] * ia;
      dst[d + 3] = 255;
    }
  }
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
