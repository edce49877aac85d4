import * as v from "valibot";
import { plainLine, plainText } from "../fields.ts";

/**
 * A pin template is data: a canvas and an ordered stack of layers (first is
 * bottom-most). One engine (workers/render/) turns template + post into the
 * pin: the browser preview and the downloaded JPEG come from the same layout.
 *
 * Colours are CSS hex colours (#rgb, #rrggbb, #rrggbbaa) or a role that the
 * post decides: "pin" (the post's colour), "pin-dark", "pin-light", and for
 * text "auto" (black or white, whichever reads better on what is behind it).
 */

export const PIN_WIDTH = 1000;
export const PIN_HEIGHT = 1500;

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
export const COLOR_ROLES = ["pin", "pin-dark", "pin-light", "auto"] as const;
export const Color = v.union(
  [v.pipe(v.string(), v.regex(HEX)), v.picklist(COLOR_ROLES)],
  "must be a hex colour like #1d2226 or one of pin, pin-dark, pin-light, auto",
);
export type Color = v.InferOutput<typeof Color>;

export const Gradient = v.object({
  from: Color,
  to: Color,
  /** CSS angle in degrees: 180 runs top to bottom. */
  angle: v.pipe(v.number(), v.minValue(0), v.maxValue(360)),
});
export type Gradient = v.InferOutput<typeof Gradient>;

export const Fill = v.union([Color, Gradient], "must be a colour or a gradient {from, to, angle}");
export type Fill = v.InferOutput<typeof Fill>;

const coordinate = (name: string) => v.pipe(v.number(`${name} must be a number`), v.minValue(-2000), v.maxValue(4000));
const size = (name: string) => v.pipe(v.number(`${name} must be a number`), v.minValue(1, `${name} must be at least 1`), v.maxValue(4000));

const layerBase = {
  id: v.pipe(v.string("id is required"), v.minLength(1), v.maxLength(64)),
  name: v.pipe(v.string("name is required"), plainLine, v.maxLength(80)),
  x: coordinate("x"),
  y: coordinate("y"),
  width: size("width"),
  height: size("height"),
  rotation: v.optional(v.pipe(v.number(), v.minValue(-360), v.maxValue(360)), 0),
  opacity: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 1),
  hidden: v.optional(v.boolean(), false),
};

/** Where an image layer's picture comes from. */
export const IMAGE_SOURCES = ["detected", "uploaded", "logo", "url"] as const;

const imageLayer = {
  ...layerBase,
  /** Which picture feeds the layer (spec: detected image, uploaded image, logo). */
  source: v.optional(v.picklist(IMAGE_SOURCES), "detected"),
  /** For detected and uploaded images: which one (0 = the first). */
  imageIndex: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20)), 0),
  /** For source "url": the picture itself. */
  src: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  fit: v.optional(v.picklist(["cover", "contain"]), "cover"),
  borderRadius: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(2000)), 0),
  /** The spec's layer flags, kept in step with `source`. */
  containsImage: v.optional(v.boolean(), true),
  useDetectedImages: v.optional(v.boolean()),
  useLogoImage: v.optional(v.boolean()),
};

export const ImageLayer = v.object({ type: v.literal("Image"), ...imageLayer });
/** A video-ready area: the video issue plays the video there; a still pin shows the post's image. */
export const VideoLayer = v.object({ type: v.literal("Video"), ...imageLayer });

export const SHAPES = ["rect", "ellipse", "triangle", "wave", "arch", "path"] as const;
export const SvgLayer = v.object({
  type: v.literal("SVG"),
  ...layerBase,
  shape: v.picklist(SHAPES, "shape must be one of rect, ellipse, triangle, wave, arch, path"),
  /** For shape "path": SVG path data in a 100 x 100 box, stretched to the layer. */
  path: v.optional(v.pipe(v.string(), v.maxLength(4000), v.regex(/^[MmLlHhVvCcSsQqTtAaZz0-9 ,.\-eE]+$/, "path must be SVG path data"))),
  fill: Fill,
  stroke: v.optional(Color),
  strokeWidth: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(100)), 0),
  borderRadius: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(2000)), 0),
});

/** What a text layer shows. */
export const TEXT_CONTENTS = ["title", "description", "urlText", "brandName", "price", "listItem", "quote", "custom"] as const;

export const TextStyle = v.object({
  /** A font family, or "design" to follow the design settings' font. */
  fontFamily: v.optional(v.pipe(v.string(), v.maxLength(80)), "design"),
  /** Pixels, or "auto" to fit the box (5-600 px). */
  fontSize: v.optional(v.union([v.pipe(v.number(), v.minValue(5), v.maxValue(600)), v.literal("auto")]), "auto"),
  fontWeight: v.optional(v.picklist([400, 700]), 700),
  color: v.optional(Color, "auto"),
  align: v.optional(v.picklist(["left", "center", "right"]), "center"),
  verticalAlign: v.optional(v.picklist(["top", "middle", "bottom"]), "middle"),
  /** true, false, or "design" to follow useUpperCaseFont. */
  uppercase: v.optional(v.union([v.boolean(), v.literal("design")]), "design"),
  lineHeight: v.optional(v.pipe(v.number(), v.minValue(0.7), v.maxValue(3)), 1.15),
  letterSpacing: v.optional(v.pipe(v.number(), v.minValue(-0.2), v.maxValue(1)), 0),
  /** A shape behind the text. */
  background: v.optional(
    v.object({
      shape: v.picklist(["rect", "pill"]),
      fill: Fill,
      padding: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(200)), 24),
      radius: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(500)), 0),
    }),
  ),
});
export type TextStyle = v.InferOutput<typeof TextStyle>;

export const TextLayer = v.object({
  type: v.literal("text"),
  ...layerBase,
  content: v.picklist(TEXT_CONTENTS, "content must be one of title, description, urlText, brandName, price, listItem, quote, custom"),
  /** The words for content "custom"; for other contents an optional prefix such as "Read more at ". */
  text: v.optional(v.pipe(v.string(), v.maxLength(500))),
  /** For content "listItem": which of the post's list items (0 = the first). */
  item: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(29))),
  maxLines: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(30))),
  style: v.optional(TextStyle, {}),
});

export const Layer = v.variant("type", [ImageLayer, VideoLayer, SvgLayer, TextLayer], "type must be Image, SVG, Video or text");
export type Layer = v.InferOutput<typeof Layer>;
export type ImageLayer = v.InferOutput<typeof ImageLayer>;
export type VideoLayer = v.InferOutput<typeof VideoLayer>;
export type SvgLayer = v.InferOutput<typeof SvgLayer>;
export type TextLayer = v.InferOutput<typeof TextLayer>;

export const TEMPLATE_FAMILIES = ["full-bleed", "split", "collage", "text-only", "list", "product", "quote", "before-after", "video"] as const;

/**
 * What a template needs from a post to fill every slot (issue 13, decision
 * 023). Standard templates declare it; the layers imply at least as much
 * (workers/domain/template-fit.ts), so users' own templates need no declaration.
 */
export const TemplateNeeds = v.object({
  /** Different pictures (near-duplicates count once). */
  pictures: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20))),
  /** List items (from the post's headings and lists). */
  listItems: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(30))),
  price: v.optional(v.boolean()),
  video: v.optional(v.boolean()),
  /** A before and an after picture. */
  comparison: v.optional(v.boolean()),
  quote: v.optional(v.boolean()),
});
export type TemplateNeeds = v.InferOutput<typeof TemplateNeeds>;

/** The design of a template: what the engine needs to draw it. */
export const TemplateDesign = v.object({
  title: v.pipe(v.string("title is required"), plainLine, v.trim(), v.minLength(1, "title is required"), v.maxLength(120, "title is too long")),
  background: v.optional(Fill, "#ffffff"),
  layers: v.pipe(v.array(Layer, "layers must be a list"), v.maxLength(60, "a template has at most 60 layers")),
  categories: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(60))), v.maxLength(20)), []),
  family: v.optional(v.picklist(TEMPLATE_FAMILIES)),
  /** How many detected images the design shows (a collage of 3 needs 3). */
  imageSlots: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20))),
  needs: v.optional(TemplateNeeds),
});
export type TemplateDesign = v.InferOutput<typeof TemplateDesign>;
/** A design as written (defaults not yet filled in), e.g. in the seed data. */
export type TemplateDesignInput = v.InferInput<typeof TemplateDesign>;

/** A stored template (spec section 3). */
export interface Template extends TemplateDesign {
  templateId: string;
  isStandardTemplate: boolean;
  isShared: boolean;
  /** Whether the caller owns it (whose it is otherwise is not said). */
  isOwn: boolean;
  favoriteCount?: number;
  isFavorite?: boolean;
  updatedAt: string;
}

/** What fills a template: one post (spec section 3, Post) plus the design settings that affect drawing. */
export const PostContent = v.object({
  title: v.optional(v.pipe(v.string(), plainText, v.maxLength(500)), ""),
  description: v.optional(v.pipe(v.string(), plainText, v.maxLength(2000)), ""),
  URLText: v.optional(v.pipe(v.string(), v.maxLength(200)), ""),
  brandName: v.optional(v.pipe(v.string(), plainLine, v.maxLength(100)), ""),
  price: v.optional(v.pipe(v.string(), v.maxLength(40)), ""),
  /** The post's list items (its list or section headings), for list lines. */
  listItems: v.optional(v.pipe(v.array(v.pipe(v.string(), plainLine, v.maxLength(200))), v.maxLength(30)), []),
  /** A quotation the post carries (a blockquote), for quote templates. */
  quote: v.optional(v.pipe(v.string(), plainText, v.maxLength(500)), ""),
  /** Detected images (from the page, product or feed), in order. */
  allImages: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(2048))), v.maxLength(40)), []),
  uploadedImages: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(2048))), v.maxLength(40)), []),
  logoImage: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  color: v.optional(
    v.object({
      r: v.pipe(v.number(), v.minValue(0), v.maxValue(255)),
      g: v.pipe(v.number(), v.minValue(0), v.maxValue(255)),
      b: v.pipe(v.number(), v.minValue(0), v.maxValue(255)),
      a: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 1),
    }),
    { r: 81, g: 195, b: 166, a: 1 },
  ),
  fontFamily: v.optional(v.pipe(v.string(), v.maxLength(80)), "Carter One"),
  /** An uploaded font (its media-library URL) that fontFamily names; the renderer loads it instead of a bundled font. */
  fontUrl: v.optional(v.pipe(v.string(), v.maxLength(2048)), ""),
  fontColor: v.optional(v.union([v.pipe(v.string(), v.regex(HEX)), v.literal("")])),
  useUpperCaseFont: v.optional(v.boolean(), true),
  fixLowContrastText: v.optional(v.boolean(), true),
});
export type PostContent = v.InferInput<typeof PostContent>;
export type ResolvedPostContent = v.InferOutput<typeof PostContent>;

/** The default pin colour and colour index (spec section 9). */
export const DEFAULT_PIN_COLOR = { r: 81, g: 195, b: 166, a: 1 } as const;
export const DEFAULT_COLOR_INDEX = 1;
export const DEFAULT_FONT_FAMILY = "Carter One";
