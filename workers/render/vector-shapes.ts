/**
 * Shape layers the compositor cannot fill as plain boxes (rotated rectangles
 * and ellipses, outlines, triangles, waves, arches and paths) as filled
 * outlines for the renderer's own rasteriser (vector.ts), with the geometry
 * layout.ts's shapeMarkup gives resvg: the same gradient lines, strokes inside
 * the box, rotation about the centre. A stroked path (its stroke keeps its
 * width however the path is stretched), or a translucent stroke over a fill,
 * answers null and the stretch is left to resvg.
 */
import type { SvgLayer } from "../../contracts/content/template.ts";
import { isGradient, resolveColor, type Rgba } from "./colors.ts";
import { SHAPE_PATHS, type PinPlan } from "./layout.ts";
import { flattenPath, IDENTITY, invert, LineSink, multiply, type Affine, type VectorShape } from "./vector.ts";

const TRANSPARENT: Rgba = { r: 0, g: 0, b: 0, a: 0 };

function rotationAbout(degrees: number, cx: number, cy: number): Affine {
  if (!degrees) return IDENTITY;
  const rad = (degrees * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  return [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy];
}

/** A rounded rectangle's outline as path data (the radius clamped as SVG clamps it). */
function roundedRect(x: number, y: number, w: number, h: number, radius: number): string {
  const r = Math.max(0, Math.min(radius, w / 2, h / 2));
  if (r === 0) return `M${x} ${y}H${x + w}V${y + h}H${x}Z`;
  return (
    `M${x + r} ${y}H${x + w - r}A${r} ${r} 0 0 1 ${x + w} ${y + r}V${y + h - r}A${r} ${r} 0 0 1 ${x + w - r} ${y + h}` +
    `H${x + r}A${r} ${r} 0 0 1 ${x} ${y + h - r}V${y + r}A${r} ${r} 0 0 1 ${x + r} ${y}Z`
  );
}

function ellipsePath(cx: number, cy: number, rx: number, ry: number): string {
  return `M${cx - rx} ${cy}A${rx} ${ry} 0 1 0 ${cx + rx} ${cy}A${rx} ${ry} 0 1 0 ${cx - rx} ${cy}Z`;
}

function shapeOf(sink: LineSink, color: Rgba, gradient?: VectorShape["gradient"]): VectorShape | null {
  if (sink.length === 0) return null;
  return { lines: sink.lines(), color, gradient, minX: sink.minX, minY: sink.minY, maxX: sink.maxX, maxY: sink.maxY };
}

/** The outlines that draw one shape layer, in painting order; null when resvg must draw it. */
export function layerShapes(layer: SvgLayer, plan: PinPlan): VectorShape[] | null {
  const { x, y, width: w, height: h } = layer;
  const cx = x + w / 2;
  const cy = y + h / 2;
  const opacity = layer.opacity ?? 1;
  const rotate = rotationAbout(layer.rotation ?? 0, cx, cy);
  const strokeColor = layer.stroke && layer.strokeWidth ? resolveColor(layer.stroke, plan.pinColor) : "auto";
  const stroke = strokeColor !== "auto" && strokeColor.a > 0 && layer.strokeWidth ? { color: strokeColor, width: layer.strokeWidth } : null;
  const isBox = layer.shape === "rect" || layer.shape === "ellipse";
  if (stroke && (!isBox || stroke.color.a < 1)) return null;

  // The fill: a colour (its alpha times the layer's opacity) or a gradient along the shapeMarkup line.
  let color: Rgba = TRANSPARENT;
  let gradientLine: [number, number, number, number] | null = null;
  let gradientStops: [Rgba, Rgba] | null = null;
  if (isGradient(layer.fill)) {
    const stop = (c: ReturnType<typeof resolveColor>) => (c === "auto" ? TRANSPARENT : c);
    gradientStops = [stop(resolveColor(layer.fill.from, plan.pinColor)), stop(resolveColor(layer.fill.to, plan.pinColor))];
    if (isBox) {
      const rad = (layer.fill.angle * Math.PI) / 180;
      const length = Math.abs(w * Math.sin(rad)) + Math.abs(h * Math.cos(rad));
      const dx = (Math.sin(rad) * length) / 2;
      const dy = (-Math.cos(rad) * length) / 2;
      gradientLine = [cx - dx, cy - dy, cx + dx, cy + dy];
    } else {
      const rad = ((layer.fill.angle - 90) * Math.PI) / 180;
      gradientLine = [50 - Math.cos(rad) * 50, 50 - Math.sin(rad) * 50, 50 + Math.cos(rad) * 50, 50 + Math.sin(rad) * 50];
    }
    color = { r: 0, g: 0, b: 0, a: opacity };
  } else {
    const resolved = resolveColor(layer.fill, plan.pinColor);
    if (resolved !== "auto") color = { ...resolved, a: resolved.a * opacity };
  }
  const hasFill = gradientStops ? gradientStops[0].a > 0 || gradientStops[1].a > 0 : color.a > 0;

  const shapes: VectorShape[] = [];
  if (isBox) {
    const sw = stroke?.width ?? 0;
    const inset = sw / 2;
    const gradient =
      gradientStops && gradientLine
        ? {
            x1: gradientLine[0],
            y1: gradientLine[1],
            x2: gradientLine[2],
            y2: gradientLine[3],
            from: gradientStops[0],
            to: gradientStops[1],
            toLocal: invert(rotate),
          }
        : undefined;
    if (layer.shape === "ellipse") {
      const rx = w / 2 - inset;
      const ry = h / 2 - inset;
      if (hasFill) {
        // Under an opaque stroke only its inner edge shows the fill.
        const sink = new LineSink(rotate);
        if (!flattenPath(ellipsePath(cx, cy, Math.max(0, rx - inset), Math.max(0, ry - inset)), sink, 0, 0)) return null;
        const shape = shapeOf(sink, color, gradient);
        if (shape) shapes.push(shape);
      }
      if (stroke) {
        const sink = new LineSink(rotate);
        if (!flattenPath(ellipsePath(cx, cy, rx + inset, ry + inset), sink, 0, 0)) return null;
        const inner = new LineSink(rotate);
        if (rx > inset && ry > inset && !flattenPath(ellipsePath(cx, cy, rx - inset, ry - inset), inner, 0, 0)) return null;
        sink.appendReversed(inner);
        const shape = shapeOf(sink, { ...stroke.color, a: stroke.color.a * opacity });
        if (shape) shapes.push(shape);
      }
      return shapes;
    }
    const rx = Math.max(0, Math.min(layer.borderRadius ?? 0, w / 2, h / 2) - inset);
    if (hasFill) {
      const sink = new LineSink(rotate);
      if (!flattenPath(roundedRect(x + sw, y + sw, w - 2 * sw, h - 2 * sw, Math.max(0, rx - inset)), sink, 0, 0)) return null;
      const shape = shapeOf(sink, color, gradient);
      if (shape) shapes.push(shape);
    }
    if (stroke) {
      const sink = new LineSink(rotate);
      if (!flattenPath(roundedRect(x, y, w, h, rx + inset), sink, 0, 0)) return null;
      const inner = new LineSink(rotate);
      if (w > 2 * sw && h > 2 * sw && !flattenPath(roundedRect(x + sw, y + sw, w - 2 * sw, h - 2 * sw, Math.max(0, rx - inset)), inner, 0, 0)) return null;
      sink.appendReversed(inner);
      const shape = shapeOf(sink, { ...stroke.color, a: stroke.color.a * opacity });
      if (shape) shapes.push(shape);
    }
    return shapes;
  }
  if (!hasFill) return shapes;
  // Paths live in a 100 x 100 box stretched to the layer.
  const local = multiply(rotate, [w / 100, 0, 0, h / 100, x, y]);
  const sink = new LineSink(local);
  const d = layer.shape === "path" ? (layer.path ?? "") : SHAPE_PATHS[layer.shape];
  if (!flattenPath(d, sink, 0, 0, Math.max(w, h) / 100)) return null;
  const gradient =
    gradientStops && gradientLine
      ? {
          x1: gradientLine[0],
          y1: gradientLine[1],
          x2: gradientLine[2],
          y2: gradientLine[3],
          from: gradientStops[0],
          to: gradientStops[1],
          toLocal: invert(local),
        }
      : undefined;
  const shape = shapeOf(sink, color, gradient);
  if (shape) shapes.push(shape);
  return shapes;
}
