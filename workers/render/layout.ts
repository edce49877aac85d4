import * as v from "valibot";
import {
  PIN_HEIGHT,
  PIN_WIDTH,
  PostContent,
  type Fill,
  type ImageLayer,
  type Layer,
  type PostContent as PostInput,
  type ResolvedPostContent,
  type SvgLayer,
  type TemplateDesign,
  type TextLayer,
  type VideoLayer,
} from "../../contracts/content/template.ts";
import { DEFAULT_FONT_FAMILY } from "../../contracts/content/template.ts";
import { fillToCss, isGradient, parseHex, representative, resolveColor, textColor, toCss, WHITE_TEXT, type Rgba } from "./colors.ts";
import type { FontRequest, LoadedFont } from "./fonts.ts";
import { autoFitText, fixedSizeText, type TextMetrics } from "./text-fit.ts";
import { escapeHtml } from "../../contracts/html.ts";

/**
 * The layout half of the engine (isomorphic: the browser preview and the worker
 * both use it). It decides everything about how a pin looks: which picture
 * feeds each image layer, the text of each text layer, its size (auto-fit),
 * lines and colour, and the satori elements that draw it.
 */

export type PictureLayer = ImageLayer | VideoLayer;

export interface PlannedText {
  layer: TextLayer;
  metrics: TextMetrics;
  font: LoadedFont;
  color: Rgba;
  /** A shadow under text drawn straight on a photo. */
  shadow: boolean;
  /** The box the text is fitted into (the layer minus its background padding). */
  inner: { x: number; y: number; width: number; height: number };
}

export interface PlannedPicture {
  layer: PictureLayer;
  /** The picture's URL, or null when the post has none for this layer (the layer is then left empty). */
  url: string | null;
}

/** One stretch of the layer stack, drawn in order. */
export type Segment =
  /** Drawn straight into pixels by the compositor (pictures and plain rectangles/ellipses). */
  | { kind: "raster"; layers: (PlannedPicture | { shape: SvgLayer })[] }
  /** Other shapes (paths, rotated or stroked shapes, pictures that are rotated): plain SVG for resvg. */
  | { kind: "shapes"; layers: Layer[] }
  /** Text, laid out by satori and rasterised by resvg; with `shadow`, the compositor adds a soft shadow under it. */
  | { kind: "texts"; layers: TextLayer[]; shadow: boolean };

export interface PinPlan {
  width: number;
  height: number;
  post: ResolvedPostContent;
  pinColor: Rgba;
  background: Fill;
  texts: Map<string, PlannedText>;
  pictures: Map<string, PlannedPicture>;
  segments: Segment[];
  /** The fonts satori needs (one per family and weight). */
  fonts: LoadedFont[];
}

/** Fonts the plan needs: family and weight of every visible text layer (with the post's uploaded font URL for its family). */
export function fontsNeeded(design: TemplateDesign, post: PostInput): FontRequest[] {
  const family = post.fontFamily || DEFAULT_FONT_FAMILY;
  const wanted = new Map<string, FontRequest>();
  for (const layer of design.layers) {
    if (layer.type !== "text" || layer.hidden) continue;
    const style = layer.style ?? {};
    const requested = !style.fontFamily || style.fontFamily === "design" ? family : style.fontFamily;
    const weight = (style.fontWeight ?? 700) as 400 | 700;
    const url = post.fontUrl && requested === family ? post.fontUrl : undefined;
    wanted.set(`${requested}|${weight}`, url ? { family: requested, weight, url } : { family: requested, weight });
  }
  return [...wanted.values()];
}

export function textOf(layer: TextLayer, post: ResolvedPostContent): string {
  const prefix = layer.text ?? "";
  switch (layer.content) {
    case "custom":
      return prefix;
    case "title":
      return prefix + post.title;
    case "description":
      return prefix + post.description;
    case "urlText":
      return prefix + post.URLText;
    case "brandName":
      return prefix + post.brandName;
    case "price":
      return post.price ? prefix + post.price : "";
    case "listItem": {
      const item = post.listItems[layer.item ?? 0]?.trim();
      return item ? prefix + item : "";
    }
    case "quote":
      return post.quote.trim() ? prefix + post.quote : "";
  }
}

/** Which picture feeds an image layer. */
export function pictureFor(layer: PictureLayer, post: ResolvedPostContent): string | null {
  const source = layer.useLogoImage ? "logo" : (layer.source ?? "detected");
  const index = layer.imageIndex ?? 0;
  switch (source) {
    case "logo":
      return post.logoImage || null;
    case "url":
      return layer.src || null;
    case "uploaded":
      return post.uploadedImages[index] ?? post.uploadedImages[0] ?? post.allImages[index] ?? post.allImages[0] ?? null;
    case "detected":
      return post.allImages.length ? post.allImages[index % post.allImages.length] : (post.uploadedImages[0] ?? null);
  }
}

function isPicture(layer: Layer): layer is PictureLayer {
  return layer.type === "Image" || layer.type === "Video";
}

/** Layers the compositor draws itself: unrotated pictures, and unrotated plain rectangles and ellipses without a stroke. */
function isRasterLayer(layer: Layer): boolean {
  if ((layer.rotation ?? 0) !== 0) return false;
  if (isPicture(layer)) return true;
  return layer.type === "SVG" && (layer.shape === "rect" || layer.shape === "ellipse") && !(layer.strokeWidth && layer.stroke);
}

function contains(outer: Layer, x: number, y: number) {
  return x >= outer.x && x <= outer.x + outer.width && y >= outer.y && y <= outer.y + outer.height;
}

/** What lies under the middle of a text layer: a colour, or a photo. */
function backdropOf(index: number, layers: Layer[], plan: Pick<PinPlan, "background" | "pinColor">): Rgba | "photo" {
  const layer = layers[index];
  const cx = layer.x + layer.width / 2;
  const cy = layer.y + layer.height / 2;
  const base = representative(plan.background, plan.pinColor, WHITE_TEXT);
  for (let i = index - 1; i >= 0; i--) {
    const below = layers[i];
    if (below.hidden || !contains(below, cx, cy)) continue;
    if (isPicture(below)) return "photo";
    if (below.type === "SVG") {
      const under = backdropBelow(i, layers, plan, base);
      const color = representative(below.fill, plan.pinColor, under === "photo" ? { r: 60, g: 60, b: 60, a: 1 } : under);
      // A mostly transparent shape over a photo still leaves a photo behind.
      const alpha = isGradient(below.fill) ? 1 : ((resolveColor(below.fill, plan.pinColor) as Rgba).a ?? 1);
      if (under === "photo" && alpha * (below.opacity ?? 1) < 0.6) return "photo";
      return color;
    }
  }
  return base;
}

function backdropBelow(index: number, layers: Layer[], plan: Pick<PinPlan, "background" | "pinColor">, base: Rgba): Rgba | "photo" {
  return index === 0 ? base : backdropOf(index, layers, plan);
}

/** The pictures planPin will give the design's image layers for this post (no fonts needed): so they can start loading first. */
export function picturesNeeded(design: TemplateDesign, postInput: PostInput): string[] {
  const post = v.parse(PostContent, postInput);
  const urls = design.layers.filter((layer): layer is PictureLayer => !layer.hidden && isPicture(layer)).map((layer) => pictureFor(layer, post));
  return [...new Set(urls.filter((url): url is string => !!url))];
}

/**
 * Decides the whole pin. `fonts` must hold every family/weight of
 * fontsNeeded() (a LoadedFont per request, possibly the fallback).
 */
export function planPin(design: TemplateDesign, postInput: PostInput, fonts: LoadedFont[], size = { width: PIN_WIDTH, height: PIN_HEIGHT }): PinPlan {
  const post = v.parse(PostContent, postInput);
  const pinColor: Rgba = { r: post.color.r, g: post.color.g, b: post.color.b, a: 1 };
  const layers = design.layers.filter((layer) => !layer.hidden);
  const background = design.background ?? "#ffffff";
  const plan: PinPlan = {
    width: size.width,
    height: size.height,
    post,
    pinColor,
    background,
    texts: new Map(),
    pictures: new Map(),
    segments: [],
    fonts: [],
  };
  const fontFor = (family: string, weight: number) =>
    fonts.find((font) => font.family === family && font.weight === weight) ?? fonts.find((font) => font.family === family) ?? fonts[0];

  layers.forEach((layer, index) => {
    if (isPicture(layer)) {
      plan.pictures.set(layer.id, { layer, url: pictureFor(layer, post) });
      return;
    }
    if (layer.type !== "text") return;
    const style = layer.style ?? {};
    const family = !style.fontFamily || style.fontFamily === "design" ? post.fontFamily || DEFAULT_FONT_FAMILY : style.fontFamily;
    const font = fontFor(family, style.fontWeight ?? 700);
    if (!font) throw new Error("planPin needs the fonts of fontsNeeded()");
    // The design's Uppercase, when on, puts every text of every template in capitals (issue 40 point 4: a layer's
    // own "not uppercase" only says how it reads with Uppercase off); a layer of capitals keeps them either way.
    const uppercase = post.useUpperCaseFont || style.uppercase === true;
    const raw = textOf(layer, post).trim();
    const text = uppercase ? raw.toUpperCase() : raw;
    const padding = style.background ? (style.background.padding ?? 24) : 0;
    const inner = {
      x: layer.x + padding,
      y: layer.y + padding,
      width: Math.max(1, layer.width - 2 * padding),
      height: Math.max(1, layer.height - 2 * padding),
    };
    const lineHeight = style.lineHeight ?? 1.15;
    const fitOptions = { font: font.font, text, box: inner, lineHeight, letterSpacing: style.letterSpacing ?? 0, maxLines: layer.maxLines };
    const metrics =
      style.fontSize === "auto" || style.fontSize === undefined ? autoFitText(fitOptions) : fixedSizeText({ ...fitOptions, fontSize: style.fontSize });

    const backdrop = style.background
      ? representative(style.background.fill, pinColor, backdropColor(backdropOf(index, layers, plan)))
      : backdropOf(index, layers, plan);
    const wanted = resolveColor(style.color ?? "auto", pinColor);
    const designColor = wanted === "auto" && post.fontColor ? parseHex(post.fontColor) : wanted;
    const onPhoto = backdrop === "photo";
    const color = onPhoto ? (designColor === "auto" ? WHITE_TEXT : designColor) : textColor(designColor, backdrop, post.fixLowContrastText);
    plan.texts.set(layer.id, { layer, metrics, font, color, shadow: onPhoto, inner });
  });

  // Split the stack into stretches: drawn by the compositor, as plain SVG shapes, or as text by satori.
  for (const layer of layers) {
    const last = plan.segments.at(-1);
    if (isRasterLayer(layer)) {
      const item = isPicture(layer) ? plan.pictures.get(layer.id)! : { shape: layer as SvgLayer };
      if (last?.kind === "raster") last.layers.push(item);
      else plan.segments.push({ kind: "raster", layers: [item] });
    } else if (layer.type === "text") {
      const shadow = plan.texts.get(layer.id)?.shadow ?? false;
      if (last?.kind === "texts" && last.shadow === shadow) last.layers.push(layer);
      else plan.segments.push({ kind: "texts", layers: [layer], shadow });
    } else if (last?.kind === "shapes") last.layers.push(layer);
    else plan.segments.push({ kind: "shapes", layers: [layer] });
  }

  const seen = new Set<string>();
  for (const text of plan.texts.values()) {
    const key = `${text.font.family}|${text.font.weight}`;
    if (!seen.has(key)) {
      seen.add(key);
      plan.fonts.push(text.font);
    }
  }
  return plan;
}

function backdropColor(backdrop: Rgba | "photo"): Rgba {
  return backdrop === "photo" ? { r: 60, g: 60, b: 60, a: 1 } : backdrop;
}

// ---------------------------------------------------------------- satori elements

/** A satori element (the React element shape, without React). */
export interface SatoriNode {
  type: string;
  props: { style?: Record<string, unknown>; children?: SatoriNode | SatoriNode[] | string; [key: string]: unknown };
}

const node = (type: string, props: SatoriNode["props"]): SatoriNode => ({ type, props });

function boxStyle(layer: Layer): Record<string, unknown> {
  const style: Record<string, unknown> = {
    position: "absolute",
    left: layer.x,
    top: layer.y,
    width: layer.width,
    height: layer.height,
    display: "flex",
  };
  if (layer.rotation) style.transform = `rotate(${layer.rotation}deg)`;
  if ((layer.opacity ?? 1) < 1) style.opacity = layer.opacity;
  return style;
}

export const SHAPE_PATHS: Record<string, string> = {
  triangle: "M50 0 L100 100 L0 100 Z",
  wave: "M0 30 C 20 0, 35 0, 50 20 S 80 45, 100 15 L100 100 L0 100 Z",
  arch: "M0 100 L0 50 A50 50 0 0 1 100 50 L100 100 Z",
};

function shapeNode(layer: SvgLayer, plan: PinPlan): SatoriNode {
  const style = boxStyle(layer);
  if (layer.shape === "rect" || layer.shape === "ellipse") {
    const fill = fillToCss(layer.fill, plan.pinColor);
    return node("div", {
      style: {
        ...style,
        ...(isGradient(layer.fill) ? { backgroundImage: fill } : { backgroundColor: fill }),
        borderRadius: layer.shape === "ellipse" ? "50%" : (layer.borderRadius ?? 0),
        ...(layer.stroke && layer.strokeWidth ? { border: `${layer.strokeWidth}px solid ${fillToCss(layer.stroke, plan.pinColor)}` } : {}),
      },
    });
  }
  const d = layer.shape === "path" ? (layer.path ?? "") : SHAPE_PATHS[layer.shape];
  const gradient = isGradient(layer.fill);
  const color = (c: Fill) => fillToCss(c, plan.pinColor);
  const children: SatoriNode[] = [];
  if (gradient && isGradient(layer.fill)) {
    const rad = ((layer.fill.angle - 90) * Math.PI) / 180;
    const [x1, y1, x2, y2] = [50 - Math.cos(rad) * 50, 50 - Math.sin(rad) * 50, 50 + Math.cos(rad) * 50, 50 + Math.sin(rad) * 50];
    children.push(
      node("defs", {
        children: node("linearGradient", {
          id: `g-${layer.id}`,
          gradientUnits: "userSpaceOnUse",
          x1,
          y1,
          x2,
          y2,
          children: [node("stop", { offset: "0", stopColor: color(layer.fill.from) }), node("stop", { offset: "1", stopColor: color(layer.fill.to) })],
        }),
      }),
    );
  }
  children.push(
    node("path", {
      d,
      fill: gradient ? `url(#g-${layer.id})` : color(layer.fill),
      ...(layer.stroke && layer.strokeWidth ? { stroke: color(layer.stroke), strokeWidth: layer.strokeWidth, vectorEffect: "non-scaling-stroke" } : {}),
    }),
  );
  return node("div", {
    style,
    children: node("svg", { width: layer.width, height: layer.height, viewBox: "0 0 100 100", preserveAspectRatio: "none", children }),
  });
}

/** The soft shadow under text on photos (CSS text-shadow; the worker draws the same with a box blur). */
export const TEXT_SHADOW = { dx: 0, dy: 2, blur: 10, color: { r: 0, g: 0, b: 0, a: 0.55 } } as const;

/** `layer` is where to draw (possibly moved into a frame); the plan holds what to draw. */
function textNode(text: PlannedText, layer: TextLayer, plan: PinPlan, omitShadow = false): SatoriNode {
  const { metrics, color } = text;
  const style = layer.style ?? {};
  const align = style.align ?? "center";
  const vertical = style.verticalAlign ?? "middle";
  const flexAlign = (a: string) => (a === "left" || a === "top" ? "flex-start" : a === "right" || a === "bottom" ? "flex-end" : "center");
  const textStyle: Record<string, unknown> = {
    display: "flex",
    fontFamily: text.font.family,
    fontWeight: text.font.weight,
    fontSize: metrics.fontSize,
    lineHeight: style.lineHeight ?? 1.15,
    letterSpacing: (style.letterSpacing ?? 0) * metrics.fontSize,
    color: toCss(color),
    whiteSpace: "pre",
    textAlign: align,
  };
  if (text.shadow && !omitShadow) {
    const c = TEXT_SHADOW.color;
    textStyle.textShadow = `${TEXT_SHADOW.dx}px ${TEXT_SHADOW.dy}px ${TEXT_SHADOW.blur}px rgba(${c.r},${c.g},${c.b},${c.a})`;
  }
  const words = node("div", { style: textStyle, children: metrics.lines.join("\n") });
  const outer = { ...boxStyle(layer), flexDirection: "column", justifyContent: flexAlign(vertical), alignItems: flexAlign(align) };
  if (!style.background) return node("div", { style: outer, children: words });
  const padding = style.background.padding ?? 24;
  const bg = fillToCss(style.background.fill, plan.pinColor);
  const radius = style.background.shape === "pill" ? 999 : (style.background.radius ?? 0);
  // The shape fills the layer box; the text sits inside its padding.
  return node("div", {
    style: {
      ...outer,
      padding,
      borderRadius: radius,
      ...(isGradient(style.background.fill) ? { backgroundImage: bg } : { backgroundColor: bg }),
    },
    children: words,
  });
}

function pictureNode(picture: PlannedPicture, layer: PictureLayer): SatoriNode | null {
  const { url } = picture;
  if (!url) return null;
  return node("div", {
    style: { ...boxStyle(layer), overflow: "hidden", borderRadius: layer.borderRadius ?? 0 },
    children: node("img", {
      src: url,
      width: layer.width,
      height: layer.height,
      style: { width: layer.width, height: layer.height, objectFit: layer.fit ?? "cover" },
    }),
  });
}

function layerNode(layer: Layer, plan: PinPlan, omitShadows = false): SatoriNode | null {
  if (layer.type === "text") {
    const text = plan.texts.get(layer.id);
    return text && text.metrics.lines.length > 0 ? textNode(text, layer, plan, omitShadows) : null;
  }
  if (layer.type === "SVG") return shapeNode(layer, plan);
  const picture = plan.pictures.get(layer.id);
  return picture ? pictureNode(picture, layer) : null;
}

export interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The root element drawing the given layers on a transparent (or the
 * template's) background: the whole pin, or only `frame`, a part of it.
 */
export function satoriElement(plan: PinPlan, layers: Layer[], withBackground: boolean, frame?: Frame, options: { omitShadows?: boolean } = {}): SatoriNode {
  const area = frame ?? { x: 0, y: 0, width: plan.width, height: plan.height };
  const style: Record<string, unknown> = { width: area.width, height: area.height, display: "flex", position: "relative" };
  if (withBackground) {
    const bg = fillToCss(plan.background, plan.pinColor);
    if (isGradient(plan.background)) style.backgroundImage = bg;
    else style.backgroundColor = bg;
  }
  const shifted = frame ? layers.map((layer) => ({ ...layer, x: layer.x - frame.x, y: layer.y - frame.y })) : layers;
  return node("div", { style, children: shifted.map((layer) => layerNode(layer, plan, options.omitShadows)).filter((n): n is SatoriNode => n !== null) });
}

/** The part of the pin some layers can paint on: their boxes (rotated, with room for text shadows), within the pin. */
export function paintedFrame(plan: PinPlan, layers: Layer[], margin = 24): Frame | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const layer of layers) {
    const cx = layer.x + layer.width / 2;
    const cy = layer.y + layer.height / 2;
    const angle = ((layer.rotation ?? 0) * Math.PI) / 180;
    const halfW = (Math.abs(layer.width * Math.cos(angle)) + Math.abs(layer.height * Math.sin(angle))) / 2;
    const halfH = (Math.abs(layer.width * Math.sin(angle)) + Math.abs(layer.height * Math.cos(angle))) / 2;
    x0 = Math.min(x0, cx - halfW - margin);
    y0 = Math.min(y0, cy - halfH - margin);
    x1 = Math.max(x1, cx + halfW + margin);
    y1 = Math.max(y1, cy + halfH + margin);
  }
  const left = Math.max(0, Math.floor(x0));
  const top = Math.max(0, Math.floor(y0));
  const right = Math.min(plan.width, Math.ceil(x1));
  const bottom = Math.min(plan.height, Math.ceil(y1));
  return right > left && bottom > top ? { x: left, y: top, width: right - left, height: bottom - top } : null;
}

/** The whole pin as one satori element: what the browser preview draws. */
export function previewElement(plan: PinPlan, design: TemplateDesign): SatoriNode {
  return satoriElement(
    plan,
    design.layers.filter((layer) => !layer.hidden),
    true,
  );
}

/** The satori font list for a plan. */
export function satoriFonts(plan: PinPlan) {
  return plan.fonts.map((font) => ({ name: font.family, data: font.data, weight: font.weight, style: "normal" as const }));
}

// ---------------------------------------------------------------- plain SVG for shapes (worker)

const escapeAttribute = escapeHtml;

function paintAttributes(
  fill: Fill,
  plan: PinPlan,
  gradientId: string,
  gradientLine: (angle: number) => [number, number, number, number],
): { attrs: string; defs: string } {
  if (isGradient(fill)) {
    const [x1, y1, x2, y2] = gradientLine(fill.angle);
    const stop = (offset: number, color: Fill) => {
      const resolved = resolveColor(color as never, plan.pinColor);
      const c = resolved === "auto" ? { r: 0, g: 0, b: 0, a: 0 } : resolved;
      return `<stop offset="${offset}" stop-color="${toCss({ ...c, a: 1 })}" stop-opacity="${c.a}"/>`;
    };
    return {
      defs: `<linearGradient id="${gradientId}" gradientUnits="userSpaceOnUse" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stop(0, fill.from)}${stop(1, fill.to)}</linearGradient>`,
      attrs: `fill="url(#${gradientId})"`,
    };
  }
  const resolved = resolveColor(fill, plan.pinColor);
  if (resolved === "auto") return { defs: "", attrs: `fill="none"` };
  return { defs: "", attrs: `fill="${toCss({ ...resolved, a: 1 })}" fill-opacity="${resolved.a}"` };
}

/**
 * A shape as plain SVG markup in pin coordinates, drawn the way the preview's
 * satori element draws it (same geometry, gradients and strokes), without
 * the nested images and masks that make resvg slow.
 */
export function shapeMarkup(layer: SvgLayer, plan: PinPlan): string {
  const { x, y, width: w, height: h } = layer;
  const cx = x + w / 2;
  const cy = y + h / 2;
  const id = `g-${escapeAttribute(layer.id)}`;
  const transform = layer.rotation ? ` transform="rotate(${layer.rotation} ${cx} ${cy})"` : "";
  const stroke =
    layer.stroke && layer.strokeWidth
      ? (() => {
          const c = resolveColor(layer.stroke!, plan.pinColor);
          return c === "auto" ? "" : ` stroke="${toCss({ ...c, a: 1 })}" stroke-opacity="${c.a}" stroke-width="${layer.strokeWidth}"`;
        })()
      : "";
  let body: string;
  let defs = "";
  if (layer.shape === "rect" || layer.shape === "ellipse") {
    // CSS geometry, as satori draws the div: the gradient line through the centre; borders inside the box.
    const paint = paintAttributes(layer.fill, plan, id, (angle) => {
      const rad = (angle * Math.PI) / 180;
      const length = Math.abs(w * Math.sin(rad)) + Math.abs(h * Math.cos(rad));
      const dx = (Math.sin(rad) * length) / 2;
      const dy = (-Math.cos(rad) * length) / 2;
      return [cx - dx, cy - dy, cx + dx, cy + dy];
    });
    defs = paint.defs;
    const inset = stroke ? (layer.strokeWidth ?? 0) / 2 : 0;
    if (layer.shape === "ellipse") {
      body = `<ellipse cx="${cx}" cy="${cy}" rx="${w / 2 - inset}" ry="${h / 2 - inset}" ${paint.attrs}${stroke}/>`;
    } else {
      const radius = Math.max(0, Math.min(layer.borderRadius ?? 0, w / 2, h / 2) - inset);
      body = `<rect x="${x + inset}" y="${y + inset}" width="${w - 2 * inset}" height="${h - 2 * inset}" rx="${radius}" ${paint.attrs}${stroke}/>`;
    }
  } else {
    // Paths live in a 100 x 100 box stretched to the layer, like the preview's inline svg.
    const paint = paintAttributes(layer.fill, plan, id, (angle) => {
      const rad = ((angle - 90) * Math.PI) / 180;
      return [50 - Math.cos(rad) * 50, 50 - Math.sin(rad) * 50, 50 + Math.cos(rad) * 50, 50 + Math.sin(rad) * 50];
    });
    defs = paint.defs;
    const d = escapeAttribute(layer.shape === "path" ? (layer.path ?? "") : SHAPE_PATHS[layer.shape]);
    body = `<path d="${d}" transform="translate(${x} ${y}) scale(${w / 100} ${h / 100})" ${paint.attrs}${stroke ? `${stroke} vector-effect="non-scaling-stroke"` : ""}/>`;
  }
  const opacity = (layer.opacity ?? 1) < 1 ? ` opacity="${layer.opacity}"` : "";
  return `${defs ? `<defs>${defs}</defs>` : ""}<g${transform}${opacity}>${body}</g>`;
}
