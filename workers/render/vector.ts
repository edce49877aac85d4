/**
 * Text and its backgrounds straight into the pin's pixels, without resvg.
 *
 * satori lays text out as SVG: one filled <path> per text run (its glyphs'
 * outlines, already positioned), a filled <path> or <rect> per background box,
 * and <mask> definitions nothing refers to. That small subset is parsed here,
 * curves and arcs are flattened to lines, and each shape is filled with exact
 * area coverage (a signed-area accumulation rasteriser, as font-rs does, in
 * the pixel module) over its own bounding box only, then laid over the pin. Anything outside the
 * subset (a transform, a mask or clip in use, a gradient, an image, a stroke)
 * makes `parseSatoriSvg` answer null, and the caller hands that SVG to resvg
 * as before.
 */
import type { Rgba } from "./colors.ts";
import { blendCoverage, shapeCoverage } from "./pixel-module.ts";
import type { Bitmap } from "./pixels.ts";

export interface VectorShape {
  /** Flattened outline: x0, y0, x1, y1 per line, in pin pixels. */
  lines: Float32Array;
  color: Rgba;
  /** A linear gradient instead of `color` (whose alpha then scales the gradient's). */
  gradient?: ShapeGradient;
  /** Bounding box of the lines (pin pixels, fractional). */
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * A two-stop linear gradient along (x1, y1)-(x2, y2) in the shape's own
 * coordinates; `toLocal` maps pin pixels to those coordinates.
 */
export interface ShapeGradient {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  from: Rgba;
  to: Rgba;
  toLocal: Affine;
}

/** An affine map [a, b, c, d, e, f]: x' = a x + c y + e, y' = b x + d y + f (SVG's matrix order). */
export type Affine = [number, number, number, number, number, number];

export const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];

export function multiply(m: Affine, n: Affine): Affine {
  // m after n.
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

export function invert(m: Affine): Affine {
  const det = m[0] * m[3] - m[1] * m[2];
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}

const SKIPPED_CONTAINERS = new Set(["mask"]);
const IGNORED_EMPTY = new Set(["svg", "g"]);

/** Attributes of a tag, or null when one is not understood. */
function attributesOf(source: string): Map<string, string> | null {
  const attributes = new Map<string, string>();
  const pattern = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*"([^"]*)"/g;
  let match: RegExpExecArray | null;
  let end = 0;
  while ((match = pattern.exec(source))) {
    // Anything but whitespace between name="value" pairs (a bare attribute, single quotes): not ours.
    if (!isBlank(source, end, match.index)) return null;
    attributes.set(match[1], match[2]);
    end = pattern.lastIndex;
  }
  return isBlank(source, end, source.length) ? attributes : null;
}

/** Whether source[from, to) is only whitespace (without copying it out of a tag that may hold a long path). */
function isBlank(source: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = source.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

const NAMED: Record<string, Rgba> = {
  black: { r: 0, g: 0, b: 0, a: 1 },
  white: { r: 255, g: 255, b: 255, a: 1 },
  transparent: { r: 0, g: 0, b: 0, a: 0 },
};

/** A CSS colour as satori writes it (hex, rgb(), rgba(), a few names), or null. */
export function parseColor(value: string): Rgba | null {
  const text = value.trim().toLowerCase();
  if (NAMED[text]) return { ...NAMED[text] };
  let m = /^#([0-9a-f]{3,8})$/.exec(text);
  if (m) {
    const hex = m[1];
    if (hex.length === 3 || hex.length === 4) {
      const n = [...hex].map((c) => parseInt(c + c, 16));
      return { r: n[0], g: n[1], b: n[2], a: hex.length === 4 ? n[3] / 255 : 1 };
    }
    if (hex.length === 6 || hex.length === 8) {
      const n = [0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2) || "ff", 16));
      return { r: n[0], g: n[1], b: n[2], a: n[3] / 255 };
    }
    return null;
  }
  m = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+%?)\s*)?\)$/.exec(text);
  if (m) {
    const alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return { r: Math.min(255, +m[1]), g: Math.min(255, +m[2]), b: Math.min(255, +m[3]), a: Math.max(0, Math.min(1, alpha)) };
  }
  return null;
}

/** Collects flattened lines (through an optional affine map) and their bounds. */
export class LineSink {
  private data = new Float32Array(256);
  private matrix: Affine | null;
  constructor(matrix: Affine | null = null) {
    this.matrix = matrix;
  }
  length = 0;
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;

  line(x0: number, y0: number, x1: number, y1: number) {
    const m = this.matrix;
    if (m) {
      const tx0 = m[0] * x0 + m[2] * y0 + m[4];
      const ty0 = m[1] * x0 + m[3] * y0 + m[5];
      const tx1 = m[0] * x1 + m[2] * y1 + m[4];
      y1 = m[1] * x1 + m[3] * y1 + m[5];
      x0 = tx0;
      y0 = ty0;
      x1 = tx1;
    }
    if (y0 === y1) {
      // Horizontal lines add no area but still bound the shape.
      this.bound(x0, y0);
      this.bound(x1, y1);
      return;
    }
    if (this.length + 4 > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = x0;
    this.data[this.length++] = y0;
    this.data[this.length++] = x1;
    this.data[this.length++] = y1;
    this.bound(x0, y0);
    this.bound(x1, y1);
  }

  private bound(x: number, y: number) {
    if (x < this.minX) this.minX = x;
    if (x > this.maxX) this.maxX = x;
    if (y < this.minY) this.minY = y;
    if (y > this.maxY) this.maxY = y;
  }

  lines(): Float32Array {
    return this.data.slice(0, this.length);
  }

  /** Adds another sink's lines run backwards (a hole: its winding cancels the outline's). */
  appendReversed(other: LineSink) {
    const lines = other.lines();
    const saved = this.matrix;
    this.matrix = null;
    for (let i = 0; i < lines.length; i += 4) this.line(lines[i + 2], lines[i + 3], lines[i], lines[i + 1]);
    this.matrix = saved;
  }
}

/** Flattening tolerance in pixels (how far a line may stray from the curve). */
const TOLERANCE = 0.05;

/**
 * Flattens SVG path data into `sink`, offset by (dx, dy). `scale` is how much
 * the sink enlarges the path (its tolerance shrinks to match). False when the
 * data is malformed.
 */
export function flattenPath(d: string, sink: LineSink, dx: number, dy: number, scale = 1): boolean {
  const tolerance = TOLERANCE / Math.max(1e-3, scale);
  const segmentsFor = (deviation: number) => Math.max(1, Math.min(128, Math.ceil(Math.sqrt(deviation / tolerance))));
  const tokens = d.match(/[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d*\.\d+|\d+\.?\d*)(?:[eE][-+]?\d+)?/g);
  if (!tokens) return true;
  let i = 0;
  let command = "";
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  // The last control point, for S and T.
  let cx = 0;
  let cy = 0;
  let lastCurve = "";
  // A token is a command letter or a number (the pattern above never starts a number with a letter).
  const isNumber = (t: string | undefined) => {
    if (t === undefined) return false;
    const c = t.charCodeAt(0) | 32;
    return c < 97 || c > 122;
  };
  const num = () => {
    const t = tokens[i++];
    if (!isNumber(t)) throw new Error("bad path");
    return parseFloat(t);
  };
  const lineTo = (nx: number, ny: number) => {
    sink.line(x + dx, y + dy, nx + dx, ny + dy);
    x = nx;
    y = ny;
  };
  const quadTo = (x1: number, y1: number, x2: number, y2: number) => {
    const devX = x - 2 * x1 + x2;
    const devY = y - 2 * y1 + y2;
    const n = segmentsFor(Math.hypot(devX, devY) / 4);
    const x0 = x;
    const y0 = y;
    for (let k = 1; k <= n; k++) {
      const t = k / n;
      const mt = 1 - t;
      lineTo(mt * mt * x0 + 2 * mt * t * x1 + t * t * x2, mt * mt * y0 + 2 * mt * t * y1 + t * t * y2);
    }
    cx = x1;
    cy = y1;
  };
  const cubicTo = (x1: number, y1: number, x2: number, y2: number, x3: number, y3: number) => {
    const dev = Math.max(Math.hypot(x - 2 * x1 + x2, y - 2 * y1 + y2), Math.hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3));
    const n = segmentsFor((dev * 3) / 4);
    const x0 = x;
    const y0 = y;
    for (let k = 1; k <= n; k++) {
      const t = k / n;
      const mt = 1 - t;
      const a = mt * mt * mt;
      const b = 3 * mt * mt * t;
      const c = 3 * mt * t * t;
      const e = t * t * t;
      lineTo(a * x0 + b * x1 + c * x2 + e * x3, a * y0 + b * y1 + c * y2 + e * y3);
    }
    cx = x2;
    cy = y2;
  };
  const arcTo = (rx: number, ry: number, rotation: number, large: boolean, sweep: boolean, x2: number, y2: number) => {
    // SVG's endpoint arc to centre form (SVG 1.1, appendix F.6).
    const x1 = x;
    const y1 = y;
    if (x1 === x2 && y1 === y2) return;
    rx = Math.abs(rx);
    ry = Math.abs(ry);
    if (rx === 0 || ry === 0) {
      lineTo(x2, y2);
      return;
    }
    const phi = (rotation * Math.PI) / 180;
    const cos = Math.cos(phi);
    const sin = Math.sin(phi);
    const hx = (x1 - x2) / 2;
    const hy = (y1 - y2) / 2;
    const x1p = cos * hx + sin * hy;
    const y1p = -sin * hx + cos * hy;
    const lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
    if (lambda > 1) {
      rx *= Math.sqrt(lambda);
      ry *= Math.sqrt(lambda);
    }
    const num2 = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
    const den = rx * rx * y1p * y1p + ry * ry * x1p * x1p;
    let factor = Math.sqrt(Math.max(0, num2 / den));
    if (large === sweep) factor = -factor;
    const cxp = (factor * rx * y1p) / ry;
    const cyp = (-factor * ry * x1p) / rx;
    const ccx = cos * cxp - sin * cyp + (x1 + x2) / 2;
    const ccy = sin * cxp + cos * cyp + (y1 + y2) / 2;
    const angle = (ux: number, uy: number, vx: number, vy: number) => {
      const a = Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
      return a;
    };
    const theta1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry);
    let delta = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry);
    if (!sweep && delta > 0) delta -= 2 * Math.PI;
    if (sweep && delta < 0) delta += 2 * Math.PI;
    const radius = Math.max(rx, ry);
    // Steps so the chord's sagitta stays within the tolerance.
    const step = 2 * Math.acos(Math.max(-1, Math.min(1, 1 - tolerance / radius)));
    const n = Math.max(2, Math.min(256, Math.ceil(Math.abs(delta) / (step || 0.1))));
    for (let k = 1; k <= n; k++) {
      const t = k === n ? theta1 + delta : theta1 + (delta * k) / n;
      const px = k === n ? x2 : ccx + rx * Math.cos(t) * cos - ry * Math.sin(t) * sin;
      const py = k === n ? y2 : ccy + rx * Math.cos(t) * sin + ry * Math.sin(t) * cos;
      lineTo(px, py);
    }
  };
  const close = () => {
    if (x !== startX || y !== startY) lineTo(startX, startY);
    x = startX;
    y = startY;
  };
  try {
    while (i < tokens.length) {
      const token = tokens[i];
      if (!isNumber(token)) {
        command = token;
        i++;
        if (command === "Z" || command === "z") {
          close();
          lastCurve = "";
          continue;
        }
      } else if (!command || command === "Z" || command === "z") {
        return false;
      }
      const relative = command === command.toLowerCase();
      const ox = relative ? x : 0;
      const oy = relative ? y : 0;
      switch (command.toUpperCase()) {
        case "M": {
          // A new subpath closes the last one (fills are closed shapes).
          if (x !== startX || y !== startY) close();
          x = num() + ox;
          y = num() + oy;
          startX = x;
          startY = y;
          // Further pairs are lines.
          command = relative ? "l" : "L";
          lastCurve = "";
          break;
        }
        case "L":
          lineTo(num() + ox, num() + oy);
          lastCurve = "";
          break;
        case "H":
          lineTo(num() + ox, y);
          lastCurve = "";
          break;
        case "V":
          lineTo(x, num() + oy);
          lastCurve = "";
          break;
        case "Q": {
          const x1 = num() + ox;
          const y1 = num() + oy;
          quadTo(x1, y1, num() + ox, num() + oy);
          lastCurve = "Q";
          break;
        }
        case "T": {
          const x1 = lastCurve === "Q" ? 2 * x - cx : x;
          const y1 = lastCurve === "Q" ? 2 * y - cy : y;
          quadTo(x1, y1, num() + ox, num() + oy);
          lastCurve = "Q";
          break;
        }
        case "C": {
          const x1 = num() + ox;
          const y1 = num() + oy;
          const x2 = num() + ox;
          const y2 = num() + oy;
          cubicTo(x1, y1, x2, y2, num() + ox, num() + oy);
          lastCurve = "C";
          break;
        }
        case "S": {
          const x1 = lastCurve === "C" ? 2 * x - cx : x;
          const y1 = lastCurve === "C" ? 2 * y - cy : y;
          const x2 = num() + ox;
          const y2 = num() + oy;
          cubicTo(x1, y1, x2, y2, num() + ox, num() + oy);
          lastCurve = "C";
          break;
        }
        case "A": {
          const rx = num();
          const ry = num();
          const rotation = num();
          const large = num() !== 0;
          const sweep = num() !== 0;
          arcTo(rx, ry, rotation, large, sweep, num() + ox, num() + oy);
          lastCurve = "";
          break;
        }
        default:
          return false;
      }
    }
    if (x !== startX || y !== startY) close();
    return true;
  } catch {
    return false;
  }
}

/**
 * The filled shapes of an SVG satori wrote for text, in pin pixels (the SVG's
 * origin is at `offsetX`, `offsetY` of the pin), in painting order; null when
 * the SVG uses anything beyond plain filled paths and rectangles.
 */
export function parseSatoriSvg(svg: string, offsetX: number, offsetY: number): VectorShape[] | null {
  const shapes: VectorShape[] = [];
  const tagPattern = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*?)(\/?)>/g;
  let skipping = 0;
  let match: RegExpExecArray | null;
  let consumedTo = 0;
  while ((match = tagPattern.exec(svg))) {
    // Text between tags (there is none in satori's shapes) would be content we do not draw.
    if (!isBlank(svg, consumedTo, match.index)) return null;
    consumedTo = match.index + match[0].length;
    const [, closing, name, rawAttributes, selfClosing] = match;
    if (closing) {
      if (SKIPPED_CONTAINERS.has(name)) skipping--;
      continue;
    }
    if (skipping > 0) {
      if (SKIPPED_CONTAINERS.has(name) && !selfClosing) skipping++;
      continue;
    }
    if (SKIPPED_CONTAINERS.has(name)) {
      if (!selfClosing) skipping++;
      continue;
    }
    const attributes = attributesOf(rawAttributes);
    if (!attributes) return null;
    if (IGNORED_EMPTY.has(name)) {
      // The root's size and namespace; groups without attributes. Anything else (a transform, opacity, a mask in use) is not ours.
      const allowed = name === "svg" ? new Set(["width", "height", "viewBox", "xmlns"]) : new Set<string>();
      for (const key of attributes.keys()) if (!allowed.has(key)) return null;
      if (name === "svg") {
        const viewBox = attributes.get("viewBox");
        if (viewBox && !/^0 0 [\d.]+ [\d.]+$/.test(viewBox.trim())) return null;
      }
      continue;
    }
    if (name !== "path" && name !== "rect") return null;
    const known = new Set(["fill", "d", "x", "y", "width", "height", "fill-opacity", "opacity", "id"]);
    for (const key of attributes.keys()) if (!known.has(key)) return null;
    const fill = attributes.get("fill");
    if (fill === undefined || fill === "none") continue;
    const color = parseColor(fill);
    if (!color) return null;
    color.a *= Number(attributes.get("fill-opacity") ?? 1) * Number(attributes.get("opacity") ?? 1);
    if (!(color.a > 0)) continue;
    const sink = new LineSink();
    if (name === "path") {
      if (!flattenPath(attributes.get("d") ?? "", sink, offsetX, offsetY)) return null;
    } else {
      const x = Number(attributes.get("x") ?? 0) + offsetX;
      const y = Number(attributes.get("y") ?? 0) + offsetY;
      const w = Number(attributes.get("width") ?? 0);
      const h = Number(attributes.get("height") ?? 0);
      if (![x, y, w, h].every(Number.isFinite)) return null;
      if (w <= 0 || h <= 0) continue;
      sink.line(x, y, x + w, y);
      sink.line(x + w, y, x + w, y + h);
      sink.line(x + w, y + h, x, y + h);
      sink.line(x, y + h, x, y);
    }
    if (sink.length === 0) continue;
    shapes.push({ lines: sink.lines(), color, minX: sink.minX, minY: sink.minY, maxX: sink.maxX, maxY: sink.maxY });
  }
  if (skipping !== 0 || !isBlank(svg, consumedTo, svg.length)) return null;
  return shapes;
}

/** A shape's coverage (0-1) over its own box, by exact signed area per pixel (nonzero fill). */
export interface Coverage {
  x: number;
  y: number;
  width: number;
  height: number;
  values: Float32Array;
}

/** Rasterises a shape: its coverage over its bounding box, in pin pixels (in the pixel module). */
export function rasterise(shape: VectorShape): Coverage {
  const x0 = Math.floor(shape.minX);
  const y0 = Math.floor(shape.minY);
  const width = Math.ceil(shape.maxX) - x0 + 1;
  const height = Math.ceil(shape.maxY) - y0;
  return { x: x0, y: y0, width, height, values: shapeCoverage(shape.lines, x0, y0, width, height) };
}

/** Lays a shape over the canvas through its coverage: its colour, or its gradient (straight alpha, as a layer of resvg's would be). */
export function fillShape(canvas: Bitmap, coverage: Coverage, shape: VectorShape) {
  if (shape.gradient) fillGradient(canvas, coverage, shape.gradient, shape.color.a);
  else blendCoverage(canvas, coverage, shape.color);
}

function fillGradient(canvas: Bitmap, coverage: Coverage, gradient: ShapeGradient, opacity: number) {
  const dst = canvas.data;
  const cx0 = Math.max(0, coverage.x);
  const cy0 = Math.max(0, coverage.y);
  const cx1 = Math.min(canvas.width, coverage.x + coverage.width);
  const cy1 = Math.min(canvas.height, coverage.y + coverage.height);
  const { from, to, toLocal: m } = gradient;
  const gx = gradient.x2 - gradient.x1;
  const gy = gradient.y2 - gradient.y1;
  const length2 = gx * gx + gy * gy || 1;
  for (let y = cy0; y < cy1; y++) {
    let v = (y - coverage.y) * coverage.width + (cx0 - coverage.x);
    let d = (y * canvas.width + cx0) * 4;
    for (let x = cx0; x < cx1; x++, v++, d += 4) {
      const cover = coverage.values[v];
      if (cover <= 0) continue;
      const lx = m[0] * (x + 0.5) + m[2] * (y + 0.5) + m[4];
      const ly = m[1] * (x + 0.5) + m[3] * (y + 0.5) + m[5];
      let t = ((lx - gradient.x1) * gx + (ly - gradient.y1) * gy) / length2;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const a = cover * opacity * (from.a + (to.a - from.a) * t);
      if (a <= 0) continue;
      const ia = 1 - a;
      dst[d] = (from.r + (to.r - from.r) * t) * a + dst[d] * ia;
      dst[d + 1] = (from.g + (to.g - from.g) * t) * a + dst[d + 1] * ia;
      dst[d + 2] = (from.b + (to.b - from.b) * t) * a + dst[d + 2] * ia;
      dst[d + 3] = 255;
    }
  }
}

/** Adds a shape's coverage to an alpha plane over `frame` (alpha compositing: a + (1 - a) * plane). */
export function addToAlpha(plane: Float32Array, frame: { x: number; y: number; width: number; height: number }, coverage: Coverage, opacity: number) {
  const x0 = Math.max(frame.x, coverage.x);
  const y0 = Math.max(frame.y, coverage.y);
  const x1 = Math.min(frame.x + frame.width, coverage.x + coverage.width);
  const y1 = Math.min(frame.y + frame.height, coverage.y + coverage.height);
  for (let y = y0; y < y1; y++) {
    let v = (y - coverage.y) * coverage.width + (x0 - coverage.x);
    let p = (y - frame.y) * frame.width + (x0 - frame.x);
    for (let x = x0; x < x1; x++, v++, p++) {
      const a = coverage.values[v] * opacity;
      if (a > 0) plane[p] = a + (1 - a) * plane[p];
    }
  }
}
