import type { TemplateDesign, TemplateDesignInput } from "../../../../contracts/content/template.ts";
import { templateNeeds } from "../../../domain/template-fit.ts";

/**
 * Small builders for the standard templates. The templates themselves are
 * data (one file per family); these only save repeating the layer fields.
 * Every builder returns a plain layer object as the template schema reads it.
 */

/** A standard template as seeded: a stable slug and its design. */
export interface StandardTemplateSeed {
  id: string;
  design: TemplateDesignInput;
}

export type LayerInput = TemplateDesignInput["layers"][number];
type TextLayerInput = Extract<LayerInput, { type: "text" }>;
type SvgLayerInput = Extract<LayerInput, { type: "SVG" }>;
export type TextStyleInput = NonNullable<TextLayerInput["style"]>;
export type FillInput = SvgLayerInput["fill"];
export type ColorInput = Exclude<FillInput, { from: unknown }>;
type Family = NonNullable<TemplateDesignInput["family"]>;
type Content = TextLayerInput["content"];

/** x, y, width, height in pin pixels (the pin is 1000 x 1500). */
export type Box = readonly [number, number, number, number];

const at = ([x, y, width, height]: Box) => ({ x, y, width, height });

export interface PictureOptions {
  index?: number;
  fit?: "cover" | "contain";
  radius?: number;
  opacity?: number;
}

/** A picture box fed by the post's detected image number `index`. */
export function photo(id: string, name: string, box: Box, options: PictureOptions = {}): LayerInput {
  return {
    type: "Image",
    id,
    name,
    ...at(box),
    source: "detected",
    imageIndex: options.index ?? 0,
    fit: options.fit ?? "cover",
    borderRadius: options.radius ?? 0,
    ...(options.opacity !== undefined ? { opacity: options.opacity } : {}),
  };
}

/** A video-ready box: the video plays there; a still pin shows the post's image. */
export function video(id: string, name: string, box: Box, options: PictureOptions = {}): LayerInput {
  return { ...(photo(id, name, box, options) as object), type: "Video" } as LayerInput;
}

export interface ShapeOptions {
  radius?: number;
  opacity?: number;
  rotation?: number;
  stroke?: ColorInput;
  strokeWidth?: number;
}

function svg(id: string, name: string, shape: SvgLayerInput["shape"], box: Box, fill: FillInput, options: ShapeOptions & { path?: string }): LayerInput {
  return {
    type: "SVG",
    id,
    name,
    shape,
    ...at(box),
    fill,
    ...(options.path ? { path: options.path } : {}),
    ...(options.radius ? { borderRadius: options.radius } : {}),
    ...(options.opacity !== undefined ? { opacity: options.opacity } : {}),
    ...(options.rotation ? { rotation: options.rotation } : {}),
    ...(options.stroke ? { stroke: options.stroke, strokeWidth: options.strokeWidth ?? 2 } : {}),
  };
}

export const rect = (id: string, name: string, box: Box, fill: FillInput, options: ShapeOptions = {}) => svg(id, name, "rect", box, fill, options);
export const ellipse = (id: string, name: string, box: Box, fill: FillInput, options: ShapeOptions = {}) => svg(id, name, "ellipse", box, fill, options);
export const triangle = (id: string, name: string, box: Box, fill: FillInput, options: ShapeOptions = {}) => svg(id, name, "triangle", box, fill, options);
export const wave = (id: string, name: string, box: Box, fill: FillInput, options: ShapeOptions = {}) => svg(id, name, "wave", box, fill, options);
export const arch = (id: string, name: string, box: Box, fill: FillInput, options: ShapeOptions = {}) => svg(id, name, "arch", box, fill, options);
/** A path in a 100 x 100 box, stretched to the layer box. */
export const path = (id: string, name: string, box: Box, d: string, fill: FillInput, options: ShapeOptions = {}) =>
  svg(id, name, "path", box, fill, { ...options, path: d });

/** An empty outline (a transparent rectangle with a stroke). */
export const frame = (id: string, name: string, box: Box, color: ColorInput, width = 3, radius = 0) =>
  svg(id, name, "rect", box, "#ffffff00", { stroke: color, strokeWidth: width, radius });

export interface TextOptions {
  text?: string;
  maxLines?: number;
  opacity?: number;
  /** For content "listItem": which list item (0 = the first). */
  item?: number;
}

export function text(id: string, name: string, content: Content, box: Box, style: TextStyleInput = {}, options: TextOptions = {}): LayerInput {
  return {
    type: "text",
    id,
    name,
    content,
    ...at(box),
    ...(options.text !== undefined ? { text: options.text } : {}),
    ...(options.item !== undefined ? { item: options.item } : {}),
    ...(options.maxLines ? { maxLines: options.maxLines } : {}),
    ...(options.opacity !== undefined ? { opacity: options.opacity } : {}),
    style,
  };
}

/**
 * A one-line text whose size is a ceiling rather than a promise: the box is
 * cut to one line at `fontSize` (or, with a background, the padding grows to
 * leave that much room) and the size becomes "auto", so a short website shows
 * at the size the design asks for and a long one shrinks instead of being cut.
 */
export function oneLine(box: Box, style: TextStyleInput): { box: Box; style: TextStyleInput } {
  if (typeof style.fontSize !== "number") return { box, style };
  const room = Math.ceil(style.fontSize * (style.lineHeight ?? 1.15));
  if (style.background) {
    const padding = Math.max(4, Math.floor((box[3] - room) / 2));
    return { box, style: { ...style, fontSize: "auto", background: { ...style.background, padding } } };
  }
  return { box: [box[0], box[1] + Math.round((box[3] - room) / 2), box[2], room], style: { ...style, fontSize: "auto" } };
}

function oneLineText(id: string, name: string, content: Content, box: Box, style: TextStyleInput, options: TextOptions): LayerInput {
  const fitted = oneLine(box, style);
  return text(id, name, content, fitted.box, fitted.style, { maxLines: 1, ...options });
}

export const title = (box: Box, style: TextStyleInput = {}, options: TextOptions = {}) => text("title", "Title", "title", box, style, options);
export const description = (box: Box, style: TextStyleInput = {}, options: TextOptions = {}) =>
  text("description", "Description", "description", box, style, options);
export const url = (box: Box, style: TextStyleInput = {}, options: TextOptions = {}) => oneLineText("url", "Website", "urlText", box, style, options);
export const brand = (box: Box, style: TextStyleInput = {}, options: TextOptions = {}) => oneLineText("brand", "Brand", "brandName", box, style, options);
export const price = (box: Box, style: TextStyleInput = {}, options: TextOptions = {}) => oneLineText("price", "Price", "price", box, style, options);
/** The post's quotation (quote templates). */
export const quote = (box: Box, style: TextStyleInput = {}, options: TextOptions = {}) => text("quote", "Quote", "quote", box, style, options);
/** One of the post's list items on one line (number `n`, counted from 1), shrinking to fit rather than wrapping. */
export const listItem = (n: number, box: Box, style: TextStyleInput) => oneLineText(`item-${n}`, `List item ${n}`, "listItem", box, style, { item: n - 1 });
/** Fixed words (a label such as "Before" or "Shop now"). */
export const label = (id: string, name: string, words: string, box: Box, style: TextStyleInput = {}, options: TextOptions = {}) =>
  text(id, name, "custom", box, style, { ...options, text: words });

/** Small print: the website or brand line most templates carry. */
export const small = (font: string, size: number, color: ColorInput = "auto", extra: TextStyleInput = {}): TextStyleInput => ({
  fontFamily: font,
  fontSize: size,
  fontWeight: 700,
  color,
  uppercase: true,
  letterSpacing: 0.12,
  ...extra,
});

/** Body copy at a fixed size. */
export const body = (font: string, size: number, color: ColorInput = "auto", extra: TextStyleInput = {}): TextStyleInput => ({
  fontFamily: font,
  fontSize: size,
  fontWeight: 400,
  color,
  uppercase: false,
  lineHeight: 1.4,
  ...extra,
});

export function template(
  id: string,
  family: Family,
  name: string,
  categories: string[],
  background: FillInput,
  layers: LayerInput[],
  imageSlots?: number,
): StandardTemplateSeed {
  const pictures = layers.filter((layer) => layer.type === "Image" || layer.type === "Video").length;
  // Every standard template declares what it needs from a post (issue 13): what its layers show and its family implies.
  const needs = templateNeeds({ layers, family } as Pick<TemplateDesign, "layers" | "family">);
  return { id, design: { title: name, background, layers, categories, family, imageSlots: imageSlots ?? pictures, needs } };
}

/** Reusable path data (100 x 100 boxes). */
export const PATHS = {
  /** A pair of opening quotation marks. */
  quote:
    "M4 58 C4 30 18 10 40 4 L43 14 C31 19 25 28 24 38 C35 38 43 46 43 58 C43 70 34 78 23 78 C12 78 4 70 4 58 Z M54 58 C54 30 68 10 90 4 L93 14 C81 19 75 28 74 38 C85 38 93 46 93 58 C93 70 84 78 73 78 C62 78 54 70 54 58 Z",
  /** A pair of closing quotation marks. */
  quoteClose:
    "M96 42 C96 70 82 90 60 96 L57 86 C69 81 75 72 76 62 C65 62 57 54 57 42 C57 30 66 22 77 22 C88 22 96 30 96 42 Z M46 42 C46 70 32 90 10 96 L7 86 C19 81 25 72 26 62 C15 62 7 54 7 42 C7 30 16 22 27 22 C38 22 46 30 46 42 Z",
  /** A play triangle pointing right. */
  play: "M8 0 L100 50 L8 100 Z",
  /** A tick. */
  check: "M8 52 L22 38 L40 56 L80 14 L94 28 L40 84 Z",
  /** A right arrow. */
  arrow: "M0 38 L62 38 L62 12 L100 50 L62 88 L62 62 L0 62 Z",
  /** A thin right arrow (chevron line). */
  chevron: "M20 8 L34 8 L78 50 L34 92 L20 92 L64 50 Z",
  /** A 12-point burst. */
  burst:
    "M50 0 L60.1 12.3 L75 6.7 L77.6 22.4 L93.3 25 L87.7 39.9 L100 50 L87.7 60.1 L93.3 75 L77.6 77.6 L75 93.3 L60.1 87.7 L50 100 L39.9 87.7 L25 93.3 L22.4 77.6 L6.7 75 L12.3 60.1 L0 50 L12.3 39.9 L6.7 25 L22.4 22.4 L25 6.7 L39.9 12.3 Z",
  /** A four-point sparkle. */
  sparkle: "M50 0 C54 36 64 46 100 50 C64 54 54 64 50 100 C46 64 36 54 0 50 C36 46 46 36 50 0 Z",
  /** A price tag with a notch on the left. */
  tag: "M0 50 L22 4 L100 4 L100 96 L22 96 Z",
  /** A heart. */
  heart: "M50 92 C20 70 2 52 2 30 C2 14 14 4 28 4 C38 4 46 10 50 18 C54 10 62 4 72 4 C86 4 98 14 98 30 C98 52 80 70 50 92 Z",
  /** A speech bubble with its tail at the bottom left. */
  bubble: "M8 0 L92 0 C96 0 100 4 100 8 L100 80 C100 84 96 88 92 88 L30 88 L12 100 L16 88 L8 88 C4 88 0 84 0 80 L0 8 C0 4 4 0 8 0 Z",
  /** Masks the two top corners of a box into an arch (fill it with the colour around it). */
  archMask: "M0 0 L100 0 L100 100 A50 100 0 0 0 0 100 Z",
  /** Masks the two bottom corners into an upside-down arch. */
  archMaskBottom: "M0 100 L100 100 L100 0 A50 100 0 0 1 0 0 Z",
  /** A slanted top edge (a panel rising to the right). */
  slantUp: "M0 30 L100 0 L100 100 L0 100 Z",
  /** A slanted top edge (a panel rising to the left). */
  slantDown: "M0 0 L100 30 L100 100 L0 100 Z",
  /** A soft blob. */
  blob: "M52 2 C74 2 96 16 98 40 C100 62 88 86 64 96 C42 104 14 94 5 72 C-3 52 4 30 18 16 C27 7 38 2 52 2 Z",
  /** A leaf. */
  leaf: "M4 96 C4 40 40 4 96 4 C96 60 60 96 4 96 Z",
  /** A scalloped edge along the top (seven bumps). */
  scallop:
    "M0 100 L0 50 A7.14 50 0 0 1 14.28 50 A7.14 50 0 0 1 28.57 50 A7.14 50 0 0 1 42.86 50 A7.14 50 0 0 1 57.14 50 A7.14 50 0 0 1 71.43 50 A7.14 50 0 0 1 85.71 50 A7.14 50 0 0 1 100 50 L100 100 Z",
  /** A ribbon banner with notched ends. */
  ribbon: "M0 0 L100 0 L92 50 L100 100 L0 100 L8 50 Z",
  /** A round seal with a scalloped edge (16 points). */
  seal: "M50 0 L58.6 6.8 L69.1 3.8 L74.4 13.4 L85.4 14.6 L86.6 25.6 L96.2 30.9 L93.2 41.4 L100 50 L93.2 58.6 L96.2 69.1 L86.6 74.4 L85.4 85.4 L74.4 86.6 L69.1 96.2 L58.6 93.2 L50 100 L41.4 93.2 L30.9 96.2 L25.6 86.6 L14.6 85.4 L13.4 74.4 L3.8 69.1 L6.8 58.6 L0 50 L6.8 41.4 L3.8 30.9 L13.4 25.6 L14.6 14.6 L25.6 13.4 L30.9 3.8 L41.4 6.8 Z",
};
